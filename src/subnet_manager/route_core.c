/* SPDX-License-Identifier: MIT */
/*
 * The machinery shared by the shortest-path engines (minhop, dor, updn,
 * dnup): switch-to-switch distances, the choice among equal-cost ports
 * balanced by route counts as OpenSM's minhop does
 * (osm_switch_recommend_path: fewest LIDs on the port, then for LMC the
 * remote node not used yet), and up/down distances.
 *
 * Cost: one distance computation per destination switch, O(ports); one
 * candidate scan per (switch, LID). For the 3-level fat tree of 36-port
 * switches (1,620 switches, 13,284 LIDs) that is about 2e8 simple steps.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "subnet_manager/routing.h"

static int core_peer_sw(const struct ibfs_subnet *sn, int s, int p)
{
	const struct ibfs_sn_port *pp = &sn->nodes[sn->sw_node[s]].ports[p];
	if (pp->peer < 0 || sn->nodes[pp->peer].type != IBFS_NODE_SWITCH)
		return -1;
	return sn->nodes[pp->peer].sw;
}

void ibfs__route_multi_bfs(const struct ibfs_subnet *sn, const char *src,
			   int *dist)
{
	int *q = malloc(sizeof(int) * (size_t)(sn->nsw ? sn->nsw : 1));
	int h = 0, tl = 0;
	for (int s = 0; s < sn->nsw; s++) {
		dist[s] = src[s] ? 0 : IBFS_DIST_INF;
		if (src[s] && q)
			q[tl++] = s;
	}
	while (q && h < tl) {
		int s = q[h++];
		const struct ibfs_sn_node *n = &sn->nodes[sn->sw_node[s]];
		for (int p = 1; p <= n->nports; p++) {
			int v = core_peer_sw(sn, s, p);
			if (v >= 0 && dist[v] == IBFS_DIST_INF) {
				dist[v] = dist[s] + 1;
				q[tl++] = v;
			}
		}
	}
	free(q);
}

void ibfs__route_bfs(void *ctx, const struct ibfs_subnet *sn, int t,
		     int *dist)
{
	char *src = calloc((size_t)sn->nsw, 1);
	if (!src) {
		for (int s = 0; s < sn->nsw; s++)
			dist[s] = IBFS_DIST_INF;
		return;
	}
	src[t] = 1;
	ibfs__route_multi_bfs(sn, src, dist);
	free(src);
}

struct core {
	struct ibfs_subnet *sn;
	const struct ibfs_route_policy *pol;
	int stride;          /* max ports + 1 */
	uint32_t *count;     /* CA LIDs per (switch, port) */
	int *dist;
	int *cstart, *cport; /* candidates per switch */
	int used[1 << IBFS_MAX_LMC];
};

/* Picks switch s's port for one LID among its candidates. */
static int core_pick(struct core *c, int s, int nused)
{
	const struct ibfs_subnet *sn = c->sn;
	const struct ibfs_sn_node *n = &sn->nodes[sn->sw_node[s]];
	const uint32_t *cnt = &c->count[(size_t)s * (size_t)c->stride];
	int a = c->cstart[s], b = c->cstart[s + 1];
	if (a == b)
		return IBFS_LFT_NO_PATH;
	int best = -1;
	if (c->pol->lowest_port) {
		/* OpenSM dor: the lowest port, balancing only over parallel
		 * links to the same neighbour. */
		int peer = n->ports[c->cport[a]].peer;
		for (int i = a; i < b; i++) {
			int p = c->cport[i];
			if (n->ports[p].peer == peer &&
			    (best < 0 || cnt[p] < cnt[best]))
				best = p;
		}
		return best;
	}
	int best_used = 2;
	for (int i = a; i < b; i++) {
		int p = c->cport[i];
		int u = 0;
		for (int k = 0; k < nused; k++)
			if (c->used[k] == n->ports[p].peer)
				u = 1;
		if (best < 0 || u < best_used ||
		    (u == best_used && cnt[p] < cnt[best])) {
			best = p;
			best_used = u;
		}
	}
	return best;
}

static void core_candidates(struct core *c, int t)
{
	struct ibfs_subnet *sn = c->sn;
	int k = 0;
	for (int s = 0; s < sn->nsw; s++) {
		c->cstart[s] = k;
		if (s == t || c->dist[s] >= IBFS_DIST_INF)
			continue;
		const struct ibfs_sn_node *n = &sn->nodes[sn->sw_node[s]];
		for (int p = 1; p <= n->nports; p++) {
			int v = core_peer_sw(sn, s, p);
			if (v < 0 || c->dist[v] + 1 != c->dist[s])
				continue;
			if (c->pol->allowed &&
			    !c->pol->allowed(c->pol->ctx, sn, t, s, p, v,
					     c->dist))
				continue;
			c->cport[k++] = p;
		}
	}
	c->cstart[sn->nsw] = k;
}

