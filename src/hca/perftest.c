/* SPDX-License-Identifier: MIT */
/*
 * perftest's measurement loops (see perftest.h), as perftest 4.x runs
 * them, over RC queue pairs:
 *   send_lat   ping-pong of SENDs; each side reposts its receive and
 *              answers on the receive completion. Latency: half of each
 *              round trip seen by the client.
 *   write_lat  ping-pong of RDMA WRITEs; each side polls the last byte of
 *              its buffer (here: the moment the HCA's write of it becomes
 *              visible), and before writing again waits for the send
 *              completion of its own previous write. Half a round trip.
 *   read_lat, atomic_lat   one READ (fetch-and-add) at a time by the
 *              client; a full round trip each.
 *   *_bw       the client keeps tx_depth WRs in flight until `iters`
 *              have completed; send_bw's server keeps receives posted.
 * Messages up to inline_max bytes are sent inline in the latency tests
 * (perftest's default inline size is 236 bytes for RC). With -c UC or UD
 * the same loops run over UC (sends and writes) or UD (sends, one MTU at
 * most) queue pairs, whose sends complete when they leave.
 * Statistics follow perftest: t_typical is the median, the percentiles
 * are taken on the sorted samples. BW average is bytes x iterations over
 * the time from the first post to the last completion; BW peak is the
 * best rate over any tx_depth consecutive completions.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hca/hca_int.h"
#include "hca/pair.h"
#include "hca/perftest.h"

static const char *const pt_names[IBFS_PT_COUNT] = {
	"send_lat", "write_lat", "read_lat", "atomic_lat",
	"send_bw", "write_bw", "read_bw",
};

int ibfs__pt_test_parse(const char *name)
{
	/* perftest's own program names, ib_write_bw and so on, name them too. */
	if (!strncmp(name, "ib_", 3))
		name += 3;
	for (int i = 0; i < IBFS_PT_COUNT; i++)
		if (!strcmp(name, pt_names[i]))
			return i;
	return -1;
}

const char *ibfs__pt_test_name(enum ibfs_pt_test t)
{
	return (unsigned)t < IBFS_PT_COUNT ? pt_names[t] : "?";
}

/* perftest's defaults: rx depth 512, tx depth 128 (bandwidth tests);
 * inline sizes DEF_INLINE_WRITE 220, DEF_INLINE_SEND_RC_UC 236,
 * DEF_INLINE_SEND_UD 188 (perftest_parameters.h). */
enum {
	PT_RX_DEPTH = 512, PT_TX_DEPTH = 128,
	PT_INLINE_WRITE = 220, PT_INLINE_SEND = 236, PT_INLINE_SEND_UD = 188,
};

struct pt_run;

/* What a completion notification is for: a side's QP, send or receive. */
struct pt_cb {
	struct pt_run *r;
	int side, recv;
	uint32_t qp;
};

/* One QP of a side, with its own CQs and buffer. */
struct pt_conn {
	struct ibfs_hca_end e;
	struct ibfs_ah *ah;      /* UD: the way to the peer */
	uint64_t posted, completed, rcvd;
	int own_done;
	struct pt_cb cb[2];      /* send and receive CQ notifications */
};

struct pt_side {
	struct ibfs_hca *h;
	struct pt_conn *q;       /* [nqps] */
	/* Bandwidth: the first post, then each completion; latency (the
	 * client): the start of each round trip, then its end. */
	ibfs_time_t *stamp;
	uint64_t nstamp, want;
};

struct pt_run {
	const struct ibfs_pt_cfg *c;
	struct ibfs_direct_exec *dx;
	struct pt_side s[2];
	uint32_t inline_size;
	int failed;
	struct ibfs_diag *d;
};

static void pt_fail(struct pt_run *r, const char *what, int status)
{
	if (r->failed)
		return;
	r->failed = 1;
	ibfs__diag(r->d, "perftest", 0, "%s: %s", what,
		   ibfs_wc_status_str((enum ibfs_wc_status)status));
}

