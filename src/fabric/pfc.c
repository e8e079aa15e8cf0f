/* SPDX-License-Identifier: MIT */
/*
 * PFC (IEEE 802.1Qbb) as struct ibfs_flow_ops: pause state per port and
 * priority, PFC frames sent on the port's own transmitter and acting at
 * the peer on arrival, XON, expiry and refresh (the model: pfc.h).
 */
#include "fabric/pfc.h"

#include <stdlib.h>

#include "fabric/fabric.h"

static inline struct ibfs_pfc_port *pfc_state(const struct ibfs_port *port)
{
	return (struct ibfs_pfc_port *)(uintptr_t)port->flow;
}

static uint64_t pfc_bps(const struct ibfs_port *port)
{
	return port->rate.bits_den ? port->rate.bits_num / port->rate.bits_den
				   : 0;
}

static int pfc_may_send(const struct ibfs_port *out,
			const struct ibfs_packet *p)
{
	const struct ibfs_pfc_port *pp = pfc_state(out);
	unsigned c = p->vl & (IBFS_ETH_PRIOS - 1);

	if (!(pp->paused & (1u << c)))
		return 1;
	/* The expiry's event may not have run yet at its own time. */
	return pp->until[c] <= out->fab->eq.now;
}

static void pfc_on_send(struct ibfs_port *out, const struct ibfs_packet *p)
{
	(void)out;
	(void)p;
}

/* The frame occupies input buffer; its device drops it if it must. */
static int pfc_on_arrive(struct ibfs_port *in, const struct ibfs_packet *p)
{
	struct ibfs_port_vl *v = &in->vls[p->vl];

	v->buf_used += p->blocks;
	if (v->buf_used > v->buf_top)
		v->buf_top = v->buf_used;
	return 0;
}

static void pfc_on_free(struct ibfs_port *in, int vl, uint32_t blocks)
{
	in->vls[vl].buf_used -= blocks;
}

/* The pause of priority c on `out` ends now (at `end`): counted, sent. */
static void pfc_unpause(struct ibfs_pfc_port *pp, unsigned c, ibfs_time_t end)
{
	pp->st.paused[c] += end - pp->since[c];
	pp->paused &= (uint8_t)~(1u << c);
	pp->until[c] = end;
}

/* A pause runs out: arg is its end time << 3 | priority. */
static void pfc_expire(void *obj, uint64_t arg)
{
	struct ibfs_port *out = obj;
	struct ibfs_pfc_port *pp = ibfs__pfc_of(out);
	unsigned c = (unsigned)(arg & 7);
	ibfs_time_t end = arg >> 3;

	if (!pp || !(pp->paused & (1u << c)) || pp->until[c] != end)
		return; /* refreshed, or ended by XON */
	pfc_unpause(pp, c, end);
	ibfs__port_may_send_again(out);
}

/*
 * A PFC frame's last byte reached `obj`, the sender of the data: arg is
 * the class-enable vector, the XOFF classes << 8, the quanta << 16.
 */
static void pfc_frame_arrive(void *obj, uint64_t arg)
{
	struct ibfs_port *out = obj;
	struct ibfs_pfc_port *pp = ibfs__pfc_of(out);
	unsigned vec = arg & 0xFF, off = (arg >> 8) & 0xFF;
	uint16_t q = (uint16_t)(arg >> 16);
	ibfs_time_t now = out->fab->eq.now;
	int resumed = 0;

	if (!pp)
		return;
	for (unsigned c = 0; c < IBFS_ETH_PRIOS; c++) {
		unsigned b = 1u << c;

		if (!(vec & b))
			continue;
		pp->st.rx_frames[c]++;
		if (!(pp->enable & b))
			continue; /* not under PFC here: ignored */
		if (off & b) {
			ibfs_time_t end = now + ibfs__pfc_quanta_ps(
							q, pfc_bps(out));

			if (!(pp->paused & b))
				pp->since[c] = now;
			pp->paused |= (uint8_t)b;
			pp->until[c] = end;
			ibfs__eq_schedule(&out->fab->eq, end, pfc_expire, out,
					  end << 3 | c);
		} else if (pp->paused & b) {
			pfc_unpause(pp, c, now);
			resumed = 1;
		}
	}
	if (resumed)
		ibfs__port_may_send_again(out);
}

static void pfc_refresh(void *obj, uint64_t arg);

/*
 * Sends the PFC frame owed by `port`, whose transmitter is idle and up:
 * the classes whose state changed and those held (refreshed together).
 */
static void pfc_send_frame(struct ibfs_port *port, struct ibfs_pfc_port *pp)
{
	struct ibfs_eq *q = &port->fab->eq;
	unsigned vec = pp->owed | pp->xoff;
	ibfs_time_t dur = ibfs__port_ser(port,
					 ibfs__eth_wire_bytes(IBFS_PFC_FRAME));

	pp->owed = 0;
	for (unsigned c = 0; c < IBFS_ETH_PRIOS; c++)
		if (vec & (1u << c)) {
			pp->st.tx_frames[c]++;
			if (pp->xoff & (1u << c))
				pp->st.tx_xoff[c]++;
		}
	if (pp->on_frame) {
		uint16_t quanta[IBFS_ETH_PRIOS];

		for (unsigned c = 0; c < IBFS_ETH_PRIOS; c++)
			quanta[c] = (pp->xoff & vec & (1u << c)) ? pp->quanta
								  : 0;
		pp->on_frame(pp->on_frame_ctx, port, q->now, (uint8_t)vec,
			     quanta);
	}
	ibfs__port_occupy(port, dur);
	ibfs__eq_schedule(q, q->now + dur + port->prop, pfc_frame_arrive,
			  port->peer,
			  vec | (uint64_t)pp->xoff << 8 |
				  (uint64_t)pp->quanta << 16);
	if (pp->xoff) {
		pp->refresh_at = q->now + ibfs__pfc_quanta_ps(pp->quanta,
							      pfc_bps(port)) /
						  2;
		ibfs__eq_schedule(q, pp->refresh_at, pfc_refresh, port,
				  pp->refresh_at);
	} else {
		pp->refresh_at = IBFS_TIME_NEVER;
	}
}

