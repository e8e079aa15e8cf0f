/* SPDX-License-Identifier: MIT */
/*
 * Expanding a scenario's traffic into connections, messages and records.
 * Patterns draw from the run's seed, on a stream of their own per pattern
 * (so adding a pattern does not change the draws of the others):
 *   permutation  a random cyclic permutation (Sattolo): each HCA sends to
 *                exactly one other and receives from exactly one;
 *   uniform      each HCA sends `count` messages, each to an HCA drawn
 *                uniformly among the others;
 *   all-to-all   every ordered pair of distinct HCAs;
 *   incast       every other HCA sends to dst;
 *   shift        HCA i sends to HCA (i + shift) mod N, in topology order;
 *   bisection    a random half of the HCAs paired one to one with the
 *                other half, both directions;
 *   flows        Poisson flow arrivals with sizes from a CDF
 *                (traffic_flows.c).
 */
#include <stdlib.h>
#include <string.h>

#include "fabric/rng.h"
#include "scenario/traffic_int.h"

#define PUSH(vec, n, cap, val)                                          \
	do {                                                            \
		if ((n) == (cap)) {                                     \
			size_t c_ = (cap) ? 2 * (cap) : 16;             \
			void *v_ = realloc((vec), c_ * sizeof(*(vec))); \
			if (!v_)                                        \
				return -1;                              \
			(vec) = v_;                                     \
			(cap) = c_;                                     \
		}                                                       \
		(vec)[(n)++] = (val);                                   \
	} while (0)

static size_t conn_hash(int src, int dst, int qp, int sl, int lane,
			uint16_t pkey, size_t cap)
{
	uint64_t k = ((uint64_t)(uint32_t)src << 38) ^
		     ((uint64_t)(uint32_t)dst << 6) ^ (uint64_t)qp << 4 ^
		     (uint64_t)sl ^ (uint64_t)lane << 20 ^
		     (uint64_t)(pkey ^ 0xffff) << 30;
	k *= 0x9E3779B97F4A7C15ull;
	return (size_t)(k >> 20) & (cap - 1);
}

static int index_grow(struct ibfs_traffic *t)
{
	size_t cap = t->index_cap ? 2 * t->index_cap : 64;
	size_t *idx = calloc(cap, sizeof(*idx));
	if (!idx)
		return -1;
	for (size_t i = 0; i < t->nconns; i++) {
		const struct tr_conn *c = &t->conns[i];
		size_t h = conn_hash(c->src, c->dst, c->qp, c->sl, c->lane,
				     c->pkey, cap);
		while (idx[h])
			h = (h + 1) & (cap - 1);
		idx[h] = i + 1;
	}
	free(t->conn_index);
	t->conn_index = idx;
	t->index_cap = cap;
	return 0;
}

static int node_add_conn(struct tr_node *n, size_t conn)
{
	PUSH(n->conns, n->nconns, n->conns_cap, conn);
	return 0;
}

/*
 * The connection (src, dst, qp, sl, lane, pkey), created on first use; -1
 * on no memory. A connected QP's SL is fixed by its address vector (IBA
 * 11.2.4), its partition by its P_Key index (IBA 10.9.1).
 */
static long conn_get(struct ibfs_traffic *t, int src, int dst,
		     enum ibfs_sc_qp qp, uint8_t sl, uint16_t lane,
		     uint16_t pkey)
{
	if (2 * (t->nconns + 1) > t->index_cap && index_grow(t) < 0)
		return -1;
	size_t h = conn_hash(src, dst, qp, sl, lane, pkey, t->index_cap);
	for (; t->conn_index[h]; h = (h + 1) & (t->index_cap - 1)) {
		const struct tr_conn *c = &t->conns[t->conn_index[h] - 1];
		if (c->src == src && c->dst == dst && c->qp == qp &&
		    c->sl == sl && c->lane == lane && c->pkey == pkey)
			return (long)(t->conn_index[h] - 1);
	}
	struct tr_conn c = {.src = src, .dst = dst, .qp = qp, .sl = sl,
			    .lane = lane, .pkey = pkey};
	PUSH(t->conns, t->nconns, t->conns_cap, c);
	t->conn_index[h] = t->nconns;
	if (qp != IBFS_SC_UD &&
	    (node_add_conn(&t->nodes[src], t->nconns - 1) < 0 ||
	     node_add_conn(&t->nodes[dst], t->nconns - 1) < 0))
		return -1;
	return (long)(t->nconns - 1);
}

static int is_send(enum ibfs_sc_op op)
{
	return op == IBFS_SC_SEND || op == IBFS_SC_SEND_IMM;
}

