/* SPDX-License-Identifier: MIT */
/*
 * Shortest-path ECMP next hops (src/switch/eth_routes.c), each table
 * entry against its closed form:
 *
 * - two-level fat tree of 8-port switches (8 leaves of 4 hosts, 4
 *   spines): host h (1..32) sits on leaf ceil(h/4), port (h-1)%4 + 1. A
 *   leaf reaches its own hosts over that one port and every other host
 *   over its k/2 = 4 up ports 5-8 (leaf, spine, leaf: 3 links); a spine
 *   reaches host h over one port, the one to leaf ceil(h/4);
 * - three-level fat tree of 8-port switches (128 hosts, 32 leaves, 32
 *   spines, 16 cores; 8 pods of 4 leaves and 4 spines): 16 hosts a pod.
 *   A leaf: 1 toward its own hosts, up ports 5-8 toward the rest; a
 *   spine: 1 toward the hosts of its pod (down port = the leaf's place in
 *   the pod + 1), up ports 5-8 toward the others; a core: 1, port pod + 1;
 * - rings: on a ring of n switches (port 1 to the next, 2 to the
 *   previous), the way round to a switch d steps on is shorter for
 *   d < n/2 (port 1), for d > n/2 the other way (port 2); at the antipode
 *   of an even ring (d = n/2) both are: 2 next hops on the ring of 4,
 *   never on the ring of 5;
 * - 4x4 torus (ports 1/2 +x/-x, 3/4 +y/-y): per dimension a difference of
 *   1 adds the + port, 3 the - port, 2 both; so (2, 2) away has 4 next hops;
 * - a link down (leaf1 port 5 to spine1): leaf1 goes up over ports 6-8;
 *   the other leaves reach leaf1's hosts over spines 2-4 (ports 6-8);
 *   spine1 reaches them through any other leaf, ports 2-8 (4 links
 *   instead of 1, but the shortest left);
 * - no next hops toward a host without a link or in another component;
 * - host ids one per HCA port, node by node, port by port.
 *
 * Then ECMP against d-mod-k on the 8-port fat tree. Under a shift
 * permutation (h -> h + 4j) d-mod-k's up port (h-1)%4 differs for the 4
 * hosts of a leaf and its spine differs for the 4 destinations of a
 * leaf, so every directed link carries 1 flow. ECMP hashes each flow to
 * one of the 4 up ports: the 4 flows of a leaf miss each other with
 * probability 4!/4^4 = 3/32, so some up link carries 2 or more unless
 * all 8 leaves are lucky: (3/32)^8 < 10^-8. The hash is seeded, so this
 * is checked for random permutations under 8 seeds: at least one gives a
 * link 2 flows. Each flow between leaves crosses 4 directed links (HCA,
 * leaf, spine, leaf, HCA), within a leaf 2.
 */
#include "check_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/rng.h"
#include "fabric/topo_gen.h"
#include "switch/eth_routes.h"

static struct ibfs_topology *gen(const char *kind,
				 const struct ibfs_gen_param *p, int n)
{
	struct ibfs_diag d;
	struct ibfs_topology *t = ibfs__topo_new(kind);

	ck_assert_ptr_nonnull(t);
	if (ibfs__topo_generate(t, kind, p, n, "", "test", 0, &d))
		ck_abort_msg("%s", d.msg);
	return t;
}

static struct ibfs_topology *fat_tree(const char *k, const char *levels)
{
	struct ibfs_gen_param p[] = {{"k", k}, {"levels", levels}};

	return gen("fat-tree", p, 2);
}

static struct ibfs_eth_routes *routes(const struct ibfs_topology *t,
				      uint32_t seed, const uint8_t *down)
{
	struct ibfs_diag d;
	struct ibfs_eth_routes *r = calloc(t->nnodes, sizeof(*r));

	ck_assert_ptr_nonnull(r);
	if (ibfs__eth_routes_build_down(t, seed, down, r, &d))
		ck_abort_msg("%s", d.msg);
	return r;
}

static void routes_free(const struct ibfs_topology *t,
			struct ibfs_eth_routes *r)
{
	ibfs__eth_routes_free(r, t->nnodes);
	free(r);
}

