/* SPDX-License-Identifier: MIT */
/*
 * A minimal end node (see endpoint.h). Sending: flows take turns round
 * robin, one packet each, at every moment the transmitter is idle; a flow
 * whose VL lacks credits is skipped so another VL can go (VLs are
 * independent, IBA 7.6), and when every ready flow lacks credits the port
 * records PortXmitWait. A packet's header (DLID, SL, VL) is drawn once,
 * when it is first due, and kept while it waits for credits; the packet is
 * built when it goes.
 * Receiving: zero processing time; the input buffer of a packet is freed
 * when its last byte has arrived (the device cannot hand on a packet it
 * does not hold in full), which is also when it counts as delivered.
 * Payloads, when the fabric carries data, hold a pattern derived from the
 * packet's sequence number in its flow, checked byte for byte on arrival.
 */
#include "fabric/endpoint.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/*
 * What a packet is built from: the spec, less its start (next_at starts
 * there and steps by gap), and the sizes ibfs__packet_finish gives every
 * packet of the flow, computed once. The generator comes first: in the
 * first flow its context is then in the endpoint's line 0 (struct
 * ibfs_endpoint), so that the load of the generator's own state need not
 * wait for another line of ours.
 */
struct ep_flow {
	void *gen_ctx;
	ibfs_ep_gen_fn gen;
	/*
	 * Packets sent: a generator that ends the flow early sets count to
	 * sent, so that the endpoint's tx_pkts and tx_payload are derived
	 * from sent (ibfs__endpoint_stats) and a send writes no counter
	 * line of its own.
	 */
	uint64_t sent;
	uint64_t count;
	ibfs_time_t next_at;
	ibfs_time_t gap;
	/*
	 * Built, waiting for the transmitter: only with a flow control
	 * other than the credits, whose consent needs the packet.
	 */
	struct ibfs_packet *pkt;
	uint32_t payload;
	uint32_t wire_bytes;
	uint16_t dlid;
	uint16_t blocks;
	uint8_t sl;
	uint8_t lnh;             /* as ibfs__packet_finish leaves it */
	uint8_t pad;
	uint8_t xh;              /* IBFS_XH_GRH or 0 */
	/*
	 * With the credits, the next packet's header while it waits for
	 * them (w_set): its DLID, SL and VL as drawn when it was first
	 * due. The packet itself is built when it goes (ep_flow_send).
	 */
	uint16_t w_dlid;
	uint8_t w_sl;
	uint8_t w_vl;
	uint8_t w_set;
};

struct ep_arrival {
	uint16_t slid;
	ibfs_time_t head, tail;
};

/*
 * Laid out by the 64-byte lines a packet touches (the struct is 64-byte
 * aligned): lines 0 and 1 all that the pump of an endpoint with one flow
 * (most of them) reads and writes, the first flow kept inline after what
 * an arrival reads in line 0 (the LID and its mask, and whether arrivals
 * are tracked), with the SL-to-VL table; line 2 a generator's state, if
 * the generator keeps it here (ibfs__endpoint_gen_area); line 3 the
 * arrival counters. So a packet sent touches lines 0-2, which the port
 * asks the link layer to fetch together when the transmitter goes idle or
 * credits come (tx_end_dev 3, link.c and credits.c), instead of one after
 * the other as the pump reaches them; an arrival that is not tracked
 * touches lines 0 and 3. Further flows
 * live in a separate array (flows points at flow0 until a second flow is
 * added). The port is dev.ports + 1.
 */
struct ibfs_endpoint {
	struct ibfs_device dev;
	uint16_t nflows;      /* at most EP_MAX_FLOWS */
	uint16_t lid;
	/*
	 * The LID bits that are not path bits (LMC); 0 while the LID is 0
	 * (none given), so that no DLID counts as misrouted then.
	 */
	uint16_t lid_mask;
	uint8_t track;        /* 1 when by_slid or log records arrivals */
	uint8_t lmc;
	struct ep_flow flow0; /* lines 0-1 */
	/* The VL of each SL, four bits each (ep_vl). */
	uint64_t sl2vl;
	/* Line 2: a generator's state (ibfs__endpoint_gen_area). */
	_Alignas(16) unsigned char gen_area[IBFS_EP_GEN_BYTES];
	/*
	 * tx_pkts, tx_payload and last_tx_end are derived when asked
	 * (ibfs__endpoint_stats); the arrival counters are line 3.
	 */
	struct ibfs_ep_stats st;
	/* Cold, but the timer (a paced flow reads it once a packet). */
	ibfs_time_t timer_at; /* pending wake-up, IBFS_TIME_NEVER if none */
	struct ep_flow *flows;
	uint16_t rr;
	uint32_t by_slid_len;
	uint32_t log_len;
	uint64_t *by_slid;
	struct ep_arrival *log;
	uint32_t log_cap;
	int flows_cap;
};

