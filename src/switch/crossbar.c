/* SPDX-License-Identifier: MIT */
/*
 * The crossbar of a switch and the arbiter of each output port.
 *
 * Each input port keeps one FIFO per VL (switch.c); only the packet at the
 * head of a FIFO may leave, so a head waiting for a busy or credit-starved
 * output holds back everything behind it on that input VL: head-of-line
 * blocking comes from this structure, nothing scripts it. A head whose
 * routing decision is done (ready_at) requests its output.
 *
 * An output grants a request when its transmitter is idle, when the
 * output VL holds credits for the whole packet (virtual cut-through: the
 * packet must fit in the next buffer, IBA 7.9.4), and when the packet's
 * tail can arrive in time: the output must not finish before the input
 * tail has arrived, so it starts no earlier than tail_in - ser_out (this
 * only bites when the output is faster than the input). The crossbar joins
 * each input to at most one output at a time, for the whole packet, as in
 * an input-queued crossbar without speedup; the input's buffer space is
 * freed (and credits go back upstream) when the packet's last byte has
 * left the output.
 *
 * Among the requests of one output: VL15 first, then VL arbitration
 * (fabric/vl_arbiter.c) picks the VL, and within a VL a round-robin
 * pointer over the (input, VL) requests picks the input, which makes the
 * arbiter fair (each backlogged input gets one packet in turn).
 *
 * Requests are bit sets per output and output VL, so one arbitration costs
 * a scan of a few 64-bit words rather than of every input.
 */
#include "switch/switch_int.h"

static void xb_arm_wake(struct ibfs_switch *sw, int o, ibfs_time_t t);

/* Marks input `in` busy (connected to an output) or free in in_free. */
static void xb_set_busy(struct ibfs_switch *sw, int in, int busy)
{
	uint32_t bit = (uint32_t)in << sw->sshift;
	uint64_t m = (uint64_t)sw->in_bits << (bit % 64);

	if (busy)
		sw->in_free[bit / 64] &= ~m;
	else
		sw->in_free[bit / 64] |= m;
}

void ibfs__sw_in_free_init(struct ibfs_switch *sw)
{
	for (int in = 0; in <= sw->n; in++)
		xb_set_busy(sw, in, 0);
}

/*
 * Request bit `bit` ((in << sshift) + slot) asks for p's output, which it
 * returns; inline in its callers, whose last call (an arbitration) is
 * then a tail call.
 */
static inline __attribute__((always_inline)) struct sw_out *
xb_request(struct ibfs_switch *sw, uint32_t bit, const struct ibfs_packet *p)
{
	unsigned o = p->out_port;
	struct sw_out *so = &sw->out[o];
	unsigned os = 0;
	uint64_t *w;
	uint64_t m = 1ULL << (bit % 64);

	/*
	 * An output with `fast` set is in a switch with one data VL and its
	 * request words inside each output (xb_arbitrate_one): an even bit
	 * is a data FIFO's, whose packets go out on VL 0, slot 0.
	 */
	if (__builtin_expect(so->fast && !(bit & 1), 1)) {
		w = &so->req_in[bit / 64];
	} else {
		os = (unsigned)ibfs__sw_slot(sw, p->out_vl);
		w = &so->req[(size_t)os * (size_t)sw->nw + bit / 64];
	}

	if (!(*w & m)) {
		*w |= m;
		so->nreq++;
		/*
		 * go is nreq > 0 && !cur (switch_int.h): with a request now,
		 * it is !cur. An OR, not a test: at saturation whether the
		 * output was idle goes either way.
		 */
		sw->go[o / 64] |= (uint64_t)!so->cur << (o % 64);
		so->slot[os].nreq++;
	}
	return so;
}

/*
 * Output `so` (number o) has just been requested by request bit `bit`:
 * arbitrates it when that input is free and the output feeds no packet.
 * This is ibfs__sw_arbitrate's test, made on the lines at hand: the
 * output has a request now, so its go bit is !so->cur.
 */
