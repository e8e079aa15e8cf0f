/* SPDX-License-Identifier: MIT */
/*
 * The algorithms a <collective algorithm=> picks besides each kind's
 * default (traffic_collective.c), expanded into messages that wait for
 * each other as the defaults' do. Ranks are positions in hcas.
 *
 *   recursive-doubling (allreduce; Thakur, Rabenseifner and Gropp 2005,
 *     section 4.4): with N a power of two, log2 N steps; at step k member
 *     i exchanges the whole buffer with i XOR 2^k and reduces what it
 *     received. Otherwise, with p the largest power of two below N and
 *     r = N - p, as MPICH does: the even ranks below 2r first send their
 *     buffer to the odd rank after them, which reduces it, and sit out;
 *     the p others (new rank i / 2 for an odd i < 2r, i - r above) run
 *     the p-member exchange; last, each odd rank below 2r sends the result
 *     to the even rank before it. log2 p + 2 steps, each of size bytes.
 *   rabenseifner (allreduce, N a power of two; the same paper, section
 *     4.5, after Rabenseifner 1997): a reduce-scatter by recursive halving
 *     (at step k, k = 0 .. log2 N - 1, member i and i XOR 2^k hold the
 *     same range of the N chunks; the lower keeps the lower half, sends
 *     the upper one and reduces the half it receives) then an allgather
 *     by recursive doubling (at the steps in reverse, each member sends
 *     to i XOR 2^k all it has, the range it kept at step k). 2 log2 N
 *     steps; the first carries size / 2 bytes, the last of the halving
 *     one chunk (size / N).
 *   tree (allreduce; the same paper's binomial reduce then binomial
 *     broadcast, section 4.4's short-message baseline; not pipelined:
 *     with chunks above 1 traffic_collective_trees.c pipelines it, and
 *     runs NCCL's double binary tree): rank v (v > 0) sends the whole
 *     buffer to its parent v - lowbit(v) once it has received and
 *     reduced, one after the other in that order, its children v + 1,
 *     v + 2, v + 4, ... (below v + lowbit(v) and N); rank 0 reduces its
 *     children's likewise and then broadcasts the result as a binomial
 *     tree (traffic_collective.c). Every receive of the reduction
 *     reduces.
 *   pipeline (broadcast; a chain as NCCL's ring broadcast, and the
 *     pipelined broadcasts of the same paper, section 4.1): the buffer in
 *     `chunks` pieces goes down the chain root, root + 1, ..., root - 1.
 *     The root posts its pieces one after the other (nonblocking sends);
 *     every other member forwards each piece once it has arrived.
 *
 * Each of a member's steps waits as MPI_Sendrecv does: for its last
 * send's completion and for the message its reduction needs (the step
 * before's), plus that reduction's time at reduce-rate. Steps that
 * reduce: recursive doubling's from the second on and the members' last
 * send back (what they received at the step before); rabenseifner's
 * halving steps from the second on and its first doubling step (the
 * last halving's reduction); the tree's reduction, each child's buffer
 * in turn. The last reduction of a member whose
 * result no message carries on takes no time in the model.
 */
#include <stdlib.h>

#include "scenario/traffic_int.h"

/* The largest power of two not above n (n >= 1). */
static size_t pow2_floor(size_t n)
{
	size_t p = 1;
	while (p * 2 <= n)
		p *= 2;
	return p;
}

/* recursive doubling's rank of new rank v, r members folded. */
static size_t rd_rank(size_t v, size_t r)
{
	return v < r ? 2 * v + 1 : v + r;
}

