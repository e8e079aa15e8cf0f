/* SPDX-License-Identifier: MIT */
/*
 * Internals shared by the files of src/switch: the switch structure, its
 * input queues and output state, and the functions each file provides to
 * the others. Not for use outside src/switch.
 */
#ifndef IBFS_SWITCH_SWITCH_INT_H
#define IBFS_SWITCH_SWITCH_INT_H

#include "switch/switch.h"

/*
 * A FIFO of packets linked through p->next: one per input port and VL.
 * What the arbiter reads of the head packet is copied here when the head
 * changes (xb_head_set, crossbar.c), so that scanning requests and
 * freeing an input touch this entry, not the packet, whose line misses
 * the caches at scale (thousands of HCAs). An entry is 32 bytes and an
 * input's entries are contiguous at a power-of-two stride (sw->q,
 * indexed by request bit): with one data VL and VL15 both fit one
 * 64-byte line, which also holds the tail, so that an enqueue and a
 * grant touch no other line of the switch's queues.
 *
 * The head's ready_at is not copied: a head whose routing decision is
 * still to come (only when the latency changed while its header was on
 * the way) waits for xb_ready_ev with h_tail_at at IBFS_TIME_NEVER,
 * which no tail time is, and is then read from the packet; every other
 * head is ready.
 *
 * The copies are made at the grant (xb_send_then_head); made when the
 * input is freed instead, they only move the wait for the head's line.
 */
struct sw_queue {
	struct ibfs_packet *head;
	struct ibfs_packet *tail; /* NULL while the FIFO is empty */
	ibfs_time_t h_tail_at;  /* head's tail_at, NEVER while not ready */
	uint32_t h_wire;        /* head's wire_bytes */
	uint16_t h_blocks;      /* head's credit blocks */
	uint8_t h_out;          /* head's output port */
	uint8_t h_vl;           /* head's output VL (p->vl) */
};

/* struct ibfs_switch's pkey_enf. */
enum { SW_PKEY_ON = 1, SW_PKEY_DFLT = 2 };

/* Request words kept inside struct sw_out when nslots x nw fit. */
#define SW_REQ_INLINE 4

/*
 * One output of the crossbar. What a request, a scan and a grant touch
 * shares the first 64-byte line (outputs are 64-byte aligned, switch.c):
 * the request words themselves when they fit (a 36-port switch with one
 * data VL and VL15 needs 2 slots x 2 words), the header, and the
 * per-slot counters of the first two slots. The re-arbitration time
 * (only when an output is faster than an input) and the VL arbiter,
 * which one data VL does not need (crossbar.c), come after.
 */
struct sw_out {
	/*
	 * Request words [nslots][nw], bit (in << sshift) + slot: req_in, or
	 * out[i]'s part of one allocation for every output (out[0].req).
	 */
	_Alignas(64) uint64_t *req;
	uint64_t req_in[SW_REQ_INLINE];
	struct ibfs_packet *cur_orig; /* multicast original, else NULL */
	/* Requests set, all slots: at most 256 x 16, 16 bits suffice. */
	uint16_t nreq;
	/* The packet on the wire: where its input buffer space is. */
	uint16_t cur_blocks;
	uint8_t cur;         /* 1 while a packet is being sent */
	uint8_t cur_in_vl;   /* its input is sw->cur_in[o] */
	uint8_t flushing : 1; /* port_state.c is emptying this down output */
	/*
	 * Set when the switch has one data VL and this output's VL
	 * arbitration tables give VL 0 an entry with weight: the arbiter
	 * then always picks VL 0 when it is ready, whatever entry the
	 * tables are at (IBA 7.6.9: the entries only share the link among
	 * data VLs; VL15 is not arbitrated), so its state is neither read
	 * nor charged (vlarb.c; ibfs__switch_set_vlarb resets it).
	 * Kept in this line, which an arbitration reads anyway.
	 */
	uint8_t one : 1;
	/*
	 * Set with `one` when the switch's request words fit inside every
	 * output (nw <= 2: at most 63 ports) and the fast path is not
	 * turned off (ibfs__switch_set_xbar_fast, for tests): the
	 * arbitration then takes xb_arbitrate_one (crossbar.c), written
	 * for that layout. Kept by ibfs__sw_vlarb_one_update.
	 */
	uint8_t fast : 1;
	/*
	 * The packet on the wire is a multicast copy started at once by
	 * ibfs__sw_mc_start: it does not hold its input (mc_start.c).
	 */
	uint8_t mc_free : 1;
	struct {
		/* Request bits number at most 256 x 16: 16 bits suffice. */
		uint16_t rr;   /* round-robin start bit */
		uint16_t nreq; /* requests set for this output VL slot */
	} slot[IBFS_MAX_VLS];
	ibfs_time_t wake_at; /* pending re-arbitration, or NEVER */
	struct ibfs_vlarb arb;
};

