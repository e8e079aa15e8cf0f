/* SPDX-License-Identifier: MIT */
/*
 * ibfsim sweep: a grid of runs (sweep.h, docs/sweep-format.md), each
 * point a child process of the pool in runs.c, one CSV row a point.
 *
 * Before anything runs, the grid is read, the scenario parsed, every
 * attribute path found in it, and every value of every dimension loaded
 * once (with the other dimensions at their first value), so that a typo
 * costs seconds, not the hours of the points before it. A point that
 * fails at run time (a deadlock, a model that refuses the scenario) is
 * reported and the others go on. Rows are appended to --csv as points
 * end, so a sweep that is stopped keeps what it did; run again with the
 * same file, it skips the points whose rows are there, and at the end
 * the file is rewritten in point order. --svg draws one figure against
 * another (default: aggregate throughput against the NICs), a line per
 * model, averaged over the other dimensions, with gnuplot.
 *
 * Under Open MPI's mpirun (sweep_mpi.c) every rank reads the grid and the
 * CSV, takes every size-th point still to run from its rank on, and rank
 * 0 gathers the rows and writes the file and the plot.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/tree.h>

#include "cli/commands.h"
#include "cli/compare_int.h"
#include "cli/runs.h"
#include "cli/sweep.h"
#include "cli/sweep_mpi.h"
#include "fabric/units.h"
#include "fabric/xml_doc.h"

static const char sweep_usage[] =
	"Usage: ibfsim sweep GRID.xml [options]\n"
	"\n"
	"Runs a scenario at every point of a grid (its <vary> dimensions:\n"
	"model, seed or an attribute of the scenario's elements) and writes a\n"
	"line per point.\n"
	"\n"
	"Options:\n"
	"  --jobs N        points at a time (default: the processors online)\n"
	"  --csv FILE      a row per point: its values, status and figures;\n"
	"                  run again, the points already there are skipped\n"
	"  --svg FILE      a plot drawn by gnuplot: --metric against --x, a\n"
	"                  line per model\n"
	"  --metric KEY    the plot's y (default aggregate_gbps; the keys of\n"
	"                  ibfsim compare's CSV)\n"
	"  --x KEY         the plot's x (default nics)\n"
	"  --until TIME    stop every run at this simulated time at the latest\n"
	"  --no-data       do not move real bytes (same timing)\n"
	"\n"
	"Exit status: 0 every point ran, 1 a point failed (the others ran),\n"
	"2 bad usage or invalid input.\n";

struct sweep_args {
	const char *grid, *csv, *svg, *metric, *x;
	uint64_t jobs;
	struct ibfs_run_opts o;
};

/* The sweep as it runs. */
struct sweep {
	struct sweep_args a;
	struct ibfs_sweep g;
	char scenario[4096];    /* its path */
	xmlDoc *doc;            /* parsed once; each child edits its copy */
	int model;              /* the scenario's own, for grids without one */
	char ***rows;           /* per point: its CSV cells, or NULL */
	size_t ncols;
	char **header;
	FILE *append;           /* --csv while points end (rank 0) */
	size_t ran, failed, skipped;
	struct ibfs_cli_mpi mpi;
	size_t *mine;           /* the points this process ran */
};

/* A numeric figure's key among compare's rows, or -1. */
static int sweep_key(const char *key)
{
	for (size_t i = 0; i < ibfs_cli_cmp_nrows; i++)
		if (ibfs_cli_cmp_rows[i].type != CMP_STR &&
		    !strcmp(ibfs_cli_cmp_rows[i].key, key))
			return (int)i;
	return -1;
}

