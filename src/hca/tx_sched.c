/* SPDX-License-Identifier: MIT */
/*
 * The transmit scheduler of an HCA port: which QP's packet the port sends
 * next, and when. Each port keeps, for each data VL, a FIFO of the QPs
 * that have something to send (request packets, ACKs, READ responses)
 * whose next packet takes that VL. When the transmitter is idle,
 * management packets (VL15) go first, then congestion notification
 * packets; then the port's VL arbiter (IBA 7.6.9, the switches' own,
 * fabric/vl_arbiter.c: high- and low-priority tables of weights and
 * LimitOfHighPriority, programmed by the SM) picks a data VL among those
 * that can send, and the port takes the QP at that VL's head: if its next
 * packet is ready (its DMA and send pipeline are done, its RNR wait and
 * its rate limit over) it builds that one packet, sends it and puts the
 * QP back at a tail (round robin within a VL); if the packet is not ready
 * yet the QP leaves with a timer that brings it back at the tail when it
 * is. The link's tx_ready starts the next pick. Packets are built only
 * when they can leave, so a long message never sits in memory as packets
 * and QPs share the link packet by packet, as an HCA's send arbiter does.
 * A packet built when its VL lacks credits is held on that VL, which is
 * not ready until they come; the other VLs go on. A pick is O(1)
 * amortised: every QP taken from a head either sends or leaves. The
 * default tables give each data VL one packet in turn, so with one data
 * VL the order is plain round robin over the QPs.
 *
 * Pacing a QP is where congestion control acts: tx_qp_ready asks when the
 * QP's flow may send its next request packet, and tx_send_cc tells the
 * flow what it sent: the HCA's congestion control (the ops table of
 * cc.c: the IBA's throttle, A10.3, cc_throttle.c, or a RoCEv2 rate or
 * window control) acts at those two points. A control that paces
 * responses too (ops->responses: DCQCN, cc_dcqcn.c) holds a READ
 * response the same way.
 */
#include <stddef.h>
#include <stdint.h>

#include "hca/hca_int.h"

_Static_assert(offsetof(struct ibfs_hca_port, fifo) == 64,
	       "what tx_run reads per packet in line 0 (hca_int.h)");

/*
 * A pending response due at r under a control that paces responses: a
 * READ response at the head (the response due first) waits for the QP's
 * rate as its requests do.
 */
static ibfs_time_t tx_resp_paced(struct ibfs_hca_qp *qp, ibfs_time_t r)
{
	const struct ibfs_resp *e = &qp->resp[qp->resp_head];

	if (qp->hca->cc->ops->responses && qp->resp_count && !e->atomic &&
	    e->ready == r) {
		ibfs_time_t u = ibfs__cc_until(qp);

		if (u > r)
			r = u;
	}
	return r;
}

/*
 * When qp's next packet may go: a pending response's time, or its next
 * request's (after the RNR wait and the congestion control's injection
 * rate delay); IBFS_TIME_NEVER when it has nothing to send.
 */
static ibfs_time_t tx_qp_ready(struct ibfs_hca_qp *qp)
{
	ibfs_time_t t = IBFS_TIME_NEVER, r;
	if (ibfs__rc_resp_pending(qp, &r))
		t = __builtin_expect(qp->hca->cc != NULL, 0) ?
			    tx_resp_paced(qp, r) : r;
	if (qp->req_ready_valid && qp->req_ready < t) {
		r = qp->req_ready > qp->hold_until ? qp->req_ready :
						     qp->hold_until;
		/* Congestion control's injection rate delay (A10.3). */
		if (__builtin_expect(qp->hca->cc != NULL, 0)) {
			ibfs_time_t u = ibfs__cc_until(qp);
			if (u > r)
				r = u;
		}
		if (r < t)
			t = r;
	}
	return t;
}

/*
 * The data VL qp's next packet takes: its path's, through the port's
 * SL-to-VL table. A UD QP's packets take the SL of each WQE's address
 * handle: it waits on the VL of its own packet when one is held, so that
 * its packets leave in order, else on its next WQE's.
 */
static int tx_qp_vl(const struct ibfs_hca_port *hp, struct ibfs_hca_qp *qp)
{
	uint8_t sl = qp->attr.ah_attr.sl;
	if (qp->pub.qp_type == IBFS_QPT_UD) {
		for (uint32_t m = hp->held_mask; m; m &= m - 1)
			if (hp->held_qp[__builtin_ctz(m)] == qp)
				return __builtin_ctz(m);
		if (qp->sq_next != qp->sq_tail)
			sl = ibfs__sq_at(qp, qp->sq_next)->sl;
	}
	return hp->sl2vl[sl & 15];
}

/*
 * Appends qp to the FIFO of the VL its next packet takes (no-op if it is
 * in a FIFO already). O(1).
 */
