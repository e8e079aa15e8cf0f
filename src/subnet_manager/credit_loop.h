/* SPDX-License-Identifier: MIT */
/*
 * Credit-loop (deadlock) analysis. A channel is one direction of a
 * switch-to-switch link on one VL; a packet holding channel (s, p) and
 * waiting for (v, q) makes a dependency (s, p) -> (v, q). With credit-based
 * flow control a cycle of dependencies can deadlock (Dally and Seitz, "
 * Deadlock-free message routing in multiprocessor interconnection
 * networks", 1987); no cycle on any VL means deadlock-free routing.
 * Dependencies are read off the LFTs: for every destination LID, switch s
 * forwards through p to v, and v through q. Channels towards CAs end every
 * path and cannot be in a cycle, so they are left out. The verdict counts
 * the routes to CA LIDs only: traffic to a switch LID is subnet management
 * on VL15, which has no link-level flow control (IBA vol. 1, 3.5.7 and
 * chapter 7, the link layer), so it cannot hold credits in a loop. With
 * one SL per destination (dst_sl) a LID's whole routing tree is on one
 * VL; with one SL per path (src_sl) each path from a switch with CAs is
 * on the VL of its own SL.
 */
#ifndef IBFS_SM_CREDIT_LOOP_H
#define IBFS_SM_CREDIT_LOOP_H

#include <stddef.h>
#include <stdint.h>

#include "subnet_manager/subnet.h"

struct ibfs_cdg;

/* A dependency graph on the channels of sn (one VL), empty. */
struct ibfs_cdg *ibfs__cdg_new(const struct ibfs_subnet *sn);
void ibfs__cdg_free(struct ibfs_cdg *g);
/*
 * Adds the dependencies of the routes to `lid`. The bit numbers of edges
 * that were not there before go to added[] (room for nsw entries) so that
 * ibfs__cdg_remove can take them back. Returns how many were added.
 */
int ibfs__cdg_add_lid(struct ibfs_cdg *g, unsigned lid, uint32_t *added);
void ibfs__cdg_remove(struct ibfs_cdg *g, const uint32_t *added, int n);
/*
 * The next hop of the route from switch s to lid when it makes a
 * dependency (s forwards to switch v, which forwards to another switch):
 * returns v with the edge's bit number in *bit, or -1 when the route ends
 * there (at a CA, a switch LID or a missing entry).
 */
int ibfs__cdg_next(const struct ibfs_cdg *g, int s, unsigned lid,
		   uint32_t *bit);
/*
 * Adds the dependencies of the one route from switch s to lid. The walk
 * marks switches in seen[] (nsw entries) with stamp and stops at one
 * already marked, whose onward edges are in: give every route to one LID
 * the same stamp and each edge is set once. Loops in the LFTs end too.
 */
void ibfs__cdg_add_path(struct ibfs_cdg *g, int s, unsigned lid,
			uint32_t *seen, uint32_t stamp);
/* Edge bits, for callers that keep a figure per edge: their number,
 * setting (on != 0) or clearing one, and whether one is set. */
uint32_t ibfs__cdg_nbits(const struct ibfs_cdg *g);
void ibfs__cdg_set(struct ibfs_cdg *g, uint32_t bit, int on);
int ibfs__cdg_test(const struct ibfs_cdg *g, uint32_t bit);
/* The number of channels: a cycle is never longer. */
int ibfs__cdg_nchan(const struct ibfs_cdg *g);
/* The bit of the edge from channel (s, p) to its far end's port q, or -1. */
int64_t ibfs__cdg_edge(const struct ibfs_cdg *g, int s, int p, int q);
/*
 * Looks for a cycle. Returns its length (<= max; the switch index and
 * egress port of each channel in sw[], port[]), 0 if there is none, -1 on
 * out of memory.
 */
int ibfs__cdg_find_cycle(struct ibfs_cdg *g, int *sw, int *port, int max);
/*
 * After ibfs__cdg_find_cycle found a cycle and edges were only removed
 * since: looks for the next cycle, keeping what the earlier searches
 * proved (a channel all of whose successors were searched stays done;
 * removing edges cannot make a cycle through it). Cutting every cycle of
 * a graph this way costs one search over it plus the parts searched again
 * after each cut, as OpenSM's dfsssp resumes its search.
 */
int ibfs__cdg_find_cycle_resume(struct ibfs_cdg *g, int *sw, int *port,
				int max);
/*
 * The same, searching only from the far ends of the edges just added
 * (bits from ibfs__cdg_add_lid): when the graph had no cycle before, any
 * new one goes through a new edge and lies within what its far end
 * reaches. Much cheaper than a whole search when adding routes one LID at
 * a time.
 */
int ibfs__cdg_find_cycle_added(struct ibfs_cdg *g, const uint32_t *added,
			       int n, int *sw, int *port, int max);

/*
 * The verdict for a routed subnet: builds one graph per VL from the LFTs,
 * the SLs (src_sl if set, else dst_sl) and sl2vl. Writes "deadlock-free
 * ..." or "credit loop on VL v: a:p -> b:q -> ... -> a:p" into buf.
 * Returns 0 (deadlock-free), 1 (loop) or -1 (out of memory).
 */
int ibfs__credit_loops(const struct ibfs_subnet *sn, char *buf, size_t len);

#endif