static inline __attribute__((always_inline)) void
xb_requested(struct ibfs_switch *sw, uint32_t bit, const struct sw_out *so,
	     unsigned o)
{
	/* One test for both: at saturation each goes either way. */
	if (ibfs__sw_bit_free(sw, bit) & !so->cur)
		ibfs__sw_arbitrate_out(sw, o);
}

/* The head of (in, slot) has made its routing decision. */
static void xb_ready_ev(void *obj, uint64_t arg)
{
	struct ibfs_switch *sw = obj;
	struct sw_queue *q = &sw->q[arg];
	struct ibfs_packet *p = q->head;

	if (!p)
		return;
	q->h_tail_at = p->tail_at; /* ready now (struct sw_queue) */
	xb_requested(sw, (uint32_t)arg, xb_request(sw, (uint32_t)arg, p),
		     p->out_port);
}

/*
 * Head p of FIFO b waits for its routing decision (only after a latency
 * change while it was on the way): its request is scheduled. Out of line,
 * so that the common case calls nothing before its arbitration.
 */
static void __attribute__((noinline))
xb_head_wait(struct ibfs_switch *sw, uint32_t b, const struct ibfs_packet *p)
{
	sw->q[b].h_tail_at = IBFS_TIME_NEVER; /* not ready */
	ibfs__eq_schedule(&sw->dev.fab->eq, p->ready_at, xb_ready_ev, sw, b);
}

/*
 * p is the new head of FIFO b: copies what the arbiter reads of it and
 * requests its output, or schedules the request for when its routing
 * decision is made. Returns the output when it requested, else NULL.
 */
static inline __attribute__((always_inline)) struct sw_out *
xb_head_set(struct ibfs_switch *sw, uint32_t b, struct ibfs_packet *p,
	    ibfs_time_t now)
{
	struct sw_queue *q = &sw->q[b];

	q->h_wire = p->wire_bytes;
	q->h_blocks = p->blocks;
	q->h_out = p->out_port;
	q->h_vl = p->vl;
	if (__builtin_expect(p->ready_at > now, 0)) {
		xb_head_wait(sw, b, p);
		return NULL;
	}
	q->h_tail_at = p->tail_at;
	return xb_request(sw, b, p);
}

void ibfs__sw_head_changed(struct ibfs_switch *sw, int in, int slot)
{
	uint32_t b = ((uint32_t)in << sw->sshift) + (uint32_t)slot;
	struct ibfs_packet *p = sw->q[b].head;
	struct sw_out *so;

	if (p && (so = xb_head_set(sw, b, p, sw->dev.fab->eq.now)))
		xb_requested(sw, b, so, p->out_port);
}

/*
 * The same for an enqueue into an empty FIFO (switch.c), which knows the
 * head is p: it is neither read back nor tested.
 */
void ibfs__sw_head_new(struct ibfs_switch *sw, uint32_t b,
		       struct ibfs_packet *p)
{
	struct sw_out *so = xb_head_set(sw, b, p, sw->dev.fab->eq.now);

	if (so)
		xb_requested(sw, b, so, p->out_port);
}

static void xb_wake_ev(void *obj, uint64_t arg)
{
	struct ibfs_switch *sw = obj;
	struct sw_out *so = &sw->out[arg];

	if (so->wake_at != sw->dev.fab->eq.now)
		return; /* superseded */
	so->wake_at = IBFS_TIME_NEVER;
	ibfs__sw_arbitrate(sw, (int)arg);
}

/*
 * Out of line: only a request held back by the tail rule (an output
 * faster than its input) comes here, and inlined into the arbitration its
 * call kept more of the scan's values on the stack.
 */
static void __attribute__((noinline))
xb_arm_wake(struct ibfs_switch *sw, int o, ibfs_time_t t)
{
	struct sw_out *so = &sw->out[o];

	if (t >= so->wake_at && so->wake_at > sw->dev.fab->eq.now)
		return;
	so->wake_at = t;
	ibfs__eq_schedule(&sw->dev.fab->eq, t, xb_wake_ev, sw, (uint64_t)o);
}

