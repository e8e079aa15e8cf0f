/* SPDX-License-Identifier: MIT */
/*
 * ibfsim compare: one scenario under several transport models, the same
 * topology, traffic and seeds, and one table with a column per model
 * (docs/ibfsim.1, docs/results.md).
 *
 * Each run is a child process of the pool in runs.c, up to --jobs at a
 * time, which hands its figures (scenario/compare.h) back. The parent
 * loads and checks the scenario first, so bad input stops everything
 * before a run starts, and prints nothing until every run has ended.
 * With --seeds N each model runs with seeds seed .. seed + N - 1 and
 * each figure is given as the mean and half its range.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/compare_int.h"
#include "cli/runs.h"
#include "host/host_profile.h"
#include "fabric/units.h"
#include "scenario/compare.h"
#include "scenario/runner.h"

static const char compare_usage[] =
	"Usage: ibfsim compare SCENARIO.xml [options]\n"
	"\n"
	"Runs a scenario under each transport model, with the same topology,\n"
	"traffic and seeds, and prints one table with a column per model.\n"
	"\n"
	"Options:\n"
	"  --models LIST   comma-separated models (default: ib,roce,tcp,\n"
	"                  the built ones; iwarp is not built yet)\n"
	"  --seed N        the first seed (default 1)\n"
	"  --seeds N       runs per model, with seeds --seed, --seed + 1, ...:\n"
	"                  each figure is the mean +- half its range\n"
	"                  (default 1; --json and --csv have each run's)\n"
	"  --jobs N        runs at a time (default: the processors online)\n"
	"  --profile NAME  every HCA's timing profile (as ibfsim run)\n"
	"  --host-profile NAME  the hosts' CPU under tcp (ideal, linux-xeon;\n"
	"                  default: the scenario's, else ideal)\n"
	"  --until TIME    stop every run at this simulated time at the latest\n"
	"  --no-data       do not move real bytes (same timing)\n"
	"  --json FILE     write the comparison as JSON\n"
	"  --csv DIR       write DIR/compare.csv, a line per run\n"
	"  --html FILE     write one self-contained page: the table and\n"
	"                  plots drawn by gnuplot (latency and flow\n"
	"                  throughput CDFs per model)\n"
	"\n"
	"Exit status: 0 success, 1 a run failed (deadlock, failed messages;\n"
	"the table still shows it), 2 bad usage or invalid input.\n";

const char *const ibfs_cli_cmp_models[] = {"ib", "roce", "iwarp", "tcp"};

/* --models LIST: each a built model, once. */
static int parse_models(const char *list, struct cmp_args *a)
{
	char buf[128];
	snprintf(buf, sizeof(buf), "%s", list);
	a->nmodels = 0;
	for (char *s = strtok(buf, ","); s; s = strtok(NULL, ",")) {
		int m = -1;
		for (int i = 0; i < CMP_MAX_MODELS; i++)
			if (!strcmp(s, ibfs_cli_cmp_models[i]))
				m = i;
		if (m < 0) {
			ibfs_cli_error("--models: '%s' is not one of ib, roce, "
				       "iwarp, tcp", s);
			return -1;
		}
		if (m == IBFS_MODEL_IWARP) {
			ibfs_cli_error("--models: model %s is not built yet "
				       "(ib, roce and tcp are)", s);
			return -1;
		}
		for (int i = 0; i < a->nmodels; i++)
			if (a->models[i] == m) {
				ibfs_cli_error("--models: %s twice", s);
				return -1;
			}
		a->models[a->nmodels++] = m;
	}
	if (!a->nmodels) {
		ibfs_cli_error("--models: name at least one model");
		return -1;
	}
	return 0;
}

/* A whole number in [lo, hi] for option opt. */
static int parse_count(const char *opt, const char *v, uint64_t lo,
		       uint64_t hi, uint64_t *out)
{
	if (ibfs__parse_uint(v, out) || *out < lo || *out > hi) {
		ibfs_cli_error("%s takes a whole number from %llu to %llu, "
			       "not '%s'", opt, (unsigned long long)lo,
			       (unsigned long long)hi, v);
		return -1;
	}
	return 0;
}