static int node(const struct ibfs_topology *t, const char *fmt, long i)
{
	char id[32];

	snprintf(id, sizeof(id), fmt, i);
	int n = ibfs__topo_find(t, id);

	ck_assert_msg(n >= 0, "no node %s", id);
	return n;
}

/* The next hops of node n toward host h are the ports lo..hi. */
static void expect_range(const struct ibfs_topology *t,
			 const struct ibfs_eth_routes *r, int n, uint32_t h,
			 int lo, int hi)
{
	uint32_t cnt;
	const uint8_t *p = ibfs__eth_next_hops(&r[n], h, &cnt);

	ck_assert_msg(cnt == (uint32_t)(hi - lo + 1),
		      "%s toward host %u: %u next hops, expected %d",
		      t->nodes[n].id, h, cnt, hi - lo + 1);
	for (uint32_t i = 0; i < cnt; i++)
		ck_assert_msg(p[i] == lo + (int)i,
			      "%s toward host %u: hop %u is port %u, expected %d",
			      t->nodes[n].id, h, i, p[i], lo + (int)i);
}

static void expect_one(const struct ibfs_topology *t,
		       const struct ibfs_eth_routes *r, int n, uint32_t h,
		       int port)
{
	expect_range(t, r, n, h, port, port);
}

static void expect_none(const struct ibfs_topology *t,
			const struct ibfs_eth_routes *r, int n, uint32_t h)
{
	uint32_t cnt;

	ibfs__eth_next_hops(&r[n], h, &cnt);
	ck_assert_msg(cnt == 0, "%s toward host %u: %u next hops",
		      t->nodes[n].id, h, cnt);
}

/* The next hops of n toward h are exactly the ports of `want` (ascending). */
static void expect_set(const struct ibfs_topology *t,
		       const struct ibfs_eth_routes *r, int n, uint32_t h,
		       const int *want, uint32_t nwant)
{
	uint32_t cnt;
	const uint8_t *p = ibfs__eth_next_hops(&r[n], h, &cnt);

	ck_assert_msg(cnt == nwant, "%s toward host %u: %u next hops, not %u",
		      t->nodes[n].id, h, cnt, nwant);
	for (uint32_t i = 0; i < cnt; i++)
		ck_assert_int_eq(p[i], want[i]);
}

START_TEST(fat_tree_two_levels)
{
	struct ibfs_topology *t = fat_tree("8", "2");
	struct ibfs_eth_routes *r = routes(t, 1, NULL);

	ck_assert_uint_eq(ibfs__eth_host_count(t), 32);
	for (long l = 1; l <= 8; l++) {
		int n = node(t, "leaf%ld", l);

		ck_assert_uint_eq(r[n].nhosts, 32);
		for (uint32_t h = 1; h <= 32; h++) {
			if ((long)(h - 1) / 4 + 1 == l)
				expect_one(t, r, n, h, (int)(h - 1) % 4 + 1);
			else
				expect_range(t, r, n, h, 5, 8);
		}
		/* 4 own hosts x 1 + 28 others x 4 = 116 entries. */
		ck_assert_uint_eq(r[n].off[33], 116);
	}
	for (long s = 1; s <= 4; s++) {
		int n = node(t, "spine%ld", s);

		for (uint32_t h = 1; h <= 32; h++)
			expect_one(t, r, n, h, (int)(h - 1) / 4 + 1);
	}
	/* Out of range: none. */
	expect_none(t, r, node(t, "leaf%ld", 1), 0);
	expect_none(t, r, node(t, "leaf%ld", 1), 33);
	/* An HCA has no table. */
	expect_none(t, r, node(t, "node%ld", 1), 2);
	routes_free(t, r);
	ibfs__topo_free(t);
}
END_TEST

START_TEST(fat_tree_three_levels)
{
	struct ibfs_topology *t = fat_tree("8", "3");
	struct ibfs_eth_routes *r = routes(t, 1, NULL);

	ck_assert_uint_eq(ibfs__eth_host_count(t), 128);
	for (long i = 0; i < 32; i++) {
		int leaf = node(t, "leaf%ld", i + 1);
		int spine = node(t, "spine%ld", i + 1);

		for (uint32_t h = 1; h <= 128; h++) {
			long hl = (long)(h - 1) / 4, pod = (long)(h - 1) / 16;

			if (hl == i)
				expect_one(t, r, leaf, h, (int)(h - 1) % 4 + 1);
			else
				expect_range(t, r, leaf, h, 5, 8);
			if (pod == i / 4)
				expect_one(t, r, spine, h, (int)(hl % 4) + 1);
			else
				expect_range(t, r, spine, h, 5, 8);
		}
	}
	for (long c = 1; c <= 16; c++)
		for (uint32_t h = 1; h <= 128; h++)
			expect_one(t, r, node(t, "core%ld", c), h,
				   (int)(h - 1) / 16 + 1);
	routes_free(t, r);
	ibfs__topo_free(t);
}
END_TEST

