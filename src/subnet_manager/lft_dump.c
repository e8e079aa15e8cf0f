/* SPDX-License-Identifier: MIT */
/*
 * Writing and reading OpenSM's opensm-lfts.dump (see lft_dump.h). The
 * writer prints exactly OpenSM's lines; the reader accepts what OpenSM and
 * dump_fts write, and reports the first bad line as "file:line: ...".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "subnet_manager/lft_dump.h"

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

int ibfs__lft_load(struct ibfs_subnet *sn, const char *path,
		   struct ibfs_diag *d)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return ibfs__diag(d, path, 0, "cannot open: %s",
				  strerror(errno));
	char line[1024];
	long ln = 0;
	int cur = -1, rc = 0, seen = 0;
	char *got = calloc((size_t)(sn->nsw ? sn->nsw : 1), 1);
	if (!got) {
		fclose(f);
		return ibfs__diag(d, path, 0, "out of memory");
	}
	while (fgets(line, sizeof(line), f)) {
		ln++;
		if (!strchr(line, '\n') && !feof(f)) {
			rc = ibfs__diag(d, path, ln, "line too long");
			break;
		}
		char *s = line + strspn(line, " \t");
		if (*s == '\n' || *s == 0 || *s == '#')
			continue;
		if (!strncmp(s, "Unicast lids", 12)) {
			char *g = strstr(s, " guid ");
			char *end = NULL;
			uint64_t guid = g ? strtoull(g + 6, &end, 16) : 0;
			if (!g || end == g + 6) {
				rc = ibfs__diag(d, path, ln,
						"a 'Unicast lids' line without 'guid 0x...'");
				break;
			}
			cur = -1;
			for (int w = 0; w < sn->nsw; w++)
				if (sn->nodes[sn->sw_node[w]].guid == guid)
					cur = w;
			if (cur < 0) {
				rc = ibfs__diag(d, path, ln,
						"ERR 6301: switch GUID 0x%016" PRIx64 " is not in this subnet",
						guid);
				break;
			}
			if (!got[cur])
				seen++;
			got[cur] = 1;
			continue;
		}
		if (strstr(s, "lids dumped")) {
			cur = -1;
			continue;
		}
		char *e1, *e2;
		unsigned long lid = strtoul(s, &e1, 16);
		unsigned long port = e1 != s ? strtoul(e1, &e2, 10) : 0;
		if (e1 == s || e2 == e1 || (*e2 && !strchr(" \t#\n", *e2))) {
			rc = ibfs__diag(d, path, ln,
					"expected 'LID PORT' as in '0x0001 001 # ...'");
			break;
		}
		if (cur < 0) {
			rc = ibfs__diag(d, path, ln,
					"an LFT entry outside a 'Unicast lids' block");
			break;
		}
		const struct ibfs_sn_node *n = &sn->nodes[sn->sw_node[cur]];
		if (lid > sn->max_lid || port > (unsigned long)n->nports) {
			rc = ibfs__diag(d, path, ln,
					"ERR 6302: LID 0x%04lx port %lu is out of range for switch GUID 0x%016" PRIx64 " (max LID %u, %d ports)",
					lid, port, n->guid, sn->max_lid,
					n->nports);
			break;
		}
		*ibfs__subnet_lft(sn, cur, (unsigned)lid) = (uint8_t)port;
	}
	if (!rc && seen < sn->nsw)
		for (int w = 0; w < sn->nsw; w++)
			if (!got[w]) {
				const struct ibfs_sn_node *n =
					&sn->nodes[sn->sw_node[w]];
				rc = ibfs__diag(d, path, 0,
						"ERR 6303: no table for switch '%s' GUID 0x%016" PRIx64 " port 0",
						n->name, n->guid);
				break;
			}
	free(got);
	fclose(f);
	return rc;
}