/* in_free words kept inside the switch when nw fits. */
#define SW_FREE_INLINE 2

/*
 * The switch. What a packet's routing and an arbitration read shares its
 * first four 64-byte lines (the structure is 64-byte aligned, switch.c):
 * the device, the array pointers and the count of packets queued, then
 * the forwarding state, geometry and free-input mask, then the SL-to-VL
 * copy and the go bits, then the outputs' link state; the fields that
 * set-up, multicast and reports use fill the gaps, and the ends ring and
 * the inputs of the outputs come after. The whole stays 768 bytes, so
 * that the heap layout after the switches, to which a large run's cache
 * misses are sensitive, does not move: hence the fabric is not kept
 * twice (dev.fab), nor the external request words (the first output's),
 * nor the MFT's words a mask (ibfs__sw_pw), and the counts are bytes.
 */
struct ibfs_switch {
	_Alignas(64) struct ibfs_device dev; /* dev.fab: the fabric */
	uint16_t lid;
	uint8_t lmc;
	/* 1: every arbitration takes the general path (tests). */
	uint8_t xbar_general;
	uint32_t mft_len;
	/*
	 * Input FIFOs by request bit, (in << sshift) + slot: [(n + 1) <<
	 * sshift], 64-byte aligned.
	 */
	struct sw_queue *q;
	uint64_t buffered;   /* packets in the FIFOs */
	struct sw_out *out;  /* [n + 1] */

	uint8_t *lft;        /* [lft_len] by LID */
	uint32_t lft_len;
	int n;               /* ports 1..n; 0 is the management port */
	uint8_t data_vls;
	uint8_t nslots;      /* data VLs + VL15 */
	/*
	 * Request bits of input `in` start at in << sshift (2^sshift >=
	 * nslots, at most 16): an input's bits never straddle two words and
	 * a bit splits into (input, slot) without a division. The order of
	 * bits, which the round robin follows, is that of (input, slot).
	 */
	uint8_t sshift;
	uint8_t store_forward;
	/*
	 * While every (input, output) pair has the same table (the default,
	 * or one set for all pairs), lookups read sl2vl_one instead: the
	 * full tables, (n + 1)^2 x 16 bytes a switch (35 MB for 1,620
	 * 36-port switches), miss the caches on every packet.
	 */
	uint8_t sl2vl_uniform;
	/*
	 * The largest port an LFT entry may name: n, but never
	 * IBFS_LFT_NONE; a route is good when 1 <= port <= route_max and
	 * it is not the input, which one unsigned compare and one equality
	 * test tell.
	 */
	uint8_t route_max;
	uint16_t in_bits;    /* one input's bits of in_free: nslots ones */
	/*
	 * A DLID is one of the switch's own LIDs (lid, lmc) when
	 * (dlid & lid_mask) == lid_local; both 0xFFFF while it has no LID,
	 * so that only the permissive LID matches (sw_lid_update).
	 */
	uint16_t lid_mask, lid_local;
	/* The ends ring's read and write positions (ends[], below). */
	uint8_t ends_out, ends_in;
	uint8_t nw;          /* 64-bit words of one request bitset (<= 64) */
	/*
	 * SW_PKEY_ON while some port enforces partitions (IBA 10.9.4,
	 * PortInfo PartitionEnforcementInbound/Outbound): lid_mask and
	 * lid_local are then 0, so that sw_receive's first test, which every
	 * packet makes anyway, sends every arrival to the enforcing path
	 * (switch.c). A switch that enforces nothing pays not one
	 * instruction for it. SW_PKEY_DFLT with it while every enforcing
	 * port's table holds the default partition.
	 */
	uint8_t pkey_enf;
	uint64_t relay_errors;
	uint64_t free_in[SW_FREE_INLINE];
	/*
	 * Request-bit layout mask of the inputs not busy: bits
	 * (in << sshift) + slot for every slot set while input `in` is free
	 * (feeds no output), so an arbiter skips busy inputs a word at a
	 * time. [nw]: free_in, or an allocation when nw > SW_FREE_INLINE.
	 */
	uint64_t *in_free;

