/* SPDX-License-Identifier: MIT */
/*
 * Multicast in scenario files:
 *   <multicast-group id="g1" mgid="ff12:401b:ffff::1"
 *                    members="node1,node2,node3:2"/>
 * declares a group by its MGID (an IPv6-style GID whose first byte is
 * 0xFF, IBA 4.1.1) and its members, HCAs by id, each on its first linked
 * port or on the port written after a colon. A real member joins with an
 * SA MCMemberRecord Set; the members written stand for joins that came
 * before the fabric was up, so the subnet manager creates each group with
 * them at bring-up and gives the groups MLIDs from 0xC000 in the order
 * they are written, as OpenSM hands out the next free MLID to each new
 * group. members="" declares a group that <multicast-join>s create at run
 * time, through the SA (scenario_mjoin.c).
 *   <traffic><multicast group="g1" src="node4" size="1KiB" count="10"
 *            start="1us" rate="10Gbps" sl="0" op="send"/></traffic>
 * sends `count` UD SENDs (or send-imm) of `size` bytes, each at most one
 * MTU, to the group; a sender that is not a member joins as a SendOnly
 * member on its first linked port (the port its traffic uses), so that
 * the tree reaches it.
 */
#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/units.h"
#include "fabric/xml_doc.h"
#include "scenario/scenario_xml_int.h"

static long mc_line(xmlNode *n)
{
	return ibfs__xml_line(n);
}

static char *mc_attr(xmlNode *n, const char *name)
{
	return (char *)xmlGetProp(n, (const xmlChar *)name);
}

static int mc_find_group(const struct ibfs_scenario *s, const char *id)
{
	for (size_t i = 0; i < s->ngroups; i++)
		if (!strcmp(s->groups[i].id, id))
			return (int)i;
	return -1;
}

static int mc_members(struct sx *x, struct ibfs_mcast_group *g,
		      const char *list, long line)
{
	char err[256];

	/* No member: a group its <multicast-join>s create at run time. */
	if (!list[strspn(list, " ")])
		return 0;
	if (ibfs__mcast_parse_members(x->s->topo, list, g, err,
				      sizeof(err)) < 0)
		return ibfs__diag(x->d, x->file, line, "%s", err);
	return 0;
}

/* mgid: an IPv6-style GID, first byte 0xFF, not another group's. */
static int mc_mgid(struct sx *x, struct ibfs_mcast_group *g, const char *v,
		   long line)
{
	char err[256];

	if (ibfs__mcast_parse_mgid(v, g->mgid, err, sizeof(err)) < 0)
		return ibfs__diag(x->d, x->file, line, "%s", err);
	for (size_t i = 0; i < x->s->ngroups; i++)
		if (!memcmp(x->s->groups[i].mgid, g->mgid, 16))
			return ibfs__diag(x->d, x->file, line,
					  "mgid=\"%s\" already names group '%s'", v,
					  x->s->groups[i].id);
	return 0;
}

static int mc_group(struct sx *x, xmlNode *n, struct ibfs_mcast_group *g,
		    long line)
{
	char *id = mc_attr(n, "id"), *mgid = mc_attr(n, "mgid");
	char *members = mc_attr(n, "members");
	int rc = 0;

	if (!id || !mgid || !members)
		rc = ibfs__diag(x->d, x->file, line,
				"<multicast-group> needs id, mgid and members");
	else if (mc_find_group(x->s, id) >= 0)
		rc = ibfs__diag(x->d, x->file, line,
				"multicast group '%s' is declared twice", id);
	else if (x->s->ngroups >= 0x3FFF)
		rc = ibfs__diag(x->d, x->file, line,
				"more groups than MLIDs 0xC000-0xFFFE");
	else if (!(g->id = strdup(id)))
		rc = ibfs__diag(x->d, x->file, line, "out of memory");
	if (!rc)
		rc = mc_mgid(x, g, mgid, line);
	if (!rc)
		rc = mc_members(x, g, members, line);
	xmlFree(id);
	xmlFree(mgid);
	xmlFree(members);
	return rc;
}