/*
 * Whether the head of q may start on port now as far as flow control
 * goes. The credit check of credits.c (credit_may_send) is done here on
 * the copied fields, so the packet is not read; another flow control is
 * asked with the packet.
 */
static inline int xb_may_send(const struct ibfs_port *port,
			      const struct sw_queue *q)
{
	if (__builtin_expect(port->flow != &ibfs__ib_credit_flow, 0))
		return port->flow->may_send(port, q->head);
	return q->h_vl == IBFS_VL15 ||
	       port->vls[q->h_vl].credits >= (int32_t)q->h_blocks;
}

/*
 * The first request of output VL slot `os` of output so (port `port`), in
 * round-robin order, that may go at `now`; -1 if none. Sets *starved when
 * a request waits for credits only, and lowers *wake to when a request
 * held back by the tail rule may go.
 *
 * The scan visits the word holding the round-robin start (from its bit
 * on), the other words in turn, and that word again below its bit: nw + 1
 * words at most, each masked with the free inputs. The common case finds
 * its request in the first word, so the loop is shaped to test that word
 * before anything about wrapping is computed.
 */
static inline __attribute__((always_inline)) int
xb_scan_inl(const struct ibfs_switch *sw, struct sw_out *so,
	    struct ibfs_port *port, unsigned os, ibfs_time_t now, int *starved,
	    ibfs_time_t *wake)
{
	unsigned nw = (unsigned)sw->nw;
	const uint64_t *bits = so->req + (size_t)os * nw;
	/* rr is one past the last bit granted: wrap past the last input. */
	unsigned from = so->slot[os].rr;
	unsigned w = from / 64;

	if (w >= nw) {
		from = 0;
		w = 0;
	}
	uint64_t m = bits[w] & sw->in_free[w] & (~0ULL << (from % 64));

	for (unsigned left = nw;;) {
		while (m) {
			unsigned b = w * 64 + (unsigned)__builtin_ctzll(m);
			const struct sw_queue *q = &sw->q[b];

			m &= m - 1;

			if (!xb_may_send(port, q)) {
				*starved = 1;
				continue;
			}
			ibfs_time_t ser = ibfs__port_ser(port, q->h_wire);

			if (now + ser < q->h_tail_at) {
				if (q->h_tail_at - ser < *wake)
					*wake = q->h_tail_at - ser;
				continue;
			}
			return (int)b;
		}
		if (!left)
			return -1;
		if (++w == nw)
			w = 0;
		m = bits[w] & sw->in_free[w];
		/* Back at the first word: the bits below the start. */
		if (!--left)
			m &= (1ULL << (from % 64)) - 1;
	}
}

/*
 * The scan out of line, for VL15 and for several data VLs; the one data
 * VL of the general path has it inline (xb_arbitrate_general), where
 * *starved and *wake stay in registers, and the straight path
 * (xb_arbitrate_one) makes its own.
 */
static int __attribute__((noinline))
xb_scan(const struct ibfs_switch *sw, struct sw_out *so,
	struct ibfs_port *port, unsigned os, ibfs_time_t now, int *starved,
	ibfs_time_t *wake)
{
	return xb_scan_inl(sw, so, port, os, now, starved, wake);
}

/*
 * Grants request bit b of slot os: the packet leaves its FIFO for the
 * output, whose transmitter starts it, and the next head of the FIFO
 * requests its output. Inline at the one call, the end of an arbitration.
 */
static inline __attribute__((always_inline)) void
xb_send(struct ibfs_switch *sw, unsigned o, struct sw_out *so,
	struct ibfs_port *port, unsigned os, unsigned b, int high)
{
	unsigned in = b >> sw->sshift;
	struct sw_queue *q = &sw->q[b];
	struct ibfs_packet *p = q->head;

