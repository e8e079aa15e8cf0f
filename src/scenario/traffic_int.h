/* SPDX-License-Identifier: MIT */
/*
 * The traffic plan shared by traffic_plan.c (expansion) and traffic_app.c
 * (the application actors). A connection joins a source and a destination
 * HCA with one queue pair at each end (RC, UC); UD traffic uses one UD
 * queue pair per HCA. Each message of a <message count=N> is one record.
 */
#ifndef IBFS_SCENARIO_TRAFFIC_INT_H
#define IBFS_SCENARIO_TRAFFIC_INT_H

#include <ibfsim/sim.h>
#include <ibfsim/verbs.h>

#include "scenario/traffic.h"

struct ibfs_rng;

struct tr_conn {
	int src, dst;
	enum ibfs_sc_qp qp;
	uint8_t sl;
	uint8_t sl_given;       /* sl="" was written: no path SL */
	uint16_t lane;          /* which of the pair's qps connections */
	uint16_t pkey;          /* its partition (scenario pkey="") */
	uint32_t recvs;         /* receives the destination posts (SENDs) */
	uint32_t recvs_left;    /* of those, not yet posted (runtime) */
	struct ibfs_qp *qp_src, *qp_dst; /* filled by the actors */
};

/* No record: a message of a collective that waits for nothing. */
#define TR_NONE ((size_t)-1)

struct tr_msg {
	size_t conn;
	enum ibfs_sc_op op;
	uint64_t size;
	uint32_t count;
	ibfs_time_t start;      /* the first post */
	ibfs_time_t interval;   /* between posts (0: all at start) */
	size_t first;           /* index of its first record */
	/* A collective's message (count 1): its collective + 1 (0: none),
	 * and what it is posted after: the arrival of records dep_arr and
	 * dep_arr2 at its source, the completion of its source's record
	 * dep_cmp (TR_NONE: nothing). */
	uint32_t coll;
	size_t dep_arr, dep_arr2, dep_cmp;
	/* The reduction of dep_arr's data before this post (0: none):
	 * posted no earlier than dep_arr's arrival + reduce. */
	ibfs_time_t reduce;
	/* And after a chain of receives, each reduced in turn: coll_red
	 * [red_first, red_first + red_n) (a tree's parent's children). */
	size_t red_first;
	uint32_t red_n;
	/* red_serial: the chain starts when the member's poster of this
	 * stream last posted (its reductions one after the other). */
	uint8_t stream, red_serial;
};

/* One wait of a chain: record rec's arrival (or, if cmp, completion at
 * its sender), then ps of reduction. */
struct tr_red {
	size_t rec;
	ibfs_time_t ps;
	uint8_t cmp;
};

/* A member's posters of collective messages: one for the algorithms
 * that send in one order, one for each tree's sends up and down (the
 * double tree's two trees, traffic_collective_trees.c). */
#define TR_STREAMS 4

/* The messages (indexes in msgs) one poster posts, in order. */
struct tr_cstream {
	size_t *posts;
	size_t n, cap;
};

/* A collective's messages: records [first, end). */
struct tr_coll {
	size_t first, end;
};

/* What a <message>, <pattern> or <collective> says about each message. */
struct tr_spec {
	enum ibfs_sc_op op;
	enum ibfs_sc_qp qp;
	uint8_t sl, sl_given;
	uint64_t size;
	ibfs_time_t start;
	uint32_t qps;
	uint64_t rate;
	uint16_t pkey;          /* the partition's P_Key (0xffff default) */
};

/* Multicast (traffic_mcast.c): one <multicast>, expanded. */
struct tr_mc_msg {
	int group;
	size_t src;             /* its sender entry (struct tr_mc_src) */
	enum ibfs_sc_op op;
	uint8_t sl;
	uint64_t size;
	uint32_t count;
	ibfs_time_t start, interval;
	size_t first;           /* its first record in mc_recs */
};

