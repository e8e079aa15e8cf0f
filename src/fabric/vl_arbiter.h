/* SPDX-License-Identifier: MIT */
/*
 * The VL arbiter of a port's transmitter (IBA 7.6.9), shared by switch
 * outputs (src/switch/crossbar.c) and HCA ports (src/hca/tx_sched.c):
 * high- and low-priority tables of (VL, weight) entries and
 * LimitOfHighPriority. The caller says which data VLs have a packet that
 * may go now; the arbiter picks one, and the caller charges it the
 * packet's bytes once sent.
 * VL15 is not arbitrated: it goes first, before any pick.
 */
#ifndef IBFS_FABRIC_VL_ARBITER_H
#define IBFS_FABRIC_VL_ARBITER_H

#include <stdint.h>

/* One entry of a VL arbitration table (IBA 7.6.9): VL and weight. */
struct ibfs_vlarb_entry {
	uint8_t vl;
	uint8_t weight; /* in 64-byte units; 0 skips the entry */
};

/*
 * VL arbitration state of one port: the two tables, the entry each is at
 * and the bytes that entry may still send, and the high-priority bytes
 * sent since a low-priority packet last went. The state (20 bytes) comes
 * first and the low table, which the default arbitration uses, right
 * after it, so that a pick reads one cache line.
 */
struct ibfs_vlarb {
	uint8_t nhigh, nlow;
	uint8_t limit;
	uint8_t hi_at, lo_at;
	/* A weight is at most 255 x 64 bytes, less at most one packet. */
	int32_t hi_left, lo_left;
	/*
	 * Saturates at UINT32_MAX: it is only compared with the limit,
	 * at most 255 x 4096 bytes.
	 */
	uint32_t hi_sent;
	struct ibfs_vlarb_entry low[64], high[64];
};

/*
 * The default arbitration of a port with data_vls data VLs: one
 * low-priority entry of weight 1 per data VL (one packet each in turn),
 * no high-priority entry, limit 255.
 */
void ibfs__vlarb_default(struct ibfs_vlarb *a, int data_vls);
/*
 * 0 if the tables may be programmed (at most 64 entries each, data VLs
 * 0-14 only), else -1.
 */
int ibfs__vlarb_check(const struct ibfs_vlarb_entry *high, int nhigh,
		      const struct ibfs_vlarb_entry *low, int nlow);
/*
 * Programs the tables and LimitOfHighPriority (4 KiB units, 255: no
 * bound) and restarts both tables at their first entry. Returns 0, or -1
 * (ibfs__vlarb_check) with a unchanged.
 */
int ibfs__vlarb_set(struct ibfs_vlarb *a, const struct ibfs_vlarb_entry *high,
		    int nhigh, const struct ibfs_vlarb_entry *low, int nlow,
		    uint8_t limit_high);
/*
 * Picks the data VL to send next among `ready` (bit v: VL v has a packet
 * that may go now). Returns the VL, with *high set when it came from the
 * high-priority table, or -1 when the tables allow none of them.
 */
int ibfs__vlarb_pick(struct ibfs_vlarb *a, uint32_t ready, int *high);
/* Charges `bytes` sent on the VL picked to the entry that picked it. */
void ibfs__vlarb_charge(struct ibfs_vlarb *a, int high, uint32_t bytes);
/* 1 if an entry of either table gives `vl` a weight. */
int ibfs__vlarb_serves(const struct ibfs_vlarb *a, int vl);

#endif
