/* SPDX-License-Identifier: MIT */
/*
 * A <collective> expanded into messages that wait for each other, as the
 * algorithms MPI libraries and NCCL run (Thakur, Rabenseifner and Gropp,
 * "Optimization of Collective Communication Operations in MPICH", 2005):
 *
 *   ring (allreduce, reduce-scatter, allgather): the N members form a
 *     ring, member i sending to i + 1. The buffer is cut into N chunks
 *     (size / N bytes, the first size mod N one byte more). At step s
 *     member i sends chunk (i - s) mod N; every step but the first waits
 *     for the previous step's chunk from i - 1 to arrive. Reduce-scatter
 *     and allgather take N - 1 steps, allreduce 2(N - 1): reduce-scatter,
 *     then allgather of the reduced chunks. With a reduce-rate, a
 *     member reduces the chunk that arrived at steps 0 to N - 2 (the
 *     reduce-scatter's) before it sends the result on at the next
 *     step: chunk bytes x 8 / rate later (allreduce sends its last
 *     reduction at its first allgather step; a reduce-scatter's last,
 *     which no message carries on, takes no time); the allgather's
 *     steps only copy.
 *   binomial (broadcast): in round k (k = 0, 1, ...) every member of
 *     relative rank v < 2^k that has the data sends the whole buffer to
 *     v + 2^k; a member sends once its parent's message has arrived, one
 *     child after the other (each send once the last has completed), as
 *     MPICH's binomial broadcast does with blocking sends.
 *   pairwise (alltoall): N - 1 steps; at step s member i sends its chunk
 *     for member i + s (size / N bytes) and receives from i - s, each
 *     step once the last step's send completed and receive arrived
 *     (MPI_Sendrecv).
 *
 * Each message is one record whose arrival (the receiver's completion:
 * write-imm or send-imm carry the record in their immediate data) or
 * completion (at its sender) another record may wait for (tr_msg's
 * dep_arr, dep_arr2, dep_cmp). Runs (count) and a member's collectives
 * follow each other as blocking MPI calls do: a member's first message of
 * a run waits for the last message that arrived at it and the completion
 * of the last it sent, in its previous run or collective. Each member
 * posts its messages in order, on one connection (lane) of its own per
 * peer, apart from other traffic. algorithm= picks others
 * (traffic_collective_algos.c).
 */
#include <stdlib.h>

#include "scenario/traffic_int.h"

/* The lane a collective's connections use: apart from <message> and
 * <pattern> traffic between the same HCAs (their lanes count from 0). */
#define TR_COLL_LANE 0x8000u

static int coll_push(struct tr_node *n, size_t rec)
{
	if (n->ncposts == n->cposts_cap) {
		size_t cap = n->cposts_cap ? 2 * n->cposts_cap : 16;
		size_t *v = realloc(n->cposts, cap * sizeof(*v));
		if (!v)
			return -1;
		n->cposts = v;
		n->cposts_cap = cap;
	}
	n->cposts[n->ncposts++] = rec;
	return 0;
}

ibfs_time_t ibfs__tr_coll_reduce_time(const struct ibfs_sc_collective *c,
				      uint64_t bytes)
{
	uint64_t rate = c->reduce_rate;
	if (!rate || !bytes)
		return 0;
	unsigned __int128 ps = (unsigned __int128)bytes * 8 * 1000000000000u;
	return (ibfs_time_t)((ps + rate - 1) / rate);
}

size_t ibfs__tr_coll_msg(struct ibfs_traffic *t,
			 const struct ibfs_sc_collective *c, uint32_t ci,
			 size_t src, size_t dst, uint64_t size,
			 const size_t dep[3], uint64_t red)
{
	/* On the default partition. */
	struct tr_spec sp = {c->op, c->qp, c->sl, c->sl_given, size,
			     c->start, 1, 0, 0xffff};
	int s = c->members[src], d = c->members[dst];
	if (ibfs__tr_add_lane(t, s, d, &sp, TR_COLL_LANE, 1, c->start, 0) < 0)
		return TR_NONE;
	struct tr_msg *m = &t->msgs[t->nmsgs - 1];
	m->coll = ci;
	m->dep_arr = dep[0];
	m->dep_arr2 = dep[1];
	m->dep_cmp = dep[2];
	m->reduce = dep[0] == TR_NONE ? 0 : ibfs__tr_coll_reduce_time(c, red);
	return coll_push(&t->nodes[s], m->first) < 0 ? TR_NONE : m->first;
}

uint64_t ibfs__tr_coll_piece(uint64_t size, size_t n, size_t j)
{
	return size / n + (j < size % n);
}

static int ring_run(struct ibfs_traffic *t, const struct ibfs_sc_collective *c,
		    uint32_t ci, struct tr_coll_state *st)
{
	size_t n = c->nmembers;
	size_t steps = c->kind == IBFS_COLL_ALLREDUCE ? 2 * (n - 1) : n - 1;
	for (size_t s = 0; s < steps; s++) {
		for (size_t i = 0; i < n; i++) {
			size_t from = (i + n - 1) % n;
			size_t dep[3] = {TR_NONE, TR_NONE, TR_NONE};
			if (s)
				dep[0] = st->prev[from];
			else {
				dep[0] = st->in[i];
				dep[2] = st->sent[i];
			}
			size_t j = (i + n - s % n) % n;
			/* Steps 1 to N - 1 send what the member
			 * reduced of the last step's chunk (N - 1,
			 * allreduce's first allgather step, the chunk
			 * its reduction completed). */
			uint64_t len = ibfs__tr_coll_piece(c->size, n, j);
			int red = s && s < n &&
				  (c->kind == IBFS_COLL_ALLREDUCE ||
				   c->kind == IBFS_COLL_REDUCE_SCATTER);
			size_t r = ibfs__tr_coll_msg(t, c, ci, i, (i + 1) % n,
						     len, dep, red ? len : 0);
			if (r == TR_NONE)
				return -1;
			st->sent[i] = r;
		}
		/* Step s is expanded: its messages are those the next
		 * step waits for. */
		for (size_t i = 0; i < n; i++) {
			st->prev[i] = st->sent[i];
			st->in[(i + 1) % n] = st->sent[i];
		}
	}
	return 0;
}

