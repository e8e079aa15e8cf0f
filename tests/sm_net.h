/* SPDX-License-Identifier: MIT */
/*
 * The in-band subnet manager's test networks (check_sm.c, check_sm_mcast.c):
 * a star of one switch or a two-level fat tree, ideal HCAs on the direct
 * execution interface, 4x EDR (80 ps a byte), 2 m cables (P = 10 ns) and
 * switch latency L = 100 ns; net_sweep runs the SM until the queue is
 * empty and checks that it brought the fabric up once.
 */
#ifndef IBFS_TESTS_SM_NET_H
#define IBFS_TESTS_SM_NET_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/topo_gen.h"
#include "hca/direct_exec.h"
#include "hca/hca.h"
#include "subnet_manager/sm.h"
#include "switch/switch.h"

#define P (10 * IBFS_NS)
#define L (100 * IBFS_NS)
#define SMP_WIRE 290

static inline ibfs_time_t ser(uint64_t bytes)
{
	return bytes * 80;
}

struct net {
	struct ibfs_topology *t;
	struct ibfs_fabric *f;
	struct ibfs_switch **sw; /* by node, NULL for HCAs */
	struct ibfs_hca **hca;   /* by node, NULL for switches */
	struct ibfs_direct_exec dx;
	struct ibfs_sm *sm;
	int up_calls;
	ibfs_time_t up_at;
};

static inline void net_devices(struct net *n)
{
	struct ibfs_diag d;

	ibfs__topo_assign_guids(n->t, IBFS_TOPO_SWITCH_GUID_BASE,
				IBFS_TOPO_CA_GUID_BASE);
	n->f = ibfs__fabric_new(n->t, 1, 0);
	ck_assert_ptr_nonnull(n->f);
	n->sw = calloc(n->t->nnodes, sizeof(*n->sw));
	n->hca = calloc(n->t->nnodes, sizeof(*n->hca));
	struct ibfs_exec ex = ibfs__direct_exec(&n->dx, &n->f->eq);

	for (size_t i = 0; i < n->t->nnodes; i++) {
		if (n->t->nodes[i].type == IBFS_NODE_SWITCH) {
			n->t->nodes[i].latency = L;
			n->sw[i] = ibfs__switch_create(n->f, (int)i, &d);
			ck_assert_msg(n->sw[i] != NULL, "%s", d.msg);
			ibfs__switch_set_latency(n->sw[i], L);
		} else {
			n->hca[i] = ibfs__hca_create(n->f, (int)i, "ideal", ex,
						     &d);
			ck_assert_msg(n->hca[i] != NULL, "%s", d.msg);
		}
	}
}

/* A switch of nports ports with nh HCAs on ports 1..nh (node 0 the
 * switch, node i the HCA on port i), with vls data VLs. */
static inline void star_make_vls(struct net *n, int nports, int nh, int vls)
{
	struct ibfs_diag d;

	memset(n, 0, sizeof(*n));
	n->t = ibfs__topo_new("star");
	n->t->def.data_vls = vls;
	int s = ibfs__topo_add_node(n->t, "sw", IBFS_NODE_SWITCH, nports, 0,
				    &d);
	for (int i = 1; i <= nh; i++) {
		char id[8];

		snprintf(id, sizeof(id), "h%d", i);
		int h = ibfs__topo_add_node(n->t, id, IBFS_NODE_HCA, 1, 0, &d);

		ck_assert_int_ge(ibfs__topo_add_link(n->t, h, 1, s, i,
						     IBFS_SPEED_EDR, 4, 2000,
						     0, &d), 0);
	}
	net_devices(n);
}

static inline void star_make(struct net *n, int nports, int nh)
{
	star_make_vls(n, nports, nh, 1);
}

static inline void fat_tree_make(struct net *n, int k)
{
	struct ibfs_diag d;
	char ks[8];

	memset(n, 0, sizeof(*n));
	snprintf(ks, sizeof(ks), "%d", k);
	struct ibfs_gen_param p[] = { { "k", ks }, { "levels", "2" } };

	n->t = ibfs__topo_new("ft");
	ibfs__topo_set_defaults(&n->t->def);
	ck_assert_msg(ibfs__topo_generate(n->t, "fat-tree", p, 2, "ft", "x",
					  1, &d) == 0, "%s", d.msg);
	net_devices(n);
}

static inline void net_free(struct net *n)
{
	ibfs__sm_free(n->sm);
	for (size_t i = 0; i < n->t->nnodes; i++) {
		ibfs__switch_destroy(n->sw[i]);
		ibfs__hca_free(n->hca[i]);
	}
	free(n->sw);
	free(n->hca);
	ibfs__fabric_free(n->f);
	ibfs__topo_free(n->t);
}

static inline void on_up(void *ctx, ibfs_time_t t)
{
	struct net *n = ctx;

	n->up_calls++;
	n->up_at = t;
}

static inline void net_sweep(struct net *n, int sm_node, const char *engine,
		      int lmc, int window)
{
	struct ibfs_diag d;

	n->sm = ibfs__sm_start(n->f, sm_node, engine, lmc, on_up, n, &d);
	ck_assert_msg(n->sm != NULL, "%s", d.msg);
	if (window)
		ibfs__sm_set_max_wire(n->sm, window);
	ibfs__eq_run(&n->f->eq, IBFS_TIME_NEVER);
	struct ibfs_sm_stats st;

	ibfs__sm_stats(n->sm, &st);
	ck_assert_msg(st.state == 1, "sweep failed: %s", st.error);
	ck_assert_int_eq(n->up_calls, 1);
	ck_assert_uint_eq(n->up_at, st.up);
}

#endif
