/* SPDX-License-Identifier: MIT */
/*
 * The static topology graph: nodes (HCAs and switches) with numbered ports,
 * and links joining two ports. Node and link arrays grow by doubling; node
 * ids are found through an open-addressing hash table (linear probing, kept
 * at most half full), so loading a fabric of n nodes costs O(n) on average.
 *
 * GUIDs are assigned as ibsim assigns them (ibsim/sim_net.c): one counter
 * per node type, so that fabrics exported to ibsim and OpenSM keep the
 * GUIDs they had here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/topology.h"

#include "fabric/packet.h"

/* The id -> node index table; slots hold node indices, -1 when empty. */
struct ibfs_topo_index {
	int *slot;
	size_t cap; /* a power of two */
};

/* FNV-1a, 64 bits (Fowler, Noll, Vo): short ids hash well and cheaply. */
static uint64_t topo_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static const char *topo_file(const struct ibfs_topology *t)
{
	return t->file ? t->file : t->name;
}

static int topo_index_put(struct ibfs_topo_index *ix, const char *id,
			  int node)
{
	size_t mask = ix->cap - 1;
	size_t i = topo_hash(id) & mask;
	while (ix->slot[i] >= 0)
		i = (i + 1) & mask;
	ix->slot[i] = node;
	return 0;
}

/* Doubles the table and re-inserts every node. Returns 0 or -1. */
static int topo_index_grow(struct ibfs_topology *t)
{
	struct ibfs_topo_index *ix = t->index;
	size_t cap = ix->cap ? ix->cap * 2 : 64;
	int *slot = malloc(cap * sizeof(*slot));
	if (!slot)
		return -1;
	for (size_t i = 0; i < cap; i++)
		slot[i] = -1;
	free(ix->slot);
	ix->slot = slot;
	ix->cap = cap;
	for (size_t n = 0; n < t->nnodes; n++)
		topo_index_put(ix, t->nodes[n].id, (int)n);
	return 0;
}

void ibfs__topo_set_defaults(struct ibfs_topo_defaults *d)
{
	/*
	 * EDR 4x, 2 m cables and a 4096-byte MTU: the ConnectX-4 EDR setups
	 * the perftest reference figures were measured on (docs/fidelity.md,
	 * "Reference figures"). One data VL is the IBA minimum (VLCap, IBA
	 * 14.2.5.6). 100 ns is the port-to-port latency class of current
	 * switches (docs/fidelity.md, "Reference figures"); 32 KiB of input
	 * buffer a port is a round figure of that class. The profile is left
	 * alone: it is owned by the topology (see ibfs__topo_new).
	 */
	d->speed = IBFS_SPEED_EDR;
	d->width = 4;
	d->mtu = 4096;
	d->data_vls = 1;
	d->cable_mm = 2000;
	d->latency = 100 * IBFS_NS;
	d->buffer = 32 * 1024;
}

/*
 * A sender starts a packet only when it holds credits for the whole of it
 * (IBA 7.9.4), so a data VL whose share of the input buffer is smaller than
 * a packet never carries that packet: its sender waits for ever. The
 * largest packet with a full MTU of payload has LRH, GRH, BTH, RETH and
 * ImmDt (an RDMA WRITE Only with Immediate between subnets), ICRC and
 * VCRC around it: 86 bytes more than the MTU (IBA 7.7, 9.2-9.4), in whole
 * 64-byte credit blocks. A port's buffer is shared out evenly among its
 * data VLs (fabric.c), so it needs that many blocks times data_vls.
 */
uint64_t ibfs__topo_min_buffer(int mtu, int data_vls)
{
	uint64_t largest = (uint64_t)mtu + IBFS_LRH_BYTES + IBFS_GRH_BYTES +
			   IBFS_BTH_BYTES + IBFS_RETH_BYTES +
			   IBFS_IMMDT_BYTES + IBFS_ICRC_BYTES +
			   IBFS_VCRC_BYTES;
	uint64_t blocks = (largest + IBFS_CREDIT_BLOCK - 1) / IBFS_CREDIT_BLOCK;

	return blocks * IBFS_CREDIT_BLOCK * (uint64_t)data_vls;
}

