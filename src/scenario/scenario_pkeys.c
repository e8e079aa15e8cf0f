/* SPDX-License-Identifier: MIT */
/*
 * The partitions of a scenario, checked before anything runs: the P_Key
 * tables the SM will program (subnet_manager/pkey_plan.h) are laid out,
 * and every pair of the traffic must be able to talk in the partition of
 * its pkey="" (0xffff by default): both ends' ports members, at least one
 * a full member (IBA 10.9.3). Otherwise the SA would answer the path
 * query with no path; here the element is refused at its line. A pair's
 * ports are those its connections take (lane l on port l mod P of an
 * HCA's P linked ports, traffic_app.c). A pattern's pairs are drawn with
 * the run's seed, so every pair it could draw is checked: all of them but
 * for incast (to dst) and shift (fixed).
 */
#include <errno.h>
#include <stdlib.h>

#include "fabric/pkey.h"
#include "scenario/scenario.h"
#include "subnet_manager/pkey_plan.h"

int ibfs__sc_parse_pkey(const char *v, uint16_t *out)
{
	char *end;

	errno = 0;
	unsigned long x = strtoul(v, &end, 0);
	if (errno || end == v || *end || v[0] == '-' || x > 0xffff ||
	    !(x & IBFS_PKEY_BASE))
		return -1;
	*out = (uint16_t)x;
	return 0;
}

struct pk {
	const struct ibfs_scenario *s;
	struct ibfs_pkey_plan pl;
	struct ibfs_diag *d;
};

/* The k-th linked port of HCA n (k wraps), as traffic_app.c takes them. */
static int pk_port(const struct ibfs_topology *t, int n, uint32_t k)
{
	const struct ibfs_topo_node *tn = &t->nodes[n];
	int linked = 0;

	for (int p = 1; p <= tn->nports; p++)
		linked += tn->ports[p].peer_node >= 0;
	if (!linked)
		return 1;
	k %= (uint32_t)linked;
	for (int p = 1; p <= tn->nports; p++)
		if (tn->ports[p].peer_node >= 0 && k-- == 0)
			return p;
	return 1;
}

/* The P_Key node's lane-l port holds in pkey's partition, 0 if none. */
static uint16_t pk_key(struct pk *c, int node, uint32_t lane, uint16_t pkey)
{
	return ibfs__pkey_plan_member(&c->pl, node,
				      pk_port(c->s->topo, node, lane), pkey);
}

static int pk_refuse_member(struct pk *c, long line, int node, uint32_t lane,
			    uint16_t pkey)
{
	return ibfs__diag(c->d, c->s->file, line,
			  "'%s' port %d is not a member of partition 0x%04x: "
			  "the SA would return no path",
			  c->s->topo->nodes[node].id,
			  pk_port(c->s->topo, node, lane), pkey & IBFS_PKEY_BASE);
}

/* src and dst can talk on their lanes 0..lanes-1 in pkey's partition. */
static int pk_pair(struct pk *c, long line, int src, int dst, uint32_t lanes,
		   uint16_t pkey)
{
	for (uint32_t l = 0; l < lanes; l++) {
		uint16_t a = pk_key(c, src, l, pkey), b = pk_key(c, dst, l, pkey);

		if (!a)
			return pk_refuse_member(c, line, src, l, pkey);
		if (!b)
			return pk_refuse_member(c, line, dst, l, pkey);
		if (!ibfs__pkey_match(a, b))
			return ibfs__diag(c->d, c->s->file, line,
					  "'%s' and '%s' are both limited "
					  "members of partition 0x%04x: they "
					  "cannot talk (IBA 10.9.3), the SA "
					  "would return no path",
					  c->s->topo->nodes[src].id,
					  c->s->topo->nodes[dst].id,
					  pkey & IBFS_PKEY_BASE);
	}
	return 0;
}

static uint32_t pk_lanes(enum ibfs_sc_qp qp, uint32_t qps, uint32_t count)
{
	uint32_t l = qp == IBFS_SC_UD ? 1 : qps ? qps : 1;

	return l > count ? count : l;
}

/* Every pair a pattern other than incast and shift could draw: each HCA
 * a member, and no two of them limited members. */
static int pk_any_pair(struct pk *c, const struct ibfs_sc_pattern *p,
		       uint32_t lanes)
{
	const struct ibfs_topology *t = c->s->topo;
	int limited = -1;

	for (size_t n = 0; n < t->nnodes; n++) {
		if (t->nodes[n].type != IBFS_NODE_HCA)
			continue;
		for (uint32_t l = 0; l < lanes; l++) {
			uint16_t k = pk_key(c, (int)n, l, p->pkey);

			if (!k)
				return pk_refuse_member(c, p->line, (int)n, l,
							p->pkey);
			if (k & IBFS_PKEY_FULL)
				continue;
			if (limited >= 0 && limited != (int)n)
				return ibfs__diag(
					c->d, c->s->file, p->line,
					"'%s' and '%s' are both limited members "
					"of partition 0x%04x: the pattern may "
					"pair them, and they cannot talk (IBA "
					"10.9.3)", t->nodes[limited].id,
					t->nodes[n].id,
					p->pkey & IBFS_PKEY_BASE);
			limited = (int)n;
		}
	}
	return 0;
}