static void tx_push(struct ibfs_hca_port *hp, struct ibfs_hca_qp *qp)
{
	if (qp->in_ring)
		return;
	int vl = hp->one ? 0 : tx_qp_vl(hp, qp);
	qp->rr_next = NULL;
	qp->rr_prev = hp->fifo[vl].tail;
	if (hp->fifo[vl].tail)
		hp->fifo[vl].tail->rr_next = qp;
	else
		hp->fifo[vl].head = qp;
	hp->fifo[vl].tail = qp;
	hp->fifo_mask |= (uint16_t)(1u << vl);
	qp->in_ring = (uint8_t)(1 + vl);
}

/* Takes qp out of its FIFO, if it is in one. O(1). */
static void tx_unlink(struct ibfs_hca_port *hp, struct ibfs_hca_qp *qp)
{
	if (!qp->in_ring)
		return;
	int vl = qp->in_ring - 1;
	if (qp->rr_prev)
		qp->rr_prev->rr_next = qp->rr_next;
	else
		hp->fifo[vl].head = qp->rr_next;
	if (qp->rr_next)
		qp->rr_next->rr_prev = qp->rr_prev;
	else
		hp->fifo[vl].tail = qp->rr_prev;
	if (!hp->fifo[vl].head)
		hp->fifo_mask &= (uint16_t)~(1u << vl);
	qp->rr_next = qp->rr_prev = NULL;
	qp->in_ring = 0;
}

/*
 * One data VL that the arbiter serves: every pick would be VL 0 whatever
 * entry the tables are at (the entries only share the link among data
 * VLs), so tx_run skips the pick and the charge, as a switch output with
 * one data VL does (switch/vlarb.c).
 */
static void tx_arb_update(struct ibfs_hca_port *hp)
{
	hp->one = hp->port->data_vls <= 1 && ibfs__vlarb_serves(&hp->arb, 0);
}

static void tx_kick_ev(void *obj, uint64_t arg);
static void tx_qp_timer_ev(void *obj, uint64_t arg);

static void tx_schedule(struct ibfs_hca_port *hp, ibfs_time_t t)
{
	struct ibfs_eq *q = &hp->hca->dev.fab->eq;
	if (t < q->now)
		t = q->now;
	if (hp->kick) {
		if (hp->kick_at <= t)
			return;
		ibfs__eq_cancel(q, hp->kick);
	}
	hp->kick = ibfs__eq_schedule(q, t, tx_kick_ev, hp, 0);
	hp->kick_at = t;
}

void ibfs__hca_port_run_at(struct ibfs_hca_port *hp, ibfs_time_t t)
{
	tx_schedule(hp, t);
}

void ibfs__tx_sched_init(struct ibfs_hca_port *hp, int vls)
{
	ibfs__vlarb_default(&hp->arb, vls);
	tx_arb_update(hp);
}

void ibfs__tx_sched_flush(struct ibfs_hca_port *hp)
{
	for (int v = 0; v < IBFS_HCA_DATA_VLS; v++)
		if (hp->held[v]) {
			ibfs__packet_free(hp->hca->dev.fab, hp->held[v]);
			hp->held[v] = NULL;
		}
	hp->held_mask = 0;
}

int ibfs__hca_set_vlarb(struct ibfs_hca *h, int port,
			const struct ibfs_vlarb_entry *high, int nhigh,
			const struct ibfs_vlarb_entry *low, int nlow,
			uint8_t limit_high)
{
	if (port < -1 || port == 0 || port > h->dev.nports ||
	    ibfs__vlarb_check(high, nhigh, low, nlow) < 0)
		return -1;
	int last = port < 0 ? h->dev.nports : port;
	for (int i = port < 0 ? 1 : port; i <= last; i++) {
		struct ibfs_hca_port *hp = &h->hp[i];
		ibfs__vlarb_set(&hp->arb, high, nhigh, low, nlow, limit_high);
		tx_arb_update(hp);
		/* A VL the old tables did not serve may send now. */
		if (hp->fifo_mask || hp->held_mask)
			tx_schedule(hp, ibfs__hca_now(h));
	}
	return 0;
}

/* Wakes qp at t, when its next packet is ready (one timer a QP). */
static void tx_qp_timer(struct ibfs_hca_qp *qp, ibfs_time_t t)
{
	struct ibfs_eq *q = &qp->hca->dev.fab->eq;
	if (qp->wake_ev) {
		if (qp->wake_at <= t)
			return;
		ibfs__eq_cancel(q, qp->wake_ev);
	}
	qp->wake_ev = ibfs__eq_schedule(q, t, tx_qp_timer_ev, qp, 0);
	qp->wake_at = t;
}