static int is_recv_imm(enum ibfs_sc_op op)
{
	/* RDMA WRITE with immediate consumes a receive (IBA 9.4.3). */
	return is_send(op) || op == IBFS_SC_WRITE_IMM;
}

int ibfs__tr_add_lane(struct ibfs_traffic *t, int src, int dst,
		      const struct tr_spec *sp, uint16_t lane, uint32_t count,
		      ibfs_time_t start, ibfs_time_t interval)
{
	enum ibfs_sc_op op = sp->op;
	enum ibfs_sc_qp qp = sp->qp;
	uint64_t size = sp->size;
	long c = conn_get(t, src, dst, qp, sp->sl, lane, sp->pkey);
	if (c < 0)
		return -1;
	t->conns[c].sl_given |= sp->sl_given;
	struct tr_msg m = {(size_t)c, op, size, count, start, interval,
			   t->nrecs, 0, TR_NONE, TR_NONE, TR_NONE, 0,
			   0, 0, 0, 0};
	PUSH(t->msgs, t->nmsgs, t->msgs_cap, m);
	t->nrecs += count;
	struct tr_node *s = &t->nodes[src], *d = &t->nodes[dst];
	PUSH(s->msgs, s->nmsgs, s->msgs_cap, t->nmsgs - 1);
	s->expected += count;
	uint64_t need = size < 8 ? 8 : size;
	if (need > s->bufsize)
		s->bufsize = need;
	if (need > d->bufsize)
		d->bufsize = need;
	if (qp == IBFS_SC_UD) {
		s->uses_ud = d->uses_ud = 1;
		d->ud_recvs += count;
		d->expected += count;
	} else if (is_recv_imm(op)) {
		t->conns[c].recvs += count;
		d->expected += count;
	}
	return 0;
}

/*
 * `count` messages from src to dst, spread round robin over sp->qps
 * connections (UD: one QP whatever qps says); with a rate, message k is
 * posted at start + k x size x 8 / rate, rounded up to the picosecond.
 */
static int add_message(struct ibfs_traffic *t, int src, int dst,
		       const struct tr_spec *sp, uint32_t count)
{
	uint32_t lanes = sp->qp == IBFS_SC_UD ? 1 : sp->qps ? sp->qps : 1;
	if (lanes > count)
		lanes = count;
	ibfs_time_t gap = 0;
	if (sp->rate) {
		unsigned __int128 bits = (unsigned __int128)sp->size * 8;
		gap = (ibfs_time_t)((bits * IBFS_S + sp->rate - 1) / sp->rate);
	}
	for (uint32_t l = 0; l < lanes; l++) {
		uint32_t n = count / lanes + (l < count % lanes);
		if (ibfs__tr_add_lane(t, src, dst, sp, (uint16_t)l, n,
			     sp->start + l * gap, lanes * gap) < 0)
			return -1;
	}
	return 0;
}

/* HCAs in topology order. */
static int *hca_list(const struct ibfs_topology *topo, size_t *n)
{
	int *v = malloc((topo->nnodes ? topo->nnodes : 1) * sizeof(*v));
	*n = 0;
	if (!v)
		return NULL;
	for (size_t i = 0; i < topo->nnodes; i++)
		if (topo->nodes[i].type == IBFS_NODE_HCA)
			v[(*n)++] = (int)i;
	return v;
}

static void shuffle(int *v, size_t n, struct ibfs_rng *r)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)ibfs__rng_below(r, i);
		int x = v[i - 1];
		v[i - 1] = v[j];
		v[j] = x;
	}
}