/* A sender of a group: its records to the group in the order posted. */
struct tr_mc_src {
	int group, node;
	size_t *recs;
	size_t nrecs;
	size_t posted;          /* runtime: of those, posted so far */
};

/*
 * A full member's receive side: one UD QP attached to its group. A member
 * that joins at run time (<multicast-join>, `dynamic`) has its QP on a CQ
 * of its own, attached when its join's response comes (mcast_joins.c);
 * its copies are not waited for, and are read from that CQ after the run
 * (ibfs__traffic_mc_drain), each at the time it became visible.
 */
struct tr_mc_member {
	int group, node, port;
	int dynamic;
	uint32_t recvs;         /* copies it expects (the others' sends) */
	uint32_t recvs_left;    /* runtime: receives not yet posted */
	uint32_t *got;          /* [nmc_srcs] copies received from each */
	struct ibfs_qp *qp;
	struct ibfs_cq *cq;     /* dynamic: its own CQ */
};

/* What one HCA's actors need and share. */
struct tr_node {
	size_t *msgs;           /* messages it sends */
	size_t nmsgs, msgs_cap;
	size_t *posts;          /* its records in the order of their posts */
	size_t nposts;
	size_t *conns;          /* connections it is an end of */
	size_t nconns, conns_cap;
	uint64_t expected;      /* completions its CQ will see */
	uint64_t bufsize;       /* bytes of its registered buffer */
	uint32_t ud_recvs;      /* receives to post on its UD QP */
	uint32_t ud_recvs_left; /* of those, not yet posted (runtime) */
	int uses_ud;
	int mc;                 /* a multicast sender or member */
	size_t *mc_posts;       /* its multicast send records, post order */
	size_t nmc_posts;
	/* Runtime, owned by the actors. */
	struct ibfs_context *ctx;
	struct ibfs_pd *pd;
	struct ibfs_cq *cq;
	struct ibfs_mr *mr;
	struct ibfs_qp *ud_qp;
	uint8_t *buf;
	uint16_t lid;           /* its first port's base LID */
	uint8_t lmc;            /* the LMC: 2^lmc LIDs a port */
	uint8_t port;           /* its first port with a LID (UD) */
	/* Its ports with a LID (up to TR_PORTS), and their base LIDs: a
	 * pair's connections spread over them. */
	uint8_t nports, ports[4];
	uint16_t lids[4];
	/* Its messages of collectives, by poster, in the order posted. */
	struct tr_cstream cs[TR_STREAMS];
};

/* A flow of a kind="flows" pattern: its record and its pattern. */
struct tr_flow {
	size_t rec;
	uint32_t pat;
};

struct ibfs_traffic {
	const struct ibfs_scenario *sc;
	struct tr_conn *conns;
	size_t nconns, conns_cap;
	struct tr_msg *msgs;
	size_t nmsgs, msgs_cap;
	struct ibfs_msg_record *recs;
	size_t nrecs;
	size_t *rec_msg;        /* record -> its message */
	ibfs_time_t *planned;   /* record -> when it is to be posted */
	struct tr_node *nodes;  /* by topology node index */
	size_t *conn_index;     /* open addressing: (src, dst, qp) -> conn+1 */
	size_t index_cap;
	int data;
	ibfs_time_t base;         /* start times count from here */
	struct ibfs_trace *trace; /* NULL: no timeline */
	uint8_t (*path_sl)(void *ctx, uint16_t slid, uint16_t dlid);
	void *path_sl_ctx;
	int setup_failed;         /* an HCA's program could not start */
	/* Collectives: their records, and what each record's arrival or
	 * completion must announce (TR_SIG_*). */
	struct tr_coll *colls;
	size_t ncolls;
	uint8_t *sig;
	/* By node: the last record of its collectives so far that it sent,
	 * and that arrived at it (TR_NONE: none), which its next
	 * collective waits for, as a blocking MPI call returns first. */
	size_t *coll_sent, *coll_in;
	/* By node: the waits (coll_red [join_first, + join_n)) that end its
	 * last run when it ran in several streams (join_n 0: none). */
	size_t *coll_join_first;
	uint32_t *coll_join_n;
	struct tr_red *coll_red;  /* the chains of tr_msg red_first */
	size_t ncoll_red, coll_red_cap;
	/* Multicast: sends, their senders, records and deliveries. */
	struct tr_mc_msg *mc_msgs;
	size_t nmc_msgs;
	struct tr_mc_src *mc_srcs;
	size_t nmc_srcs;
	struct tr_mc_member *mc_members;
	size_t nmc_members;
	struct ibfs_mc_send_rec *mc_recs;
	ibfs_time_t *mc_planned;
	size_t *mc_rec_msg;
	size_t nmc_recs;
	struct ibfs_mc_delivery *mc_dels;
	size_t nmc_dels, mc_dels_cap;
	/* kind="flows" patterns' flows, in the order generated. */
	struct tr_flow *flows;
	size_t nflows, flows_cap;
};