static int parse_args(int argc, char **argv, struct sweep_args *a)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	a->o = (struct ibfs_run_opts){.data = 1, .until = IBFS_TIME_NEVER,
				      .quiet = 1, .seed = 1};
	a->jobs = ncpu > 0 ? (uint64_t)ncpu : 1;
	a->metric = "aggregate_gbps";
	a->x = "nics";
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *v;
		if (!strcmp(arg, "--no-data")) {
			a->o.data = 0;
			continue;
		}
		if (arg[0] != '-' || !arg[1]) {
			if (a->grid) {
				ibfs_cli_error("sweep: one grid at a time "
					       "('%s')", arg);
				return -1;
			}
			a->grid = arg;
			continue;
		}
		if (strcmp(arg, "--jobs") && strcmp(arg, "--csv") &&
		    strcmp(arg, "--svg") && strcmp(arg, "--metric") &&
		    strcmp(arg, "--x") && strcmp(arg, "--until")) {
			ibfs_cli_error("sweep: unknown option '%s'", arg);
			return -1;
		}
		if (i + 1 >= argc) {
			ibfs_cli_error("%s needs a value", arg);
			return -1;
		}
		v = argv[++i];
		if (!strcmp(arg, "--jobs")) {
			if (ibfs__parse_uint(v, &a->jobs) || !a->jobs ||
			    a->jobs > 256) {
				ibfs_cli_error("--jobs takes a whole number "
					       "from 1 to 256, not '%s'", v);
				return -1;
			}
		} else if (!strcmp(arg, "--until")) {
			int err = ibfs__parse_time(v, &a->o.until);
			if (err) {
				ibfs_cli_error("--until %s: %s", v,
					       ibfs__unit_strerror(-err,
								   "time"));
				return -1;
			}
		} else if (!strcmp(arg, "--csv")) {
			a->csv = v;
		} else if (!strcmp(arg, "--svg")) {
			a->svg = v;
		} else if (!strcmp(arg, "--metric")) {
			a->metric = v;
		} else {
			a->x = v;
		}
	}
	if (!a->grid) {
		ibfs_cli_error("sweep: which grid? (ibfsim sweep --help)");
		return -1;
	}
	if (sweep_key(a->metric) < 0 || sweep_key(a->x) < 0) {
		ibfs_cli_error("--metric and --x take a figure's key (%s, ...: "
			       "docs/results.md), not '%s'", "aggregate_gbps",
			       sweep_key(a->metric) < 0 ? a->metric : a->x);
		return -1;
	}
	return 0;
}

/* A model by its name (one the grid's reader accepted). */
static int sweep_model(const char *v)
{
	return !strcmp(v, "ib") ? IBFS_MODEL_IB : !strcmp(v, "roce") ?
		IBFS_MODEL_ROCE : IBFS_MODEL_TCP;
}

/* Point p's scenario: the doc with p's attributes, p's model. */
static struct ibfs_scenario *sweep_scenario(struct sweep *s, size_t p,
					    struct ibfs_diag *d)
{
	ibfs_cli_sweep_apply(&s->g, p, s->doc);
	struct ibfs_scenario *sc =
		ibfs__scenario_load_doc(s->doc, s->scenario, d);
	if (!sc)
		return NULL;
	for (size_t k = 0; k < s->g.ndims; k++)
		if (s->g.dims[k].kind == IBFS_SW_MODEL)
			sc->model = sweep_model(
				ibfs_cli_sweep_value(&s->g, p, k));
	return sc;
}

/* The point whose dimension k has value i, the others their first. */
static size_t sweep_point_of(const struct ibfs_sweep *g, size_t k, size_t i)
{
	size_t stride = 1;
	for (size_t j = g->ndims; j-- > k + 1;)
		stride *= g->dims[j].nvalues;
	return i * stride;
}

