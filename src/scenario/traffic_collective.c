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
 *     then allgather of the reduced chunks. Reductions take no time.
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
 * peer, apart from other traffic.
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

/*
 * One message of collective number `ci` (1-based) from member src to
 * dst, posted after the records it names; returns its record, or
 * TR_NONE (no memory).
 */
static size_t coll_msg(struct ibfs_traffic *t,
		       const struct ibfs_sc_collective *c, uint32_t ci,
		       int src, int dst, uint64_t size, const size_t dep[3])
{
	/* On the default partition. */
	struct tr_spec sp = {c->op, c->qp, c->sl, c->sl_given, size,
			     c->start, 1, 0, 0xffff};
	if (ibfs__tr_add_lane(t, src, dst, &sp, TR_COLL_LANE, 1, c->start,
			      0) < 0)
		return TR_NONE;
	struct tr_msg *m = &t->msgs[t->nmsgs - 1];
	m->coll = ci;
	m->dep_arr = dep[0];
	m->dep_arr2 = dep[1];
	m->dep_cmp = dep[2];
	return coll_push(&t->nodes[src], m->first) < 0 ? TR_NONE : m->first;
}

/* Chunk j of the ring's N: size / N, the first size mod N a byte more. */
static uint64_t ring_chunk(uint64_t size, size_t n, size_t j)
{
	return size / n + (j < size % n);
}

/*
 * Where a run stands, by member: sent[i] its last message and in[i] the
 * last that arrived at it, TR_NONE before its first collective. A
 * member's first message of a run waits for both (its previous run or
 * collective is over for it); they are updated as the run is expanded.
 */
struct coll_state {
	size_t *sent, *in;
	size_t *prev;   /* ring: each member's message of the previous step */
	size_t *got;    /* binomial: what brought the data to each rank */
};

static int ring_run(struct ibfs_traffic *t, const struct ibfs_sc_collective *c,
		    uint32_t ci, struct coll_state *st)
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
			size_t r = coll_msg(t, c, ci, c->members[i],
					    c->members[(i + 1) % n],
					    ring_chunk(c->size, n, j), dep);
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

static int binomial_run(struct ibfs_traffic *t,
			const struct ibfs_sc_collective *c, uint32_t ci,
			struct coll_state *st)
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
			size_t r = coll_msg(t, c, ci, c->members[i],
					    c->members[to], c->size, dep);
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
			struct coll_state *st)
{
	size_t n = c->nmembers;
	for (size_t s = 1; s < n; s++) {
		for (size_t i = 0; i < n; i++)
			st->prev[i] = st->in[i];
		for (size_t i = 0; i < n; i++) {
			size_t to = (i + s) % n;
			size_t dep[3] = {st->prev[i], TR_NONE, st->sent[i]};
			size_t r = coll_msg(t, c, ci, c->members[i],
					    c->members[to],
					    ring_chunk(c->size, n, to), dep);
			if (r == TR_NONE)
				return -1;
			st->sent[i] = r;
			st->in[to] = r;
		}
	}
	return 0;
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
	struct coll_state st = {mem, mem + n, mem + 2 * n, mem + 3 * n};
	for (size_t i = 0; i < n; i++) {
		st.sent[i] = t->coll_sent[c->members[i]];
		st.in[i] = t->coll_in[c->members[i]];
	}
	int rc = 0;
	for (uint32_t r = 0; r < c->count && !rc; r++)
		rc = c->kind == IBFS_COLL_BROADCAST ? binomial_run(t, c, ci, &st) :
		     c->kind == IBFS_COLL_ALLTOALL  ? pairwise_run(t, c, ci, &st) :
						      ring_run(t, c, ci, &st);
	for (size_t i = 0; i < n; i++) {
		t->coll_sent[c->members[i]] = st.sent[i];
		t->coll_in[c->members[i]] = st.in[i];
	}
	free(mem);
	t->colls[ci - 1].end = t->nrecs;
	return rc;
}