/*
 * The last packet of a UC or UD message on QP `ends` (NULL: none) leaves
 * the port at `left`: the message completes then. An unreliable service
 * has no acknowledgment to wait for, and its send buffer may be reused
 * once the data is on the wire; completing when the packet is built
 * would let UD SENDs finish faster than the link carries them.
 */
static void tx_sent(struct ibfs_hca_qp *ends, ibfs_time_t left)
{
	if (ends)
		ibfs__qp_complete_sq(ends, left);
}

/*
 * The data VLs that may send now: those with a QP on their FIFO and no
 * packet held, and those whose held packet has its credits now. A VL
 * whose packet waits for credits is not ready, nor are the QPs on its
 * FIFO: their next packet takes that VL (or, for UD, follows that
 * packet).
 */
static uint32_t tx_ready_vls(struct ibfs_hca_port *hp)
{
	uint32_t ready = hp->fifo_mask & ~(uint32_t)hp->held_mask;
	for (uint32_t m = hp->held_mask; m; m &= m - 1) {
		int vl = __builtin_ctz(m);
		if (hp->hca->lops->can_send(hp, hp->held[vl]))
			ready |= 1u << vl;
	}
	return ready;
}

/* Takes VL vl's held packet; *ends: the QP whose message it ends. */
static struct ibfs_packet *tx_take_held(struct ibfs_hca_port *hp, int vl,
					 struct ibfs_hca_qp **ends)
{
	struct ibfs_packet *p = hp->held[vl];
	*ends = hp->held_ends[vl];
	hp->held[vl] = NULL;
	hp->held_qp[vl] = NULL;
	hp->held_ends[vl] = NULL;
	hp->held_mask &= (uint16_t)~(1u << vl);
	return p;
}

/*
 * The next packet of the QP at the head of VL vl's FIFO, which leaves the
 * FIFO: it rejoins a tail if it sent (even with nothing more to send yet:
 * it keeps that place if work comes before its turn, and leaves when its
 * turn finds it idle); it drops out if it has nothing left, or with a
 * timer that brings it back when its packet is not ready yet; and it
 * moves to another VL's FIFO if its next packet now takes that VL. NULL
 * when no packet may go now: with *stop set when the port should stop
 * rather than spin (out of memory). A packet built without credits for
 * its VL is held there, and NULL returned.
 */
static struct ibfs_packet *tx_build(struct ibfs_hca_port *hp, int vl,
				     ibfs_time_t now, struct ibfs_hca_qp **ends,
				     int *stop)
{
	struct ibfs_hca *h = hp->hca;
	struct ibfs_hca_qp *qp = hp->fifo[vl].head;
	tx_unlink(hp, qp);
	/* A UD QP's next WQE, or a new SL-to-VL table, takes another VL. */
	if (!hp->one && tx_qp_vl(hp, qp) != vl) {
		tx_push(hp, qp);
		return NULL;
	}
	ibfs_time_t r = tx_qp_ready(qp);
	if (r == IBFS_TIME_NEVER)
		return NULL;
	if (r > now) {
		tx_qp_timer(qp, r);
		return NULL;
	}
	ibfs_time_t rr;
	struct ibfs_packet *p;
	uint64_t sq_next = qp->sq_next;
	if (ibfs__rc_resp_pending(qp, &rr) && rr <= now)
		p = ibfs__rc_resp_build(qp);
	else
		p = ibfs__sq_build(qp);
	if (!p) {
		/* The QP failed (it is in ERR, out of the FIFO) and another
		 * may go; or memory ran out: keep the QP and stop rather
		 * than spin. */
		if (qp->destroyed || qp->pub.state == IBFS_QPS_ERR)
			return NULL;
		tx_push(hp, qp);
		*stop = tx_qp_ready(qp) <= now;
		return NULL;
	}
	h->st.tx_pkts++;
	/* A UC or UD message ends with this packet (sq.c). */
	int ends_msg = qp->pub.qp_type != IBFS_QPT_RC && qp->sq_next != sq_next;
	*ends = ends_msg ? qp : NULL;
	int live = !qp->destroyed && qp->pub.state != IBFS_QPS_ERR;
	if (h->lops->can_send(hp, p)) {
		if (live)
			tx_push(hp, qp);
		return p;
	}
	/* p->vl is vl (tx_qp_vl), which held nothing: it waits for its
	 * credits there, and the QP, pushed after, waits on it too. */
	hp->held[p->vl] = p;
	hp->held_qp[p->vl] = qp;
	hp->held_ends[p->vl] = *ends;
	hp->held_mask |= (uint16_t)(1u << p->vl);
	if (live)
		tx_push(hp, qp);
	return NULL;
}

/*
 * tx_run's send with congestion control: the flow of QP `from` waits
 * its injection rate delay after a request packet (cc_throttle.c). What
 * that needs of p is read before the send, which may free it.
 */
