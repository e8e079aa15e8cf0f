/* SPDX-License-Identifier: MIT */
/*
 * Simulation assembly (see assemble.h). The order matters: HCAs need the
 * bridge's execution interface, routes need every device attached, and the
 * deadlock monitor watches a fabric whose devices exist.
 */
#include <stdio.h>
#include <string.h>

#include "hca/hca.h"
#include "scenario/assemble.h"
#include "scenario/routes.h"
#include "subnet_manager/qos.h"
#include "subnet_manager/sm.h"
#include "subnet_manager/subnet.h"

/*
 * Packets buffered in switches with no packet starting on any link for this
 * long is a deadlock (IBA never drops for want of credits, so nothing else
 * would end it). Far above any legitimate pause on a live fabric: a 4 KiB
 * packet at SDR 1x takes 2 us.
 */
#define DEADLOCK_TIMEOUT (50 * IBFS_US)

/* ibfs_open_device's locator: the HCA on the calling actor's host. */
static struct ibfs_hca *locate_hca(void *arg)
{
	int node = ibfs__bridge_current_node();
	return node < 0 ? NULL : ibfs__hca_of_node(arg, node);
}

static int make_devices(struct ibfs_assembly *a, struct ibfs_diag *d)
{
	const struct ibfs_topology *t = a->topo;
	struct ibfs_exec exec = ibfs__bridge_exec(a->bridge);
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct ibfs_topo_node *n = &t->nodes[i];
		if (n->type == IBFS_NODE_SWITCH) {
			if (!ibfs__switch_create(a->fab, (int)i, d))
				return -1;
		} else if (!ibfs__hca_create(a->fab, (int)i, n->profile, exec,
					     d)) {
			return -1;
		}
	}
	return 0;
}

uint8_t ibfs__assembly_path_sl(const struct ibfs_assembly *a, uint16_t slid,
			       uint16_t dlid)
{
	const struct ibfs_subnet *sn = a->sm ? ibfs__sm_subnet(a->sm) : a->sn;
	return sn ? ibfs__subnet_path_sl(sn, slid, dlid) : 0;
}

void ibfs__assembly_free(struct ibfs_assembly *a)
{
	ibfs__sm_free(a->sm);
	ibfs__subnet_free(a->sn);
	ibfs__deadlock_monitor_free(a->monitor);
	if (a->bridge)
		ibfs__bridge_free(a->bridge);
	if (a->eth) {
		ibfs__assembly_eth_free(a);
		ibfs__fabric_free(a->fab);
	} else if (a->fab) {
		const struct ibfs_topology *t = a->topo;
		for (size_t i = 0; i < t->nnodes; i++) {
			if (!a->fab->devices[i])
				continue;
			if (t->nodes[i].type == IBFS_NODE_SWITCH)
				ibfs__switch_destroy(
					ibfs__switch_of(a->fab->devices[i]));
			else
				ibfs__hca_free(ibfs__hca_of_node(a->fab,
								 (int)i));
		}
		ibfs__fabric_free(a->fab);
	}
	memset(a, 0, sizeof(*a));
}

/* LIDs and tables: by the in-band SM, or written at once. */
static int program(struct ibfs_assembly *a, const struct ibfs_assembly_opts *o,
		   struct ibfs_diag *d)
{
	const char *engine = o->routing ? o->routing : "minhop";
	if (!o->inband) {
		struct ibfs_routes routes = {.keep_subnet = 1};
		if (ibfs__routes_program(a->fab, engine, o->lmc, o->lfts,
					 &routes, d) < 0)
			return -1;
		if ((o->qos && ibfs__routes_apply_qos(a->fab, o->qos, d) < 0) ||
		    ibfs__cc_apply(a->fab, o->cc, d) < 0 ||
		    ibfs__routes_apply_pkeys(a->fab, o->partitions, o->sm_node,
					     d) < 0 ||
		    ibfs__routes_apply_mcast(a->fab, routes.sn, o->groups,
					     o->ngroups, d) < 0) {
			ibfs__subnet_free(routes.sn);
			return -1;
		}
		snprintf(a->engine, sizeof(a->engine), "%s", routes.engine);
		a->sn = routes.sn;
		return 0;
	}
	a->sm = ibfs__sm_start(a->fab, o->sm_node, engine, o->lmc, o->up,
			       o->up_ctx, d);
	if (!a->sm)
		return -1;
	struct ibfs_routing_opts ro = {.lfts_file = o->lfts,
				       .no_fallback = o->lfts != NULL};
	ibfs__sm_set_routing_opts(a->sm, &ro);
	if (o->qos && o->qos->given)
		ibfs__sm_set_qos(a->sm, o->qos);
	/* Not by the SM's CC MADs, which are not modelled (cc_config.c). */
	if (ibfs__cc_apply(a->fab, o->cc, d) < 0)
		return -1;
	ibfs__sm_set_partitions(a->sm, o->partitions);
	if (o->ngroups && ibfs__sm_set_mcast(a->sm, o->groups, o->ngroups) < 0)
		return ibfs__diag(d, a->fab->topo->file, 0,
				  "out of memory for multicast groups");
	snprintf(a->engine, sizeof(a->engine), "%s", engine);
	return 0;
}

int ibfs__assemble(struct ibfs_assembly *a, const struct ibfs_topology *t,
		   const struct ibfs_assembly_opts *o, struct ibfs_diag *d)
{
	memset(a, 0, sizeof(*a));
	a->topo = t;
	a->fab = ibfs__fabric_new(t, o->seed, o->data);
	if (!a->fab) {
		ibfs__diag(d, t->file, 0, "out of memory building the fabric");
		goto fail;
	}
	a->bridge = ibfs__bridge_new(&a->fab->eq, t, d);
	if (!a->bridge)
		goto fail;
	ibfs__verbs_set_locator(locate_hca, a->fab);
	if (o->roce) {
		/* PFC deadlocks: assemble_eth.c's monitor. */
		if (ibfs__assemble_eth(a, o, d) < 0)
			goto fail;
		ibfs__bridge_watch(a->bridge, &a->fab->stopped);
		return 0;
	}
	if (make_devices(a, d) < 0 || program(a, o, d) < 0)
		goto fail;
	a->monitor = ibfs__deadlock_monitor_new(
		a->fab, o->deadlock_timeout ? o->deadlock_timeout
					    : DEADLOCK_TIMEOUT);
	if (!a->monitor) {
		ibfs__diag(d, t->file, 0, "out of memory");
		goto fail;
	}
	ibfs__bridge_watch(a->bridge, &a->fab->stopped);
	return 0;
fail:
	ibfs__assembly_free(a);
	return -1;
}
