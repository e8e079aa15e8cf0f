/* SPDX-License-Identifier: MIT */
/*
 * A scenario's traffic as application programs: explicit messages and
 * seeded patterns are expanded into a plan, and each HCA runs two SimGrid
 * actors written against the public verbs API exactly as a user's program
 * would be: one sets up queue pairs (exchanging QP numbers, LIDs and rkeys
 * out of band) and posts each message at its start time, the other waits
 * for completions and timestamps them.
 */
#ifndef IBFS_SCENARIO_TRAFFIC_H
#define IBFS_SCENARIO_TRAFFIC_H

#include "bridge/bridge.h"
#include "scenario/results.h"
#include "scenario/scenario.h"

struct ibfs_traffic;

/* Expands sc's messages and patterns with `seed`; NULL with d on error. */
struct ibfs_traffic *ibfs__traffic_plan(const struct ibfs_scenario *sc,
					uint64_t seed, struct ibfs_diag *d);
/* Number of messages (each <message count=N> counts N). */
size_t ibfs__traffic_messages(const struct ibfs_traffic *t);
/*
 * Spawns the actors of every HCA that sends or receives; message start
 * times count from `base` (when the fabric came up).
 */
int ibfs__traffic_spawn(struct ibfs_traffic *t, struct ibfs_bridge *b,
			int data, ibfs_time_t base, struct ibfs_diag *d);
/* Appends one record per message to r (after the run). */
int ibfs__traffic_collect(const struct ibfs_traffic *t,
			  struct ibfs_results *r);
void ibfs__traffic_free(struct ibfs_traffic *t);
/*
 * The UD QP of `node`'s application for `group`, which joins it at run
 * time (<multicast-join state="full">): NULL before the application has
 * made it, or for another node. mcast_joins.c attaches and detaches it.
 */
struct ibfs_qp *ibfs__traffic_mc_qp(const struct ibfs_traffic *t, int group,
				    int node);
/* After the run: the copies those QPs received, into the deliveries. */
int ibfs__traffic_mc_drain(struct ibfs_traffic *t);
/* The Q_Key of the scenario's UD QPs, multicast groups' included. */
#define IBFS_TRAFFIC_QKEY 0x11111111u
/* Reports each work request and completion to a timeline (may be NULL). */
struct ibfs_trace;
/* Whether an HCA's program failed to set up its queues (the run failed). */
int ibfs__traffic_setup_failed(const struct ibfs_traffic *t);
/* The most actors the traffic starts on one HCA (at least 3): a poster,
 * a completer and a collective poster for each stream it posts in. */
size_t ibfs__traffic_host_actors(const struct ibfs_traffic *t);
void ibfs__traffic_set_trace(struct ibfs_traffic *t, struct ibfs_trace *tr);
/*
 * Where connections without an sl="" get their SL: the path SL the
 * subnet manager gives (an SA PathRecord answer), e.g. dfsssp's layer.
 */
void ibfs__traffic_set_path_sl(struct ibfs_traffic *t,
			       uint8_t (*fn)(void *ctx, uint16_t slid,
					     uint16_t dlid),
			       void *ctx);

/*
 * --model tcp (traffic_tcp.c): the plan's messages as writes on kernel TCP
 * connections between the hosts of src/host, posted from the fabric's
 * event queue at their planned times (no application actors). new: the
 * driver, whose app ops the hosts are made with (tcp_app); start: with
 * the hosts on the fabric, every connection opened at time 0 and every
 * post scheduled. A message completes when its receiver's application
 * has read its last byte.
 */
struct ibfs_tcp_traffic;
struct ibfs_tcp_app_ops;
struct ibfs_fabric;
struct ibfs_tcp_traffic *ibfs__tcp_traffic_new(struct ibfs_traffic *t);
extern const struct ibfs_tcp_app_ops ibfs__tcp_traffic_app;
int ibfs__tcp_traffic_start(struct ibfs_tcp_traffic *tt,
			    struct ibfs_fabric *f, struct ibfs_diag *d);
void ibfs__tcp_traffic_free(struct ibfs_tcp_traffic *tt);
/* What refuses a scenario under tcp (collectives, multicast), or NULL;
 * *line is the first such element's. */
const char *ibfs__tcp_traffic_refuse(const struct ibfs_scenario *sc,
				     long *line);

#endif
