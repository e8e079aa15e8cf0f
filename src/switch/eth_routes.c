/* SPDX-License-Identifier: MIT */
/*
 * Shortest-path ECMP forwarding of an Ethernet fabric run as a datacenter
 * L3 fabric (eth_routes.h): what a routing protocol such as BGP with
 * multipath (RFC 7938) converges to, computed once at start-up from the
 * topology. Hop counts cover switch-to-switch and switch-to-HCA links;
 * HCAs do not forward.
 *
 * Every host on one switch (its edge switch) is one hop beyond it, so one
 * breadth-first search from each edge switch over the switch graph gives
 * the next hops toward all of its hosts: a switch's next hops toward edge
 * switch E are its ports to neighbours one hop nearer E. The work is
 * O(edge switches x (switches + links)), then one copy of each list per
 * (switch, host) into the tables.
 *
 * HCAs get no table: an HCA port has one link, and a host sends all it
 * sends out of it. A multi-port HCA is one host per port (eth_routes.h).
 */
#include <stdlib.h>
#include <string.h>

#include "fabric/eth.h"
#include "fabric/rng.h"
#include "switch/eth_routes.h"

uint32_t ibfs__eth_host_count(const struct ibfs_topology *t)
{
	uint64_t n = 0;

	for (size_t i = 0; i < t->nnodes; i++)
		if (t->nodes[i].type == IBFS_NODE_HCA)
			n += (uint64_t)t->nodes[i].nports;
	return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

void ibfs__eth_hosts_free(struct ibfs_eth_hosts *hs)
{
	free(hs->node);
	free(hs->port);
	free(hs->first);
	memset(hs, 0, sizeof(*hs));
}

int ibfs__eth_hosts_init(struct ibfs_eth_hosts *hs,
			 const struct ibfs_topology *t, struct ibfs_diag *d)
{
	uint32_t n = ibfs__eth_host_count(t);

	memset(hs, 0, sizeof(*hs));
	if (n > IBFS_ETH_MAX_HOSTS)
		return ibfs__diag(d, t->file, 0,
				  "%u HCA ports are more hosts than the %u a 16-bit host id numbers",
				  n, IBFS_ETH_MAX_HOSTS);
	hs->n = n;
	hs->node = malloc((n + 1) * sizeof(*hs->node));
	hs->port = malloc(n + 1);
	hs->first = calloc(t->nnodes + 1, sizeof(*hs->first));
	if (!hs->node || !hs->port || !hs->first) {
		ibfs__eth_hosts_free(hs);
		return ibfs__diag(d, t->file, 0, "out of memory for %u hosts",
				  n);
	}
	uint32_t h = 1;

	for (size_t i = 0; i < t->nnodes; i++) {
		const struct ibfs_topo_node *nd = &t->nodes[i];

		if (nd->type != IBFS_NODE_HCA)
			continue;
		hs->first[i] = h;
		for (int p = 1; p <= nd->nports; p++, h++) {
			hs->node[h] = (int)i;
			hs->port[h] = (uint8_t)p;
		}
	}
	return 0;
}

uint32_t ibfs__eth_host_id(const struct ibfs_eth_hosts *hs,
			   const struct ibfs_topology *t, int node, int port)
{
	if (node < 0 || (size_t)node >= t->nnodes || !hs->first[node] ||
	    port < 1 || port > t->nodes[node].nports)
		return 0;
	return hs->first[node] + (uint32_t)port - 1;
}

int ibfs__eth_host_port(const struct ibfs_eth_hosts *hs, uint32_t h,
			int *node, int *port)
{
	if (h < 1 || h > hs->n)
		return -1;
	*node = hs->node[h];
	*port = hs->port[h];
	return 0;
}

/*
 * A bijection of 32-bit words whose every input bit reaches every output
 * bit (Wellons' "lowbias32" constants): distinct nodes of one run thus
 * get distinct seeds, and nearby nodes unrelated ones.
 */
static uint32_t mix32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7FEB352Du;
	x ^= x >> 15;
	x *= 0x846CA68Bu;
	x ^= x >> 16;
	return x;
}

