/* SPDX-License-Identifier: MIT */
/*
 * The results of a run (docs/results.md): per-message records, flows,
 * links, packets and the deadlock verdict, with writers for the text
 * summary (stdout), JSON (--json) and CSV tables (--csv DIR).
 * results_int.h has what the files behind them share.
 */
#ifndef IBFS_SCENARIO_RESULTS_H
#define IBFS_SCENARIO_RESULTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fabric/fabric.h"
#include "fabric/time.h"
#include "scenario/scenario.h"
#include "subnet_manager/sm.h"

/* One message: posted at `post`, completed at the requester at `done`. */
struct ibfs_msg_record {
	int src, dst;
	enum ibfs_sc_op op;
	uint64_t bytes;
	ibfs_time_t post, done;
	ibfs_time_t arrived; /* a collective's: when its receiver saw it
			      * complete (0: not seen, or not one) */
	int status;          /* 0 success, > 0 the failed completion's
			      * status, < 0 never completed */
};

/* A collective's outcome (its messages are among the records). */
struct ibfs_coll_result {
	enum ibfs_sc_coll_kind kind;
	enum ibfs_sc_coll_algo algo; /* the one it ran */
	uint32_t members;
	uint64_t size;
	uint32_t count;
	ibfs_time_t start;    /* its first post */
	ibfs_time_t end;      /* its last arrival or completion */
	uint64_t msgs, failed, unfinished;
};

/* A multicast send: one UD SEND to a group (its index in sc->groups). */
struct ibfs_mc_send_rec {
	int group, src;
	uint64_t bytes;
	ibfs_time_t post, done; /* done: completion at the sender */
	int status;             /* as a message's */
};

/* A copy of send `send` (its index among the sends) at member `node`. */
struct ibfs_mc_delivery {
	int group, node;
	size_t send;
	ibfs_time_t at;         /* its receive completion */
	int status;
};

/*
 * A <multicast-join> or <multicast-leave> as it went (mcast_joins.c):
 * absolute times, 0 when it never happened. `processed`: the SA took it
 * (the SM's observer heard it); `resp`: its response arrived at the HCA;
 * `mft`: every MFT block the SM sent for the changes so far was
 * acknowledged.
 */
struct ibfs_mc_join_rec {
	int group, node, port, leave;
	uint8_t state;          /* JoinState bits asked for (or left) */
	int answered;
	uint16_t status, mlid;  /* the response's */
	ibfs_time_t at;         /* when asked (absolute) */
	ibfs_time_t processed, resp, mft;
};

/*
 * A flow of a <pattern kind="flows"> (results_flows.c): its message
 * record (msgs[msg]: src, dst, bytes, completion), its arrival in
 * scenario time (from when the fabric was up) and its pattern's index.
 */
struct ibfs_fct_flow {
	size_t msg;
	ibfs_time_t arrival;
	uint32_t pattern;
};

struct ibfs_results {
	const struct ibfs_scenario *sc;
	const struct ibfs_fabric *fab;
	uint64_t seed;
	const char *routing;  /* the engine that built the tables */
	/* Why not the engine the scenario asked for, or NULL (it did). */
	const char *routing_fallback;
	int sm_inband;        /* the in-band SM ran: sm holds its figures */
	struct ibfs_sm_stats sm;
	ibfs_time_t sm_first_sweep; /* the sweep that brought the fabric up */
	ibfs_time_t sm_reroute;     /* first fault -> re-sweep done, or 0 */
	uint64_t sm_first_smps;     /* SMPs of that first sweep */
	uint64_t sm_first_lft_blocks; /* its LinearForwardingTable blocks */
	uint64_t sm_first_pkey_blocks; /* its P_KeyTable blocks */
	/*
	 * After faults: per HCA (by topology node), how long after the first
	 * fault the last switch got its new route to it; 0 when its routes
	 * did not change.
	 */
	ibfs_time_t *no_route;      /* [nnodes] or NULL */
	ibfs_time_t sim_time;
	double wall_s;
	uint64_t events;
	struct ibfs_msg_record *msgs;
	size_t nmsgs, msgs_cap;
	struct ibfs_coll_result *colls;
	size_t ncolls;
	int deadlock;
	char deadlock_cycle[1024];
	/* Under roce: the InfiniBand-only settings the run left aside. */
	char eth_ignored[128];
	/* Under tcp: the hosts' connections' counters summed (segments
	 * sent again, retransmission timeouts, fast retransmits). */
	int tcp;
	uint64_t tcp_retransmits, tcp_timeouts, tcp_fast_retransmits;
	/* Packets and credits conserved at the end (ibfs__fabric_check). */
	int conserved;
	char conservation[512];  /* what does not balance, when not */
	/* Multicast sends and deliveries (results_mcast.c). */
	struct ibfs_mc_send_rec *mc_sends;
	size_t nmc_sends;
	struct ibfs_mc_delivery *mc_dels;
	size_t nmc_dels;
	/* Joins and leaves at run time, in the scenario's order, and the
	 * time scenario times count from. */
	struct ibfs_mc_join_rec *mc_joins;
	size_t nmc_joins;
	ibfs_time_t base;
	/* kind="flows" patterns' flows, or NULL. */
	struct ibfs_fct_flow *fct;
	size_t nfct;
	/* --sample (sampler.h): the interval (0: no samples), the samples
	 * written, the directory of their CSV files (NULL: none) and 1 when
	 * they went to the timeline too. */
	ibfs_time_t sample_interval;
	uint64_t samples;
	const char *sample_dir;
	int sample_trace;
	/* Frees what the run kept alive for the results (fabric, devices). */
	void (*cleanup)(void *arg);
	void *cleanup_arg;
};

/* Appends a record; returns 0 or -1 when memory is exhausted. */
int ibfs__results_add(struct ibfs_results *r, const struct ibfs_msg_record *m);
void ibfs__results_free(struct ibfs_results *r);

/* Collectives (results_collective.c): append one; 0 or -1 (no memory). */
int ibfs__results_add_coll(struct ibfs_results *r,
			   const struct ibfs_coll_result *c);

/* The text summary (results_text.c). */
void ibfs__results_print(const struct ibfs_results *r, FILE *out);
/*
 * The JSON (results_json.c) and the CSV tables (results_csv.c); 0 or -1
 * with errno. Files are written whole.
 */
int ibfs__results_write_json(const struct ibfs_results *r, const char *path);
int ibfs__results_write_csv(const struct ibfs_results *r, const char *dir);

#endif
