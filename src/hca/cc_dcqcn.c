/* SPDX-License-Identifier: MIT */
/*
 * DCQCN (Zhu et al., "Congestion Control for Large-Scale RDMA
 * Deployments", SIGCOMM 2015) on a RoCEv2 RNIC: an ops table behind the
 * HCA's congestion control seam (cc.c), with its parameters in
 * cc_dcqcn_params.c.
 *
 * Notification point (NP, the receiving RNIC, paper 3.2): a packet that
 * arrives with IP ECN = CE (p->fecn under the Ethernet link kind) for one
 * of its QPs, carrying a request or a READ response, is answered with a
 * CNP to the QP that sent it, at most one per QP every cnp-interval. The
 * CNP (IBA Annex A17.9.3) is a RoCEv2 packet of opcode 0x81 whose BTH has
 * BECN set and the sender's QP as DestQP, followed by 16 reserved bytes
 * and the ICRC; it goes on the priority cnp-prio (DSCP 8 x cnp-prio, the
 * class selector the link's framing writes), ahead of data (cc.c).
 *
 * Reaction point (RP, the sending RNIC, paper 3.1), per QP, rates in
 * bit/s: the current rate R_C and the target R_T start at the port's
 * line rate. On a CNP: R_T = R_C (clamp-target on, or an increase event
 * came since the last decrease: ConnectX's CLAMP_TGT_RATE 0 with
 * CLAMP_TGT_RATE_AFTER_TIME_INC 1), R_C = R_C (1 - alpha / 2) rounded down
 * (no lower than min-dec-fac x R_C nor than min-rate), then alpha =
 * (1 - g) alpha + g; the rate timer and the byte counter restart. Alpha
 * decays, alpha = (1 - g) alpha, each alpha-timer period that passes
 * without a CNP. Each rate-timer period, and each byte-counter bytes
 * sent, is an increase event; with t and b the events of each kind
 * since the last decrease (b counts as t without a byte counter):
 * max(t, b) < F fast recovery, min(t, b) > F hyper increase (R_T +=
 * R_HAI), else additive increase (R_T += R_AI); R_T stops at the line
 * rate and R_C = (R_T + R_C) / 2 rounded up, so that it reaches R_T.
 * rate-dec-interval > 0 holds decreases at least that far apart, a CNP
 * in between acting at the interval's end (ConnectX's rate reduce
 * monitor period).
 *
 * The rate limiter: a QP below line rate sends its next request or READ
 * response packet no earlier than the last one's start plus its wire
 * bytes x 8 / R_C (rounded up to the picosecond), at the R_C of the
 * moment: a change of rate moves the wait. The timers are events
 * on the fabric's queue, started by a QP's first CNP and cancelled when
 * it is destroyed or R_C is back at the line rate; a QP at line rate has
 * no state beyond the NP's last CNP time, so an idle fabric has no timer
 * events. A CNP after that starts again from alpha-init.
 */
#include "hca/cc_dcqcn.h"

#include <math.h>
#include <stdlib.h>

#include "hca/cc_roce.h"
#include "hca/hca_int.h"

/* RoCEv2 CNP: 16 reserved bytes after the BTH (IBA A17.9.3). */
#define DQ_CNP_RESERVED 16

struct dq;

/* One QP's state: the NP's last CNP and the RP's rate. */
struct dq_qp {
	struct dq *cc;
	struct ibfs_hca_qp *qp;
	struct dq_qp *prev, *next; /* the control's list */
	/* NP. */
	uint8_t cnp_sent;
	ibfs_time_t last_cnp;
	/* RP: active while below line rate. */
	uint8_t active;
	uint8_t cnp_in_period; /* a CNP since the alpha timer started */
	uint8_t dec_pending;   /* a CNP waits for rate-dec-interval */
	uint64_t line, rc, rt; /* bit/s */
	double alpha;
	uint32_t t_cnt, b_cnt;
	uint64_t bytes;
	ibfs_time_t last_dec, until;
	/* The last paced packet: its start and wire bytes (the limiter's
	 * gap follows R_C when it changes). */
	ibfs_time_t last_start;
	uint32_t last_wire;
	struct ibfs_event *alpha_ev, *rate_ev, *dec_ev;
};

struct dq {
	struct ibfs_hca_cc base;
	struct ibfs_hca *h;
	struct dq_qp *qps;
	ibfs_time_t cnp_interval, alpha_timer, rate_timer, dec_interval;
	double g, alpha_init, min_dec;
	uint64_t byte_counter, rate_ai, rate_hai, min_rate;
	uint32_t fr_steps;
	uint8_t cnp_prio, clamp;
};

enum { DQ_EV_ALPHA, DQ_EV_RATE, DQ_EV_DEC };

