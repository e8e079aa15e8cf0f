/* SPDX-License-Identifier: MIT */
/*
 * The Ethernet switch's egress: eight queues per output port, one per
 * priority (IEEE 802.1Q 8.6.6), and the scheduler between them (802.1Q
 * 8.6.8): the priorities in profile.strict are served first, highest
 * priority first; the others share what is left by deficit weighted
 * round robin (Shreedhar and Varghese, "Efficient fair queueing using
 * deficit round robin", SIGCOMM 1995), each visit granting weight x MTU
 * bytes so that a visit always allows a frame.
 * A queue takes part only when its head may go: it is ready (cut-through
 * may not start a frame that would finish before its tail has arrived)
 * and its priority is not paused by PFC (the port's flow control).
 * The frame leaves the buffer when its last byte has left the output.
 * ECN marking (eth_ecn.c) looks at the queue a frame joins, without the
 * frame, or at the queue it leaves, without the frame: q->bytes counts
 * the frame from its enqueue to the end of its sending.
 */
#include "switch/eth_switch_int.h"

static void eg_kick_ev(void *obj, uint64_t arg)
{
	struct ibfs_eth_switch *sw = obj;
	int out = (int)(arg & 0xFF);
	ibfs_time_t at = arg >> 8;

	if (sw->port[out].wake_at != at)
		return;
	sw->port[out].wake_at = IBFS_TIME_NEVER;
	ibfs__eth_kick(sw, out);
}

void ibfs__eth_enqueue(struct ibfs_eth_switch *sw, int out,
		       struct ibfs_packet *p)
{
	struct eth_queue *q = &sw->port[out].q[p->vl];
	struct ibfs_port *op = &sw->dev.ports[out];
	ibfs_time_t now = sw->dev.fab->eq.now;
	ibfs_time_t ser = ibfs__port_ser(op, p->wire_bytes);

	/* Cut-through: the output may not outrun the frame's tail. */
	p->ready_at = now;
	if (!sw->prof.store_forward && p->tail_at > ser &&
	    p->tail_at - ser > now)
		p->ready_at = p->tail_at - ser;
	p->out_port = (uint8_t)out;
	p->next = NULL;
	if (q->tail)
		q->tail->next = p;
	else
		q->head = p;
	q->tail = p;
	ibfs__eth_ecn_at(sw, out, p, q->bytes, IBFS_ETH_ECN_ENQUEUE);
	q->bytes += ibfs__eth_frame_bytes(p);
	ibfs__eth_kick(sw, out);
}

/* 1 when queue c's head may start now; a later ready time is noted. */
static int eg_can(struct ibfs_eth_switch *sw, int out, int c,
		  ibfs_time_t *wake)
{
	struct ibfs_packet *h = sw->port[out].q[c].head;
	ibfs_time_t now = sw->dev.fab->eq.now;

	if (!h)
		return 0;
	if (h->ready_at > now) {
		if (h->ready_at < *wake)
			*wake = h->ready_at;
		return 0;
	}
	return ibfs__port_flow_allows(&sw->dev.ports[out], h);
}

/* DWRR among the non-strict priorities: the queue to serve, or -1. */
static int eg_dwrr(struct ibfs_eth_switch *sw, int out, ibfs_time_t *wake)
{
	struct eth_sw_port *sp = &sw->port[out];
	uint8_t dw = (uint8_t)~sw->prof.strict;

	if (!dw)
		return -1;
	for (int i = 0; i < 2 * IBFS_ETH_PRIOS + 1; i++) {
		int c = sp->rr;
		struct eth_queue *q = &sp->q[c];

		if ((dw & (1u << c)) && eg_can(sw, out, c, wake)) {
			if (!q->visited) {
				q->deficit += (int64_t)sw->prof.weight[c] *
					      sw->prof.mtu;
				q->visited = 1;
			}
			if (q->deficit >= (int64_t)q->head->wire_bytes)
				return c;
		} else if ((dw & (1u << c)) && !q->head) {
			q->deficit = 0; /* an empty queue keeps no credit */
		}
		q->visited = 0;
		sp->rr = (uint8_t)((c + 1) % IBFS_ETH_PRIOS);
	}
	return -1;
}