/* Every attribute path found, every value loads: else exit 2. */
static int sweep_check(struct sweep *s)
{
	struct ibfs_diag d;
	for (size_t k = 0; k < s->g.ndims; k++) {
		const struct ibfs_sweep_dim *dm = &s->g.dims[k];
		if (dm->kind == IBFS_SW_ATTR &&
		    !ibfs_cli_sweep_matches(&s->g, k, s->doc)) {
			ibfs_cli_error("%s:%ld: vary '%s': %s has no element "
				       "%s", s->g.file, dm->line, dm->name,
				       s->scenario, dm->path);
			return -1;
		}
		for (size_t i = 0; i < dm->nvalues; i++) {
			struct ibfs_scenario *sc = sweep_scenario(
				s, sweep_point_of(&s->g, k, i), &d);
			if (!sc) {
				ibfs_cli_error("%s:%ld: vary '%s' value '%s': "
					       "%s", s->g.file, dm->line,
					       dm->name, dm->values[i], d.msg);
				return -1;
			}
			if (!k && !i)
				s->model = sc->model;
			ibfs__scenario_free(sc);
		}
	}
	return 0;
}

/* CSV: RFC 4180 quoting where a cell needs it. */
static void csv_cell(FILE *o, const char *v, int first)
{
	if (!first)
		fputc(',', o);
	if (!strpbrk(v, ",\"\n\r")) {
		fputs(v, o);
		return;
	}
	fputc('"', o);
	for (; *v; v++) {
		if (*v == '"')
			fputc('"', o);
		fputc(*v, o);
	}
	fputc('"', o);
}

static void csv_row(FILE *o, char **cells, size_t n)
{
	for (size_t i = 0; i < n; i++)
		csv_cell(o, cells[i] ? cells[i] : "", !i);
	fputc('\n', o);
}

/* Splits one CSV record (no line breaks in cells) into at most max. */
static size_t csv_split(char *line, char **cells, size_t max)
{
	size_t n = 0;
	char *w = line, *r = line;
	while (n < max) {
		cells[n++] = w;
		int q = *r == '"';
		r += q;
		for (; *r; r++) {
			if (q && *r == '"' && r[1] == '"') {
				*w++ = '"';
				r++;
			} else if (q && *r == '"') {
				q = 0;
			} else if (!q && (*r == ',' || *r == '\n' ||
					  *r == '\r')) {
				break;
			} else {
				*w++ = *r;
			}
		}
		int more = *r == ',';
		*w++ = 0;
		if (!more)
			break;
		r++;
	}
	return n;
}

/* The header: point, the dimensions, status, the figures, the words. */
static int sweep_header(struct sweep *s)
{
	size_t n = 1 + s->g.ndims + 1 + ibfs_cli_cmp_nrows + 1;
	s->header = calloc(n, sizeof(*s->header));
	if (!s->header)
		return -1;
	size_t c = 0;
	s->header[c++] = "point";
	for (size_t k = 0; k < s->g.ndims; k++)
		s->header[c++] = s->g.dims[k].name;
	s->header[c++] = "status";
	for (size_t i = 0; i < ibfs_cli_cmp_nrows; i++)
		if (ibfs_cli_cmp_rows[i].type != CMP_STR)
			s->header[c++] = (char *)ibfs_cli_cmp_rows[i].key;
	s->header[c++] = "management";
	s->header[c++] = "error";
	s->ncols = c;
	return 0;
}

static char *dupf(const char *fmt, double v, int prec)
{
	char buf[64];
	snprintf(buf, sizeof(buf), fmt, prec, v);
	return strdup(buf);
}

/* Run's cells (point p), as the header orders them. */
static char **sweep_cells(struct sweep *s, size_t p,
			  const struct ibfs_cmp_figs *f)
{
	char **c = calloc(s->ncols, sizeof(*c));
	if (!c)
		return NULL;
	size_t n = 0;
	c[n++] = dupf("%.*f", (double)p, 0);
	for (size_t k = 0; k < s->g.ndims; k++)
		c[n++] = strdup(ibfs_cli_sweep_value(&s->g, p, k));
	c[n++] = dupf("%.*f", f->status, 0);
	for (size_t i = 0; i < ibfs_cli_cmp_nrows; i++) {
		const struct cmp_row *w = &ibfs_cli_cmp_rows[i];
		if (w->type == CMP_STR)
			continue;
		double v = f->status < 0 ? NAN : ibfs_cli_cmp_value(w, f);
		c[n++] = isnan(v) ? strdup("") : dupf("%.*f", v, w->prec);
	}
	c[n++] = strdup(f->status < 0 ? "" : f->management);
	c[n++] = strdup(f->status < 0 ? f->error : "");
	return c;
}

