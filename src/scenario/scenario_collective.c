/* SPDX-License-Identifier: MIT */
/*
 * <collective>: the reader of a collective operation in a scenario's
 * traffic (traffic_collective.c expands it into messages).
 *
 *   <collective kind="allreduce|reduce-scatter|allgather|broadcast"
 *               size="16MiB" hcas="n1,n2,..." root="n1" op="write-imm"
 *               qp="rc" count="1" start="0us" sl="0"
 *               algorithm="ring" chunks="1" reduce-rate="100Gbps"/>
 *
 * hcas lists the members in ring (rank) order, every HCA of the fabric in
 * topology order when absent; root is broadcast's (default the first
 * member). Each message must show its arrival at the receiver, so op is
 * write-imm (default) or send-imm, over rc (default) or uc. algorithm
 * picks one of the kind's (coll_algos; the first is the default); chunks
 * cuts the buffer of a pipelined broadcast or tree (each half of a double
 * tree's) in pieces; reduce-rate is how fast a member combines received
 * data, for the kinds that reduce.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/units.h"
#include "fabric/xml_doc.h"
#include "scenario/scenario_xml_int.h"

static const char *const coll_names[IBFS_COLL_COUNT] = {
	"allreduce", "reduce-scatter", "allgather", "broadcast", "alltoall"};

const char *ibfs__sc_coll_str(enum ibfs_sc_coll_kind k)
{
	return k < IBFS_COLL_COUNT ? coll_names[k] : "?";
}

static const char *const algo_names[IBFS_ALGO_COUNT] = {
	"ring", "binomial", "pairwise", "recursive-doubling", "rabenseifner",
	"pipeline", "tree", "double-tree"};

/* Each kind's algorithms, its default first (-1 ends a list). */
static const int coll_algos[IBFS_COLL_COUNT][6] = {
	[IBFS_COLL_ALLREDUCE] = {IBFS_ALGO_RING, IBFS_ALGO_RECURSIVE_DOUBLING,
				 IBFS_ALGO_RABENSEIFNER, IBFS_ALGO_TREE,
				 IBFS_ALGO_DOUBLE_TREE, -1},
	[IBFS_COLL_REDUCE_SCATTER] = {IBFS_ALGO_RING, -1},
	[IBFS_COLL_ALLGATHER] = {IBFS_ALGO_RING, -1},
	[IBFS_COLL_BROADCAST] = {IBFS_ALGO_BINOMIAL, IBFS_ALGO_PIPELINE, -1},
	[IBFS_COLL_ALLTOALL] = {IBFS_ALGO_PAIRWISE, -1},
};

enum ibfs_sc_coll_algo ibfs__sc_coll_algo(enum ibfs_sc_coll_kind k)
{
	return (enum ibfs_sc_coll_algo)coll_algos[k][0];
}

const char *ibfs__sc_algo_str(enum ibfs_sc_coll_algo a)
{
	return a < IBFS_ALGO_COUNT ? algo_names[a] : "?";
}

static long coll_line(xmlNode *n)
{
	return ibfs__xml_line(n);
}

/* Appends HCA `id` to c's members; -1 (with the reason) if it is not an
 * HCA of the fabric or already a member. */
static int coll_member(struct sx *x, long line, struct ibfs_sc_collective *c,
		       const char *id)
{
	int idx = ibfs__topo_find(x->s->topo, id);
	if (idx < 0 || x->s->topo->nodes[idx].type != IBFS_NODE_HCA)
		return ibfs__diag(x->d, x->file, line,
				  "hcas: '%s' is not an HCA of the fabric",
				  id);
	for (size_t i = 0; i < c->nmembers; i++)
		if (c->members[i] == idx)
			return ibfs__diag(x->d, x->file, line,
					  "hcas: '%s' is listed twice", id);
	c->members[c->nmembers++] = idx;
	return 0;
}

/* hcas="a,b,c", or every HCA in topology order. */
static int coll_members(struct sx *x, xmlNode *n, struct ibfs_sc_collective *c)
{
	const struct ibfs_topology *t = x->s->topo;
	c->members = malloc((t->nnodes ? t->nnodes : 1) * sizeof(int));
	if (!c->members)
		return ibfs__diag(x->d, x->file, c->line, "out of memory");
	char *list = (char *)xmlGetProp(n, (const xmlChar *)"hcas");
	if (!list) {
		for (size_t i = 0; i < t->nnodes; i++)
			if (t->nodes[i].type == IBFS_NODE_HCA)
				c->members[c->nmembers++] = (int)i;
		return 0;
	}
	int rc = 0;
	char *save = NULL;
	for (char *id = strtok_r(list, ",", &save); id && !rc;
	     id = strtok_r(NULL, ",", &save))
		rc = coll_member(x, c->line, c, id);
	xmlFree(list);
	return rc;
}

