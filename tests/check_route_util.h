/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the routing tests (tests/check_route_*.c): build a
 * generated fabric as a subnet with LIDs, route it, and compute distances
 * independently of the engines (Floyd-Warshall on the switch graph) so
 * tests compare the tables against first principles.
 */
#ifndef IBFS_TESTS_CHECK_ROUTE_UTIL_H
#define IBFS_TESTS_CHECK_ROUTE_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_common.h"
#include "fabric/topo_gen.h"
#include "subnet_manager/credit_loop.h"
#include "subnet_manager/routing.h"

struct rt {
	struct ibfs_topology *t;
	struct ibfs_subnet *sn;
	int *fw; /* nsw x nsw switch distances, 1000 = none */
};

/* kv: "name", "value", ... NULL. */
static inline struct rt rt_make(const char *kind, const char *const *kv,
				int data_vls, int lmc)
{
	struct rt r;
	struct ibfs_gen_param p[8];
	int n = 0;
	struct ibfs_diag d;
	while (kv && kv[2 * n]) {
		p[n] = (struct ibfs_gen_param){kv[2 * n], kv[2 * n + 1]};
		n++;
	}
	r.t = ibfs__topo_new("t");
	r.t->def.data_vls = data_vls;
	ck_assert_int_eq(ibfs__topo_generate(r.t, kind, p, n, "", "t", 1, &d),
			 0);
	ibfs__topo_assign_guids(r.t, IBFS_TOPO_SWITCH_GUID_BASE,
				IBFS_TOPO_CA_GUID_BASE);
	r.sn = ibfs__subnet_from_topo(r.t, &d);
	ck_assert_ptr_nonnull(r.sn);
	ck_assert_int_eq(ibfs__subnet_assign_lids(r.sn, lmc, &d), 0);
	int ns = r.sn->nsw;
	r.fw = malloc(sizeof(int) * (size_t)(ns * ns + 1));
	for (int i = 0; i < ns; i++)
		for (int j = 0; j < ns; j++)
			r.fw[i * ns + j] = i == j ? 0 : 1000;
	for (int s = 0; s < ns; s++) {
		const struct ibfs_sn_node *nd = &r.sn->nodes[r.sn->sw_node[s]];
		for (int q = 1; q <= nd->nports; q++) {
			int peer = nd->ports[q].peer;
			if (peer >= 0 &&
			    r.sn->nodes[peer].type == IBFS_NODE_SWITCH)
				r.fw[s * ns + r.sn->nodes[peer].sw] = 1;
		}
	}
	for (int k = 0; k < ns; k++)
		for (int i = 0; i < ns; i++)
			for (int j = 0; j < ns; j++) {
				int via = r.fw[i * ns + k] + r.fw[k * ns + j];
				if (via < r.fw[i * ns + j])
					r.fw[i * ns + j] = via;
			}
	return r;
}

static inline void rt_free(struct rt *r)
{
	ibfs__subnet_free(r->sn);
	ibfs__topo_free(r->t);
	free(r->fw);
}

static inline void rt_route(struct rt *r, const char *engine,
			    const char *expect_engine)
{
	struct ibfs_diag d = {{0}};
	ck_assert_msg(ibfs__routing_run(r->sn, engine, NULL, &d) == 0, "%s",
		      d.msg);
	ck_assert_msg(!strcmp(r->sn->engine, expect_engine),
		      "engine %s, expected %s; log: %s", r->sn->engine,
		      expect_engine, r->sn->log ? r->sn->log : "");
}

/* Switch index of a node id. */
static inline int rt_sw(const struct rt *r, const char *id)
{
	int n = ibfs__topo_find(r->t, id);
	ck_assert_int_ge(n, 0);
	return r->sn->nodes[n].sw;
}

/* Base LID of a CA's port 1. */
static inline unsigned rt_lid(const struct rt *r, const char *id)
{
	int n = ibfs__topo_find(r->t, id);
	ck_assert_int_ge(n, 0);
	return r->sn->nodes[n].ports[1].lid;
}

/*
 * Follows the LFTs from switch s to lid; stores the switches visited
 * (s first) in path[] and returns their number, or -1 if the walk does
 * not end at the LID's port within 64 hops.
 */
static inline int rt_walk(const struct rt *r, int s, unsigned lid, int *path)
{
	const struct ibfs_subnet *sn = r->sn;
	int n = 0;
	while (n < 64) {
		path[n++] = s;
		int p = *ibfs__subnet_lft(sn, s, lid);
		const struct ibfs_sn_node *nd = &sn->nodes[sn->sw_node[s]];
		if (p == 0)
			return sn->lid_node[lid] == sn->sw_node[s] ? n : -1;
		if (p == IBFS_LFT_NO_PATH || p > nd->nports ||
		    nd->ports[p].peer < 0)
			return -1;
		int peer = nd->ports[p].peer;
		if (sn->nodes[peer].type != IBFS_NODE_SWITCH)
			return peer == sn->lid_node[lid] &&
					       nd->ports[p].peer_port ==
						       sn->lid_port[lid]
				       ? n
				       : -1;
		s = sn->nodes[peer].sw;
	}
	return -1;
}

/* Every (switch, CA LID) route is a shortest path. */
static inline void rt_assert_all_shortest(const struct rt *r)
{
	const struct ibfs_subnet *sn = r->sn;
	int path[64];
	for (unsigned lid = 1; lid <= sn->max_lid; lid++) {
		if (sn->lid_node[lid] < 0)
			continue;
		int tp, t = ibfs__subnet_lid_switch(sn, lid, &tp);
		for (int s = 0; s < sn->nsw; s++) {
			int n = rt_walk(r, s, lid, path);
			ck_assert_msg(n > 0, "switch %d has no route to LID %u",
				      s, lid);
			ck_assert_msg(n - 1 == r->fw[s * sn->nsw + t],
				      "switch %d to LID %u: %d hops, shortest %d",
				      s, lid, n - 1, r->fw[s * sn->nsw + t]);
		}
	}
}