static int eg_pick(struct ibfs_eth_switch *sw, int out, ibfs_time_t *wake)
{
	for (int c = IBFS_ETH_PRIOS - 1; c >= 0; c--)
		if ((sw->prof.strict & (1u << c)) && eg_can(sw, out, c, wake))
			return c;
	return eg_dwrr(sw, out, wake);
}

static void eg_wake(struct ibfs_eth_switch *sw, int out, ibfs_time_t at)
{
	struct eth_sw_port *sp = &sw->port[out];

	if (at == IBFS_TIME_NEVER || at >= sp->wake_at)
		return;
	sp->wake_at = at;
	ibfs__eq_schedule(&sw->dev.fab->eq, at, eg_kick_ev, sw,
			  at << 8 | (uint64_t)out);
}

void ibfs__eth_kick(struct ibfs_eth_switch *sw, int out)
{
	struct ibfs_port *op = &sw->dev.ports[out];
	struct eth_sw_port *sp = &sw->port[out];
	ibfs_time_t wake = IBFS_TIME_NEVER;
	int c;

	if (!ibfs__port_idle_up(op))
		return;
	c = eg_pick(sw, out, &wake);
	if (c < 0) {
		eg_wake(sw, out, wake);
		return;
	}
	struct eth_queue *q = &sp->q[c];
	struct ibfs_packet *p = q->head;

	q->head = p->next;
	if (!q->head)
		q->tail = NULL;
	p->next = NULL;
	if (!(sw->prof.strict & (1u << c)))
		q->deficit -= p->wire_bytes;
	sp->cur = (struct eth_sending){
		.in_port = p->in_port, .prio = (uint8_t)c,
		.in_vl = p->in_vl, .blocks = p->blocks,
		.bytes = ibfs__eth_frame_bytes(p),
	};
	sp->st[c].tx_frames++;
	sp->st[c].tx_bytes += p->wire_bytes;
	ibfs__eth_ecn_at(sw, out, p, q->bytes - sp->cur.bytes,
			 IBFS_ETH_ECN_DEQUEUE);
	if (sw->int_busy)
		ibfs__eth_int_tx(sw, out, p);
	ibfs__port_send(op, p);
}

/* The frame on `out` has left: its buffer and input are free again. */
void ibfs__eth_tx_done(struct ibfs_eth_switch *sw, int out)
{
	struct eth_sending *s = &sw->port[out].cur;

	sw->port[out].q[s->prio].bytes -= s->bytes;
	ibfs__eth_buf_release(sw, s->in_port, s->prio, s->bytes);
	ibfs__port_consume_blocks(&sw->dev.ports[s->in_port], s->in_vl,
				  s->blocks);
}

/*
 * Output `out` went down: every frame queued for it is discarded now,
 * counted in its PortXmitDiscards (IBA 16.1.3.5's counter, which the
 * results report for every port), and its buffer freed at once, tail
 * arrived or not (a frame still coming in is not modelled apart from its
 * header). The frame on the wire, if any, ends as the link layer lets it
 * (its tx_done frees it). Frames routed to the port later are discarded
 * on arrival (eth_switch.c).
 */
void ibfs__eth_flush(struct ibfs_eth_switch *sw, int out)
{
	struct ibfs_fabric *f = sw->dev.fab;
	struct eth_sw_port *sp = &sw->port[out];

	for (int c = 0; c < IBFS_ETH_PRIOS; c++) {
		struct eth_queue *q = &sp->q[c];

		while (q->head) {
			struct ibfs_packet *p = q->head;
			uint32_t bytes = ibfs__eth_frame_bytes(p);

			q->head = p->next;
			q->bytes -= bytes;
			ibfs__eth_buf_release(sw, p->in_port, c, bytes);
			ibfs__port_consume(&sw->dev.ports[p->in_port], p);
			sw->dev.ports[out].xmit_discards++;
			ibfs__fabric_drop(f, p, IBFS_DROP_PORT_DOWN);
			ibfs__packet_free(f, p);
		}
		q->tail = NULL;
		q->deficit = 0;
	}
}

uint64_t ibfs__eth_switch_queue(const struct ibfs_eth_switch *sw, int port,
				int prio)
{
	return sw->port[port].q[prio & (IBFS_ETH_PRIOS - 1)].bytes;
}