static int parse_option(const char *arg, const char *v, struct cmp_args *a)
{
	if (!strcmp(arg, "--models"))
		return parse_models(v, a);
	if (!strcmp(arg, "--seed"))
		return parse_count(arg, v, 0, UINT64_MAX / 2, &a->seed);
	if (!strcmp(arg, "--seeds"))
		return parse_count(arg, v, 1, CMP_MAX_SEEDS, &a->seeds);
	if (!strcmp(arg, "--jobs"))
		return parse_count(arg, v, 1, 256, &a->jobs);
	if (!strcmp(arg, "--until")) {
		int err = ibfs__parse_time(v, &a->o.until);
		if (err)
			ibfs_cli_error("--until %s: %s", v,
				       ibfs__unit_strerror(-err, "time"));
		return err ? -1 : 0;
	}
	if (!strcmp(arg, "--host-profile")) {
		for (int i = 0; ibfs__host_profile_names[i]; i++)
			if (!strcmp(v, ibfs__host_profile_names[i]))
				a->host_profile = i;
		if (a->host_profile < 0)
			ibfs_cli_error("--host-profile %s: not one of %s", v,
				       ibfs__host_profile_list());
		return a->host_profile < 0 ? -1 : 0;
	}
	if (!strcmp(arg, "--json"))
		a->json = v;
	else if (!strcmp(arg, "--html"))
		a->html = v;
	else if (!strcmp(arg, "--csv"))
		a->csv = v;
	else
		a->profile = v;
	return 0;
}

static int parse_args(int argc, char **argv, struct cmp_args *a)
{
	static const char *const with_value[] = {
		"--models", "--seed", "--seeds", "--jobs", "--until",
		"--json", "--csv", "--profile", "--html", "--host-profile"};
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	a->o = (struct ibfs_run_opts){.data = 1, .until = IBFS_TIME_NEVER,
				      .quiet = 1};
	a->seed = 1;
	a->seeds = 1;
	a->host_profile = -1;
	a->jobs = ncpu > 0 ? (uint64_t)ncpu : 1;
	a->nmodels = 3;
	a->models[0] = IBFS_MODEL_IB;
	a->models[1] = IBFS_MODEL_ROCE;
	a->models[2] = IBFS_MODEL_TCP;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		int takes = 0;
		for (size_t k = 0; k < sizeof(with_value) / sizeof(*with_value);
		     k++)
			takes |= !strcmp(arg, with_value[k]);
		if (takes) {
			if (i + 1 >= argc) {
				ibfs_cli_error("%s needs a value", arg);
				return -1;
			}
			if (parse_option(arg, argv[++i], a) < 0)
				return -1;
		} else if (!strcmp(arg, "--no-data")) {
			a->o.data = 0;
		} else if (arg[0] == '-' && arg[1]) {
			ibfs_cli_error("compare: unknown option '%s'", arg);
			return -1;
		} else if (!a->scenario) {
			a->scenario = arg;
		} else {
			ibfs_cli_error("compare: one scenario at a time ('%s')",
				       arg);
			return -1;
		}
	}
	if (!a->scenario) {
		ibfs_cli_error("compare: which scenario? (ibfsim compare "
			       "--help)");
		return -1;
	}
	return 0;
}

/* The scenario ready to run under model m, or NULL after d is filled. */
static struct ibfs_scenario *cmp_load(const struct cmp_args *a, int m,
				      struct ibfs_diag *d)
{
	struct ibfs_scenario *sc = ibfs__scenario_load(a->scenario, d);
	if (!sc)
		return NULL;
	if (a->profile && ibfs__scenario_set_profile(sc, a->profile, d) < 0) {
		ibfs__scenario_free(sc);
		return NULL;
	}
	sc->model = (enum ibfs_sc_model)m;
	if (a->host_profile >= 0)
		sc->eth.tcp_host_profile = a->host_profile;
	return sc;
}

/* With --html, the first seed's CSV tables, which gnuplot plots. */
static int cmp_csv_for_html(const struct cmp_args *a,
			    const struct ibfs_cli_run *run,
			    const struct ibfs_results *r)
{
	char dir[512];
	snprintf(dir, sizeof(dir), "%s/%s", a->tmp,
		 ibfs_cli_cmp_models[run->model]);
	return ibfs__results_write_csv(r, dir);
}