#define EP_MAX_FLOWS 65535

_Static_assert(offsetof(struct ibfs_endpoint, flow0.sent) + 8 == 64 &&
		       offsetof(struct ibfs_endpoint, sl2vl) + 8 == 128 &&
		       offsetof(struct ibfs_endpoint, gen_area) == 128 &&
		       offsetof(struct ibfs_endpoint, st.rx_pkts) == 192 &&
		       offsetof(struct ibfs_endpoint, st.misrouted) < 256,
	       "struct ibfs_endpoint: lines 0-3 as above");

static inline struct ibfs_port *ep_port(struct ibfs_endpoint *ep)
{
	return ep->dev.ports + 1;
}

static inline void ep_pump(struct ibfs_endpoint *ep, struct ibfs_port *out);

/* The VL of SL sl (0-15). */
static inline uint8_t ep_vl(const struct ibfs_endpoint *ep, unsigned sl)
{
	return (uint8_t)(ep->sl2vl >> (4 * sl) & 15);
}

/*
 * Byte i of the payload of the packet with sequence number seq: any
 * pattern that differs from packet to packet and along a packet would do;
 * the multipliers are arbitrary odd numbers.
 */
static uint8_t ep_pattern(uint32_t seq, uint32_t i)
{
	return (uint8_t)(seq * 131u + i * 7u + (i >> 8));
}

static void ep_timer(void *obj, uint64_t arg)
{
	struct ibfs_endpoint *ep = obj;

	if (arg != ep->timer_at)
		return; /* superseded by an earlier wake-up */
	ep->timer_at = IBFS_TIME_NEVER;
	ep_pump(ep, ep_port(ep));
}

static void ep_arm(struct ibfs_endpoint *ep, ibfs_time_t t)
{
	if (t >= ep->timer_at)
		return; /* also for t = IBFS_TIME_NEVER: nothing to wake for */
	ep->timer_at = t;
	ibfs__eq_schedule(&ep->dev.fab->eq, t, ep_timer, ep, t);
}

/*
 * The header of the flow's next packet: its DLID and SL (the generator's,
 * if the flow has one), and its VL. Returns -1 when the generator ends
 * the flow.
 */
static inline __attribute__((always_inline)) int
ep_draw(struct ibfs_endpoint *ep, struct ep_flow *fl, uint16_t *dlid,
	uint8_t *sl, uint8_t *vl)
{
	*dlid = fl->dlid;
	*sl = fl->sl;
	if (fl->gen && fl->gen(fl->gen_ctx, ep, dlid, sl) < 0) {
		fl->count = fl->sent; /* the generator ended the flow */
		return -1;
	}
	*sl &= 15;
	*vl = ep_vl(ep, *sl);
	return 0;
}

/*
 * The flow's next packet, with the header ep_draw gave. Its sizes are the
 * flow's (ep_flow); lines 2-3 of the packet, extension headers it does
 * not carry, are not written (ibfs__packet_new_raw).
 */
static inline __attribute__((always_inline)) struct ibfs_packet *
ep_build(struct ibfs_endpoint *ep, struct ep_flow *fl, uint16_t dlid,
	 uint8_t sl, uint8_t vl)
{
	struct ibfs_fabric *f = ep->dev.fab;
	struct ibfs_packet *p = ibfs__packet_new_raw(f);

	if (!p)
		return NULL;
	/*
	 * The packet the pool gives next, which the next packet built
	 * clears (its two hot lines): the pool is a stack, and when more
	 * packets are built than freed for a while it hands out packets
	 * freed long ago, whose lines have left the caches. Fetched now,
	 * some packets ahead of the next build.
	 * The head is NULL only when the pool is empty: no prefetch of
	 * NULL then.
	 */
	{
		const char *nx = f->packets.free_list;

		if (nx) {
			__builtin_prefetch(nx, 1);
			__builtin_prefetch(nx + 64, 1);
		}
	}
	p->wire_bytes = fl->wire_bytes;
	p->blocks = fl->blocks;
	p->dlid = dlid;
	p->slid = ep->lid;
	p->sl = sl;
	p->vl = vl;
	p->lnh = fl->lnh;
	p->kind = IBFS_PKT_RAW;
	p->pad = fl->pad;
	p->xh = fl->xh;
	p->psn = (uint32_t)fl->sent;
	p->payload_len = fl->payload;
	if (f->data_mode && fl->payload) {
		p->payload = ibfs__payload_new(f);
		if (p->payload)
			for (uint32_t i = 0; i < fl->payload; i++)
				p->payload[i] = ep_pattern(p->psn, i);
	}
	return p;
}

