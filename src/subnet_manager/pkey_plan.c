/* SPDX-License-Identifier: MIT */
/*
 * Laying out the P_Key tables of a partition configuration (pkey_plan.h).
 * A port's membership in a partition is that of the last member naming it
 * (OpenSM's osm_prtn_add_port overwrites an earlier one); the Default
 * partition starts as OpenSM's prtn_make_default makes it (every end port
 * full without a file, limited with one, the SM's port full) and the
 * file's rules for 0x7fff apply on top. Cost: partitions x members x
 * ports for the memberships, then the table size per port.
 */
#include "subnet_manager/pkey_plan.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/pkey.h"
#include "hca/hca.h"
#include "subnet_manager/subnet.h"
#include "switch/switch.h"

int ibfs__pkey_plan_cap(const struct ibfs_topo_node *n)
{
	return n->type == IBFS_NODE_SWITCH ? IBFS_SWITCH_PKEYS : IBFS_HCA_PKEYS;
}

/* An end port: a switch's port 0, or a CA port with a link. */
static int plan_end_port(const struct ibfs_topo_node *n, int port)
{
	if (n->type == IBFS_NODE_SWITCH)
		return port == 0;
	return port >= 1 && port <= n->nports && n->ports[port].peer_node >= 0;
}

/* Whether member m names node:port (an end port), the SM on sn:sp. */
static int plan_names(const struct ibfs_prtn_member *m,
		      const struct ibfs_topo_node *n, int node, int port,
		      int sn, int sp)
{
	switch (m->who) {
	case IBFS_PRTN_ALL:
		return 1;
	case IBFS_PRTN_ALL_CAS:
		return n->type != IBFS_NODE_SWITCH;
	case IBFS_PRTN_ALL_SWITCHES:
		return n->type == IBFS_NODE_SWITCH;
	case IBFS_PRTN_SELF:
		return node == sn && port == sp;
	case IBFS_PRTN_PORT:
		return node == m->node && port == m->port;
	case IBFS_PRTN_NODE:
		return node == m->node;
	}
	return 0;
}

/*
 * The P_Key node:port gets in partition p (bit 15 for a full member), 0
 * if it is not a member.
 */
static uint16_t plan_key(const struct ibfs_partitions *pp,
			 const struct ibfs_prtn *p,
			 const struct ibfs_topo_node *n, int node, int port,
			 int sn, int sp)
{
	int member = -1; /* -1 none, else full */

	if (p->pkey == 0x7fff) {
		member = pp->from_file ? IBFS_PRTN_LIMITED : IBFS_PRTN_FULL;
		if (node == sn && port == sp)
			member = IBFS_PRTN_FULL;
	}
	for (size_t k = 0; k < p->nm; k++)
		if (plan_names(&p->m[k], n, node, port, sn, sp))
			member = p->m[k].full;
	if (member < 0)
		return 0;
	return (uint16_t)(p->pkey | (member ? IBFS_PKEY_FULL : 0));
}

/* OpenSM's order of partitions: its map's key is the P_Key in network
 * byte order, compared as a number on a little-endian host. */
static unsigned plan_order_key(uint16_t pkey)
{
	return (unsigned)((pkey & 0xff) << 8 | pkey >> 8);
}

/* order[] = the partitions in that order (an insertion sort: a file
 * has a few partitions, at most as many as a table holds). */
static void plan_sort(const struct ibfs_partitions *pp, size_t *order)
{
	for (size_t k = 0; k < pp->n; k++) {
		size_t j = k;
		unsigned key = plan_order_key(pp->p[k].pkey);

		while (j > 0 && plan_order_key(pp->p[order[j - 1]].pkey) > key) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = k;
	}
}

/*
 * Port node:port's table from power-up (0xFFFF at index 0): a P_Key of
 * the default partition keeps entry 0, the others take the free entries
 * in order. -1 (d filled) when they do not fit.
 */