int ibfs__tr_coll_binomial(struct ibfs_traffic *t,
			   const struct ibfs_sc_collective *c, uint32_t ci,
			   struct tr_coll_state *st)
{
	size_t n = c->nmembers;
	/* By member: whether it has sent in this run (prev, as a flag). */
	for (size_t v = 0; v < n; v++) {
		st->got[v] = TR_NONE;
		st->prev[v] = 0;
	}
	for (size_t mask = 1; mask < n; mask <<= 1)
		for (size_t v = 0; v < mask && v + mask < n; v++) {
			size_t i = (v + c->root) % n;
			size_t to = (v + mask + c->root) % n;
			/* After its data came, and its last send (of this
			 * run, else of its last one) completed. */
			size_t dep[3] = {st->got[v], TR_NONE, st->sent[i]};
			if (!st->prev[i]) {
				dep[1] = st->in[i];
				st->prev[i] = 1;
			}
			size_t r = ibfs__tr_coll_msg(t, c, ci, i, to, c->size,
						     dep, 0);
			if (r == TR_NONE)
				return -1;
			st->got[v + mask] = r;
			st->sent[i] = r;
			/* A leaf's run is over when its data arrived. */
			st->in[to] = r;
		}
	return 0;
}

/*
 * Pairwise exchange: at step s (1 to N - 1) member i sends chunk
 * (i + s) mod N to member i + s and receives from i - s, as
 * MPI_Sendrecv, so step s + 1 waits for both.
 */
static int pairwise_run(struct ibfs_traffic *t,
			const struct ibfs_sc_collective *c, uint32_t ci,
			struct tr_coll_state *st)
{
	size_t n = c->nmembers;
	for (size_t s = 1; s < n; s++) {
		for (size_t i = 0; i < n; i++)
			st->prev[i] = st->in[i];
		for (size_t i = 0; i < n; i++) {
			size_t to = (i + s) % n;
			size_t dep[3] = {st->prev[i], TR_NONE, st->sent[i]};
			size_t r = ibfs__tr_coll_msg(
				t, c, ci, i, to,
				ibfs__tr_coll_piece(c->size, n, to), dep, 0);
			if (r == TR_NONE)
				return -1;
			st->sent[i] = r;
			st->in[to] = r;
		}
	}
	return 0;
}

static int coll_run(struct ibfs_traffic *t,
		    const struct ibfs_sc_collective *c, uint32_t ci,
		    struct tr_coll_state *st)
{
	switch (c->algo) {
	case IBFS_ALGO_BINOMIAL:
		return ibfs__tr_coll_binomial(t, c, ci, st);
	case IBFS_ALGO_PAIRWISE:
		return pairwise_run(t, c, ci, st);
	case IBFS_ALGO_RECURSIVE_DOUBLING:
		return ibfs__tr_coll_recdbl(t, c, ci, st);
	case IBFS_ALGO_RABENSEIFNER:
		return ibfs__tr_coll_rabenseifner(t, c, ci, st);
	case IBFS_ALGO_PIPELINE:
		return ibfs__tr_coll_pipeline(t, c, ci, st);
	case IBFS_ALGO_TREE:
		return ibfs__tr_coll_tree(t, c, ci, st);
	default:
		return ring_run(t, c, ci, st);
	}
}

int ibfs__tr_expand_collective(struct ibfs_traffic *t,
			       const struct ibfs_sc_collective *c)
{
	size_t n = c->nmembers, nn = t->sc->topo->nnodes;
	if (!t->coll_sent) {
		t->coll_sent = malloc(2 * (nn ? nn : 1) * sizeof(size_t));
		if (!t->coll_sent)
			return -1;
		t->coll_in = t->coll_sent + nn;
		for (size_t i = 0; i < 2 * nn; i++)
			t->coll_sent[i] = TR_NONE;
	}
	struct tr_coll *v = realloc(t->colls, (t->ncolls + 1) * sizeof(*v));
	if (!v)
		return -1;
	t->colls = v;
	uint32_t ci = (uint32_t)++t->ncolls;
	v[ci - 1].first = t->nrecs;
	size_t *mem = malloc(4 * n * sizeof(*mem));
	if (!mem)
		return -1;
	struct tr_coll_state st = {mem, mem + n, mem + 2 * n, mem + 3 * n};
	for (size_t i = 0; i < n; i++) {
		st.sent[i] = t->coll_sent[c->members[i]];
		st.in[i] = t->coll_in[c->members[i]];
	}
	int rc = 0;
	for (uint32_t r = 0; r < c->count && !rc; r++)
		rc = coll_run(t, c, ci, &st);
	for (size_t i = 0; i < n; i++) {
		t->coll_sent[c->members[i]] = st.sent[i];
		t->coll_in[c->members[i]] = st.in[i];
	}
	free(mem);
	t->colls[ci - 1].end = t->nrecs;
	return rc;
}
