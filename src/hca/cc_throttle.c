/* SPDX-License-Identifier: MIT */
/*
 * Congestion control at a channel adapter (IBA 1.2.1 Annex A10.3).
 *
 * The destination of a packet that a switch marked with FECN tells its
 * source: in the BTH of the ACK for an RC request (BECN set), else in a
 * Congestion Notification Packet (CNP: opcode 0x80, LRH, BTH with BECN
 * set and DestQP the source's QP, ICRC, no payload) sent on the marked
 * packet's SL back to its SLID. The CNP's opcode and format are those
 * Linux's hfi1 driver builds and decodes; A10's own text was not at hand
 * to check them. The CNPs of a port wait in a FIFO and go ahead of data
 * packets (tx_sched.c).
 *
 * The source, on a BECN, raises the Congestion Control Table Index (CCTI)
 * of the flow by CCTI_Increase, up to CCTI_Limit (the table's last
 * index). The flow is the QP the BECN is addressed to, or the port's SL
 * when CACongestionSetting's Port_Control bit 0 is set (A10.4.3.4). Each
 * time the SL's CCTI_Timer expires (units of 1.024 us) the CCTI falls by
 * one, not below CCTI_Min; the timer runs from when CC was set, so the
 * CCTI at time t is computed when needed (no event a tick): the ticks
 * between its last change and t are floor((t - t0) / T) - floor((at -
 * t0) / T).
 *
 * The table's entry at the CCTI (A10.4.3.5: CCT_Shift in the top 2 bits,
 * CCT_Multiplier in the low 14) gives the injection rate delay inserted
 * after each request packet of the flow: the packet's transmission time
 * on the port, times the multiplier, shifted right by the shift, in
 * picoseconds, rounded down ((time x multiplier) >> shift: A10's exact
 * wording was not at hand; hfi1 shifts before it multiplies, which
 * differs by a few picoseconds; check_cc_throttle pins this form on
 * FDR). The flow's next request packet leaves no earlier than that long
 * after the last one's last byte left the port.
 * Responses (ACKs, READ responses) and CNPs are not delayed. The
 * Trigger_Threshold (a trap to the SM) is not modelled.
 *
 * It is one of the HCA's congestion controls (the seam in cc.c): an ops
 * table whose state begins with struct ibfs_hca_cc.
 */
#include "hca/hca_int.h"

#include <stdlib.h>
#include <string.h>

/* 1.024 us, the unit of CCTI_Timer, in picoseconds. */
#define CC_TICK_PS 1024000ULL

struct cc_flow {
	uint16_t ccti;
	ibfs_time_t at, until;
};

struct cc_ib {
	struct ibfs_hca_cc base;
	struct ibfs_ca_cc set;
	ibfs_time_t t0;
	struct cc_flow *sl;   /* per SL flows: [(nports + 1) * 16] */
};

static int cc_per_sl(const struct cc_ib *cc)
{
	return cc->set.port_control & 1;
}

/* The CCTI a flow set to `ccti` at `at` has at `now` (the timer's ticks). */
static uint16_t cc_ccti_at(const struct cc_ib *cc, uint8_t sl,
			   uint16_t ccti, ibfs_time_t at, ibfs_time_t now)
{
	const struct ibfs_ca_cc_sl *e = &cc->set.sl[sl & 15];
	uint64_t t = (uint64_t)e->ccti_timer * CC_TICK_PS;
	uint64_t ticks = 0;

	if (at < cc->t0)
		at = cc->t0;
	if (t && now > at)
		ticks = (now - cc->t0) / t - (at - cc->t0) / t;
	uint64_t v = ccti > ticks ? ccti - ticks : 0;

	if (v < e->ccti_min)
		v = e->ccti_min;
	if (cc->set.ncct && v > (uint64_t)cc->set.ncct - 1)
		v = (uint64_t)cc->set.ncct - 1;
	return (uint16_t)v;
}

static struct cc_flow *cc_sl_flow(const struct cc_ib *cc, int port,
				  uint8_t sl)
{
	return &cc->sl[(size_t)port * 16 + (sl & 15)];
}

