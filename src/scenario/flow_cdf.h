/* SPDX-License-Identifier: MIT */
/*
 * Flow-size distributions for <pattern kind="flows"> (traffic_flows.c):
 * an empirical CDF read from a text file of points, one "SIZE PROBABILITY"
 * a line (bytes, cumulative probability), '#' to the end of a line a
 * comment (docs/scenario-format.md). Sizes are drawn by inverse transform
 * with linear interpolation between the points, as the datacenter
 * simulators that ship such files draw them (the pFabric and HPCC
 * simulators' empirical random variables).
 */
#ifndef IBFS_SCENARIO_FLOW_CDF_H
#define IBFS_SCENARIO_FLOW_CDF_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/diag.h"

struct ibfs_flow_cdf {
	char *name;        /* "websearch", "hadoop" or the file's path */
	size_t n;          /* points, at least one */
	uint64_t *size;    /* bytes, strictly increasing */
	double *p;         /* P(size <= size[i]), nondecreasing, last 1 */
	double mean;       /* bytes: the mean of the interpolated CDF */
};

/*
 * Reads the points of `path` (named `name` in the results): NULL with
 * "PATH:LINE: what is wrong" in d for a file that cannot be read, a line
 * that is not two numbers, a size that is not a whole number of bytes, a
 * probability outside [0, 1], a point not above the one before it, or a
 * last point whose probability is not 1.
 */
struct ibfs_flow_cdf *ibfs__flow_cdf_load(const char *path, const char *name,
					  struct ibfs_diag *d);
/* The size for u in [0, 1): the inverse CDF, at least 1 byte. */
uint64_t ibfs__flow_cdf_size(const struct ibfs_flow_cdf *c, double u);
void ibfs__flow_cdf_free(struct ibfs_flow_cdf *c);

#endif
