/* SPDX-License-Identifier: MIT */
/*
 * What scenario_xml.c shares with the readers of elements kept in files
 * of their own (scenario_mcast.c, scenario_collective.c): the parsing
 * context and its attribute readers, each returning 0, or -1 with
 * "FILE:LINE: what is wrong" in x->d.
 */
#ifndef IBFS_SCENARIO_SCENARIO_XML_INT_H
#define IBFS_SCENARIO_SCENARIO_XML_INT_H

#include <libxml/tree.h>

#include "scenario/scenario.h"

/* Parsing context: the file being read and where errors go. */
struct sx {
	const char *file;
	struct ibfs_diag *d;
	struct ibfs_scenario *s;
};

struct ibfs_sx_attrs {
	/* Attribute `name` through `parse`; absent: *out = dflt. */
	int (*unit)(struct sx *x, xmlNode *n, const char *name,
		    int (*parse)(const char *, uint64_t *),
		    const char *quantity, uint64_t dflt, uint64_t *out);
	/* Attribute `name` as an HCA's node index; absent: -1. */
	int (*hca)(struct sx *x, xmlNode *n, const char *name, int *out);
	/* One of names[0..count); absent: dflt. */
	int (*enumerated)(struct sx *x, xmlNode *n, const char *name,
			  const char *const *names, int count, int dflt,
			  int *out);
	/* sl="0".."15". */
	int (*sl)(struct sx *x, xmlNode *n, uint8_t *out, uint8_t *given);
	/* qps="1".."1024" and rate="..." (above 0). */
	int (*load)(struct sx *x, xmlNode *n, uint32_t *qps, uint64_t *rate);
	/* count="1".. */
	int (*count)(struct sx *x, xmlNode *n, uint32_t *out);
	/* op, qp and size go together (a UD message: one MTU). */
	int (*op)(struct sx *x, long line, enum ibfs_sc_op op,
		  enum ibfs_sc_qp qp, uint64_t *size, int size_given);
	/* op (default dflt) and qp (default rc), by their names in
	 * docs/scenario-format.md. */
	int (*op_qp)(struct sx *x, xmlNode *n, enum ibfs_sc_op dflt,
		     enum ibfs_sc_op *op, enum ibfs_sc_qp *qp);
};
extern const struct ibfs_sx_attrs ibfs__sx_attrs;

/* A file named relative to the scenario file (as <fabric file>). */
void ibfs__sx_resolve(const char *scenario, const char *ref, char *path,
		      size_t len);
/* scenario_sm.c: <subnet-manager>. */
int ibfs__sx_read_sm(struct sx *x, xmlNode *n);
/* scenario_transport.c: <transport> past its model (set already). */
int ibfs__sx_read_transport(struct sx *x, xmlNode *n);

/* scenario_mcast.c: <multicast-group> and <multicast>. */
int ibfs__sx_read_group(struct sx *x, xmlNode *n);
int ibfs__sx_read_mcast(struct sx *x, xmlNode *n);
/*
 * After every element: each sender joins its group as a SendOnly member
 * (OpenSM builds the tree over every member, sending ones included).
 */
int ibfs__sx_mcast_finish(struct sx *x);
void ibfs__sx_mcast_free(struct ibfs_scenario *s);

/* scenario_mjoin.c: <multicast-join> and <multicast-leave> (leave 1). */
int ibfs__sx_read_mjoin(struct sx *x, xmlNode *n, int leave);
/* After every element: the checks that need all of them. */
int ibfs__sx_mjoin_finish(struct sx *x);

/* scenario_flows.c: <pattern kind="flows">'s attributes into p (its
 * dst already read); the flows-only attribute n carries, or NULL. */
int ibfs__sx_read_flows(struct sx *x, xmlNode *n, struct ibfs_sc_pattern *p);
const char *ibfs__sx_flows_attr(xmlNode *n);
/* scenario_ecn.c: the <ecn> in <transport>, if any. */
int ibfs__sx_read_ecn(struct sx *x, xmlNode *transport);

/* scenario_collective.c: <collective>. */
int ibfs__sx_read_collective(struct sx *x, xmlNode *n);

#endif