static int expand_pattern(struct ibfs_traffic *t,
			  const struct ibfs_sc_pattern *p, const int *h,
			  size_t n, struct ibfs_rng *r)
{
	if (p->kind == IBFS_PAT_FLOWS)
		return ibfs__tr_expand_flows(t, p, (uint32_t)(p - t->sc->pats),
					     h, n, r);
	int *v = malloc(n * sizeof(*v));
	if (!v)
		return -1;
	memcpy(v, h, n * sizeof(*v));
	int rc = 0;
	struct tr_spec sp = {p->op, p->qp, p->sl, p->sl_given, p->size,
			     p->start, p->qps, p->rate, p->pkey};
#define MSG(s, d, cnt)                                                   \
	do {                                                             \
		if (!rc)                                                 \
			rc = add_message(t, (s), (d), &sp, (cnt));       \
	} while (0)
	switch (p->kind) {
	case IBFS_PAT_PERMUTATION:
		/* Sattolo: one cycle through all HCAs, so no fixed point. */
		for (size_t i = n - 1; i > 0; i--) {
			size_t j = (size_t)ibfs__rng_below(r, i);
			int x = v[i];
			v[i] = v[j];
			v[j] = x;
		}
		for (size_t i = 0; i < n; i++)
			MSG(h[i], v[i], p->count);
		break;
	case IBFS_PAT_UNIFORM:
		for (size_t i = 0; i < n; i++)
			for (uint32_t k = 0; k < p->count; k++) {
				size_t j = (size_t)ibfs__rng_below(r, n - 1);
				MSG(h[i], h[j >= i ? j + 1 : j], 1);
			}
		break;
	case IBFS_PAT_ALL_TO_ALL:
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < n; j++)
				if (i != j)
					MSG(h[i], h[j], p->count);
		break;
	case IBFS_PAT_INCAST:
		for (size_t i = 0; i < n; i++)
			if (h[i] != p->dst)
				MSG(h[i], p->dst, p->count);
		break;
	case IBFS_PAT_SHIFT:
		if (p->shift % n == 0)
			break;
		for (size_t i = 0; i < n; i++)
			MSG(h[i], h[(i + p->shift) % n], p->count);
		break;
	case IBFS_PAT_BISECTION:
		shuffle(v, n, r);
		for (size_t i = 0; i + n / 2 < n && i < n / 2; i++) {
			MSG(v[i], v[i + n / 2], p->count);
			MSG(v[i + n / 2], v[i], p->count);
		}
		break;
	default:
		break;
	}
#undef MSG
	free(v);
	return rc;
}

/* Post order: by planned time, then by record (the file's order). */
static const ibfs_time_t *g_planned;

