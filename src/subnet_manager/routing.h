/* SPDX-License-Identifier: MIT */
/*
 * Routing engines, as OpenSM's osm_routing_engine: a name, an opaque
 * context and optional callbacks. Return convention of every callback:
 * negative = failure, 0 = done, positive (or a NULL callback) = "use the
 * default" (minhop). The manager runs the chosen engine and falls back to
 * minhop when it fails, as OpenSM does.
 *
 * Each engine lives in route_<name>.c and exports only its setup function;
 * routing.c holds the one table of names. The shared machinery engines
 * build on (shortest-path candidates, balancing, up/down distances) is in
 * route_core.c.
 */
#ifndef IBFS_SM_ROUTING_H
#define IBFS_SM_ROUTING_H

#include "subnet_manager/subnet.h"

/* What the caller configures (OpenSM's option names in brackets). */
struct ibfs_routing_opts {
	const char *lfts_file;     /* file engine input [lfts_file, -U] */
	const char *root_guids;    /* updn/dnup/ftree roots, comma separated
				      GUIDs, NULL = detect [root_guid_file] */
	int no_fallback;           /* do not fall back to minhop */
};

struct ibfs_routing_engine {
	const char *name;
	void *ctx;
	struct ibfs_subnet *sn;
	const struct ibfs_routing_opts *opts;
	/* Hop-count matrices (OpenSM build_lid_matrices). */
	int (*build_lid_matrices)(void *ctx);
	/* Fills the LFTs (OpenSM ucast_build_fwd_tables). */
	int (*ucast_build_fwd_tables)(void *ctx);
	/* An engine that needs SLs writes them itself: sn->dst_sl for one
	 * SL a destination LID, or sn->src_sl (dfsssp, lash) for one a
	 * path, what OpenSM's path_sl answers. */
	void (*destroy)(void *ctx);
};

typedef int (*ibfs_routing_setup_fn)(struct ibfs_routing_engine *re);

struct ibfs_routing_entry {
	const char *name;
	ibfs_routing_setup_fn setup;
	const char *what;        /* one line for --help */
};

/* The engine table, ending with a NULL name. */
extern const struct ibfs_routing_entry ibfs__routing_engines[];
const struct ibfs_routing_entry *ibfs__routing_find(const char *name);
/* The engines' names, ", " between them, into buf (for messages). */
void ibfs__routing_names(char *buf, size_t len);

/*
 * Routes sn (LIDs assigned) with engine `name`. Falls back to minhop if
 * the engine fails unless opts->no_fallback; sn->engine names the engine
 * whose tables are in place. Returns 0, or -1 with d filled (unknown
 * engine, or failure without fallback).
 */
int ibfs__routing_run(struct ibfs_subnet *sn, const char *name,
		      const struct ibfs_routing_opts *opts,
		      struct ibfs_diag *d);

/* The setups (one per route_<name>.c). */
int ibfs__route_minhop_setup(struct ibfs_routing_engine *re);
int ibfs__route_updn_setup(struct ibfs_routing_engine *re);
int ibfs__route_dnup_setup(struct ibfs_routing_engine *re);
int ibfs__route_ftree_setup(struct ibfs_routing_engine *re);
int ibfs__route_dor_setup(struct ibfs_routing_engine *re);
int ibfs__route_dfsssp_setup(struct ibfs_routing_engine *re);
int ibfs__route_lash_setup(struct ibfs_routing_engine *re);
int ibfs__route_file_setup(struct ibfs_routing_engine *re);

/*
 * dfsssp_layers.c: dfsssp's virtual layers for the routes in the LFTs,
 * into sn->src_sl (allocated here), as OpenSM's dfsssp_remove_deadlocks.
 * Returns 0, -2 when the data VLs do not suffice (logged, ERR AD01) or
 * -1 when out of memory.
 */
int ibfs__dfsssp_layers(struct ibfs_subnet *sn);

/* ---- route_core.c: shared by the engines ---- */

#define IBFS_DIST_INF 0x3fffffff

/*
 * A policy for the shortest-path table builder: dist() fills dist[s] for
 * every switch s, the length of the allowed path from s to switch t
 * (IBFS_DIST_INF if none); allowed() says whether s may forward to its
 * neighbour switch v through port p towards t (NULL: always).
 */
struct ibfs_route_policy {
	void *ctx;
	void (*dist)(void *ctx, const struct ibfs_subnet *sn, int t,
		     int *dist);
	int (*allowed)(void *ctx, const struct ibfs_subnet *sn, int t, int s,
		       int p, int v, const int *dist);
	int lowest_port; /* dor: the lowest candidate port, not balanced */
};

/* Plain BFS distances over switch-to-switch links to switch t. */
void ibfs__route_bfs(void *ctx, const struct ibfs_subnet *sn, int t,
		     int *dist);
/*
 * Fills every LFT: for each destination switch t and each LID on t (its
 * own and those of the CAs linked to it), every switch picks among its
 * ports to neighbours one hop closer (and, for CA LIDs, allowed: switch
 * LIDs always take plain shortest paths) the one that carries
 * the fewest CA LIDs so far, preferring, for the 2^LMC LIDs of one port,
 * neighbours not used yet by that port's other LIDs (OpenSM's minhop).
 * Returns 0, or -1 on out of memory.
 */
int ibfs__route_build_tables(struct ibfs_subnet *sn,
			     const struct ibfs_route_policy *pol);
/*
 * Up/down distances: rank[] orders switches (lower rank = nearer the
 * roots; ties broken by GUID). A legal path goes up zero or more times,
 * then down zero or more times, never down then up. Sets a policy using
 * the given context (an ibfs__updn_ctx_new result).
 */
struct ibfs_updn_ctx;
struct ibfs_updn_ctx *ibfs__updn_ctx_new(const struct ibfs_subnet *sn,
					 const int *rank);
void ibfs__updn_ctx_free(struct ibfs_updn_ctx *u);
void ibfs__updn_policy(struct ibfs_updn_ctx *u, struct ibfs_route_policy *p);
/* BFS hop distances between switches from the set `src` (flag array). */
void ibfs__route_multi_bfs(const struct ibfs_subnet *sn, const char *src,
			   int *dist);
/*
 * After a restricted engine (updn, dnup): fails with a log line (code
 * `code`) if some switch has no route to a CA LID it is connected to.
 */
int ibfs__route_check_complete(struct ibfs_subnet *sn, const char *code,
			       const char *engine);
/* Parses "0x1,0x2" into switch flags; -1 with a log line on error. */
int ibfs__route_parse_roots(struct ibfs_subnet *sn, const char *list,
			    char *is_root, const char *code);

#endif
