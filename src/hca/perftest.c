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

/* perftest's defaults: rx depth 512, tx depth 128 (bandwidth tests). */
enum { PT_RX_DEPTH = 512, PT_TX_DEPTH = 128 };

struct pt_side {
	struct ibfs_hca *h;
	struct ibfs_hca_end e;
	struct ibfs_ah *ah;      /* UD: the way to the peer */
	uint64_t posted, completed, rcvd;
	int own_done;
};

struct pt_run {
	const struct ibfs_pt_cfg *c;
	struct ibfs_direct_exec *dx;
	struct pt_side s[2];
	ibfs_time_t *stamp;    /* client: one per iteration (+1) */
	uint64_t nstamp;
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

static int pt_side_open(struct pt_run *r, struct pt_side *s,
			struct ibfs_hca *h, size_t bytes)
{
	const struct ibfs_pt_cfg *c = r->c;
	struct ibfs_qp_cap cap = {
		.max_send_wr = c->tx_depth + 1, .max_recv_wr = PT_RX_DEPTH,
		.max_send_sge = 1, .max_recv_sge = 1,
		.max_inline_data = h->prof->max_inline < c->inline_max ?
					   h->prof->max_inline : c->inline_max,
	};
	uint32_t depth = c->tx_depth > PT_RX_DEPTH ? c->tx_depth : PT_RX_DEPTH;
	s->h = h;
	int rc = ibfs__hca_end_open(&s->e, h, c->qpt, bytes, &cap,
				    (int)depth + 16);
	s->e.port = c->port ? c->port : 1;
	return rc;
}

static enum ibfs_mtu pt_mtu(struct ibfs_hca *h)
{
	uint32_t m = h->dev.fab->mtu ? h->dev.fab->mtu : 4096;
	enum ibfs_mtu e = IBFS_MTU_256;
	while (e < IBFS_MTU_4096 && (uint32_t)ibfs_mtu_to_bytes(e + 1) <= m)
		e++;
	return e;
}

/* UD Q_Key shared by both sides (perftest uses 0x11111111 too). */
#define PT_QKEY 0x11111111u
/* A UD receive buffer starts with room for a GRH (verbs). */
#define PT_GRH 40

static int pt_connect(struct pt_side *s, struct pt_side *peer)
{
	uint16_t dlid = peer->h->hp[peer->e.port].lid;
	if (s->e.qp->qp_type == IBFS_QPT_UD) {
		struct ibfs_ah_attr aa = {.dlid = dlid, .port_num = s->e.port};
		s->ah = ibfs_create_ah(s->e.pd, &aa);
		return !s->ah || ibfs__hca_end_connect_ud(&s->e, PT_QKEY) ? -1
									 : 0;
	}
	/* perftest's defaults: timeout 14, 7 retries, RNR timer 12
	 * (0.64 ms); as many READs in flight as the HCA allows. */
	struct ibfs_hca_conn c = {
		.mtu = pt_mtu(s->h), .timeout = 14, .retry_cnt = 7,
		.rnr_retry = 7, .min_rnr_timer = 12,
		.rd_atomic = s->h->prof->max_rd_atomic,
	};
	return ibfs__hca_end_connect(&s->e, dlid, peer->e.qp->qp_num, &c) ? -1
									  : 0;
}

static ibfs_time_t pt_now(struct pt_run *r)
{
	return r->dx->eq->now;
}

static void pt_stamp(struct pt_run *r)
{
	if (r->nstamp <= r->c->iters)
		r->stamp[r->nstamp++] = pt_now(r);
}

static void pt_post_recv(struct pt_run *r, struct pt_side *s)
{
	uint32_t grh = r->c->qpt == IBFS_QPT_UD ? PT_GRH : 0;
	struct ibfs_sge sg = {.addr = (uint64_t)(uintptr_t)s->e.buf,
			      .length = r->c->size + grh,
			      .lkey = s->e.mr->lkey};
	struct ibfs_recv_wr wr = {.sg_list = &sg, .num_sge = 1};
	struct ibfs_recv_wr *bad;
	if (ibfs_post_recv(s->e.qp, &wr, &bad))
		pt_fail(r, "post_recv", IBFS_WC_GENERAL_ERR);
}

static void pt_post(struct pt_run *r, struct pt_side *s)
{
	const struct ibfs_pt_cfg *c = r->c;
	struct pt_side *peer = s == &r->s[0] ? &r->s[1] : &r->s[0];
	struct ibfs_sge sg = {.addr = (uint64_t)(uintptr_t)s->e.buf,
			      .length = c->size, .lkey = s->e.mr->lkey};
	struct ibfs_send_wr wr = {.wr_id = s->posted, .sg_list = &sg,
				  .num_sge = 1,
				  .send_flags = IBFS_SEND_SIGNALED};
	if (!ibfs__pt_is_bw(c->test) && c->size <= c->inline_max &&
	    c->size <= s->h->prof->max_inline &&
	    (c->test == IBFS_PT_SEND_LAT || c->test == IBFS_PT_WRITE_LAT))
		wr.send_flags |= IBFS_SEND_INLINE;
	switch (c->test) {
	case IBFS_PT_SEND_LAT:
	case IBFS_PT_SEND_BW:
		wr.opcode = IBFS_WR_SEND;
		break;
	case IBFS_PT_WRITE_LAT:
	case IBFS_PT_WRITE_BW:
		wr.opcode = IBFS_WR_RDMA_WRITE;
		break;
	case IBFS_PT_READ_LAT:
	case IBFS_PT_READ_BW:
		wr.opcode = IBFS_WR_RDMA_READ;
		break;
	default:
		wr.opcode = IBFS_WR_ATOMIC_FETCH_AND_ADD;
		wr.wr.atomic.compare_add = 1;
		break;
	}
	if (c->qpt == IBFS_QPT_UD) {
		wr.wr.ud.ah = s->ah;
		wr.wr.ud.remote_qpn = peer->e.qp->qp_num;
		wr.wr.ud.remote_qkey = PT_QKEY;
	} else if (wr.opcode == IBFS_WR_ATOMIC_FETCH_AND_ADD) {
		wr.wr.atomic.remote_addr = (uint64_t)(uintptr_t)peer->e.buf;
		wr.wr.atomic.rkey = peer->e.mr->rkey;
	} else {
		wr.wr.rdma.remote_addr = (uint64_t)(uintptr_t)peer->e.buf;
		wr.wr.rdma.rkey = peer->e.mr->rkey;
	}
	if (c->test == IBFS_PT_WRITE_LAT && c->size)
		s->e.buf[c->size - 1] = (uint8_t)(s->posted + 1);
	struct ibfs_send_wr *bad;
	if (ibfs_post_send(s->e.qp, &wr, &bad)) {
		pt_fail(r, "post_send", IBFS_WC_GENERAL_ERR);
		return;
	}
	s->posted++;
	s->own_done = 0;
}

/* write_lat: post when the own previous write completed and the peer's
 * write has arrived (the server answers; the client starts). */
static void pt_wlat_try(struct pt_run *r, int i)
{
	struct pt_side *s = &r->s[i];
	if (r->failed || !s->own_done || s->posted >= r->c->iters)
		return;
	uint64_t need = i == 0 ? s->posted : s->posted + 1;
	if (s->rcvd < need)
		return;
	pt_post(r, s);
}

static void pt_on_send_cq(struct pt_run *r, int i)
{
	struct pt_side *s = &r->s[i];
	const struct ibfs_pt_cfg *c = r->c;
	struct ibfs_wc wc[16];
	int n;
	while ((n = ibfs_poll_cq(s->e.scq, 16, wc)) > 0) {
		for (int k = 0; k < n; k++) {
			if (wc[k].status != IBFS_WC_SUCCESS) {
				pt_fail(r, "send completion", wc[k].status);
				return;
			}
			s->completed++;
			s->own_done = 1;
			switch (c->test) {
			case IBFS_PT_READ_LAT:
			case IBFS_PT_ATOMIC_LAT:
				pt_stamp(r);
				if (s->posted < c->iters)
					pt_post(r, s);
				break;
			case IBFS_PT_WRITE_LAT:
				pt_wlat_try(r, i);
				break;
			case IBFS_PT_SEND_BW:
			case IBFS_PT_WRITE_BW:
			case IBFS_PT_READ_BW:
				pt_stamp(r);
				if (s->posted < c->iters)
					pt_post(r, s);
				break;
			default:
				break;
			}
		}
	}
}

static void pt_on_recv_cq(struct pt_run *r, int i)
{
	struct pt_side *s = &r->s[i];
	const struct ibfs_pt_cfg *c = r->c;
	struct ibfs_wc wc[16];
	int n;
	while ((n = ibfs_poll_cq(s->e.rcq, 16, wc)) > 0) {
		for (int k = 0; k < n; k++) {
			if (wc[k].status != IBFS_WC_SUCCESS) {
				pt_fail(r, "receive completion", wc[k].status);
				return;
			}
			s->rcvd++;
			pt_post_recv(r, s);
			if (c->test != IBFS_PT_SEND_LAT)
				continue;
			if (i == 0)
				pt_stamp(r);
			if (s->posted < c->iters)
				pt_post(r, s);
		}
	}
}

struct pt_cb {
	struct pt_run *r;
	int side;
	int recv;
};

static void pt_cq_notify(void *arg, struct ibfs_hca_cq *cq)
{
	(void)cq;
	struct pt_cb *cb = arg;
	if (cb->r->failed)
		return;
	if (cb->recv)
		pt_on_recv_cq(cb->r, cb->side);
	else
		pt_on_send_cq(cb->r, cb->side);
}

/* write_lat: the last byte of a side's buffer became visible. */
static void pt_data_ev(void *obj, uint64_t side)
{
	struct pt_run *r = obj;
	r->s[side].rcvd++;
	if (side == 0)
		pt_stamp(r); /* the client's round trip ends */
	pt_wlat_try(r, (int)side);
}

static void pt_write_hook(void *arg, struct ibfs_hca_qp *qp, uint64_t va,
			  uint32_t len, ibfs_time_t vis)
{
	struct pt_run *r = arg;
	for (int i = 0; i < 2; i++) {
		struct pt_side *s = &r->s[i];
		if (&qp->pub != s->e.qp)
			continue;
		if (va + len != (uint64_t)(uintptr_t)s->e.buf + r->c->size)
			return; /* not the last byte */
		ibfs__eq_schedule(r->dx->eq, vis, pt_data_ev, r, (uint64_t)i);
	}
}

static int pt_cmp(const void *a, const void *b)
{
	ibfs_time_t x = *(const ibfs_time_t *)a, y = *(const ibfs_time_t *)b;
	return x < y ? -1 : x > y;
}

static void pt_results(struct pt_run *r, struct ibfs_pt_result *res)
{
	const struct ibfs_pt_cfg *c = r->c;
	res->size = c->size;
	res->iters = c->iters;
	uint64_t n = r->nstamp ? r->nstamp - 1 : 0;
	if (ibfs__pt_is_bw(c->test)) {
		/* stamp[0] is the first post; stamp[k] the k-th completion. */
		ibfs_time_t el = r->stamp[n] - r->stamp[0];
		res->elapsed_ps = el;
		double bytes = (double)c->size * (double)n;
		res->bw_avg_gbps = el ? bytes * 8 / ((double)el * 1e-12) / 1e9
				      : 0;
		res->msg_rate_mpps = el ? (double)n / ((double)el * 1e-6) : 0;
		uint64_t w = c->tx_depth < n ? c->tx_depth : n;
		double peak = 0;
		for (uint64_t k = w; w && k <= n; k++) {
			ibfs_time_t dt = r->stamp[k] - r->stamp[k - w];
			double g = dt ? (double)c->size * (double)w * 8 /
						((double)dt * 1e-12) / 1e9
				      : 0;
			if (g > peak)
				peak = g;
		}
		res->bw_peak_gbps = peak;
		return;
	}
	int half = c->test == IBFS_PT_SEND_LAT || c->test == IBFS_PT_WRITE_LAT;
	ibfs_time_t *lat = malloc((n ? n : 1) * sizeof(*lat));
	if (!lat)
		return;
	double sum = 0, sq = 0;
	for (uint64_t k = 0; k < n; k++) {
		lat[k] = r->stamp[k + 1] - r->stamp[k];
		if (half)
			lat[k] /= 2;
		sum += (double)lat[k];
	}
	res->elapsed_ps = n ? r->stamp[n] - r->stamp[0] : 0;
	if (!n) {
		free(lat);
		return;
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
	res->p99 = (double)lat[(uint64_t)((double)n * 0.99) < n ?
				       (uint64_t)((double)n * 0.99) : n - 1] /
		   1e6;
	res->p999 = (double)lat[(uint64_t)((double)n * 0.999) < n ?
					(uint64_t)((double)n * 0.999) :
					n - 1] /
		    1e6;
	free(lat);
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

int ibfs__perftest_run(struct ibfs_hca *a, struct ibfs_hca *b,
		       struct ibfs_direct_exec *dx,
		       const struct ibfs_pt_cfg *cin,
		       struct ibfs_pt_result *res, struct ibfs_diag *d)
{
	struct ibfs_pt_cfg c = *cin;
	if (c.test == IBFS_PT_ATOMIC_LAT)
		c.size = 8;
	if (!c.tx_depth || !ibfs__pt_is_bw(c.test))
		c.tx_depth = ibfs__pt_is_bw(c.test) ? PT_TX_DEPTH : 1;
	if (c.iters < 1 || c.iters > 100000000)
		return ibfs__diag(d, "perftest", 0,
				  "iterations must be 1 to 100000000");
	if (c.test == IBFS_PT_WRITE_LAT && c.size == 0)
		return ibfs__diag(d, "perftest", 0,
				  "write_lat needs at least one byte");
	if (!c.qpt)
		c.qpt = IBFS_QPT_RC;
	int sendish = c.test == IBFS_PT_SEND_LAT || c.test == IBFS_PT_SEND_BW;
	int writeish = c.test == IBFS_PT_WRITE_LAT ||
		       c.test == IBFS_PT_WRITE_BW;
	/* As perftest: UD sends only, UC sends and writes (IBA Table 38). */
	if ((c.qpt == IBFS_QPT_UD && !sendish) ||
	    (c.qpt == IBFS_QPT_UC && !sendish && !writeish))
		return ibfs__diag(d, "perftest", 0,
				  "%s does not run over %s",
				  ibfs__pt_test_name(c.test),
				  c.qpt == IBFS_QPT_UD ? "UD" : "UC");
	uint32_t port_mtu = a->dev.fab->mtu ? a->dev.fab->mtu : 4096;
	if (c.qpt == IBFS_QPT_UD && c.size > port_mtu)
		return ibfs__diag(d, "perftest", 0,
				  "UD messages are at most one MTU (%u bytes)",
				  port_mtu);
	if (ibfs__perftest_port_ok(a, b, c.port, d) < 0)
		return -1;
	memset(res, 0, sizeof(*res));
	struct pt_run r = {.c = &c, .dx = dx, .d = d};
	struct pt_cb cbs[4] = {
		{&r, 0, 0}, {&r, 0, 1}, {&r, 1, 0}, {&r, 1, 1},
	};
	size_t bytes = (c.size > 8 ? c.size : 8) + PT_GRH;
	int rc = -1;
	r.stamp = calloc(c.iters + 1, sizeof(*r.stamp));
	if (!r.stamp || pt_side_open(&r, &r.s[0], a, bytes) ||
	    pt_side_open(&r, &r.s[1], b, bytes) ||
	    pt_connect(&r.s[0], &r.s[1]) || pt_connect(&r.s[1], &r.s[0])) {
		ibfs__diag(d, "perftest", 0, "cannot set up the queue pairs");
		goto out;
	}
	for (int i = 0; i < 2; i++) {
		struct ibfs_hca_end *e = &r.s[i].e;
		ibfs__cq_set_notify(e->scq, pt_cq_notify, &cbs[2 * i]);
		ibfs__cq_set_notify(e->rcq, pt_cq_notify, &cbs[2 * i + 1]);
		r.s[i].own_done = 1;
	}
	if (c.test == IBFS_PT_WRITE_LAT) {
		a->write_hook = b->write_hook = pt_write_hook;
		a->write_hook_arg = b->write_hook_arg = &r;
	}
	if (c.test == IBFS_PT_SEND_LAT || c.test == IBFS_PT_SEND_BW) {
		int depth = c.test == IBFS_PT_SEND_LAT ? 16 : PT_RX_DEPTH;
		for (int k = 0; k < depth; k++) {
			pt_post_recv(&r, &r.s[1]);
			if (c.test == IBFS_PT_SEND_LAT)
				pt_post_recv(&r, &r.s[0]);
		}
	}
	pt_stamp(&r);
	if (ibfs__pt_is_bw(c.test)) {
		for (uint32_t k = 0; k < c.tx_depth && k < c.iters; k++)
			pt_post(&r, &r.s[0]);
	} else {
		pt_post(&r, &r.s[0]);
	}
	ibfs__direct_exec_drain(dx);
	if (!r.failed && r.nstamp != c.iters + 1)
		ibfs__diag(d, "perftest", 0,
			   "stalled after %llu of %llu iterations",
			   (unsigned long long)(r.nstamp ? r.nstamp - 1 : 0),
			   (unsigned long long)c.iters);
	else if (!r.failed)
		rc = 0;
	if (rc == 0)
		pt_results(&r, res);
out:
	a->write_hook = b->write_hook = NULL;
	for (int i = 0; i < 2; i++) {
		if (r.s[i].ah)
			ibfs_destroy_ah(r.s[i].ah);
		ibfs__hca_end_close(&r.s[i].e);
	}
	free(r.stamp);
	return rc;
}
