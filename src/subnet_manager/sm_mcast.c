/* SPDX-License-Identifier: MIT */
/*
 * The subnet manager's multicast half. A real SM creates a group when the
 * first SA MCMemberRecord Set (join) for its MGID arrives and gives it the
 * next free MLID from 0xC000; groups given before the first sweep
 * (ibfs__sm_set_mcast) stand for joins that arrived before it and keep
 * the MLIDs they were given, and the SA (sa_mcmember.c) changes the set
 * at run time. After each sweep's routing the groups' spanning trees are
 * built on the subnet as discovered (mcast_tree.c), so that a re-sweep
 * after a fault rebuilds them as it reroutes; the MFT stage then sends
 * each switch the MulticastForwardingTable blocks (IBA 14.2.5.12: 32
 * MLIDs x 16 ports each) that differ from what it holds, before any port
 * goes Armed.
 *
 * A run-time change rebuilds the tree of the group that changed (all of
 * them when a group comes or goes, since the masks are laid out by
 * group) and sends at once the blocks that now differ, as OpenSM's
 * multicast manager does after a join; a change during a sweep waits for
 * its end. MulticastFDBTop stays as the sweep set it (not enforced).
 */
#include <stdlib.h>
#include <string.h>

#include "subnet_manager/sm_int.h"

static int sm_group_copy(struct ibfs_mcast_group *to,
			 const struct ibfs_mcast_group *from)
{
	*to = *from;
	to->members = malloc(((size_t)from->nmembers + 1) *
			     sizeof(*to->members));
	if (!to->members)
		return -1;
	memcpy(to->members, from->members,
	       (size_t)from->nmembers * sizeof(*to->members));
	return 0;
}

int ibfs__sm_set_mcast(struct ibfs_sm *sm, const struct ibfs_mcast_group *g,
		       int ngroups)
{
	ibfs__sm_mcast_free(sm);
	sm->groups = calloc((size_t)ngroups + 1, sizeof(*sm->groups));
	if (!sm->groups)
		return -1;
	sm->gcap = ngroups + 1;
	for (int i = 0; i < ngroups; i++) {
		if (sm_group_copy(&sm->groups[i], &g[i]) < 0)
			return -1;
		sm->ngroups = i + 1;
	}
	return 0;
}

void ibfs__sm_mcast_free(struct ibfs_sm *sm)
{
	for (int i = 0; i < sm->ngroups; i++)
		free(sm->groups[i].members);
	free(sm->groups);
	sm->groups = NULL;
	sm->ngroups = sm->gcap = 0;
}

const struct ibfs_mcast_group *ibfs__sm_groups(const struct ibfs_sm *sm,
					       int *ngroups)
{
	*ngroups = sm->ngroups;
	return sm->groups;
}

void ibfs__sm_set_mcast_observer(struct ibfs_sm *sm, ibfs_sm_mcast_fn fn,
				 void *ctx)
{
	sm->mc_obs = fn;
	sm->mc_obs_ctx = ctx;
}

