/* SPDX-License-Identifier: MIT */
/*
 * Congestion control counters in the results (results_cc.c): printed and
 * written only when the scenario turns CC on.
 */
#ifndef IBFS_SCENARIO_RESULTS_CC_H
#define IBFS_SCENARIO_RESULTS_CC_H

#include <stdint.h>
#include <stdio.h>

#include "scenario/results.h"

/* FECN marks of a switch port (0 for other nodes, or without CC). */
uint64_t ibfs__results_fecn_marks(const struct ibfs_results *r, int node,
				  int port);
/* A line of totals in the text summary. */
void ibfs__results_cc_print(const struct ibfs_results *r, FILE *out);
/* ", fecn_marks_ab, fecn_marks_ba" in a JSON link. */
void ibfs__results_cc_json_link(const struct ibfs_results *r, FILE *o,
				const struct ibfs_topo_link *l);
/* The JSON's "congestion_control" member, with its trailing comma. */
void ibfs__results_cc_json(const struct ibfs_results *r, FILE *o);

#endif