static struct dq *dq_of(const struct ibfs_hca *h)
{
	return (struct dq *)h->cc;
}

static ibfs_time_t dq_now(const struct dq *cc)
{
	return ibfs__hca_now(cc->h);
}

/* qp's state, made when first needed (NULL: out of memory). */
static struct dq_qp *dq_state(struct ibfs_hca_qp *qp)
{
	struct dq *cc = dq_of(qp->hca);
	struct dq_qp *s = qp->cc_qp;

	if (s)
		return s;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->cc = cc;
	s->qp = qp;
	s->next = cc->qps;
	if (cc->qps)
		cc->qps->prev = s;
	cc->qps = s;
	qp->cc_qp = s;
	return s;
}

static void dq_cancel(struct dq_qp *s, struct ibfs_event **ev)
{
	if (*ev)
		ibfs__eq_cancel(&s->cc->h->dev.fab->eq, *ev);
	*ev = NULL;
}

static void dq_ev(void *obj, uint64_t arg);

static void dq_arm(struct dq_qp *s, struct ibfs_event **ev, ibfs_time_t t,
		   uint64_t kind)
{
	dq_cancel(s, ev);
	*ev = ibfs__eq_schedule(&s->cc->h->dev.fab->eq, t, dq_ev, s, kind);
}

/* R_C back at line rate: the QP is no longer limited, its timers stop. */
static void dq_idle(struct dq_qp *s)
{
	dq_cancel(s, &s->alpha_ev);
	dq_cancel(s, &s->rate_ev);
	dq_cancel(s, &s->dec_ev);
	s->active = 0;
	s->dec_pending = 0;
}

static void dq_unlink(struct dq_qp *s)
{
	dq_idle(s);
	if (s->prev)
		s->prev->next = s->next;
	else
		s->cc->qps = s->next;
	if (s->next)
		s->next->prev = s->prev;
	s->qp->cc_qp = NULL;
	free(s);
}

/*
 * The limiter after the last paced packet, at the current R_C: its start
 * plus wire x 8 bits at R_C, in ps, rounded up. A rate that changes while
 * the QP waits moves the wait with it, as a hardware rate limiter's next
 * send time does (a QP cut to a crawl that recovers is not held by the
 * crawl's gap).
 */
static void dq_reuntil(struct dq_qp *s)
{
	unsigned __int128 bits = (unsigned __int128)s->last_wire * 8 *
				 1000000000000ull;
	ibfs_time_t was = s->until;

	if (!s->last_wire)
		return;
	s->until = s->last_start + (ibfs_time_t)((bits + s->rc - 1) / s->rc);
	/* Sooner than the QP's timer was set for: it may go then. */
	if (s->until < was)
		ibfs__hca_qp_wake(s->qp);
}

/* Paper 3.1, one increase event (by_timer: the rate timer's). */
static void dq_increase(struct dq_qp *s, int by_timer)
{
	const struct dq *cc = s->cc;
	uint32_t t = s->t_cnt, b = cc->byte_counter ? s->b_cnt : s->t_cnt;
	uint32_t hi = t > b ? t : b, lo = t < b ? t : b;

	if (hi >= cc->fr_steps)
		s->rt += lo > cc->fr_steps ? cc->rate_hai : cc->rate_ai;
	if (s->rt > s->line)
		s->rt = s->line;
	s->rc = (s->rt + s->rc + 1) / 2;
	if (by_timer)
		s->t_cnt++;
	else
		s->b_cnt++;
	if (s->rc >= s->line) {
		dq_idle(s);
		ibfs__hca_qp_wake(s->qp); /* no wait at line rate */
	} else {
		dq_reuntil(s);
	}
}

/* Paper 3.1, the cut on a CNP. */
static void dq_decrease(struct dq_qp *s)
{
	const struct dq *cc = s->cc;
	ibfs_time_t now = dq_now(cc);
	uint64_t rc = (uint64_t)floor((double)s->rc * (1 - s->alpha / 2));
	uint64_t floor_dec = (uint64_t)ceil((double)s->rc * cc->min_dec);

	/* Without clamp-target, R_T stays where it was unless the rate
	 * rose since the last cut (by the timer or the byte counter). */
	if (cc->clamp || s->t_cnt || s->b_cnt)
		s->rt = s->rc;
	if (rc < floor_dec)
		rc = floor_dec;
	if (rc < cc->min_rate)
		rc = cc->min_rate;
	s->rc = rc;
	s->alpha = (1 - cc->g) * s->alpha + cc->g;
	s->t_cnt = s->b_cnt = 0;
	s->bytes = 0;
	s->last_dec = now;
	s->dec_pending = 0;
	dq_reuntil(s);
	dq_arm(s, &s->rate_ev, now + cc->rate_timer, DQ_EV_RATE);
}