	q->head = p->next;
	if (!q->head)
		q->tail = NULL;
	sw->buffered--;
	p->next = NULL;
	so->req[(size_t)os * (size_t)sw->nw + b / 64] &= ~(1ULL << (b % 64));
	so->nreq--;
	so->slot[os].nreq--;
	so->slot[os].rr = (uint16_t)(b + 1);
	so->cur = 1;
	sw->go[o / 64] &= ~(1ULL << (o % 64));
	sw->cur_in[o] = (uint8_t)in;
	sw->ends[sw->ends_in++] = (uint8_t)o;
	so->cur_in_vl = p->in_vl;
	so->cur_blocks = p->blocks;
	so->cur_orig = p->mc_orig;
	xb_set_busy(sw, (int)in, 1);
	if (high >= 0)
		ibfs__vlarb_charge(&so->arb, high, p->wire_bytes);
	ibfs__port_wait_stop(port);
	/*
	 * The next head's request: input `in` now feeds this output, so
	 * it arbitrates nothing until the input is free again. It is made
	 * before the send, which touches nothing of the crossbar, so that
	 * the send is a tail call; a head still waiting for its routing
	 * decision schedules its request after the send, so that the events
	 * both schedule keep their order.
	 */
	struct ibfs_packet *next = q->head;
	ibfs_time_t now = sw->dev.fab->eq.now;

	if (__builtin_expect(next && next->ready_at > now, 0)) {
		ibfs__port_send(port, p);
		xb_head_set(sw, b, next, now);
		return;
	}
	if (next)
		xb_head_set(sw, b, next, now);
	ibfs__port_send(port, p);
}

/*
 * What an arbitration's scans found, short of a grant, shared by both
 * paths so that they cannot differ: a request held back by the tail rule
 * re-arbitrates when it may go, and with no grant (b < 0) PortXmitWait
 * counts while a request waits for credits only and stops otherwise.
 * Returns 1 when nothing is granted.
 */
static inline __attribute__((always_inline)) int
xb_no_grant(struct ibfs_switch *sw, unsigned o, struct ibfs_port *port, int b,
	    int starved, ibfs_time_t wake)
{
	if (wake != IBFS_TIME_NEVER)
		xb_arm_wake(sw, (int)o, wake);
	if (b >= 0)
		return 0;
	if (starved)
		ibfs__port_wait_start(port);
	else
		ibfs__port_wait_stop(port);
	return 1;
}

/*
 * The arbitration of output o in general: VL15 first (IBA 7.6.9: it is
 * not subject to VL arbitration), then the one data VL the tables serve,
 * or VL arbitration among several. Out of line: the common case, one data
 * VL and no VL15 request, takes a shorter way (xb_arbitrate_one, or the
 * one-VL branch of xb_arbitrate_general).
 */
static void __attribute__((noinline))
xb_arbitrate_all(struct ibfs_switch *sw, unsigned o, struct sw_out *so,
		 struct ibfs_port *port, ibfs_time_t now)
{
	unsigned dv = (unsigned)sw->data_vls;
	int starved = 0;
	ibfs_time_t wake = IBFS_TIME_NEVER;
	unsigned os;
	int b, high = -1;

	if (so->slot[dv].nreq) {
		b = xb_scan(sw, so, port, dv, now, &starved, &wake);
		if (b >= 0) {
			os = dv;
			goto send;
		}
	}
	if (so->one) {
		/* One data VL that the tables serve: no arbitration state. */
		b = so->slot[0].nreq ?
			    xb_scan(sw, so, port, 0, now, &starved, &wake) :
			    -1;
		os = 0;
	} else {
		int cand[IBFS_MAX_VLS];
		uint32_t ready = 0;

		for (unsigned s = 0; s < dv; s++) {
			cand[s] = so->slot[s].nreq ?
					  xb_scan(sw, so, port, s, now,
						  &starved, &wake) :
					  -1;
			if (cand[s] >= 0)
				ready |= 1u << s;
		}
		high = 0;
		int vl = ready ? ibfs__vlarb_pick(&so->arb, ready, &high) :
				 -1;

		os = (unsigned)vl;
		b = vl < 0 ? -1 : cand[vl];
	}
	if (xb_no_grant(sw, o, port, b, starved, wake))
		return;
send:
	xb_send(sw, o, so, port, os, (unsigned)b, high);
}

