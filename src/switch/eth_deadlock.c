/* SPDX-License-Identifier: MIT */
/*
 * PFC deadlock detection. A lossless priority is never dropped for want
 * of buffer: an ingress (port, priority) past its XOFF threshold pauses
 * the peer's egress on that priority (IEEE 802.1Qbb), and frames wait.
 * When the pauses form a cycle (a cyclic buffer dependency: on a ring
 * routed by shortest paths, or after a failure reroutes traffic) each
 * paused egress holds the frames that keep the next ingress above its
 * threshold, the XOFFs are refreshed for ever and nothing moves again
 * (Hu et al., "Deadlocks in datacenter networks: why do they form, and
 * how to avoid them", HotNets 2016).
 *
 * As InfiniBand's credit-loop monitor (deadlock.c), this one looks every
 * `timeout` of simulated time: if frames sit in the switches' buffers and
 * no data frame has started on any link since the last look, the run is
 * stuck (the PFC refreshes that go on do not count: they are no progress,
 * and their events keep the queue busy for ever, so the monitor, not an
 * empty queue, ends the run). It then builds the wait-for graph of the
 * lossless ingress buffers: (switch, ingress port, priority) waits on
 * (next switch, its ingress port, priority) when one of its frames is
 * queued at an egress paused on that priority by a next switch whose
 * ingress holds XOFF there. Frames of one ingress sit at several egresses
 * (the buffer is shared and queued at egress), so a buffer may wait on
 * several: the cycle is found by a depth-first search, O(buffers +
 * edges), and reported from its lowest (switch, port, priority), in the
 * same struct ibfs_deadlock as InfiniBand's (the priority as its vl).
 */
#include "switch/eth_deadlock.h"

#include <stdlib.h>

#include "switch/eth_switch_int.h"

struct ibfs_eth_deadlock_monitor {
	struct ibfs_fabric *f;
	ibfs_time_t timeout;
	uint64_t last_sends;
	struct ibfs_event *ev;
	struct ibfs_deadlock v;
};

/*
 * The wait-for graph: buffer (node, port, prio) is vertex base[node] +
 * port x IBFS_ETH_PRIOS + prio (ports 0..nports of Ethernet switches, none
 * for other nodes); edges from[] -> to[], then their lists by vertex
 * (adj[off[u]] .. adj[off[u + 1] - 1]).
 */
struct ed_graph {
	size_t nn, nv;
	size_t *base;
	size_t ne, cap;
	size_t *from, *to;
	size_t *off, *adj;
};

static void ed_check(void *obj, uint64_t arg);

static void ed_arm(struct ibfs_eth_deadlock_monitor *m)
{
	m->ev = ibfs__eq_schedule(&m->f->eq, m->f->eq.now + m->timeout,
				  ed_check, m, 0);
}

static struct ibfs_eth_switch *ed_sw(const struct ibfs_fabric *f, size_t n)
{
	return ibfs__eth_switch_of(f->devices[n]);
}

static int ed_edge(struct ed_graph *g, size_t from, size_t to)
{
	if (g->ne == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 64;
		size_t *a = realloc(g->from, cap * sizeof(*a));

		if (!a)
			return -1;
		g->from = a;
		a = realloc(g->to, cap * sizeof(*a));
		if (!a)
			return -1;
		g->to = a;
		g->cap = cap;
	}
	g->from[g->ne] = from;
	g->to[g->ne++] = to;
	return 0;
}

/*
 * The edges out of egress (out, c) of switch node n: one from each
 * ingress port with a frame there, when the egress is paused by an
 * Ethernet switch whose ingress holds XOFF on c. seen[in] == stamp marks
 * an ingress already linked.
 */
