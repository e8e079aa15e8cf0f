/* SPDX-License-Identifier: MIT */
/*
 * The pipelined tree allreduces of a <collective>: NCCL's double binary
 * tree (algorithm="double-tree") and the binomial tree in pieces
 * (algorithm="tree" chunks= above 1). Ranks are positions in hcas.
 *
 *   double-tree: two binary trees over the N ranks, as NCCL 2.4 builds
 *     them (Sanders, Speck and Traeff, "Two-tree algorithms for full
 *     bandwidth broadcast, reduction and scan", Parallel Computing 2009;
 *     NCCL's src/graph/trees.cc). Tree 0 is rooted at rank 0, whose one
 *     child is the largest power of two below N; any other rank r with
 *     lowest set bit b has the parent (r - b) + 2b, or r - b when that is
 *     N or more, so that the ranks with b = 1 (the odd ones) are leaves.
 *     Tree 1 is tree 0 shifted by one rank when N is odd (rank r there
 *     is rank r - 1 of tree 0: root 1) and mirrored when N is even (rank
 *     r is rank N - 1 - r of tree 0: root N - 1), so that a rank inner
 *     in one tree is mostly a leaf in the other. The buffer is split in
 *     two halves, the first (size - size / 2 bytes) reduced and broadcast
 *     on tree 0, the second on tree 1, at the same time.
 *   tree with chunks: the binomial tree of algorithm="tree" (rank v's
 *     parent v - lowbit(v), root 0), the whole buffer on it.
 *
 * On each tree its part is cut in `chunks` pieces (part / chunks bytes,
 * the first part mod chunks a byte more) that flow as NCCL pipelines
 * them: a rank sends piece c up to its parent once it has its own and
 * has received (and, at a reduce-rate, reduced, each child's in turn in
 * rank order, one piece after the other) its children's piece c; the
 * root, once it has reduced piece c, sends it down to each of its
 * children, and every other rank forwards piece c to its children when
 * it arrives. Each rank posts in two streams a tree, one up, one down,
 * each in piece order (a leaf posts all its pieces at once, nonblocking
 * sends): the sends up and down overlap, as NCCL's tree kernel splits
 * its threads between them. Each tree's messages go over connections of
 * their own (a lane a tree, as NCCL's channels have their own). A run
 * ends, for a member, when its last pieces have arrived and its last
 * sends completed (the join the next run's first posts wait for).
 *
 * Not modelled: NCCL's channels beyond one a tree, its LL and LL128
 * protocols, the chain of GPUs within a node (every member is one HCA),
 * and its FIFO slots' credit (a sender never waits for room).
 */
#include <stdlib.h>

#include "scenario/traffic_int.h"

/* NCCL's tree 0 (binary, rooted at 0): r's parent. */
static size_t btree_parent(size_t r, size_t n)
{
	if (!r)
		return TR_NONE;
	size_t b = r & -r, up = (r ^ b) | (b << 1);
	return up < n ? up : r ^ b;
}

size_t ibfs__tr_dtree_parent(int tree, size_t r, size_t n)
{
	if (!tree)
		return btree_parent(r, n);
	size_t p;
	if (n % 2) {
		p = btree_parent((r + n - 1) % n, n);
		return p == TR_NONE ? p : (p + 1) % n;
	}
	p = btree_parent(n - 1 - r, n);
	return p == TR_NONE ? p : n - 1 - p;
}

/* One tree: parents, children (kids[kfirst[v] .. kfirst[v + 1]), in
 * rank order), the ranks by depth, the root first (order), and the
 * deepest first (up), each depth in rank order. */
struct tree {
	size_t n, root;
	size_t *parent, *kfirst, *kids, *order, *up;
};

static void tree_free(struct tree *tr)
{
	free(tr->parent);
}