/* Routes the `n` LIDs from `base` on switch t (exit port `tport` at t). */
static void core_route_group(struct core *c, int t, unsigned base, int n,
			     int tport, int is_ca)
{
	struct ibfs_subnet *sn = c->sn;
	for (int s = 0; s < sn->nsw; s++) {
		int nused = 0;
		for (int k = 0; k < n; k++) {
			int p = s == t ? tport : core_pick(c, s, nused);
			*ibfs__subnet_lft(sn, s, base + (unsigned)k) =
				(uint8_t)p;
			if (p == IBFS_LFT_NO_PATH)
				continue;
			if (is_ca)
				c->count[(size_t)s * (size_t)c->stride + p]++;
			if (s != t && n > 1)
				c->used[nused++] = sn->nodes[sn->sw_node[s]]
							   .ports[p]
							   .peer;
		}
	}
}

int ibfs__route_build_tables(struct ibfs_subnet *sn,
			     const struct ibfs_route_policy *pol)
{
	struct core c = {.sn = sn, .pol = pol};
	int maxp = 0;
	size_t ports = 0;
	for (int s = 0; s < sn->nsw; s++) {
		int np = sn->nodes[sn->sw_node[s]].nports;
		maxp = np > maxp ? np : maxp;
		ports += (size_t)np;
	}
	c.stride = maxp + 1;
	size_t nsw = (size_t)(sn->nsw ? sn->nsw : 1);
	c.count = calloc(nsw * (size_t)c.stride, sizeof(*c.count));
	c.dist = malloc(nsw * sizeof(int));
	c.cstart = malloc((nsw + 1) * sizeof(int));
	c.cport = malloc((ports + 1) * sizeof(int));
	int rc = -1;
	if (!c.count || !c.dist || !c.cstart || !c.cport)
		goto out;
	unsigned step = 1u << sn->lmc;
	const struct ibfs_route_policy plain = {
		.dist = ibfs__route_bfs,
		.lowest_port = pol->lowest_port,
	};
	for (int t = 0; t < sn->nsw; t++) {
		const struct ibfs_sn_node *tn = &sn->nodes[sn->sw_node[t]];
		/* Switch LIDs get VL15 management traffic only, which has no
		 * flow control (credit_loop.h): shortest paths, unrestricted
		 * by the engine's rule. */
		if (pol->allowed) {
			c.pol = &plain;
			plain.dist(NULL, sn, t, c.dist);
			core_candidates(&c, t);
			core_route_group(&c, t, tn->ports[0].lid, 1, 0, 0);
			c.pol = pol;
		}
		pol->dist(pol->ctx, sn, t, c.dist);
		core_candidates(&c, t);
		if (!pol->allowed)
			core_route_group(&c, t, tn->ports[0].lid, 1, 0, 0);
		for (int p = 1; p <= tn->nports; p++) {
			const struct ibfs_sn_port *pp = &tn->ports[p];
			if (pp->peer < 0 ||
			    sn->nodes[pp->peer].type == IBFS_NODE_SWITCH)
				continue;
			unsigned base =
				sn->nodes[pp->peer].ports[pp->peer_port].lid;
			if (base)
				core_route_group(&c, t, base, (int)step, p, 1);
		}
	}
	rc = 0;
out:
	free(c.count);
	free(c.dist);
	free(c.cstart);
	free(c.cport);
	return rc;
}

/*
 * Up/down. pos[s] is switch s's place in the order (rank, GUID): a move
 * s -> v is "up" when pos[v] < pos[s]. For destination t, dd[s] is the
 * length of the all-down path from s to t (BFS from t through up moves
 * taken backwards). A switch that has an all-down path uses it; any other
 * goes up to the neighbour nearest to t. So every path is up* down*, and
 * a switch that is entered going down never turns up: the tables are
 * consistent hop by hop.
 */
struct ibfs_updn_ctx {
	int *pos;
	int *order; /* switches by pos */
	int *dd;
	int *q;
};

static const int *updn_rank;
static const struct ibfs_subnet *updn_sn;

static int updn_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	if (updn_rank[x] != updn_rank[y])
		return updn_rank[x] < updn_rank[y] ? -1 : 1;
	uint64_t gx = updn_sn->nodes[updn_sn->sw_node[x]].guid;
	uint64_t gy = updn_sn->nodes[updn_sn->sw_node[y]].guid;
	if (gx != gy)
		return gx < gy ? -1 : 1;
	return x < y ? -1 : x > y;
}

struct ibfs_updn_ctx *ibfs__updn_ctx_new(const struct ibfs_subnet *sn,
					 const int *rank)
{
	struct ibfs_updn_ctx *u = calloc(1, sizeof(*u));
	size_t n = (size_t)(sn->nsw ? sn->nsw : 1);
	if (!u)
		return NULL;
	u->pos = malloc(n * sizeof(int));
	u->order = malloc(n * sizeof(int));
	u->dd = malloc(n * sizeof(int));
	u->q = malloc(n * sizeof(int));
	if (!u->pos || !u->order || !u->dd || !u->q) {
		ibfs__updn_ctx_free(u);
		return NULL;
	}
	for (int s = 0; s < sn->nsw; s++)
		u->order[s] = s;
	updn_rank = rank;
	updn_sn = sn;
	qsort(u->order, (size_t)sn->nsw, sizeof(int), updn_cmp);
	for (int i = 0; i < sn->nsw; i++)
		u->pos[u->order[i]] = i;
	return u;
}