/* perftest's inline size for the test when -I is not given. */
static uint32_t pt_default_inline(const struct ibfs_pt_cfg *c)
{
	if (c->test == IBFS_PT_WRITE_LAT)
		return PT_INLINE_WRITE;
	if (c->test == IBFS_PT_SEND_LAT)
		return c->qpt == IBFS_QPT_UD ? PT_INLINE_SEND_UD
					     : PT_INLINE_SEND;
	return 0;
}

static int pt_conn_open(struct pt_run *r, struct pt_conn *q,
			struct ibfs_hca *h, size_t bytes)
{
	const struct ibfs_pt_cfg *c = r->c;
	struct ibfs_qp_cap cap = {
		.max_send_wr = c->tx_depth + 1, .max_recv_wr = PT_RX_DEPTH,
		.max_send_sge = 1, .max_recv_sge = 1,
		.max_inline_data = r->inline_size,
	};
	uint32_t depth = c->tx_depth > PT_RX_DEPTH ? c->tx_depth : PT_RX_DEPTH;
	int rc = ibfs__hca_end_open(&q->e, h, c->qpt, bytes, &cap,
				    (int)depth + 16);
	q->e.port = c->port ? c->port : 1;
	return rc;
}

/* The path MTU: perftest -m, else the port's. */
static enum ibfs_mtu pt_mtu(const struct pt_run *r, struct ibfs_hca *h)
{
	uint32_t m = h->dev.fab->mtu ? h->dev.fab->mtu : 4096;
	if (r->c->mtu && r->c->mtu < m)
		m = r->c->mtu;
	enum ibfs_mtu e = IBFS_MTU_256;
	while (e < IBFS_MTU_4096 && (uint32_t)ibfs_mtu_to_bytes(e + 1) <= m)
		e++;
	return e;
}

/* UD Q_Key shared by both sides (perftest uses 0x11111111 too). */
#define PT_QKEY 0x11111111u
/* A UD receive buffer starts with room for a GRH (verbs). */
#define PT_GRH 40

static int pt_connect(const struct pt_run *r, struct pt_side *s,
		      struct pt_conn *q, const struct pt_side *ps,
		      const struct pt_conn *peer)
{
	uint16_t dlid = ps->h->hp[peer->e.port].lid;
	if (q->e.qp->qp_type == IBFS_QPT_UD) {
		struct ibfs_ah_attr aa = {.dlid = dlid, .port_num = q->e.port};
		q->ah = ibfs_create_ah(q->e.pd, &aa);
		return !q->ah || ibfs__hca_end_connect_ud(&q->e, PT_QKEY) ? -1
									 : 0;
	}
	/* perftest's defaults: timeout 14, 7 retries, RNR timer 12
	 * (0.64 ms); as many READs in flight as the HCA allows. */
	struct ibfs_hca_conn c = {
		.mtu = pt_mtu(r, s->h), .timeout = 14, .retry_cnt = 7,
		.rnr_retry = 7, .min_rnr_timer = 12,
		.rd_atomic = s->h->prof->max_rd_atomic,
	};
	return ibfs__hca_end_connect(&q->e, dlid, peer->e.qp->qp_num, &c) ? -1
									  : 0;
}

static ibfs_time_t pt_now(struct pt_run *r)
{
	return r->dx->eq->now;
}

static void pt_stamp(struct pt_run *r, int side)
{
	struct pt_side *s = &r->s[side];
	if (s->nstamp < s->want)
		s->stamp[s->nstamp++] = pt_now(r);
}

static void pt_post_recv(struct pt_run *r, struct pt_conn *q)
{
	uint32_t grh = r->c->qpt == IBFS_QPT_UD ? PT_GRH : 0;
	struct ibfs_sge sg = {.addr = (uint64_t)(uintptr_t)q->e.buf,
			      .length = r->c->size + grh,
			      .lkey = q->e.mr->lkey};
	struct ibfs_recv_wr wr = {.sg_list = &sg, .num_sge = 1};
	struct ibfs_recv_wr *bad;
	if (ibfs_post_recv(q->e.qp, &wr, &bad))
		pt_fail(r, "post_recv", IBFS_WC_GENERAL_ERR);
}