/* What a ready flow's attempt to send came to (ep_flow_send). */
enum { EP_NONE, EP_SENT, EP_STARVED };

/* p, of flow fl, goes on `out`. */
static inline __attribute__((always_inline)) int
ep_flow_go(struct ibfs_endpoint *ep, struct ibfs_port *out,
	   struct ep_flow *fl, struct ibfs_packet *p)
{
	struct ibfs_fabric *f = ep->dev.fab;

	fl->sent++;
	fl->next_at += fl->gap; /* start + sent x gap */
	ibfs__port_wait_stop(out);
	ibfs__fabric_inject(f, p);
	/* st's tx counts are derived (ibfs__endpoint_stats). */
	ibfs__port_send(out, p);
	return EP_SENT;
}

/*
 * Flow fl is due, with a flow control other than the credits (or a packet
 * built under one): builds its packet if it has none and sends it if flow
 * control allows; the packet is kept in the flow when it has to wait.
 */
static __attribute__((noinline)) int
ep_flow_send_ops(struct ibfs_endpoint *ep, struct ibfs_port *out,
		 struct ep_flow *fl)
{
	struct ibfs_packet *p = fl->pkt;

	if (!p) {
		uint16_t dlid = fl->w_dlid;
		uint8_t sl = fl->w_sl, vl = fl->w_vl;

		/* A header that waited while the credits ruled goes first. */
		if (!fl->w_set && ep_draw(ep, fl, &dlid, &sl, &vl) < 0)
			return EP_NONE;
		fl->w_set = 0;
		p = ep_build(ep, fl, dlid, sl, vl);
		if (!p)
			return EP_NONE;
	}
	if (!ibfs__port_flow_allows(out, p)) {
		fl->pkt = p;
		return EP_STARVED;
	}
	fl->pkt = NULL;
	return ep_flow_go(ep, out, fl, p);
}

/*
 * Flow fl is due: draws its next packet's header if none waits and, if
 * the credits allow, builds the packet and sends it. With the credits only
 * the header waits, in the flow's line (w_dlid, w_sl, w_vl): a packet built
 * at once and kept while it waited would have left the caches when the
 * credits came, while one built when it goes takes the pool's most
 * recently freed slot. The generator is called when the packet is first
 * due, so the flow draws the same headers in the same order whenever the
 * credits come.
 */
static inline __attribute__((always_inline)) int
ep_flow_send(struct ibfs_endpoint *ep, struct ibfs_port *out,
	     struct ep_flow *fl)
{
	uint16_t dlid;
	uint8_t sl, vl;

	/* A packet built under another flow control goes that way. */
	if (!ibfs__port_flow_ib(out) || fl->pkt)
		return ep_flow_send_ops(ep, out, fl);
	if (fl->w_set) {
		dlid = fl->w_dlid;
		sl = fl->w_sl;
		vl = fl->w_vl;
	} else if (ep_draw(ep, fl, &dlid, &sl, &vl) < 0) {
		return EP_NONE;
	}
	/*
	 * Up and idle were tested by the pump; ep_draw keeps both. The
	 * credit test, on the header.
	 */
	if (!ibfs__credit_may_send_vl(out, vl, fl->blocks)) {
		fl->w_dlid = dlid;
		fl->w_sl = sl;
		fl->w_vl = vl;
		fl->w_set = 1;
		return EP_STARVED;
	}
	struct ibfs_packet *p = ep_build(ep, fl, dlid, sl, vl);

	fl->w_set = 0;
	if (!p)
		return EP_NONE;
	return ep_flow_go(ep, out, fl, p);
}

