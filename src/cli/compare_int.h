/* SPDX-License-Identifier: MIT */
/*
 * What ibfsim compare's table (cmd_compare.c) and its HTML page
 * (compare_html.c) share: the runs and the rows.
 */
#ifndef IBFS_CLI_COMPARE_INT_H
#define IBFS_CLI_COMPARE_INT_H

#include <stddef.h>
#include <sys/types.h>

#include "scenario/compare.h"
#include "cli/runs.h"
#include "scenario/runner.h"

enum { CMP_MAX_MODELS = 4, CMP_MAX_SEEDS = 1000 };

struct cmp_args {
	const char *scenario, *json, *csv, *profile, *html;
	int host_profile;       /* --host-profile's index, -1: none */
	/* With html: a directory of its own where each model's first run
	 * writes its CSV tables (tmp/MODEL), removed at the end. */
	char tmp[256];
	int models[CMP_MAX_MODELS];
	int nmodels;
	uint64_t seed, seeds, jobs;
	struct ibfs_run_opts o;
};

extern const char *const ibfs_cli_cmp_models[];

/* The rows of the table: a figure of struct ibfs_cmp_figs each. */
enum cmp_type { CMP_DOUBLE, CMP_U64, CMP_INT, CMP_STR };

struct cmp_row {
	const char *section, *label, *key;
	enum cmp_type type;
	size_t off;
	int prec;
};

extern const struct cmp_row ibfs_cli_cmp_rows[];
extern const size_t ibfs_cli_cmp_nrows;

/* Row w's figure in f (ns figures in us); NAN where not measured. */
double ibfs_cli_cmp_value(const struct cmp_row *w,
			  const struct ibfs_cmp_figs *f);
/* The cell of row w over a model's n runs: the mean, +- half the range. */
void ibfs_cli_cmp_cell(char *buf, size_t len, const struct cmp_row *w,
	      const struct ibfs_cli_run *runs, size_t n);

/*
 * compare_html.c: the page at a->html, the table and the plots drawn by
 * gnuplot from each model's first run's CSV tables (a->tmp/MODEL).
 * 0, or -1 after a message.
 */
int ibfs_cli_cmp_html(const struct cmp_args *a, const struct ibfs_cli_run *runs);
/* 1 when gnuplot can be run. */
int ibfs_cli_gnuplot_found(void);

#endif