static enum ibfs_wr_opcode pt_opcode(enum ibfs_pt_test t)
{
	switch (t) {
	case IBFS_PT_SEND_LAT:
	case IBFS_PT_SEND_BW:
		return IBFS_WR_SEND;
	case IBFS_PT_WRITE_LAT:
	case IBFS_PT_WRITE_BW:
		return IBFS_WR_RDMA_WRITE;
	case IBFS_PT_READ_LAT:
	case IBFS_PT_READ_BW:
		return IBFS_WR_RDMA_READ;
	default:
		return IBFS_WR_ATOMIC_FETCH_AND_ADD;
	}
}

/* Posts the next message of QP k of side i to its peer QP. */
static void pt_post(struct pt_run *r, int i, uint32_t k)
{
	const struct ibfs_pt_cfg *c = r->c;
	struct pt_conn *q = &r->s[i].q[k], *peer = &r->s[!i].q[k];
	struct ibfs_sge sg = {.addr = (uint64_t)(uintptr_t)q->e.buf,
			      .length = c->size, .lkey = q->e.mr->lkey};
	struct ibfs_send_wr wr = {.wr_id = q->posted, .sg_list = &sg,
				  .num_sge = 1, .opcode = pt_opcode(c->test),
				  .send_flags = IBFS_SEND_SIGNALED};
	if ((wr.opcode == IBFS_WR_SEND || wr.opcode == IBFS_WR_RDMA_WRITE) &&
	    c->size <= r->inline_size)
		wr.send_flags |= IBFS_SEND_INLINE;
	if (c->qpt == IBFS_QPT_UD) {
		wr.wr.ud.ah = q->ah;
		wr.wr.ud.remote_qpn = peer->e.qp->qp_num;
		wr.wr.ud.remote_qkey = PT_QKEY;
	} else if (wr.opcode == IBFS_WR_ATOMIC_FETCH_AND_ADD) {
		wr.wr.atomic.compare_add = 1;
		wr.wr.atomic.remote_addr = (uint64_t)(uintptr_t)peer->e.buf;
		wr.wr.atomic.rkey = peer->e.mr->rkey;
	} else {
		wr.wr.rdma.remote_addr = (uint64_t)(uintptr_t)peer->e.buf;
		wr.wr.rdma.rkey = peer->e.mr->rkey;
	}
	if (c->test == IBFS_PT_WRITE_LAT && c->size)
		q->e.buf[c->size - 1] = (uint8_t)(q->posted + 1);
	struct ibfs_send_wr *bad;
	if (ibfs_post_send(q->e.qp, &wr, &bad)) {
		pt_fail(r, "post_send", IBFS_WC_GENERAL_ERR);
		return;
	}
	q->posted++;
	q->own_done = 0;
}

/* write_lat: post when the own previous write completed and the peer's
 * write has arrived (the server answers; the client starts). */
static void pt_wlat_try(struct pt_run *r, int i)
{
	struct pt_conn *q = &r->s[i].q[0];
	if (r->failed || !q->own_done || q->posted >= r->c->iters)
		return;
	uint64_t need = i == 0 ? q->posted : q->posted + 1;
	if (q->rcvd < need)
		return;
	pt_post(r, i, 0);
}

/* A send completion of QP k of side i. */
static void pt_sent(struct pt_run *r, int i, uint32_t k)
{
	struct pt_conn *q = &r->s[i].q[k];
	q->completed++;
	q->own_done = 1;
	switch (r->c->test) {
	case IBFS_PT_WRITE_LAT:
		pt_wlat_try(r, i);
		break;
	case IBFS_PT_SEND_LAT:
		break;
	default: /* read_lat, atomic_lat and the bandwidth tests */
		pt_stamp(r, i);
		if (q->posted < r->c->iters)
			pt_post(r, i, k);
		break;
	}
}