struct ibfs_topology *ibfs__topo_new(const char *name)
{
	struct ibfs_topology *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->name = strdup(name ? name : "");
	t->def.profile = strdup("ideal");
	t->index = calloc(1, sizeof(*t->index));
	if (!t->name || !t->def.profile || !t->index ||
	    topo_index_grow(t) < 0) {
		ibfs__topo_free(t);
		return NULL;
	}
	ibfs__topo_set_defaults(&t->def);
	return t;
}

void ibfs__topo_free(struct ibfs_topology *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nnodes; i++) {
		struct ibfs_topo_node *n = &t->nodes[i];
		free(n->id);
		free(n->desc);
		free(n->profile);
		free(n->ports);
	}
	free(t->nodes);
	free(t->links);
	if (t->index)
		free(t->index->slot);
	free(t->index);
	free(t->def.profile);
	free(t->name);
	free(t->file);
	free(t);
}

int ibfs__topo_find(const struct ibfs_topology *t, const char *id)
{
	const struct ibfs_topo_index *ix = t->index;
	if (!id || !ix || !ix->cap)
		return -1;
	size_t mask = ix->cap - 1;
	for (size_t i = topo_hash(id) & mask; ix->slot[i] >= 0;
	     i = (i + 1) & mask)
		if (!strcmp(t->nodes[ix->slot[i]].id, id))
			return ix->slot[i];
	return -1;
}

int ibfs__topo_add_node(struct ibfs_topology *t, const char *id,
			enum ibfs_node_type type, int nports, long line,
			struct ibfs_diag *d)
{
	const char *f = topo_file(t);
	if (!id || !*id)
		return ibfs__diag(d, f, line, "a node needs a non-empty id");
	if (strchr(id, ':'))
		return ibfs__diag(d, f, line,
				  "id '%s' contains ':', which separates node "
				  "and port in link endpoints", id);
	if (type != IBFS_NODE_HCA && type != IBFS_NODE_SWITCH)
		return ibfs__diag(d, f, line, "node '%s' has an unknown type",
				  id);
	if (nports < 1 || nports > IBFS_TOPO_MAX_PORTS)
		return ibfs__diag(d, f, line,
				  "'%s' has %d ports; a node has 1 to %d "
				  "(IBA NodeInfo NumPorts, port 255 reserved)",
				  id, nports, IBFS_TOPO_MAX_PORTS);
	int old = ibfs__topo_find(t, id);
	if (old >= 0)
		return ibfs__diag(d, f, line,
				  "duplicate id '%s' (first defined at line "
				  "%ld)", id, t->nodes[old].line);

	if (t->nnodes == t->nodes_cap) {
		size_t cap = t->nodes_cap ? t->nodes_cap * 2 : 16;
		void *p = realloc(t->nodes, cap * sizeof(*t->nodes));
		if (!p)
			return ibfs__diag(d, f, line, "out of memory");
		t->nodes = p;
		t->nodes_cap = cap;
	}
	/* Keep the hash table at most half full. */
	if ((t->nnodes + 1) * 2 > t->index->cap && topo_index_grow(t) < 0)
		return ibfs__diag(d, f, line, "out of memory");