static int ed_egress(struct ed_graph *g, const struct ibfs_fabric *f,
		     size_t n, int out, int c, uint32_t *seen, uint32_t stamp)
{
	struct ibfs_eth_switch *sw = ed_sw(f, n);
	const struct ibfs_port *op = &sw->dev.ports[out];
	const struct ibfs_pfc_port *pp;

	if (!sw->port[out].q[c].head || !op->peer ||
	    !ed_sw(f, (size_t)op->peer->node))
		return 0;
	pp = ibfs__pfc_of(op->peer);
	if (!pp || !(pp->xoff & (1u << c)) || !ibfs__pfc_paused(op, c))
		return 0;
	size_t to = g->base[op->peer->node] +
		    (size_t)op->peer->num * IBFS_ETH_PRIOS + (size_t)c;

	for (const struct ibfs_packet *p = sw->port[out].q[c].head; p;
	     p = p->next) {
		if (seen[p->in_port] == stamp)
			continue;
		seen[p->in_port] = stamp;
		if (ed_edge(g, g->base[n] + (size_t)p->in_port *
						   IBFS_ETH_PRIOS + (size_t)c,
			    to) < 0)
			return -1;
	}
	return 0;
}

/* Every edge, then the lists by vertex (a stable counting sort). */
static int ed_build(struct ed_graph *g, const struct ibfs_fabric *f)
{
	int maxp = 0;
	uint32_t stamp = 0;

	for (size_t n = 0; n < g->nn; n++) {
		struct ibfs_eth_switch *sw = ed_sw(f, n);
		size_t k = sw ? (size_t)(sw->dev.nports + 1) * IBFS_ETH_PRIOS
			      : 0;

		g->base[n + 1] = g->base[n] + k;
		if (sw && sw->dev.nports > maxp)
			maxp = sw->dev.nports;
	}
	g->nv = g->base[g->nn];
	uint32_t *seen = calloc((size_t)maxp + 1, sizeof(*seen));

	if (!seen)
		return -1;
	for (size_t n = 0; n < g->nn; n++)
		for (int o = 1; ed_sw(f, n) && o <= ed_sw(f, n)->dev.nports;
		     o++)
			for (int c = 0; c < IBFS_ETH_PRIOS; c++)
				if (ed_egress(g, f, n, o, c, seen,
					      ++stamp) < 0) {
					free(seen);
					return -1;
				}
	free(seen);
	g->off = calloc(g->nv + 1, sizeof(*g->off));
	g->adj = malloc((g->ne ? g->ne : 1) * sizeof(*g->adj));
	if (!g->off || !g->adj)
		return -1;
	for (size_t e = 0; e < g->ne; e++)
		g->off[g->from[e] + 1]++;
	for (size_t u = 0; u < g->nv; u++)
		g->off[u + 1] += g->off[u];
	for (size_t e = 0; e < g->ne; e++)
		g->adj[g->off[g->from[e]]++] = g->to[e];
	for (size_t u = g->nv; u > 0; u--)
		g->off[u] = g->off[u - 1];
	g->off[0] = 0;
	return 0;
}

/* Vertex u as a cycle element. */
static struct ibfs_deadlock_elem ed_elem(const struct ed_graph *g, size_t u)
{
	size_t n = 0;

	while (g->base[n + 1] <= u)
		n++;
	size_t k = u - g->base[n];

	return (struct ibfs_deadlock_elem){ (int)n, (int)(k / IBFS_ETH_PRIOS),
					    (int)(k % IBFS_ETH_PRIOS) };
}

/* The cycle stk[from..top], from its lowest vertex, into v. */
static void ed_keep(const struct ed_graph *g, const size_t *stk, size_t from,
		    size_t top, struct ibfs_deadlock *v)
{
	size_t len = top - from + 1, low = from;

	for (size_t i = from; i <= top; i++)
		if (stk[i] < stk[low])
			low = i;
	for (size_t k = 0; k < len && k < 64; k++)
		v->cycle[k] = ed_elem(g, stk[from + (low - from + k) % len]);
	v->ncycle = len < 64 ? (int)len : 64;
}

/*
 * Depth-first search from every vertex in order, stopping at the first
 * edge back to a vertex on the stack (colour 1): that closes a cycle.
 */