/* Ring of n switches with `hcas` hosts each: host h on switch (h-1)/hcas
 * at port 2 + (h-1)%hcas + 1. */
static void check_ring(long n, long hcas)
{
	char ns[8], hs[8];

	snprintf(ns, sizeof(ns), "%ld", n);
	snprintf(hs, sizeof(hs), "%ld", hcas);
	struct ibfs_gen_param p[] = {{"n", ns}, {"hcas", hs}};
	struct ibfs_topology *t = gen("ring", p, 2);
	struct ibfs_eth_routes *r = routes(t, 7, NULL);
	uint32_t nh = (uint32_t)(n * hcas);

	ck_assert_uint_eq(ibfs__eth_host_count(t), nh);
	for (long i = 0; i < n; i++) {
		int sw = node(t, "sw%ld", i + 1);

		for (uint32_t h = 1; h <= nh; h++) {
			long j = (long)(h - 1) / hcas;
			long dd = ((j - i) % n + n) % n;

			if (dd == 0)
				expect_one(t, r, sw, h,
					   3 + (int)((h - 1) % hcas));
			else if (2 * dd < n)
				expect_one(t, r, sw, h, 1);
			else if (2 * dd > n)
				expect_one(t, r, sw, h, 2);
			else
				expect_range(t, r, sw, h, 1, 2);
		}
	}
	routes_free(t, r);
	ibfs__topo_free(t);
}

START_TEST(ring_even_and_odd)
{
	check_ring(4, 1);
	check_ring(5, 2);
}
END_TEST

START_TEST(torus_4x4)
{
	struct ibfs_gen_param p[] = {{"dims", "4x4"}};
	struct ibfs_topology *t = gen("torus", p, 1);
	struct ibfs_eth_routes *r = routes(t, 3, NULL);

	ck_assert_uint_eq(ibfs__eth_host_count(t), 16);
	for (long i = 0; i < 16; i++) {
		int sw = node(t, "sw%ld", i + 1);

		for (uint32_t h = 1; h <= 16; h++) {
			long j = (long)h - 1;
			long dx = ((j % 4 - i % 4) + 4) % 4;
			long dy = ((j / 4 - i / 4) + 4) % 4;
			int want[4], nw = 0;

			if (dx == 1 || dx == 2)
				want[nw++] = 1;
			if (dx == 3 || dx == 2)
				want[nw++] = 2;
			if (dy == 1 || dy == 2)
				want[nw++] = 3;
			if (dy == 3 || dy == 2)
				want[nw++] = 4;
			if (!nw)
				want[nw++] = 5;
			expect_set(t, r, sw, h, want, (uint32_t)nw);
		}
	}
	/* sw1 toward host 11, at (2, 2): all four directions. */
	expect_range(t, r, node(t, "sw%ld", 1), 11, 1, 4);
	routes_free(t, r);
	ibfs__topo_free(t);
}
END_TEST

