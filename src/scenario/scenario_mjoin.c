/* SPDX-License-Identifier: MIT */
/*
 * Multicast joins and leaves at run time, in scenario files:
 *   <multicast-join at="5us" node="node3" group="g1" state="full"/>
 *   <multicast-leave at="20us" node="node3" group="g1"/>
 * At `at` (from when the fabric is up, as a fault's) the HCA's SA client
 * sends an MCMemberRecord SubnAdmSet (join) or SubnAdmDelete (leave) to
 * the SA on the SM's port (src/subnet_manager/sa_mcmember.c); a full
 * member's application attaches its UD QP when the join's GetResp
 * arrives, and detaches it when it leaves. `group` names a
 * <multicast-group>, whose `members` may be empty: such a group does not
 * exist before its first join, which creates it. `node` is an HCA, on its
 * first linked port or on the one after a colon; `state` is "full"
 * (default) or "sendonly". A leave leaves with the JoinState of the
 * node's join before it.
 *
 * Refused at their line: an unknown node, group or state, a port without
 * a link, a node that is a member of the group from bring-up (written,
 * or one of its senders), a join while joined, a leave while not joined
 * (by time), and joins with mode="instant" (there is no SA without the
 * in-band SM). The SM's own HCA may join: its requests loop back to the
 * SA without the wire (src/hca/mgmt.c).
 */
#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/units.h"
#include "fabric/xml_doc.h"
#include "hca/sa_mad.h"
#include "scenario/scenario_xml_int.h"

static int mj_group(const struct ibfs_scenario *s, const char *id)
{
	for (size_t i = 0; id && i < s->ngroups; i++)
		if (!strcmp(s->groups[i].id, id))
			return (int)i;
	return -1;
}

/* node="HCA[:PORT]": its node and port, as a group's member is written. */
static int mj_node(struct sx *x, const char *v, long line,
		   struct ibfs_sc_mjoin *j)
{
	struct ibfs_mcast_group one = { 0 };
	char err[256];
	int rc = 0;

	if (!v || !*v)
		return ibfs__diag(x->d, x->file, line,
				  "<multicast-%s> needs node",
				  j->leave ? "leave" : "join");
	if (strchr(v, ',') ||
	    ibfs__mcast_parse_members(x->s->topo, v, &one, err,
				      sizeof(err)) < 0)
		rc = ibfs__diag(x->d, x->file, line, "node=\"%s\": %s", v,
				strchr(v, ',') ? "one HCA, not a list" : err);
	else {
		j->node = one.members[0].node;
		j->port = one.members[0].port;
	}
	free(one.members);
	return rc;
}

static int mj_read(struct sx *x, xmlNode *n, struct ibfs_sc_mjoin *j)
{
	const struct ibfs_sx_attrs *a = &ibfs__sx_attrs;
	static const char *const states[] = { "full", "sendonly" };
	char *group = (char *)xmlGetProp(n, (const xmlChar *)"group");
	char *node = (char *)xmlGetProp(n, (const xmlChar *)"node");
	int st = 0, rc = 0;

	j->group = mj_group(x->s, group);
	if (j->group < 0)
		rc = ibfs__diag(x->d, x->file, j->line,
				"group=\"%s\": no <multicast-group> has "
				"that id", group ? group : "");
	if (!rc)
		rc = mj_node(x, node, j->line, j);
	xmlFree(group);
	xmlFree(node);
	if (rc < 0 ||
	    a->unit(x, n, "at", ibfs__parse_time, "time", 0, &j->at) < 0 ||
	    (!j->leave &&
	     a->enumerated(x, n, "state", states, 2, 0, &st) < 0))
		return -1;
	j->state = st ? IBFS_JOIN_SENDONLY : IBFS_JOIN_FULL;
	return 0;
}