static int ed_search(const struct ed_graph *g, struct ibfs_deadlock *v)
{
	unsigned char *col = calloc(g->nv ? g->nv : 1, 1);
	size_t *stk = malloc((g->nv ? g->nv : 1) * sizeof(*stk));
	size_t *it = malloc((g->nv ? g->nv : 1) * sizeof(*it));
	int rc = col && stk && it ? 0 : -1;

	for (size_t s = 0; !rc && s < g->nv && !v->ncycle; s++) {
		size_t top = 0;

		if (col[s] || g->off[s] == g->off[s + 1])
			continue;
		stk[0] = s;
		it[s] = g->off[s];
		col[s] = 1;
		for (;;) {
			size_t u = stk[top];

			if (it[u] == g->off[u + 1]) {
				col[u] = 2;
				if (!top--)
					break;
				continue;
			}
			size_t w = g->adj[it[u]++];

			if (col[w] == 1) {
				size_t from = top;

				while (stk[from] != w)
					from--;
				ed_keep(g, stk, from, top, v);
				break;
			}
			if (!col[w]) {
				col[w] = 1;
				it[w] = g->off[w];
				stk[++top] = w;
			}
		}
	}
	free(it);
	free(stk);
	free(col);
	return rc;
}

/* Fills m->v.cycle with a cycle of waiting buffers, if there is one. */
static void ed_find_cycle(struct ibfs_eth_deadlock_monitor *m)
{
	struct ed_graph g = { .nn = m->f->topo->nnodes };

	g.base = calloc(g.nn + 1, sizeof(*g.base));
	if (g.base && ed_build(&g, m->f) == 0)
		ed_search(&g, &m->v);
	free(g.base);
	free(g.from);
	free(g.to);
	free(g.off);
	free(g.adj);
}

/* Frames queued in the Ethernet switches now. */
static uint64_t ed_frames(const struct ibfs_fabric *f)
{
	uint64_t k = 0;

	for (size_t n = 0; n < f->topo->nnodes; n++) {
		struct ibfs_eth_switch *sw = ed_sw(f, n);

		for (int o = 1; sw && o <= sw->dev.nports; o++)
			for (int c = 0; c < IBFS_ETH_PRIOS; c++)
				for (const struct ibfs_packet *p =
					     sw->port[o].q[c].head;
				     p; p = p->next)
					k++;
	}
	return k;
}

static void ed_check(void *obj, uint64_t arg)
{
	struct ibfs_eth_deadlock_monitor *m = obj;
	struct ibfs_fabric *f = m->f;
	uint64_t sends = ibfs__fabric_sends(f), held = 0;

	(void)arg;
	m->ev = NULL;
	/* A live fabric costs O(1) a look, as deadlock.c's. */
	for (size_t n = 0; sends == m->last_sends && n < f->topo->nnodes;
	     n++)
		if (ed_sw(f, n))
			held += ibfs__eth_switch_used(ed_sw(f, n));
	if (sends != m->last_sends || !held) {
		m->last_sends = sends;
		if (ibfs__fabric_busy(f))
			ed_arm(m);
		return;
	}
	m->v.deadlock = 1;
	m->v.at = f->eq.now;
	m->v.stuck = ed_frames(f);
	ed_find_cycle(m);
	ibfs__fabric_stop(f);
}

struct ibfs_eth_deadlock_monitor *
ibfs__eth_deadlock_monitor_new(struct ibfs_fabric *f, ibfs_time_t timeout)
{
	struct ibfs_eth_deadlock_monitor *m = calloc(1, sizeof(*m));

	if (!m || !timeout) {
		free(m);
		return NULL;
	}
	m->f = f;
	m->timeout = timeout;
	m->last_sends = ibfs__fabric_sends(f);
	ed_arm(m);
	if (!m->ev) {
		free(m);
		return NULL;
	}
	return m;
}

void ibfs__eth_deadlock_monitor_free(struct ibfs_eth_deadlock_monitor *m)
{
	if (!m)
		return;
	if (m->ev)
		ibfs__eq_cancel(&m->f->eq, m->ev);
	free(m);
}

const struct ibfs_deadlock *
ibfs__eth_deadlock_verdict(const struct ibfs_eth_deadlock_monitor *m)
{
	return &m->v;
}
