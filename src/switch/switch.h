/* SPDX-License-Identifier: MIT */
/*
 * An InfiniBand switch (IBA chapter 18): input buffers per port and VL, a
 * crossbar with a fair arbiter per output, VL arbitration, SL-to-VL tables,
 * linear and multicast forwarding tables, virtual cut-through (or
 * store-and-forward) timing, PortCounters, and a deadlock monitor.
 *
 * This is the interface for the assembly code and the subnet manager; the
 * switch attaches itself to its fabric node as a struct ibfs_device.
 */
#ifndef IBFS_SWITCH_SWITCH_H
#define IBFS_SWITCH_SWITCH_H

#include <stdint.h>

#include "fabric/diag.h"
#include "fabric/fabric.h"
#include "fabric/vl_arbiter.h"

struct ibfs_switch;

/* Port number in an LFT entry meaning "no route" (IBA 18.2.4.3.2). */
#define IBFS_LFT_NONE 255
/* IBFS_MCAST_LID_BASE and IBFS_PERMISSIVE_LID: fabric/packet.h. */

/*
 * Creates the switch of fabric node `node` (a switch in the topology) and
 * attaches it. Its routing latency and store-and-forward option come from
 * the topology node. Returns NULL with a sentence in d on bad input.
 */
struct ibfs_switch *ibfs__switch_create(struct ibfs_fabric *f, int node,
					struct ibfs_diag *d);
void ibfs__switch_destroy(struct ibfs_switch *sw);

/* Port 0's LID and LMC: DLIDs lid..lid+2^lmc-1 are the switch itself. */
void ibfs__switch_set_lid(struct ibfs_switch *sw, uint16_t lid);
void ibfs__switch_set_lmc(struct ibfs_switch *sw, uint8_t lmc);
uint16_t ibfs__switch_get_lid(const struct ibfs_switch *sw);
void ibfs__switch_set_latency(struct ibfs_switch *sw, ibfs_time_t latency);
void ibfs__switch_set_store_forward(struct ibfs_switch *sw, int on);
/*
 * For tests: on 0, every arbitration takes the crossbar's general path,
 * not the straight one of its common case (one data VL, at most 63
 * ports); the run must be the same either way. On by default.
 */
void ibfs__switch_set_xbar_fast(struct ibfs_switch *sw, int on);

/*
 * Linear forwarding table (IBA 18.2.4.3.2): one output port per unicast
 * LID; with LMC each of an end port's 2^LMC LIDs has its own entry.
 * Returns 0, or -1 for a LID outside 1..0xBFFF or a port outside
 * 0..nports (IBFS_LFT_NONE clears an entry).
 */
int ibfs__switch_set_lft(struct ibfs_switch *sw, uint16_t lid, uint8_t port);
/* LFT block `block` holds LIDs 64 * block .. 64 * block + 63 (SMP LFT). */
int ibfs__switch_set_lft_block(struct ibfs_switch *sw, unsigned block,
			       const uint8_t ports[64]);
/*
 * Loads linear forwarding tables from a file in OpenSM's opensm-lfts.dump
 * format (lft_file.c) into the switches of f, found by GUID or name.
 * Returns 0, or -1 with "FILE:LINE: what is wrong" in d.
 */
int ibfs__switch_load_lfts(struct ibfs_fabric *f, const char *path,
			   struct ibfs_diag *d);
/* The port for `lid`, or IBFS_LFT_NONE. */
uint8_t ibfs__switch_get_lft(const struct ibfs_switch *sw, uint16_t lid);
/*
 * Multicast forwarding table (IBA 18.2.4.3.3): the ports a packet to
 * `mlid` (0xC000-0xFFFE) is replicated to, never back out of the port it
 * came in on. n == 0 clears the entry. Returns 0 or -1.
 */
int ibfs__switch_set_mft(struct ibfs_switch *sw, uint16_t mlid,
			 const uint8_t *ports, int n);
/*
 * The same table 16 ports at a time, as the MulticastForwardingTable SMP
 * carries it (IBA 14.2.5.12): bit i of `bits` is port 16 * pos + i. Set
 * returns 0, or -1 for an MLID out of range or a port the switch lacks;
 * get returns 0 for an entry never written.
 */
int ibfs__switch_set_mft16(struct ibfs_switch *sw, uint16_t mlid, int pos,
			   uint16_t bits);
uint16_t ibfs__switch_get_mft16(const struct ibfs_switch *sw, uint16_t mlid,
				int pos);

/*
 * SL-to-VL mapping table of (in, out) (IBA 7.6.6): vls[sl] for each SL.
 * in or out = -1 sets every input or output. Default: VL = SL mod data
 * VLs. Returns 0, or -1 for a port or a VL out of range.
 */
int ibfs__switch_set_sl2vl(struct ibfs_switch *sw, int in, int out,
			   const uint8_t vls[16]);

/*
 * VL arbitration of output `out` (-1: every output): high- and
 * low-priority tables of up to 64 entries each and LimitOfHighPriority
 * (in 4 KiB units; 255 = unlimited). Returns 0 or -1.
 */
int ibfs__switch_set_vlarb(struct ibfs_switch *sw, int out,
			   const struct ibfs_vlarb_entry *high, int nhigh,
			   const struct ibfs_vlarb_entry *low, int nlow,
			   uint8_t limit_high);

/*
 * PortCounters of a port (IBA 16.1.3.5), xmit_wait including a wait in
 * progress. Returns 0 or -1 for a port out of range.
 */
int ibfs__switch_counters(const struct ibfs_switch *sw, int port,
			  struct ibfs_port_counters *c);