/* broadcast's root: a member, the first by default. */
static int coll_root(struct sx *x, xmlNode *n, struct ibfs_sc_collective *c)
{
	int root;
	if (ibfs__sx_attrs.hca(x, n, "root", &root) < 0)
		return -1;
	if (root < 0)
		return 0;
	if (c->kind != IBFS_COLL_BROADCAST)
		return ibfs__diag(x->d, x->file, c->line,
				  "root applies only to kind=\"broadcast\"");
	for (size_t i = 0; i < c->nmembers; i++)
		if (c->members[i] == root) {
			c->root = i;
			return 0;
		}
	return ibfs__diag(x->d, x->file, c->line,
			  "root=\"%s\" is not one of the collective's HCAs",
			  x->s->topo->nodes[root].id);
}

/* algorithm= (one of the kind's), chunks= and reduce-rate=. */
static int coll_algo(struct sx *x, xmlNode *n, struct ibfs_sc_collective *c)
{
	const struct ibfs_sx_attrs *a = &ibfs__sx_attrs;
	int algo, ok = 0;
	if (a->enumerated(x, n, "algorithm", algo_names, IBFS_ALGO_COUNT,
			  coll_algos[c->kind][0], &algo) < 0)
		return -1;
	char list[128] = "";
	for (const int *k = coll_algos[c->kind]; *k >= 0; k++) {
		ok |= *k == algo;
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%s%s", *list ? ", " : "", algo_names[*k]);
	}
	if (!ok)
		return ibfs__diag(x->d, x->file, c->line,
				  "algorithm=\"%s\" does not run %s (it "
				  "runs: %s)", algo_names[algo],
				  coll_names[c->kind], list);
	c->algo = (enum ibfs_sc_coll_algo)algo;
	size_t nm = c->nmembers;
	if (algo == IBFS_ALGO_RABENSEIFNER && (nm & (nm - 1)))
		return ibfs__diag(x->d, x->file, c->line,
				  "algorithm=\"rabenseifner\" needs a power "
				  "of two of HCAs, not %zu", nm);
	uint64_t v;
	char *ch = (char *)xmlGetProp(n, (const xmlChar *)"chunks");
	xmlFree(ch);
	if (ch && algo != IBFS_ALGO_PIPELINE && algo != IBFS_ALGO_TREE &&
	    algo != IBFS_ALGO_DOUBLE_TREE)
		return ibfs__diag(x->d, x->file, c->line,
				  "chunks applies only to algorithm="
				  "\"pipeline\", \"tree\" and "
				  "\"double-tree\"");
	if (a->unit(x, n, "chunks", ibfs__parse_uint, "count", 1, &v) < 0)
		return -1;
	if (v == 0 || v > 65536)
		return ibfs__diag(x->d, x->file, c->line,
				  "chunks must be between 1 and 65536");
	c->chunks = (uint32_t)v;
	if (a->unit(x, n, "reduce-rate", ibfs__parse_rate, "rate", 0,
		    &c->reduce_rate) < 0)
		return -1;
	char *rr = (char *)xmlGetProp(n, (const xmlChar *)"reduce-rate");
	xmlFree(rr);
	if (rr && c->kind != IBFS_COLL_ALLREDUCE &&
	    c->kind != IBFS_COLL_REDUCE_SCATTER)
		return ibfs__diag(x->d, x->file, c->line,
				  "reduce-rate applies only to allreduce and "
				  "reduce-scatter (the kinds that reduce)");
	if (rr && !c->reduce_rate)
		return ibfs__diag(x->d, x->file, c->line,
				  "reduce-rate must be above 0");
	/* Reducing the whole buffer within 10^5 s (10^17 ps), so that the
	 * waits of a run add up without overflowing 64-bit picoseconds. */
	unsigned __int128 ps = (unsigned __int128)c->size * 8 * 1000000000000u;
	if (c->reduce_rate && ps / c->reduce_rate >= 100000000000000000u)
		return ibfs__diag(x->d, x->file, c->line,
				  "reduce-rate is too slow: reducing %llu B "
				  "would take more than 100000 s",
				  (unsigned long long)c->size);
	return 0;
}

/* The most bytes any one message of c carries. */
static uint64_t coll_piece(const struct ibfs_sc_collective *c)
{
	uint64_t n = c->nmembers;
	switch (c->algo) {
	case IBFS_ALGO_BINOMIAL:
	case IBFS_ALGO_RECURSIVE_DOUBLING:
		return c->size;
	case IBFS_ALGO_PIPELINE:
	case IBFS_ALGO_TREE:
		return (c->size + c->chunks - 1) / c->chunks;
	case IBFS_ALGO_DOUBLE_TREE:
		/* The first half, the larger. */
		return ((c->size + 1) / 2 + c->chunks - 1) / c->chunks;
	case IBFS_ALGO_RABENSEIFNER:
		/* The first halving: chunks 0 .. n/2 - 1 of n. */
		return n / 2 * (c->size / n) +
		       (c->size % n < n / 2 ? c->size % n : n / 2);
	default:
		return (c->size + n - 1) / n;
	}
}