int ibfs__tr_coll_recdbl(struct ibfs_traffic *t,
			 const struct ibfs_sc_collective *c, uint32_t ci,
			 struct tr_coll_state *st)
{
	size_t n = c->nmembers, p = pow2_floor(n), r = n - p;
	uint64_t sz = c->size;
	/* got[i]: the message that arrived at rank i at its last step
	 * (TR_NONE: none this run); prev[i]: its last send this run. */
	for (size_t i = 0; i < n; i++)
		st->got[i] = st->prev[i] = TR_NONE;
	for (size_t i = 0; i + 1 < 2 * r; i += 2) {
		size_t dep[3] = {st->in[i], TR_NONE, st->sent[i]};
		size_t m = ibfs__tr_coll_msg(t, c, ci, i, i + 1, sz, dep, 0);
		if (m == TR_NONE)
			return -1;
		st->got[i + 1] = st->prev[i] = m;
	}
	for (size_t mask = 1; mask < p; mask <<= 1) {
		size_t *now = malloc(n * sizeof(*now));
		if (!now)
			return -1;
		for (size_t v = 0; v < p; v++) {
			size_t i = rd_rank(v, r), to = rd_rank(v ^ mask, r);
			size_t dep[3] = {st->got[i], TR_NONE, st->prev[i]};
			if (mask == 1) {
				/* Its first step: after its last run, and
				 * the folded buffer reduced (if any). */
				dep[0] = st->got[i];
				dep[1] = st->in[i];
				dep[2] = st->sent[i];
				if (dep[0] == TR_NONE) {
					dep[0] = dep[1];
					dep[1] = TR_NONE;
				}
			}
			uint64_t red = mask > 1 || st->got[i] != TR_NONE ?
					       sz : 0;
			size_t m = ibfs__tr_coll_msg(t, c, ci, i, to, sz, dep,
						     red);
			if (m == TR_NONE) {
				free(now);
				return -1;
			}
			now[to] = m;
			st->prev[i] = m;
		}
		for (size_t v = 0; v < p; v++)
			st->got[rd_rank(v, r)] = now[rd_rank(v, r)];
		free(now);
	}
	for (size_t i = 1; i < 2 * r; i += 2) {
		size_t dep[3] = {st->got[i], TR_NONE, st->prev[i]};
		size_t m = ibfs__tr_coll_msg(t, c, ci, i, i - 1, sz, dep, sz);
		if (m == TR_NONE)
			return -1;
		st->got[i - 1] = st->prev[i] = m;
	}
	for (size_t i = 0; i < n; i++) {
		st->sent[i] = st->prev[i];
		st->in[i] = st->got[i];
	}
	return 0;
}

/* Bytes of chunks [lo, hi) of n. */
static uint64_t range_bytes(uint64_t size, size_t n, size_t lo, size_t hi)
{
	uint64_t b = 0;
	for (size_t j = lo; j < hi; j++)
		b += ibfs__tr_coll_piece(size, n, j);
	return b;
}

/*
 * One exchange of rabenseifner: each rank i sends chunks [lo[i], hi[i])
 * to i ^ mask once its last send completed and got[i] arrived (the
 * first step of a run: once its last run is over), reducing got[i]'s
 * gotb[i] bytes first if `red`. Then got and gotb are this exchange's
 * (gotb + n: scratch for the bytes, as now for the messages).
 */
static int rab_step(struct ibfs_traffic *t, const struct ibfs_sc_collective *c,
		    uint32_t ci, struct tr_coll_state *st, const size_t *lo,
		    const size_t *hi, size_t mask, int first, int red,
		    uint64_t *gotb, size_t *now)
{
	size_t n = c->nmembers;
	uint64_t *nowb = gotb + n;
	for (size_t i = 0; i < n; i++) {
		size_t dep[3] = {st->got[i], TR_NONE, st->prev[i]};
		if (first) {
			dep[0] = st->in[i];
			dep[2] = st->sent[i];
		}
		uint64_t b = range_bytes(c->size, n, lo[i], hi[i]);
		size_t m = ibfs__tr_coll_msg(t, c, ci, i, i ^ mask, b, dep,
					     red ? gotb[i] : 0);
		if (m == TR_NONE)
			return -1;
		now[i ^ mask] = m;
		nowb[i ^ mask] = b;
		st->prev[i] = m;
	}
	for (size_t i = 0; i < n; i++) {
		st->got[i] = now[i];
		gotb[i] = nowb[i];
	}
	return 0;
}

int ibfs__tr_coll_rabenseifner(struct ibfs_traffic *t,
			       const struct ibfs_sc_collective *c, uint32_t ci,
			       struct tr_coll_state *st)
{
	size_t n = c->nmembers, l = 0;
	while ((size_t)1 << l < n)
		l++;
	/* keep[k]: each rank's range kept at halving step k (lo, then hi
	 * at + n); send: this step's; now: scratch. */
	size_t *mem = malloc((2 * l * n + 3 * n) * sizeof(*mem));
	uint64_t *gotb = malloc(2 * n * sizeof(*gotb));
	if (!mem || !gotb) {
		free(mem);
		free(gotb);
		return -1;
	}
	size_t *send = mem + 2 * l * n, *now = send + 2 * n;
	int rc = 0;
	for (size_t k = 0; k < l && !rc; k++) {
		size_t *keep = mem + 2 * k * n;
		for (size_t i = 0; i < n; i++) {
			size_t lo = k ? mem[2 * (k - 1) * n + i] : 0;
			size_t hi = k ? mem[2 * (k - 1) * n + n + i] : n;
			size_t mid = (lo + hi) / 2;
			/* The lower rank keeps the lower half. */
			int lower = i < (i ^ ((size_t)1 << k));
			keep[i] = lower ? lo : mid;
			keep[n + i] = lower ? mid : hi;
			send[i] = lower ? mid : lo;
			send[n + i] = lower ? hi : mid;
		}
		rc = rab_step(t, c, ci, st, send, send + n, (size_t)1 << k,
			      k == 0, k > 0, gotb, now);
	}
	/* The doubling, halving's steps in reverse: each sends what it
	 * kept, the first after its last halving's reduction. */
	for (size_t k = l; k-- > 0 && !rc;) {
		const size_t *keep = mem + 2 * k * n;
		rc = rab_step(t, c, ci, st, keep, keep + n, (size_t)1 << k, 0,
			      k == l - 1, gotb, now);
	}
	for (size_t i = 0; i < n && !rc; i++) {
		st->sent[i] = st->prev[i];
		st->in[i] = st->got[i];
	}
	free(mem);
	free(gotb);
	return rc;
}

