/* SPDX-License-Identifier: MIT */
/*
 * The test fixture of the switch and fault suites (check_switch.c,
 * check_switch_tables.c, check_fault.c): one switch with endpoints around it (a star),
 * link figures and helpers that add flows and check conservation.
 *
 * Figures used: 4x EDR = 4 x 25.78125 Gb/s x 64/66 = 100 Gb/s and 1x SDR =
 * 2.5 Gb/s x 8/10 = 2 Gb/s (IBA 6.3); 5 ns per metre of cable; raw packets
 * of LRH 8 + payload + VCRC 2 bytes; credits of 64 bytes.
 */
#ifndef IBFS_TESTS_SWITCH_STAR_H
#define IBFS_TESTS_SWITCH_STAR_H

#include "check_common.h"

#include <stdio.h>
#include <string.h>

#include "fabric/endpoint.h"
#include "fabric/fabric.h"
#include "fabric/topology.h"
#include "switch/switch.h"

static const uint64_t EDR4X_BPS = 4ULL * 25781250000ULL * 64 / 66;
static const uint64_t SDR1X_BPS = 2500000000ULL * 8 / 10;

static inline ibfs_time_t ser_at(uint64_t bps, uint64_t bytes)
{
	return (bytes * 8 * 1000000000000ULL + bps - 1) / bps;
}

static inline ibfs_time_t ser(uint64_t bytes)
{
	return ser_at(EDR4X_BPS, bytes);
}

#define MAXEP 8

/*
 * Endpoint i (LID i + 1) on switch port i + 1 (port0 + i with star_opts'
 * port0); the switch has LID 100.
 */
struct star {
	struct ibfs_topology *t;
	struct ibfs_fabric *f;
	struct ibfs_switch *sw;
	struct ibfs_endpoint *ep[MAXEP];
	int k;
};

struct star_opts {
	uint64_t buffer;
	int data_vls;
	int data_mode;
	int store_forward;
	enum ibfs_speed speed0; /* speed of endpoint 0's link */
	int width0;
	uint64_t cable1_mm;     /* endpoint 1's cable, default 2 m */
	uint64_t buffer1;       /* endpoint 1's input buffer */
	int slow;               /* 1 + index of an endpoint on 1x SDR, 0: none */
	int track;              /* endpoints record arrivals (16, up to 256) */
	int port0;              /* endpoint 0's switch port, 0: port 1 */
	int sw_last;            /* the switch attached after the endpoints */
};

static inline void star_make(struct star *x, int k, const struct star_opts *o)
{
	struct ibfs_diag d;
	char id[16];
	int p0 = o->port0 ? o->port0 : 1;

	memset(x, 0, sizeof(*x));
	x->k = k;
	x->t = ibfs__topo_new("star");
	ck_assert_ptr_nonnull(x->t);
	x->t->def.buffer = o->buffer ? o->buffer : 32 * 1024;
	x->t->def.data_vls = o->data_vls ? o->data_vls : 1;
	int s = ibfs__topo_add_node(x->t, "sw", IBFS_NODE_SWITCH, p0 + k - 1,
				    0, &d);

	ck_assert_int_eq(s, 0);
	x->t->nodes[s].store_forward = o->store_forward;
	for (int i = 0; i < k; i++) {
		snprintf(id, sizeof(id), "h%d", i);
		int h = ibfs__topo_add_node(x->t, id, IBFS_NODE_HCA, 1, 0, &d);

		ck_assert_int_eq(h, i + 1);
		enum ibfs_speed sp = IBFS_SPEED_EDR;
		int w = 4;
		uint64_t cable = 2000;

		if (i == 0 && o->width0) {
			sp = o->speed0;
			w = o->width0;
		}
		if (o->slow && i == o->slow - 1) {
			sp = IBFS_SPEED_SDR;
			w = 1;
		}
		if (i == 1 && o->cable1_mm)
			cable = o->cable1_mm;
		if (i == 1 && o->buffer1)
			x->t->nodes[h].buffer = o->buffer1;
		ck_assert_int_ge(ibfs__topo_add_link(x->t, h, 1, s, p0 + i,
						     sp, w, cable, 0, &d),
				 0);
	}
	x->f = ibfs__fabric_new(x->t, 1, o->data_mode);
	ck_assert_ptr_nonnull(x->f);
	if (!o->sw_last) {
		x->sw = ibfs__switch_create(x->f, s, &d);
		ck_assert_msg(x->sw != NULL, "%s", d.msg);
	}
	for (int i = 0; i < k; i++) {
		x->ep[i] = ibfs__endpoint_create(x->f, i + 1);
		ck_assert_ptr_nonnull(x->ep[i]);
		ibfs__endpoint_set_lid(x->ep[i], (uint16_t)(i + 1), 0);
		if (o->track)
			ck_assert_int_eq(ibfs__endpoint_track(x->ep[i], 16, 256),
					 0);
	}
	if (o->sw_last) {
		x->sw = ibfs__switch_create(x->f, s, &d);
		ck_assert_msg(x->sw != NULL, "%s", d.msg);
	}
	ibfs__switch_set_lid(x->sw, 100);
	for (int i = 0; i < k; i++)
		ck_assert_int_eq(ibfs__switch_set_lft(x->sw, (uint16_t)(i + 1),
						      (uint8_t)(p0 + i)), 0);
}

static inline void star_free(struct star *x)
{
	for (int i = 0; i < x->k; i++)
		ibfs__endpoint_destroy(x->ep[i]);
	ibfs__switch_destroy(x->sw);
	ibfs__fabric_free(x->f);
	ibfs__topo_free(x->t);
}

static inline void flow_sl(struct ibfs_endpoint *ep, uint16_t dlid,
			   uint8_t sl, uint32_t payload, uint64_t count)
{
	struct ibfs_diag d;
	struct ibfs_ep_flow_spec s = {
		.dlid = dlid, .sl = sl, .payload = payload, .count = count,
	};

	ck_assert_int_eq(ibfs__endpoint_add_flow(ep, &s, &d), 0);
}

static inline void flow(struct ibfs_endpoint *ep, uint16_t dlid,
			uint32_t payload, uint64_t count)
{
	flow_sl(ep, dlid, 0, payload, count);
}

static inline void conserved(const struct ibfs_fabric *f)
{
	char msg[512] = "";

	ck_assert_msg(ibfs__fabric_check(f, msg, sizeof(msg)) == 0, "%s",
		      msg);
}

static const ibfs_time_t P = 10 * IBFS_NS;  /* 2 m of cable */
static const ibfs_time_t L = 100 * IBFS_NS; /* default routing latency */

#endif