/* Sends now if the transmitter is idle; else on_tx_idle will. */
static void pfc_kick(struct ibfs_port *port, struct ibfs_pfc_port *pp)
{
	if (pp->owed && !port->tx_busy && port->up && port->peer)
		pfc_send_frame(port, pp);
}

/* Half a pause after an XOFF: repeat it while it holds. */
static void pfc_refresh(void *obj, uint64_t arg)
{
	struct ibfs_port *port = obj;
	struct ibfs_pfc_port *pp = ibfs__pfc_of(port);

	if (!pp || pp->refresh_at != arg || !pp->xoff)
		return;
	pp->owed |= pp->xoff;
	pfc_kick(port, pp);
}

static int pfc_on_tx_idle(struct ibfs_port *out)
{
	struct ibfs_pfc_port *pp = pfc_state(out);

	if (!pp->owed || !out->up || !out->peer)
		return 0;
	pfc_send_frame(out, pp);
	return 1;
}

/* A link reinitialised: pauses in force end with it. */
static void pfc_link_reset(struct ibfs_port *out)
{
	struct ibfs_pfc_port *pp = pfc_state(out);
	ibfs_time_t now = out->fab->eq.now;

	for (unsigned c = 0; c < IBFS_ETH_PRIOS; c++)
		if (pp->paused & (1u << c))
			pfc_unpause(pp, c, now);
}

static void pfc_init(struct ibfs_port *port)
{
	(void)port;
}

const struct ibfs_flow_ops ibfs__eth_pfc_flow = {
	.name = "eth-pfc",
	.init = pfc_init,
	.may_send = pfc_may_send,
	.on_send = pfc_on_send,
	.on_arrive = pfc_on_arrive,
	.on_free = pfc_on_free,
	.on_tx_idle = pfc_on_tx_idle,
	.link_reset = pfc_link_reset,
	.keeps_credits = 0,
};

struct ibfs_pfc_port *ibfs__pfc_of(const struct ibfs_port *port)
{
	if (!port || !port->flow ||
	    port->flow->on_arrive != ibfs__eth_pfc_flow.on_arrive)
		return NULL;
	return pfc_state(port);
}

int ibfs__pfc_attach(struct ibfs_port *port, uint8_t enable, uint16_t quanta)
{
	struct ibfs_pfc_port *pp = ibfs__pfc_of(port);

	if (!pp) {
		pp = calloc(1, sizeof(*pp));
		if (!pp)
			return -1;
		pp->ops = ibfs__eth_pfc_flow;
		pp->port = port;
		pp->refresh_at = IBFS_TIME_NEVER;
		for (int c = 0; c < IBFS_VL15; c++)
			port->vls[c].buf_used = 0;
		port->flow = &pp->ops;
	}
	pp->enable = enable;
	pp->quanta = quanta ? quanta : IBFS_PFC_QUANTA_MAX;
	port->ser_lrh = (uint32_t)ibfs__rate_ser_time(port->rate,
						      IBFS_ETH_CUT_HDR);
	return 0;
}

void ibfs__pfc_detach(struct ibfs_port *port)
{
	struct ibfs_pfc_port *pp = ibfs__pfc_of(port);

	if (!pp)
		return;
	port->flow = &ibfs__ib_credit_flow;
	port->ser_lrh = (uint32_t)ibfs__rate_ser_time(port->rate,
						      IBFS_LRH_BYTES);
	free(pp);
}

int ibfs__pfc_request(struct ibfs_port *in, int prio, int xoff)
{
	struct ibfs_pfc_port *pp = ibfs__pfc_of(in);
	unsigned b;

	if (!pp || prio < 0 || prio >= IBFS_ETH_PRIOS)
		return -1;
	b = 1u << prio;
	if (!(pp->enable & b))
		return -1;
	if (!!(pp->xoff & b) == !!xoff)
		return 0;
	pp->xoff = (uint8_t)(xoff ? pp->xoff | b : pp->xoff & ~b);
	pp->owed |= (uint8_t)b;
	pfc_kick(in, pp);
	return 1;
}

void ibfs__pfc_observe(struct ibfs_port *port, ibfs_pfc_frame_fn fn,
		       void *ctx)
{
	struct ibfs_pfc_port *pp = ibfs__pfc_of(port);

	if (!pp)
		return;
	pp->on_frame = fn;
	pp->on_frame_ctx = ctx;
}

int ibfs__pfc_paused(const struct ibfs_port *out, int prio)
{
	struct ibfs_packet p = { .vl = (uint8_t)prio };
	const struct ibfs_pfc_port *pp = ibfs__pfc_of(out);

	return pp && prio >= 0 && prio < IBFS_ETH_PRIOS &&
	       !pfc_may_send(out, &p);
}

ibfs_time_t ibfs__pfc_paused_time(const struct ibfs_port *out, int prio)
{
	const struct ibfs_pfc_port *pp = ibfs__pfc_of(out);
	ibfs_time_t now, t;

	if (!pp || prio < 0 || prio >= IBFS_ETH_PRIOS)
		return 0;
	t = pp->st.paused[prio];
	if (pp->paused & (1u << prio)) {
		now = out->fab->eq.now;
		t += (now < pp->until[prio] ? now : pp->until[prio]) -
		     pp->since[prio];
	}
	return t;
}