START_TEST(link_down)
{
	struct ibfs_topology *t = fat_tree("8", "2");
	int leaf1 = node(t, "leaf%ld", 1), spine1 = node(t, "spine%ld", 1);
	int l = t->nodes[leaf1].ports[5].link;
	uint8_t *down = calloc(t->nlinks, 1);

	ck_assert_ptr_nonnull(down);
	ck_assert_int_eq(t->nodes[leaf1].ports[5].peer_node, spine1);
	down[l] = 1;
	struct ibfs_eth_routes *r = routes(t, 1, down);

	for (uint32_t h = 5; h <= 32; h++)
		expect_range(t, r, leaf1, h, 6, 8);
	for (uint32_t h = 1; h <= 4; h++) {
		expect_one(t, r, leaf1, h, (int)h);
		for (long o = 2; o <= 8; o++)
			expect_range(t, r, node(t, "leaf%ld", o), h, 6, 8);
		expect_range(t, r, spine1, h, 2, 8);
		for (long s = 2; s <= 4; s++)
			expect_one(t, r, node(t, "spine%ld", s), h, 1);
	}
	/* spine1 still reaches the other leaves directly. */
	expect_one(t, r, spine1, 5, 2);
	/* A down host link: that host is unreachable everywhere. */
	down[l] = 0;
	down[t->nodes[node(t, "node%ld", 7)].ports[1].link] = 1;
	routes_free(t, r);
	r = routes(t, 1, down);
	expect_none(t, r, leaf1, 7);
	expect_none(t, r, node(t, "leaf%ld", 2), 7);
	expect_none(t, r, spine1, 7);
	expect_one(t, r, node(t, "leaf%ld", 2), 8, 4);
	routes_free(t, r);
	free(down);
	ibfs__topo_free(t);
}
END_TEST

static int add(struct ibfs_topology *t, const char *id,
	       enum ibfs_node_type ty, int nports)
{
	struct ibfs_diag d;
	int n = ibfs__topo_add_node(t, id, ty, nports, 0, &d);

	ck_assert_msg(n >= 0, "%s", d.msg);
	return n;
}

static void wire(struct ibfs_topology *t, int a, int pa, int b, int pb)
{
	struct ibfs_diag d;

	ck_assert_msg(ibfs__topo_add_link(t, a, pa, b, pb, t->def.speed,
					  t->def.width, t->def.cable_mm, 0,
					  &d) >= 0,
		      "%s", d.msg);
}

/*
 * sw1 - sw2 with node1 on sw1 port 2 and node2 on sw2 port 2; sw3 apart
 * with node3; node4 without a link; node5 - node6 back to back. Hosts
 * 1-6 in that order.
 */
static struct ibfs_topology *islands(void)
{
	struct ibfs_topology *t = ibfs__topo_new("islands");
	int s1 = add(t, "sw1", IBFS_NODE_SWITCH, 3);
	int s2 = add(t, "sw2", IBFS_NODE_SWITCH, 3);
	int s3 = add(t, "sw3", IBFS_NODE_SWITCH, 2);
	int n[6];

	for (int i = 0; i < 6; i++) {
		char id[8];

		snprintf(id, sizeof(id), "node%d", i + 1);
		n[i] = add(t, id, IBFS_NODE_HCA, 1);
	}
	wire(t, s1, 1, s2, 1);
	wire(t, n[0], 1, s1, 2);
	wire(t, n[1], 1, s2, 2);
	wire(t, n[2], 1, s3, 1);
	wire(t, n[4], 1, n[5], 1);
	return t;
}