/* A receive completion of QP k of side i. */
static void pt_received(struct pt_run *r, int i, uint32_t k)
{
	struct pt_conn *q = &r->s[i].q[k];
	q->rcvd++;
	pt_post_recv(r, q);
	if (r->c->test != IBFS_PT_SEND_LAT)
		return;
	if (i == 0)
		pt_stamp(r, 0);
	if (q->posted < r->c->iters)
		pt_post(r, i, k);
}

static void pt_cq_notify(void *arg, struct ibfs_hca_cq *cq)
{
	(void)cq;
	struct pt_cb *cb = arg;
	struct pt_run *r = cb->r;
	struct ibfs_hca_end *e = &r->s[cb->side].q[cb->qp].e;
	struct ibfs_wc wc[16];
	int n;
	while (!r->failed &&
	       (n = ibfs_poll_cq(cb->recv ? e->rcq : e->scq, 16, wc)) > 0) {
		for (int k = 0; k < n && !r->failed; k++) {
			if (wc[k].status != IBFS_WC_SUCCESS) {
				pt_fail(r, cb->recv ? "receive completion" :
						      "send completion",
					wc[k].status);
				return;
			}
			if (cb->recv)
				pt_received(r, cb->side, cb->qp);
			else
				pt_sent(r, cb->side, cb->qp);
		}
	}
}

/* write_lat: the last byte of a side's buffer became visible. */
static void pt_data_ev(void *obj, uint64_t side)
{
	struct pt_run *r = obj;
	r->s[side].q[0].rcvd++;
	if (side == 0)
		pt_stamp(r, 0); /* the client's round trip ends */
	pt_wlat_try(r, (int)side);
}

static void pt_write_hook(void *arg, struct ibfs_hca_qp *qp, uint64_t va,
			  uint32_t len, ibfs_time_t vis)
{
	struct pt_run *r = arg;
	for (int i = 0; i < 2; i++) {
		struct pt_conn *q = &r->s[i].q[0];
		if (&qp->pub != q->e.qp)
			continue;
		if (va + len != (uint64_t)(uintptr_t)q->e.buf + r->c->size)
			return; /* not the last byte */
		ibfs__eq_schedule(r->dx->eq, vis, pt_data_ev, r, (uint64_t)i);
	}
}

static int pt_cmp(const void *a, const void *b)
{
	ibfs_time_t x = *(const ibfs_time_t *)a, y = *(const ibfs_time_t *)b;
	return x < y ? -1 : x > y;
}

/* Bandwidth of one side from its stamps: [0] the first post, [k] the
 * k-th completion; the peak is the best rate over any window of w (the
 * WRs in flight) consecutive completions. */
static void pt_bw_side(const struct pt_side *s, uint32_t size, uint64_t w,
		       struct ibfs_pt_result *res)
{
	uint64_t n = s->nstamp ? s->nstamp - 1 : 0;
	ibfs_time_t el = s->stamp[n] - s->stamp[0];
	double bytes = (double)size * (double)n;
	if (el > res->elapsed_ps)
		res->elapsed_ps = el;
	res->bw_avg_gbps += el ? bytes * 8 / ((double)el * 1e-12) / 1e9 : 0;
	res->msg_rate_mpps += el ? (double)n / ((double)el * 1e-6) : 0;
	if (w > n)
		w = n;
	double peak = 0;
	for (uint64_t k = w; w && k <= n; k++) {
		ibfs_time_t dt = s->stamp[k] - s->stamp[k - w];
		double g = dt ? (double)size * (double)w * 8 /
					((double)dt * 1e-12) / 1e9
			      : 0;
		if (g > peak)
			peak = g;
	}
	res->bw_peak_gbps += peak;
}

static ibfs_time_t pt_pct(const ibfs_time_t *lat, uint64_t n, double p)
{
	uint64_t k = (uint64_t)((double)n * p);
	return lat[k < n ? k : n - 1];
}

