/* SPDX-License-Identifier: MIT */
/*
 * <subnet-manager>: the reader of a scenario's subnet manager settings
 * (docs/scenario-format.md): the routing engine and its LFT file, the SM's
 * host, LMC and mode, QoS (qos.h), congestion control (cc_config.h) and
 * partitions (partitions.h), each checked against the fabric now, so that
 * nothing that would fail later runs.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/units.h"
#include "fabric/xml_doc.h"
#include "scenario/scenario_xml_int.h"
#include "subnet_manager/cc_config.h"
#include "subnet_manager/lft_dump.h"
#include "subnet_manager/partitions.h"
#include "subnet_manager/qos.h"
#include "subnet_manager/routing.h"
#include "subnet_manager/subnet.h"

/* The attribute's value (the caller frees it with xmlFree), or NULL. */
static char *sm_attr(xmlNode *n, const char *name)
{
	return (char *)xmlGetProp(n, (const xmlChar *)name);
}

/* A file named relative to the scenario file (as <fabric file>). */
void ibfs__sx_resolve(const char *scenario, const char *ref, char *path,
		      size_t len)
{
	if (ref[0] == '/') {
		snprintf(path, len, "%s", ref);
		return;
	}
	char *copy = strdup(scenario);
	snprintf(path, len, "%s/%s", copy ? dirname(copy) : ".", ref);
	free(copy);
}

/*
 * routing="file": the LFT dump is read against this fabric's subnet (its
 * switch GUIDs, LIDs and ports) now, as the engine will read it, so that
 * a file that does not fit is refused before anything runs.
 */
static int check_lfts(struct sx *x, xmlNode *n)
{
	struct ibfs_diag inner;
	struct ibfs_subnet *sn = ibfs__subnet_from_topo(x->s->topo, &inner);
	int bad = !sn || ibfs__subnet_assign_lids(sn, x->s->lmc, &inner) ||
		  ibfs__lft_load(sn, x->s->lfts, &inner);

	ibfs__subnet_free(sn);
	if (bad)
		return ibfs__diag(x->d, x->file, ibfs__xml_line(n), "in lfts: %s",
				  inner.msg);
	return 0;
}

/*
 * OpenSM's QoS options as <subnet-manager> attributes (qos.h), each in
 * OpenSM's syntax: qos-sl2vl, qos-vlarb-high, qos-vlarb-low and
 * qos-high-limit. Any of them turns QoS on; those not given keep the
 * fabric's defaults, but the limit is OpenSM's 0 (one high-priority
 * packet, then a low-priority one may go).
 */
static int read_qos(struct sx *x, xmlNode *n)
{
	int vls = x->s->topo->def.data_vls > 0 ? x->s->topo->def.data_vls : 1;
	char *v[IBFS_QOS_NOPTS];
	char err[160] = "";
	int bad = -1, rc;

	for (int i = 0; i < IBFS_QOS_NOPTS; i++)
		v[i] = sm_attr(n, ibfs__qos_opt_names[i]);
	rc = ibfs__qos_from_opts(&x->s->qos, vls, (const char *const *)v,
				 &bad, err, sizeof(err));
	if (rc && bad >= 0)
		ibfs__diag(x->d, x->file, ibfs__xml_line(n), "%s=\"%s\": %s",
			   ibfs__qos_opt_names[bad], v[bad], err);
	else if (rc)
		ibfs__diag(x->d, x->file, ibfs__xml_line(n), "%s", err);
	for (int i = 0; i < IBFS_QOS_NOPTS; i++)
		xmlFree(v[i]);
	return rc ? -1 : 0;
}

/*
 * OpenSM's congestion control options as <subnet-manager> attributes
 * (cc_config.h), named as OpenSM names them with '-' for '_', each in
 * OpenSM's syntax. The others are refused without
 * congestion-control="true", which they would not affect.
 */
