/* SPDX-License-Identifier: MIT */
/*
 * The subnet graph of the subnet manager, its LID assignment (LIDs and
 * LMC as in IBA vol. 1, chapter 4) and forwarding tables. See subnet.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "subnet_manager/subnet.h"

struct ibfs_subnet *ibfs__subnet_new(int nnodes)
{
	struct ibfs_subnet *sn = calloc(1, sizeof(*sn));
	if (!sn)
		return NULL;
	sn->nodes = calloc((size_t)(nnodes ? nnodes : 1), sizeof(*sn->nodes));
	if (!sn->nodes) {
		free(sn);
		return NULL;
	}
	sn->nnodes = nnodes;
	sn->data_vls = 1;
	return sn;
}

void ibfs__subnet_free(struct ibfs_subnet *sn)
{
	if (!sn)
		return;
	for (int i = 0; i < sn->nnodes; i++)
		free(sn->nodes[i].ports);
	free(sn->nodes);
	free(sn->sw_node);
	free(sn->lid_node);
	free(sn->lid_port);
	free(sn->lft);
	free(sn->dst_sl);
	free(sn->src_sl);
	free(sn->log);
	free(sn);
}

int ibfs__subnet_set_node(struct ibfs_subnet *sn, int i, const char *name,
			  enum ibfs_node_type type, int nports, uint64_t guid)
{
	struct ibfs_sn_node *n = &sn->nodes[i];
	free(n->ports);
	n->ports = calloc((size_t)nports + 1, sizeof(*n->ports));
	if (!n->ports)
		return -1;
	n->name = name;
	n->type = type;
	n->nports = nports;
	n->guid = guid;
	n->sw = -1;
	for (int p = 0; p <= nports; p++) {
		n->ports[p].peer = -1;
		n->ports[p].guid = type == IBFS_NODE_SWITCH || !p ? guid
								   : guid + p;
	}
	return 0;
}

int ibfs__subnet_connect(struct ibfs_subnet *sn, int a, int pa, int b, int pb)
{
	if (a < 0 || b < 0 || a >= sn->nnodes || b >= sn->nnodes ||
	    pa < 1 || pb < 1 || pa > sn->nodes[a].nports ||
	    pb > sn->nodes[b].nports || sn->nodes[a].ports[pa].peer >= 0 ||
	    sn->nodes[b].ports[pb].peer >= 0 || (a == b && pa == pb))
		return -1;
	sn->nodes[a].ports[pa].peer = b;
	sn->nodes[a].ports[pa].peer_port = pb;
	sn->nodes[b].ports[pb].peer = a;
	sn->nodes[b].ports[pb].peer_port = pa;
	return 0;
}

void ibfs__subnet_index(struct ibfs_subnet *sn)
{
	free(sn->sw_node);
	sn->nsw = 0;
	for (int i = 0; i < sn->nnodes; i++)
		sn->nsw += sn->nodes[i].type == IBFS_NODE_SWITCH;
	sn->sw_node = malloc(sizeof(int) * (size_t)(sn->nsw ? sn->nsw : 1));
	int k = 0;
	for (int i = 0; i < sn->nnodes; i++) {
		sn->nodes[i].sw = -1;
		if (sn->nodes[i].type == IBFS_NODE_SWITCH) {
			sn->nodes[i].sw = k;
			sn->sw_node[k++] = i;
		}
	}
}

struct ibfs_subnet *ibfs__subnet_from_topo(const struct ibfs_topology *t,
					   struct ibfs_diag *d)
{
	struct ibfs_subnet *sn = ibfs__subnet_new((int)t->nnodes);
	if (!sn) {
		ibfs__diag(d, t->file, 0, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct ibfs_topo_node *n = &t->nodes[i];
		const char *name = n->desc ? n->desc : n->id;
		if (ibfs__subnet_set_node(sn, (int)i, name, n->type, n->nports,
					  n->guid))
			goto oom;
		for (int p = 1; p <= n->nports; p++)
			if (n->ports[p].guid)
				sn->nodes[i].ports[p].guid = n->ports[p].guid;
	}
	for (size_t l = 0; l < t->nlinks; l++) {
		const struct ibfs_topo_link *k = &t->links[l];
		if (ibfs__subnet_connect(sn, k->node_a, k->port_a, k->node_b,
					 k->port_b)) {
			ibfs__diag(d, t->file, k->line,
				   "link %s:%d - %s:%d joins a port twice",
				   t->nodes[k->node_a].id, k->port_a,
				   t->nodes[k->node_b].id, k->port_b);
			ibfs__subnet_free(sn);
			return NULL;
		}
	}
	ibfs__subnet_index(sn);
	sn->data_vls = t->def.data_vls > 0 ? t->def.data_vls : 1;
	return sn;
oom:
	ibfs__subnet_free(sn);
	ibfs__diag(d, t->file, 0, "out of memory");
	return NULL;
}

int ibfs__subnet_assign_lids(struct ibfs_subnet *sn, int lmc,
			     struct ibfs_diag *d)
{
	if (lmc < 0 || lmc > IBFS_MAX_LMC)
		return ibfs__diag(d, NULL, 0,
				  "LMC %d is out of range 0..%d (IBA vol. 1, chapter 4: 2^LMC LIDs a port)",
				  lmc, IBFS_MAX_LMC);
	unsigned step = 1u << lmc, next = 1;
	sn->lmc = lmc;
	/* First pass: count, so the arrays are allocated once. */
	for (int i = 0; i < sn->nnodes; i++) {
		struct ibfs_sn_node *n = &sn->nodes[i];
		if (n->type == IBFS_NODE_SWITCH) {
			n->ports[0].lid = (uint16_t)next;
			next++;
			continue;
		}
		for (int p = 1; p <= n->nports; p++) {
			n->ports[p].lid = 0;
			if (n->ports[p].peer < 0)
				continue;
			next = (next + step - 1) / step * step;
			if (next + step - 1 > IBFS_MAX_UCAST_LID)
				return ibfs__diag(d, NULL, 0,
						  "ERR 5001: the unicast LID space (0x0001-0xBFFF) is full at CA '%s' port %d (GUID 0x%016llx) with LMC %d",
						  n->name, p,
						  (unsigned long long)
							  n->ports[p].guid,
						  lmc);
			n->ports[p].lid = (uint16_t)next;
			next += step;
		}
		if (next - 1 > IBFS_MAX_UCAST_LID)
			return ibfs__diag(d, NULL, 0,
					  "ERR 5001: the unicast LID space is full");
	}
	sn->max_lid = next - 1;
	size_t nl = (size_t)sn->max_lid + 1;
	free(sn->lid_node);
	free(sn->lid_port);
	free(sn->lft);
	free(sn->dst_sl);
	sn->lid_node = malloc(nl * sizeof(int));
	sn->lid_port = calloc(nl, 1);
	sn->dst_sl = calloc(nl, 1);
	sn->lft = malloc(nl * (size_t)(sn->nsw ? sn->nsw : 1));
	if (!sn->lid_node || !sn->lid_port || !sn->dst_sl || !sn->lft)
		return ibfs__diag(d, NULL, 0, "out of memory for %zu LIDs",
				  nl);
	for (size_t l = 0; l < nl; l++)
		sn->lid_node[l] = -1;
	for (int i = 0; i < sn->nnodes; i++) {
		struct ibfs_sn_node *n = &sn->nodes[i];
		int sw = n->type == IBFS_NODE_SWITCH;
		for (int p = 0; p <= (sw ? 0 : n->nports); p++) {
			unsigned b = n->ports[p].lid;
			if (!b)
				continue;
			for (unsigned k = 0; k < (sw ? 1u : step); k++) {
				sn->lid_node[b + k] = i;
				sn->lid_port[b + k] = (uint8_t)p;
			}
		}
	}
	for (int v = 0; v < 16; v++)
		sn->sl2vl[v] = (uint8_t)(v % sn->data_vls);
	ibfs__subnet_clear_routes(sn);
	return 0;
}

