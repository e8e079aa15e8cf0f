/* SPDX-License-Identifier: MIT */
/*
 * The Ethernet switch's shared packet buffer: admission by dynamic
 * thresholds, PFC thresholds at ingress and the headroom behind them.
 *
 * The buffer (profile.buffer bytes, split evenly among the pipelines) is
 * accounted in bytes of frames (destination MAC to FCS), each frame in
 * full from the moment the switch takes it in. It holds:
 * - a reserved minimum per ingress port and priority (profile.reserved),
 *   used first by every frame;
 * - headroom per ingress port and lossless priority, used only past the
 *   XOFF threshold, for what still arrives while the PFC frame travels;
 * - the rest, a shared pool per pipeline.
 * Lossy priorities: a frame that needs the shared pool is admitted while
 * its egress queue holds at most alpha x (the pool's free bytes), the
 * dynamic threshold of Choudhury and Hahne ("Dynamic queue length
 * thresholds for shared-memory packet switches", IEEE/ACM ToN 6(2),
 * 1998); beyond it, or with the pool full, it is tail-dropped and counted
 * at its egress port and priority.
 * Lossless priorities: the ingress (port, priority)'s shared use is held
 * to a dynamic threshold of its own (pfc_alpha x free pool). A frame that
 * would pass it goes into the headroom, and the switch asks the peer for
 * XOFF as soon as the headroom is in use or the shared use has reached the
 * threshold; XON follows once the headroom is empty and the shared use is
 * resume_offset below the threshold (or nothing). A frame that finds the
 * headroom full is dropped and counted (hdrm_drops): with the headroom of
 * ibfs__eth_headroom that does not happen.
 */
#include "switch/eth_switch_int.h"

#include <stdlib.h>