uint32_t ibfs__eth_switch_seed(uint32_t seed, int node)
{
	uint64_t x = seed;
	uint32_t base = (uint32_t)(ibfs__splitmix64(&x) >> 32);

	/* base + node x (an odd constant) is one-to-one in node mod 2^32. */
	return mix32(base + (uint32_t)node * 0x9E3779B9u);
}

int ibfs__eth_route_pick(const struct ibfs_eth_routes *r,
			 const struct ibfs_packet *p)
{
	uint32_t n;
	const uint8_t *hops = ibfs__eth_next_hops(r, p->dlid, &n);

	if (!n)
		return 0;
	return hops[ibfs__eth_flow_hash(p, r->seed) % n];
}

void ibfs__eth_routes_free(struct ibfs_eth_routes *per_switch, size_t nnodes)
{
	for (size_t i = 0; i < nnodes; i++) {
		free(per_switch[i].off);
		free(per_switch[i].ports);
		memset(&per_switch[i], 0, sizeof(per_switch[i]));
	}
}

/*
 * The switch graph and the hosts' attachments, and the next-hop lists
 * toward every edge switch, while the tables are built.
 */
struct build {
	const struct ibfs_topology *t;
	const uint8_t *down;
	struct ibfs_eth_hosts hs;
	size_t nsw;
	int *sw_node;      /* [switch index] -> node */
	int *sw_of;        /* [node] -> switch index, -1 for an HCA */
	/* Usable switch-to-switch ports of switch s, in port order:
	 * nb_port/nb_sw[nb_off[s] .. nb_off[s + 1] - 1]. */
	uint32_t *nb_off;
	uint8_t *nb_port;
	uint32_t *nb_sw;
	/* Host h's edge switch (-1: none) and the port there facing it. */
	int *edge_sw;
	uint8_t *edge_port;
	/* Edge switches: edge_of[s] numbers them, -1 for the others. */
	int *edge_of;
	size_t nedge;
	/* Lists toward edge switch e: at switch s, the ports
	 * lp[lo[e (nsw + 1) + s] .. lo[e (nsw + 1) + s + 1] - 1]. */
	uint32_t *lo;
	uint8_t *lp;
	size_t lp_len, lp_cap;
	/* Breadth-first search. */
	int32_t *dist;
	uint32_t *queue;
};

/* Whether port p of node n has a link that is up. */
static int port_usable(const struct build *b, int n, int p)
{
	const struct ibfs_topo_port *tp = &b->t->nodes[n].ports[p];

	return tp->peer_node >= 0 && tp->link >= 0 &&
	       !(b->down && b->down[tp->link]);
}

static void build_free(struct build *b)
{
	ibfs__eth_hosts_free(&b->hs);
	free(b->sw_node);
	free(b->sw_of);
	free(b->nb_off);
	free(b->nb_port);
	free(b->nb_sw);
	free(b->edge_sw);
	free(b->edge_port);
	free(b->edge_of);
	free(b->lo);
	free(b->lp);
	free(b->dist);
	free(b->queue);
}

static int build_oom(struct build *b, struct ibfs_diag *d)
{
	return ibfs__diag(d, b->t->file, 0,
			  "the ECMP tables of %zu switches and %u hosts do not fit in memory",
			  b->nsw, b->hs.n);
}