/*
 * The one data VL of the general path, where an output's request words
 * may lie outside it (more than 63 ports): one scan and one grant, with
 * the scan's results in registers. Out of line, so that the straight path
 * (ibfs__sw_arbitrate_out) saves no registers for it.
 */
static void __attribute__((noinline))
xb_arbitrate_general(struct ibfs_switch *sw, unsigned o, struct sw_out *so,
		     struct ibfs_port *port, ibfs_time_t now)
{
	/*
	 * With one data VL (so->one), slot 1 is VL15's: every request is
	 * in slot 0 exactly when VL15 has none. One test of the output's
	 * first line then tells the common case, and slot 0 has requests.
	 */
	if (__builtin_expect(!so->one || so->nreq != so->slot[0].nreq, 0)) {
		xb_arbitrate_all(sw, o, so, port, now);
		return;
	}
	int starved = 0;
	ibfs_time_t wake = IBFS_TIME_NEVER;
	int b = xb_scan_inl(sw, so, port, 0, now, &starved, &wake);

	if (xb_no_grant(sw, o, port, b, starved, wake))
		return;
	xb_send(sw, o, so, port, 0, (unsigned)b, -1);
}

/*
 * A grant of the straight path whose FIFO has a next head: the send, then
 * the next head (its request, or the request it schedules when it still
 * waits for its routing decision, in xb_send's order). The send reads and
 * changes nothing of the crossbar and a request schedules nothing, so a
 * request made after the send is the same run.
 *
 * The next head's line is read long after it was queued: at scale it has
 * left the caches, and it is the arbiter's largest stall. It is fetched
 * before the send, whose work then hides the miss; and the packet behind
 * it, which its own grant reads a packet time or more from now, is
 * fetched too (the next head's line when there is none: a prefetch of
 * NULL would not fault, but may cost a page walk).
 * Out of line: the next head's set-up follows its send, which inline
 * would not be a tail call of xb_arbitrate_one's (whose calls all are).
 */
static void __attribute__((noinline))
xb_send_then_head(struct ibfs_switch *sw, struct ibfs_port *port,
		  struct ibfs_packet *p, uint32_t b, struct ibfs_packet *next,
		  ibfs_time_t now)
{
	__builtin_prefetch(next);
	ibfs__port_send(port, p);
	if (__builtin_expect(next->ready_at > now, 0)) {
		xb_head_set(sw, b, next, now);
	} else {
		/*
		 * xb_head_set and xb_request for slot 0's layout: the next
		 * head's request is the same bit of its output's words.
		 */
		struct sw_queue *q = &sw->q[b];
		unsigned no = next->out_port;
		struct sw_out *ns = &sw->out[no];
		uint64_t *w = &ns->req_in[b / 64];
		uint64_t bit = 1ULL << (b % 64);

		q->h_wire = next->wire_bytes;
		q->h_blocks = next->blocks;
		q->h_out = next->out_port;
		q->h_vl = next->vl;
		q->h_tail_at = next->tail_at;
		if (!(*w & bit)) {
			*w |= bit;
			ns->nreq++;
			/* xb_request's go bit, without a test. */
			sw->go[no / 64] |= (uint64_t)!ns->cur << (no % 64);
			ns->slot[0].nreq++;
		}
	}
	struct ibfs_packet *nn = next->next;

	__builtin_prefetch(nn ? nn : next);
}