static int plan_port(struct ibfs_pkey_plan *pl,
		     const struct ibfs_partitions *pp, const size_t *order,
		     const struct ibfs_prtn *dflt, int node, int port, int sn,
		     int sp, struct ibfs_diag *d)
{
	const struct ibfs_topo_node *n = &pl->t->nodes[node];
	int cap = ibfs__pkey_plan_cap(n);
	uint16_t *tab = pl->tab[node] + (size_t)port * (size_t)cap;
	int next = 0;

	/* The Default partition first: it keeps the power-up entry. */
	if (dflt)
		tab[0] = plan_key(pp, dflt, n, node, port, sn, sp);
	for (size_t k = 0; k < pp->n; k++) {
		const struct ibfs_prtn *p = &pp->p[order[k]];
		uint16_t key = p == dflt ? 0 :
				plan_key(pp, p, n, node, port, sn, sp);

		if (!key)
			continue;
		while (next < cap && tab[next])
			next++;
		if (next == cap)
			return ibfs__diag(d, pp->file ? pp->file : "partitions",
					  p->line,
					  "'%s' port %d is in more partitions "
					  "than its P_Key table holds (%d)",
					  n->id, port, cap);
		tab[next] = key;
	}
	pl->set[node][port] = 1;
	return 0;
}

/*
 * The switch port facing CA port node:port copies the blocks that CA
 * port uses, and enforces, when they fit its table (OpenSM's
 * pkey_mgr_update_peer_port; else ERR 0508 and no enforcement).
 */
static void plan_peer(struct ibfs_pkey_plan *pl, int node, int port)
{
	const struct ibfs_topo_port *tp = &pl->t->nodes[node].ports[port];
	const struct ibfs_topo_node *sw = &pl->t->nodes[tp->peer_node];
	const uint16_t *ca = pl->tab[node] + (size_t)port * IBFS_HCA_PKEYS;
	int used = 0;

	if (sw->type != IBFS_NODE_SWITCH)
		return;
	for (int i = 0; i < IBFS_HCA_PKEYS; i++)
		if (ca[i])
			used = i / IBFS_PKEY_BLOCK + 1;
	if (used * IBFS_PKEY_BLOCK > IBFS_SWITCH_PKEYS)
		return;
	uint16_t *st = pl->tab[tp->peer_node] +
		       (size_t)tp->peer_port * IBFS_SWITCH_PKEYS;

	if (used)
		memcpy(st, ca, (size_t)used * IBFS_PKEY_BLOCK * sizeof(*st));
	else
		st[0] = IBFS_PKEY_DEFAULT; /* left as it was: power-up */
	pl->set[tp->peer_node][tp->peer_port] = 1;
	pl->enf[tp->peer_node][tp->peer_port] = IBFS_PKEY_ENF_IN |
						IBFS_PKEY_ENF_OUT;
}

static int plan_alloc(struct ibfs_pkey_plan *pl, const struct ibfs_topology *t)
{
	size_t nn = t->nnodes ? t->nnodes : 1;

	memset(pl, 0, sizeof(*pl));
	pl->t = t;
	pl->tab = calloc(nn, sizeof(*pl->tab));
	pl->set = calloc(nn, sizeof(*pl->set));
	pl->enf = calloc(nn, sizeof(*pl->enf));
	if (!pl->tab || !pl->set || !pl->enf)
		return -1;
	for (size_t n = 0; n < t->nnodes; n++) {
		size_t np = (size_t)t->nodes[n].nports + 1;

		pl->tab[n] = calloc(np * (size_t)ibfs__pkey_plan_cap(
						 &t->nodes[n]),
				    sizeof(uint16_t));
		pl->set[n] = calloc(np, 1);
		pl->enf[n] = calloc(np, 1);
		if (!pl->tab[n] || !pl->set[n] || !pl->enf[n])
			return -1;
	}
	return 0;
}