/* A CNP for qp: the rate falls now, or at the end of rate-dec-interval. */
static void dq_cnp_rx(struct ibfs_hca_qp *qp)
{
	struct dq_qp *s = dq_state(qp);
	struct dq *cc;
	ibfs_time_t now;

	if (!s)
		return;
	cc = s->cc;
	now = dq_now(cc);
	if (!s->active) {
		struct ibfs_rate r = qp->hca->hp[qp->port].port->rate;

		s->active = 1;
		s->line = r.bits_num / r.bits_den;
		s->rc = s->rt = s->line;
		s->alpha = cc->alpha_init;
		s->t_cnt = s->b_cnt = 0;
		s->bytes = 0;
		s->until = 0;
		s->last_wire = 0;
	} else if (cc->dec_interval &&
		   now < s->last_dec + cc->dec_interval) {
		s->cnp_in_period = 1;
		if (!s->dec_pending)
			dq_arm(s, &s->dec_ev, s->last_dec + cc->dec_interval,
			       DQ_EV_DEC);
		s->dec_pending = 1;
		return;
	}
	/* Alpha decays only after a whole alpha-timer without a CNP. */
	s->cnp_in_period = 0;
	dq_arm(s, &s->alpha_ev, now + cc->alpha_timer, DQ_EV_ALPHA);
	dq_decrease(s);
}

static void dq_ev(void *obj, uint64_t kind)
{
	struct dq_qp *s = obj;
	const struct dq *cc = s->cc;
	ibfs_time_t now = dq_now(cc);

	switch (kind) {
	case DQ_EV_ALPHA:
		s->alpha_ev = NULL;
		if (!s->cnp_in_period)
			s->alpha = (1 - cc->g) * s->alpha;
		s->cnp_in_period = 0;
		dq_arm(s, &s->alpha_ev, now + cc->alpha_timer, DQ_EV_ALPHA);
		break;
	case DQ_EV_RATE:
		s->rate_ev = NULL;
		dq_arm(s, &s->rate_ev, now + cc->rate_timer, DQ_EV_RATE);
		dq_increase(s, 1);
		break;
	default:
		s->dec_ev = NULL;
		if (s->dec_pending)
			dq_decrease(s);
		break;
	}
}

/* The RoCEv2 CNP for the CE-marked packet p, to the sender's QP src. */
static void dq_cnp_tx(struct ibfs_hca_port *hp, const struct ibfs_packet *p,
		      uint32_t src)
{
	struct ibfs_hca *h = hp->hca;
	const struct dq *cc = dq_of(h);
	struct ibfs_packet *c = ibfs__hca_packet(h, 0);

	if (!c)
		return;
	c->opcode = IBFS_OP_ROCE_CNP;
	c->xh = 0;
	c->becn = 1;
	c->dest_qp = src & 0xffffff;
	c->psn = 0;
	/* The reserved bytes, zeros in a capture (no payload buffer). */
	c->payload_len = DQ_CNP_RESERVED;
	h->lops->frame(hp, c, p->slid, cc->cnp_prio, 0, p->pkey);
	/* Its own priority, whatever the SL-to-priority table says. */
	c->sl = c->vl = cc->cnp_prio;
	ibfs__cc_cnp_queue(hp, c);
}

/* NP: a CE-marked packet p for qp. */
static void dq_marked(struct ibfs_hca_port *hp, struct ibfs_hca_qp *qp,
		      const struct ibfs_packet *p)
{
	const struct dq *cc = dq_of(hp->hca);
	const struct ibfs_hca_opinfo *oi = ibfs__hca_opinfo(p->opcode);
	ibfs_time_t now = ibfs__hca_now(hp->hca);
	struct dq_qp *s;

	/* ACKs carry no data the sender paces. */
	if (!oi || p->opcode == (IBFS_OP_RC | IBFS_OP_ACK) ||
	    p->opcode == (IBFS_OP_RC | IBFS_OP_ATOMIC_ACK))
		return;
	s = dq_state(qp);
	if (!s)
		return;
	if (s->cnp_sent && now < s->last_cnp + cc->cnp_interval)
		return;
	s->cnp_sent = 1;
	s->last_cnp = now;
	dq_cnp_tx(hp, p, qp->pub.qp_type == IBFS_QPT_UD ?
				 p->deth.src_qp : qp->attr.dest_qp_num);
}