	uint8_t sl2vl_one[16];
	ibfs_time_t latency;
	/*
	 * [n + 1] by input port: the last DLID routed from that input and
	 * its LFT entry, (1 << 24) | dlid << 8 | port, 0 when none; cleared
	 * whenever the LFT changes (forwarding.c). A flow's packets then
	 * skip the LFT's line, which misses the caches at scale (13 KB a
	 * switch at 11,664 HCAs). Used only for an LFT longer than
	 * SW_LFT_DIRECT entries (ibfs__sw_route).
	 */
	uint32_t *lft_hint;
	/*
	 * Bit o of go[o / 64] set while output o has requests (nreq > 0)
	 * and feeds no packet (!cur): only then has an arbitration anything
	 * to do (an output without requests is not waiting for credits
	 * either: PortXmitWait starts only with requests and stops whenever
	 * they end, crossbar.c and port_state.c). The many arbitrations
	 * asked for a busy output or one without requests return on this
	 * bit without reading out[o] and its port, lines that miss the
	 * caches at scale (ports are numbered up to 255). One mask, kept
	 * where nreq and cur change, so that the test is one bit; a request
	 * and a packet's end OR in a computed bit instead of testing
	 * (crossbar.c), which relies on this rule (check_switch_paths
	 * checks it).
	 */
	uint64_t go[4];         /* outputs 0-63 in the third line */

	/*
	 * Bit o of out_ok[o / 64] set while a route may send to port o: 1
	 * <= o <= route_max and o's link is up (port->up). The switch's own
	 * copy, kept by its port_state hook (switch.c), which the fabric
	 * calls whenever `up` changes (ibfs__fabric_attach,
	 * ibfs__fabric_link_set), so that a packet's arrival tests one bit
	 * of this line instead of reading the output port's line 0, which
	 * at saturation has mostly left the caches and which nothing else
	 * in the arrival reads. check_switch_tables' down_output_on_arrival
	 * and link_flaps_mid_run fail when the copy is out of step.
	 */
	uint64_t out_ok[4];     /* line 3 */
	/* [mft_len][ibfs__sw_pw words] by MLID - 0xC000 */
	uint64_t *mft;
	uint8_t *sl2vl;      /* [(in * (n + 1) + out) * 16 + sl] */
	ibfs_switch_local_fn local;
	void *local_ctx;

	/*
	 * By output o: the input that feeds it while out[o].cur is set
	 * (stale otherwise, and only read then). Not in struct sw_out: the
	 * end of a packet (ibfs__sw_tx_done) reads it first, and the
	 * output's line, which at scale has left the caches during the
	 * packet, would hold the loads of the input's FIFO and port behind
	 * its own; here the outputs of a switch share a line (ports up to
	 * 63), which each of their grants and ends touches. Ports are
	 * numbered up to 255 (p->in_port).
	 */
	_Alignas(64) uint8_t cur_in[256];
	/*
	 * The outputs in the order they were granted, a ring of 256 (each
	 * grant writes at ends_in and moves it on; each packet's end moves
	 * ends_out on and reads the entry there, the output granted after
	 * the one at the end's turn): with packets of one size on links of
	 * one rate, outputs end in that order, so that entry is the next to
	 * end, whose lines its end will read (ibfs__sw_tx_done fetches
	 * them). Only a hint: in another order, or with no output busy
	 * (a stale entry, still an output of this switch), it is merely
	 * wrong; a grant and an end go in pairs (check_switch_paths checks
	 * the count), so at most 256 entries, one per output, are pending, and
	 * the 8-bit positions wrap inside the ring.
	 * One end ahead, not more: a switch's ends come in bunches, so lines
	 * fetched further ahead are often not in when the chain needs them.
	 */
	uint8_t ends[256];
};