/* Numbers the switches and lists their usable switch-to-switch ports. */
static int build_graph(struct build *b)
{
	const struct ibfs_topology *t = b->t;
	size_t nports = 0;

	b->sw_of = malloc((t->nnodes + 1) * sizeof(*b->sw_of));
	b->sw_node = malloc((t->nnodes + 1) * sizeof(*b->sw_node));
	if (!b->sw_of || !b->sw_node)
		return -1;
	for (size_t i = 0; i < t->nnodes; i++) {
		b->sw_of[i] = -1;
		if (t->nodes[i].type != IBFS_NODE_SWITCH)
			continue;
		b->sw_of[i] = (int)b->nsw;
		b->sw_node[b->nsw++] = (int)i;
		nports += (size_t)t->nodes[i].nports;
	}
	b->nb_off = malloc((b->nsw + 1) * sizeof(*b->nb_off));
	b->nb_port = malloc(nports + 1);
	b->nb_sw = malloc((nports + 1) * sizeof(*b->nb_sw));
	if (!b->nb_off || !b->nb_port || !b->nb_sw)
		return -1;
	uint32_t k = 0;

	for (size_t s = 0; s < b->nsw; s++) {
		const struct ibfs_topo_node *nd = &t->nodes[b->sw_node[s]];

		b->nb_off[s] = k;
		for (int p = 1; p <= nd->nports; p++) {
			int q = nd->ports[p].peer_node;

			if (!port_usable(b, b->sw_node[s], p) ||
			    b->sw_of[q] < 0)
				continue;
			b->nb_port[k] = (uint8_t)p;
			b->nb_sw[k++] = (uint32_t)b->sw_of[q];
		}
	}
	b->nb_off[b->nsw] = k;
	return 0;
}

/* Where each host is attached, and which switches have hosts. */
static int build_edges(struct build *b)
{
	const struct ibfs_topology *t = b->t;
	uint32_t n = b->hs.n;

	b->edge_sw = malloc((n + 1) * sizeof(*b->edge_sw));
	b->edge_port = malloc(n + 1);
	b->edge_of = malloc((b->nsw + 1) * sizeof(*b->edge_of));
	if (!b->edge_sw || !b->edge_port || !b->edge_of)
		return -1;
	for (size_t s = 0; s < b->nsw; s++)
		b->edge_of[s] = -1;
	for (uint32_t h = 1; h <= n; h++) {
		int node = b->hs.node[h], port = b->hs.port[h];
		const struct ibfs_topo_port *tp = &t->nodes[node].ports[port];

		b->edge_sw[h] = -1;
		if (!port_usable(b, node, port) || b->sw_of[tp->peer_node] < 0)
			continue;
		int s = b->sw_of[tp->peer_node];

		b->edge_sw[h] = s;
		b->edge_port[h] = (uint8_t)tp->peer_port;
		if (b->edge_of[s] < 0)
			b->edge_of[s] = (int)b->nedge++;
	}
	return 0;
}

/* Hop counts between switches from switch `src` (-1: unreachable). */
static void bfs(struct build *b, uint32_t src)
{
	uint32_t head = 0, tail = 0;

	for (size_t s = 0; s < b->nsw; s++)
		b->dist[s] = -1;
	b->dist[src] = 0;
	b->queue[tail++] = src;
	while (head < tail) {
		uint32_t s = b->queue[head++];

		for (uint32_t i = b->nb_off[s]; i < b->nb_off[s + 1]; i++) {
			uint32_t q = b->nb_sw[i];

			if (b->dist[q] >= 0)
				continue;
			b->dist[q] = b->dist[s] + 1;
			b->queue[tail++] = q;
		}
	}
}

/* Room for `more` list entries; -1 past memory or 32-bit offsets. */
static int lp_reserve(struct build *b, size_t more)
{
	if (b->lp_len + more <= b->lp_cap)
		return 0;
	if (b->lp_len + more > UINT32_MAX)
		return -1;
	size_t cap = b->lp_cap ? b->lp_cap : 4096;

	while (cap < b->lp_len + more)
		cap *= 2;
	uint8_t *lp = realloc(b->lp, cap);

	if (!lp)
		return -1;
	b->lp = lp;
	b->lp_cap = cap;
	return 0;
}

/* Every switch's next hops toward edge switch `dst` (edge number e):
 * its ports to neighbours one hop nearer. None at dst itself. */