static int read_cc(struct sx *x, xmlNode *n)
{
	struct ibfs_cc_config *c = &x->s->cc;
	char err[160] = "", name[64];
	const char *given = NULL;

	ibfs__cc_default(c);
	for (int i = 0; i < IBFS_CC_NOPTS; i++) {
		const char *o = ibfs__cc_opt_names[i];

		ibfs__cc_attr_name(o, name, sizeof(name));
		char *v = sm_attr(n, name);
		if (!v)
			continue;
		int rc = ibfs__cc_parse(c, (enum ibfs_cc_opt)i, v, err,
					sizeof(err));
		if (rc < 0)
			ibfs__diag(x->d, x->file, ibfs__xml_line(n), "%s=\"%s\": %s",
				   name, v, err);
		xmlFree(v);
		if (rc < 0)
			return -1;
		if (i != IBFS_CC_ENABLE && !given)
			given = o;
	}
	if (given && !c->enabled) {
		ibfs__cc_attr_name(given, name, sizeof(name));
		return ibfs__diag(x->d, x->file, ibfs__xml_line(n),
				  "%s has no effect without "
				  "congestion-control=\"true\"",
				  name);
	}
	if (c->enabled && ibfs__cc_check(c, err, sizeof(err)) < 0)
		return ibfs__diag(x->d, x->file, ibfs__xml_line(n), "%s", err);
	return 0;
}

/*
 * partitions="FILE", relative to the scenario: read now, against the
 * fabric; a file that cannot be read is the scenario's fault (its line),
 * a mistake inside it the file's (its own line).
 */
static int read_partitions(struct sx *x, xmlNode *n)
{
	char *ref = sm_attr(n, "partitions"), path[4096];
	struct ibfs_diag inner;

	if (!ref)
		return 0;
	ibfs__sx_resolve(x->file, ref, path, sizeof(path));
	xmlFree(ref);
	FILE *fp = fopen(path, "rb");

	if (!fp)
		return ibfs__diag(x->d, x->file, ibfs__xml_line(n),
				  "partitions: cannot read %s: %s", path,
				  strerror(errno));
	fclose(fp);
	ibfs__partitions_free(x->s->partitions);
	x->s->partitions = ibfs__partitions_load(path, x->s->topo, &inner);
	if (x->s->partitions)
		return 0;
	*x->d = inner;
	return -1;
}

int ibfs__sx_read_sm(struct sx *x, xmlNode *n)
{
	char *routing = sm_attr(n, "routing"), *lfts = sm_attr(n, "lfts");
	if (routing) {
		free(x->s->routing);
		x->s->routing = strdup(routing);
		xmlFree(routing);
	}
	if (lfts) {
		char path[4096];
		ibfs__sx_resolve(x->file, lfts, path, sizeof(path));
		xmlFree(lfts);
		free(x->s->lfts);
		x->s->lfts = strdup(path);
	}
	if (read_partitions(x, n) < 0)
		return -1;
	if (x->s->routing && !ibfs__routing_find(x->s->routing)) {
		char list[256];

		ibfs__routing_names(list, sizeof(list));
		return ibfs__diag(x->d, x->file, ibfs__xml_line(n),
				  "routing=\"%s\": unknown routing engine "
				  "(known: %s)", x->s->routing, list);
	}
	if (x->s->routing && !strcmp(x->s->routing, "file") && !x->s->lfts)
		return ibfs__diag(x->d, x->file, ibfs__xml_line(n),
				  "routing=\"file\" needs lfts=\"FILE\" (an "
				  "opensm-lfts.dump)");
	static const char *const modes[] = {"inband", "instant"};
	uint64_t lmc;
	if (ibfs__sx_attrs.enumerated(x, n, "mode", modes, 2, 0, &x->s->instant) < 0 ||
	    ibfs__sx_attrs.hca(x, n, "host", &x->s->sm_node) < 0 ||
	    ibfs__sx_attrs.unit(x, n, "lmc", ibfs__parse_uint, "count", 0, &lmc) < 0)
		return -1;
	if (lmc > 7)
		return ibfs__diag(x->d, x->file, ibfs__xml_line(n),
				  "lmc must be 0 to 7 (IBA 14.2.5.6)");
	x->s->lmc = (int)lmc;
	if (read_qos(x, n) < 0 || read_cc(x, n) < 0)
		return -1;
	/* The engines that put paths on SLs themselves (OpenSM's path_sl). */
	if (x->s->qos.given && x->s->routing &&
	    (!strcmp(x->s->routing, "dfsssp") ||
	     !strcmp(x->s->routing, "lash"))) {
		char err[200];
		int vls = x->s->topo->def.data_vls;

		if (ibfs__qos_check_layers(&x->s->qos, vls, x->s->routing,
					   err, sizeof(err)) < 0)
			return ibfs__diag(x->d, x->file, ibfs__xml_line(n),
					  "%s", err);
	}
	if (x->s->routing && !strcmp(x->s->routing, "file"))
		return check_lfts(x, n);
	return 0;
}