/*
 * The straight path of the common case: output so has fast set (one data
 * VL that its tables serve, request words inside it, sw->nw <= 2, 2
 * slots an input), no VL15 request, and InfiniBand's credits. It makes
 * the general path's choice with what it knows of that layout:
 *
 * - The scan of slot 0 takes no loop and no branch: masks pick, in
 *   xb_scan_inl's order for nw = 2, the word holding the round-robin
 *   start from its bit on, the other word, then the start's word below
 *   its bit (with nw = 1 req_in[1] is VL15's word, empty here, and rr
 *   is at most 64, whose word 1 is empty and so starts at bit 0 of word
 *   0, as the scan's wrap does). Bits at or past (n + 1) x 2 are never
 *   set.
 * - Only the first request in that order is tried. When it may not go
 *   now (no credits, the tail rule, a serialization time not in the
 *   port's memo) or a PortXmitWait is on, the general path arbitrates
 *   from the start: nothing has been changed yet, and it tries that
 *   same request first, then the others.
 * - Its grant is xb_send's with os = 0, in = b / 2 (sshift 1) and no VL
 *   arbitration to charge; the FIFO's next head, if any, is set up after
 *   the send (xb_send_then_head).
 *
 * Every call it makes is a tail call: the registers it saves are for the
 * values a grant holds at once (ibfs__sw_arbitrate_out, where it is
 * inline). The words are read from req_in and free_in: with
 * nw <= 2 the request words of every output and the free-input mask
 * are inside (switch.c).
 */
static inline __attribute__((always_inline)) void
xb_arbitrate_one(struct ibfs_switch *sw, unsigned o, struct sw_out *so,
		 struct ibfs_port *port, ibfs_time_t now)
{
	/* rr is one past the last bit granted: 128 wraps to 0. */
	unsigned from = so->slot[0].rr % 128;
	uint64_t v0 = so->req_in[0] & sw->free_in[0];
	uint64_t v1 = so->req_in[1] & sw->free_in[1];

	if (!(v0 | v1)) {
		/* Every request's input is busy: no grant, no wait. */
		ibfs__port_wait_stop(port);
		return;
	}
	/*
	 * The first request at or after bit `from` of the 128 bits, or else
	 * the first of all (the wrap), chosen with masks: word tests would
	 * go either way at random. f1 is all ones when the start is in
	 * word 1.
	 */
	uint64_t f1 = -(uint64_t)(from / 64);
	uint64_t up = ~0ULL << (from % 64);
	uint64_t a0 = v0 & up & ~f1;
	uint64_t a1 = v1 & (up | ~f1);
	uint64_t wrap = -(uint64_t)((a0 | a1) == 0);
	uint64_t s0 = a0 | (v0 & wrap);
	uint64_t s1 = a1 | (v1 & wrap);
	/* The request's word wi: 1 when s0 has none. */
	unsigned wi = s0 == 0;
	uint64_t m = s0 | (s1 & -(uint64_t)wi);
	/* The request: bit b of the slot's bits, in word wi. */
	unsigned b = wi * 64 + (unsigned)__builtin_ctzll(m);
	uint64_t bit = m & -m;
	struct sw_queue *q = &sw->q[b];

	/* Slot 0 holds no VL15 packet: the credits decide. */
	if (__builtin_expect(!ibfs__port_flow_ib(port) ||
				     port->vls[q->h_vl].credits <
					     (int32_t)q->h_blocks ||
				     q->h_wire != port->ser_memo_bytes ||
				     now + port->ser_memo < q->h_tail_at ||
				     port->waiting,
			     0)) {
		xb_arbitrate_general(sw, o, so, port, now);
		return;
	}
	/*
	 * The grant, in an order that lets each value die early (every
	 * register is taken otherwise): the output's fields, the input's,
	 * the FIFO's, then the send and the next head.
	 */
	struct ibfs_packet *p = q->head;

	sw->go[o / 64] &= ~(1ULL << (o % 64));
	so->req_in[wi] &= ~bit;
	so->nreq--;
	so->slot[0].nreq--;
	so->slot[0].rr = (uint16_t)(b + 1);
	so->cur = 1;
	sw->cur_in[o] = (uint8_t)(b / 2);
	sw->ends[sw->ends_in++] = (uint8_t)o;
	so->cur_in_vl = p->in_vl;
	so->cur_blocks = p->blocks;
	so->cur_orig = p->mc_orig;
	/*
	 * xb_set_busy: the input's two bits, b (slot 0, even) and b + 1,
	 * which share word wi.
	 */
	sw->free_in[wi] &= ~(bit * 3);
	sw->buffered--;

