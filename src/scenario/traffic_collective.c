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
 * (traffic_collective_algos.c, traffic_collective_trees.c). The pipelined
 * trees post in several streams at once (a poster each, each in order);
 * a member's run of those ends with a list of waits (join) instead of
 * one message sent and one arrived, which the first message of each of
 * its streams in its next run, or of its next collective, waits for.
 */
#include <stdlib.h>

#include "scenario/traffic_int.h"

/* The lane a collective's connections use: apart from <message> and
 * <pattern> traffic between the same HCAs (their lanes count from 0). */
#define TR_COLL_LANE 0x8000u

static int coll_push(struct tr_cstream *cs, size_t msg)
{
	if (cs->n == cs->cap) {
		size_t cap = cs->cap ? 2 * cs->cap : 16;
		size_t *v = realloc(cs->posts, cap * sizeof(*v));
		if (!v)
			return -1;
		cs->posts = v;
		cs->cap = cap;
	}
	cs->posts[cs->n++] = msg;
	return 0;
}

int ibfs__tr_coll_wait(struct ibfs_traffic *t, size_t rec, ibfs_time_t ps,
		       int cmp)
{
	if (t->ncoll_red == t->coll_red_cap) {
		size_t cap = t->coll_red_cap ? 2 * t->coll_red_cap : 16;
		struct tr_red *v = realloc(t->coll_red, cap * sizeof(*v));
		if (!v)
			return -1;
		t->coll_red = v;
		t->coll_red_cap = cap;
	}
	t->coll_red[t->ncoll_red++] = (struct tr_red){rec, ps, (uint8_t)cmp};
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

size_t ibfs__tr_coll_msg_on(struct ibfs_traffic *t,
			    const struct ibfs_sc_collective *c, uint32_t ci,
			    size_t src, size_t dst, uint64_t size,
			    const size_t dep[3], unsigned lane, unsigned stream)
{
	/* On the default partition. */
	struct tr_spec sp = {c->op, c->qp, c->sl, c->sl_given, size,
			     c->start, 1, 0, 0xffff};
	int s = c->members[src], d = c->members[dst];
	if (ibfs__tr_add_lane(t, s, d, &sp, (uint16_t)(TR_COLL_LANE + lane),
			      1, c->start, 0) < 0)
		return TR_NONE;
	struct tr_msg *m = &t->msgs[t->nmsgs - 1];
	m->coll = ci;
	m->dep_arr = dep[0];
	m->dep_arr2 = dep[1];
	m->dep_cmp = dep[2];
	m->stream = (uint8_t)stream;
	return coll_push(&t->nodes[s].cs[stream], t->nmsgs - 1) < 0 ?
		       TR_NONE :
		       m->first;
}

size_t ibfs__tr_coll_msg(struct ibfs_traffic *t,
			 const struct ibfs_sc_collective *c, uint32_t ci,
			 size_t src, size_t dst, uint64_t size,
			 const size_t dep[3], uint64_t red)
{
	size_t r = ibfs__tr_coll_msg_on(t, c, ci, src, dst, size, dep, 0, 0);
	if (r != TR_NONE && dep[0] != TR_NONE)
		t->msgs[t->nmsgs - 1].reduce =
			ibfs__tr_coll_reduce_time(c, red);
	return r;
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
		if (c->chunks > 1)
			return ibfs__tr_coll_trees(t, c, ci, st);
		return ibfs__tr_coll_tree(t, c, ci, st);
	case IBFS_ALGO_DOUBLE_TREE:
		return ibfs__tr_coll_trees(t, c, ci, st);
	default:
		return ring_run(t, c, ci, st);
	}
}

/* Whether c's runs post in several streams (traffic_collective_trees.c). */
static int coll_streams(const struct ibfs_sc_collective *c)
{
	return c->algo == IBFS_ALGO_DOUBLE_TREE ||
	       (c->algo == IBFS_ALGO_TREE && c->chunks > 1);
}

/* Message msg waits first for the n waits of coll_red from `first`, then
 * its own chain: both copied to the end of coll_red. */
static int join_msg(struct ibfs_traffic *t, size_t msg, size_t first,
		    uint32_t n)
{
	size_t at = t->ncoll_red, own = t->msgs[msg].red_first;
	uint32_t nown = t->msgs[msg].red_n;
	for (uint32_t k = 0; k < n + nown; k++) {
		struct tr_red w = t->coll_red[k < n ? first + k : own + k - n];
		if (ibfs__tr_coll_wait(t, w.rec, w.ps, w.cmp) < 0)
			return -1;
	}
	t->msgs[msg].red_first = at;
	t->msgs[msg].red_n = n + nown;
	return 0;
}

/* Before a run in several streams: member i's last sent and arrived
 * messages join its waits (a copy of them, then those two). */