/* ep_idle when PortXmitWait starts or goes on (rare: out of line). */
static __attribute__((noinline, cold)) void
ep_idle_wait(struct ibfs_endpoint *ep, struct ibfs_port *out,
	     ibfs_time_t wake, int starved)
{
	if (starved)
		ibfs__port_wait_start(out);
	else
		ibfs__port_wait_stop(out);
	/* ep_arm does nothing for IBFS_TIME_NEVER: timer_at is not read. */
	if (wake != IBFS_TIME_NEVER)
		ep_arm(ep, wake);
}

/*
 * Nothing sent: PortXmitWait starts (starved) or stops, and the timer is
 * armed for the earliest flow. Most of the time no wait starts or stops,
 * and the pump ends with the timer, a tail call.
 */
static inline void ep_idle(struct ibfs_endpoint *ep, struct ibfs_port *out,
			   ibfs_time_t wake, int starved)
{
	if (__builtin_expect(starved || out->waiting, 0))
		ep_idle_wait(ep, out, wake, starved);
	else
		ep_arm(ep, wake);
}

/* Flows from ep->rr on take turns; the first that sends ends the pump. */
static __attribute__((noinline)) void
ep_pump_flows(struct ibfs_endpoint *ep, struct ibfs_port *out)
{
	ibfs_time_t now = ep->dev.fab->eq.now;
	ibfs_time_t wake = IBFS_TIME_NEVER;
	int starved = 0;
	/* Wrapping with a compare, not a division, a flow. */
	int n = ep->nflows;

	for (int k = 0, i = ep->rr; k < n; k++, i = i + 1 == n ? 0 : i + 1) {
		struct ep_flow *fl = &ep->flows[i];

		if (fl->sent >= fl->count)
			continue;
		if (fl->next_at > now) {
			if (fl->next_at < wake)
				wake = fl->next_at;
			continue;
		}
		int r = ep_flow_send(ep, out, fl);

		if (r == EP_SENT) {
			ep->rr = (uint16_t)(i + 1 == n ? 0 : i + 1);
			return;
		}
		if (r == EP_STARVED)
			starved = 1;
	}
	ep_idle(ep, out, wake, starved);
}

/*
 * The one flow is due (ep_pump). Out of line, so that the pumps that send
 * nothing (two in three) save no registers for it.
 */
static __attribute__((noinline)) void
ep_pump_due(struct ibfs_endpoint *ep, struct ibfs_port *out,
	    struct ep_flow *fl)
{
	int r = ep_flow_send(ep, out, fl);

	if (r != EP_SENT)
		ep_idle(ep, out, IBFS_TIME_NEVER, r == EP_STARVED);
}

/*
 * Sends one packet if any flow is ready and allowed; arms timers. It runs
 * two to three times a packet (its timer, the end of the transmission,
 * credits coming back), so the one-flow case, most endpoints, skips the
 * round robin: it is the same walk over a single flow.
 */
static inline __attribute__((always_inline)) void
ep_pump(struct ibfs_endpoint *ep, struct ibfs_port *out)
{
	/*
	 * A down link sends nothing (a port without a link is never up);
	 * flows wait, and the fabric's tx_ready when the link comes up
	 * resumes them (link_state.c). Two byte tests, not the one 16-bit
	 * compare of ibfs__port_idle_up: link_tx_done has just cleared
	 * tx_busy with a byte store, which a wider load cannot take from the
	 * store buffer (store forwarding) and so stalls on.
	 */
	if (out->tx_busy || !out->up)
		return;
	if (ep->nflows != 1) {
		ep_pump_flows(ep, out);
		return;
	}
	struct ep_flow *fl = &ep->flow0;

	if (fl->sent >= fl->count)
		ep_idle(ep, out, IBFS_TIME_NEVER, 0);
	else if (fl->next_at > ep->dev.fab->eq.now)
		ep_idle(ep, out, fl->next_at, 0);
	else
		ep_pump_due(ep, out, fl);
}

/*
 * The last byte of p has arrived (the port asks the link layer for the
 * tail, rx_at_tail): deliver it and free its buffer.
 */
static void ep_receive(struct ibfs_device *dev, struct ibfs_port *in,
		       struct ibfs_packet *p)
{
	struct ibfs_endpoint *ep = (struct ibfs_endpoint *)dev;
	struct ibfs_fabric *f = ep->dev.fab;
	struct ibfs_ep_stats *st = &ep->st;

