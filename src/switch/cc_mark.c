/* SPDX-License-Identifier: MIT */
/*
 * Congestion marking at a switch (IBA 1.2.1 Annex A10.2.1), as a
 * SwitchCongestionSetting (A10.4.3.3) programs it.
 *
 * A port VL is in the congestion state while its output queue, the
 * packets in the switch's input buffers that wait for that output and VL,
 * holds more than the threshold. The queue is kept in 64-byte blocks: the
 * blocks routed to (port, VL) as they arrive, less those the port has
 * started on its link (the port's per-VL tx_blocks, which the link layer
 * counts anyway), so that nothing is counted at the grant. A packet that
 * arrives for a congested port VL is forwarded with FECN set in its BTH
 * when it is at least Packet_Size credits long, and then only one
 * eligible packet in Marking_Rate + 1 (Marking_Rate is "the mean number
 * of packets between marks": here exactly that many, a counter a port).
 * A port VL that has not the credits for the packet is a victim of
 * congestion further on rather than its root: it marks only when its
 * port's bit of Victim_Mask is set (A10.2.1.1).
 *
 * Threshold (0-15) is left to the implementation by A10 ("0 no marking,
 * 15 the most aggressive"). Here the queue must exceed (16 - Threshold) /
 * 16 of the port's input buffer for that VL (buf_cap, blocks): 15 marks
 * above a sixteenth of a buffer, 1 only above fifteen sixteenths.
 *
 * Cost: a switch without CC keeps the plain device operations and runs
 * no code of this file. A switch with CC takes its own copy of them, in
 * struct sw_cc, whose receive notes the packet and then calls the plain
 * one; the copy's address finds the state (sw_cc_of), so that struct
 * ibfs_switch, whose lines are laid out for the hot path, is unchanged.
 * Credit starvation (Credit_Mask, CS_Threshold, CS_ReturnDelay) is not
 * modelled; multicast copies are neither counted nor marked.
 */
#include "switch/switch_int.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct sw_cc {
	struct ibfs_device_ops ops; /* first: dev.ops points here */
	struct ibfs_sw_cc set;
	int n;
	/* By port * 16 + VL: blocks routed there, and the port's
	 * tx_blocks when counting began (both modulo 2^32). */
	uint32_t *in_blocks;
	uint32_t *tx_base;
	uint32_t *limit;    /* the threshold in blocks, by port * 16 + VL */
	uint32_t *skip;     /* by port: eligible packets still to skip */
	uint64_t *marks;    /* by port: FECN marks */
};

static struct sw_cc *sw_cc_of(const struct ibfs_switch *sw)
{
	if (sw->dev.ops == &ibfs__switch_ops)
		return NULL;
	return (struct sw_cc *)(uintptr_t)sw->dev.ops;
}

static uint32_t cc_queue(const struct ibfs_switch *sw, const struct sw_cc *cc,
			 int out, int vl)
{
	size_t i = (size_t)out * 16 + (size_t)vl;
	uint32_t sent = sw->dev.ports[out].vls[vl].tx_blocks - cc->tx_base[i];
	int32_t q = (int32_t)(cc->in_blocks[i] - sent);

	return q > 0 ? (uint32_t)q : 0;
}

/*
 * Packet p arrives at input `in`: its output VL's queue decides whether
 * it is marked, then it joins that queue. Routed as sw_receive will route
 * it; a packet that sw_receive will not forward is left alone.
 */
static void cc_note(struct ibfs_switch *sw, struct sw_cc *cc, int in,
		    struct ibfs_packet *p)
{
	uint16_t dlid = p->dlid;

	if (p->vl == IBFS_VL15 || dlid >= IBFS_MCAST_LID_BASE ||
	    ibfs__sw_own_lid(sw, dlid))
		return;
	uint8_t out = ibfs__sw_route(sw, in, dlid);

	if (!(sw->out_ok[out / 64] >> (out % 64) & 1) || out == in)
		return;
	uint8_t vl = ibfs__sw_sl2vl(sw, in, out, p->sl);

	if (vl >= sw->data_vls)
		return;
	size_t i = (size_t)out * 16 + vl;
	const struct ibfs_port *port = &sw->dev.ports[out];
	int victim = port->vls[vl].credits < (int32_t)p->blocks;
	int marks_victims = cc->set.victim_mask[out / 64] >> (out % 64) & 1;