static int join_ends(struct ibfs_traffic *t, struct tr_coll_state *st,
		     size_t i)
{
	if (st->in[i] == TR_NONE && st->sent[i] == TR_NONE)
		return 0;
	size_t first = t->ncoll_red, old = st->jfirst[i];
	uint32_t n = st->jn[i];
	for (uint32_t k = 0; k < n; k++) {
		struct tr_red w = t->coll_red[old + k];
		if (ibfs__tr_coll_wait(t, w.rec, w.ps, w.cmp) < 0)
			return -1;
	}
	if ((st->in[i] != TR_NONE &&
	     ibfs__tr_coll_wait(t, st->in[i], 0, 0) < 0) ||
	    (st->sent[i] != TR_NONE &&
	     ibfs__tr_coll_wait(t, st->sent[i], 0, 1) < 0))
		return -1;
	st->jfirst[i] = first;
	st->jn[i] = (uint32_t)(t->ncoll_red - first);
	st->in[i] = st->sent[i] = TR_NONE;
	return 0;
}

/*
 * One run, its members' joins applied: the first message of each of a
 * member's streams in the run waits for the join its last run left. A
 * member that posts nothing in the run keeps its join for the next.
 * snap: scratch of n x TR_STREAMS; ojf, ojn: of n.
 */
static int coll_run_joined(struct ibfs_traffic *t,
			   const struct ibfs_sc_collective *c, uint32_t ci,
			   struct tr_coll_state *st, size_t *snap,
			   size_t *ojf, uint32_t *ojn)
{
	size_t n = c->nmembers;
	for (size_t i = 0; i < n; i++) {
		const struct tr_node *node = &t->nodes[c->members[i]];
		for (int s = 0; s < TR_STREAMS; s++)
			snap[i * TR_STREAMS + s] = node->cs[s].n;
		if (coll_streams(c) && join_ends(t, st, i) < 0)
			return -1;
		ojf[i] = st->jfirst[i];
		ojn[i] = st->jn[i];
		st->jn[i] = 0;
	}
	if (coll_run(t, c, ci, st) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct tr_node *node = &t->nodes[c->members[i]];
		int posted = 0;
		for (int s = 0; s < TR_STREAMS; s++) {
			size_t k = snap[i * TR_STREAMS + s];
			if (node->cs[s].n == k)
				continue;
			posted = 1;
			if (ojn[i] &&
			    join_msg(t, node->cs[s].posts[k], ojf[i], ojn[i]) <
				    0)
				return -1;
		}
		if (!posted && !st->jn[i]) {
			st->jfirst[i] = ojf[i];
			st->jn[i] = ojn[i];
		}
	}
	return 0;
}

/* The members' state across collectives, by topology node. */
static int coll_state_alloc(struct ibfs_traffic *t)
{
	size_t nn = t->sc->topo->nnodes ? t->sc->topo->nnodes : 1;
	t->coll_sent = malloc(3 * nn * sizeof(size_t));
	t->coll_join_n = calloc(nn, sizeof(uint32_t));
	if (!t->coll_sent || !t->coll_join_n)
		return -1;
	t->coll_in = t->coll_sent + nn;
	t->coll_join_first = t->coll_sent + 2 * nn;
	for (size_t i = 0; i < 3 * nn; i++)
		t->coll_sent[i] = TR_NONE;
	return 0;
}

int ibfs__tr_expand_collective(struct ibfs_traffic *t,
			       const struct ibfs_sc_collective *c)
{
	size_t n = c->nmembers;
	if (!t->coll_sent && coll_state_alloc(t) < 0)
		return -1;
	struct tr_coll *v = realloc(t->colls, (t->ncolls + 1) * sizeof(*v));
	if (!v)
		return -1;
	t->colls = v;
	uint32_t ci = (uint32_t)++t->ncolls;
	v[ci - 1].first = t->nrecs;
	size_t *mem = malloc((6 + TR_STREAMS) * n * sizeof(*mem));
	uint32_t *jn = malloc(2 * n * sizeof(*jn));
	if (!mem || !jn) {
		free(mem);
		free(jn);
		return -1;
	}
	struct tr_coll_state st = {mem, mem + n, mem + 2 * n, mem + 3 * n,
				   mem + 4 * n, jn};
	for (size_t i = 0; i < n; i++) {
		int m = c->members[i];
		st.sent[i] = t->coll_sent[m];
		st.in[i] = t->coll_in[m];
		st.jfirst[i] = t->coll_join_first[m];
		st.jn[i] = t->coll_join_n[m];
	}
	int rc = 0;
	for (uint32_t r = 0; r < c->count && !rc; r++)
		rc = coll_run_joined(t, c, ci, &st, mem + 6 * n, mem + 5 * n,
				     jn + n);
	for (size_t i = 0; i < n; i++) {
		int m = c->members[i];
		t->coll_sent[m] = st.sent[i];
		t->coll_in[m] = st.in[i];
		t->coll_join_first[m] = st.jfirst[i];
		t->coll_join_n[m] = st.jn[i];
	}
	free(mem);
	free(jn);
	t->colls[ci - 1].end = t->nrecs;
	return rc;
}