	if ((p->dlid & ep->lid_mask) != ep->lid)
		st->misrouted++;
	if (p->payload)
		for (uint32_t i = 0; i < p->payload_len; i++)
			if (p->payload[i] != ep_pattern(p->psn, i)) {
				st->data_errors++;
				break;
			}
	if (!st->rx_pkts) {
		st->first_head = p->head_at;
		st->first_tail = f->eq.now;
	}
	st->last_head = p->head_at;
	st->last_tail = f->eq.now;
	st->rx_pkts++;
	st->rx_payload += p->payload_len;
	st->rx_wire += p->wire_bytes;
	if (ep->track) {
		if (p->slid < ep->by_slid_len)
			ep->by_slid[p->slid]++;
		if (ep->log_len < ep->log_cap)
			ep->log[ep->log_len++] = (struct ep_arrival){
				.slid = p->slid, .head = p->head_at,
				.tail = f->eq.now
			};
	}
	/*
	 * The buffer is freed last, after p (its FCP often goes at once,
	 * and is then a tail call): the packet pool and the FCP do not
	 * meet, so the order changes nothing else.
	 */
	int vl = p->in_vl;
	uint32_t blocks = p->blocks;

	ibfs__fabric_deliver(f, p);
	ibfs__packet_free(f, p);
	ibfs__port_consume_blocks(in, vl, blocks);
}

/* `out` is our port: the link layer's, not read again from dev.ports. */
static void ep_tx_ready(struct ibfs_device *dev, struct ibfs_port *out)
{
	ep_pump((struct ibfs_endpoint *)dev, out);
}

static const struct ibfs_device_ops ep_ops = {
	.kind = "endpoint",
	.receive = ep_receive,
	.tx_ready = ep_tx_ready,
};

struct ibfs_endpoint *ibfs__endpoint_create(struct ibfs_fabric *f, int node)
{
	if (node < 0 || (size_t)node >= f->topo->nnodes ||
	    f->topo->nodes[node].nports < 1 || f->devices[node])
		return NULL;
	size_t size = (sizeof(struct ibfs_endpoint) + 63) & ~(size_t)63;
	struct ibfs_endpoint *ep = aligned_alloc(64, size);

	if (!ep)
		return NULL;
	memset(ep, 0, size);
	ep->flows = &ep->flow0;
	ep->flows_cap = 1;
	ep->dev.ops = &ep_ops;
	ibfs__fabric_attach(f, node, &ep->dev);
	/* Packets are taken at their tail, with no delay (link.h). */
	ibfs__port_set_rx(ep_port(ep), 0, 1);
	/*
	 * One endpoint among many: its lines leave the caches, and its
	 * pump reads lines 0-2 (link.h).
	 */
	ep_port(ep)->tx_end_dev = 3;
	/* Its receive writes the arrival counters, line 3 (link.h). */
	ep_port(ep)->rx_dev_line =
		(uint8_t)(offsetof(struct ibfs_endpoint, st.rx_pkts) / 64);
	ep->timer_at = IBFS_TIME_NEVER;
	for (int sl = 0; sl < 16; sl++)
		ibfs__endpoint_set_sl2vl(ep, sl, sl % ep_port(ep)->data_vls);
	return ep;
}

void ibfs__endpoint_destroy(struct ibfs_endpoint *ep)
{
	if (!ep)
		return;
	for (int i = 0; i < ep->nflows; i++)
		if (ep->flows[i].pkt)
			ibfs__packet_free(ep->dev.fab, ep->flows[i].pkt);
	if (ep->flows != &ep->flow0)
		free(ep->flows);
	free(ep->by_slid);
	free(ep->log);
	free(ep);
}

void ibfs__endpoint_set_lid(struct ibfs_endpoint *ep, uint16_t lid,
			    uint8_t lmc)
{
	ep->lid = lid;
	ep->lmc = lmc > 7 ? 7 : lmc;
	ep->lid_mask = lid ? (uint16_t)~((1u << ep->lmc) - 1) : 0;
}

void ibfs__endpoint_set_sl2vl(struct ibfs_endpoint *ep, int sl, int vl)
{
	if (sl >= 0 && sl < 16 && vl >= 0 && vl < 16)
		ep->sl2vl = (ep->sl2vl & ~(15ULL << (4 * sl))) |
			    (uint64_t)vl << (4 * sl);
}

int ibfs__endpoint_add_flow(struct ibfs_endpoint *ep,
			    const struct ibfs_ep_flow_spec *spec,
			    struct ibfs_diag *d)
{
	struct ibfs_fabric *f = ep->dev.fab;

