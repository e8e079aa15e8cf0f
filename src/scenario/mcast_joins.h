/* SPDX-License-Identifier: MIT */
/*
 * Multicast joins and leaves at run time, played on the fabric through
 * the SA (mcast_joins.c).
 */
#ifndef IBFS_SCENARIO_MCAST_JOINS_H
#define IBFS_SCENARIO_MCAST_JOINS_H

#include "scenario/results.h"
#include "scenario/scenario.h"
#include "subnet_manager/sm.h"

struct ibfs_traffic;
struct ibfs_mjoins;

/* For sc's joins on fabric f with SM sm; NULL: out of memory. */
struct ibfs_mjoins *ibfs__mjoins_new(const struct ibfs_scenario *sc,
				     struct ibfs_fabric *f, struct ibfs_sm *sm,
				     struct ibfs_traffic *t);
/* Schedules each at base + its time; -1 out of memory. */
int ibfs__mjoins_start(struct ibfs_mjoins *mj, ibfs_time_t base);
/* Copies the records into r; -1 out of memory. */
int ibfs__mjoins_collect(const struct ibfs_mjoins *mj,
			 struct ibfs_results *r);
void ibfs__mjoins_free(struct ibfs_mjoins *mj);

#endif