static uint64_t buf_min(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* Bytes sent at `port`'s rate in `t` ps, rounded up. */
static uint64_t buf_rate_bytes(const struct ibfs_port *port, ibfs_time_t t)
{
	unsigned __int128 bits = (unsigned __int128)t * port->rate.bits_num;
	unsigned __int128 den = (unsigned __int128)port->rate.bits_den * 8 *
				1000000000000ull;

	return den ? (uint64_t)((bits + den - 1) / den) : 0;
}

/*
 * Headroom of a lossless priority on ingress port `in`: what can still
 * arrive after the switch decides XOFF, in the worst case. The delay
 * components are those of the usual PFC headroom derivation (as laid out
 * in "Congestion Management in Ethernet Storage Networks", ch. 7, fig.
 * 7-2: a largest frame of ours delays the pause frame, the pause frame
 * itself, the cable both ways at 5 ns/m, the peer's response time, and
 * the peer's largest frame, which the pause does not cut), in bytes at
 * the link rate:
 *   rate x (2 x cable + latency + H + response)
 *   + ibfs__eth_wire_bytes(mtu)              our frame
 *   + ibfs__eth_wire_bytes(64)               the PFC frame
 *   + 2 x ibfs__eth_wire_bytes(peer_mtu)     the peer's frames
 * Two terms are this model's: latency + H (the header a cut-through
 * switch needs, IBFS_ETH_CUT_HDR, or a whole frame store-and-forward)
 * covers frames already coming in but not yet taken in when XOFF is
 * decided, and the peer's second frame is the one whose admission made
 * the switch decide XOFF, which goes whole into the headroom. That
 * derivation also counts IEEE 802.3's upper bounds of interface delay
 * and of response (at 100 Gb/s 201,728 bit times, 394 quanta), which
 * real PHYs and MACs may take; the simulated links have no interface
 * delay and the peers react on arrival, so the profiles keep
 * peer_response 0, and this is the exact bound of the model (a test
 * shows that less drops). HPCC's simulator takes 3 x rate x delay
 * instead, a rule of thumb with a margin.
 */
uint64_t ibfs__eth_headroom(const struct ibfs_port *in,
			    const struct ibfs_eth_profile *prof)
{
	uint32_t peer_mtu = prof->peer_mtu ? prof->peer_mtu : prof->mtu;
	uint32_t hdr = prof->store_forward ? ibfs__eth_wire_bytes(peer_mtu) :
					     IBFS_ETH_CUT_HDR;
	ibfs_time_t t = 2 * in->prop + prof->latency + prof->peer_response +
			ibfs__rate_ser_time(in->rate, hdr);

	return buf_rate_bytes(in, t) + ibfs__eth_wire_bytes(prof->mtu) +
	       ibfs__eth_wire_bytes(IBFS_PFC_FRAME) +
	       2 * (uint64_t)ibfs__eth_wire_bytes(peer_mtu);
}

int ibfs__eth_buf_setup(struct ibfs_eth_switch *sw, struct ibfs_diag *d)
{
	const struct ibfs_eth_profile *pr = &sw->prof;
	int n = sw->dev.nports;
	uint32_t pipes = pr->pipes ? pr->pipes : 1;
	uint64_t fixed = 0;

	for (int i = 1; i <= n; i++) {
		struct eth_sw_port *sp = &sw->port[i];
		struct ibfs_port *in = &sw->dev.ports[i];

		sp->pipe = (uint32_t)((uint64_t)(i - 1) * pipes / (uint64_t)n);
		if (!in->peer)
			continue;
		for (int c = 0; c < IBFS_ETH_PRIOS; c++) {
			fixed += pr->reserved;
			if (!(pr->lossless & (1u << c)))
				continue;
			sp->hdr_cap[c] = pr->headroom ?
						 pr->headroom :
						 ibfs__eth_headroom(in, pr);
			fixed += sp->hdr_cap[c];
		}
	}
	if (fixed > pr->buffer)
		return ibfs__diag(d, NULL, 0,
				  "switch profile %s: %llu bytes of buffer do "
				  "not hold the %llu bytes of reserved minima "
				  "and headroom",
				  pr->name, (unsigned long long)pr->buffer,
				  (unsigned long long)fixed);
	sw->shared = (pr->buffer - fixed) / pipes;
	sw->pipe_used = calloc(pipes, sizeof(*sw->pipe_used));
	if (!sw->pipe_used)
		return ibfs__diag(d, NULL, 0, "out of memory");
	return 0;
}

/* The shared pool's free bytes of `sp`'s pipeline. */
static uint64_t buf_free(const struct ibfs_eth_switch *sw,
			 const struct eth_sw_port *sp)
{
	return sw->shared - sw->pipe_used[sp->pipe];
}

static uint64_t buf_pfc_thr(const struct ibfs_eth_switch *sw,
			    const struct eth_sw_port *sp)
{
	return buf_free(sw, sp) * sw->prof.pfc_alpha_num /
	       sw->prof.pfc_alpha_den;
}

/* Where `rest` bytes beyond the reserve go: 0 placed, -1 drop. */
static int buf_place(struct ibfs_eth_switch *sw, struct eth_sw_port *sp,
		     int prio, int out, uint64_t rest)
{
	uint64_t free = buf_free(sw, sp);

	if (sw->prof.lossless & (1u << prio)) {
		if (sp->shr[prio] + rest <= buf_pfc_thr(sw, sp) &&
		    rest <= free) {
			sp->shr[prio] += rest;
			sw->pipe_used[sp->pipe] += rest;
		} else if (sp->hdr[prio] + rest <= sp->hdr_cap[prio]) {
			sp->hdr[prio] += rest;
		} else {
			sp->st[prio].hdrm_drops++;
			return -1;
		}
		return 0;
	}
	struct eth_sw_port *op = &sw->port[out];
	uint64_t thr = free * sw->prof.alpha_num / sw->prof.alpha_den;

	if (rest > free || op->q[prio].bytes + rest > thr) {
		op->st[prio].drops++;
		return -1;
	}
	sp->shr[prio] += rest;
	sw->pipe_used[sp->pipe] += rest;
	return 0;
}

/* XOFF when the headroom is in use or the threshold reached. */
static void buf_check_xoff(struct ibfs_eth_switch *sw, int in, int prio)
{
	struct eth_sw_port *sp = &sw->port[in];
	uint8_t b = (uint8_t)(1u << prio);

	if (!(sw->prof.lossless & b) || (sp->xoff & b))
		return;
	if (sp->hdr[prio] == 0 && sp->shr[prio] < buf_pfc_thr(sw, sp))
		return;
	sp->xoff |= b;
	ibfs__pfc_request(&sw->dev.ports[in], prio, 1);
}

static void buf_check_xon(struct ibfs_eth_switch *sw, int in, int prio)
{
	struct eth_sw_port *sp = &sw->port[in];
	uint8_t b = (uint8_t)(1u << prio);

	if (!(sp->xoff & b) || sp->hdr[prio] != 0)
		return;
	if (sp->shr[prio] != 0 &&
	    sp->shr[prio] + sw->prof.resume_offset > buf_pfc_thr(sw, sp))
		return;
	sp->xoff &= (uint8_t)~b;
	ibfs__pfc_request(&sw->dev.ports[in], prio, 0);
}

int ibfs__eth_buf_admit(struct ibfs_eth_switch *sw, int in, int prio,
			int out, uint32_t bytes)
{
	struct eth_sw_port *sp = &sw->port[in];
	uint64_t room = sw->prof.reserved > sp->rsv[prio] ?
				sw->prof.reserved - sp->rsv[prio] :
				0;
	uint64_t take = buf_min(bytes, room);

	if (take < bytes && buf_place(sw, sp, prio, out, bytes - take) < 0)
		return -1;
	sp->rsv[prio] += take;
	sw->used += bytes;
	if (sw->used > sw->peak)
		sw->peak = sw->used;
	buf_check_xoff(sw, in, prio);
	return 0;
}

/* Gives back the headroom first, then the shared pool, then the reserve. */
void ibfs__eth_buf_release(struct ibfs_eth_switch *sw, int in, int prio,
			   uint32_t bytes)
{
	struct eth_sw_port *sp = &sw->port[in];
	uint64_t left = bytes, k;

	k = buf_min(left, sp->hdr[prio]);
	sp->hdr[prio] -= k;
	left -= k;
	k = buf_min(left, sp->shr[prio]);
	sp->shr[prio] -= k;
	sw->pipe_used[sp->pipe] -= k;
	left -= k;
	sp->rsv[prio] -= buf_min(left, sp->rsv[prio]);
	sw->used -= bytes;
	buf_check_xon(sw, in, prio);
}