void ibfs__updn_ctx_free(struct ibfs_updn_ctx *u)
{
	if (!u)
		return;
	free(u->pos);
	free(u->order);
	free(u->dd);
	free(u->q);
	free(u);
}

static void updn_dist(void *ctx, const struct ibfs_subnet *sn, int t,
		      int *dist)
{
	struct ibfs_updn_ctx *u = ctx;
	for (int s = 0; s < sn->nsw; s++)
		u->dd[s] = IBFS_DIST_INF;
	int h = 0, tl = 0;
	u->dd[t] = 0;
	u->q[tl++] = t;
	while (h < tl) {
		int x = u->q[h++];
		const struct ibfs_sn_node *n = &sn->nodes[sn->sw_node[x]];
		for (int p = 1; p <= n->nports; p++) {
			int v = core_peer_sw(sn, x, p);
			/* v -> x must be a down move: v above x. */
			if (v < 0 || u->pos[v] > u->pos[x] ||
			    u->dd[v] != IBFS_DIST_INF)
				continue;
			u->dd[v] = u->dd[x] + 1;
			u->q[tl++] = v;
		}
	}
	for (int i = 0; i < sn->nsw; i++) {
		int s = u->order[i];
		dist[s] = u->dd[s];
		if (dist[s] != IBFS_DIST_INF)
			continue;
		const struct ibfs_sn_node *n = &sn->nodes[sn->sw_node[s]];
		for (int p = 1; p <= n->nports; p++) {
			int w = core_peer_sw(sn, s, p);
			if (w >= 0 && u->pos[w] < u->pos[s] &&
			    dist[w] + 1 < dist[s])
				dist[s] = dist[w] + 1;
		}
	}
}

static int updn_allowed(void *ctx, const struct ibfs_subnet *sn, int t,
			int s, int p, int v, const int *dist)
{
	struct ibfs_updn_ctx *u = ctx;
	if (u->dd[s] != IBFS_DIST_INF)
		return u->pos[v] > u->pos[s] && u->dd[v] != IBFS_DIST_INF;
	return u->pos[v] < u->pos[s];
}

void ibfs__updn_policy(struct ibfs_updn_ctx *u, struct ibfs_route_policy *p)
{
	memset(p, 0, sizeof(*p));
	p->ctx = u;
	p->dist = updn_dist;
	p->allowed = updn_allowed;
}

int ibfs__route_parse_roots(struct ibfs_subnet *sn, const char *list,
			    char *is_root, const char *code)
{
	const char *c = list;
	int n = 0;
	while (*c) {
		char *end;
		unsigned long long g = strtoull(c, &end, 0);
		int found = -1;
		for (int s = 0; end != c && s < sn->nsw; s++)
			if (sn->nodes[sn->sw_node[s]].guid == g)
				found = s;
		if (found < 0 || (*end && *end != ',')) {
			ibfs__subnet_log(sn,
					 "ERR %s: root GUID '%.*s' is not a switch of this subnet",
					 code, (int)strcspn(c, ","), c);
			return -1;
		}
		is_root[found] = 1;
		n++;
		c = *end ? end + 1 : end;
	}
	if (!n) {
		ibfs__subnet_log(sn, "ERR %s: the root GUID list is empty",
				 code);
		return -1;
	}
	return 0;
}

int ibfs__route_check_complete(struct ibfs_subnet *sn, const char *code,
			       const char *engine)
{
	int *dist = malloc(sizeof(int) * (size_t)(sn->nsw ? sn->nsw : 1));
	if (!dist)
		return -1;
	for (int t = 0; t < sn->nsw; t++) {
		const struct ibfs_sn_node *tn = &sn->nodes[sn->sw_node[t]];
		unsigned lid = 0;
		for (int p = 1; p <= tn->nports && !lid; p++) {
			const struct ibfs_sn_port *pp = &tn->ports[p];
			if (pp->peer >= 0 &&
			    sn->nodes[pp->peer].type != IBFS_NODE_SWITCH)
				lid = sn->nodes[pp->peer]
					      .ports[pp->peer_port]
					      .lid;
		}
		if (!lid)
			continue;
		ibfs__route_bfs(NULL, sn, t, dist);
		for (int s = 0; s < sn->nsw; s++) {
			if (dist[s] >= IBFS_DIST_INF ||
			    *ibfs__subnet_lft(sn, s, lid) != IBFS_LFT_NO_PATH)
				continue;
			const struct ibfs_sn_node *n =
				&sn->nodes[sn->sw_node[s]];
			ibfs__subnet_log(sn,
					 "ERR %s: %s: switch '%s' GUID 0x%016" PRIx64 " port 0 has no legal path to LID %u on switch '%s' although they are connected",
					 code, engine, n->name, n->guid, lid,
					 tn->name);
			free(dist);
			return -1;
		}
	}
	free(dist);
	return 0;
}
