/* SPDX-License-Identifier: MIT */
/*
 * Two HCAs joined back to back by one cable, with LIDs 1 and 2 and a
 * direct (SimGrid-free) exec: the setup of perftest's default runs and of
 * the transport's unit tests.
 */
#ifndef IBFS_HCA_PAIR_H
#define IBFS_HCA_PAIR_H

#include "fabric/link_rate.h"
#include "fabric/topology.h"
#include "hca/direct_exec.h"
#include "hca/hca.h"

struct ibfs_hca_pair {
	struct ibfs_topology *t;
	struct ibfs_fabric *f;
	struct ibfs_hca *h[2];
	struct ibfs_direct_exec dx;
};

struct ibfs_hca_pair_cfg {
	const char *profile;    /* NULL: ideal */
	enum ibfs_speed speed;  /* EDR unless set with have_speed */
	int have_speed;
	int width;              /* 0: 4x */
	uint64_t cable_mm;      /* 0: 2 m */
	uint32_t mtu;           /* 0: 4096 */
	int data_mode;
};

/* Returns 0, or -1 with a sentence in d. */
int ibfs__hca_pair_new(struct ibfs_hca_pair *x,
		       const struct ibfs_hca_pair_cfg *c, struct ibfs_diag *d);
void ibfs__hca_pair_free(struct ibfs_hca_pair *x);

#endif