	if (cc->set.threshold && cc_queue(sw, cc, out, vl) > cc->limit[i] &&
	    p->blocks >= cc->set.packet_size && (!victim || marks_victims)) {
		if (cc->skip[out]) {
			cc->skip[out]--;
		} else {
			p->fecn = 1;
			cc->marks[out]++;
			cc->skip[out] = cc->set.marking_rate;
		}
	}
	cc->in_blocks[i] += p->blocks;
}

static void cc_receive(struct ibfs_device *dev, struct ibfs_port *inp,
		       struct ibfs_packet *p)
{
	struct ibfs_switch *sw = (struct ibfs_switch *)dev;

	cc_note(sw, sw_cc_of(sw), inp->num, p);
	ibfs__switch_ops.receive(dev, inp, p);
}

void ibfs__sw_cc_free(struct ibfs_switch *sw)
{
	struct sw_cc *cc = sw_cc_of(sw);

	if (!cc)
		return;
	sw->dev.ops = &ibfs__switch_ops;
	free(cc->in_blocks);
	free(cc->tx_base);
	free(cc->limit);
	free(cc->skip);
	free(cc->marks);
	free(cc);
}

/* The fields control_map says are valid; the others keep 0 (A10.4.3.3). */
static void cc_take(struct ibfs_sw_cc *to, const struct ibfs_sw_cc *from)
{
	memset(to, 0, sizeof(*to));
	to->control_map = from->control_map;
	if (from->control_map & 1)
		memcpy(to->victim_mask, from->victim_mask,
		       sizeof(to->victim_mask));
	if (from->control_map & 2)
		memcpy(to->credit_mask, from->credit_mask,
		       sizeof(to->credit_mask));
	if (from->control_map & 4) {
		to->threshold = from->threshold & 15;
		to->packet_size = from->packet_size;
	}
	if (from->control_map & 8) {
		to->cs_threshold = from->cs_threshold & 15;
		to->cs_return_delay = from->cs_return_delay;
	}
	if (from->control_map & 16)
		to->marking_rate = from->marking_rate;
}

int ibfs__switch_set_cc(struct ibfs_switch *sw, const struct ibfs_sw_cc *set)
{
	ibfs__sw_cc_free(sw);
	if (!set)
		return 0;
	size_t nq = ((size_t)sw->n + 1) * 16, np = (size_t)sw->n + 1;
	struct sw_cc *cc = calloc(1, sizeof(*cc));

	if (!cc)
		return -1;
	cc->ops = ibfs__switch_ops;
	cc->ops.receive = cc_receive;
	cc->n = sw->n;
	cc->in_blocks = calloc(nq, sizeof(uint32_t));
	cc->tx_base = calloc(nq, sizeof(uint32_t));
	cc->limit = calloc(nq, sizeof(uint32_t));
	cc->skip = calloc(np, sizeof(uint32_t));
	cc->marks = calloc(np, sizeof(uint64_t));
	sw->dev.ops = &cc->ops;
	if (!cc->in_blocks || !cc->tx_base || !cc->limit || !cc->skip ||
	    !cc->marks) {
		ibfs__sw_cc_free(sw);
		return -1;
	}
	cc_take(&cc->set, set);
	for (int o = 0; o <= sw->n; o++) {
		const struct ibfs_port *port = &sw->dev.ports[o];

		for (int vl = 0; vl < 16; vl++) {
			size_t i = (size_t)o * 16 + (size_t)vl;

			cc->tx_base[i] = port->vls[vl].tx_blocks;
			cc->limit[i] = (uint32_t)((uint64_t)port->buf_cap[vl] *
						  (16u - cc->set.threshold) /
						  16u);
		}
	}
	return 0;
}

uint64_t ibfs__switch_fecn_marks(const struct ibfs_switch *sw, int port)
{
	const struct sw_cc *cc = sw_cc_of(sw);

	if (!cc || port < 0 || port > sw->n)
		return 0;
	return cc->marks[port];
}

uint32_t ibfs__switch_cc_queue(const struct ibfs_switch *sw, int port, int vl)
{
	const struct sw_cc *cc = sw_cc_of(sw);

	if (!cc || port < 0 || port > sw->n || vl < 0 || vl >= 16)
		return 0;
	return cc_queue(sw, cc, port, vl);
}