/* Latency statistics from the client's stamps: round trip k runs from
 * stamp[k] to stamp[k + 1], halved for send and write. */
static void pt_lat(const struct pt_run *r, struct ibfs_pt_result *res)
{
	const struct pt_side *s = &r->s[0];
	uint64_t n = s->nstamp ? s->nstamp - 1 : 0;
	int half = r->c->test == IBFS_PT_SEND_LAT ||
		   r->c->test == IBFS_PT_WRITE_LAT;
	res->elapsed_ps = n ? s->stamp[n] - s->stamp[0] : 0;
	ibfs_time_t *lat = n ? malloc(n * sizeof(*lat)) : NULL;
	if (!lat)
		return;
	double sum = 0, sq = 0;
	for (uint64_t k = 0; k < n; k++) {
		lat[k] = s->stamp[k + 1] - s->stamp[k];
		if (half)
			lat[k] /= 2;
		sum += (double)lat[k];
	}
	double avg = sum / (double)n;
	for (uint64_t k = 0; k < n; k++)
		sq += ((double)lat[k] - avg) * ((double)lat[k] - avg);
	qsort(lat, n, sizeof(*lat), pt_cmp);
	res->t_min = (double)lat[0] / 1e6;
	res->t_max = (double)lat[n - 1] / 1e6;
	res->t_typical = (double)lat[n / 2] / 1e6;
	res->t_avg = avg / 1e6;
	res->t_stdev = sqrt(sq / (double)n) / 1e6;
	res->p99 = (double)pt_pct(lat, n, 0.99) / 1e6;
	res->p999 = (double)pt_pct(lat, n, 0.999) / 1e6;
	free(lat);
}

static void pt_results(const struct pt_run *r, struct ibfs_pt_result *res)
{
	const struct ibfs_pt_cfg *c = r->c;
	res->size = c->size;
	res->iters = c->iters;
	if (!ibfs__pt_is_bw(c->test)) {
		pt_lat(r, res);
		return;
	}
	for (int i = 0; i < 2; i++)
		if (r->s[i].want)
			pt_bw_side(&r->s[i], c->size,
				   (uint64_t)c->tx_depth * c->nqps, res);
}

int ibfs__perftest_port_ok(struct ibfs_hca *a, struct ibfs_hca *b,
			   uint8_t port, struct ibfs_diag *d)
{
	/* As perftest's "port is not active": both ends need a LID there. */
	int pn = port ? port : 1;
	struct ibfs_hca *ends[2] = {a, b};
	for (int i = 0; i < 2; i++)
		if (pn > ends[i]->dev.nports || !ends[i]->hp[pn].lid)
			return ibfs__diag(d, "perftest", 0,
					  "port %d of %s is not active (it "
					  "has no link or no LID); -i PORT "
					  "chooses another", pn,
					  ends[i]->dev.fab->topo
						  ->nodes[ends[i]->dev.node].id);
	return 0;
}