	if (spec->payload > f->mtu)
		return ibfs__diag(d, "endpoint", 0,
				  "payload of %u bytes exceeds the MTU %u",
				  spec->payload, f->mtu);
	if (spec->sl > 15)
		return ibfs__diag(d, "endpoint", 0, "SL %u out of range 0-15",
				  spec->sl);
	if (spec->lnh > 3)
		return ibfs__diag(d, "endpoint", 0, "LNH %u out of range 0-3",
				  spec->lnh);
	if (ep->nflows == EP_MAX_FLOWS)
		return ibfs__diag(d, "endpoint", 0, "more than %d flows",
				  EP_MAX_FLOWS);
	if (ep->nflows == ep->flows_cap) {
		int cap = ep->flows_cap < 4 ? 4 : 2 * ep->flows_cap;
		int inl = ep->flows == &ep->flow0;
		struct ep_flow *nf = realloc(inl ? NULL : ep->flows,
					     cap * sizeof(*nf));

		if (!nf)
			return ibfs__diag(d, "endpoint", 0, "out of memory");
		if (inl)
			nf[0] = ep->flow0;
		ep->flows = nf;
		ep->flows_cap = cap;
	}
	struct ep_flow *fl = &ep->flows[ep->nflows++];
	ibfs_time_t start = spec->start < f->eq.now ? f->eq.now : spec->start;
	/* Every packet of the flow has the sizes of this one. */
	struct ibfs_packet sz = { .lnh = spec->lnh,
				  .payload_len = spec->payload };

	ibfs__packet_finish(&sz);
	*fl = (struct ep_flow){
		.count = spec->count, .next_at = start, .gap = spec->gap,
		.gen = spec->gen, .gen_ctx = spec->gen_ctx,
		.payload = spec->payload, .wire_bytes = sz.wire_bytes,
		.dlid = spec->dlid, .blocks = sz.blocks, .sl = spec->sl,
		.lnh = sz.lnh, .pad = sz.pad, .xh = (uint8_t)sz.xh,
	};
	ep_arm(ep, start);
	return 0;
}

int ibfs__endpoint_track(struct ibfs_endpoint *ep, uint32_t max_lid,
			 uint32_t cap)
{
	free(ep->by_slid);
	free(ep->log);
	ep->track = 0;
	ep->by_slid_len = 0;
	ep->log_cap = 0;
	ep->log_len = 0;
	ep->by_slid = calloc((size_t)max_lid + 1, sizeof(*ep->by_slid));
	ep->log = cap ? calloc(cap, sizeof(*ep->log)) : NULL;
	if (!ep->by_slid || (cap && !ep->log))
		return -1;
	ep->by_slid_len = max_lid + 1;
	ep->log_cap = cap;
	ep->track = 1;
	return 0;
}

const struct ibfs_ep_stats *
ibfs__endpoint_stats(struct ibfs_endpoint *ep)
{
	/*
	 * Every packet of a flow has its payload, and sent counts the
	 * packets it sent (ep_draw), so the send counts are sums over the
	 * flows, written here rather than after every send.
	 */
	ep->st.tx_pkts = 0;
	ep->st.tx_payload = 0;
	for (int i = 0; i < ep->nflows; i++) {
		ep->st.tx_pkts += ep->flows[i].sent;
		ep->st.tx_payload += ep->flows[i].sent * ep->flows[i].payload;
	}
	/*
	 * The port's transmitter carries our data packets and FCPs, and
	 * an FCP does not move tx_free_at (it keeps fcp_until): so
	 * tx_free_at is the end of the last packet sent.
	 */
	if (ep->st.tx_pkts)
		ep->st.last_tx_end = ep_port(ep)->tx_free_at;
	return &ep->st;
}

uint64_t ibfs__endpoint_rx_from(const struct ibfs_endpoint *ep, uint16_t slid)
{
	return slid < ep->by_slid_len ? ep->by_slid[slid] : 0;
}

int ibfs__endpoint_arrival(const struct ibfs_endpoint *ep, uint32_t i,
			   uint16_t *slid, ibfs_time_t *head,
			   ibfs_time_t *tail)
{
	if (i >= ep->log_len)
		return -1;
	*slid = ep->log[i].slid;
	*head = ep->log[i].head;
	*tail = ep->log[i].tail;
	return 0;
}

void *ibfs__endpoint_gen_area(struct ibfs_endpoint *ep)
{
	return ep->gen_area;
}

struct ibfs_port *ibfs__endpoint_port(struct ibfs_endpoint *ep)
{
	return ep_port(ep);
}