/* The pool's load: the scenario under run's model. */
static struct ibfs_scenario *cmp_pool_load(void *arg,
					   const struct ibfs_cli_run *run,
					   struct ibfs_diag *d)
{
	return cmp_load(arg, run->model, d);
}

/* The pool's after: with --html, the first seed's CSV tables. */
static int cmp_pool_after(void *arg, const struct ibfs_cli_run *run,
			  const struct ibfs_results *r, struct ibfs_diag *d)
{
	const struct cmp_args *a = arg;
	if (!a->html || run->seed != a->seed)
		return 0;
	if (cmp_csv_for_html(a, run, r) == 0)
		return 0;
	snprintf(d->msg, sizeof(d->msg), "--html: %s: %s", a->tmp,
		 strerror(errno));
	return -1;
}

static int cmp_run_all(const struct cmp_args *a, struct ibfs_cli_run *runs,
		       size_t n)
{
	struct ibfs_cli_pool p = {
		.o = a->o, .jobs = a->jobs, .load = cmp_pool_load,
		.after = cmp_pool_after, .arg = (void *)a,
	};
	return ibfs_cli_runs(&p, runs, n);
}

#define ROW(sec, label, key, type, field, prec) \
	{ sec, label, key, type, offsetof(struct ibfs_cmp_figs, field), prec }

const struct cmp_row ibfs_cli_cmp_rows[] = {
	ROW("performance", "messages", "messages", CMP_U64, msgs, 0),
	ROW("performance", "latency p50 (us)", "latency_p50_us", CMP_DOUBLE,
	    lat_p50_ns, 3),
	ROW("performance", "latency p99 (us)", "latency_p99_us", CMP_DOUBLE,
	    lat_p99_ns, 3),
	ROW("performance", "latency max (us)", "latency_max_us", CMP_DOUBLE,
	    lat_max_ns, 3),
	ROW("performance", "aggregate (Gb/s)", "aggregate_gbps", CMP_DOUBLE,
	    aggregate_gbps, 2),
	ROW("performance", "flows", "flows", CMP_U64, flows, 0),
	ROW("performance", "slowest flow (Gb/s)", "flow_min_gbps", CMP_DOUBLE,
	    flow_min_gbps, 2),
	ROW("performance", "Jain's fairness", "jain", CMP_DOUBLE, jain, 3),
	ROW("performance", "longest collective (us)", "collective_us",
	    CMP_DOUBLE, coll_ns, 3),
	ROW("performance", "FCT slowdown p50", "fct_slowdown_p50", CMP_DOUBLE,
	    fct_p50, 3),
	ROW("performance", "FCT slowdown p99", "fct_slowdown_p99", CMP_DOUBLE,
	    fct_p99, 3),
	ROW("host cost", "CPU seconds", "cpu_s", CMP_DOUBLE, cpu_s, 6),
	ROW("stability", "messages failed", "failed", CMP_U64, failed, 0),
	ROW("stability", "messages unfinished", "unfinished", CMP_U64,
	    incomplete, 0),
	ROW("stability", "packets sent", "packets_sent", CMP_U64, pkts_sent,
	    0),
	ROW("stability", "packets dropped", "packets_dropped", CMP_U64,
	    pkts_dropped, 0),
	ROW("stability", "packets retransmitted", "packets_retransmitted",
	    CMP_U64, pkts_retransmitted, 0),
	ROW("stability", "flow-control stall (us)", "stall_us", CMP_DOUBLE,
	    stall_ns, 3),
	ROW("stability", "deadlock", "deadlock", CMP_INT, deadlock, 0),
	ROW("management", "configured", "management", CMP_STR, management, 0),
	ROW("management", "bring-up (us)", "bringup_us", CMP_DOUBLE,
	    bringup_ns, 3),
	ROW("equipment", "switches", "switches", CMP_U64, switches, 0),
	ROW("equipment", "switch ports", "switch_ports", CMP_U64,
	    switch_ports, 0),
	ROW("equipment", "cables", "cables", CMP_U64, cables, 0),
	ROW("equipment", "cable length (m)", "cable_m", CMP_DOUBLE, cable_m,
	    1),
	ROW("equipment", "cables by length", "cable_lengths", CMP_STR,
	    cable_lengths, 0),
	ROW("equipment", "NICs", "nics", CMP_U64, nics, 0),
	ROW("run", "simulated (us)", "simulated_us", CMP_DOUBLE, sim_ns, 3),
	ROW("run", "wall (s)", "wall_s", CMP_DOUBLE, wall_s, 2),
	ROW("run", "events", "events", CMP_U64, events, 0),
};