int ibfs__pkey_plan_build(struct ibfs_pkey_plan *pl,
			  const struct ibfs_partitions *pp,
			  const struct ibfs_topology *t, int sm_node,
			  int sm_port, struct ibfs_diag *d)
{
	size_t *order = malloc((pp->n ? pp->n : 1) * sizeof(*order));
	int rc = 0;

	if (plan_alloc(pl, t) < 0 || !order) {
		free(order);
		ibfs__pkey_plan_free(pl);
		return ibfs__diag(d, pp->file ? pp->file : "partitions", 0,
				  "out of memory");
	}
	plan_sort(pp, order);
	const struct ibfs_prtn *dflt = ibfs__partitions_find(pp, 0x7fff);
	struct ibfs_prtn none = {.pkey = 0x7fff};

	if (!dflt)
		dflt = &none; /* the file has no rule for it */
	for (size_t n = 0; n < t->nnodes && !rc; n++)
		for (int p = 0; p <= t->nodes[n].nports && !rc; p++)
			if (plan_end_port(&t->nodes[n], p))
				rc = plan_port(pl, pp, order, dflt, (int)n, p,
					       sm_node, sm_port, d);
	for (size_t n = 0; n < t->nnodes && !rc; n++)
		for (int p = 1; t->nodes[n].type != IBFS_NODE_SWITCH &&
				p <= t->nodes[n].nports;
		     p++)
			if (plan_end_port(&t->nodes[n], p))
				plan_peer(pl, (int)n, p);
	free(order);
	if (rc)
		ibfs__pkey_plan_free(pl);
	return rc;
}

void ibfs__pkey_plan_free(struct ibfs_pkey_plan *pl)
{
	for (size_t n = 0; pl->t && n < pl->t->nnodes; n++) {
		if (pl->tab)
			free(pl->tab[n]);
		if (pl->set)
			free(pl->set[n]);
		if (pl->enf)
			free(pl->enf[n]);
	}
	free(pl->tab);
	free(pl->set);
	free(pl->enf);
	memset(pl, 0, sizeof(*pl));
}

const uint16_t *ibfs__pkey_plan_table(const struct ibfs_pkey_plan *pl,
				      int node, int port)
{
	if (!pl->tab || node < 0 || (size_t)node >= pl->t->nnodes ||
	    port < 0 || port > pl->t->nodes[node].nports ||
	    !pl->set[node][port])
		return NULL;
	return pl->tab[node] +
	       (size_t)port * (size_t)ibfs__pkey_plan_cap(&pl->t->nodes[node]);
}

uint16_t ibfs__pkey_plan_member(const struct ibfs_pkey_plan *pl, int node,
				int port, uint16_t pkey)
{
	const uint16_t *tab = ibfs__pkey_plan_table(pl, node, port);

	for (int i = 0; tab && i < ibfs__pkey_plan_cap(&pl->t->nodes[node]);
	     i++)
		if (ibfs__pkey_same(tab[i], pkey))
			return tab[i];
	return 0;
}

int ibfs__pkey_plan_dump(const struct ibfs_pkey_plan *pl,
			 const struct ibfs_subnet *sn, FILE *f)
{
	for (size_t n = 0; n < pl->t->nnodes && (int)n < sn->nnodes; n++) {
		const struct ibfs_topo_node *tn = &pl->t->nodes[n];
		int sw = tn->type == IBFS_NODE_SWITCH;

		for (int p = 0; p <= tn->nports; p++) {
			const uint16_t *tab =
				ibfs__pkey_plan_table(pl, (int)n, p);
			int end = ibfs__pkey_plan_cap(tn);

			if (!tab)
				continue;
			while (end > 0 && !tab[end - 1])
				end--;
			fprintf(f, "%s %u %d", sw ? "SW" : "CA",
				sn->nodes[n].ports[sw ? 0 : p].lid, p);
			for (int i = 0; i < end; i++)
				fprintf(f, " 0x%04x", tab[i]);
			fputc('\n', f);
		}
	}
	return ferror(f) ? -1 : 0;
}