/* What op, qp and size must be for the expansion to work. */
static int coll_check(struct sx *x, const struct ibfs_sc_collective *c)
{
	if (c->op != IBFS_SC_WRITE_IMM && c->op != IBFS_SC_SEND_IMM)
		return ibfs__diag(x->d, x->file, c->line,
				  "a collective's op is write-imm or "
				  "send-imm (its receivers must see each "
				  "message arrive), not %s",
				  ibfs__sc_op_str(c->op));
	if (c->qp == IBFS_SC_UD)
		return ibfs__diag(x->d, x->file, c->line,
				  "a collective runs over rc or uc, not ud");
	if (c->nmembers < 2)
		return ibfs__diag(x->d, x->file, c->line,
				  "a collective needs at least two HCAs");
	if ((c->algo == IBFS_ALGO_PIPELINE || c->algo == IBFS_ALGO_TREE) &&
	    c->size < c->chunks)
		return ibfs__diag(x->d, x->file, c->line,
				  "a %s of %u chunks needs at least %u B",
				  c->algo == IBFS_ALGO_TREE ? "tree" :
							      "pipeline",
				  c->chunks, c->chunks);
	/* Each half in chunks: the second, size / 2, needs one byte each. */
	if (c->algo == IBFS_ALGO_DOUBLE_TREE && c->size / 2 < c->chunks)
		return ibfs__diag(x->d, x->file, c->line,
				  "a double tree splits size in 2 halves of "
				  "%u chunks: it needs at least %llu B",
				  c->chunks, 2ull * c->chunks);
	if (c->algo != IBFS_ALGO_BINOMIAL && c->algo != IBFS_ALGO_PIPELINE &&
	    c->algo != IBFS_ALGO_RECURSIVE_DOUBLING &&
	    c->algo != IBFS_ALGO_TREE && c->algo != IBFS_ALGO_DOUBLE_TREE &&
	    c->size < c->nmembers)
		return ibfs__diag(x->d, x->file, c->line,
				  "%s of %zu HCAs splits size in "
				  "%zu chunks: it needs at least %zu B",
				  c->kind == IBFS_COLL_ALLTOALL ?
					  "an alltoall" :
				  c->algo == IBFS_ALGO_RING ? "a ring" :
							      "rabenseifner",
				  c->nmembers, c->nmembers, c->nmembers);
	uint64_t sz = coll_piece(c);
	return ibfs__sx_attrs.op(x, c->line, c->op, c->qp, &sz, 1);
}

int ibfs__sx_read_collective(struct sx *x, xmlNode *n)
{
	const struct ibfs_sx_attrs *a = &ibfs__sx_attrs;
	struct ibfs_sc_collective c = {.line = coll_line(n)};
	int kind;
	char *sz = (char *)xmlGetProp(n, (const xmlChar *)"size");
	int size_given = sz != NULL;
	xmlFree(sz);
	if (a->enumerated(x, n, "kind", coll_names, IBFS_COLL_COUNT, -1,
			  &kind) < 0)
		return -1;
	if (kind < 0)
		return ibfs__diag(x->d, x->file, c.line,
				  "<collective> needs kind");
	if (!size_given)
		return ibfs__diag(x->d, x->file, c.line,
				  "<collective> needs size");
	c.kind = (enum ibfs_sc_coll_kind)kind;
	int rc = coll_members(x, n, &c);
	if (!rc &&
	    (a->op_qp(x, n, IBFS_SC_WRITE_IMM, &c.op, &c.qp) < 0 ||
	     a->unit(x, n, "size", ibfs__parse_size, "size", 0, &c.size) < 0 ||
	     a->unit(x, n, "start", ibfs__parse_time, "time", 0, &c.start) <
		     0 ||
	     a->sl(x, n, &c.sl, &c.sl_given) < 0 ||
	     a->count(x, n, &c.count) < 0 || coll_root(x, n, &c) < 0 ||
	     coll_algo(x, n, &c) < 0 || coll_check(x, &c) < 0))
		rc = -1;
	struct ibfs_sc_collective *v =
		rc ? NULL
		   : realloc(x->s->colls, (x->s->ncolls + 1) * sizeof(*v));
	if (!v) {
		free(c.members);
		return rc ? -1
			  : ibfs__diag(x->d, x->file, c.line, "out of memory");
	}
	x->s->colls = v;
	v[x->s->ncolls++] = c;
	return 0;
}
