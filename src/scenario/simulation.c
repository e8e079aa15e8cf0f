/* SPDX-License-Identifier: MIT */
/*
 * The public simulation calls (ibfsim/simulation.h): a thin layer over the
 * fabric loader and the assembly shared with `ibfsim run`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ibfsim/simulation.h>

#include "fabric/xml_fabric.h"
#include "scenario/assemble.h"

struct ibfs_simulation {
	struct ibfs_topology *topo;
	struct ibfs_assembly as;
	struct ibfs_diag diag;
};

struct ibfs_simulation *ibfs_simulation_create(int *argc, char **argv,
					       const char *fabric_xml,
					       const struct ibfs_simulation_opts
						       *opts,
					       char *err, size_t errlen)
{
	struct ibfs_simulation *s = calloc(1, sizeof(*s));
	struct ibfs_simulation_opts dflt = {0};
	if (!opts)
		opts = &dflt;
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	/* A program's SLs are not known beforehand: every priority is
	 * lossless. */
	static const struct ibfs_sc_eth eth = {.pfc = 1, .lossless = 0xFF};
	int roce = opts->model && !strcmp(opts->model, "roce");

	if (opts->model && !roce && strcmp(opts->model, "ib")) {
		snprintf(err, errlen, "model '%s': not one of ib, roce",
			 opts->model);
		free(s);
		return NULL;
	}
	ibfs__bridge_init(argc, argv);
	s->topo = ibfs__fabric_xml_load(fabric_xml, &s->diag);
	struct ibfs_assembly_opts ao = {
		.seed = opts->seed ? opts->seed : 1, .data = !opts->no_data,
		.routing = opts->routing, .lmc = opts->lmc, .roce = roce,
		.eth = &eth};
	if (!s->topo || ibfs__assemble(&s->as, s->topo, &ao, &s->diag) < 0) {
		snprintf(err, errlen, "%s", s->diag.msg);
		ibfs__topo_free(s->topo);
		free(s);
		return NULL;
	}
	return s;
}

int ibfs_simulation_spawn(struct ibfs_simulation *s, const char *hca,
			  const char *name, void (*fn)(int, char **),
			  int argc, char **argv)
{
	/* The actor's argv[0] is its name, as a program's is. */
	char **v = calloc((size_t)argc + 2, sizeof(*v));
	if (!v)
		return -1;
	v[0] = (char *)name;
	for (int i = 0; i < argc; i++)
		v[i + 1] = argv[i];
	int rc = ibfs__bridge_spawn(s->as.bridge, hca, name, fn, argc + 1, v);
	free(v);
	return rc < 0 ? -1 : 0;
}

int ibfs_simulation_run(struct ibfs_simulation *s)
{
	int rc = ibfs__bridge_run(s->as.bridge);
	/* Out of memory stops the fabric too (ibfs__fabric_nomem). */
	return rc < 0 || s->as.fab->stopped || s->as.fab->eq.nomem ? 1 : 0;
}

uint64_t ibfs_simulation_time(const struct ibfs_simulation *s)
{
	return s->as.fab->eq.now;
}

void ibfs_simulation_destroy(struct ibfs_simulation *s)
{
	if (!s)
		return;
	ibfs__assembly_free(&s->as);
	ibfs__topo_free(s->topo);
	free(s);
}