void ibfs__subnet_clear_routes(struct ibfs_subnet *sn)
{
	size_t nl = (size_t)sn->max_lid + 1;
	memset(sn->lft, IBFS_LFT_NO_PATH, nl * (size_t)sn->nsw);
	memset(sn->dst_sl, 0, nl);
	free(sn->src_sl);
	sn->src_sl = NULL;
}

int ibfs__subnet_alloc_src_sl(struct ibfs_subnet *sn)
{
	free(sn->src_sl);
	sn->src_sl = calloc(((size_t)sn->max_lid + 1) *
				    (size_t)(sn->nsw ? sn->nsw : 1), 1);
	return sn->src_sl ? 0 : -1;
}

int ibfs__subnet_lid_switch(const struct ibfs_subnet *sn, unsigned lid,
			    int *port)
{
	if (lid == 0 || lid > sn->max_lid || sn->lid_node[lid] < 0)
		return -1;
	const struct ibfs_sn_node *n = &sn->nodes[sn->lid_node[lid]];
	if (n->type == IBFS_NODE_SWITCH) {
		if (port)
			*port = 0;
		return n->sw;
	}
	const struct ibfs_sn_port *p = &n->ports[sn->lid_port[lid]];
	if (p->peer < 0 || sn->nodes[p->peer].type != IBFS_NODE_SWITCH)
		return -1;
	if (port)
		*port = p->peer_port;
	return sn->nodes[p->peer].sw;
}

void ibfs__subnet_log(struct ibfs_subnet *sn, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	if (sn->log_len + (size_t)n + 1 > sn->log_cap) {
		size_t cap = (sn->log_cap + (size_t)n + 1) * 2;
		char *l = realloc(sn->log, cap);
		if (!l)
			return;
		sn->log = l;
		sn->log_cap = cap;
	}
	memcpy(sn->log + sn->log_len, line, (size_t)n);
	sn->log_len += (size_t)n;
	sn->log[sn->log_len] = 0;
}