enum { TR_SIG_ARRIVAL = 1, TR_SIG_COMPLETION = 2 };

/* traffic_flows.c: <pattern kind="flows"> number `pat` (its index among
 * the scenario's patterns) into messages, one a flow; -1 no memory. */
int ibfs__tr_expand_flows(struct ibfs_traffic *t,
			  const struct ibfs_sc_pattern *p, uint32_t pat,
			  const int *h, size_t n, struct ibfs_rng *r);
/* After the run: the flows into r->fct (results_flows.c); -1 no memory. */
int ibfs__tr_flows_collect(const struct ibfs_traffic *t,
			   struct ibfs_results *r);

/*
 * One lane (connection) of `count` messages from src to dst, posted from
 * start every interval (traffic_plan.c); the message is t->msgs[last].
 * Returns 0 or -1 (no memory).
 */
int ibfs__tr_add_lane(struct ibfs_traffic *t, int src, int dst,
		      const struct tr_spec *sp, uint16_t lane, uint32_t count,
		      ibfs_time_t start, ibfs_time_t interval);
/* Appends collective c's messages (traffic_collective.c); -1 no memory. */
int ibfs__tr_expand_collective(struct ibfs_traffic *t,
			       const struct ibfs_sc_collective *c);

/*
 * Where a collective's run stands, by member (rank): sent[i] its last
 * message and in[i] the last that arrived at it, TR_NONE before its first
 * collective; a member's first message of a run waits for both. prev and
 * got are scratch arrays of the same size.
 */
struct tr_coll_state {
	size_t *sent, *in;
	size_t *prev, *got;
	/* A run in several streams ends each member i with the waits
	 * coll_red [jfirst[i], + jn[i]) instead of sent and in (TR_NONE). */
	size_t *jfirst;
	uint32_t *jn;
};

/*
 * One message of collective `ci` (1-based) from rank src to rank dst,
 * posted after the records dep[] names (arrival, arrival, completion),
 * and after reducing `red` bytes of dep[0]'s data at c's reduce-rate;
 * returns its record, or TR_NONE (no memory).
 */
size_t ibfs__tr_coll_msg(struct ibfs_traffic *t,
			 const struct ibfs_sc_collective *c, uint32_t ci,
			 size_t src, size_t dst, uint64_t size,
			 const size_t dep[3], uint64_t red);
/* The same on poster `stream`, over the pair's connection lane + `lane`. */
size_t ibfs__tr_coll_msg_on(struct ibfs_traffic *t,
			    const struct ibfs_sc_collective *c, uint32_t ci,
			    size_t src, size_t dst, uint64_t size,
			    const size_t dep[3], unsigned lane,
			    unsigned stream);
/* Appends a wait to t->coll_red; -1 no memory. */
int ibfs__tr_coll_wait(struct ibfs_traffic *t, size_t rec, ibfs_time_t ps,
		       int cmp);