extern const struct ibfs_device_ops ibfs__switch_ops;

static inline int ibfs__sw_slot(const struct ibfs_switch *sw, int vl)
{
	return vl == IBFS_VL15 ? sw->data_vls : vl;
}

static inline int ibfs__sw_slot_vl(const struct ibfs_switch *sw, int slot)
{
	return slot == sw->data_vls ? IBFS_VL15 : slot;
}

/*
 * Whether dlid is one of the switch's own LIDs (its LID, with its LMC),
 * whatever partition enforcement does to lid_mask and lid_local.
 */
static inline int ibfs__sw_own_lid(const struct ibfs_switch *sw, uint16_t dlid)
{
	return sw->lid && (dlid & (uint16_t)~((1u << sw->lmc) - 1)) == sw->lid;
}

/* 64-bit words of one port mask of the MFT. */
static inline int ibfs__sw_pw(const struct ibfs_switch *sw)
{
	return (sw->n + 1 + 63) / 64;
}

/* The FIFO of input `in`, slot `slot`. */
static inline struct sw_queue *ibfs__sw_queue(const struct ibfs_switch *sw,
					      int in, int slot)
{
	return &sw->q[((size_t)in << sw->sshift) + (size_t)slot];
}

/*
 * 1 while the input of request bit `bit` ((in << sshift) + slot) feeds no
 * output: every slot's bit of a free input is set in in_free.
 */
static inline int ibfs__sw_bit_free(const struct ibfs_switch *sw,
				    uint32_t bit)
{
	return sw->in_free[bit / 64] >> (bit % 64) & 1;
}

/* forwarding.c */
int ibfs__sw_fwd_init(struct ibfs_switch *sw);
void ibfs__sw_fwd_free(struct ibfs_switch *sw);
/*
 * LFTs of at most this many entries (bytes) are read directly, without the
 * inputs' last routes (lft_hint): a table of 32 lines or less a switch
 * stays cached at the rate it is read, and the hint would then cost a line
 * of its own, a store and a test that goes either way. Longer LFTs (some
 * 13,300 entries at 11,664 HCAs) miss the caches and keep the hint.
 */
#define SW_LFT_DIRECT 2048

/*
 * The LFT entry of unicast dlid for a packet from input `in`: read
 * directly from a short LFT, else through the input's last route.
 */
static inline uint8_t ibfs__sw_route(struct ibfs_switch *sw, int in,
				     uint16_t dlid)
{
	uint32_t len = sw->lft_len;

	if (__builtin_expect(len <= SW_LFT_DIRECT, 1))
		return dlid < len ? sw->lft[dlid] : IBFS_LFT_NONE;
	uint32_t h = sw->lft_hint[in];

	if (h >> 8 == (1u << 16 | dlid))
		return (uint8_t)h;
	/* ibfs__switch_get_lft, inline: a miss of the hint costs no call. */
	uint8_t out = dlid < sw->lft_len ? sw->lft[dlid] : IBFS_LFT_NONE;

	sw->lft_hint[in] = 1u << 24 | (uint32_t)dlid << 8 | out;
	return out;
}
/* The MFT port mask of mlid, or NULL when it has none. */
const uint64_t *ibfs__sw_mft_get(const struct ibfs_switch *sw, uint16_t mlid);

/* sl2vl.c */
int ibfs__sw_sl2vl_init(struct ibfs_switch *sw);
static inline uint8_t ibfs__sw_sl2vl(const struct ibfs_switch *sw, int in,
				     int out, int sl)
{
	if (sw->sl2vl_uniform)
		return sw->sl2vl_one[sl];
	return sw->sl2vl[((size_t)in * (size_t)(sw->n + 1) + (size_t)out) *
			 16 + (size_t)sl];
}

/* vlarb.c (the arbiter itself: fabric/vl_arbiter.c) */
/* Sets output o's `one` and `fast` from its tables and the switch. */
void ibfs__sw_vlarb_one_update(struct ibfs_switch *sw, int o);

/* crossbar.c */
void ibfs__sw_in_free_init(struct ibfs_switch *sw);
void ibfs__sw_head_changed(struct ibfs_switch *sw, int in, int slot);
/* p, already at sw->q[b].head, is the first packet of its empty FIFO b. */
void ibfs__sw_head_new(struct ibfs_switch *sw, uint32_t b,
		       struct ibfs_packet *p);
