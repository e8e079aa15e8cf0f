/* SPDX-License-Identifier: MIT */
/*
 * A star of n ideal HCAs (h0..h{n-1}, LIDs 1..n) on one switch of n ports
 * (LID 100, routing latency `latency`), each on 4x EDR with 2 m of cable,
 * the switch's LFT written by hand and a direct (SimGrid-free) exec: the
 * fixture of check_hca_switch.c and check_mcast_hca.c.
 */
#ifndef IBFS_TESTS_HCA_STAR_H
#define IBFS_TESTS_HCA_STAR_H

#include <stdio.h>

#include "check_common.h"
#include "hca/direct_exec.h"
#include "hca/hca.h"
#include "switch/switch.h"

#define HCA_STAR_MAX 8

struct hca_star {
	struct ibfs_topology *t;
	struct ibfs_fabric *f;
	struct ibfs_switch *sw;
	struct ibfs_hca *h[HCA_STAR_MAX];
	struct ibfs_direct_exec dx;
	int n;
};

static inline void hca_star_make(struct hca_star *S, int n,
				 ibfs_time_t latency)
{
	struct ibfs_diag d;

	ck_assert_int_le(n, HCA_STAR_MAX);
	S->n = n;
	S->t = ibfs__topo_new("star");
	int s = ibfs__topo_add_node(S->t, "sw", IBFS_NODE_SWITCH, n, 0, &d);

	S->t->nodes[s].latency = latency;
	for (int i = 0; i < n; i++) {
		char id[8];

		snprintf(id, sizeof(id), "h%d", i);
		int h = ibfs__topo_add_node(S->t, id, IBFS_NODE_HCA, 1, 0, &d);

		ck_assert_int_ge(ibfs__topo_add_link(S->t, h, 1, s, i + 1,
						     IBFS_SPEED_EDR, 4, 2000, 0,
						     &d), 0);
	}
	S->f = ibfs__fabric_new(S->t, 1, 1);
	S->sw = ibfs__switch_create(S->f, s, &d);
	ck_assert_msg(S->sw != NULL, "%s", d.msg);
	ibfs__switch_set_lid(S->sw, 100);
	struct ibfs_exec ex = ibfs__direct_exec(&S->dx, &S->f->eq);

	for (int i = 0; i < n; i++) {
		S->h[i] = ibfs__hca_create(S->f, i + 1, "ideal", ex, &d);
		ck_assert_msg(S->h[i] != NULL, "%s", d.msg);
		ibfs__hca_set_lid(S->h[i], 1, (uint16_t)(i + 1), 0);
		ck_assert_int_eq(ibfs__switch_set_lft(S->sw, (uint16_t)(i + 1),
						      (uint8_t)(i + 1)), 0);
	}
}

static inline void hca_star_free(struct hca_star *S)
{
	for (int i = 0; i < S->n; i++)
		ibfs__hca_free(S->h[i]);
	ibfs__switch_destroy(S->sw);
	ibfs__fabric_free(S->f);
	ibfs__topo_free(S->t);
}

#endif
