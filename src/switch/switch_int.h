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
 * freeing an input touch this entry, not the packet: at 11,664 HCAs the
 * packets' lines miss the caches (bench/README.md, "Scale check"). An
 * entry is 32 bytes and an input's entries are contiguous at a
 * power-of-two stride (sw->q, indexed by request bit): with one data VL
 * and VL15 both fit one 64-byte line, which also holds the tail, so that
 * an enqueue and a grant touch no other line of the switch's queues.
 *
 * The head's ready_at is not copied: a head whose routing decision is
 * still to come (only when the latency changed while its header was on
 * the way) waits for xb_ready_ev with h_tail_at at IBFS_TIME_NEVER,
 * which no tail time is, and is then read from the packet; every other
 * head is ready.
 *
 * Tried without gain (sw10, bench_fabric k=36 against 470029f): the
 * head's successor (second) in place of the tail, the tails in an array
 * after the entries (tagged when the tail is the only packet), so that a
 * grant fetches the head's and the next head's lines at once, the end of
 * a packet (ibfs__sw_tx_done) the next head's with the head's, and an
 * arrival the input's tails and entries while it routes. perf:
 * xb_send_then_head's wait on the next head's line went (526 -> 182
 * samples), but the grant and the enqueue grew as much (an enqueue into
 * a FIFO of 0 or 1 packets touches the tails' line and the entry; 44% of
 * grants empty their FIFO and write the tails); callgrind 1 200 100: Ir
 * +4.6%, LL misses +4.3%; ab.sh medians, both orders: k=36 saturated
 * +2.4% and -1.0% CPU time (11 pairs), 50% +2% and +10%, k=12 +2% and
 * -0.5% (7 pairs).
 * Fetching head->next at that end instead (this layout): 1-3% slower.
 *
 * Also tried without gain (sw11, k=36 against 4934097): the copies of a
 * FIFO's next head made when its input is freed (ibfs__sw_tx_done, before
 * xb_free_slot) instead of at the grant (xb_send_then_head), the grant
 * marking the entry and reading nothing of the next head. A busy input's
 * request is seen by nothing but nreq and the go bit (every scan masks
 * busy inputs); an arbitration that it alone causes grants nothing, and
 * a port counting PortXmitWait keeps the request of the head that
 * waited, so the run was the same (identity check identical, switch
 * tests passing; a flag set by any enqueue of a packet not yet ready kept
 * the grant's set-up for such a switch, so that no event moved). A head
 * granted as soon as its input is freed was then read once, not twice.
 * Callgrind 1 200 100: Ir 417.2 -> 419.3 M, LL misses 5.39 -> 5.12 M
 * (-5%); perf: xb_send_then_head's waits went, but tx_done's grew as much
 * (the head's line and its output's, now read at the end; the head
 * fetched one end ahead from its entry); ab.sh medians, both orders, 7-15
 * pairs: k=36 saturated from 2.6% faster to 1.6% slower (0.697 against
 * 0.696 s over 15 pairs), 50% and k=12 within 1%; without the head
 * fetched one end ahead, 3.5% slower.
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
 * the inputs of the outputs come after. Still 768 bytes with the link
 * state, so that what the heap places after the switches does not move
 * (bench_fabric's misses depend on it: see the git log of struct
 * ibfs_eq's window counters): the fabric is not kept twice (dev.fab), nor
 * the external request words (the first output's), nor the MFT's words
 * a mask (ibfs__sw_pw), and the counts are bytes.
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
	 * at saturation has mostly left the caches (perf, bench_fabric
	 * k=36: 4% of the run waited on that load) and which nothing else
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
	 *
	 * Tried without gain (sw11), with the next head's copies made at
	 * the end of the packet (struct sw_queue): fetching further ahead
	 * in the ring. Its guess is right for 88% of the ends at k=36
	 * saturated (80% at 50%), as often two or three entries ahead, but
	 * a switch's ends come in bunches: of the gaps between two ends of
	 * one switch (events run, k=36 saturated) 21% are under 2, 11%
	 * 2-9, 18% 10-29, 13% 30-99 and 34% 100-999. A line fetched one
	 * end ahead is then often not in yet, and a load of it that fetches
	 * the next line of a chain waits as long as its use did: the entry
	 * three ends ahead, its head two ahead and that head's output one
	 * ahead moved the waits into the end's fetches (perf; then
	 * xb_prefetch_end, now ibfs__sw_prefetch_end) for 2.4% more
	 * instructions (k=12 saturated 3% slower, k=36 the same). Each
	 * output's next head kept at its grant in an array before the
	 * queues, fetched with no load to wait for, removed the end's wait
	 * on the head's line, but k=12 and 50% ran 1.2% and 2.4% slower
	 * and k=36 the same.
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
 * stays cached at the rate it is read, and the hint then costs a line of
 * its own, a store and a test that goes either way. bench_fabric's fat
 * tree (k=36: under 1,024 entries; uniform traffic, the hint hitting 17%
 * of the time) runs faster without it: callgrind 1 200 100 Ir 429.3 ->
 * 426.2 M, LL misses 4.91 -> 4.81 M, mispredictions 2.36 -> 2.21 M;
 * ab.sh medians, both orders, with the hint dropped outright (against
 * 74a56af): k=36 saturated (11 pairs) 0.653 -> 0.648, 0.651 -> 0.645 s,
 * k=12 (7 pairs) 0.614 -> 0.610, 0.615 -> 0.608 s; this code with
 * 74a56af against a0a5811: k=36 0.659 -> 0.651, 0.650 -> 0.647 s, 50%
 * 0.517 -> 0.511, 0.518 -> 0.506 s, k=12 0.618 -> 0.612, 0.618 -> 0.612
 * s. The scale check's LFTs (11,664 HCAs: some 13,300 entries, which
 * miss the caches) keep the hint.
 */
#define SW_LFT_DIRECT 2048

/*
 * The LFT entry of unicast dlid for a packet from input `in`.
 *
 * Tried without gain (sw14, against a73449f): the hint's test made
 * without a branch (the LFT entry always read, through a pointer to a
 * constant NONE when out of range, and the hint chosen by a conditional
 * move; callgrind k=36: the test was mispredicted 21% of the time, the
 * hint hitting 17% of the time with uniform traffic): ab.sh medians k=36
 * saturated (9-11 pairs each order) 0.653 -> 0.657, 0.660 -> 0.656,
 * 0.652 -> 0.664, 0.654 -> 0.651 s, 50% 0.514 -> 0.519, 0.519 -> 0.515
 * s, k=12 0.619 -> 0.617, 0.619 -> 0.617 s.
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
 * line, which at k=36 saturated have left the caches (perf at 51d9899:
 * those three loads were 31% of ibfs__sw_arbitrate_out's samples, 4% of
 * the run). They are fetched before the buffer's release, whose FCP and
 * schedule then hide part of the miss. The h_out of an empty FIFO is
 * stale but a port of this switch, so every address is inside its arrays.
 * Fetched whatever the go bit says. A small gain, near this host's
 * noise: bench/ab.sh against 51d9899, k=36 saturated, medians of 9-15
 * pairs, 11 runs in both orders (two builds of the same code: same
 * objdump, up to 1.5% apart, which is the noise): faster in all 11, by
 * 0.1 to 2.6%, median 0.9% (0.691 -> 0.673, 0.676 -> 0.664, 0.673 ->
 * 0.663, 0.678 -> 0.668, 0.676 -> 0.672, 0.669 -> 0.667, 0.667 -> 0.666
 * s); 50% the same (0.520 -> 0.517, 0.522 -> 0.519, 0.520 -> 0.521,
 * 0.520 -> 0.519 s); k=12, where every line is in the L2 and the fetches
 * only cost instructions, from 0.3% faster to 0.8% slower (0.619 ->
 * 0.620, 0.619 -> 0.624, 0.619 -> 0.617, 0.617 -> 0.619, 0.617 -> 0.618
 * s). Callgrind (1 200 100): 5.3 M instructions more (about 14 a
 * switch's end), the same LL misses (it models no prefetch). Tried
 * without gain: also the port's line 1 (ser_memo, waiting; against
 * this 0.653 -> 0.662, 0.663 -> 0.673 s, against 51d9899 0.664 -> 0.661,
 * 0.666 -> 0.662 s), and the output chosen by the go bit without a
 * branch, the output that ends when it is not set (0.668 -> 0.676, 0.661
 * -> 0.664 s). Nor, against this (9 pairs each order): the head packet
 * of the next end's FIFO entry, that entry fetched two ends ahead
 * (0.670 -> 0.668, 0.666 -> 0.667 s); the FIFO entry of slot 0 fetched
 * at sw_receive's start,
 * before the route (0.677 -> 0.683, 0.688 -> 0.691 s); at the end, the
 * FIFO entry of the request that the ending output's next arbitration
 * would grant, found with xb_arbitrate_one's masks (0.678 -> 0.683, 0.671
 * -> 0.674 s); the FCP sender's VL line (inp->peer->vls[cur_in_vl]; 0.670
 * -> 0.682, 0.684 -> 0.681 s).
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
 * Tried without gain (sw14, against a73449f; ab.sh medians, k=36
 * saturated 9-11 pairs each order, k=12 7 pairs; this host's noise is
 * about 1%):
 * - ibfs__sw_tx_done arbitrating its own output after xb_free_slot, in
 *   place of tx_ready, when its port owes no FCP (fc_pending or !up:
 *   then ibfs__credit_on_tx_idle does nothing, and the order at the
 *   picosecond is the same; a grant leaves tx_busy set and the link
 *   layer returns). Identical run, but an arbitration without a grant
 *   is made twice (tx_ready repeats it) and the test moves rather than
 *   goes: callgrind 1 2000 100 12 Ir 495.8 -> 504.4 M, Bcm 3.58 -> 3.85
 *   M; k=36 0.665 -> 0.670, 0.666 -> 0.668 s.
 * - xb_arbitrate_one always calling xb_send_then_head, whose FIFO's
 *   "next head or none" test came after the send (so that a late wrong
 *   guess on p->next, p's line missing, did not throw the send away),
 *   the tail cleared without a branch: k=36 0.660 -> 0.664, 0.666 ->
 *   0.671 s, 50% 0.515 -> 0.520 s, k=12 0.620 -> 0.620, 0.623 -> 0.632 s.
 * - Not fetching the packet behind the next head (xb_send_then_head's
 *   last prefetch, a packet time ahead): k=36 0.656 -> 0.663, 0.658 ->
 *   0.677 s; it is kept.
 * Tried without gain (sw15, against 86e6e54; ab.sh medians, k=36
 * saturated 11 pairs each order, k=12 7 pairs):
 * - ibfs__sw_tx_ready testing, with its go bit and in the same branch,
 *   whether the arbitration would find a request of a free input (the
 *   fast layout's two words against free_in, the port's waiting and up),
 *   so that xb_arbitrate_one's "every request's input is busy" test (73
 *   K of 468 K mispredicted at 1 200 100) went with it: callgrind Ir
 *   429.3 -> 440.7 M, Bcm 2.36 -> 2.60 M (the one test is more random
 *   than the two). Not timed.
 * - xb_send_then_head fetching the next head's output line (out[next->
 *   out_port], whose request words it then updates: perf showed a third
 *   of its samples waiting there) before the send, from next's line,
 *   which the previous grant of the FIFO fetched: k=36 0.653 -> 0.654,
 *   0.653 -> 0.655 s; k=12 0.610 -> 0.610, 0.611 -> 0.611 s (mins).
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
