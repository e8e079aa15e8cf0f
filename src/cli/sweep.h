/* SPDX-License-Identifier: MIT */
/*
 * A sweep's grid (docs/sweep-format.md): one scenario and the dimensions
 * it varies along (the model, the seed, or an attribute of the
 * scenario's elements), whose product is the list of points, the first
 * dimension outermost. sweep_grid.c reads it; cmd_sweep.c runs it.
 */
#ifndef IBFS_CLI_SWEEP_H
#define IBFS_CLI_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/diag.h"

enum ibfs_sweep_kind { IBFS_SW_MODEL, IBFS_SW_SEED, IBFS_SW_ATTR };

struct ibfs_sweep_dim {
	char *name;             /* as written: "model", "seed", "a/b@c" */
	enum ibfs_sweep_kind kind;
	char *path;             /* ATTR: the element path "a/b" */
	char *attr;             /* ATTR: the attribute "c" */
	char **values;
	size_t nvalues;
	long line;
};

struct ibfs_sweep {
	char *file;             /* the grid file */
	char *name;
	char *scenario;         /* its path, relative to the grid's dir */
	struct ibfs_sweep_dim *dims;
	size_t ndims;
	size_t npoints;
};

/* Reads the grid at path into s: 0, or -1 with "FILE:LINE: ..." in d. */
int ibfs_cli_sweep_load(const char *path, struct ibfs_sweep *s,
			struct ibfs_diag *d);
void ibfs_cli_sweep_free(struct ibfs_sweep *s);
/* Point p's value of dimension k. */
const char *ibfs_cli_sweep_value(const struct ibfs_sweep *s, size_t p,
				 size_t k);
/* The elements of doc (a parsed scenario) that dimension k sets. */
struct _xmlDoc;
size_t ibfs_cli_sweep_matches(const struct ibfs_sweep *s, size_t k,
			      struct _xmlDoc *doc);
/* Gives doc's elements point p's attribute values. */
void ibfs_cli_sweep_apply(const struct ibfs_sweep *s, size_t p,
			  struct _xmlDoc *doc);

#endif
