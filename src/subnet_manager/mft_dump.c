/* SPDX-License-Identifier: MIT */
/*
 * Multicast forwarding tables in OpenSM's opensm-mfts.dump format (as its
 * dump_mcast_routes writes them): switches in node GUID order, each with
 * an entry preceded by a blank line, "Switch 0x<GUID, 16 hex digits>" and
 * "LID    : Out Port(s)"; then one line a multicast LID with ports, the
 * MLID as "0x%04X :" and each port in increasing order as " 0x%03X ".
 * Switches and MLIDs without a port print nothing.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "subnet_manager/mcast.h"
#include "subnet_manager/subnet.h"

static const struct ibfs_subnet *g_sn;

static int md_cmp(const void *a, const void *b)
{
	uint64_t x = g_sn->nodes[g_sn->sw_node[*(const int *)a]].guid;
	uint64_t y = g_sn->nodes[g_sn->sw_node[*(const int *)b]].guid;

	return (x > y) - (x < y);
}

/* Groups by MLID: the order of the lines. */
static const struct ibfs_mcast_group *g_groups;

static int md_mlid_cmp(const void *a, const void *b)
{
	uint16_t x = g_groups[*(const int *)a].mlid;
	uint16_t y = g_groups[*(const int *)b].mlid;

	return (x > y) - (x < y);
}

static void md_switch(const struct ibfs_subnet *sn, int s,
		      const struct ibfs_mcast_group *g, int ngroups,
		      const int *by_mlid, const uint64_t *masks, FILE *f)
{
	int first = 1;

	for (int k = 0; k < ngroups; k++) {
		int gi = by_mlid[k];
		const uint64_t *w = masks + ((size_t)s * (size_t)ngroups +
					     (size_t)gi) *
						    IBFS_MCAST_MASK_WORDS;
		int any = 0;

		for (int p = 0; p < IBFS_MCAST_MASK_WORDS * 64; p++) {
			if (!(w[p / 64] >> (p % 64) & 1))
				continue;
			if (first)
				fprintf(f, "\nSwitch 0x%016" PRIx64
					   "\nLID    : Out Port(s)\n",
					sn->nodes[sn->sw_node[s]].guid);
			if (!any)
				fprintf(f, "0x%04X :", g[gi].mlid);
			fprintf(f, " 0x%03X ", p);
			first = 0;
			any = 1;
		}
		if (any)
			fputc('\n', f);
	}
}

int ibfs__mft_dump(const struct ibfs_subnet *sn,
		   const struct ibfs_mcast_group *g, int ngroups,
		   const uint64_t *masks, FILE *f)
{
	int *order = malloc(((size_t)sn->nsw + 1) * sizeof(*order));
	int *by_mlid = malloc(((size_t)ngroups + 1) * sizeof(*by_mlid));

	if (!order || !by_mlid) {
		free(order);
		free(by_mlid);
		return -1;
	}
	for (int s = 0; s < sn->nsw; s++)
		order[s] = s;
	for (int k = 0; k < ngroups; k++)
		by_mlid[k] = k;
	g_sn = sn;
	qsort(order, (size_t)sn->nsw, sizeof(*order), md_cmp);
	g_groups = g;
	qsort(by_mlid, (size_t)ngroups, sizeof(*by_mlid), md_mlid_cmp);
	for (int i = 0; i < sn->nsw; i++)
		md_switch(sn, order[i], g, ngroups, by_mlid, masks, f);
	free(order);
	free(by_mlid);
	return ferror(f) ? -1 : 0;
}