const size_t ibfs_cli_cmp_nrows =
	sizeof(ibfs_cli_cmp_rows) / sizeof(ibfs_cli_cmp_rows[0]);
#define NROWS ibfs_cli_cmp_nrows

/* Row w's value in f as a number (ns figures shown in us); NAN: none. */
double ibfs_cli_cmp_value(const struct cmp_row *w,
			  const struct ibfs_cmp_figs *f)
{
	const char *p = (const char *)f + w->off;
	double v;
	switch (w->type) {
	case CMP_DOUBLE:
		memcpy(&v, p, sizeof(v));
		if (v == IBFS_CMP_NONE)
			return NAN;
		/* The _us rows hold ns. */
		return strstr(w->key, "_us") ? v / 1000.0 : v;
	case CMP_U64: {
		uint64_t u;
		memcpy(&u, p, sizeof(u));
		return (double)u;
	}
	case CMP_INT: {
		int i;
		memcpy(&i, p, sizeof(i));
		return i;
	}
	default:
		return NAN;
	}
}

/* Mean, least and most of row w over a model's runs (NAN: none). */
struct cmp_stat {
	double mean, min, max;
	size_t n;
};

static struct cmp_stat cmp_stat(const struct cmp_row *w,
				const struct ibfs_cli_run *runs, size_t n)
{
	struct cmp_stat s = {NAN, NAN, NAN, 0};
	double sum = 0;
	for (size_t i = 0; i < n; i++) {
		double v = runs[i].f.status < 0 ? NAN : ibfs_cli_cmp_value(w, &runs[i].f);
		if (isnan(v))
			continue;
		sum += v;
		s.min = s.n && s.min < v ? s.min : v;
		s.max = s.n && s.max > v ? s.max : v;
		s.n++;
	}
	if (s.n)
		s.mean = sum / (double)s.n;
	return s;
}

/* One table cell: the mean, and half its range when the runs differ. */
void ibfs_cli_cmp_cell(char *buf, size_t len, const struct cmp_row *w,
		     const struct ibfs_cli_run *runs, size_t n)
{
	if (w->type == CMP_STR) {
		snprintf(buf, len, "%s", runs[0].f.status < 0 ? "-" :
			 (const char *)&runs[0].f + w->off);
		return;
	}
	struct cmp_stat s = cmp_stat(w, runs, n);
	if (!s.n) {
		snprintf(buf, len, "not measured");
		return;
	}
	if (w->type == CMP_INT && !strcmp(w->key, "deadlock")) {
		snprintf(buf, len, "%s", s.max > 0 ? "yes" : "no");
		return;
	}
	int k = snprintf(buf, len, "%.*f", w->prec, s.mean);
	if (s.min != s.max && k > 0 && (size_t)k < len)
		snprintf(buf + k, len - (size_t)k, " +-%.*f", w->prec,
			 (s.max - s.min) / 2);
}

static void cmp_print(const struct cmp_args *a, const struct ibfs_cli_run *runs)
{
	size_t per = (size_t)a->seeds;
	const char *sec = "";
	printf("compare: %s, %llu seed(s) from %llu\n", a->scenario,
	       (unsigned long long)a->seeds, (unsigned long long)a->seed);
	printf("%-26s", "");
	for (int m = 0; m < a->nmodels; m++)
		printf(" %-27s", ibfs_cli_cmp_models[a->models[m]]);
	putchar('\n');
	for (size_t i = 0; i < NROWS; i++) {
		const struct cmp_row *w = &ibfs_cli_cmp_rows[i];
		if (strcmp(sec, w->section)) {
			sec = w->section;
			printf("%s\n", sec);
		}
		printf("  %-24s", w->label);
		for (int m = 0; m < a->nmodels; m++) {
			char cell[128];
			ibfs_cli_cmp_cell(cell, sizeof(cell), w, runs + (size_t)m * per,
				 per);
			printf(" %-27s", cell);
		}
		putchar('\n');
	}
	for (size_t i = 0; i < (size_t)a->nmodels * per; i++)
		if (runs[i].f.status > 0)
			printf("%s, seed %llu: the run failed%s\n",
			       ibfs_cli_cmp_models[runs[i].model],
			       (unsigned long long)runs[i].seed,
			       runs[i].f.deadlock ? " (deadlock)" : "");
}