START_TEST(unreachable)
{
	struct ibfs_topology *t = islands();
	struct ibfs_eth_routes *r = routes(t, 1, NULL);
	int s1 = node(t, "sw%ld", 1), s3 = node(t, "sw%ld", 3);

	ck_assert_uint_eq(ibfs__eth_host_count(t), 6);
	expect_one(t, r, s1, 1, 2);
	expect_one(t, r, s1, 2, 1);
	for (uint32_t h = 3; h <= 6; h++)
		expect_none(t, r, s1, h);
	expect_none(t, r, s3, 1);
	expect_none(t, r, s3, 2);
	expect_one(t, r, s3, 3, 1);
	expect_none(t, r, s3, 4);

	/* The analysis: every error path, then the back-to-back pair. */
	struct ibfs_diag d;
	struct ibfs_eth_flow f = {1, 3, 1};

	ck_assert_int_eq(ibfs__eth_flows_max_load(t, r, &f, 1, NULL, &d), -1);
	ck_assert_str_eq(d.msg, "flow 1 -> 3: switch sw1 has no next hop");
	f = (struct ibfs_eth_flow){4, 1, 1};
	ck_assert_int_eq(ibfs__eth_flows_max_load(t, r, &f, 1, NULL, &d), -1);
	ck_assert_str_eq(d.msg, "flow 4 -> 1: port node4:1 has no link");
	f = (struct ibfs_eth_flow){0, 1, 1};
	ck_assert_int_eq(ibfs__eth_flows_max_load(t, r, &f, 1, NULL, &d), -1);
	ck_assert_str_eq(d.msg, "flow 0 -> 1: no such host (hosts 1-6)");
	f = (struct ibfs_eth_flow){1, 7, 1};
	ck_assert_int_eq(ibfs__eth_flows_max_load(t, r, &f, 1, NULL, &d), -1);
	ck_assert_str_eq(d.msg, "flow 1 -> 7: no such host (hosts 1-6)");
	f = (struct ibfs_eth_flow){5, 1, 1};
	ck_assert_int_eq(ibfs__eth_flows_max_load(t, r, &f, 1, NULL, &d), -1);
	ck_assert_str_eq(d.msg, "flow 5 -> 1: arrives at node6:1");
	/* node5 -> node6 and back: one link each way, 1 flow each. */
	struct ibfs_eth_flow two[] = {{5, 6, 1}, {6, 5, 1}, {1, 2, 1}};
	uint32_t load[2 * 5];

	ck_assert_int_eq(ibfs__eth_flows_max_load(t, r, two, 3, load, &d), 1);
	/* Links in order: sw1-sw2, node1-sw1, node2-sw2, node3-sw3,
	 * node5-node6. 1 -> 2 crosses link 1 from its a end (node1), link 0
	 * from a (sw1), link 2 from b (sw2); 5 -> 6 and 6 -> 5 link 4. */
	static const uint32_t want[] = {1, 0, 1, 0, 0, 1, 0, 0, 1, 1};

	for (int i = 0; i < 10; i++)
		ck_assert_uint_eq(load[i], want[i]);
	routes_free(t, r);
	ibfs__topo_free(t);
}
END_TEST

START_TEST(multi_port_hca)
{
	/* nodeA (1 port), sw1, nodeB (2 ports), nodeC (1 port): hosts
	 * A:1 = 1, B:1 = 2, B:2 = 3, C:1 = 4 (the switch has none). */
	struct ibfs_topology *t = ibfs__topo_new("multi");
	int a = add(t, "nodeA", IBFS_NODE_HCA, 1);
	int s = add(t, "sw1", IBFS_NODE_SWITCH, 4);
	int b = add(t, "nodeB", IBFS_NODE_HCA, 2);
	int c = add(t, "nodeC", IBFS_NODE_HCA, 1);
	struct ibfs_eth_hosts hs;
	struct ibfs_diag d;
	int n, p;

	wire(t, a, 1, s, 1);
	wire(t, b, 1, s, 2);
	wire(t, b, 2, s, 3);
	wire(t, c, 1, s, 4);
	ck_assert_uint_eq(ibfs__eth_host_count(t), 4);
	ck_assert_int_eq(ibfs__eth_hosts_init(&hs, t, &d), 0);
	ck_assert_uint_eq(hs.n, 4);
	ck_assert_uint_eq(ibfs__eth_host_id(&hs, t, a, 1), 1);
	ck_assert_uint_eq(ibfs__eth_host_id(&hs, t, b, 1), 2);
	ck_assert_uint_eq(ibfs__eth_host_id(&hs, t, b, 2), 3);
	ck_assert_uint_eq(ibfs__eth_host_id(&hs, t, c, 1), 4);
	ck_assert_uint_eq(ibfs__eth_host_id(&hs, t, s, 1), 0);
	ck_assert_uint_eq(ibfs__eth_host_id(&hs, t, b, 0), 0);
	ck_assert_uint_eq(ibfs__eth_host_id(&hs, t, b, 3), 0);
	ck_assert_uint_eq(ibfs__eth_host_id(&hs, t, -1, 1), 0);
	ck_assert_uint_eq(ibfs__eth_host_id(&hs, t, 4, 1), 0);
	ck_assert_int_eq(ibfs__eth_host_port(&hs, 3, &n, &p), 0);
	ck_assert_int_eq(n, b);
	ck_assert_int_eq(p, 2);
	ck_assert_int_eq(ibfs__eth_host_port(&hs, 1, &n, &p), 0);
	ck_assert_int_eq(n, a);
	ck_assert_int_eq(p, 1);
	ck_assert_int_eq(ibfs__eth_host_port(&hs, 0, &n, &p), -1);
	ck_assert_int_eq(ibfs__eth_host_port(&hs, 5, &n, &p), -1);
	ibfs__eth_hosts_free(&hs);

	struct ibfs_eth_routes *r = routes(t, 1, NULL);

	for (uint32_t h = 1; h <= 4; h++)
		expect_one(t, r, s, h, (int)h);
	/* B's port 1 to its port 2 goes through the switch: 2 links. */
	struct ibfs_eth_flow f = {2, 3, 9};
	uint32_t load[8];

	ck_assert_int_eq(ibfs__eth_flows_max_load(t, r, &f, 1, load, &d), 1);
	ck_assert_uint_eq(load[2], 1); /* link 1 (B:1 - sw1:2) from B */
	ck_assert_uint_eq(load[5], 1); /* link 2 (B:2 - sw1:3) from sw1 */
	routes_free(t, r);
	ibfs__topo_free(t);
}
END_TEST

