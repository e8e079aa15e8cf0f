/* SPDX-License-Identifier: MIT */
/*
 * ibfsim compare --html: one self-contained page (no network needed to
 * view it) with the comparison's table and its plots.
 *
 * The plots are drawn by gnuplot to SVG, which the page holds inline:
 * each model's first run writes its CSV tables (the files of ibfsim run
 * --csv, docs/results.md) and gnuplot reads them by column name, so the
 * page shows what those files hold. Plots: the messages' latency and the
 * flows' throughput, each as a CDF with a line per model, and with flow
 * workloads each flow's FCT slowdown against its size.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/compare_int.h"

/*
 * A plot: its id in the page, title, axis labels, table, and gnuplot's
 * `using` of its curves: a CDF of one column (y empty), or one column
 * against another as points on a logarithmic x. An optional plot is
 * drawn only when the first model's run wrote its table (fct.csv: flow
 * workloads only).
 */
struct cmp_plot {
	const char *id, *title, *xlabel, *ylabel, *file, *using;
	int scatter, optional;
};

static const struct cmp_plot cmp_plots[] = {
	{ "plot-latency-cdf", "Message latency", "latency (us)",
	  "fraction (CDF)", "messages.csv",
	  "(column(\"status\") == 0 ? column(\"latency_ps\") / 1e6 : NaN)",
	  0, 0 },
	{ "plot-flow-throughput", "Flow throughput", "throughput (Gb/s)",
	  "fraction (CDF)", "flows.csv", "(column(\"gbps\"))", 0, 0 },
	{ "plot-fct-slowdown", "FCT slowdown by flow size",
	  "flow size (bytes)", "FCT slowdown", "fct.csv",
	  "(column(\"size\")):(column(\"slowdown\"))", 1, 1 },
};

#define NPLOTS (sizeof(cmp_plots) / sizeof(cmp_plots[0]))

int ibfs_cli_gnuplot_found(void)
{
	return system("gnuplot -V >/dev/null 2>&1") == 0;
}

/* The gnuplot script drawing plot p to out, a line per model. */
static void plot_script(FILE *g, const struct cmp_args *a,
			const struct cmp_plot *p, const char *out)
{
	fprintf(g, "reset\n"
		   "set terminal svg size 640,400 font 'sans,11' noenhanced\n"
		   "set output '%s'\n"
		   "set datafile separator comma\n"
		   "set key %s\nset grid\n"
		   "set title '%s'\nset xlabel '%s'\nset ylabel '%s'\n%s"
		   "plot ", out, p->scatter ? "top left" : "bottom right",
		p->title, p->xlabel, p->ylabel,
		p->scatter ? "set logscale x\n" : "set yrange [0:1]\n");
	for (int m = 0; m < a->nmodels; m++)
		fprintf(g, "%s'%s/%s/%s' using %s%s title '%s'",
			m ? ", \\\n     " : "", a->tmp,
			ibfs_cli_cmp_models[a->models[m]], p->file, p->using,
			p->scatter ? " with points pt 7 ps 0.5" :
				     ":(1) smooth cnormal with steps lw 2",
			ibfs_cli_cmp_models[a->models[m]]);
	fputs("\n", g);
}

/* Whether plot p is drawn: not optional, or its table was written. */
static int plot_drawn(const struct cmp_args *a, const struct cmp_plot *p)
{
	char path[600];
	if (!p->optional)
		return 1;
	snprintf(path, sizeof(path), "%s/%s/%s", a->tmp,
		 ibfs_cli_cmp_models[a->models[0]], p->file);
	return access(path, R_OK) == 0;
}

/* Runs gnuplot over every plot; 0, or -1 after a message. */
static int plots_draw(const struct cmp_args *a)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/plots.gp", a->tmp);
	FILE *g = fopen(path, "w");
	if (!g) {
		ibfs_cli_error("%s: %s", path, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < NPLOTS; i++) {
		char out[512];
		if (!plot_drawn(a, &cmp_plots[i]))
			continue;
		snprintf(out, sizeof(out), "%s/%s.svg", a->tmp, cmp_plots[i].id);
		plot_script(g, a, &cmp_plots[i], out);
	}
	if (fclose(g) != 0) {
		ibfs_cli_error("%s: %s", path, strerror(errno));
		return -1;
	}
	char cmd[1200];
	snprintf(cmd, sizeof(cmd), "gnuplot '%s' 2>'%s/gnuplot.err'", path,
		 a->tmp);
	if (system(cmd) != 0) {
		ibfs_cli_error("--html: gnuplot failed (%s/gnuplot.err)",
			       a->tmp);
		return -1;
	}
	return 0;
}