int ibfs__sx_read_group(struct sx *x, xmlNode *n)
{
	struct ibfs_scenario *s = x->s;
	long line = mc_line(n);
	struct ibfs_mcast_group g = {
		.mlid = (uint16_t)(0xC000 + s->ngroups),
	};
	struct ibfs_mcast_group *v =
		realloc(s->groups, (s->ngroups + 1) * sizeof(*v));
	long *l = v ? realloc(s->group_lines,
			      (s->ngroups + 1) * sizeof(*l)) : NULL;

	if (v)
		s->groups = v;
	if (l)
		s->group_lines = l;
	if (!v || !l)
		return ibfs__diag(x->d, x->file, line, "out of memory");
	if (mc_group(x, n, &g, line) < 0) {
		free((char *)g.id);
		free(g.members);
		return -1;
	}
	s->group_lines[s->ngroups] = line;
	s->groups[s->ngroups++] = g;
	return 0;
}

int ibfs__sx_read_mcast(struct sx *x, xmlNode *n)
{
	const struct ibfs_sx_attrs *a = &ibfs__sx_attrs;
	static const char *const ops[] = {"send", "send-imm"};
	struct ibfs_sc_mcast m = {.line = mc_line(n)};
	char *group = mc_attr(n, "group"), *sz = mc_attr(n, "size");
	int size_given = sz != NULL, op;
	uint32_t qps;

	xmlFree(sz);
	m.group = group ? mc_find_group(x->s, group) : -1;
	if (m.group < 0) {
		ibfs__diag(x->d, x->file, m.line,
			   "group=\"%s\": no <multicast-group> has that id",
			   group ? group : "");
		xmlFree(group);
		return -1;
	}
	xmlFree(group);
	if (a->hca(x, n, "src", &m.src) < 0 ||
	    a->enumerated(x, n, "op", ops, 2, 0, &op) < 0 ||
	    a->unit(x, n, "size", ibfs__parse_size, "size", 0, &m.size) < 0 ||
	    a->unit(x, n, "start", ibfs__parse_time, "time", 0, &m.start) <
		    0 ||
	    a->sl(x, n, &m.sl, &m.sl_given) < 0 ||
	    a->count(x, n, &m.count) < 0 || a->load(x, n, &qps, &m.rate) < 0)
		return -1;
	m.op = op ? IBFS_SC_SEND_IMM : IBFS_SC_SEND;
	if (m.src < 0)
		return ibfs__diag(x->d, x->file, m.line,
				  "<multicast> needs src");
	if (!ibfs__mcast_first_linked(x->s->topo, m.src))
		return ibfs__diag(x->d, x->file, m.line,
				  "src=\"%s\" has no linked port",
				  x->s->topo->nodes[m.src].id);
	/* Multicast is UD only (IBA 10.5): one packet, at most one MTU. */
	if (a->op(x, m.line, m.op, IBFS_SC_UD, &m.size, size_given) < 0)
		return -1;
	struct ibfs_sc_mcast *v =
		realloc(x->s->mcasts, (x->s->nmcasts + 1) * sizeof(*v));

	if (!v)
		return ibfs__diag(x->d, x->file, m.line, "out of memory");
	x->s->mcasts = v;
	v[x->s->nmcasts++] = m;
	return 0;
}

int ibfs__sx_mcast_finish(struct sx *x)
{
	struct ibfs_scenario *s = x->s;

	for (size_t i = 0; i < s->nmcasts; i++) {
		const struct ibfs_sc_mcast *m = &s->mcasts[i];
		struct ibfs_mcast_group *g = &s->groups[m->group];
		int port = ibfs__mcast_first_linked(s->topo, m->src);

		if (ibfs__mcast_add_member(g, m->src, port, 1) < 0)
			return ibfs__diag(x->d, x->file, m->line,
					  "out of memory");
	}
	return 0;
}

void ibfs__sx_mcast_free(struct ibfs_scenario *s)
{
	for (size_t i = 0; i < s->ngroups; i++) {
		free((char *)s->groups[i].id);
		free(s->groups[i].members);
	}
	free(s->groups);
	free(s->group_lines);
	free(s->mcasts);
}