/*
 * Multicast copy p of input `in` (routed, its output VL set) starts on its
 * output at once when that output is idle, nothing waits for it and it
 * has the credits (mc_start.c). Returns 1 if it did; 0: enqueue it.
 */
int ibfs__sw_mc_start(struct ibfs_switch *sw, int in, struct ibfs_packet *p);
/* Arbitrates output o, whose go bit is set: call ibfs__sw_arbitrate. */
void ibfs__sw_arbitrate_out(struct ibfs_switch *sw, unsigned o);
/*
 * Output `out` may have something to send: arbitrates unless it is busy
 * or has no requests, which its bits tell without reading the output (a
 * test made here, inline: most calls stop at it).
 */
static inline void ibfs__sw_arbitrate(struct ibfs_switch *sw, int out)
{
	unsigned o = (unsigned)out;

	if (sw->go[o / 64] >> (o % 64) & 1)
		ibfs__sw_arbitrate_out(sw, o);
}
/*
 * The output whose packet likely ends next (nx, from sw->ends) will read
 * at its end its port's and its own first lines, then the FIFO entry and
 * the port (lines 0 and 2, vls[0]) of the input it frees: lines that at
 * scale have left the caches during the packet and that its end read one
 * behind the other. They are fetched now, the time of one end ahead. nx
 * and sw->cur_in[nx] are ports of this switch even when stale (both are
 * zeroed at creation and written only with ports), so every address is
 * inside the switch's arrays.
 */
static inline __attribute__((always_inline)) void
ibfs__sw_prefetch_end(const struct ibfs_switch *sw, unsigned nx)
{
	unsigned nin = sw->cur_in[nx];
	const struct ibfs_port *np = &sw->dev.ports[nx];
	const struct ibfs_port *ip = &sw->dev.ports[nin];

	__builtin_prefetch(np);
	__builtin_prefetch(&sw->out[nx]);
	__builtin_prefetch(&sw->q[(size_t)nin << sw->sshift]);
	__builtin_prefetch(ip);
	__builtin_prefetch(&ip->vls[0]);
}

/*
 * The output ho that the freed input's head asks for (its FIFO entry's
 * h_out, read at ibfs__sw_tx_done's start from the entry that
 * ibfs__sw_prefetch_end fetched one end ahead): when it is idle with
 * requests (its go bit), xb_free_slot's arbitration of it reads its port's
 * line 0 (tx_busy, flow) and line 2 (the VL's credits) and its own first
 * line, which at scale have left the caches while the packet was on the
 * wire. They are fetched before the buffer's release, whose FCP and
 * schedule then hide part of the miss. The h_out of an empty FIFO is
 * stale but a port of this switch, so every address is inside its arrays.
 * Fetched whatever the go bit says.
 */
static inline __attribute__((always_inline)) void
ibfs__sw_prefetch_ask(const struct ibfs_switch *sw, unsigned ho)
{
	const struct ibfs_port *hp = &sw->dev.ports[ho];

	__builtin_prefetch(hp);
	__builtin_prefetch(&hp->vls[0]);
	__builtin_prefetch(&sw->out[ho]);
}
/*
 * The link layer's calls into the crossbar (struct ibfs_device_ops):
 * tx_done when output `out` has sent the last byte of its packet, which
 * frees the packet's input and lets that input's heads ask for their
 * outputs; tx_ready when `out` may send again (its transmitter went idle
 * or got credits), which arbitrates it if it has requests.
 */
void ibfs__sw_tx_done(struct ibfs_device *dev, struct ibfs_port *out);
void ibfs__sw_tx_ready(struct ibfs_device *dev, struct ibfs_port *out);

/* cc_mark.c: drops the switch's CC state, if any (switch_destroy). */
void ibfs__sw_cc_free(struct ibfs_switch *sw);

/* port_state.c */
/*
 * Output o is down: discards every head of a free input that requests it
 * (PortXmitDiscards), and the heads behind them that want it too.
 */
void ibfs__sw_out_down(struct ibfs_switch *sw, int o);

#endif