static void json_str(FILE *o, const char *s)
{
	fputc('"', o);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(o, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(o, "\\u%04x", *s);
		else
			fputc(*s, o);
	}
	fputc('"', o);
}

static void json_num(FILE *o, double v)
{
	if (isnan(v))
		fputs("null", o);
	else
		fprintf(o, "%.12g", v);
}

static void json_model(FILE *o, const struct cmp_args *a,
		       const struct ibfs_cli_run *runs)
{
	size_t per = (size_t)a->seeds;
	fprintf(o, "    {\"model\": \"%s\", \"runs\": [",
		ibfs_cli_cmp_models[runs[0].model]);
	for (size_t k = 0; k < per; k++)
		fprintf(o, "%s{\"seed\": %llu, \"status\": %d}", k ? ", " : "",
			(unsigned long long)runs[k].seed, runs[k].f.status);
	fputs("],\n     \"figures\": {", o);
	for (size_t i = 0; i < NROWS; i++) {
		const struct cmp_row *w = &ibfs_cli_cmp_rows[i];
		fprintf(o, "%s\n      \"%s\": ", i ? "," : "", w->key);
		if (w->type == CMP_STR) {
			json_str(o, runs[0].f.status < 0 ? "" :
				 (const char *)&runs[0].f + w->off);
			continue;
		}
		struct cmp_stat s = cmp_stat(w, runs, per);
		fputs("{\"mean\": ", o);
		json_num(o, s.mean);
		fputs(", \"min\": ", o);
		json_num(o, s.min);
		fputs(", \"max\": ", o);
		json_num(o, s.max);
		fputc('}', o);
	}
	fputs("}}", o);
}