/* Piece j of `size` cut in n: size / n, the first size mod n a byte more. */
uint64_t ibfs__tr_coll_piece(uint64_t size, size_t n, size_t j);
/* One run of the algorithms of traffic_collective_algos.c; -1 no memory. */
int ibfs__tr_coll_recdbl(struct ibfs_traffic *t,
			 const struct ibfs_sc_collective *c, uint32_t ci,
			 struct tr_coll_state *st);
int ibfs__tr_coll_rabenseifner(struct ibfs_traffic *t,
			       const struct ibfs_sc_collective *c, uint32_t ci,
			       struct tr_coll_state *st);
int ibfs__tr_coll_pipeline(struct ibfs_traffic *t,
			   const struct ibfs_sc_collective *c, uint32_t ci,
			   struct tr_coll_state *st);
int ibfs__tr_coll_tree(struct ibfs_traffic *t,
		       const struct ibfs_sc_collective *c, uint32_t ci,
		       struct tr_coll_state *st);
/* The pipelined trees (traffic_collective_trees.c): the double binary
 * tree, and the tree algorithm in chunks. */
int ibfs__tr_coll_trees(struct ibfs_traffic *t,
			const struct ibfs_sc_collective *c, uint32_t ci,
			struct tr_coll_state *st);
/* Rank r's parent in tree `tree` (0 or 1) of NCCL's double binary tree
 * of n ranks; TR_NONE for its root. */
size_t ibfs__tr_dtree_parent(int tree, size_t r, size_t n);
/* traffic_collective.c's binomial broadcast, for the tree. */
int ibfs__tr_coll_binomial(struct ibfs_traffic *t,
			   const struct ibfs_sc_collective *c, uint32_t ci,
			   struct tr_coll_state *st);
/* The time to reduce `bytes` at c's reduce-rate, rounded up to the ps. */
ibfs_time_t ibfs__tr_coll_reduce_time(const struct ibfs_sc_collective *c,
				      uint64_t bytes);


/* traffic_mcast.c */
int ibfs__tr_mc_plan(struct ibfs_traffic *t);
int ibfs__tr_mc_collect(const struct ibfs_traffic *t, struct ibfs_results *r);
void ibfs__tr_mc_free(struct ibfs_traffic *t);
/* A copy arrived at member m from the sender whose LID is slid, with
 * immediate data *imm (NULL: none). */
int ibfs__tr_mc_delivered(struct ibfs_traffic *t, struct tr_mc_member *m,
			  uint16_t slid, const uint32_t *imm, int status,
			  ibfs_time_t at);

/* traffic_app.c and traffic_app_coll.c: the plan of the running
 * simulation; posting record rec of message m (0, or nonzero when the
 * HCA's program must stop); an actor's node (argv[1]) once its poster has
 * set up its queues. */
struct ibfs_traffic *ibfs__tr_running(void);
int ibfs__tr_post_one(struct ibfs_traffic *t, struct tr_node *n,
		      const struct tr_msg *m, size_t rec);
struct tr_node *ibfs__tr_node_ready(struct ibfs_traffic *t, char **argv);
/* traffic_app_coll.c: announces record rec's "arr" (arrival) or "cmp"
 * (completion) to those that wait for it; a receive with immediate data
 * (a collective's message arrived); node i's collective posters. */
void ibfs__tr_announce(const char *what, size_t rec);
void ibfs__tr_arrived(struct ibfs_traffic *t, const struct ibfs_wc *wc,
		      ibfs_time_ps now);
int ibfs__tr_coll_spawn(struct ibfs_traffic *t, struct ibfs_bridge *b,
			size_t i, struct ibfs_diag *d);

/* Out-of-band record an end publishes for its peer. */
struct tr_endpoint {
	uint32_t qpn;
	uint16_t lid;
	uint32_t rkey;
	uint64_t addr;
};

#endif
