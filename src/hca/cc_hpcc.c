/* SPDX-License-Identifier: MIT */
/*
 * HPCC (Li et al., "HPCC: High Precision Congestion Control", SIGCOMM
 * 2019): a window per RC QP computed from the in-band telemetry (INT)
 * that the switches stamp into each data packet (switch/eth_int.c) and
 * the receiver echoes in the ACK it sends for it.
 *
 * Each request carries an empty telemetry field (fabric/eth.h sizes it);
 * the responder keeps the telemetry of the last request of each QP and
 * copies it into the next ACK (stamp), and the requester asks for an ACK
 * on every packet (AckReq on each request it stamps). On an ACK the
 * sender compares each hop's
 * record with the one of the previous ACK (Algorithm 1, MeasureInflight):
 *
 *   u_i = min(qLen, qLen') / (B T) + txRate / B,
 *   txRate = (txBytes - txBytes') / (ts - ts'),
 *
 * which with the records in time units (fabric/packet.h) is u_i =
 * min(qdrain, qdrain') / T + (busy - busy') / (ts - ts'). The largest u_i
 * and its interval tau (at most T) update U = (1 - tau/T) U + (tau/T) u.
 * The window follows (ComputeWind): W = Wc / (U / eta) + W_AI when U >=
 * eta or after maxStage additive steps, else W = Wc + W_AI; Wc takes the
 * new W, and the stage counts, once per round trip: when the ACK covers
 * the first packet sent after the last such update (lastUpdateSeq, the
 * PSN that was next to send then). Other ACKs compute W from Wc alone
 * (section 3, the reaction to each ACK). The first ACK only sets the
 * records compared against.
 *
 * The QP may have W bytes on the wire unacknowledged (until says NEVER
 * past it, and the ACK that opens the window wakes the QP) and is paced
 * at R = W / T: a packet of n bytes starting at t lets the next start at
 * t + n T / W. W starts at B T, the NIC port's rate over one base round
 * trip (a flow starts at line rate, section 3), and never exceeds it; U
 * starts at 1.
 *
 * Parameters: eta = 95% and maxStage = 5, the paper's, which HPCC's
 * public simulator keeps as its defaults (rdma-hw.cc: TargetUtil 0.95,
 * MiThresh 5); W_AI = R_AI T with R_AI = 10 Mb/s per 25 Gb/s of the
 * port's rate, as that simulator's run.py sets it for HPCC (rate_ai =
 * 10 x bw / 25 Mb/s); T the fabric's base round trip, given.
 * Bytes in flight count whole frames as the wire carries them.
 */
#include "hca/cc_hpcc.h"

#include <stdlib.h>

#include "hca/hca_int.h"

/* PSNs in flight a QP keeps the cumulative bytes of (the window's
 * accounting); a QP with as many unacknowledged waits. */
#define HPCC_RING 512u
/* Telemetry times are kept modulo 2^32 ps: a reference older than half
 * that cannot be told from a newer one, and is set afresh. */
#define HPCC_REF_MAX (1ull << 31)

struct hpcc_cc {
	struct ibfs_hca_cc base;
	struct ibfs_hpcc_cfg cfg;
	double w_min;         /* the smallest W set on any QP, 0: none */
};

struct hpcc_qp {
	double w, wc, u;      /* bytes, bytes, fraction */
	double wmax, wai;     /* B T and W_AI, bytes */
	uint32_t inc_stage;
	uint32_t last_update_psn;
	uint8_t have_ref, blocked, have_echo;
	struct ibfs_int ref;  /* L: the previous ACK's records */
	ibfs_time_t ref_at;
	struct ibfs_int echo; /* responder: the last request's records */
	uint64_t snd, acked;  /* frame bytes sent, and acknowledged */
	uint32_t acked_psn;   /* the last PSN acknowledged */
	ibfs_time_t next_at;  /* the pacing: the next may start then */
	struct {
		uint32_t psn;
		uint64_t snd; /* snd once this PSN was last sent */
	} ring[HPCC_RING];
};

static const struct ibfs_hca_cc_ops hpcc_ops;