static void sweep_cells_free(char **c, size_t n)
{
	for (size_t i = 0; c && i < n; i++)
		free(c[i]);
	free(c);
}

/* The point of a row of an earlier run, by its values; or npoints. */
static size_t sweep_row_point(const struct sweep *s, char **cells)
{
	char *end;
	unsigned long long p = strtoull(cells[0], &end, 10);
	if (*end || p >= s->g.npoints)
		return s->g.npoints;
	for (size_t k = 0; k < s->g.ndims; k++)
		if (strcmp(cells[1 + k], ibfs_cli_sweep_value(&s->g, p, k)))
			return s->g.npoints;
	return (size_t)p;
}

/* --csv of an earlier run: its rows for points that ran are kept. */
static int sweep_resume(struct sweep *s)
{
	FILE *in = fopen(s->a.csv, "r");
	if (!in)
		return 0;
	char line[8192], **cells = calloc(s->ncols + 1, sizeof(*cells));
	int rc = 0;
	if (!cells || !fgets(line, sizeof(line), in) ||
	    csv_split(line, cells, s->ncols + 1) != s->ncols)
		rc = -1;
	for (size_t i = 0; !rc && i < s->ncols; i++)
		rc = strcmp(cells[i], s->header[i]) ? -1 : 0;
	if (rc)
		ibfs_cli_error("%s: written by another grid or version (its "
			       "header differs); remove it or name another "
			       "file", s->a.csv);
	while (!rc && fgets(line, sizeof(line), in)) {
		if (csv_split(line, cells, s->ncols + 1) != s->ncols)
			continue;
		size_t p = sweep_row_point(s, cells);
		if (p == s->g.npoints || cells[1 + s->g.ndims][0] == '-' ||
		    s->rows[p])
			continue; /* not this grid's, or not run */
		s->rows[p] = calloc(s->ncols, sizeof(char *));
		for (size_t i = 0; s->rows[p] && i < s->ncols; i++)
			s->rows[p][i] = strdup(cells[i]);
		s->skipped++;
	}
	free(cells);
	fclose(in);
	return rc;
}

static struct ibfs_scenario *sweep_pool_load(void *arg,
					     const struct ibfs_cli_run *run,
					     struct ibfs_diag *d)
{
	return sweep_scenario(arg, run->index, d);
}

/* As a point ends: its line on stdout, its row appended. */
static void sweep_pool_done(void *arg, const struct ibfs_cli_run *run)
{
	struct sweep *s = arg;
	const struct ibfs_cmp_figs *f = &run->f;
	printf("[%zu/%zu]", run->index + 1, s->g.npoints);
	for (size_t k = 0; k < s->g.ndims; k++)
		printf(" %s=%s", s->g.dims[k].name,
		       ibfs_cli_sweep_value(&s->g, run->index, k));
	if (f->status < 0)
		printf(": not run: %s\n", f->error);
	else
		printf(": %s, %.2f Gb/s, p99 %.3f us, %.2f s\n",
		       f->status ? (f->deadlock ? "failed (deadlock)" :
						  "failed") : "ok",
		       f->aggregate_gbps, f->lat_p99_ns / 1000.0, f->wall_s);
	fflush(stdout);
	s->mine[s->ran++] = run->index;
	s->failed += f->status != 0;
	s->rows[run->index] = sweep_cells(s, run->index, f);
	if (s->append && s->rows[run->index]) {
		csv_row(s->append, s->rows[run->index], s->ncols);
		fflush(s->append);
	}
}