/* Fills tr from its parents (tr->parent set, root the one TR_NONE). */
static void tree_index(struct tree *tr)
{
	size_t n = tr->n, *depth = tr->order + n; /* scratch: n more */
	for (size_t v = 0; v <= n; v++)
		tr->kfirst[v] = 0;
	for (size_t v = 0; v < n; v++)
		if (tr->parent[v] == TR_NONE)
			tr->root = v;
		else
			tr->kfirst[tr->parent[v] + 1]++;
	for (size_t v = 0; v < n; v++)
		tr->kfirst[v + 1] += tr->kfirst[v];
	size_t maxd = 0;
	for (size_t v = 0; v < n; v++) {
		depth[v] = 0;
		for (size_t u = v; tr->parent[u] != TR_NONE; u = tr->parent[u])
			depth[v]++;
		if (depth[v] > maxd)
			maxd = depth[v];
	}
	/* Kids in rank order; ranks by depth, then rank. */
	size_t *fill = tr->order + 2 * n, k = 0;
	for (size_t v = 0; v < n; v++)
		fill[v] = tr->kfirst[v];
	for (size_t v = 0; v < n; v++)
		if (tr->parent[v] != TR_NONE)
			tr->kids[fill[tr->parent[v]]++] = v;
	for (size_t d = 0; d <= maxd; d++)
		for (size_t v = 0; v < n; v++)
			if (depth[v] == d)
				tr->order[k++] = v;
	for (size_t d = maxd + 1, j = 0; d-- > 0;)
		for (size_t v = 0; v < n; v++)
			if (depth[v] == d)
				tr->up[j++] = v;
}

/* Tree `which` of c: 0 or 1 of the double tree, or the binomial (2). */
static int tree_build(struct tree *tr, const struct ibfs_sc_collective *c,
		      int which)
{
	size_t n = c->nmembers;
	/* parent, kfirst (n + 1), kids, up, order (3n: with scratch). */
	tr->parent = malloc((7 * n + 1) * sizeof(size_t));
	if (!tr->parent)
		return -1;
	tr->n = n;
	tr->kfirst = tr->parent + n;
	tr->kids = tr->kfirst + n + 1;
	tr->up = tr->kids + n;
	tr->order = tr->up + n;
	for (size_t v = 0; v < n; v++)
		tr->parent[v] = which == 2 ? (v ? v - (v & -v) : TR_NONE) :
					     ibfs__tr_dtree_parent(which, v, n);
	tree_index(tr);
	return 0;
}

/* Where a tree's run stands: by rank, its last piece's message up
 * (up[v], to its parent) and down (down[v], from its parent). */
struct tree_run {
	const struct tree *tr;
	unsigned lane;
	uint64_t part;
	size_t *up, *down;
};

/* Message msg's chain (v's): each kid's piece (up[kid]), reduced in
 * turn, after v's reduction of the piece before. */
static int kid_chain(struct ibfs_traffic *t, const struct tree_run *r,
		     size_t v, ibfs_time_t ps, size_t msg)
{
	const struct tree *tr = r->tr;
	size_t first = t->ncoll_red;
	for (size_t k = tr->kfirst[v]; k < tr->kfirst[v + 1]; k++)
		if (ibfs__tr_coll_wait(t, r->up[tr->kids[k]], ps, 0) < 0)
			return -1;
	struct tr_msg *m = &t->msgs[msg];
	m->red_first = first;
	m->red_n = (uint32_t)(t->ncoll_red - first);
	m->red_serial = 1;
	return 0;
}

/* A piece of b bytes up the tree: the deepest ranks first, so that a
 * kid's message exists before its parent's chain names it. */
static int piece_up(struct ibfs_traffic *t,
		    const struct ibfs_sc_collective *c, uint32_t ci,
		    struct tree_run *r, uint64_t b)
{
	const struct tree *tr = r->tr;
	const size_t none[3] = {TR_NONE, TR_NONE, TR_NONE};
	ibfs_time_t ps = ibfs__tr_coll_reduce_time(c, b);
	for (size_t k = 0; k < tr->n; k++) {
		size_t v = tr->up[k];
		if (v == tr->root)
			continue;
		size_t m = ibfs__tr_coll_msg_on(t, c, ci, v, tr->parent[v], b,
						none, r->lane, 2 * r->lane);
		if (m == TR_NONE)
			return -1;
		if (tr->kfirst[v] < tr->kfirst[v + 1] &&
		    kid_chain(t, r, v, ps, t->nmsgs - 1) < 0)
			return -1;
		r->up[v] = m;
	}
	return 0;
}

/* A piece of b bytes down the tree: the root's first send after its
 * reduction, the others' each at the piece's arrival. */