	/*
	 * Whether p is the FIFO's last packet is told by the entry's tail,
	 * in the line the grant has read, not by p->next, in p's line,
	 * which may still be on its way: the test goes either way at
	 * saturation, and a wrong guess then resolves at once. p, the
	 * tail, has a NULL next (sw_enqueue), so nothing of p is read or
	 * written on that side.
	 */
	if (q->tail == p) {
		q->head = NULL;
		q->tail = NULL;
		ibfs__port_send(port, p);
		return;
	}
	struct ibfs_packet *next = p->next;

	q->head = next;
	p->next = NULL;
	/*
	 * now read again, not kept across the grant (a register less): the
	 * same time, which the grant's byte stores, for all the compiler
	 * knows, may have changed.
	 */
	xb_send_then_head(sw, port, p, b, next, sw->dev.fab->eq.now);
}

/*
 * The arbitration proper, for an output with requests and an idle
 * transmitter as far as the bits tell (ibfs__sw_arbitrate, switch_int.h,
 * tests them inline so that the many calls for busy outputs and outputs
 * without requests cost no call; xb_requested and xb_free_slot make the
 * same test on what they hold). The common case takes the straight
 * path (xb_arbitrate_one), anything else the general one, which makes
 * the same choice in that case (check_switch_paths' fast_path_same_run and
 * fast_path_same_run_more).
 */
void ibfs__sw_arbitrate_out(struct ibfs_switch *sw, unsigned o)
{
	struct sw_out *so = &sw->out[o];
	struct ibfs_port *port = &sw->dev.ports[o];

	/* A busy output is arbitrated again at its end (tx_ready). */
	if (port->tx_busy)
		return;
	if (__builtin_expect(!port->up, 0)) {
		/* Nothing leaves a down port: discard (port_state.c). */
		ibfs__sw_out_down(sw, (int)o);
		return;
	}
	/*
	 * The go bit said so->nreq > 0: ibfs__sw_arbitrate's and
	 * xb_free_slot's test, or xb_requested's (a request just made).
	 */
	ibfs_time_t now = sw->dev.fab->eq.now;

	/*
	 * With one data VL, slot 1 is VL15's: with no request there, every
	 * request is in slot 0 (and nreq, not read here, is slot 0's).
	 */
	if (__builtin_expect(so->fast && !so->slot[1].nreq, 1))
		xb_arbitrate_one(sw, o, so, port, now);
	else
		xb_arbitrate_general(sw, o, so, port, now);
}

/*
 * The head of FIFO q, whose input has just been freed by output o, asks
 * its output to arbitrate: unless it wants o (which arbitrates anyway,
 * at tx_ready), its output's go bit is clear (ibfs__sw_arbitrate's test,
 * made here) or it still waits for its routing decision.
 */
static inline __attribute__((always_inline)) void
xb_free_slot(struct ibfs_switch *sw, const struct sw_queue *q, unsigned o)
{
	unsigned ho = q->h_out;
	unsigned go = (unsigned)(sw->go[ho / 64] >> (ho % 64)) & 1;

	/*
	 * ibfs__sw_arbitrate's go bit is tested with the head and its
	 * output in one test, not three: at saturation each goes either
	 * way. The h_out of an empty FIFO is stale, and only read.
	 */
	if ((q->head != NULL) & (ho != o) & go &&
	    (__builtin_expect(q->h_tail_at != IBFS_TIME_NEVER, 1) ||
	     q->head->ready_at <= sw->dev.fab->eq.now))
		ibfs__sw_arbitrate_out(sw, ho);
}

/* xb_free_slot for FIFOs 0 to last - 1 of an input, in order. */
static void __attribute__((noinline))
xb_free_slots(struct ibfs_switch *sw, const struct sw_queue *q, int last,
	      unsigned o)
{
	for (int s = 0; s < last; s++)
		xb_free_slot(sw, &q[s], o);
}

