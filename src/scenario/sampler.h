/* SPDX-License-Identifier: MIT */
/*
 * Time series of a run on request (`ibfsim run --sample INTERVAL`, or
 * <sample interval>): every INTERVAL of simulated time, from INTERVAL on,
 * the state of every linked port (bytes queued per class or VL, PFC pause
 * per priority) and every QP's sending rate (hca/qp_rate.h), as rows of
 * samples_ports.csv and samples_qps.csv in a directory and as counter
 * events of a timeline (fabric/trace.h). Columns: docs/results.md.
 *
 * One event an interval takes every sample. It is a quiet event
 * (struct ibfs_fabric's quiet_events): it goes on while the run has
 * something else to do and stops when the fabric falls idle, so that a
 * run still ends, or finds its deadlock, as it would without samples.
 * While the fabric is idle nothing it holds changes: the samples missed
 * are written, all alike, when the next packet starts (or at the end),
 * and the sampling resumes on the interval's grid.
 */
#ifndef IBFS_SCENARIO_SAMPLER_H
#define IBFS_SCENARIO_SAMPLER_H

#include "fabric/diag.h"
#include "fabric/fabric.h"
#include "fabric/trace.h"

struct ibfs_sampler;

/*
 * Samples f every `interval` ps (above 0) into the CSV files of `dir`
 * (NULL: none) and the counters of `trace` (NULL: none) from now on.
 * NULL with a sentence in d when a file cannot be opened or memory runs
 * out.
 */
struct ibfs_sampler *ibfs__sampler_start(struct ibfs_fabric *f,
					 ibfs_time_t interval, const char *dir,
					 struct ibfs_trace *trace,
					 struct ibfs_diag *d);
/*
 * The run ended at `end`: the rows are those of the samples at or before
 * it, floor(end / interval) of each port and QP; the files are renamed
 * into place. Returns 0, or -1 with errno (a write failed; a file not
 * written whole is removed). The trace must still be open.
 */
int ibfs__sampler_finish(struct ibfs_sampler *s, ibfs_time_t end);
/* Sample times written (after finish). */
uint64_t ibfs__sampler_count(const struct ibfs_sampler *s);
/* Stops sampling; the files not finished are removed. NULL: nothing. */
void ibfs__sampler_free(struct ibfs_sampler *s);

#endif