START_TEST(too_many_hosts)
{
	/* 65,536 HCA ports are one more than a 16-bit host id numbers. */
	struct ibfs_topology *t = ibfs__topo_new("big");
	struct ibfs_eth_routes r[300];
	struct ibfs_diag d;

	for (int i = 0; i < 258; i++) {
		char id[16];

		snprintf(id, sizeof(id), "h%d", i);
		add(t, id, IBFS_NODE_HCA, 254);
	}
	add(t, "h258", IBFS_NODE_HCA, 4); /* 258 x 254 + 4 = 65536 */
	ck_assert_uint_eq(ibfs__eth_host_count(t), 65536);
	ck_assert_int_eq(ibfs__eth_routes_build(t, 1, r, &d), -1);
	ck_assert_str_eq(d.msg,
			 "65536 HCA ports are more hosts than the 65535 a 16-bit host id numbers");
	ibfs__topo_free(t);
}
END_TEST

START_TEST(seeds)
{
	struct ibfs_topology *t = fat_tree("8", "2");
	struct ibfs_eth_routes *r1 = routes(t, 1, NULL);
	struct ibfs_eth_routes *r2 = routes(t, 2, NULL);

	for (size_t i = 0; i < t->nnodes; i++) {
		if (t->nodes[i].type == IBFS_NODE_HCA) {
			ck_assert_uint_eq(r1[i].nhosts, 0);
			continue;
		}
		ck_assert_uint_eq(r1[i].seed,
				  ibfs__eth_switch_seed(1, (int)i));
		ck_assert_uint_ne(r1[i].seed, r2[i].seed);
		for (size_t j = 0; j < i; j++)
			if (t->nodes[j].type == IBFS_NODE_SWITCH)
				ck_assert_uint_ne(r1[i].seed, r1[j].seed);
		/* The tables themselves do not depend on the seed. */
		ck_assert_mem_eq(r1[i].off, r2[i].off, 34 * sizeof(uint32_t));
		ck_assert_mem_eq(r1[i].ports, r2[i].ports, r1[i].off[33]);
	}
	/* Distinct for every node of a large fabric (a bijection). */
	for (int i = 1; i < 4096; i++)
		ck_assert_uint_ne(ibfs__eth_switch_seed(5, i),
				  ibfs__eth_switch_seed(5, i - 1));
	routes_free(t, r2);
	routes_free(t, r1);
	ibfs__topo_free(t);
}
END_TEST

/* d-mod-k on the 8-port two-level fat tree, as single next hops: a leaf
 * sends host h up port 5 + (h-1)%4, a spine down to leaf ceil(h/4). */
static struct ibfs_eth_routes *dmodk(const struct ibfs_topology *t)
{
	struct ibfs_eth_routes *r = calloc(t->nnodes, sizeof(*r));

	ck_assert_ptr_nonnull(r);
	for (long i = 1; i <= 12; i++) {
		int spine = i > 8;
		int n = spine ? node(t, "spine%ld", i - 8)
			      : node(t, "leaf%ld", i);
		struct ibfs_eth_routes *e = &r[n];

		e->nhosts = 32;
		e->off = malloc(34 * sizeof(*e->off));
		e->ports = malloc(32);
		ck_assert(e->off && e->ports);
		for (uint32_t h = 1; h <= 33; h++)
			e->off[h] = h - 1;
		e->off[0] = 0;
		for (uint32_t h = 1; h <= 32; h++) {
			uint32_t leaf = (h - 1) / 4 + 1;

			if (spine)
				e->ports[h - 1] = (uint8_t)leaf;
			else if (leaf == (uint32_t)i)
				e->ports[h - 1] = (uint8_t)((h - 1) % 4 + 1);
			else
				e->ports[h - 1] = (uint8_t)(5 + (h - 1) % 4);
		}
	}
	return r;
}