static int dq_rx(struct ibfs_hca_port *hp, struct ibfs_packet *p)
{
	struct ibfs_hca *h = hp->hca;
	struct ibfs_hca_qp *qp = NULL;

	if (!(p->fecn || p->opcode == IBFS_OP_ROCE_CNP))
		return 0;
	if (p->kind == IBFS_PKT_DATA && h->lops->accept(hp, p))
		qp = ibfs__qp_lookup(h, p->dest_qp);
	if (qp && qp->port != hp->num)
		qp = NULL;
	if (p->opcode == IBFS_OP_ROCE_CNP) {
		h->st.cnp_rx++;
		if (qp)
			dq_cnp_rx(qp);
		return 1;
	}
	h->st.fecn_rx++;
	if (qp)
		dq_marked(hp, qp, p);
	return 0;
}

static ibfs_time_t dq_until(const struct ibfs_hca_qp *qp)
{
	const struct dq_qp *s = qp->cc_qp;

	return s && s->active ? s->until : 0;
}

/* A request or READ response packet of qp left: the limiter and the
 * byte counter. */
static void dq_sent(struct ibfs_hca_port *hp, struct ibfs_hca_qp *qp,
		    const struct ibfs_cc_tx *tx, ibfs_time_t left)
{
	struct dq_qp *s = qp ? qp->cc_qp : NULL;
	uint8_t op = tx->opcode & 0x1f;
	const struct dq *cc;

	(void)left;
	if (!s || !s->active)
		return;
	if (!tx->request && (op < IBFS_OP_READ_RESP_FIRST ||
			     op > IBFS_OP_READ_RESP_ONLY))
		return;
	cc = s->cc;
	s->last_start = ibfs__hca_now(hp->hca);
	s->last_wire = tx->wire;
	s->until = 0;
	dq_reuntil(s);
	if (!cc->byte_counter)
		return;
	s->bytes += tx->wire;
	while (s->active && s->bytes >= cc->byte_counter) {
		s->bytes -= cc->byte_counter;
		dq_increase(s, 0);
	}
}

static uint64_t dq_rate(const struct ibfs_hca_qp *qp)
{
	const struct dq_qp *s = qp->cc_qp;

	return s && s->active ? s->rc : 0;
}

static void dq_qp_gone(struct ibfs_hca_qp *qp)
{
	if (qp->cc_qp)
		dq_unlink(qp->cc_qp);
}

static void dq_free(struct ibfs_hca *h)
{
	struct dq *cc = dq_of(h);

	while (cc->qps)
		dq_unlink(cc->qps);
	free(cc);
}

static const struct ibfs_hca_cc_ops dq_ops = {
	.name = "dcqcn",
	.responses = 1,
	.until = dq_until,
	.sent = dq_sent,
	.rx = dq_rx,
	.rate = dq_rate,
	.qp_gone = dq_qp_gone,
	.free = dq_free,
};

int ibfs__cc_dcqcn_state(const struct ibfs_hca_qp *qp,
			 struct ibfs_dcqcn_state *out)
{
	const struct dq_qp *s = qp->cc_qp;

	if (!qp->hca->cc || qp->hca->cc->ops != &dq_ops || !s)
		return -1;
	*out = (struct ibfs_dcqcn_state){s->active, s->rc, s->rt, s->alpha,
					 s->t_cnt, s->b_cnt};
	return 0;
}

struct ibfs_hca_cc *ibfs__cc_dcqcn_create(struct ibfs_hca *h, const double *v)
{
	struct dq *cc = calloc(1, sizeof(*cc));

	if (!cc)
		return NULL;
	cc->base.ops = &dq_ops;
	cc->h = h;
	cc->cnp_interval = (ibfs_time_t)v[IBFS_DCQCN_CNP_INTERVAL];
	cc->cnp_prio = (uint8_t)v[IBFS_DCQCN_CNP_PRIO];
	cc->g = v[IBFS_DCQCN_G];
	cc->alpha_init = v[IBFS_DCQCN_ALPHA_INIT];
	cc->alpha_timer = (ibfs_time_t)v[IBFS_DCQCN_ALPHA_TIMER];
	cc->rate_timer = (ibfs_time_t)v[IBFS_DCQCN_RATE_TIMER];
	cc->byte_counter = (uint64_t)v[IBFS_DCQCN_BYTE_COUNTER];
	cc->fr_steps = (uint32_t)v[IBFS_DCQCN_FR_STEPS];
	cc->rate_ai = (uint64_t)v[IBFS_DCQCN_RATE_AI];
	cc->rate_hai = (uint64_t)v[IBFS_DCQCN_RATE_HAI];
	cc->min_rate = (uint64_t)v[IBFS_DCQCN_MIN_RATE];
	cc->min_dec = v[IBFS_DCQCN_MIN_DEC_FAC];
	cc->dec_interval = (ibfs_time_t)v[IBFS_DCQCN_RATE_DEC_INTERVAL];
	cc->clamp = v[IBFS_DCQCN_CLAMP_TARGET] != 0;
	return &cc->base;
}