static void html_text(FILE *o, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", o);
		else if (*s == '>')
			fputs("&gt;", o);
		else if (*s == '&')
			fputs("&amp;", o);
		else if (*s == '"')
			fputs("&quot;", o);
		else
			fputc(*s, o);
	}
}

/* Copies the SVG file path into the page from its <svg element on. */
static int svg_inline(FILE *o, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char buf[8192];
	size_t n;
	int in = 0;
	while ((n = fread(buf, 1, sizeof(buf) - 1, f)) > 0) {
		buf[n] = 0;
		const char *p = buf;
		if (!in) {
			/* The prolog (XML declaration, doctype) stays out. */
			p = strstr(buf, "<svg");
			if (!p)
				continue;
			in = 1;
		}
		fwrite(p, 1, n - (size_t)(p - buf), o);
	}
	fclose(f);
	return in ? 0 : -1;
}

static void html_table(FILE *o, const struct cmp_args *a,
		       const struct ibfs_cli_run *runs)
{
	const char *sec = "";
	fputs("<table id=\"compare\">\n<thead><tr><th></th>", o);
	for (int m = 0; m < a->nmodels; m++)
		fprintf(o, "<th>%s</th>", ibfs_cli_cmp_models[a->models[m]]);
	fputs("</tr></thead>\n<tbody>\n", o);
	for (size_t i = 0; i < ibfs_cli_cmp_nrows; i++) {
		const struct cmp_row *w = &ibfs_cli_cmp_rows[i];
		if (strcmp(sec, w->section)) {
			sec = w->section;
			fprintf(o, "<tr class=\"section\"><th colspan=\"%d\">"
				   "%s</th></tr>\n", a->nmodels + 1, sec);
		}
		fprintf(o, "<tr data-key=\"%s\"><td>", w->key);
		html_text(o, w->label);
		fputs("</td>", o);
		for (int m = 0; m < a->nmodels; m++) {
			char cell[128];
			ibfs_cli_cmp_cell(cell, sizeof(cell), w,
					  runs + (size_t)m * a->seeds, a->seeds);
			fputs("<td>", o);
			html_text(o, cell);
			fputs("</td>", o);
		}
		fputs("</tr>\n", o);
	}
	fputs("</tbody>\n</table>\n", o);
}

static int html_body(FILE *o, const struct cmp_args *a,
		     const struct ibfs_cli_run *runs)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n<title>ibfsim compare: ", o);
	html_text(o, a->scenario);
	fputs("</title>\n<style>\n"
	      "body { font-family: sans-serif; margin: 2em; }\n"
	      "table { border-collapse: collapse; }\n"
	      "td, th { border: 1px solid #ccc; padding: 0.2em 0.6em; "
	      "text-align: left; }\n"
	      "tr.section th { background: #eee; }\n"
	      "figure { display: inline-block; margin: 1em; }\n"
	      "</style>\n</head>\n<body>\n<h1>ibfsim compare</h1>\n<p>", o);
	html_text(o, a->scenario);
	fprintf(o, ", %llu seed(s) from %llu</p>\n",
		(unsigned long long)a->seeds, (unsigned long long)a->seed);
	html_table(o, a, runs);
	for (size_t i = 0; i < NPLOTS; i++) {
		char path[512];
		if (!plot_drawn(a, &cmp_plots[i]))
			continue;
		snprintf(path, sizeof(path), "%s/%s.svg", a->tmp,
			 cmp_plots[i].id);
		fprintf(o, "<figure id=\"%s\">\n", cmp_plots[i].id);
		if (svg_inline(o, path) < 0) {
			ibfs_cli_error("--html: gnuplot drew no %s", path);
			return -1;
		}
		fputs("<figcaption>", o);
		html_text(o, cmp_plots[i].title);
		fputs(" (first seed)</figcaption>\n</figure>\n", o);
	}
	fputs("</body>\n</html>\n", o);
	return 0;
}

int ibfs_cli_cmp_html(const struct cmp_args *a, const struct ibfs_cli_run *runs)
{
	if (plots_draw(a) < 0)
		return -1;
	char tmp[4200];
	snprintf(tmp, sizeof(tmp), "%.4000s.tmp", a->html);
	FILE *o = fopen(tmp, "w");
	if (!o) {
		ibfs_cli_error("%s: %s", a->html, strerror(errno));
		return -1;
	}
	int rc = html_body(o, a, runs);
	if (fclose(o) != 0 || (rc == 0 && rename(tmp, a->html) != 0)) {
		ibfs_cli_error("%s: %s", a->html, strerror(errno));
		rc = -1;
	}
	if (rc < 0)
		unlink(tmp);
	return rc;
}