/* The rows in point order, through a temporary file renamed in place. */
static int sweep_rewrite(struct sweep *s)
{
	char tmp[4200];
	snprintf(tmp, sizeof(tmp), "%.4000s.tmp", s->a.csv);
	FILE *o = fopen(tmp, "w");
	if (!o)
		return -1;
	csv_row(o, s->header, s->ncols);
	for (size_t p = 0; p < s->g.npoints; p++)
		if (s->rows[p])
			csv_row(o, s->rows[p], s->ncols);
	if (fclose(o) != 0 || rename(tmp, s->a.csv) != 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* The column of key in the header. */
static size_t sweep_col(const struct sweep *s, const char *key)
{
	for (size_t i = 0; i < s->ncols; i++)
		if (!strcmp(s->header[i], key))
			return i;
	return 0;
}

/*
 * --svg: the data as "MODEL X Y" lines, then gnuplot averages the Ys of
 * each X (smooth unique) on a line per model.
 */
static int sweep_plot(struct sweep *s)
{
	char dat[4200], gp[4200];
	snprintf(dat, sizeof(dat), "%.4000s.dat", s->a.svg);
	snprintf(gp, sizeof(gp), "%.4000s.gp", s->a.svg);
	FILE *o = fopen(dat, "w");
	if (!o)
		return -1;
	size_t cx = sweep_col(s, s->a.x), cy = sweep_col(s, s->a.metric);
	int model_dim = -1;
	for (size_t k = 0; k < s->g.ndims; k++)
		if (s->g.dims[k].kind == IBFS_SW_MODEL)
			model_dim = (int)k;
	int used[4] = {0};
	for (size_t p = 0; p < s->g.npoints; p++) {
		char **c = s->rows[p];
		if (!c || !*c[cx] || !*c[cy])
			continue;
		const char *m = model_dim >= 0 ? c[1 + model_dim] :
			ibfs_cli_cmp_models[s->model];
		used[sweep_model(m)] = 1;
		fprintf(o, "%s %s %s\n", m, c[cx], c[cy]);
	}
	fclose(o);
	FILE *g = fopen(gp, "w");
	if (!g)
		return -1;
	fprintf(g, "set terminal svg size 640,400 font 'sans,11' noenhanced\n"
		   "set output '%s'\nset key top left\nset grid\n"
		   "set title '%s'\nset xlabel '%s'\nset ylabel '%s'\nplot ",
		s->a.svg, s->g.name ? s->g.name : "sweep", s->a.x,
		s->a.metric);
	const char *sep = "";
	for (int m = 0; m < 4; m++) {
		if (!used[m])
			continue;
		fprintf(g, "%s'%s' using (strcol(1) eq '%s' ? $2 : NaN):3 "
			   "smooth unique with linespoints lw 2 title '%s'",
			sep, dat, ibfs_cli_cmp_models[m],
			ibfs_cli_cmp_models[m]);
		sep = ", \\\n     ";
	}
	fputs(*sep ? "\n" : "NaN notitle\n", g);
	fclose(g);
	char cmd[9000];
	snprintf(cmd, sizeof(cmd), "gnuplot '%s' 2>/dev/null", gp);
	int rc = system(cmd);
	unlink(dat);
	unlink(gp);
	return rc == 0 ? 0 : -1;
}

/* The scenario's path, relative to the grid's directory. */
static void sweep_resolve(struct sweep *s)
{
	if (s->g.scenario[0] == '/') {
		snprintf(s->scenario, sizeof(s->scenario), "%s",
			 s->g.scenario);
		return;
	}
	char *copy = strdup(s->g.file);
	snprintf(s->scenario, sizeof(s->scenario), "%.2000s/%.2000s",
		 copy ? dirname(copy) : ".", s->g.scenario);
	free(copy);
}

/* Loads and checks everything: 0, or -1 after a message. */
static int sweep_open(struct sweep *s)
{
	struct ibfs_diag d;
	if (ibfs_cli_sweep_load(s->a.grid, &s->g, &d) < 0) {
		ibfs_cli_error("%s", d.msg);
		return -1;
	}
	sweep_resolve(s);
	s->doc = ibfs__xml_parse_file(s->scenario, &d);
	if (!s->doc) {
		ibfs_cli_error("%s", d.msg);
		return -1;
	}
	if (sweep_check(s) < 0)
		return -1;
	if (s->a.svg && !ibfs_cli_gnuplot_found()) {
		ibfs_cli_error("--svg draws with gnuplot, which is not "
			       "installed (Debian package gnuplot-nox)");
		return -1;
	}
	const struct ibfs_cli_output out[] = { { s->a.csv, 0 },
					       { s->a.svg, 0 } };
	if (ibfs_cli_outputs_ok(out, 2) < 0 || sweep_header(s) < 0)
		return -1;
	s->rows = calloc(s->g.npoints, sizeof(*s->rows));
	if (!s->rows)
		return -1;
	return s->a.csv ? sweep_resume(s) : 0;
}

/* The points without a row, in order. */
static int sweep_run(struct sweep *s)
{
	size_t n = 0;
	struct ibfs_cli_run *runs = calloc(s->g.npoints - s->skipped + 1,
					   sizeof(*runs));
	if (!runs)
		return -1;
	s->mine = calloc(s->g.npoints + 1, sizeof(*s->mine));
	if (!s->mine) {
		free(runs);
		return -1;
	}
	size_t todo = 0;
	for (size_t p = 0; p < s->g.npoints; p++) {
		if (s->rows[p] || todo++ % (size_t)s->mpi.size !=
				  (size_t)s->mpi.rank)
			continue;
		runs[n] = (struct ibfs_cli_run){.index = p, .seed = 1,
						.model = s->model};
		for (size_t k = 0; k < s->g.ndims; k++) {
			const char *v = ibfs_cli_sweep_value(&s->g, p, k);
			if (s->g.dims[k].kind == IBFS_SW_SEED)
				ibfs__parse_uint(v, &runs[n].seed);
			else if (s->g.dims[k].kind == IBFS_SW_MODEL)
				runs[n].model = sweep_model(v);
		}
		n++;
	}
	if (s->mpi.size > 1)
		printf("sweep %s, rank %d of %d: %zu points, %zu from %s, %zu "
		       "to run here, %llu at a time\n", s->g.name ?
		       s->g.name : s->a.grid, s->mpi.rank, s->mpi.size,
		       s->g.npoints, s->skipped, s->a.csv ? s->a.csv : "-", n,
		       (unsigned long long)s->a.jobs);
	else
		printf("sweep %s: %zu points, %zu from %s, %zu to run, %llu "
		       "at a time\n", s->g.name ? s->g.name : s->a.grid,
		       s->g.npoints, s->skipped, s->a.csv ? s->a.csv : "-", n,
		       (unsigned long long)s->a.jobs);
	fflush(stdout);
	if (s->a.csv && s->mpi.rank == 0) {
		int fresh = access(s->a.csv, F_OK) != 0;
		s->append = fopen(s->a.csv, "a");
		if (!s->append) {
			ibfs_cli_error("%s: %s", s->a.csv, strerror(errno));
			free(runs);
			return -1;
		}
		if (fresh)
			csv_row(s->append, s->header, s->ncols);
	}
	struct ibfs_cli_pool pool = {.o = s->a.o, .jobs = s->a.jobs,
				     .load = sweep_pool_load,
				     .done = sweep_pool_done, .arg = s};
	int rc = ibfs_cli_runs(&pool, runs, n);
	free(runs);
	if (s->append)
		fclose(s->append);
	s->append = NULL;
	return rc;
}

static void sweep_close(struct sweep *s)
{
	for (size_t p = 0; s->rows && p < s->g.npoints; p++)
		sweep_cells_free(s->rows[p], s->ncols);
	free(s->rows);
	free(s->header);
	free(s->mine);
	if (s->doc)
		xmlFreeDoc(s->doc);
	ibfs_cli_sweep_free(&s->g);
}

/*
 * Under MPI, rank 0 gets every rank's new rows (CSV text) into its
 * table, and the totals; 0, or -1 when out of memory.
 */
static int sweep_gather(struct sweep *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&text, &len);
	if (!o)
		return -1;
	for (size_t i = 0; i < s->ran; i++)
		if (s->rows[s->mine[i]])
			csv_row(o, s->rows[s->mine[i]], s->ncols);
	fclose(o);
	size_t n;
	char *all = ibfs_cli_mpi_gather(&s->mpi, text, len, &n);
	free(text);
	if (s->mpi.rank != 0)
		return 0;
	if (!all)
		return -1;
	char **cells = calloc(s->ncols + 1, sizeof(*cells));
	s->ran = s->failed = 0;
	for (char *line = strtok(all, "\n"); cells && line;
	     line = strtok(NULL, "\n")) {
		if (csv_split(line, cells, s->ncols + 1) != s->ncols)
			continue;
		size_t p = sweep_row_point(s, cells);
		if (p == s->g.npoints)
			continue;
		s->ran++;
		s->failed += strcmp(cells[1 + s->g.ndims], "0") != 0;
		if (s->rows[p])
			continue;
		s->rows[p] = calloc(s->ncols, sizeof(char *));
		for (size_t i = 0; s->rows[p] && i < s->ncols; i++)
			s->rows[p][i] = strdup(cells[i]);
	}
	free(cells);
	free(all);
	return 0;
}

/* Rank 0's files and summary. */
static int sweep_finish(struct sweep *s)
{
	int status = IBFS_EXIT_OK;
	if (s->a.csv && sweep_rewrite(s) < 0) {
		ibfs_cli_error("%s: %s", s->a.csv, strerror(errno));
		status = IBFS_EXIT_FAIL;
	}
	if (s->a.svg && sweep_plot(s) < 0) {
		ibfs_cli_error("--svg: gnuplot could not draw %s", s->a.svg);
		status = IBFS_EXIT_FAIL;
	}
	printf("%zu points: %zu run now (%zu failed), %zu from before\n",
	       s->g.npoints, s->ran, s->failed, s->skipped);
	return status;
}

/* Ranks other than 0 say nothing of the grid's faults: rank 0 does. */
static int sweep_open_quiet(struct sweep *s)
{
	if (s->mpi.rank == 0)
		return sweep_open(s);
	fflush(stderr);
	int saved = dup(2), null = open("/dev/null", O_WRONLY);
	if (saved >= 0 && null >= 0)
		dup2(null, 2);
	int rc = sweep_open(s);
	fflush(stderr);
	if (saved >= 0 && null >= 0)
		dup2(saved, 2);
	if (saved >= 0)
		close(saved);
	if (null >= 0)
		close(null);
	return rc;
}

int ibfs_cmd_sweep(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (ibfs_cli_is_help(argv[i])) {
			fputs(sweep_usage, stdout);
			return IBFS_EXIT_OK;
		}
	struct sweep s = {0};
	if (parse_args(argc, argv, &s.a) < 0 || ibfs_cli_mpi_open(&s.mpi) < 0)
		return IBFS_EXIT_USAGE;
	int status = IBFS_EXIT_OK;
	int rc = sweep_open_quiet(&s);
	/* Every rank has read the CSV before rank 0 appends to it. */
	ibfs_cli_mpi_barrier(&s.mpi);
	if (rc < 0) {
		status = IBFS_EXIT_USAGE;
	} else {
		/* Every rank gathers, even one whose runs could not start,
		 * so that rank 0 is not left waiting. */
		if (sweep_run(&s) < 0)
			status = IBFS_EXIT_FAIL;
		if (sweep_gather(&s) < 0)
			status = IBFS_EXIT_FAIL;
		if (s.mpi.rank == 0 && sweep_finish(&s) != IBFS_EXIT_OK)
			status = IBFS_EXIT_FAIL;
		if (s.failed)
			status = IBFS_EXIT_FAIL;
	}
	sweep_close(&s);
	ibfs_cli_mpi_close(&s.mpi);
	return status;
}
