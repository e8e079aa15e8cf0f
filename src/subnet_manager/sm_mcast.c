/* SPDX-License-Identifier: MIT */
/*
 * The subnet manager's multicast half. A real SM creates a group when the
 * first SA MCMemberRecord Set (join) for its MGID arrives and gives it the
 * next free MLID from 0xC000; here the groups and their joins are given
 * before the first sweep (ibfs__sm_set_mcast), as if every join had
 * arrived, and keep the MLIDs they were given. After each sweep's routing
 * the groups' spanning trees are built on the subnet as discovered
 * (mcast_tree.c), so that a re-sweep after a fault rebuilds them as it
 * reroutes; the MFT stage then sends each switch the
 * MulticastForwardingTable blocks (IBA 14.2.5.12: 32 MLIDs x 16 ports
 * each) that differ from what it holds, before any port goes Armed.
 */
#include <stdlib.h>
#include <string.h>

#include "subnet_manager/sm_int.h"

void ibfs__sm_set_mcast(struct ibfs_sm *sm, const struct ibfs_mcast_group *g,
			int ngroups)
{
	sm->groups = g;
	sm->ngroups = ngroups;
}

uint16_t ibfs__sm_mft_top(const struct ibfs_sm *sm)
{
	uint16_t top = 0;

	for (int i = 0; i < sm->ngroups; i++)
		if (sm->groups[i].mlid > top)
			top = sm->groups[i].mlid;
	return top;
}

/* Topology node index -> subnet node index, -1 when never found. */
struct sm_map {
	int *sn;
	size_t n;
};

static int sm_node_of(void *ctx, int topo_node)
{
	const struct sm_map *m = ctx;

	return topo_node >= 0 && (size_t)topo_node < m->n ? m->sn[topo_node]
							   : -1;
}

int ibfs__sm_mcast_route(struct ibfs_sm *sm)
{
	if (!sm->ngroups)
		return 0;
	size_t n = (size_t)sm->sn->nsw * (size_t)sm->ngroups *
		   IBFS_MCAST_MASK_WORDS;
	uint64_t *m = realloc(sm->mft, (n ? n : 1) * sizeof(*m));
	struct sm_map map = { .n = sm->f->topo->nnodes };

	if (m)
		sm->mft = m;
	map.sn = malloc((map.n ? map.n : 1) * sizeof(*map.sn));
	if (map.sn) {
		for (size_t i = 0; i < map.n; i++)
			map.sn[i] = -1;
		for (int i = 0; i < sm->ndn; i++)
			if (sm->dn[i].topo >= 0 &&
			    (size_t)sm->dn[i].topo < map.n)
				map.sn[sm->dn[i].topo] = sm->dn[i].sn;
	}
	int rc = m && map.sn ? ibfs__mcast_trees(sm->sn, sm->groups,
						 sm->ngroups, sm_node_of, &map,
						 m)
			     : -1;

	free(map.sn);
	if (rc < 0)
		ibfs__sm_fail(sm, "out of memory building multicast trees");
	return rc;
}

/* Positions of 16 ports a switch of nports has (port 0 included). */
static int sm_positions(const struct sm_dnode *x)
{
	return x->nports / 16 + 1;
}

/* MFT blocks of 32 MLIDs the groups take. */
static int sm_mft_nblocks(const struct ibfs_sm *sm)
{
	int hi = ibfs__sm_mft_top(sm);

	return hi ? (hi - IBFS_MLID_FIRST) / 32 + 1 : 0;
}

/* The 16 port bits at `pos` of switch s for `mlid`. */
static uint16_t sm_mft_bits(const struct ibfs_sm *sm, int s, uint16_t mlid,
			    int pos)
{
	for (int g = 0; g < sm->ngroups; g++)
		if (sm->groups[g].mlid == mlid) {
			const uint64_t *w = ibfs__mcast_mask(
				sm->mft, sm->ngroups, s, g);

			return (uint16_t)(w[pos / 4] >> (pos % 4 * 16));
		}
	return 0;
}

/* Room for what switch record x holds; -1 (and failed) on no memory. */
static int sm_mft_held(struct ibfs_sm *sm, struct sm_dnode *x)
{
	if (x->mft)
		return 0;
	/* The blocks of the groups' MLIDs, which never change: what a
	 * switch held before a sweep stays comparable. */
	size_t n = (size_t)sm_mft_nblocks(sm) * (size_t)sm_positions(x) * 32;

	x->mft = calloc(n, sizeof(*x->mft));
	if (!x->mft) {
		ibfs__sm_fail(sm, "out of memory for MFT blocks");
		return -1;
	}
	return 0;
}

void ibfs__sm_mft_blocks(struct ibfs_sm *sm, int i)
{
	struct sm_dnode *x = &sm->dn[i];
	int s = sm->sn->nodes[x->sn].sw;
	int npos = sm_positions(x), nb = sm_mft_nblocks(sm);

	if (!nb || s < 0 || sm_mft_held(sm, x) < 0)
		return;
	for (int b = 0; b < nb; b++)
		for (int pos = 0; pos < npos; pos++) {
			uint16_t blk[32];
			const uint16_t *held =
				x->mft + ((size_t)b * (size_t)npos +
					  (size_t)pos) * 32;

			for (int k = 0; k < 32; k++)
				blk[k] = sm_mft_bits(
					sm, s,
					(uint16_t)(IBFS_MLID_FIRST + b * 32 + k),
					pos);
			if (!memcmp(blk, held, sizeof(blk)))
				continue;
			struct sm_req *r = ibfs__sm_push(
				sm, IBFS_SMP_SET, IBFS_SMP_ATTR_MFT,
				(uint32_t)pos << 28 | (uint32_t)b, i, 0);

			if (!r)
				return;
			for (int k = 0; k < 32; k++) {
				r->data[2 * k] = (uint8_t)(blk[k] >> 8);
				r->data[2 * k + 1] = (uint8_t)blk[k];
			}
			sm->st.mft_blocks++;
		}
}

void ibfs__sm_mft_acked(struct ibfs_sm *sm, const struct sm_req *r)
{
	struct sm_dnode *x = &sm->dn[r->node];
	int npos = sm_positions(x), pos = (int)(r->mod >> 28);
	uint32_t b = r->mod & 0x0fffffff;

	if (!x->mft || pos >= npos || b >= (uint32_t)sm_mft_nblocks(sm))
		return;
	uint16_t *held = x->mft + ((size_t)b * (size_t)npos + (size_t)pos) * 32;

	for (int k = 0; k < 32; k++)
		held[k] = (uint16_t)(r->data[2 * k] << 8 | r->data[2 * k + 1]);
}