static int cmp_post(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	if (g_planned[x] != g_planned[y])
		return g_planned[x] < g_planned[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Each node's records in the order its poster posts them (a collective's
 * are posted by the node's collective poster, in their own order). */
static int order_posts(struct ibfs_traffic *t)
{
	for (size_t i = 0; i < t->nmsgs; i++) {
		const struct tr_msg *m = &t->msgs[i];
		for (uint32_t k = 0; k < m->count; k++) {
			t->rec_msg[m->first + k] = i;
			t->planned[m->first + k] = m->start + k * m->interval;
		}
	}
	g_planned = t->planned;
	for (size_t n = 0; n < t->sc->topo->nnodes; n++) {
		struct tr_node *node = &t->nodes[n];
		size_t total = 0;
		for (size_t i = 0; i < node->nmsgs; i++)
			if (!t->msgs[node->msgs[i]].coll)
				total += t->msgs[node->msgs[i]].count;
		if (!total)
			continue;
		node->posts = malloc(total * sizeof(*node->posts));
		if (!node->posts)
			return -1;
		for (size_t i = 0; i < node->nmsgs; i++) {
			const struct tr_msg *m = &t->msgs[node->msgs[i]];
			for (uint32_t k = 0; !m->coll && k < m->count; k++)
				node->posts[node->nposts++] = m->first + k;
		}
		qsort(node->posts, node->nposts, sizeof(*node->posts),
		      cmp_post);
	}
	return 0;
}

struct ibfs_traffic *ibfs__traffic_plan(const struct ibfs_scenario *sc,
					uint64_t seed, struct ibfs_diag *d)
{
	struct ibfs_traffic *t = calloc(1, sizeof(*t));
	size_t nh = 0;
	int *h = hca_list(sc->topo, &nh);
	if (!t || !h ||
	    !(t->nodes = calloc(sc->topo->nnodes, sizeof(*t->nodes))))
		goto oom;
	t->sc = sc;
	for (size_t i = 0; i < sc->nmsgs; i++) {
		const struct ibfs_sc_message *m = &sc->msgs[i];
		struct tr_spec sp = {m->op, m->qp, m->sl, m->sl_given, m->size,
				     m->start, m->qps, m->rate, m->pkey};
		if (add_message(t, m->src, m->dst, &sp, m->count) < 0)
			goto oom;
	}
	for (size_t i = 0; i < sc->npats; i++) {
		struct ibfs_rng r;
		/* Stream 1000 + i: patterns do not share draws. */
		ibfs__rng_seed(&r, seed, 1000 + i);
		if (expand_pattern(t, &sc->pats[i], h, nh, &r) < 0)
			goto oom;
	}
	for (size_t i = 0; i < sc->ncolls; i++)
		if (ibfs__tr_expand_collective(t, &sc->colls[i]) < 0)
			goto oom;
	size_t nr = t->nrecs ? t->nrecs : 1;
	t->recs = calloc(nr, sizeof(*t->recs));
	t->rec_msg = calloc(nr, sizeof(*t->rec_msg));
	t->planned = calloc(nr, sizeof(*t->planned));
	t->sig = calloc(nr, sizeof(*t->sig));
	if (!t->recs || !t->rec_msg || !t->planned || !t->sig ||
	    order_posts(t) < 0 || ibfs__tr_mc_plan(t) < 0)
		goto oom;
	for (size_t i = 0; i < t->nmsgs; i++) {
		const struct tr_msg *m = &t->msgs[i];
		if (m->dep_arr != TR_NONE)
			t->sig[m->dep_arr] |= TR_SIG_ARRIVAL;
		if (m->dep_arr2 != TR_NONE)
			t->sig[m->dep_arr2] |= TR_SIG_ARRIVAL;
		if (m->dep_cmp != TR_NONE)
			t->sig[m->dep_cmp] |= TR_SIG_COMPLETION;
		for (uint32_t k = 0; k < m->red_n; k++) {
			const struct tr_red *w = &t->coll_red[m->red_first + k];
			t->sig[w->rec] |= w->cmp ? TR_SIG_COMPLETION :
						   TR_SIG_ARRIVAL;
		}
	}
	for (size_t i = 0; i < t->nmsgs; i++) {
		const struct tr_msg *m = &t->msgs[i];
		const struct tr_conn *c = &t->conns[m->conn];
		for (uint32_t k = 0; k < m->count; k++)
			t->recs[m->first + k] = (struct ibfs_msg_record){
				.src = c->src, .dst = c->dst, .op = m->op,
				.bytes = m->size, .status = -1};
	}
	free(h);
	return t;
oom:
	free(h);
	ibfs__traffic_free(t);
	ibfs__diag(d, sc->file, 0, "out of memory expanding the traffic");
	return NULL;
}

size_t ibfs__traffic_messages(const struct ibfs_traffic *t)
{
	return t->nrecs;
}

/* Collective i's outcome from its records. */
static void coll_result(const struct ibfs_traffic *t, size_t i,
			struct ibfs_coll_result *o)
{
	const struct ibfs_sc_collective *c = &t->sc->colls[i];
	*o = (struct ibfs_coll_result){.kind = c->kind, .algo = c->algo,
				       .members = (uint32_t)c->nmembers,
				       .size = c->size, .count = c->count,
				       .start = IBFS_TIME_NEVER};
	for (size_t k = t->colls[i].first; k < t->colls[i].end; k++) {
		const struct ibfs_msg_record *m = &t->recs[k];
		o->msgs++;
		o->failed += m->status > 0;
		o->unfinished += m->status < 0 || (!m->status && !m->arrived);
		if (m->post < o->start)
			o->start = m->post;
		ibfs_time_t last = m->done > m->arrived ? m->done : m->arrived;
		if (last > o->end)
			o->end = last;
	}
}

int ibfs__traffic_collect(const struct ibfs_traffic *t,
			  struct ibfs_results *r)
{
	for (size_t i = 0; i < t->nrecs; i++)
		if (ibfs__results_add(r, &t->recs[i]) < 0)
			return -1;
	for (size_t i = 0; i < t->ncolls; i++) {
		struct ibfs_coll_result c;
		coll_result(t, i, &c);
		if (ibfs__results_add_coll(r, &c) < 0)
			return -1;
	}
	if (ibfs__tr_flows_collect(t, r) < 0)
		return -1;
	return t->sc->nmcasts ? ibfs__tr_mc_collect(t, r) : 0;
}

void ibfs__traffic_free(struct ibfs_traffic *t)
{
	if (!t)
		return;
	if (t->nodes && t->sc)
		for (size_t i = 0; i < t->sc->topo->nnodes; i++) {
			free(t->nodes[i].msgs);
			free(t->nodes[i].conns);
			free(t->nodes[i].posts);
			for (int k = 0; k < TR_STREAMS; k++)
				free(t->nodes[i].cs[k].posts);
			free(t->nodes[i].buf);
		}
	ibfs__tr_mc_free(t);
	free(t->nodes);
	free(t->conns);
	free(t->msgs);
	free(t->recs);
	free(t->rec_msg);
	free(t->planned);
	free(t->sig);
	free(t->coll_sent);
	free(t->coll_join_n);
	free(t->coll_red);
	free(t->colls);
	free(t->conn_index);
	free(t->flows);
	free(t);
}