static struct hpcc_cc *hpcc_of(const struct ibfs_hca *h)
{
	if (!h->cc || h->cc->ops != &hpcc_ops)
		return NULL;
	return (struct hpcc_cc *)h->cc;
}

void ibfs__hpcc_defaults(struct ibfs_hpcc_cfg *c)
{
	c->base_rtt = 0;
	c->eta = 0.95;
	c->max_stage = 5;
	c->wai = 0;
}

/* The port's data rate, bits a second. */
static double hpcc_bps(const struct ibfs_hca_qp *qp)
{
	const struct ibfs_rate *r = &qp->hca->hp[qp->port].port->rate;

	return r->bits_den ? (double)r->bits_num / (double)r->bits_den : 0;
}

/* qp's state, made on first use (NULL: out of memory). */
static struct hpcc_qp *hpcc_qp(const struct ibfs_hca_qp *cqp)
{
	struct ibfs_hca_qp *qp = (struct ibfs_hca_qp *)cqp;
	const struct hpcc_cc *cc = hpcc_of(qp->hca);
	struct hpcc_qp *s = qp->cc_qp;

	if (s)
		return s;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	/* B T in bytes (T in ps: / 8 x 10^12); R_AI = bw x 10 / 25 Mb/s,
	 * i.e. B / 2,500. */
	double bt = hpcc_bps(qp) * (double)cc->cfg.base_rtt;

	s->wmax = bt / 8e12;
	s->wai = cc->cfg.wai > 0 ? cc->cfg.wai : bt / 2500 / 8e12;
	s->w = s->wc = s->wmax;
	s->u = 1;
	s->acked_psn = ibfs__psn_add(qp->next_psn, 0xffffff);
	qp->cc_qp = s;
	return s;
}

struct ibfs_hca_cc *ibfs__cc_hpcc_new(const struct ibfs_hpcc_cfg *c)
{
	if (!c->base_rtt || !(c->eta > 0 && c->eta <= 1) || c->wai < 0)
		return NULL;
	struct hpcc_cc *cc = calloc(1, sizeof(*cc));

	if (!cc)
		return NULL;
	cc->base.ops = &hpcc_ops;
	cc->cfg = *c;
	return &cc->base;
}

int ibfs__hca_set_hpcc(struct ibfs_hca *h, const struct ibfs_hpcc_cfg *c)
{
	struct ibfs_hca_cc *cc = ibfs__cc_hpcc_new(c);

	if (!cc)
		return -1;
	ibfs__hca_cc_install(h, cc);
	return 0;
}

struct ibfs_hca_cc *ibfs__cc_hpcc_create(struct ibfs_hca *h, const double *v)
{
	struct ibfs_hpcc_cfg c = {
		.base_rtt = (ibfs_time_t)v[IBFS_HPCC_BASE_RTT],
		.eta = v[IBFS_HPCC_ETA],
		.max_stage = (uint32_t)v[IBFS_HPCC_MAX_STAGE],
		.wai = v[IBFS_HPCC_WAI],
	};

	(void)h;
	return ibfs__cc_hpcc_new(&c);
}

static void hpcc_free(struct ibfs_hca *h)
{
	struct hpcc_cc *cc = hpcc_of(h);

	for (uint32_t i = 0; i < h->nqps; i++) {
		if (h->qps[i]) {
			free(h->qps[i]->cc_qp);
			h->qps[i]->cc_qp = NULL;
		}
	}
	free(cc);
}

static void hpcc_qp_gone(struct ibfs_hca_qp *qp)
{
	free(qp->cc_qp);
	qp->cc_qp = NULL;
}

static uint32_t hpcc_next_psn(const struct ibfs_hca_qp *qp)
{
	return qp->hca->irn ? ibfs__irn_next_psn(qp) : qp->next_psn;
}

static ibfs_time_t hpcc_until(const struct ibfs_hca_qp *qp)
{
	struct hpcc_qp *s = hpcc_qp(qp);

	if (!s)
		return 0;
	if ((double)(s->snd - s->acked) >= s->w ||
	    ibfs__psn_cmp(hpcc_next_psn(qp), s->acked_psn) > (int)HPCC_RING) {
		s->blocked = 1;
		return IBFS_TIME_NEVER;
	}
	return s->next_at;
}