	struct ibfs_topo_node n = {
		.type = type,
		.nports = nports,
		.line = line,
	};
	n.id = strdup(id);
	n.desc = strdup(id);
	n.ports = calloc((size_t)nports + 1, sizeof(*n.ports));
	if (type == IBFS_NODE_SWITCH) {
		n.latency = t->def.latency;
		n.latency_set = t->def.latency_set;
		n.eth_buffer = t->def.eth_buffer;
		n.alpha_num = t->def.alpha_num;
		n.alpha_den = t->def.alpha_den;
	} else {
		n.profile = strdup(t->def.profile ? t->def.profile : "ideal");
	}
	n.buffer = t->def.buffer;
	if (!n.id || !n.desc || !n.ports ||
	    (type == IBFS_NODE_HCA && !n.profile)) {
		free(n.id);
		free(n.desc);
		free(n.ports);
		free(n.profile);
		return ibfs__diag(d, f, line, "out of memory");
	}
	for (int p = 0; p <= nports; p++) {
		n.ports[p].peer_node = -1;
		n.ports[p].peer_port = -1;
		n.ports[p].link = -1;
	}
	int idx = (int)t->nnodes++;
	t->nodes[idx] = n;
	topo_index_put(t->index, n.id, idx);
	return idx;
}

/*
 * Checks that node:port may carry a link (it may be in use already).
 * `label` is how the endpoint is quoted: the user's text when there is one,
 * else NULL for "id:port".
 */
static int topo_check_port(const struct ibfs_topology *t, int node, int port,
			   const char *label, const char *file, long line,
			   struct ibfs_diag *d)
{
	if (node < 0 || (size_t)node >= t->nnodes)
		return ibfs__diag(d, file, line, "node index %d does not exist",
				  node);
	const struct ibfs_topo_node *n = &t->nodes[node];
	if (port > 0 && port <= n->nports)
		return 0;
	/* The label is for the messages only: formatting it for every link
	 * end took a fifth of loading the 11,664-HCA fabric. */
	char buf[300];
	if (!label) {
		snprintf(buf, sizeof(buf), "%s:%d", n->id, port);
		label = buf;
	}
	/* A switch's port 0 is its internal management port (IBA ch. 18). */
	if (port == 0 && n->type == IBFS_NODE_SWITCH)
		return ibfs__diag(d, file, line,
				  "'%s': port 0 of a switch is its management "
				  "port and takes no link", label);
	if (port == 0)
		return ibfs__diag(d, file, line,
				  "'%s': HCA ports are numbered from 1", label);
	if (port < 0 || port > n->nports)
		return ibfs__diag(d, file, line,
				  "'%s': port out of range ('%s' has %d "
				  "port%s)", label, n->id, n->nports,
				  n->nports == 1 ? "" : "s");
	return 0;
}

int ibfs__topo_parse_endpoint(const struct ibfs_topology *t, const char *s,
			      int *node, int *port, const char *file,
			      long line, struct ibfs_diag *d)
{
	const char *colon = s ? strrchr(s, ':') : NULL;
	if (!colon || colon == s || !colon[1])
		return ibfs__diag(d, file, line,
				  "'%s' is not NODE:PORT", s ? s : "");
	/*
	 * Port numbers are plain decimal: no sign, no spaces, no hex. Big
	 * numbers stop growing past the largest port, staying out of range.
	 */
	long num = 0;
	for (const char *c = colon + 1; *c; c++) {
		if (*c < '0' || *c > '9')
			return ibfs__diag(d, file, line,
					  "'%s': the port '%s' is not a "
					  "decimal number", s, colon + 1);
		if (num <= IBFS_TOPO_MAX_PORTS)
			num = num * 10 + (*c - '0');
	}
	size_t len = (size_t)(colon - s);
	char buf[256];
	if (len >= sizeof(buf))
		return ibfs__diag(d, file, line, "'%.40s...': node id too long",
				  s);
	memcpy(buf, s, len);
	buf[len] = 0;
	int n = ibfs__topo_find(t, buf);
	if (n < 0)
		return ibfs__diag(d, file, line, "'%s': no node '%s'", s, buf);
	if (topo_check_port(t, n, (int)num, s, file, line, d) < 0)
		return -1;
	*node = n;
	*port = (int)num;
	return 0;
}