static int pk_pattern(struct pk *c, const struct ibfs_sc_pattern *p)
{
	const struct ibfs_topology *t = c->s->topo;
	uint32_t lanes = pk_lanes(p->qp, p->qps, p->count);
	int *hca = malloc((t->nnodes ? t->nnodes : 1) * sizeof(*hca));
	size_t nh = 0;
	int rc = 0;

	if (!hca)
		return ibfs__diag(c->d, c->s->file, p->line, "out of memory");
	for (size_t n = 0; n < t->nnodes; n++)
		if (t->nodes[n].type == IBFS_NODE_HCA)
			hca[nh++] = (int)n;
	if (p->kind == IBFS_PAT_INCAST ||
	    (p->kind == IBFS_PAT_FLOWS && p->incast)) {
		for (size_t i = 0; i < nh && !rc; i++)
			if (hca[i] != p->dst)
				rc = pk_pair(c, p->line, hca[i], p->dst, lanes,
					     p->pkey);
	} else if (p->kind == IBFS_PAT_SHIFT) {
		for (size_t i = 0; i < nh && !rc; i++) {
			size_t j = (size_t)((i + p->shift) % nh);

			if (j != i)
				rc = pk_pair(c, p->line, hca[i], hca[j], lanes,
					     p->pkey);
		}
	} else {
		rc = pk_any_pair(c, p, lanes);
	}
	free(hca);
	return rc;
}

/* UD traffic shares one QP an HCA, on the default partition. */
static int pk_ud(const struct ibfs_scenario *s, enum ibfs_sc_qp qp,
		 uint16_t pkey, long line, struct ibfs_diag *d)
{
	if (qp != IBFS_SC_UD || (pkey & IBFS_PKEY_BASE) == IBFS_PKEY_BASE)
		return 0;
	return ibfs__diag(d, s->file, line,
			  "qp=\"ud\" takes the default partition only: a "
			  "scenario's UD messages share one QP an HCA");
}

/* Without a file every end port is a full member of 0x7fff only. */
static int pk_default(const struct ibfs_scenario *s, uint16_t pkey, long line,
		      struct ibfs_diag *d)
{
	if ((pkey & IBFS_PKEY_BASE) == IBFS_PKEY_BASE)
		return 0;
	return ibfs__diag(d, s->file, line,
			  "partition 0x%04x: the subnet manager has no "
			  "partitions=\"FILE\", only the default 0x7fff",
			  pkey & IBFS_PKEY_BASE);
}

/* What needs no table: UD's partition, and any without a file. */
static int pk_simple(const struct ibfs_scenario *s, enum ibfs_sc_qp qp,
		     uint16_t pkey, long line, struct ibfs_diag *d)
{
	if (pk_ud(s, qp, pkey, line, d) < 0)
		return -1;
	return s->partitions ? 0 : pk_default(s, pkey, line, d);
}

/*
 * A collective runs on the default partition, and its algorithms may
 * pair any two of its members (recursive doubling, alltoall): each two
 * must be able to talk there, on their first port with a LID.
 */
static int pk_collective(struct pk *c, const struct ibfs_sc_collective *k)
{
	for (size_t a = 0; a < k->nmembers; a++)
		for (size_t b = a + 1; b < k->nmembers; b++) {
			int rc = pk_pair(c, k->line, k->members[a],
					 k->members[b], 1, IBFS_PKEY_DEFAULT);
			if (rc)
				return rc;
		}
	return 0;
}

/*
 * Multicast runs on the default partition too: each member that receives
 * (not SendOnly) must be able to talk there with the sender, else every
 * copy to it would be dropped (IBA 10.9.3).
 */
static int pk_mcast(struct pk *c, const struct ibfs_sc_mcast *m)
{
	const struct ibfs_mcast_group *g = &c->s->groups[m->group];
	for (int k = 0; k < g->nmembers; k++) {
		const struct ibfs_mcast_member *mb = &g->members[k];
		if (mb->send_only || mb->node == m->src)
			continue;
		int rc = pk_pair(c, m->line, m->src, mb->node, 1,
				 IBFS_PKEY_DEFAULT);
		if (rc)
			return rc;
	}
	return 0;
}

int ibfs__scenario_check_pkeys(struct ibfs_scenario *s, struct ibfs_diag *d)
{
	for (size_t i = 0; i < s->nmsgs; i++)
		if (pk_simple(s, s->msgs[i].qp, s->msgs[i].pkey,
			      s->msgs[i].line, d) < 0)
			return -1;
	for (size_t i = 0; i < s->npats; i++)
		if (pk_simple(s, s->pats[i].qp, s->pats[i].pkey,
			      s->pats[i].line, d) < 0)
			return -1;
	if (!s->partitions)
		return 0;
	struct pk c = {.s = s, .d = d};
	int sm_port = s->sm_node >= 0 ? pk_port(s->topo, s->sm_node, 0) : -1;

	if (ibfs__pkey_plan_build(&c.pl, s->partitions, s->topo, s->sm_node,
				  sm_port, d) < 0)
		return -1;
	int rc = 0;

	for (size_t i = 0; i < s->nmsgs && !rc; i++) {
		const struct ibfs_sc_message *m = &s->msgs[i];

		rc = pk_pair(&c, m->line, m->src, m->dst,
			     pk_lanes(m->qp, m->qps, m->count), m->pkey);
	}
	for (size_t i = 0; i < s->npats && !rc; i++)
		rc = pk_pattern(&c, &s->pats[i]);
	for (size_t i = 0; i < s->ncolls && !rc; i++)
		rc = pk_collective(&c, &s->colls[i]);
	for (size_t i = 0; i < s->nmcasts && !rc; i++)
		rc = pk_mcast(&c, &s->mcasts[i]);
	ibfs__pkey_plan_free(&c.pl);
	return rc;
}
