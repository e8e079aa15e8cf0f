/* SPDX-License-Identifier: MIT */
/*
 * Priority-based flow control (IEEE 802.1Qbb) as the link-level flow
 * control of an Ethernet link: a struct ibfs_flow_ops beside InfiniBand's
 * credits (link.h), so that the switch and the hosts plug into the same
 * link layer.
 *
 * Each Ethernet port gets a block of PFC state whose first member is its
 * own copy of the ops table, and port->flow points at that copy: the
 * hooks find the state from the port without a field in struct ibfs_port
 * (so InfiniBand's port layout and hot path stay as they are). A port is
 * Ethernet when its ops were copied from ibfs__eth_pfc_flow
 * (ibfs__pfc_of).
 *
 * The model:
 * - Sender side: per priority, the pause set by the PFC frames received
 *   on the port. A paused priority may not start a new frame; the frame on
 *   the wire finishes (the link layer asks may_send only at a frame's
 *   start). A pause of q quanta lasts q x 512 bit times from the frame's
 *   arrival (802.1Qbb 36.1.3, ibfs__pfc_quanta_ps), a timer of 0 (XON)
 *   ends it at once.
 * - Receiver side: the device asks (ibfs__pfc_request) that the peer hold
 *   or resume a priority. The PFC frame goes on the port's own
 *   transmitter: at once when it is idle, else at the end of the frame it
 *   is sending, ahead of the next data frame. It is a 64-byte MAC control
 *   frame (ibfs__eth_wire_bytes(IBFS_PFC_FRAME) bytes on the wire) whose
 *   class-enable vector names the priorities it sets; it acts at the peer
 *   when its last byte has arrived (serialization plus the cable).
 * - While XOFF holds, the port sends it again before the pause runs out,
 *   at half the pause time (a common choice of PFC implementations, so
 *   that a lost or late refresh still leaves half a pause of margin).
 * - Priorities outside `enable` are lossy: never paused, never pausing;
 *   the device drops instead.
 */
#ifndef IBFS_FABRIC_PFC_H
#define IBFS_FABRIC_PFC_H

#include <stdint.h>

#include "fabric/eth.h"
#include "fabric/link.h"

/*
 * What a switch must have received of a frame to route and hash it:
 * preamble and SFD 8, MAC header 14, 802.1Q tag 4, IPv4 20, UDP 8 (the
 * 5-tuple of ibfs__eth_flow_hash). A cut-through switch is told this much
 * after the frame's start (the port's ser_lrh, link.c's header time).
 */
#define IBFS_ETH_CUT_HDR                                                   \
	(IBFS_ETH_PREAMBLE + IBFS_ETH_HDR + IBFS_ETH_VLAN + IBFS_IPV4_HDR + \
	 IBFS_UDP_HDR)

/* The largest pause a frame asks for (a 16-bit timer). */
#define IBFS_PFC_QUANTA_MAX 0xFFFF

/* Counters of one port, per priority. */
struct ibfs_pfc_stats {
	uint64_t tx_frames[IBFS_ETH_PRIOS]; /* PFC frames naming it, sent */
	uint64_t rx_frames[IBFS_ETH_PRIOS]; /* and received */
	uint64_t tx_xoff[IBFS_ETH_PRIOS];   /* of tx_frames: those XOFF */
	ibfs_time_t paused[IBFS_ETH_PRIOS]; /* time the sender was paused */
};

/*
 * Told of every PFC frame a port sends, when it starts (a capture writes
 * it: ibfs__capture_pfc): the class-enable vector and the eight timers.
 */
typedef void (*ibfs_pfc_frame_fn)(void *ctx, const struct ibfs_port *out,
				  ibfs_time_t start, uint8_t enable,
				  const uint16_t quanta[IBFS_ETH_PRIOS]);

struct ibfs_pfc_port {
	struct ibfs_flow_ops ops; /* first: port->flow points here */
	struct ibfs_port *port;
	uint8_t enable;   /* priorities under PFC (lossless) */
	uint8_t paused;   /* sender: priorities the peer holds */
	uint8_t xoff;     /* receiver: priorities we ask the peer to hold */
	uint8_t owed;     /* receiver: changed, frame not sent yet */
	uint16_t quanta;  /* the timer of an XOFF we send */
	ibfs_time_t until[IBFS_ETH_PRIOS]; /* sender: end of the pause */
	ibfs_time_t since[IBFS_ETH_PRIOS]; /* sender: start of the pause */
	ibfs_time_t refresh_at; /* receiver: next XOFF refresh, or NEVER */
	struct ibfs_pfc_stats st;
	ibfs_pfc_frame_fn on_frame; /* optional (ibfs__pfc_observe) */
	void *on_frame_ctx;
};

/* The template every Ethernet port's ops are copied from. */
extern const struct ibfs_flow_ops ibfs__eth_pfc_flow;

/*
 * Makes `port` an Ethernet port with PFC on the priorities in `enable`
 * (0: a lossy port), whose XOFF frames carry `quanta` (0 takes
 * IBFS_PFC_QUANTA_MAX). Sets the port's header time to IBFS_ETH_CUT_HDR.
 * Returns 0, or -1 when out of memory. Idempotent: a second call changes
 * enable and quanta.
 */
int ibfs__pfc_attach(struct ibfs_port *port, uint8_t enable, uint16_t quanta);
/* Gives the port back InfiniBand's credits and frees the state. */
void ibfs__pfc_detach(struct ibfs_port *port);
/* The port's PFC state, or NULL when it is not an Ethernet port. */
struct ibfs_pfc_port *ibfs__pfc_of(const struct ibfs_port *port);
/*
 * The device on `in` asks the peer to hold (xoff 1) or resume (0) priority
 * `prio`. Returns 1 if a frame will go (the state changed), 0 if it was
 * already so, -1 if the priority is not under PFC or the port not
 * Ethernet.
 */
int ibfs__pfc_request(struct ibfs_port *in, int prio, int xoff);
/* Sets (fn not NULL) or clears the hook told of the port's PFC frames. */
void ibfs__pfc_observe(struct ibfs_port *port, ibfs_pfc_frame_fn fn,
		       void *ctx);
/* 1 while the peer holds `prio` on `out` (now). */
int ibfs__pfc_paused(const struct ibfs_port *out, int prio);
/* Time `out` was paused on `prio`, a pause in progress included. */
ibfs_time_t ibfs__pfc_paused_time(const struct ibfs_port *out, int prio);

#endif