/* Busiest directed link, after checking the links crossed add up. */
static long max_load(const struct ibfs_topology *t,
		     const struct ibfs_eth_routes *r,
		     const struct ibfs_eth_flow *f, size_t n)
{
	uint32_t load[2 * 64], sum = 0, want = 0;
	struct ibfs_diag d;

	ck_assert_uint_eq(t->nlinks, 64);
	long max = ibfs__eth_flows_max_load(t, r, f, n, load, &d);

	ck_assert_msg(max >= 1, "%s", d.msg);
	for (size_t i = 0; i < 2 * t->nlinks; i++)
		sum += load[i];
	for (size_t i = 0; i < n; i++)
		want += (f[i].src - 1) / 4 == (f[i].dst - 1) / 4 ? 2 : 4;
	ck_assert_uint_eq(sum, want);
	/* A leaf's 4 hosts send at most 4 flows up, receive at most 4. */
	ck_assert_int_le(max, 4);
	return max;
}

START_TEST(permutations)
{
	struct ibfs_topology *t = fat_tree("8", "2");
	struct ibfs_eth_routes *dk = dmodk(t);
	struct ibfs_eth_flow f[32];
	int collided = 0;

	/* Shifts by 4j: one flow a link under d-mod-k. */
	for (uint32_t j = 1; j < 8; j++) {
		for (uint32_t h = 1; h <= 32; h++)
			f[h - 1] = (struct ibfs_eth_flow){
				h, (h - 1 + 4 * j) % 32 + 1, h};
		long m_dk = max_load(t, dk, f, 32);
		struct ibfs_eth_routes *r = routes(t, j, NULL);
		long m_ecmp = max_load(t, r, f, 32);

		ck_assert_int_eq(m_dk, 1);
		printf("shift by %2u: busiest link d-mod-k %ld, ECMP (seed %u) %ld\n",
		       4 * j, m_dk, j, m_ecmp);
		fflush(stdout);
		routes_free(t, r);
	}
	/* Random permutations (Fisher-Yates), seeds 1-8. */
	for (uint32_t seed = 1; seed <= 8; seed++) {
		struct ibfs_rng g;
		uint32_t perm[32];

		ibfs__rng_seed(&g, seed, 0);
		for (uint32_t i = 0; i < 32; i++)
			perm[i] = i + 1;
		for (uint32_t i = 31; i > 0; i--) {
			uint32_t k = (uint32_t)ibfs__rng_below(&g, i + 1);
			uint32_t x = perm[i];

			perm[i] = perm[k];
			perm[k] = x;
		}
		for (uint32_t h = 1; h <= 32; h++)
			f[h - 1] = (struct ibfs_eth_flow){h, perm[h - 1], h};
		struct ibfs_eth_routes *r = routes(t, seed, NULL);
		long m_ecmp = max_load(t, r, f, 32);
		long m_dk = max_load(t, dk, f, 32);

		collided |= m_ecmp > 1;
		printf("random permutation, seed %u: busiest link ECMP %ld, d-mod-k %ld\n",
		       seed, m_ecmp, m_dk);
		fflush(stdout);
		routes_free(t, r);
	}
	ck_assert_msg(collided, "no ECMP hash collision in 8 permutations");
	routes_free(t, dk);
	ibfs__topo_free(t);
}
END_TEST

static Suite *eth_routes_suite(void)
{
	Suite *s = suite_create("eth_routes");
	TCase *tc = tcase_create("eth_routes");

	tcase_add_test(tc, fat_tree_two_levels);
	tcase_add_test(tc, fat_tree_three_levels);
	tcase_add_test(tc, ring_even_and_odd);
	tcase_add_test(tc, torus_4x4);
	tcase_add_test(tc, link_down);
	tcase_add_test(tc, unreachable);
	tcase_add_test(tc, multi_port_hca);
	tcase_add_test(tc, too_many_hosts);
	tcase_add_test(tc, seeds);
	tcase_add_test(tc, permutations);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(eth_routes_suite)
