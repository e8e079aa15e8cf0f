/* SPDX-License-Identifier: MIT */
/*
 * Reading a flow-size CDF (flow_cdf.h) and drawing from it. The CDF is
 * the piecewise linear function through the points, with P = p[0] for
 * every size up to size[0] (a first point with p > 0 is an atom at its
 * size): u below p[0] draws size[0], and u between p[i-1] and p[i] draws
 * size[i-1] + (u - p[i-1]) / (p[i] - p[i-1]) x (size[i] - size[i-1]),
 * rounded to the nearest byte. Its mean follows in closed form: p[0] x
 * size[0] plus, for each segment, its probability times its midpoint.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/flow_cdf.h"

/* Longest line the reader takes: points are two numbers and a comment. */
#define CDF_LINE 1024

static int cdf_push(struct ibfs_flow_cdf *c, size_t *cap, uint64_t size,
		    double p)
{
	if (c->n == *cap) {
		size_t nc = *cap ? 2 * *cap : 16;
		uint64_t *s = realloc(c->size, nc * sizeof(*s));

		if (!s)
			return -1;
		c->size = s;
		double *q = realloc(c->p, nc * sizeof(*q));

		if (!q)
			return -1;
		c->p = q;
		*cap = nc;
	}
	c->size[c->n] = size;
	c->p[c->n++] = p;
	return 0;
}

/* The line without its comment and its blanks at either end. */
static char *cdf_trim(char *s)
{
	char *hash = strchr(s, '#');

	if (hash)
		*hash = 0;
	while (*s == ' ' || *s == '\t')
		s++;
	size_t len = strlen(s);

	while (len && strchr(" \t\r\n", s[len - 1]))
		s[--len] = 0;
	return s;
}

/* One point "SIZE PROBABILITY": 0, or -1 with d filled. */
static int cdf_point(char *s, const char *path, long line, uint64_t *size,
		     double *p, struct ibfs_diag *d)
{
	char *end;

	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);

	if (end == s || *s == '-' || errno || (*end != ' ' && *end != '\t'))
		return ibfs__diag(d, path, line, "'%s': expected SIZE "
				  "PROBABILITY (a whole number of bytes, then "
				  "a cumulative probability)", s);
	char *q = end;

	errno = 0;
	*p = strtod(q, &end);
	while (*end == ' ' || *end == '\t')
		end++;
	if (end == q || errno || *end)
		return ibfs__diag(d, path, line, "'%s': expected SIZE "
				  "PROBABILITY (a whole number of bytes, then "
				  "a cumulative probability)", s);
	if (!(*p >= 0.0 && *p <= 1.0))
		return ibfs__diag(d, path, line, "probability %g is outside "
				  "[0, 1]", *p);
	*size = v;
	return 0;
}

/* Checks point i against the one before it (read at line prev). */
static int cdf_order(const struct ibfs_flow_cdf *c, const char *path,
		     long line, long prev, struct ibfs_diag *d)
{
	size_t i = c->n - 1;

	if (i == 0)
		return 0;
	if (c->size[i] <= c->size[i - 1])
		return ibfs__diag(d, path, line, "not monotonic: size %llu is "
				  "not above the %llu of line %ld",
				  (unsigned long long)c->size[i],
				  (unsigned long long)c->size[i - 1], prev);
	if (c->p[i] < c->p[i - 1])
		return ibfs__diag(d, path, line, "not monotonic: probability "
				  "%g is below the %g of line %ld", c->p[i],
				  c->p[i - 1], prev);
	return 0;
}

static double cdf_mean(const struct ibfs_flow_cdf *c)
{
	double m = c->p[0] * (double)c->size[0];

	for (size_t i = 1; i < c->n; i++)
		m += (c->p[i] - c->p[i - 1]) *
		     ((double)c->size[i - 1] + (double)c->size[i]) / 2.0;
	return m;
}

static int cdf_read(FILE *f, struct ibfs_flow_cdf *c, const char *path,
		    struct ibfs_diag *d)
{
	char buf[CDF_LINE];
	long line = 0, prev = 0;
	size_t cap = 0;

	while (fgets(buf, sizeof(buf), f)) {
		line++;
		if (!strchr(buf, '\n') && !feof(f))
			return ibfs__diag(d, path, line, "line longer than %d "
					  "characters", CDF_LINE - 2);
		char *s = cdf_trim(buf);
		uint64_t size = 0;
		double p = 0.0;

		if (!*s)
			continue;
		if (cdf_point(s, path, line, &size, &p, d) < 0)
			return -1;
		if (cdf_push(c, &cap, size, p) < 0)
			return ibfs__diag(d, path, line, "out of memory");
		if (cdf_order(c, path, line, prev, d) < 0)
			return -1;
		prev = line;
	}
	if (ferror(f))
		return ibfs__diag(d, path, line, "cannot read: %s",
				  strerror(errno));
	if (!c->n)
		return ibfs__diag(d, path, line, "no points: a CDF needs lines "
				  "of SIZE PROBABILITY, the last at 1");
	if (c->p[c->n - 1] != 1.0)
		return ibfs__diag(d, path, prev, "the last point's probability "
				  "is %g; a CDF ends at 1", c->p[c->n - 1]);
	return 0;
}

struct ibfs_flow_cdf *ibfs__flow_cdf_load(const char *path, const char *name,
					  struct ibfs_diag *d)
{
	struct ibfs_flow_cdf *c = calloc(1, sizeof(*c));
	FILE *f = NULL;

	if (!c || !(c->name = strdup(name))) {
		ibfs__diag(d, path, 0, "out of memory");
		goto fail;
	}
	f = fopen(path, "r");
	if (!f) {
		ibfs__diag(d, path, 0, "cannot open the flow-size CDF: %s",
			   strerror(errno));
		goto fail;
	}
	if (cdf_read(f, c, path, d) < 0)
		goto fail;
	fclose(f);
	c->mean = cdf_mean(c);
	return c;
fail:
	if (f)
		fclose(f);
	ibfs__flow_cdf_free(c);
	return NULL;
}

uint64_t ibfs__flow_cdf_size(const struct ibfs_flow_cdf *c, double u)
{
	size_t i = 0;

	while (i < c->n && u >= c->p[i])
		i++;
	if (i == 0)
		return c->size[0] ? c->size[0] : 1;
	if (i == c->n) /* u >= 1: not from a draw in [0, 1) */
		return c->size[c->n - 1];
	double lo = (double)c->size[i - 1], hi = (double)c->size[i];
	double f = (u - c->p[i - 1]) / (c->p[i] - c->p[i - 1]);
	uint64_t s = (uint64_t)llround(lo + f * (hi - lo));

	return s ? s : 1;
}

void ibfs__flow_cdf_free(struct ibfs_flow_cdf *c)
{
	if (!c)
		return;
	free(c->name);
	free(c->size);
	free(c->p);
	free(c);
}
