/* SPDX-License-Identifier: MIT */
/*
 * Writing and reading OpenSM's opensm-lfts.dump (see lft_dump.h). The
 * writer prints exactly OpenSM's lines; the file is read by the one
 * reader of the format (switch/lft_file.c) into the subnet's tables,
 * with OpenSM's file engine's checks: every switch of the subnet, and
 * only those, by GUID, each LID and port within its bounds.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "subnet_manager/lft_dump.h"
#include "switch/lft_file.h"

static const struct ibfs_subnet *dump_sn;

static int dump_cmp(const void *a, const void *b)
{
	uint64_t x = dump_sn->nodes[dump_sn->sw_node[*(const int *)a]].guid;
	uint64_t y = dump_sn->nodes[dump_sn->sw_node[*(const int *)b]].guid;
	return x < y ? -1 : x > y;
}

/* Switch indices sorted by node GUID (OpenSM's sw_guid_tbl order). */
static int *dump_order(const struct ibfs_subnet *sn)
{
	int *o = malloc(sizeof(int) * (size_t)(sn->nsw ? sn->nsw : 1));
	if (!o)
		return NULL;
	for (int s = 0; s < sn->nsw; s++)
		o[s] = s;
	dump_sn = sn;
	qsort(o, (size_t)sn->nsw, sizeof(int), dump_cmp);
	return o;
}

int ibfs__lft_dump(const struct ibfs_subnet *sn, FILE *f)
{
	int *o = dump_order(sn);
	if (!o)
		return -1;
	for (int i = 0; i < sn->nsw; i++) {
		const struct ibfs_sn_node *n = &sn->nodes[sn->sw_node[o[i]]];
		fprintf(f,
			"Unicast lids [0-%u] of switch Lid %u guid 0x%016" PRIx64
			" ('%s'):\n",
			sn->max_lid, n->ports[0].lid, n->guid, n->name);
		for (unsigned lid = 0; lid <= sn->max_lid; lid++) {
			unsigned p = *ibfs__subnet_lft(sn, o[i], lid);
			if (p > (unsigned)n->nports)
				continue;
			fprintf(f, "0x%04x %03u # ", lid, p);
			int owner = sn->lid_node[lid];
			if (owner >= 0) {
				const struct ibfs_sn_node *m;
				m = &sn->nodes[owner];
				fprintf(f, "%s portguid 0x%016" PRIx64 ": '%s'",
					m->type == IBFS_NODE_SWITCH
						? "Switch"
						: "Channel Adapter",
					m->ports[sn->lid_port[lid]].guid,
					m->name);
			} else {
				fputs("unknown node and type", f);
			}
			fputc('\n', f);
		}
		fprintf(f, "%u lids dumped\n", sn->max_lid);
	}
	free(o);
	return ferror(f) ? -1 : 0;
}

int ibfs__hops_dump(const struct ibfs_subnet *sn, const uint8_t *hops,
		    FILE *f)
{
	int *o = dump_order(sn);
	if (!o)
		return -1;
	for (int i = 0; i < sn->nsw; i++) {
		const struct ibfs_sn_node *n = &sn->nodes[sn->sw_node[o[i]]];
		for (unsigned lid = 1; lid <= sn->max_lid; lid++)
			if (sn->lid_node[lid] >= 0)
				fprintf(f, "0x%016" PRIx64 " 0x%04x %u\n",
					n->guid, lid,
					hops[(size_t)o[i] * (sn->max_lid + 1) +
					     lid]);
	}
	free(o);
	return ferror(f) ? -1 : 0;
}

/* The subnet's tables as the reader fills them. */
struct sn_load {
	struct ibfs_subnet *sn;
	int cur;   /* the current block's switch */
	char *got; /* [nsw]: a block was read for the switch */
};

static int sn_block(void *arg, const struct ibfs_lft_block *b,
		    const char *file, long line, struct ibfs_diag *d)
{
	struct sn_load *x = arg;

	x->cur = -1;
	for (int w = 0; w < x->sn->nsw; w++)
		if (x->sn->nodes[x->sn->sw_node[w]].guid == b->guid)
			x->cur = w;
	if (x->cur < 0)
		return ibfs__diag(d, file, line,
				  "ERR 6301: switch GUID 0x%016" PRIx64
				  " is not in this subnet", b->guid);
	x->got[x->cur] = 1;
	return 0;
}

static int sn_entry(void *arg, unsigned long lid, unsigned long port,
		    const char *file, long line, struct ibfs_diag *d)
{
	struct sn_load *x = arg;
	const struct ibfs_subnet *sn = x->sn;
	const struct ibfs_sn_node *n = &sn->nodes[sn->sw_node[x->cur]];

	if (lid > sn->max_lid || port > (unsigned long)n->nports)
		return ibfs__diag(d, file, line,
				  "ERR 6302: LID 0x%04lx port %lu is out of "
				  "range for switch GUID 0x%016" PRIx64
				  " (max LID %u, %d ports)", lid, port,
				  n->guid, sn->max_lid, n->nports);
	*ibfs__subnet_lft(x->sn, x->cur, (unsigned)lid) = (uint8_t)port;
	return 0;
}

int ibfs__lft_load(struct ibfs_subnet *sn, const char *path,
		   struct ibfs_diag *d)
{
	static const struct ibfs_lft_file_ops ops = {sn_block, sn_entry};
	struct sn_load x = {sn, -1, calloc((size_t)(sn->nsw ? sn->nsw : 1),
					   1)};
	int rc;

	if (!x.got)
		return ibfs__diag(d, path, 0, "out of memory");
	rc = ibfs__lft_file_read(path, &ops, &x, d);
	for (int w = 0; !rc && w < sn->nsw; w++)
		if (!x.got[w]) {
			const struct ibfs_sn_node *n =
				&sn->nodes[sn->sw_node[w]];

			rc = ibfs__diag(d, path, 0,
					"ERR 6303: no table for switch '%s' "
					"GUID 0x%016" PRIx64 " port 0",
					n->name, n->guid);
		}
	free(x.got);
	return rc;
}
