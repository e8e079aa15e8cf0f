/* SPDX-License-Identifier: MIT */
/*
 * The Ethernet switch's state, shared by its files: eth_switch.c (device,
 * forwarding), eth_buffer.c (admission and PFC thresholds), eth_egress.c
 * (queues and scheduler), eth_ecn.c (ECN marking at the queues).
 */
#ifndef IBFS_SWITCH_ETH_SWITCH_INT_H
#define IBFS_SWITCH_ETH_SWITCH_INT_H

#include "fabric/pfc.h"
#include "fabric/rng.h"
#include "switch/eth_ecn.h"
#include "switch/eth_switch.h"

/* One egress queue: a FIFO of frames linked by p->next. */
struct eth_queue {
	struct ibfs_packet *head, *tail;
	uint64_t bytes;   /* frames queued or being sent, for thresholds */
	int64_t deficit;  /* DWRR */
	uint8_t visited;  /* DWRR: quantum given for this visit */
};

/* What the frame being sent on an output needs once it has left. */
struct eth_sending {
	uint16_t in_port;
	uint8_t prio, in_vl;
	uint16_t blocks;
	uint32_t bytes;
};

/* Per port: its egress queues and its ingress accounting. */
struct eth_sw_port {
	struct eth_queue q[IBFS_ETH_PRIOS];
	struct eth_sending cur;
	uint8_t rr;               /* DWRR pointer */
	ibfs_time_t wake_at;      /* pending wake-up, NEVER if none */
	/* Ingress, per priority: bytes in the reserved minimum, the shared
	 * pool and the headroom, and the headroom's size. */
	uint64_t rsv[IBFS_ETH_PRIOS], shr[IBFS_ETH_PRIOS];
	uint64_t hdr[IBFS_ETH_PRIOS], hdr_cap[IBFS_ETH_PRIOS];
	uint8_t xoff;             /* priorities we hold at the peer */
	uint32_t pipe;
	struct ibfs_eth_prio_stats st[IBFS_ETH_PRIOS];
	uint64_t ecn_marks[IBFS_ETH_PRIOS]; /* frames this port made CE */
};

struct ibfs_eth_switch {
	struct ibfs_device dev;
	struct ibfs_eth_profile prof;
	const struct ibfs_eth_routes *routes;
	struct eth_sw_port *port;  /* [0..nports] */
	uint64_t shared;           /* pool of each pipe */
	uint64_t *pipe_used;       /* shared bytes in use, per pipe */
	uint64_t used, peak;       /* all bytes held */
	uint32_t *spray;           /* round-robin pointer per host */
	struct ibfs_rng rng;
	struct ibfs_eth_ecn ecn;   /* marking (eth_ecn.c); prios 0: none */
	struct ibfs_rng ecn_rng;
	/* Telemetry (eth_int.c): each port's serialization time so far,
	 * ps; NULL when the switch stamps none. The bytes queued behind
	 * the stamped frames, summed, and their number. */
	uint64_t *int_busy;
	uint64_t int_queued, int_stamps;
};

/* eth_buffer.c */
int ibfs__eth_buf_setup(struct ibfs_eth_switch *sw, struct ibfs_diag *d);
/* Takes `bytes` for a frame from `in` on `prio` toward output `out`:
 * 0, or -1 when it must be dropped (counted there). */
int ibfs__eth_buf_admit(struct ibfs_eth_switch *sw, int in, int prio,
			int out, uint32_t bytes);
void ibfs__eth_buf_release(struct ibfs_eth_switch *sw, int in, int prio,
			   uint32_t bytes);

/* eth_ecn.c: frame p of output `out` sees q bytes of its queue. */
void ibfs__eth_ecn_mark(struct ibfs_eth_switch *sw, int out,
			struct ibfs_packet *p, uint64_t q);

/* Marks p when its priority is marked and the queue is looked at `at`. */
static inline void ibfs__eth_ecn_at(struct ibfs_eth_switch *sw, int out,
				    struct ibfs_packet *p, uint64_t q,
				    enum ibfs_eth_ecn_at at)
{
	if ((sw->ecn.prios >> (p->vl & 7) & 1) && sw->ecn.at == at)
		ibfs__eth_ecn_mark(sw, out, p, q);
}

/* eth_egress.c */
void ibfs__eth_enqueue(struct ibfs_eth_switch *sw, int out,
		       struct ibfs_packet *p);
void ibfs__eth_kick(struct ibfs_eth_switch *sw, int out);
void ibfs__eth_tx_done(struct ibfs_eth_switch *sw, int out);
/* Output `out` went down: its queued frames are discarded. */
void ibfs__eth_flush(struct ibfs_eth_switch *sw, int out);

/* eth_int.c: frame p is dequeued for `out` (called with int_busy set). */
void ibfs__eth_int_tx(struct ibfs_eth_switch *sw, int out,
		      struct ibfs_packet *p);

#endif