static void hpcc_sent(struct ibfs_hca_port *hp, struct ibfs_hca_qp *qp,
		      const struct ibfs_cc_tx *tx, ibfs_time_t left)
{
	const struct ibfs_hca_opinfo *oi = ibfs__hca_opinfo(tx->opcode);

	/* The window holds what ACKs acknowledge: SENDs and WRITEs (a
	 * READ's responses, an atomic's ACK answer the others). */
	if (!qp || !tx->request || qp->pub.qp_type != IBFS_QPT_RC || !oi ||
	    !(oi->flags & (IBFS_OPF_SEND | IBFS_OPF_WRITE)))
		return;
	const struct hpcc_cc *cc = hpcc_of(hp->hca);
	struct hpcc_qp *s = hpcc_qp(qp);

	if (!s)
		return;
	s->snd += tx->wire;
	s->ring[tx->psn % HPCC_RING].psn = tx->psn;
	s->ring[tx->psn % HPCC_RING].snd = s->snd;
	/* R = W / T: n bytes take n T / W at that rate. */
	ibfs_time_t ser = ibfs__port_ser(hp->port, tx->wire);
	double gap = (double)tx->wire * (double)cc->cfg.base_rtt / s->w;

	s->next_at = left - ser + (ibfs_time_t)gap;
}

/* MeasureInflight: U after the ACK's records a (n of them). */
static double hpcc_measure(const struct hpcc_cc *cc, struct hpcc_qp *s,
			   const struct ibfs_int *a, int n)
{
	double t = (double)cc->cfg.base_rtt, u = 0, tau = 0;

	for (int i = 0; i < n; i++) {
		const struct ibfs_int_hop *x = &a->hop[i], *y = &s->ref.hop[i];
		uint32_t dts = x->ts - y->ts;

		if (!dts)
			continue;
		uint32_t q = x->qdrain < y->qdrain ? x->qdrain : y->qdrain;
		double ui = (double)q / t + (double)(uint32_t)(x->busy -
							       y->busy) / dts;

		if (ui > u) {
			u = ui;
			tau = dts;
		}
	}
	if (tau > t)
		tau = t;
	s->u = (1 - tau / t) * s->u + tau / t * u;
	return s->u;
}

/* ComputeWind: the window after utilization u; Wc moves when update. */
static double hpcc_wind(const struct hpcc_cc *cc, struct hpcc_qp *s,
			double u, int update)
{
	double w;
	int md = u >= cc->cfg.eta || s->inc_stage >= cc->cfg.max_stage;

	if (md)
		w = u > 0 ? s->wc / (u / cc->cfg.eta) + s->wai : s->wmax;
	else
		w = s->wc + s->wai;
	if (w > s->wmax)
		w = s->wmax;
	if (update) {
		s->inc_stage = md ? 0 : s->inc_stage + 1;
		s->wc = w;
	}
	return w;
}

/* An ACK of qp with telemetry a: the window's accounting, then NewAck. */
static void hpcc_ack(struct ibfs_hca_qp *qp, const struct ibfs_packet *p)
{
	struct hpcc_cc *cc = hpcc_of(qp->hca);
	struct hpcc_qp *s = hpcc_qp(qp);
	ibfs_time_t now = ibfs__hca_now(qp->hca);

	if (!s || (p->aeth.syndrome & 0xe0) != IBFS_AETH_ACK)
		return;
	uint32_t slot = p->psn % HPCC_RING;

	if (s->ring[slot].psn == p->psn && s->ring[slot].snd > s->acked)
		s->acked = s->ring[slot].snd;
	if (ibfs__psn_cmp(p->psn, s->acked_psn) > 0)
		s->acked_psn = p->psn;
	int n = p->xh & IBFS_XH_INT ? p->intr.nhop & ~IBFS_INT_ECHO : 0;

	if (n > 0 && n <= IBFS_INT_MAX_HOPS) {
		if (!s->have_ref || s->ref.nhop != p->intr.nhop ||
		    now - s->ref_at > HPCC_REF_MAX) {
			s->last_update_psn = hpcc_next_psn(qp);
		} else {
			int update = ibfs__psn_cmp(p->psn,
						   s->last_update_psn) >= 0;
			double u = hpcc_measure(cc, s, &p->intr, n);

			s->w = hpcc_wind(cc, s, u, update);
			if (!cc->w_min || s->w < cc->w_min)
				cc->w_min = s->w;
			if (update)
				s->last_update_psn = hpcc_next_psn(qp);
		}
		s->ref = p->intr;
		s->ref_at = now;
		s->have_ref = 1;
	}
	if (s->blocked) {
		s->blocked = 0;
		ibfs__hca_qp_wake(qp);
	}
}