/* The SL qp's next request packet takes (UD: its next WQE's). */
static uint8_t cc_qp_sl(const struct ibfs_hca_qp *qp)
{
	if (qp->pub.qp_type == IBFS_QPT_UD && qp->sq_next != qp->sq_tail)
		return qp->sq[qp->sq_next % qp->sq_cap].sl;
	return qp->attr.ah_attr.sl;
}

static const struct ibfs_hca_cc_ops cc_ib_ops;

/* h's control if it is InfiniBand's, else NULL. */
static struct cc_ib *cc_ib_of(const struct ibfs_hca *h)
{
	if (!h->cc || h->cc->ops != &cc_ib_ops)
		return NULL;
	return (struct cc_ib *)h->cc;
}

int ibfs__hca_set_cc(struct ibfs_hca *h, const struct ibfs_ca_cc *set)
{
	ibfs__hca_cc_free(h);
	if (!set)
		return 0;
	if (set->ncct < 0 || set->ncct > IBFS_CCT_MAX)
		return -1;
	struct cc_ib *cc = calloc(1, sizeof(*cc));

	if (!cc)
		return -1;
	cc->sl = calloc(((size_t)h->dev.nports + 1) * 16, sizeof(*cc->sl));
	if (!cc->sl) {
		free(cc);
		return -1;
	}
	cc->base.ops = &cc_ib_ops;
	cc->set.port_control = set->port_control;
	cc->set.control_map = set->control_map;
	/* The SLs control_map leaves out keep 0s (A10.4.3.4). */
	for (int sl = 0; sl < 16; sl++)
		if (set->control_map >> sl & 1)
			cc->set.sl[sl] = set->sl[sl];
	cc->set.ncct = set->ncct;
	memcpy(cc->set.cct, set->cct, sizeof(cc->set.cct));
	cc->t0 = ibfs__hca_now(h);
	ibfs__hca_cc_install(h, &cc->base);
	return 0;
}

static void cc_ib_free(struct ibfs_hca *h)
{
	struct cc_ib *cc = cc_ib_of(h);

	free(cc->sl);
	free(cc);
}

uint16_t ibfs__hca_cc_ccti(const struct ibfs_hca_qp *qp, uint8_t sl)
{
	const struct cc_ib *cc = cc_ib_of(qp->hca);
	ibfs_time_t now = ibfs__hca_now(qp->hca);

	if (!cc)
		return 0;
	if (cc_per_sl(cc)) {
		const struct cc_flow *f = cc_sl_flow(cc, qp->port, sl);

		return cc_ccti_at(cc, sl, f->ccti, f->at, now);
	}
	return cc_ccti_at(cc, sl, qp->cc_ccti, qp->cc_at, now);
}

static ibfs_time_t cc_ib_until(const struct ibfs_hca_qp *qp)
{
	const struct cc_ib *cc = cc_ib_of(qp->hca);

	if (cc_per_sl(cc))
		return cc_sl_flow(cc, qp->port, cc_qp_sl(qp))->until;
	return qp->cc_until;
}

/* A BECN for qp (NULL: none of ours) on SL sl: its flow's CCTI rises. */
static void cc_becn(struct ibfs_hca_port *hp, struct ibfs_hca_qp *qp,
		    uint8_t sl)
{
	struct ibfs_hca *h = hp->hca;
	struct cc_ib *cc = cc_ib_of(h);
	ibfs_time_t now = ibfs__hca_now(h);

	h->st.becn_rx++;
	if (!cc)
		return;
	uint16_t *ccti;
	ibfs_time_t *at;

	if (cc_per_sl(cc)) {
		struct cc_flow *f = cc_sl_flow(cc, hp->num, sl);

		ccti = &f->ccti;
		at = &f->at;
	} else if (qp) {
		ccti = &qp->cc_ccti;
		at = &qp->cc_at;
	} else {
		return;
	}
	uint32_t v = cc_ccti_at(cc, sl, *ccti, *at, now) +
		     (uint32_t)cc->set.sl[sl & 15].ccti_increase;
	uint32_t limit = cc->set.ncct ? (uint32_t)cc->set.ncct - 1 : 0;

	*ccti = (uint16_t)(v < limit ? v : limit);
	*at = now;
}