/*
 * The pipeline: piece p goes from relative rank v to v + 1 (v = 0 ..
 * N - 2); each member's first piece of a run waits for its last run.
 */
int ibfs__tr_coll_pipeline(struct ibfs_traffic *t,
			   const struct ibfs_sc_collective *c, uint32_t ci,
			   struct tr_coll_state *st)
{
	size_t n = c->nmembers;
	for (uint32_t p = 0; p < c->chunks; p++) {
		uint64_t b = ibfs__tr_coll_piece(c->size, c->chunks, p);
		size_t from = TR_NONE; /* piece p's arrival at v */
		for (size_t v = 0; v + 1 < n; v++) {
			size_t i = (v + c->root) % n, to = (i + 1) % n;
			size_t dep[3] = {from, TR_NONE, TR_NONE};
			if (!p) {
				dep[1] = st->in[i];
				dep[2] = st->sent[i];
			}
			size_t m =
				ibfs__tr_coll_msg(t, c, ci, i, to, b, dep, 0);
			if (m == TR_NONE)
				return -1;
			from = st->got[to] = m;
			st->prev[i] = m;
		}
	}
	for (size_t v = 0; v + 1 < n; v++) {
		size_t i = (v + c->root) % n;
		st->sent[i] = st->prev[i];
		st->in[(i + 1) % n] = st->got[(i + 1) % n];
	}
	return 0;
}

/* Message msg waits for, and reduces in turn, what v's children sent
 * (up[child]: the child's message to v). */
static int red_chain(struct ibfs_traffic *t,
		     const struct ibfs_sc_collective *c, size_t msg, size_t v,
		     const size_t *up)
{
	size_t n = c->nmembers, first = t->ncoll_red;
	size_t low = v ? v & -v : n;
	ibfs_time_t ps = ibfs__tr_coll_reduce_time(c, c->size);
	uint32_t k = 0;
	for (size_t mask = 1; mask < low && v + mask < n; mask <<= 1, k++)
		if (ibfs__tr_coll_wait(t, up[v + mask], ps, 0) < 0)
			return -1;
	t->msgs[msg].red_first = first;
	t->msgs[msg].red_n = k;
	return 0;
}

int ibfs__tr_coll_tree(struct ibfs_traffic *t,
		       const struct ibfs_sc_collective *c, uint32_t ci,
		       struct tr_coll_state *st)
{
	size_t n = c->nmembers;
	/* The reduction, rounds by lowbit: a child's lowbit is below its
	 * parent's, so that its message exists before the parent's. */
	for (size_t low = 1; low < n; low <<= 1)
		for (size_t v = low; v < n; v += 2 * low) {
			size_t dep[3] = {TR_NONE, st->in[v], st->sent[v]};
			size_t m = ibfs__tr_coll_msg(t, c, ci, v, v - low,
						     c->size, dep, 0);
			if (m == TR_NONE ||
			    red_chain(t, c, t->nmsgs - 1, v, st->got) < 0)
				return -1;
			st->got[v] = m;
			st->sent[v] = m;
		}
	/* Then the broadcast from rank 0, whose first send (the first
	 * message it appends) waits for rank 0's reduction. */
	size_t first = t->nmsgs;
	size_t *up = malloc(n * sizeof(*up));
	if (!up)
		return -1;
	for (size_t v = 0; v < n; v++)
		up[v] = st->got[v];
	int rc = ibfs__tr_coll_binomial(t, c, ci, st);
	if (!rc)
		rc = red_chain(t, c, first, 0, up);
	free(up);
	return rc;
}
