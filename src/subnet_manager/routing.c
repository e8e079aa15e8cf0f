/* SPDX-License-Identifier: MIT */
/*
 * The routing manager: one table of engines by OpenSM's names, and the
 * sequence OpenSM's osm_ucast_mgr follows: set the engine up, build its
 * hop matrices, build the forwarding tables; a callback returning a
 * positive value (or missing) means "use the default", minhop; a negative
 * return means failure, and the manager then falls back to minhop unless
 * told not to (OpenSM's routing_engine fallback). Duplicate names are
 * impossible by construction: the table is const and checked by a test.
 */
#include <stdio.h>
#include <string.h>

#include "subnet_manager/routing.h"

const struct ibfs_routing_entry ibfs__routing_engines[] = {
	{"minhop", ibfs__route_minhop_setup,
	 "shortest paths, balanced over equal-cost ports (default)"},
	{"updn", ibfs__route_updn_setup,
	 "up*/down* from root switches: deadlock-free on any topology"},
	{"dnup", ibfs__route_dnup_setup,
	 "down*/up*: ranks from the CA switches, never up then down"},
	{"ftree", ibfs__route_ftree_setup,
	 "fat trees (k-ary n-trees, XGFTs): balanced up ports"},
	{"dor", ibfs__route_dor_setup,
	 "dimension order on meshes, tori, hypercubes (lowest port)"},
	{"dfsssp", ibfs__route_dfsssp_setup,
	 "deadlock-free SSSP: balanced paths, SLs/VLs break credit loops"},
	{"lash", ibfs__route_lash_setup,
	 "layered shortest paths: switch pairs on SLs/VLs without loops"},
	{"file", ibfs__route_file_setup,
	 "LFTs from an opensm-lfts.dump file (--lfts-file)"},
	{NULL, NULL, NULL},
};

const struct ibfs_routing_entry *ibfs__routing_find(const char *name)
{
	for (const struct ibfs_routing_entry *e = ibfs__routing_engines;
	     e->name; e++)
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}

/* Runs one engine. Returns <0 failed, 0 done, >0 use the default. */
static int routing_try(struct ibfs_subnet *sn,
		       const struct ibfs_routing_entry *e,
		       const struct ibfs_routing_opts *opts)
{
	struct ibfs_routing_engine re = {.name = e->name, .sn = sn,
					 .opts = opts};
	int rc = e->setup(&re);
	if (rc < 0)
		return rc;
	if (re.build_lid_matrices) {
		rc = re.build_lid_matrices(re.ctx);
		if (rc < 0)
			goto out;
	}
	rc = re.ucast_build_fwd_tables ? re.ucast_build_fwd_tables(re.ctx)
				       : 1;
out:
	if (re.destroy)
		re.destroy(re.ctx);
	return rc;
}

void ibfs__routing_names(char *buf, size_t len)
{
	size_t n = 0;

	if (len)
		buf[0] = 0;
	for (const struct ibfs_routing_entry *x = ibfs__routing_engines;
	     x->name && n < len; x++) {
		int k = snprintf(buf + n, len - n, "%s%s",
				 x == ibfs__routing_engines ? "" : ", ",
				 x->name);
		if (k < 0)
			break;
		n += (size_t)k;
	}
}

int ibfs__routing_run(struct ibfs_subnet *sn, const char *name,
		      const struct ibfs_routing_opts *opts,
		      struct ibfs_diag *d)
{
	static const struct ibfs_routing_opts none;
	const struct ibfs_routing_entry *e = ibfs__routing_find(name);
	if (!opts)
		opts = &none;
	if (!e) {
		char list[256];

		ibfs__routing_names(list, sizeof(list));
		return ibfs__diag(d, NULL, 0,
				  "unknown routing engine '%s' (known: %s)",
				  name, list);
	}
	ibfs__subnet_clear_routes(sn);
	sn->fallback[0] = 0;
	size_t mark = sn->log_len; /* where this engine's lines begin */
	int rc = routing_try(sn, e, opts);
	if (rc == 0) {
		snprintf(sn->engine, sizeof(sn->engine), "%s", e->name);
		return 0;
	}
	if (rc < 0) {
		/* The cause: the last line the engine wrote in the log. */
		const char *last = NULL;
		int n = 0;

		for (const char *l = sn->log ? sn->log + mark : NULL; l && *l;
		     l += strcspn(l, "\n") + 1) {
			last = l;
			n = (int)strcspn(l, "\n");
			if (!l[n])
				break;
		}
		if (opts->no_fallback || !strcmp(e->name, "minhop"))
			return ibfs__diag(d, NULL, 0,
					  "routing engine '%s' failed%s%.*s",
					  e->name, last ? ": " : "", n,
					  last ? last : "");
		snprintf(sn->fallback, sizeof(sn->fallback), "%s failed%s%.*s",
			 e->name, last ? ": " : "", n, last ? last : "");
		ibfs__subnet_log(sn,
				 "routing engine '%s' failed: falling back to minhop",
				 e->name);
	}
	ibfs__subnet_clear_routes(sn);
	rc = routing_try(sn, ibfs__routing_find("minhop"), opts);
	if (rc)
		return ibfs__diag(d, NULL, 0, "minhop routing failed");
	snprintf(sn->engine, sizeof(sn->engine), "minhop");
	return 0;
}