void ibfs__sm_mc_notify(struct ibfs_sm *sm, const struct ibfs_sm_mc_event *e)
{
	if (sm->mc_obs)
		sm->mc_obs(sm->mc_obs_ctx, e);
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

static int sm_map_new(const struct ibfs_sm *sm, struct sm_map *map)
{
	map->n = sm->f->topo->nnodes;
	map->sn = malloc((map->n ? map->n : 1) * sizeof(*map->sn));
	if (!map->sn)
		return -1;
	for (size_t i = 0; i < map->n; i++)
		map->sn[i] = -1;
	for (int i = 0; i < sm->ndn; i++)
		if (sm->dn[i].topo >= 0 && (size_t)sm->dn[i].topo < map->n)
			map->sn[sm->dn[i].topo] = sm->dn[i].sn;
	return 0;
}

int ibfs__sm_mcast_route(struct ibfs_sm *sm)
{
	if (!sm->ngroups)
		return 0;
	size_t n = (size_t)sm->sn->nsw * (size_t)sm->ngroups *
		   IBFS_MCAST_MASK_WORDS;
	uint64_t *m = realloc(sm->mft, (n ? n : 1) * sizeof(*m));
	struct sm_map map;

	if (m)
		sm->mft = m;
	int rc = m && sm_map_new(sm, &map) == 0 ? 0 : -1;

	if (!rc) {
		rc = ibfs__mcast_trees(sm->sn, sm->groups, sm->ngroups,
				       sm_node_of, &map, m);
		free(map.sn);
	}
	if (rc < 0)
		ibfs__sm_fail(sm, "out of memory building multicast trees");
	else
		sm->mft_ngroups = sm->ngroups;
	return rc;
}

/* Rebuilds group gi's tree alone, into its place among the masks. */
static int sm_mcast_route_one(struct ibfs_sm *sm, int gi)
{
	int nsw = sm->sn->nsw;
	uint64_t *one = malloc(((size_t)nsw + 1) * IBFS_MCAST_MASK_WORDS *
			       sizeof(*one));
	struct sm_map map;
	int rc = one && sm_map_new(sm, &map) == 0 ? 0 : -1;

	if (!rc) {
		rc = ibfs__mcast_trees(sm->sn, &sm->groups[gi], 1, sm_node_of,
				       &map, one);
		free(map.sn);
	}
	for (int s = 0; !rc && s < nsw; s++)
		memcpy(ibfs__mcast_mask(sm->mft, sm->ngroups, s, gi),
		       ibfs__mcast_mask(one, 1, s, 0),
		       IBFS_MCAST_MASK_WORDS * sizeof(*one));
	free(one);
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

/*
 * Room for what switch record x holds, for the blocks the groups take now
 * (grown with zeros, as a switch's MFT is at power-up; never shrunk, so
 * that the entries of a group gone are cleared). -1 (and failed) on no
 * memory.
 */
static int sm_mft_held(struct ibfs_sm *sm, struct sm_dnode *x)
{
	int nb = sm_mft_nblocks(sm);

	if (nb <= x->mft_nb)
		return 0;
	size_t per = (size_t)sm_positions(x) * 32;
	uint16_t *v = realloc(x->mft, (size_t)nb * per * sizeof(*v));

	if (!v) {
		ibfs__sm_fail(sm, "out of memory for MFT blocks");
		return -1;
	}
	memset(v + (size_t)x->mft_nb * per, 0,
	       (size_t)(nb - x->mft_nb) * per * sizeof(*v));
	x->mft = v;
	x->mft_nb = nb;
	return 0;
}

/* Queues block b at pos for record i if it differs: 1 queued, else 0. */
static int sm_mft_block(struct ibfs_sm *sm, int i, int s, int b, int pos)
{
	const struct sm_dnode *x = &sm->dn[i];
	int npos = sm_positions(x);
	const uint16_t *held =
		x->mft + ((size_t)b * (size_t)npos + (size_t)pos) * 32;
	uint16_t blk[32];

	for (int k = 0; k < 32; k++)
		blk[k] = sm_mft_bits(sm, s,
				     (uint16_t)(IBFS_MLID_FIRST + b * 32 + k),
				     pos);
	if (!memcmp(blk, held, sizeof(blk)))
		return 0;
	struct sm_req *r = ibfs__sm_push(sm, IBFS_SMP_SET, IBFS_SMP_ATTR_MFT,
					 (uint32_t)pos << 28 | (uint32_t)b, i,
					 0);

	if (!r)
		return 0;
	for (int k = 0; k < 32; k++) {
		r->data[2 * k] = (uint8_t)(blk[k] >> 8);
		r->data[2 * k + 1] = (uint8_t)blk[k];
	}
	if (sm->phase == PH_DONE) {
		r->flags = SM_MC_UPDATE;
		sm->mc_blocks++;
	}
	sm->st.mft_blocks++;
	return 1;
}

/* Queues the MFT blocks of switch record i that differ: how many. */
static int sm_mft_node(struct ibfs_sm *sm, int i)
{
	struct sm_dnode *x = &sm->dn[i];
	int s = sm->sn->nodes[x->sn].sw, n = 0;

	if (s < 0 || sm_mft_held(sm, x) < 0)
		return 0;
	for (int b = 0; b < x->mft_nb; b++)
		for (int pos = 0; pos < sm_positions(x); pos++)
			n += sm_mft_block(sm, i, s, b, pos);
	return n;
}

void ibfs__sm_mft_blocks(struct ibfs_sm *sm, int i)
{
	sm_mft_node(sm, i);
}

void ibfs__sm_mft_acked(struct ibfs_sm *sm, const struct sm_req *r)
{
	struct sm_dnode *x = &sm->dn[r->node];
	int npos = sm_positions(x), pos = (int)(r->mod >> 28);
	uint32_t b = r->mod & 0x0fffffff;

	if (!x->mft || pos >= npos || b >= (uint32_t)x->mft_nb)
		return;
	uint16_t *held = x->mft + ((size_t)b * (size_t)npos + (size_t)pos) * 32;

	for (int k = 0; k < 32; k++)
		held[k] = (uint16_t)(r->data[2 * k] << 8 | r->data[2 * k + 1]);
}

static void sm_mc_programmed(struct ibfs_sm *sm)
{
	struct ibfs_sm_mc_event e = { .kind = IBFS_SM_MC_PROGRAMMED,
				      .at = sm->f->eq.now };

	ibfs__sm_mc_notify(sm, &e);
}

void ibfs__sm_mc_update_done(struct ibfs_sm *sm)
{
	if (sm->mc_pending && !--sm->mc_pending)
		sm_mc_programmed(sm);
}

void ibfs__sm_mcast_changed(struct ibfs_sm *sm, int gi)
{
	if (sm->st.state != 1 || sm->phase != PH_DONE || !sm->sn) {
		sm->mc_dirty = 1;
		return;
	}
	sm->mc_dirty = 0;
	int rc = gi >= 0 && sm->mft_ngroups == sm->ngroups && sm->mft
			 ? sm_mcast_route_one(sm, gi)
			 : ibfs__sm_mcast_route(sm);

	if (rc < 0)
		return;
	if (sm->qhead == sm->nq)
		sm->nq = sm->qhead = 0;
	uint64_t n = 0;

	for (int i = 0; i < sm->ndn; i++)
		if (sm->dn[i].seen == sm->sweep_no &&
		    sm->dn[i].type == IBFS_NODE_SWITCH)
			n += (uint64_t)sm_mft_node(sm, i);
	sm->mc_pending += n;
	if (!sm->mc_pending)
		sm_mc_programmed(sm);
	ibfs__sm_pump(sm);
}