/* Writes path through a temporary file renamed into place. */
static int cmp_write(const char *path, const struct cmp_args *a,
		     const struct ibfs_cli_run *runs,
		     void (*body)(FILE *, const struct cmp_args *,
				  const struct ibfs_cli_run *))
{
	char tmp[4200];
	snprintf(tmp, sizeof(tmp), "%.4000s.tmp", path);
	FILE *o = fopen(tmp, "w");
	if (!o)
		return -1;
	body(o, a, runs);
	if (fclose(o) != 0 || rename(tmp, path) != 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

static void json_body(FILE *o, const struct cmp_args *a,
		      const struct ibfs_cli_run *runs)
{
	fputs("{\n  \"scenario\": ", o);
	json_str(o, a->scenario);
	fprintf(o, ",\n  \"seed\": %llu,\n  \"seeds\": %llu,\n  \"models\": [\n",
		(unsigned long long)a->seed, (unsigned long long)a->seeds);
	for (int m = 0; m < a->nmodels; m++) {
		json_model(o, a, runs + (size_t)m * a->seeds);
		fputs(m + 1 < a->nmodels ? ",\n" : "\n", o);
	}
	fputs("  ]\n}\n", o);
}

static void csv_body(FILE *o, const struct cmp_args *a,
		     const struct ibfs_cli_run *runs)
{
	fputs("model,seed,status", o);
	for (size_t i = 0; i < NROWS; i++)
		if (ibfs_cli_cmp_rows[i].type != CMP_STR)
			fprintf(o, ",%s", ibfs_cli_cmp_rows[i].key);
	fputc('\n', o);
	for (size_t r = 0; r < (size_t)a->nmodels * a->seeds; r++) {
		fprintf(o, "%s,%llu,%d", ibfs_cli_cmp_models[runs[r].model],
			(unsigned long long)runs[r].seed, runs[r].f.status);
		for (size_t i = 0; i < NROWS; i++) {
			if (ibfs_cli_cmp_rows[i].type == CMP_STR)
				continue;
			double v = runs[r].f.status < 0 ? NAN :
				   ibfs_cli_cmp_value(&ibfs_cli_cmp_rows[i], &runs[r].f);
			if (isnan(v))
				fputc(',', o);
			else
				fprintf(o, ",%.*f", ibfs_cli_cmp_rows[i].prec, v);
		}
		fputc('\n', o);
	}
}

static int cmp_outputs(const struct cmp_args *a,
		       const struct ibfs_cli_run *runs)
{
	if (a->json && cmp_write(a->json, a, runs, json_body) < 0) {
		ibfs_cli_error("%s: %s", a->json, strerror(errno));
		return -1;
	}
	if (a->html && ibfs_cli_cmp_html(a, runs) < 0)
		return -1;
	if (a->csv) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/compare.csv", a->csv);
		if (cmp_write(path, a, runs, csv_body) < 0) {
			ibfs_cli_error("%s: %s", path, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* --html's working directory, under $TMPDIR or /tmp. */
static int cmp_tmp_make(struct cmp_args *a)
{
	const char *t = getenv("TMPDIR");
	snprintf(a->tmp, sizeof(a->tmp), "%.200s/ibfsim-compare-XXXXXX",
		 t && *t ? t : "/tmp");
	if (!mkdtemp(a->tmp)) {
		ibfs_cli_error("--html: cannot make %s: %s", a->tmp,
			       strerror(errno));
		a->tmp[0] = 0;
		return -1;
	}
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void cmp_tmp_remove(const char *dir)
{
	nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

/* Bad input under any model stops the comparison: the first one's. */
static int cmp_refused(const struct ibfs_cli_run *runs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (runs[i].f.status < 0) {
			ibfs_cli_error("under %s: %s",
				       ibfs_cli_cmp_models[runs[i].model],
				       runs[i].f.error);
			return 1;
		}
	return 0;
}

/* Loads the scenario once in the parent: its errors before any run. */
static int cmp_check(const struct cmp_args *a)
{
	struct ibfs_diag d;
	struct ibfs_scenario *sc = cmp_load(a, IBFS_MODEL_IB, &d);
	if (!sc) {
		ibfs_cli_error("%s", d.msg);
		return -1;
	}
	ibfs__scenario_free(sc);
	if (a->html && !ibfs_cli_gnuplot_found()) {
		ibfs_cli_error("--html draws its plots with gnuplot, which is "
			       "not installed (Debian package gnuplot-nox)");
		return -1;
	}
	const struct ibfs_cli_output out[] = { { a->json, 0 }, { a->csv, 1 },
					       { a->html, 0 } };
	return ibfs_cli_outputs_ok(out, 3);
}

int ibfs_cmd_compare(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (ibfs_cli_is_help(argv[i])) {
			fputs(compare_usage, stdout);
			return IBFS_EXIT_OK;
		}
	struct cmp_args a = {0};
	if (parse_args(argc, argv, &a) < 0 || cmp_check(&a) < 0)
		return IBFS_EXIT_USAGE;
	size_t n = (size_t)a.nmodels * a.seeds;
	struct ibfs_cli_run *runs = calloc(n, sizeof(*runs));
	if (!runs) {
		ibfs_cli_error("compare: out of memory");
		return IBFS_EXIT_FAIL;
	}
	for (size_t i = 0; i < n; i++) {
		runs[i].model = a.models[i / a.seeds];
		runs[i].seed = a.seed + i % a.seeds;
	}
	int status = IBFS_EXIT_OK;
	if (a.html && cmp_tmp_make(&a) < 0)
		status = IBFS_EXIT_FAIL;
	else if (cmp_run_all(&a, runs, n) < 0)
		status = IBFS_EXIT_FAIL;
	else if (cmp_refused(runs, n))
		status = IBFS_EXIT_USAGE;
	else if (cmp_outputs(&a, runs) < 0)
		status = IBFS_EXIT_FAIL;
	if (status == IBFS_EXIT_OK) {
		cmp_print(&a, runs);
		for (size_t i = 0; i < n; i++)
			if (runs[i].f.status > 0)
				status = IBFS_EXIT_FAIL;
	}
	if (a.tmp[0])
		cmp_tmp_remove(a.tmp);
	free(runs);
	return status;
}