int ibfs__pt_check_usage(const struct ibfs_pt_cfg *c, struct ibfs_diag *d)
{
	int bw = ibfs__pt_is_bw(c->test);
	int sendish = c->test == IBFS_PT_SEND_LAT ||
		      c->test == IBFS_PT_SEND_BW;
	int writeish = c->test == IBFS_PT_WRITE_LAT ||
		       c->test == IBFS_PT_WRITE_BW;
	if (c->iters < 1 || c->iters > 100000000)
		return ibfs__diag(d, "perftest", 0,
				  "iterations must be 1 to 100000000");
	if (c->test == IBFS_PT_WRITE_LAT && c->size == 0)
		return ibfs__diag(d, "perftest", 0,
				  "write_lat needs at least one byte");
	if (!bw && (c->nqps > 1 || c->bidir))
		return ibfs__diag(d, "perftest", 0,
				  "-q and -b are for the bandwidth tests");
	if (!bw && c->tx_depth > 1)
		return ibfs__diag(d, "perftest", 0,
				  "-t is for the bandwidth tests");
	if (c->nqps > IBFS_PT_MAX_QPS || c->tx_depth > IBFS_PT_MAX_TX)
		return ibfs__diag(d, "perftest", 0,
				  "at most %d QPs and a tx depth of %d",
				  IBFS_PT_MAX_QPS, IBFS_PT_MAX_TX);
	if (c->mtu && (c->mtu < 256 || c->mtu > 4096 ||
		       (c->mtu & (c->mtu - 1))))
		return ibfs__diag(d, "perftest", 0,
				  "MTU must be 256, 512, 1024, 2048 or 4096");
	/* As perftest: UD sends only, UC sends and writes (IBA Table 38). */
	if ((c->qpt == IBFS_QPT_UD && !sendish) ||
	    (c->qpt == IBFS_QPT_UC && !sendish && !writeish))
		return ibfs__diag(d, "perftest", 0,
				  "%s does not run over %s",
				  ibfs__pt_test_name(c->test),
				  c->qpt == IBFS_QPT_UD ? "UD" : "UC");
	if (c->have_inline && !sendish && !writeish)
		return ibfs__diag(d, "perftest", 0,
				  "%s sends nothing inline (-I)",
				  ibfs__pt_test_name(c->test));
	return 0;
}

/* The configuration with perftest's defaults filled in, or -1 with d
 * filled when perftest would refuse it. */
static int pt_check(struct ibfs_pt_cfg *c, struct ibfs_hca *a,
		    struct ibfs_diag *d)
{
	int bw = ibfs__pt_is_bw(c->test);
	if (ibfs__pt_check_usage(c, d) < 0)
		return -1;
	if (c->test == IBFS_PT_ATOMIC_LAT)
		c->size = 8;
	if (!c->tx_depth || !bw)
		c->tx_depth = bw ? PT_TX_DEPTH : 1;
	if (!c->qpt)
		c->qpt = IBFS_QPT_RC;
	if (!c->nqps)
		c->nqps = 1;
	uint32_t mtu = a->dev.fab->mtu ? a->dev.fab->mtu : 4096;
	if (c->mtu && c->mtu < mtu)
		mtu = c->mtu;
	if (c->qpt == IBFS_QPT_UD && c->size > mtu)
		return ibfs__diag(d, "perftest", 0,
				  "UD messages are at most one MTU (%u bytes)",
				  mtu);
	if (c->have_inline && c->inline_size > a->prof->max_inline)
		return ibfs__diag(d, "perftest", 0,
				  "inline size %u is above the HCA's %u "
				  "(max_inline_data)",
				  c->inline_size, a->prof->max_inline);
	return 0;
}

/* Opens and connects nqps QPs on each side. */
static int pt_open(struct pt_run *r, struct ibfs_hca *a, struct ibfs_hca *b)
{
	const struct ibfs_pt_cfg *c = r->c;
	size_t bytes = (c->size > 8 ? c->size : 8) + PT_GRH;
	struct ibfs_hca *h[2] = {a, b};
	for (int i = 0; i < 2; i++) {
		struct pt_side *s = &r->s[i];
		s->h = h[i];
		s->q = calloc(c->nqps, sizeof(*s->q));
		if (!s->q)
			return -1;
		if (ibfs__pt_is_bw(c->test) ? i == 0 || c->bidir : i == 0)
			s->want = (ibfs__pt_is_bw(c->test) ? c->nqps : 1) *
					  c->iters + 1;
		s->stamp = s->want ? calloc(s->want, sizeof(*s->stamp)) : NULL;
		if (s->want && !s->stamp)
			return -1;
		for (uint32_t k = 0; k < c->nqps; k++)
			if (pt_conn_open(r, &s->q[k], h[i], bytes))
				return -1;
	}
	for (uint32_t k = 0; k < c->nqps; k++)
		for (int i = 0; i < 2; i++) {
			struct pt_conn *q = &r->s[i].q[k];
			if (pt_connect(r, &r->s[i], q, &r->s[!i],
				       &r->s[!i].q[k]))
				return -1;
			for (int v = 0; v < 2; v++) {
				q->cb[v] = (struct pt_cb){r, i, v, k};
				ibfs__cq_set_notify(v ? q->e.rcq : q->e.scq,
						    pt_cq_notify, &q->cb[v]);
			}
			q->own_done = 1;
		}
	return 0;
}