/*
 * A multicast copy has left: its input is free again (unless the copy
 * did not hold it), and its original's buffer space is freed with the
 * last copy. Out of line, so that tx_done keeps fewer registers.
 */
static void __attribute__((noinline))
xb_mc_done(struct ibfs_switch *sw, int in, struct ibfs_port *inp,
	   struct sw_out *so)
{
	struct ibfs_packet *orig = so->cur_orig;

	if (so->mc_free)
		so->mc_free = 0;
	else
		xb_set_busy(sw, in, 0);

	if (--orig->mc_refs == 0) {
		ibfs__port_consume_blocks(inp, so->cur_in_vl, so->cur_blocks);
		sw->dev.fab->pkts_retired++;
		ibfs__packet_free(sw->dev.fab, orig);
	}
}

void ibfs__sw_tx_done(struct ibfs_device *dev, struct ibfs_port *out)
{
	struct ibfs_switch *sw = (struct ibfs_switch *)dev;
	unsigned o = out->num;
	struct sw_out *so = &sw->out[o];
	/*
	 * The input, from the switch's line of them (sw->cur_in): the loads
	 * of its FIFO and port need not wait for the output's line. Read
	 * before the test of cur, which almost always passes.
	 */
	int in = sw->cur_in[o];
	struct ibfs_port *inp = &dev->ports[in];

	if (!so->cur)
		return;
	so->cur = 0;
	ibfs__sw_prefetch_end(sw, sw->ends[(uint8_t)(++sw->ends_out)]);
	/* The go bit is now nreq > 0: set without a test, as xb_request. */
	sw->go[o / 64] |= (uint64_t)(so->nreq != 0) << (o % 64);
	/*
	 * The head of the input's data FIFO is most often granted below,
	 * when the input asks its output (xb_free_slot): its line, which
	 * at scale has left the caches while it waited, is fetched before
	 * the buffer's release, whose work then hides the miss (the FIFO's
	 * entry itself when it is empty: no prefetch of NULL).
	 */
	const struct sw_queue *q0 = ibfs__sw_queue(sw, in, 0);

	__builtin_prefetch(q0->head ? (const void *)q0->head : q0);
	ibfs__sw_prefetch_ask(sw, q0->h_out);
	if (__builtin_expect(so->cur_orig != NULL, 0)) {
		xb_mc_done(sw, in, inp, so);
	} else {
		xb_set_busy(sw, in, 0);
		ibfs__port_consume_blocks(inp, so->cur_in_vl, so->cur_blocks);
	}
	/*
	 * The input is free again: the outputs its heads want may use it,
	 * in slot order. An input's FIFOs are contiguous (switch_int.h);
	 * an arbitration may grant one of them, which changes its entry
	 * but not where the entries are, and fills no FIFO that was empty
	 * (it schedules what it starts; nothing arrives in the meantime).
	 * So the last FIFO with a head, found first, is the last that may
	 * ask, and it asks in a tail call: with one data VL (2 slots, at
	 * a stride of 2) and VL15 idle, the data FIFO is the only one.
	 */
	if (__builtin_expect(sw->nslots == 2, 1)) {
		const struct sw_queue *q2 = &sw->q[(size_t)in * 2];

		if (__builtin_expect(!q2[1].head, 1)) {
			xb_free_slot(sw, q2, o);
			return;
		}
	}
	const struct sw_queue *q = ibfs__sw_queue(sw, in, 0);
	int last = sw->nslots - 1;

	while (last > 0 && !q[last].head)
		last--;
	if (__builtin_expect(last > 0, 0))
		xb_free_slots(sw, q, last, o);
	xb_free_slot(sw, &q[last], o);
}

void ibfs__sw_tx_ready(struct ibfs_device *dev, struct ibfs_port *out)
{
	ibfs__sw_arbitrate((struct ibfs_switch *)dev, out->num);
}
