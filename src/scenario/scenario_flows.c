/* SPDX-License-Identifier: MIT */
/*
 * Reading <pattern kind="flows"> (docs/scenario-format.md): sizes= names a
 * flow-size CDF, the shipped "websearch" or "hadoop" (platforms/workloads/)
 * or a file relative to the scenario; load= the offered load on each
 * sender's link as a fraction of its data rate ("0.5" or "50%");
 * placement= "all-to-all" (each flow to an HCA drawn uniformly among the
 * others) or "incast" (every flow to dst); duration= how long arrivals
 * go on from start. A flow is one RDMA WRITE on RC: the attributes that
 * set a message's size, count, rate or operation do not apply.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/units.h"
#include "fabric/xml_doc.h"
#include "scenario/flow_cdf.h"
#include "scenario/scenario_xml_int.h"

static int flows_has(xmlNode *n, const char *name)
{
	return xmlHasProp(n, (const xmlChar *)name) != NULL;
}

/* The CDF of sizes="...": a shipped name or a file. */
static int flows_cdf(struct sx *x, xmlNode *n, struct ibfs_sc_pattern *p)
{
	char *v = (char *)xmlGetProp(n, (const xmlChar *)"sizes");
	char path[4096];
	struct ibfs_diag inner;

	if (!strcmp(v, "websearch") || !strcmp(v, "hadoop"))
		snprintf(path, sizeof(path), "%s/workloads/%s.cdf",
			 ibfs__platforms_dir(), v);
	else
		ibfs__sx_resolve(x->file, v, path, sizeof(path));
	p->cdf = ibfs__flow_cdf_load(path, v, &inner);
	xmlFree(v);
	if (!p->cdf) {
		/* The CDF's own FILE:LINE says where it is wrong. */
		*x->d = inner;
		return -1;
	}
	return 0;
}

/* load="0.5" or "50%": above 0, at most 1. */
static int flows_load(struct sx *x, xmlNode *n, struct ibfs_sc_pattern *p)
{
	char *v = (char *)xmlGetProp(n, (const xmlChar *)"load");
	char *end;

	errno = 0;
	double l = strtod(v, &end);

	if (end != v && *end == '%' && end[1] == 0) {
		l /= 100.0;
		end++;
	}
	int bad = end == v || *end || errno || !(l > 0.0 && l <= 1.0);

	if (bad)
		ibfs__diag(x->d, x->file, ibfs__xml_line(n),
			   "load=\"%s\": a fraction of the link's data rate "
			   "above 0 and at most 1 (\"0.5\" or \"50%%\")", v);
	xmlFree(v);
	p->load = l;
	return bad ? -1 : 0;
}

/* Refuses the message attributes a flow does not take. */
static int flows_refuse(struct sx *x, xmlNode *n)
{
	static const char *const no[] = {"size", "count", "rate", "qps",
					  "op", "shift"};

	for (size_t i = 0; i < sizeof(no) / sizeof(*no); i++)
		if (flows_has(n, no[i]))
			return ibfs__diag(x->d, x->file, ibfs__xml_line(n),
					  "%s does not apply to kind=\"flows\" "
					  "(a flow is one RDMA WRITE of a size "
					  "drawn from sizes=)", no[i]);
	return 0;
}

int ibfs__sx_read_flows(struct sx *x, xmlNode *n, struct ibfs_sc_pattern *p)
{
	static const char *const place[] = {"all-to-all", "incast"};
	static const char *const need[] = {"sizes", "load", "duration"};
	uint64_t dur;

	for (size_t i = 0; i < sizeof(need) / sizeof(*need); i++)
		if (!flows_has(n, need[i]))
			return ibfs__diag(x->d, x->file, ibfs__xml_line(n),
					  "kind=\"flows\" needs %s=", need[i]);
	if (flows_refuse(x, n) < 0 ||
	    ibfs__sx_attrs.enumerated(x, n, "placement", place, 2, 0,
				      &p->incast) < 0 ||
	    ibfs__sx_attrs.unit(x, n, "duration", ibfs__parse_time, "time", 0,
				&dur) < 0 ||
	    flows_load(x, n, p) < 0)
		return -1;
	if (dur == 0)
		return ibfs__diag(x->d, x->file, ibfs__xml_line(n),
				  "duration must be above 0");
	/* A flow ends when its last byte is acknowledged (results_flows.c),
	 * which only a reliable connection does. */
	if (p->qp != IBFS_SC_RC)
		return ibfs__diag(x->d, x->file, ibfs__xml_line(n),
				  "qp=\"%s\": a flow runs on qp=\"rc\" (its "
				  "completion is the ACK of its last byte)",
				  ibfs__sc_qp_str(p->qp));
	p->duration = (ibfs_time_t)dur;
	if (p->incast && p->dst < 0)
		return ibfs__diag(x->d, x->file, ibfs__xml_line(n),
				  "placement=\"incast\" needs dst");
	if (!p->incast && p->dst >= 0)
		return ibfs__diag(x->d, x->file, ibfs__xml_line(n),
				  "dst applies only to placement=\"incast\"");
	return flows_cdf(x, n, p);
}

/* Whether n carries an attribute only kind="flows" takes (its name). */
const char *ibfs__sx_flows_attr(xmlNode *n)
{
	static const char *const only[] = {"sizes", "load", "placement",
					   "duration"};

	for (size_t i = 0; i < sizeof(only) / sizeof(*only); i++)
		if (flows_has(n, only[i]))
			return only[i];
	return NULL;
}