static void tx_send_cc(struct ibfs_hca_port *hp, struct ibfs_hca_qp *from,
			struct ibfs_packet *p, struct ibfs_hca_qp *ends)
{
	struct ibfs_hca *h = hp->hca;
	const struct ibfs_hca_opinfo *oi = ibfs__hca_opinfo(p->opcode);
	struct ibfs_cc_tx tx = {
		.request = oi && !(oi->flags & IBFS_OPF_RESP),
		.sl = p->sl,
		.opcode = p->opcode,
		.wire = p->wire_bytes,
		.psn = p->psn,
	};
	ibfs_time_t left = h->lops->send(hp, p);
	ibfs__cc_sent(hp, from, &tx, left);
	tx_sent(ends, left);
}

/*
 * Sends while the transmitter is free: management packets first, then
 * the data VL that the arbiter picks among those ready (IBA 7.6.9) sends
 * its held packet if it has one, else the next packet of the QP at its
 * FIFO's head (tx_build), and is charged that packet's bytes. Each QP
 * taken from a head either sends, leaves or moves to its VL's FIFO, so a
 * packet costs O(1) amortised whatever the number of QPs, plus the pick,
 * O(entries of the tables) (no pick with one data VL).
 */
static void tx_run(struct ibfs_hca_port *hp)
{
	struct ibfs_hca *h = hp->hca;
	ibfs_time_t now = ibfs__hca_now(h);
	for (;;) {
		/* Management packets (VL15) go ahead of data (mgmt.c). */
		if (h->mgmt && ibfs__hca_mgmt_tx(hp))
			continue;
		if (!h->lops->can_send(hp, NULL))
			return;
		/* CNPs (congestion control) go ahead of data too. */
		if (__builtin_expect(hp->cnp_head != NULL, 0) &&
		    ibfs__cc_cnp_tx(hp))
			continue;
		uint32_t ready = hp->held_mask ? tx_ready_vls(hp) :
						 hp->fifo_mask;
		if (!ready)
			return;
		int high = 0, stop = 0;
		int vl = hp->one ? 0 : ibfs__vlarb_pick(&hp->arb, ready, &high);
		if (vl < 0)
			return;
		struct ibfs_hca_qp *ends = NULL;
		struct ibfs_hca_qp *from = hp->held_mask >> vl & 1 ?
						   hp->held_qp[vl] :
						   hp->fifo[vl].head;
		struct ibfs_packet *p = hp->held_mask >> vl & 1 ?
						tx_take_held(hp, vl, &ends) :
						tx_build(hp, vl, now, &ends,
							  &stop);
		if (!p) {
			if (stop)
				return;
			continue;
		}
		/* Charged before the send, which frees p on a dead link. */
		if (!hp->one)
			ibfs__vlarb_charge(&hp->arb, high, p->wire_bytes);
		if (__builtin_expect(h->cc != NULL, 0)) {
			tx_send_cc(hp, from, p, ends);
			continue;
		}
		tx_sent(ends, h->lops->send(hp, p));
	}
}

static void tx_kick_ev(void *obj, uint64_t arg)
{
	(void)arg;
	struct ibfs_hca_port *hp = obj;
	hp->kick = NULL;
	tx_run(hp);
}

static void tx_qp_timer_ev(void *obj, uint64_t arg)
{
	(void)arg;
	struct ibfs_hca_qp *qp = obj;
	qp->wake_ev = NULL;
	ibfs__hca_qp_wake(qp);
}

void ibfs__hca_qp_wake(struct ibfs_hca_qp *qp)
{
	if (qp->destroyed)
		return;
	struct ibfs_hca_port *hp = &qp->hca->hp[qp->port];
	ibfs_time_t r = tx_qp_ready(qp);
	if (r == IBFS_TIME_NEVER)
		return;
	ibfs_time_t now = ibfs__hca_now(qp->hca);
	if (r > now && !qp->in_ring) {
		tx_qp_timer(qp, r);
		return;
	}
	/* In the FIFO (or already there, with a packet due later): the
	 * port runs at r, once every wake due then has been seen, or
	 * earlier when its transmitter frees (tx_ready). */
	tx_push(hp, qp);
	tx_schedule(hp, r);
}

void ibfs__hca_qp_gone(struct ibfs_hca_qp *qp)
{
	if (qp->wake_ev) {
		ibfs__eq_cancel(&qp->hca->dev.fab->eq, qp->wake_ev);
		qp->wake_ev = NULL;
	}
	if (qp->port >= 1 && qp->port <= qp->hca->dev.nports)
		tx_unlink(&qp->hca->hp[qp->port], qp);
}

void ibfs__tx_sched_ready(struct ibfs_device *dev, struct ibfs_port *out)
{
	struct ibfs_hca *h = (struct ibfs_hca *)dev;
	tx_run(&h->hp[out->num]);
}

