/* SPDX-License-Identifier: MIT */
/*
 * The registry of RoCEv2 congestion controls: each control's name, its
 * parameters (name, unit, range, one line of what it is) and its named
 * parameter sets (each with where its values come from), and the parse
 * of "name=value" strings into a configuration that
 * ibfs__hca_cc_roce_install turns into the HCA's control (the seam of
 * cc.c, struct ibfs_hca_cc_ops in hca_int.h).
 *
 * A run's configuration is built in three steps, each overriding the
 * last: every parameter's default (the control's first set), the named
 * set the run asks for, then single parameters (ibfs__cc_cfg_parse).
 *
 * Adding a control is one entry: define its struct ibfs_cc_algo (in the
 * control's own parameters file, beside its ops), declare it below and
 * put it in the table of cc_params.c in the place of its placeholder.
 */
#ifndef IBFS_HCA_CC_ROCE_H
#define IBFS_HCA_CC_ROCE_H

#include <stddef.h>
#include <stdint.h>

struct ibfs_hca;
struct ibfs_hca_cc;

/* The most parameters one control has. */
#define IBFS_CC_MAX_PARAMS 24

/*
 * A parameter's unit, which says how its value is written and held:
 * TIME in ps ("50us"), RATE in bit/s ("40Mbps"), BYTES ("10MB",
 * "32KiB"), COUNT a whole number, FRACTION a real from its range
 * written as a decimal ("0.5") or a ratio ("1/256"), BOOL "on"/"off"
 * (held as 1/0). The parsers are fabric/units.h's, exact.
 */
enum ibfs_cc_unit {
	IBFS_CC_TIME,
	IBFS_CC_RATE,
	IBFS_CC_BYTES,
	IBFS_CC_COUNT,
	IBFS_CC_FRACTION,
	IBFS_CC_BOOL,
};

struct ibfs_cc_param {
	const char *name;
	enum ibfs_cc_unit unit;
	double min, max; /* in the unit's base (ps, bit/s, bytes) */
	const char *what;
};

/*
 * A named set: "name=value" pairs separated by spaces, over the
 * control's defaults (its first set, which names every parameter).
 */
struct ibfs_cc_set {
	const char *name;
	const char *values;
	const char *source; /* where the values come from (docs) */
};

struct ibfs_cc_algo {
	const char *name;
	const char *what;
	const struct ibfs_cc_param *params;
	int nparams;
	const struct ibfs_cc_set *sets; /* sets[0]: the defaults */
	int nsets;
	/*
	 * The control of h with values v (in the order of params); NULL
	 * when out of memory. A NULL create: the control is not built in
	 * this simulator yet (none has no create either: no control).
	 */
	struct ibfs_hca_cc *(*create)(struct ibfs_hca *h, const double *v);
};

/* A run's choice: the control, the set it started from, the values. */
struct ibfs_cc_cfg {
	const struct ibfs_cc_algo *algo;
	const char *set;
	double v[IBFS_CC_MAX_PARAMS];
};

/* The controls, as in the table of cc_params.c. */
extern const struct ibfs_cc_algo ibfs__cc_none;
extern const struct ibfs_cc_algo ibfs__cc_dcqcn;
extern const struct ibfs_cc_algo ibfs__cc_hpcc;
extern const struct ibfs_cc_algo ibfs__cc_timely;

/* The i-th control of the table (none, dcqcn, hpcc, timely), NULL past
 * the end; the control named `name`, NULL if none is. */
const struct ibfs_cc_algo *ibfs__cc_algo_at(int i);
const struct ibfs_cc_algo *ibfs__cc_algo(const char *name);
/* "none, dcqcn, hpcc, timely": for messages. */
const char *ibfs__cc_algo_names(void);
/* 1 if the control is none, or built. */
int ibfs__cc_algo_built(const struct ibfs_cc_algo *a);
/* The parameter's index in a, -1 if it has none of that name. */
int ibfs__cc_param_index(const struct ibfs_cc_algo *a, const char *name);

/*
 * c := control `name` with set `set` (NULL: its defaults). On error,
 * -1 with err holding "what is wrong, what is expected" (no file, no
 * line: the caller prefixes them).
 */
int ibfs__cc_cfg_init(struct ibfs_cc_cfg *c, const char *name,
		      const char *set, char *err, size_t errlen);
/* One parameter, by name and value as written. */
int ibfs__cc_cfg_set(struct ibfs_cc_cfg *c, const char *name,
		     const char *value, char *err, size_t errlen);
/* One "name=value" string. */
int ibfs__cc_cfg_parse(struct ibfs_cc_cfg *c, const char *nv, char *err,
		       size_t errlen);
/* c's value of parameter `name` (for tests and reports; 0 if none). */
double ibfs__cc_cfg_get(const struct ibfs_cc_cfg *c, const char *name);

/*
 * Installs c's control on h (none: h has no control), replacing the one
 * it had: -1 when the control is not built or memory runs out.
 */
int ibfs__hca_cc_roce_install(struct ibfs_hca *h, const struct ibfs_cc_cfg *c);
/* The lowest rate h's control has set on any QP, bit/s; 0 when it keeps
 * none (HPCC's W / T and TIMELY's rate do). */
uint64_t ibfs__hca_cc_rate_min(const struct ibfs_hca *h);
/* The name of h's control ("none" without one). */
const char *ibfs__hca_cc_name(const struct ibfs_hca *h);

#endif