int ibfs__topo_add_link(struct ibfs_topology *t, int node_a, int port_a,
			int node_b, int port_b, enum ibfs_speed speed,
			int width, uint64_t cable_mm, long line,
			struct ibfs_diag *d)
{
	const char *f = topo_file(t);
	if (topo_check_port(t, node_a, port_a, NULL, f, line, d) < 0 ||
	    topo_check_port(t, node_b, port_b, NULL, f, line, d) < 0)
		return -1;
	if (node_a == node_b && port_a == port_b)
		return ibfs__diag(d, f, line, "a link joins '%s:%d' to itself",
				  t->nodes[node_a].id, port_a);
	const int ends[2][2] = {{node_a, port_a}, {node_b, port_b}};
	for (int e = 0; e < 2; e++) {
		const struct ibfs_topo_node *n = &t->nodes[ends[e][0]];
		const struct ibfs_topo_port *p = &n->ports[ends[e][1]];
		if (p->link < 0)
			continue;
		return ibfs__diag(d, f, line,
				  "port '%s:%d' is already linked to '%s:%d' "
				  "(line %ld)", n->id, ends[e][1],
				  t->nodes[p->peer_node].id, p->peer_port,
				  t->links[p->link].line);
	}
	if ((int)speed < 0 || speed >= IBFS_SPEED_COUNT)
		return ibfs__diag(d, f, line, "unknown link speed %d",
				  (int)speed);
	if (width != 1 && width != 2 && width != 4 && width != 8 &&
	    width != 12)
		return ibfs__diag(d, f, line,
				  "a link of %d lanes: widths are 1x, 2x, 4x, "
				  "8x and 12x", width);
	if (cable_mm > IBFS_TIME_NEVER / 2 / IBFS_PROP_PS_PER_MM)
		return ibfs__diag(d, f, line,
				  "a cable of %llu mm is too long to time",
				  (unsigned long long)cable_mm);

	if (t->nlinks == t->links_cap) {
		size_t cap = t->links_cap ? t->links_cap * 2 : 16;
		void *p = realloc(t->links, cap * sizeof(*t->links));
		if (!p)
			return ibfs__diag(d, f, line, "out of memory");
		t->links = p;
		t->links_cap = cap;
	}
	int idx = (int)t->nlinks++;
	t->links[idx] = (struct ibfs_topo_link){
		.node_a = node_a,
		.port_a = port_a,
		.node_b = node_b,
		.port_b = port_b,
		.speed = speed,
		.width = width,
		.rate = ibfs__link_rate(speed, width),
		.cable_mm = cable_mm,
		.prop = cable_mm * IBFS_PROP_PS_PER_MM,
		.line = line,
	};
	struct ibfs_topo_port *pa = &t->nodes[node_a].ports[port_a];
	struct ibfs_topo_port *pb = &t->nodes[node_b].ports[port_b];
	*pa = (struct ibfs_topo_port){node_b, port_b, idx, pa->guid};
	*pb = (struct ibfs_topo_port){node_a, port_a, idx, pb->guid};
	return idx;
}

void ibfs__topo_assign_guids(struct ibfs_topology *t, uint64_t switch_base,
			     uint64_t ca_base)
{
	for (size_t i = 0; i < t->nnodes; i++) {
		struct ibfs_topo_node *n = &t->nodes[i];
		int sw = n->type == IBFS_NODE_SWITCH;
		if (!n->guid) {
			if (sw) {
				n->guid = switch_base++;
			} else {
				n->guid = ca_base;
				ca_base += (uint64_t)n->nports + 1;
			}
		}
		for (int p = sw ? 0 : 1; p <= n->nports; p++)
			if (!n->ports[p].guid)
				n->ports[p].guid = sw ? n->guid
						      : n->guid + (uint64_t)p;
	}
}

size_t ibfs__topo_count(const struct ibfs_topology *t, enum ibfs_node_type ty)
{
	size_t c = 0;
	for (size_t i = 0; i < t->nnodes; i++)
		c += t->nodes[i].type == ty;
	return c;
}
