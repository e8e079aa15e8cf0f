/* SPDX-License-Identifier: MIT */
/*
 * The test fixture of the link and timeline suites (check_link.c,
 * check_link_fcp.c, check_trace.c): two
 * endpoints joined by one cable, the serialization time they are checked
 * against, and helpers that add flows and check conservation.
 *
 * 4x EDR carries 4 x 25.78125 Gb/s x 64/66 = 100 Gb/s (IBA 6.3), so n bytes
 * take n x 80 ps; a cable takes 5 ns per metre; credits are 64-byte blocks.
 */
#ifndef IBFS_TESTS_LINK_PAIR_H
#define IBFS_TESTS_LINK_PAIR_H

#include "check_common.h"

#include <string.h>

#include "fabric/endpoint.h"
#include "fabric/fabric.h"
#include "fabric/topology.h"

/* 4x EDR in bit/s, from the lane rate and 64b/66b encoding. */
static const uint64_t EDR4X_BPS = 4ULL * 25781250000ULL * 64 / 66;

static inline ibfs_time_t ser(uint64_t bytes)
{
	/* Rounded up to the picosecond, as the model does. */
	return (bytes * 8 * 1000000000000ULL + EDR4X_BPS - 1) / EDR4X_BPS;
}

struct pair {
	struct ibfs_topology *t;
	struct ibfs_fabric *f;
	struct ibfs_endpoint *a, *b;
};

/*
 * Endpoints "a" (LID 1) and name_b (LID 2), port 1 to port 1, 4x EDR over
 * cable_mm millimetres; each port's input buffer holds `buffer` bytes
 * shared by data_vls data VLs; data_mode 1 moves payload bytes.
 */
static inline void pair_make_named(struct pair *x, const char *name_b,
				   uint64_t cable_mm, uint64_t buffer,
				   int data_vls, int data_mode)
{
	struct ibfs_diag d;

	x->t = ibfs__topo_new("pair");
	ck_assert_ptr_nonnull(x->t);
	x->t->def.buffer = buffer;
	x->t->def.data_vls = data_vls;
	int na = ibfs__topo_add_node(x->t, "a", IBFS_NODE_HCA, 1, 0, &d);
	int nb = ibfs__topo_add_node(x->t, name_b, IBFS_NODE_HCA, 1, 0, &d);

	ck_assert_int_eq(na, 0);
	ck_assert_int_eq(nb, 1);
	ck_assert_int_ge(ibfs__topo_add_link(x->t, na, 1, nb, 1,
					     IBFS_SPEED_EDR, 4, cable_mm, 0,
					     &d), 0);
	x->f = ibfs__fabric_new(x->t, 1, data_mode);
	ck_assert_ptr_nonnull(x->f);
	x->a = ibfs__endpoint_create(x->f, na);
	x->b = ibfs__endpoint_create(x->f, nb);
	ck_assert_ptr_nonnull(x->a);
	ck_assert_ptr_nonnull(x->b);
	ibfs__endpoint_set_lid(x->a, 1, 0);
	ibfs__endpoint_set_lid(x->b, 2, 0);
}

static inline void pair_make(struct pair *x, uint64_t cable_mm,
			     uint64_t buffer, int data_vls, int data_mode)
{
	pair_make_named(x, "b", cable_mm, buffer, data_vls, data_mode);
}

static inline void pair_free(struct pair *x)
{
	ibfs__endpoint_destroy(x->a);
	ibfs__endpoint_destroy(x->b);
	ibfs__fabric_free(x->f);
	ibfs__topo_free(x->t);
}

static inline void flow(struct ibfs_endpoint *ep, uint16_t dlid, uint8_t sl,
			uint32_t payload, uint64_t count, ibfs_time_t start)
{
	struct ibfs_diag d;
	struct ibfs_ep_flow_spec s = {
		.dlid = dlid, .sl = sl, .payload = payload, .count = count,
		.start = start,
	};

	ck_assert_int_eq(ibfs__endpoint_add_flow(ep, &s, &d), 0);
}

static inline void conserved(const struct ibfs_fabric *f)
{
	char msg[512] = "";

	ck_assert_msg(ibfs__fabric_check(f, msg, sizeof(msg)) == 0, "%s",
		      msg);
}

#endif