static int hpcc_rx(struct ibfs_hca_port *hp, struct ibfs_packet *p)
{
	struct ibfs_hca *h = hp->hca;

	if (p->kind != IBFS_PKT_DATA || !h->lops->accept(hp, p))
		return 0;
	struct ibfs_hca_qp *qp = ibfs__qp_lookup(h, p->dest_qp);

	if (!qp || qp->port != hp->num || qp->pub.qp_type != IBFS_QPT_RC)
		return 0;
	/* Every ACK frees its bytes of the window, telemetry or not (a
	 * peer without HPCC sends none). */
	if (p->opcode == IBFS_OP_ACK) {
		hpcc_ack(qp, p);
		return 0;
	}
	if (!(p->xh & IBFS_XH_INT))
		return 0;
	struct hpcc_qp *s = hpcc_qp(qp);

	if (s) {
		s->echo = p->intr;
		s->have_echo = 1;
	}
	return 0;
}

static void hpcc_stamp(struct ibfs_hca_qp *qp, struct ibfs_packet *p)
{
	if (p->xh & IBFS_XH_ATOMIC)
		return; /* its AtomicETH holds the field's bytes */
	p->xh |= IBFS_XH_INT;
	p->intr.nhop = 0;
	if (p->opcode != IBFS_OP_ACK) {
		p->ack_req = 1;
		return;
	}
	const struct hpcc_qp *s = hpcc_qp(qp);

	p->intr.nhop = IBFS_INT_ECHO;
	if (s && s->have_echo) {
		p->intr = s->echo;
		p->intr.nhop |= IBFS_INT_ECHO;
	}
}

static uint64_t hpcc_rate(const struct ibfs_hca_qp *qp)
{
	const struct hpcc_cc *cc = hpcc_of(qp->hca);
	const struct hpcc_qp *s = qp->cc_qp;

	if (!cc || !s)
		return 0;
	return (uint64_t)(s->w * 8 * 1e12 / (double)cc->cfg.base_rtt);
}

static uint64_t hpcc_rate_min(const struct ibfs_hca *h)
{
	const struct hpcc_cc *cc = hpcc_of(h);

	return (uint64_t)(cc->w_min * 8 * 1e12 / (double)cc->cfg.base_rtt);
}

double ibfs__hpcc_window(const struct ibfs_hca_qp *qp)
{
	if (!hpcc_of(qp->hca))
		return -1;
	const struct hpcc_qp *s = hpcc_qp(qp);

	return s ? s->w : -1;
}

double ibfs__hpcc_util(const struct ibfs_hca_qp *qp)
{
	if (!hpcc_of(qp->hca))
		return -1;
	const struct hpcc_qp *s = hpcc_qp(qp);

	return s ? s->u : -1;
}

double ibfs__hpcc_wai(const struct ibfs_hca_qp *qp)
{
	if (!hpcc_of(qp->hca))
		return -1;
	const struct hpcc_qp *s = hpcc_qp(qp);

	return s ? s->wai : -1;
}

static const struct ibfs_hca_cc_ops hpcc_ops = {
	.name = "hpcc",
	.until = hpcc_until,
	.sent = hpcc_sent,
	.rx = hpcc_rx,
	.rate = hpcc_rate,
	.rate_min = hpcc_rate_min,
	.qp_gone = hpcc_qp_gone,
	.stamp = hpcc_stamp,
	.free = hpcc_free,
};
