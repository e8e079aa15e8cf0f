/* SPDX-License-Identifier: MIT */
/*
 * The scenario reader's context and attribute helpers (scenario_xml.c),
 * for the readers of elements kept in files of their own
 * (scenario_collective.c). Each helper reports a bad value as
 * "FILE:LINE: what is wrong" in x->d and returns -1.
 */
#ifndef IBFS_SCENARIO_XML_INT_H
#define IBFS_SCENARIO_XML_INT_H

#include <libxml/tree.h>

#include "scenario/scenario.h"

/* Parsing context: the file being read and where errors go. */
struct sx {
	const char *file;
	struct ibfs_diag *d;
	struct ibfs_scenario *s;
};

/* Attribute `name` parsed with `parse` (a units.h parser), else dflt. */
int ibfs__sx_unit(struct sx *x, xmlNode *n, const char *name,
		  int (*parse)(const char *, uint64_t *),
		  const char *quantity, uint64_t dflt, uint64_t *out);
/* One of `names` (its index), else dflt. */
int ibfs__sx_enum(struct sx *x, xmlNode *n, const char *name,
		  const char *const *names, int count, int dflt, int *out);
/* An HCA of the fabric by id (its node index), else -1. */
int ibfs__sx_hca(struct sx *x, xmlNode *n, const char *name, int *out);
/* op (default dflt) and qp (default rc), by SPEC's names. */
int ibfs__sx_op_qp(struct sx *x, xmlNode *n, enum ibfs_sc_op dflt,
		   enum ibfs_sc_op *op, enum ibfs_sc_qp *qp);
/* sl="0".."15"; *given says whether it was written. */
int ibfs__sx_sl(struct sx *x, xmlNode *n, uint8_t *out, uint8_t *given);
/* count="N", 1 to 2^32 - 1, default 1. */
int ibfs__sx_count(struct sx *x, xmlNode *n, uint32_t *out);
/* That op, qp and size go together (atomics: size becomes 8). */
int ibfs__sx_check_op(struct sx *x, long line, enum ibfs_sc_op op,
		      enum ibfs_sc_qp qp, uint64_t *size, int size_given);

/* <collective> (scenario_collective.c). */
int ibfs__sx_read_collective(struct sx *x, xmlNode *n);

#endif