static int build_lists(struct build *b, uint32_t dst, size_t e)
{
	uint32_t *lo = b->lo + e * (b->nsw + 1);

	bfs(b, dst);
	if (lp_reserve(b, b->nb_off[b->nsw]))
		return -1;
	for (size_t s = 0; s < b->nsw; s++) {
		lo[s] = (uint32_t)b->lp_len;
		if (b->dist[s] <= 0)
			continue;
		for (uint32_t i = b->nb_off[s]; i < b->nb_off[s + 1]; i++)
			if (b->dist[b->nb_sw[i]] == b->dist[s] - 1)
				b->lp[b->lp_len++] = b->nb_port[i];
	}
	lo[b->nsw] = (uint32_t)b->lp_len;
	return 0;
}

static int build_all_lists(struct build *b)
{
	b->dist = malloc((b->nsw + 1) * sizeof(*b->dist));
	b->queue = malloc((b->nsw + 1) * sizeof(*b->queue));
	b->lo = malloc((b->nedge * (b->nsw + 1) + 1) * sizeof(*b->lo));
	if (!b->dist || !b->queue || !b->lo)
		return -1;
	for (size_t s = 0; s < b->nsw; s++) {
		int e = b->edge_of[s];

		if (e >= 0 && build_lists(b, (uint32_t)s, (size_t)e))
			return -1;
	}
	return 0;
}

/* Next hops of switch s toward host h, and their number. */
static const uint8_t *hops_of(const struct build *b, size_t s, uint32_t h,
			      uint32_t *n)
{
	int e_sw = b->edge_sw[h];

	*n = 0;
	if (e_sw < 0)
		return NULL;
	if ((size_t)e_sw == s) {
		*n = 1;
		return &b->edge_port[h];
	}
	const uint32_t *lo = b->lo + (size_t)b->edge_of[e_sw] * (b->nsw + 1);

	*n = lo[s + 1] - lo[s];
	return b->lp + lo[s];
}

/* Switch s's table: the lists toward each host's edge switch, in host
 * order. */
static int build_table(const struct build *b, size_t s, uint32_t seed,
		       struct ibfs_eth_routes *r)
{
	uint32_t nh = b->hs.n, n, total = 0;

	r->nhosts = nh;
	r->seed = ibfs__eth_switch_seed(seed, b->sw_node[s]);
	r->off = malloc((nh + 2) * sizeof(*r->off));
	if (!r->off)
		return -1;
	r->off[0] = 0;
	for (uint32_t h = 1; h <= nh; h++) {
		r->off[h] = total;
		hops_of(b, s, h, &n);
		total += n;
	}
	r->off[nh + 1] = total;
	r->ports = malloc(total ? total : 1);
	if (!r->ports)
		return -1;
	for (uint32_t h = 1; h <= nh; h++) {
		const uint8_t *hops = hops_of(b, s, h, &n);

		if (n)
			memcpy(r->ports + r->off[h], hops, n);
	}
	return 0;
}

int ibfs__eth_routes_build_down(const struct ibfs_topology *t, uint32_t seed,
				const uint8_t *link_down,
				struct ibfs_eth_routes *per_switch,
				struct ibfs_diag *d)
{
	struct build b;

	memset(&b, 0, sizeof(b));
	memset(per_switch, 0, t->nnodes * sizeof(*per_switch));
	b.t = t;
	b.down = link_down;
	if (ibfs__eth_hosts_init(&b.hs, t, d))
		return -1;
	if (build_graph(&b) || build_edges(&b) || build_all_lists(&b))
		goto oom;
	for (size_t s = 0; s < b.nsw; s++)
		if (build_table(&b, s, seed, &per_switch[b.sw_node[s]]))
			goto oom;
	build_free(&b);
	return 0;
oom:
	build_oom(&b, d);
	build_free(&b);
	ibfs__eth_routes_free(per_switch, t->nnodes);
	return -1;
}