static inline int rt_loops(const struct rt *r)
{
	char buf[1024];
	int v = ibfs__credit_loops(r->sn, buf, sizeof(buf));
	ck_assert_int_ge(v, 0);
	return v;
}

/* A LID of a CA port. */
static inline int rt_is_ca_lid(const struct ibfs_subnet *sn, unsigned lid)
{
	return sn->lid_node[lid] >= 0 &&
	       sn->nodes[sn->lid_node[lid]].type != IBFS_NODE_SWITCH;
}

/*
 * The dependencies of the path from CA LID s to CA LID d into dep[] (nch x
 * nch channels, a channel being switch x stride + egress port), followed
 * hop by hop with rt_walk.
 */
static inline void rt_add_path_deps(const struct rt *r, unsigned s,
				    unsigned d, int stride, char *dep,
				    size_t nch)
{
	const struct ibfs_subnet *sn = r->sn;
	int path[64];
	int n = rt_walk(r, ibfs__subnet_lid_switch(sn, s, NULL), d, path);
	ck_assert_int_gt(n, 0);
	for (int i = 0; i + 2 < n; i++) {
		int x = path[i], y = path[i + 1];
		size_t a = (size_t)x * stride + *ibfs__subnet_lft(sn, x, d);
		size_t b = (size_t)y * stride + *ibfs__subnet_lft(sn, y, d);
		dep[a * nch + b] = 1;
	}
}

/* Kahn's algorithm empties the graph dep[] of nch nodes: no cycle. */
static inline int rt_acyclic(const char *dep, size_t nch)
{
	int *indeg = calloc(nch, sizeof(int)), *q = malloc(nch * sizeof(int));
	for (size_t a = 0; a < nch; a++)
		for (size_t b = 0; b < nch; b++)
			indeg[b] += dep[a * nch + b];
	size_t qn = 0;
	for (size_t a = 0; a < nch; a++)
		if (!indeg[a])
			q[qn++] = (int)a;
	for (size_t i = 0; i < qn; i++)
		for (size_t b = 0; b < nch; b++)
			if (dep[(size_t)q[i] * nch + b] && !--indeg[b])
				q[qn++] = (int)b;
	free(indeg);
	free(q);
	return qn == nch;
}

/*
 * Deadlock freedom checked apart from credit_loop.c: the channels of
 * every CA-to-CA path on the VL of its own SL make one dependency graph
 * per VL. Returns whether none has a cycle.
 */
static inline int rt_paths_acyclic(const struct rt *r)
{
	const struct ibfs_subnet *sn = r->sn;
	int stride = 0, ok = 1;
	for (int s = 0; s < sn->nsw; s++)
		if (sn->nodes[sn->sw_node[s]].nports + 1 > stride)
			stride = sn->nodes[sn->sw_node[s]].nports + 1;
	size_t nch = (size_t)sn->nsw * (size_t)stride;
	char *dep = malloc(nch * nch);
	for (int vl = 0; vl < sn->data_vls && ok; vl++) {
		memset(dep, 0, nch * nch);
		for (unsigned d = 1; d <= sn->max_lid; d++)
			for (unsigned s = 1; s <= sn->max_lid; s++)
				if (rt_is_ca_lid(sn, s) &&
				    rt_is_ca_lid(sn, d) &&
				    sn->sl2vl[ibfs__subnet_path_sl(sn, s, d)] ==
					    vl)
					rt_add_path_deps(r, s, d, stride, dep,
							 nch);
		ok = rt_acyclic(dep, nch);
	}
	free(dep);
	return ok;
}

/*
 * Leaves leaf1, leaf2 and spines spine1, spine2 (nodes 0-3, 4 ports each),
 * HCAs h1 under leaf1 and h2 under leaf2 (4, 5), and the switch-to-switch
 * links given as {leaf, port, spine, port}: the subnet, with its LIDs.
 */
static inline struct ibfs_subnet *
rt_two_leaves(struct ibfs_topology **tp, const int (*up)[4], int nup)
{
	struct ibfs_topology *t = ibfs__topo_new("t");
	struct ibfs_diag d;
	static const char *const id[] = {"leaf1", "leaf2", "spine1", "spine2",
					 "h1", "h2"};
	for (int i = 0; i < 6; i++)
		ck_assert_int_eq(ibfs__topo_add_node(t, id[i],
						     i < 4 ? IBFS_NODE_SWITCH
							   : IBFS_NODE_HCA,
						     i < 4 ? 4 : 1, 1, &d),
				 i);
	const int ca[2][4] = {{0, 1, 4, 1}, {1, 1, 5, 1}};
	for (int i = 0; i < 2 + nup; i++) {
		const int *l = i < 2 ? ca[i] : up[i - 2];
		ck_assert_int_ge(ibfs__topo_add_link(t, l[0], l[1], l[2], l[3],
						     IBFS_SPEED_EDR, 4, 2000,
						     1, &d), 0);
	}
	ibfs__topo_assign_guids(t, 0x200000, 0x100000);
	struct ibfs_subnet *sn = ibfs__subnet_from_topo(t, &d);
	ck_assert_ptr_nonnull(sn);
	ck_assert_int_eq(ibfs__subnet_assign_lids(sn, 0, &d), 0);
	*tp = t;
	return sn;
}

#endif