int ibfs__sx_read_mjoin(struct sx *x, xmlNode *n, int leave)
{
	struct ibfs_sc_mjoin j = { .line = ibfs__xml_line(n), .leave = leave };

	if (mj_read(x, n, &j) < 0)
		return -1;
	struct ibfs_sc_mjoin *v =
		realloc(x->s->mjoins, (x->s->nmjoins + 1) * sizeof(*v));

	if (!v)
		return ibfs__diag(x->d, x->file, j.line, "out of memory");
	x->s->mjoins = v;
	v[x->s->nmjoins++] = j;
	return 0;
}

/* Is (node, port) a member of group g from bring-up? */
static int mj_static(const struct ibfs_mcast_group *g, int node)
{
	for (int k = 0; k < g->nmembers; k++)
		if (g->members[k].node == node)
			return 1;
	return 0;
}

/* The joins and leaves of one (group, node), in time order. */
static int mj_sequence(struct sx *x, const struct ibfs_sc_mjoin *j)
{
	const struct ibfs_scenario *s = x->s;
	const struct ibfs_sc_mjoin *last = NULL;

	for (size_t i = 0; i < s->nmjoins; i++) {
		const struct ibfs_sc_mjoin *k = &s->mjoins[i];

		if (k != j && k->group == j->group && k->node == j->node &&
		    (k->at < j->at || (k->at == j->at && k < j)) &&
		    (!last || k->at > last->at ||
		     (k->at == last->at && k > last)))
			last = k;
	}
	const char *id = s->topo->nodes[j->node].id;
	const char *g = s->groups[j->group].id;

	if (!j->leave && last && !last->leave)
		return ibfs__diag(x->d, x->file, j->line,
				  "%s joins '%s' again: it joined at line %ld "
				  "and has not left", id, g, last->line);
	if (j->leave && (!last || last->leave))
		return ibfs__diag(x->d, x->file, j->line,
				  "%s leaves '%s' without having joined it",
				  id, g);
	return 0;
}

/* A group with no member at bring-up must have a join. */
static int mj_empty_groups(struct sx *x)
{
	const struct ibfs_scenario *s = x->s;

	for (size_t g = 0; g < s->ngroups; g++) {
		int joined = 0;

		for (size_t i = 0; i < s->nmjoins && !joined; i++)
			joined = s->mjoins[i].group == (int)g;
		if (!s->groups[g].nmembers && !joined)
			return ibfs__diag(x->d, x->file, s->group_lines[g],
					  "members=\"\": a group needs a "
					  "member (or a <multicast-join>)");
	}
	return 0;
}

int ibfs__sx_mjoin_finish(struct sx *x)
{
	struct ibfs_scenario *s = x->s;

	if (mj_empty_groups(x) < 0)
		return -1;

	for (size_t i = 0; i < s->nmjoins; i++) {
		struct ibfs_sc_mjoin *j = &s->mjoins[i];
		const struct ibfs_mcast_group *g = &s->groups[j->group];

		if (s->instant)
			return ibfs__diag(x->d, x->file, j->line,
					  "<multicast-%s> needs the in-band "
					  "subnet manager (its SA), not "
					  "mode=\"instant\"",
					  j->leave ? "leave" : "join");
		if (mj_static(g, j->node))
			return ibfs__diag(x->d, x->file, j->line,
					  "%s is a member of '%s' from "
					  "bring-up (its members or senders)",
					  s->topo->nodes[j->node].id, g->id);
		if (mj_sequence(x, j) < 0)
			return -1;
	}
	/* A leave leaves with the JoinState of the last join before it. */
	for (size_t i = 0; i < s->nmjoins; i++) {
		struct ibfs_sc_mjoin *l = &s->mjoins[i];
		ibfs_time_t best = 0;

		for (size_t k = 0; l->leave && k < s->nmjoins; k++) {
			const struct ibfs_sc_mjoin *a = &s->mjoins[k];

			if (!a->leave && a->group == l->group &&
			    a->node == l->node && a->at <= l->at &&
			    a->at >= best) {
				best = a->at;
				l->state = a->state;
			}
		}
	}
	return 0;
}