/* Queues a CNP for the FECN-marked packet p, to its source QP src_qp. */
static void cc_cnp(struct ibfs_hca_port *hp, const struct ibfs_packet *p,
		   uint32_t src_qp)
{
	struct ibfs_hca *h = hp->hca;
	struct ibfs_packet *c = ibfs__hca_packet(h, 0);

	if (!c)
		return;
	c->opcode = IBFS_OP_CNP;
	c->xh = 0;
	c->becn = 1;
	c->dest_qp = src_qp & 0xffffff;
	c->psn = 0;
	/* In the partition of the packet it answers, so that its source,
	 * which sent in that partition, accepts it (IBA 10.9.3). */
	h->lops->frame(hp, c, p->slid, p->sl,
		       ibfs__hca_dlid_path_bits(hp, p->dlid), p->pkey);
	ibfs__cc_cnp_queue(hp, c);
}

/* A FECN-marked packet p for qp (NULL: none of ours): the answer. */
static void cc_fecn(struct ibfs_hca_port *hp, struct ibfs_hca_qp *qp,
		    const struct ibfs_packet *p)
{
	hp->hca->st.fecn_rx++;
	if (!qp)
		return;
	const struct ibfs_hca_opinfo *oi = ibfs__hca_opinfo(p->opcode);

	if (qp->pub.qp_type == IBFS_QPT_RC && oi &&
	    !(oi->flags & IBFS_OPF_RESP)) {
		qp->cc_becn = 1; /* in the next ACK (rc_responder.c) */
		return;
	}
	uint32_t src = qp->pub.qp_type == IBFS_QPT_UD ? p->deth.src_qp :
							qp->attr.dest_qp_num;

	cc_cnp(hp, p, src);
}

int ibfs__cc_ib_rx(struct ibfs_hca_port *hp, struct ibfs_packet *p)
{
	struct ibfs_hca *h = hp->hca;
	struct ibfs_hca_qp *qp = NULL;

	if (p->kind == IBFS_PKT_DATA && h->lops->accept(hp, p))
		qp = ibfs__qp_lookup(h, p->dest_qp);
	if (qp && qp->port != hp->num)
		qp = NULL;
	if (p->opcode == IBFS_OP_CNP) {
		h->st.cnp_rx++;
		if (p->becn)
			cc_becn(hp, qp, p->sl);
		return 1;
	}
	if (p->becn)
		cc_becn(hp, qp, p->sl);
	if (p->fecn)
		cc_fecn(hp, qp, p);
	return 0;
}

static int cc_ib_rx(struct ibfs_hca_port *hp, struct ibfs_packet *p)
{
	if (!(p->fecn | p->becn))
		return 0;
	return ibfs__cc_ib_rx(hp, p);
}

static void cc_ib_sent(struct ibfs_hca_port *hp, struct ibfs_hca_qp *qp,
		       const struct ibfs_cc_tx *tx, ibfs_time_t left)
{
	struct cc_ib *cc = cc_ib_of(hp->hca);

	if (!qp || !tx->request || !cc->set.ncct)
		return;
	ibfs_time_t now = ibfs__hca_now(hp->hca);
	ibfs_time_t *until;
	uint16_t ccti;

	if (cc_per_sl(cc)) {
		struct cc_flow *f = cc_sl_flow(cc, hp->num, tx->sl);

		ccti = cc_ccti_at(cc, tx->sl, f->ccti, f->at, now);
		until = &f->until;
	} else {
		ccti = cc_ccti_at(cc, tx->sl, qp->cc_ccti, qp->cc_at, now);
		until = &qp->cc_until;
	}
	uint16_t e = cc->set.cct[ccti];
	uint64_t ser = ibfs__port_ser(hp->port, tx->wire);
	uint64_t ird = (ser * (e & 0x3fffu)) >> (e >> 14);

	*until = left + ird;
}

static const struct ibfs_hca_cc_ops cc_ib_ops = {
	.name = "ib",
	.until = cc_ib_until,
	.sent = cc_ib_sent,
	.rx = cc_ib_rx,
	.free = cc_ib_free,
};