static void pt_close(struct pt_run *r)
{
	for (int i = 0; i < 2; i++) {
		struct pt_side *s = &r->s[i];
		for (uint32_t k = 0; s->q && k < r->c->nqps; k++) {
			if (s->q[k].ah)
				ibfs_destroy_ah(s->q[k].ah);
			if (s->q[k].e.ctx)
				ibfs__hca_end_close(&s->q[k].e);
		}
		free(s->q);
		free(s->stamp);
	}
}

/* Receives posted ahead (send tests), then the first posts: the client's
 * first message, or in the bandwidth tests tx_depth a QP on each sending
 * side, QP by QP. */
static void pt_start(struct pt_run *r)
{
	const struct ibfs_pt_cfg *c = r->c;
	if (c->test == IBFS_PT_SEND_LAT || c->test == IBFS_PT_SEND_BW) {
		int depth = c->test == IBFS_PT_SEND_LAT ? 16 : PT_RX_DEPTH;
		for (int i = 0; i < 2; i++) {
			if (c->test == IBFS_PT_SEND_BW && i == 0 && !c->bidir)
				continue; /* the client only sends */
			for (uint32_t k = 0; k < c->nqps; k++)
				for (int n = 0; n < depth; n++)
					pt_post_recv(r, &r->s[i].q[k]);
		}
	}
	if (!ibfs__pt_is_bw(c->test)) {
		pt_stamp(r, 0);
		pt_post(r, 0, 0);
		return;
	}
	for (int i = 0; i < 2; i++) {
		if (!r->s[i].want)
			continue;
		pt_stamp(r, i);
		for (uint32_t k = 0; k < c->nqps; k++)
			for (uint32_t n = 0; n < c->tx_depth && n < c->iters;
			     n++)
				pt_post(r, i, k);
	}
}

int ibfs__perftest_run(struct ibfs_hca *a, struct ibfs_hca *b,
		       struct ibfs_direct_exec *dx,
		       const struct ibfs_pt_cfg *cin,
		       struct ibfs_pt_result *res, struct ibfs_diag *d)
{
	struct ibfs_pt_cfg c = *cin;
	if (pt_check(&c, a, d) < 0 ||
	    ibfs__perftest_port_ok(a, b, c.port, d) < 0)
		return -1;
	memset(res, 0, sizeof(*res));
	struct pt_run r = {.c = &c, .dx = dx, .d = d};
	r.inline_size = c.have_inline ? c.inline_size : pt_default_inline(&c);
	if (r.inline_size > a->prof->max_inline)
		r.inline_size = a->prof->max_inline;
	int rc = -1;
	if (pt_open(&r, a, b)) {
		ibfs__diag(d, "perftest", 0, "cannot set up the queue pairs");
		goto out;
	}
	if (c.test == IBFS_PT_WRITE_LAT) {
		a->write_hook = b->write_hook = pt_write_hook;
		a->write_hook_arg = b->write_hook_arg = &r;
	}
	pt_start(&r);
	ibfs__direct_exec_drain(dx);
	for (int i = 0; i < 2 && !r.failed; i++) {
		struct pt_side *s = &r.s[i];
		if (s->nstamp == s->want)
			continue;
		ibfs__diag(d, "perftest", 0,
			   "stalled after %llu of %llu iterations",
			   (unsigned long long)(s->nstamp ? s->nstamp - 1 : 0),
			   (unsigned long long)(s->want - 1));
		r.failed = 1;
	}
	if (!r.failed) {
		rc = 0;
		pt_results(&r, res);
	}
out:
	a->write_hook = b->write_hook = NULL;
	pt_close(&r);
	return rc;
}