int ibfs__eth_routes_build(const struct ibfs_topology *t, uint32_t seed,
			   struct ibfs_eth_routes *per_switch,
			   struct ibfs_diag *d)
{
	return ibfs__eth_routes_build_down(t, seed, NULL, per_switch, d);
}

/* Counts one flow on the directed link out of (node, port). */
static void count_link(const struct ibfs_topology *t, int node, int port,
		       uint32_t *load, long *max)
{
	int l = t->nodes[node].ports[port].link;
	const struct ibfs_topo_link *lk = &t->links[l];
	size_t i = 2 * (size_t)l +
		   !(lk->node_a == node && lk->port_a == port);

	if (++load[i] > (uint32_t)*max)
		*max = load[i];
}

/* Walks flow f from its source port to its destination; 0 or -1. */
static int walk_flow(const struct ibfs_topology *t,
		     const struct ibfs_eth_routes *per_switch,
		     const struct ibfs_eth_hosts *hs,
		     const struct ibfs_eth_flow *f, uint32_t *load, long *max,
		     struct ibfs_diag *d)
{
	struct ibfs_packet p;
	int node, port;

	if (ibfs__eth_host_port(hs, f->src, &node, &port) ||
	    f->dst < 1 || f->dst > hs->n)
		return ibfs__diag(d, t->file, 0,
				  "flow %u -> %u: no such host (hosts 1-%u)",
				  f->src, f->dst, hs->n);
	memset(&p, 0, sizeof(p));
	p.slid = (uint16_t)f->src;
	p.dlid = (uint16_t)f->dst;
	p.dest_qp = f->qp;
	for (size_t hop = 0; hop <= t->nnodes; hop++) {
		const struct ibfs_topo_port *tp = &t->nodes[node].ports[port];

		if (tp->peer_node < 0 || tp->link < 0)
			return ibfs__diag(d, t->file, 0,
					  "flow %u -> %u: port %s:%d has no link",
					  f->src, f->dst, t->nodes[node].id,
					  port);
		count_link(t, node, port, load, max);
		node = tp->peer_node;
		if (t->nodes[node].type == IBFS_NODE_HCA) {
			if (ibfs__eth_host_id(hs, t, node, tp->peer_port) ==
			    f->dst)
				return 0;
			return ibfs__diag(d, t->file, 0,
					  "flow %u -> %u: arrives at %s:%d",
					  f->src, f->dst, t->nodes[node].id,
					  tp->peer_port);
		}
		port = ibfs__eth_route_pick(&per_switch[node], &p);
		if (!port)
			return ibfs__diag(d, t->file, 0,
					  "flow %u -> %u: switch %s has no next hop",
					  f->src, f->dst, t->nodes[node].id);
	}
	return ibfs__diag(d, t->file, 0,
			  "flow %u -> %u: not there after %zu hops", f->src,
			  f->dst, t->nnodes);
}

long ibfs__eth_flows_max_load(const struct ibfs_topology *t,
			      const struct ibfs_eth_routes *per_switch,
			      const struct ibfs_eth_flow *flows, size_t n,
			      uint32_t *load, struct ibfs_diag *d)
{
	struct ibfs_eth_hosts hs;
	uint32_t *mine = NULL;
	long max = 0;
	int bad = 0;

	if (ibfs__eth_hosts_init(&hs, t, d))
		return -1;
	if (!load) {
		mine = malloc((2 * t->nlinks + 1) * sizeof(*mine));
		if (!mine) {
			ibfs__eth_hosts_free(&hs);
			return ibfs__diag(d, t->file, 0,
					  "out of memory for link loads");
		}
		load = mine;
	}
	memset(load, 0, 2 * t->nlinks * sizeof(*load));
	for (size_t i = 0; i < n && !bad; i++)
		bad = walk_flow(t, per_switch, &hs, &flows[i], load, &max, d);
	free(mine);
	ibfs__eth_hosts_free(&hs);
	return bad ? -1 : max;
}
