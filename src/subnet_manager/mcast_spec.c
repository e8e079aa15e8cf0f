/* SPDX-License-Identifier: MIT */
/*
 * Groups as users write them, for scenario files (<multicast-group>) and
 * `ibfsim route --mcast`: an MGID in IPv6 form whose first byte is 0xFF
 * (IBA 4.1.1), and members "HCA" (its first linked port) or "HCA:PORT".
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/units.h"
#include "subnet_manager/mcast.h"

int ibfs__mcast_parse_mgid(const char *v, uint8_t mgid[16], char *err,
			   size_t n)
{
	if (inet_pton(AF_INET6, v, mgid) != 1) {
		snprintf(err, n, "mgid=\"%s\" is not a GID (IPv6 form, e.g. "
				 "ff12:401b:ffff::1)", v);
		return -1;
	}
	if (mgid[0] != 0xff) {
		snprintf(err, n, "mgid=\"%s\" is not a multicast GID (IBA "
				 "4.1.1: its first byte is 0xff)", v);
		return -1;
	}
	return 0;
}

/* The first port of node `node` with a link, 0 if none. */
int ibfs__mcast_first_linked(const struct ibfs_topology *t, int node)
{
	for (int p = 1; p <= t->nodes[node].nports; p++)
		if (t->nodes[node].ports[p].peer_node >= 0)
			return p;
	return 0;
}

static int mcast_is_member(const struct ibfs_mcast_group *g, int node,
			   int port)
{
	for (int i = 0; i < g->nmembers; i++)
		if (g->members[i].node == node && g->members[i].port == port)
			return 1;
	return 0;
}

int ibfs__mcast_add_member(struct ibfs_mcast_group *g, int node, int port,
			   int send_only)
{
	if (mcast_is_member(g, node, port))
		return 1;
	struct ibfs_mcast_member *v =
		realloc(g->members, ((size_t)g->nmembers + 1) * sizeof(*v));

	if (!v)
		return -1;
	g->members = v;
	v[g->nmembers++] = (struct ibfs_mcast_member){ node, port, send_only, 0 };
	return 0;
}

/* One member "id" or "id:port" (tok is changed). */
static int mcast_member(const struct ibfs_topology *t,
			struct ibfs_mcast_group *g, char *tok, char *err,
			size_t n)
{
	char *colon = strrchr(tok, ':');
	uint64_t port = 0;

	if (colon) {
		*colon = '\0';
		if (ibfs__parse_uint(colon + 1, &port) || port < 1)
			return snprintf(err, n, "member '%s:%s': the port must "
						"be a number from 1", tok,
					colon + 1), -1;
	}
	int node = ibfs__topo_find(t, tok);

	if (!*tok || node < 0)
		return snprintf(err, n, "member '%s': no such node in the "
					"fabric", tok), -1;
	if (t->nodes[node].type != IBFS_NODE_HCA)
		return snprintf(err, n, "member '%s' is a switch; members are "
					"HCA ports", tok), -1;
	if (!colon)
		port = (uint64_t)ibfs__mcast_first_linked(t, node);
	if (port > (uint64_t)t->nodes[node].nports)
		return snprintf(err, n, "member '%s:%llu': %s has %d port(s)",
				tok, (unsigned long long)port, tok,
				t->nodes[node].nports), -1;
	if (!port || t->nodes[node].ports[port].peer_node < 0)
		return snprintf(err, n, "member '%s': its port has no link",
				tok), -1;
	int rc = ibfs__mcast_add_member(g, node, (int)port, 0);

	if (rc > 0)
		snprintf(err, n, "member '%s' port %d is listed twice", tok,
			 (int)port);
	else if (rc < 0)
		snprintf(err, n, "out of memory");
	return rc ? -1 : 0;
}

int ibfs__mcast_parse_members(const struct ibfs_topology *t, const char *list,
			      struct ibfs_mcast_group *g, char *err, size_t n)
{
	char *dup = strdup(list), *save = NULL;
	int rc = 0;

	if (!dup)
		return snprintf(err, n, "out of memory"), -1;
	for (char *tok = strtok_r(dup, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		while (*tok == ' ')
			tok++;
		rc = mcast_member(t, g, tok, err, n);
	}
	free(dup);
	if (!rc && !g->nmembers) {
		snprintf(err, n, "members=\"%s\": a group needs a member", list);
		rc = -1;
	}
	return rc;
}
