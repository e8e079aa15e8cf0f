/* SPDX-License-Identifier: MIT */
/*
 * Internals shared by the generator files: topo_gen.c (trees, grids,
 * hypercube, dragonfly and the kind table), topo_gen_direct.c (HyperX,
 * Dragonfly+) and topo_gen_slimfly.c (Slim Fly). One parser for the
 * name/value parameters, one set of messages, one way to name nodes and
 * add links.
 */
#ifndef IBFS_FABRIC_TOPO_GEN_INT_H
#define IBFS_FABRIC_TOPO_GEN_INT_H

#include "fabric/topo_gen.h"

#define GEN_MAX_LEVELS 8
#define GEN_MAX_DIMS 6
/* Generous cap so a typo cannot ask for billions of nodes. */
#define GEN_MAX_NODES 4000000

struct gen {
  struct ibfs_topology *t;
  const struct ibfs_gen_param *p;
  int np;
  const char *prefix, *file;
  long line;
  struct ibfs_diag *d;
  const char *kind;
};

/* The value of parameter `name`, or NULL. */
const char *ibfs__gen_get(struct gen *g, const char *name);
/* Rejects any parameter that is not in the NULL-terminated list `known`. */
int ibfs__gen_check_known(struct gen *g, const char *const *known);
/* An integer parameter in [lo, hi]; `def` < 0 means it is required. */
int ibfs__gen_int(struct gen *g, const char *name, long def, long lo, long hi,
                  long *out);
/* Parses "4x4x2" or "4,4,2" into out; returns the count or -1. */
int ibfs__gen_list(struct gen *g, const char *name, long lo, long hi, long *out,
                   int max);
/* A node named prefix + fmt(a, b); returns its index or -1. */
int ibfs__gen_node(struct gen *g, enum ibfs_node_type ty, int nports,
                   const char *fmt, long a, long b);
/* A link a:pa -- b:pb with the topology's default speed and width. */
int ibfs__gen_link(struct gen *g, int a, int pa, int b, int pb);
/*
 * n switches sw1..sw<n> with `links` switch ports then `hcas` HCAs each
 * (node<s*hcas+h+1> on port links + h + 1); returns sw1's index or -1.
 */
int ibfs__gen_sw_hcas(struct gen *g, long n, long links, long hcas);
/* -1 with a message when `nodes` passes GEN_MAX_NODES. */
int ibfs__gen_too_big(struct gen *g, double nodes);

/* The kinds of topo_gen_direct.c and topo_gen_slimfly.c. */
int ibfs__gen_hyperx(struct gen *g);
int ibfs__gen_dragonfly_plus(struct gen *g);
int ibfs__gen_slimfly(struct gen *g);

#endif