/* Packets discarded for want of a route (PortRcvSwitchRelayErrors). */
uint64_t ibfs__switch_relay_errors(const struct ibfs_switch *sw);
/*
 * P_Key table entries of a switch port (the management port 0 and each
 * external port): SwitchInfo PartitionEnforcementCap (IBA 14.2.5.4).
 */
#define IBFS_SWITCH_PKEYS 32
/*
 * Partition enforcement of port `port` (1..n): IBFS_PKEY_ENF_IN and _OUT
 * (fabric/pkey.h) as PortInfo's bits (IBA 14.2.5.6). An enforcing port
 * drops a data packet whose P_Key is in no partition of its P_KeyTable,
 * received (PortRcvConstraintErrors) or to be sent (PortXmitConstraint
 * Errors), IBA 10.9.4, 16.1.3.5. Returns 0, or -1 for a bad port.
 */
int ibfs__switch_set_pkey_enf(struct ibfs_switch *sw, int port, int flags);
/*
 * Writes entries first..first + n - 1 of port `port`'s P_Key table (0..n;
 * how a switch's table is written, so that it knows which partitions its
 * enforcing ports hold). Returns 0, or -1 beyond the table (nothing
 * written) or out of memory.
 */
int ibfs__switch_set_pkeys(struct ibfs_switch *sw, int port, unsigned first,
			   const uint16_t *pkeys, unsigned n);
/* Packets held in the input buffers now. */
uint64_t ibfs__switch_buffered(const struct ibfs_switch *sw);
struct ibfs_device *ibfs__switch_device(struct ibfs_switch *sw);
/* The switch attached to a device, or NULL if it is not a switch. */
struct ibfs_switch *ibfs__switch_of(struct ibfs_device *dev);

/*
 * Packets addressed to the switch itself (its LIDs) are handed to this
 * hook once their tail has arrived (the subnet management agent of port 0
 * lives above this layer). The hook owns the packet and frees it. Without
 * a hook such packets are dropped.
 */
typedef void (*ibfs_switch_local_fn)(void *ctx, struct ibfs_switch *sw,
				     struct ibfs_packet *p);
void ibfs__switch_set_local(struct ibfs_switch *sw, ibfs_switch_local_fn fn,
			    void *ctx);

/*
 * Congestion control (IBA 1.2.1 Annex A10), as a SwitchCongestionSetting
 * (A10.4.3.3) programs it: cc_mark.c. Fields not valid in control_map
 * keep the switch's defaults (0: no marking).
 */
struct ibfs_sw_cc {
	uint8_t control_map;      /* bit 0 victim, 1 credit, 2 threshold and
				   * packet size, 3 CS, 4 marking rate */
	uint64_t victim_mask[4];  /* bit p: port p marks as a victim too */
	uint64_t credit_mask[4];  /* credit starvation: not modelled */
	uint8_t threshold;        /* 0 none, 1 loose .. 15 aggressive */
	uint8_t packet_size;      /* 64-byte credits: smaller, never marked */
	uint8_t cs_threshold;     /* credit starvation: not modelled */
	uint16_t cs_return_delay; /* shift:multiplier, not modelled */
	uint16_t marking_rate;    /* eligible packets left unmarked between
				   * two marks */
};

/*
 * Turns congestion marking on with the valid fields of cc, or off (NULL).
 * Without it the switch pays nothing for CC: a CC switch receives and
 * ends packets through its own device operations (cc_mark.c). Returns 0,
 * or -1 out of memory.
 */
int ibfs__switch_set_cc(struct ibfs_switch *sw, const struct ibfs_sw_cc *cc);
/* Packets the switch marked with FECN when leaving `port` (0: none). */
uint64_t ibfs__switch_fecn_marks(const struct ibfs_switch *sw, int port);
/*
 * The output queue of (port, vl) in 64-byte blocks: what waits in the
 * switch for that output VL (A10.2.1.1). 0 without CC.
 */
uint32_t ibfs__switch_cc_queue(const struct ibfs_switch *sw, int port,
			       int vl);

/* Deadlock detection (deadlock.c). */
struct ibfs_deadlock_elem {
	int node; /* switch node index */
	int port; /* input port whose buffer is stuck */
	int vl;   /* VL of that buffer */
};

struct ibfs_deadlock {
	int deadlock;    /* 1 once the monitor stopped the run */
	ibfs_time_t at;  /* when it decided */
	int ncycle;      /* 0: stuck without a cycle (e.g. no credits ever) */
	struct ibfs_deadlock_elem cycle[64];
	uint64_t stuck;  /* packets buffered when it decided */
};

struct ibfs_deadlock_monitor;

/*
 * Watches the fabric: if packets sit in switch input buffers and no packet
 * has started on any link for `timeout`, the monitor stops the run
 * (ibfs__fabric_stop) and records the verdict with the cycle of (switch,
 * input port, VL) buffers whose head packets wait for each other's
 * credits. Checks happen every `timeout`, so a stall is found between
 * one and two timeouts after the last packet moved.
 */
struct ibfs_deadlock_monitor *ibfs__deadlock_monitor_new(struct ibfs_fabric *f,
							 ibfs_time_t timeout);
void ibfs__deadlock_monitor_free(struct ibfs_deadlock_monitor *m);
const struct ibfs_deadlock *
ibfs__deadlock_verdict(const struct ibfs_deadlock_monitor *m);
/* Formats the cycle as "leaf1:3/VL0 -> leaf2:5/VL0 -> ..."; returns buf. */
char *ibfs__deadlock_format(const struct ibfs_fabric *f,
			    const struct ibfs_deadlock *v, char *buf,
			    size_t len);

#endif