static int piece_down(struct ibfs_traffic *t,
		      const struct ibfs_sc_collective *c, uint32_t ci,
		      struct tree_run *r, uint64_t b)
{
	const struct tree *tr = r->tr;
	ibfs_time_t ps = ibfs__tr_coll_reduce_time(c, b);
	for (size_t k = 0; k < tr->n; k++) {
		size_t v = tr->order[k];
		for (size_t j = tr->kfirst[v]; j < tr->kfirst[v + 1]; j++) {
			size_t dep[3] = {r->down[v], TR_NONE, TR_NONE};
			if (v == tr->root)
				dep[0] = TR_NONE;
			size_t m = ibfs__tr_coll_msg_on(t, c, ci, v,
							tr->kids[j], b, dep,
							r->lane,
							2 * r->lane + 1);
			if (m == TR_NONE)
				return -1;
			if (v == tr->root && j == tr->kfirst[v] &&
			    kid_chain(t, r, v, ps, t->nmsgs - 1) < 0)
				return -1;
			r->down[tr->kids[j]] = m;
		}
	}
	return 0;
}

/* A member's join after the run: on each tree, the last pieces that
 * arrived at it (from its parent, from each kid) and completion of the
 * last it sent (up, and down to each kid). */
static int run_join(struct ibfs_traffic *t, const struct tree_run *r,
		    int ntrees, size_t v)
{
	for (int k = 0; k < ntrees; k++) {
		const struct tree *tr = r[k].tr;
		int rc = 0;
		if (v != tr->root)
			rc |= ibfs__tr_coll_wait(t, r[k].down[v], 0, 0) |
			      ibfs__tr_coll_wait(t, r[k].up[v], 0, 1);
		for (size_t j = tr->kfirst[v]; j < tr->kfirst[v + 1]; j++)
			rc |= ibfs__tr_coll_wait(t, r[k].up[tr->kids[j]], 0,
						 0) |
			      ibfs__tr_coll_wait(t, r[k].down[tr->kids[j]], 0,
						 1);
		if (rc)
			return -1;
	}
	return 0;
}

/* The run's messages: piece by piece, tree 0's then tree 1's, each up
 * then down. */
static int trees_run(struct ibfs_traffic *t,
		     const struct ibfs_sc_collective *c, uint32_t ci,
		     struct tree_run *r, int ntrees, struct tr_coll_state *st)
{
	for (uint32_t p = 0; p < c->chunks; p++)
		for (int k = 0; k < ntrees; k++) {
			uint64_t b = ibfs__tr_coll_piece(r[k].part, c->chunks,
							 p);
			if (piece_up(t, c, ci, &r[k], b) < 0 ||
			    piece_down(t, c, ci, &r[k], b) < 0)
				return -1;
		}
	for (size_t v = 0; v < c->nmembers; v++) {
		st->jfirst[v] = t->ncoll_red;
		if (run_join(t, r, ntrees, v) < 0)
			return -1;
		st->jn[v] = (uint32_t)(t->ncoll_red - st->jfirst[v]);
		st->sent[v] = st->in[v] = TR_NONE;
	}
	return 0;
}

int ibfs__tr_coll_trees(struct ibfs_traffic *t,
			const struct ibfs_sc_collective *c, uint32_t ci,
			struct tr_coll_state *st)
{
	int two = c->algo == IBFS_ALGO_DOUBLE_TREE, ntrees = two ? 2 : 1;
	size_t n = c->nmembers;
	struct tree tr[2] = {{0}};
	struct tree_run r[2];
	size_t *msgs = malloc(4 * n * sizeof(*msgs));
	int rc = msgs ? 0 : -1;
	for (int k = 0; k < ntrees && !rc; k++) {
		rc = tree_build(&tr[k], c, two ? k : 2);
		r[k] = (struct tree_run){&tr[k], (unsigned)k,
					 two ? (k ? c->size / 2 :
						    c->size - c->size / 2) :
					       c->size,
					 msgs + 2 * k * n,
					 msgs + (2 * k + 1) * n};
	}
	if (!rc)
		rc = trees_run(t, c, ci, r, ntrees, st);
	for (int k = 0; k < ntrees; k++)
		tree_free(&tr[k]);
	free(msgs);
	return rc;
}
