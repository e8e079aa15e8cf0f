/* SPDX-License-Identifier: MIT */
/*
 * Multicast in scenario files:
 *   <multicast-group id="g1" mgid="ff12:401b:ffff::1"
 *                    members="node1,node2,node3:2"/>
 * declares a group by its MGID (an IPv6-style GID whose first byte is
 * 0xFF, IBA 4.1.1) and its members, HCAs by id, each on its first linked
 * port or on the port written after a colon. A real member joins with an
 * SA MCMemberRecord Set; ibfsim has no SA, so the subnet manager creates
 * each group with its joins at bring-up, as if they had arrived, and
 * gives the groups MLIDs from 0xC000 in the order they are written, as
 * OpenSM hands out the next free MLID to each new group.
 *   <traffic><multicast group="g1" src="node4" size="1KiB" count="10"
 *            start="1us" rate="10Gbps" sl="0" op="send"/></traffic>
 * sends `count` UD SENDs (or send-imm) of `size` bytes, each at most one
 * MTU, to the group; a sender that is not a member joins as a SendOnly
 * member on its first linked port (the port its traffic uses), so that
 * the tree reaches it.
 */
#include <arpa/inet.h>
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

/* The first port of HCA `node` with a link, 0 if none. */
static int mc_first_linked(const struct ibfs_topology *t, int node)
{
	for (int p = 1; p <= t->nodes[node].nports; p++)
		if (t->nodes[node].ports[p].peer_node >= 0)
			return p;
	return 0;
}

static int mc_find_group(const struct ibfs_scenario *s, const char *id)
{
	for (size_t i = 0; i < s->ngroups; i++)
		if (!strcmp(s->groups[i].id, id))
			return (int)i;
	return -1;
}

static int mc_is_member(const struct ibfs_mcast_group *g, int node, int port)
{
	for (int i = 0; i < g->nmembers; i++)
		if (g->members[i].node == node && g->members[i].port == port)
			return 1;
	return 0;
}

static int mc_add_member(struct sx *x, struct ibfs_mcast_group *g,
			 struct ibfs_mcast_member m, long line)
{
	struct ibfs_mcast_member *v =
		realloc(g->members, ((size_t)g->nmembers + 1) * sizeof(*v));

	if (!v)
		return ibfs__diag(x->d, x->file, line, "out of memory");
	g->members = v;
	v[g->nmembers++] = m;
	return 0;
}

/* One member "id" or "id:port" of group g. */
static int mc_member(struct sx *x, struct ibfs_mcast_group *g, char *tok,
		     long line)
{
	const struct ibfs_topology *t = x->s->topo;
	char *colon = strrchr(tok, ':');
	uint64_t port = 0;

	if (colon) {
		*colon = '\0';
		if (ibfs__parse_uint(colon + 1, &port) || port < 1)
			return ibfs__diag(x->d, x->file, line,
					  "member '%s:%s': the port must be a "
					  "number from 1", tok, colon + 1);
	}
	int node = ibfs__topo_find(t, tok);

	if (!*tok || node < 0)
		return ibfs__diag(x->d, x->file, line,
				  "member '%s': no such node in the fabric",
				  tok);
	if (t->nodes[node].type != IBFS_NODE_HCA)
		return ibfs__diag(x->d, x->file, line,
				  "member '%s' is a switch; members are HCA "
				  "ports", tok);
	if (!colon)
		port = (uint64_t)mc_first_linked(t, node);
	if (port > (uint64_t)t->nodes[node].nports)
		return ibfs__diag(x->d, x->file, line,
				  "member '%s:%llu': %s has %d port(s)", tok,
				  (unsigned long long)port, tok,
				  t->nodes[node].nports);
	if (!port || t->nodes[node].ports[port].peer_node < 0)
		return ibfs__diag(x->d, x->file, line,
				  "member '%s': its port has no link", tok);
	if (mc_is_member(g, node, (int)port))
		return ibfs__diag(x->d, x->file, line,
				  "member '%s' port %d is listed twice", tok,
				  (int)port);
	return mc_add_member(x, g, (struct ibfs_mcast_member){ node,
								(int)port, 0 },
			     line);
}

static int mc_members(struct sx *x, struct ibfs_mcast_group *g,
		      const char *list, long line)
{
	char *dup = strdup(list), *save = NULL;
	int rc = 0;

	if (!dup)
		return ibfs__diag(x->d, x->file, line, "out of memory");
	for (char *tok = strtok_r(dup, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		while (*tok == ' ')
			tok++;
		rc = mc_member(x, g, tok, line);
	}
	free(dup);
	if (!rc && !g->nmembers)
		rc = ibfs__diag(x->d, x->file, line,
				"members=\"%s\": a group needs a member", list);
	return rc;
}

/* mgid: an IPv6-style GID, first byte 0xFF, not another group's. */
static int mc_mgid(struct sx *x, struct ibfs_mcast_group *g, const char *v,
		   long line)
{
	if (inet_pton(AF_INET6, v, g->mgid) != 1)
		return ibfs__diag(x->d, x->file, line,
				  "mgid=\"%s\" is not a GID (IPv6 form, e.g. "
				  "ff12:401b:ffff::1)", v);
	if (g->mgid[0] != 0xff)
		return ibfs__diag(x->d, x->file, line,
				  "mgid=\"%s\" is not a multicast GID (IBA "
				  "4.1.1: its first byte is 0xff)", v);
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
	if (!mc_first_linked(x->s->topo, m.src))
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
		int port = mc_first_linked(s->topo, m->src);

		if (!mc_is_member(g, m->src, port) &&
		    mc_add_member(x, g,
				  (struct ibfs_mcast_member){ m->src, port,
							      1 },
				  m->line) < 0)
			return -1;
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
