/* SPDX-License-Identifier: MIT */
/*
 * In-band network telemetry (INT) stamped by the Ethernet switch, as HPCC
 * reads it (Li et al., "HPCC: High Precision Congestion Control", SIGCOMM
 * 2019, section 3): at the dequeue of a frame that carries a telemetry
 * field, the egress port appends one hop record with the time, what the
 * port has transmitted so far and its queue length, and the link rate
 * they are read against. The record keeps them divided by
 * the link rate (struct ibfs_int, fabric/packet.h): the time the port has
 * spent serializing frames so far, and the time the bytes queued behind
 * the frame take to leave, both in picoseconds modulo 2^32.
 *
 * The queue is the port's, every priority's frames together (the paper's
 * qLen is the egress port's), counted as the buffer holds them; the busy
 * time counts every frame the egress scheduler sends, preamble and gap
 * included, so that a port sending back to back is busy all the time.
 * A frame with IBFS_INT_MAX_HOPS records already, or carrying an echoed
 * copy (IBFS_INT_ECHO: an ACK), passes unstamped.
 */
#include "switch/eth_int.h"

#include <stdlib.h>

#include "switch/eth_switch_int.h"

int ibfs__eth_switch_set_int(struct ibfs_eth_switch *sw, int on)
{
	free(sw->int_busy);
	sw->int_busy = NULL;
	if (!on)
		return 0;
	sw->int_busy = calloc((size_t)sw->dev.nports + 1,
			      sizeof(*sw->int_busy));
	return sw->int_busy ? 0 : -1;
}

uint64_t ibfs__eth_switch_int_queue(const struct ibfs_eth_switch *sw,
				    uint64_t *stamps)
{
	*stamps = sw->int_stamps;
	return sw->int_queued;
}

/* Bytes queued at output `out` behind frame p, which is being dequeued. */
static uint64_t int_queued(const struct ibfs_eth_switch *sw, int out,
			   const struct ibfs_packet *p)
{
	const struct eth_sw_port *sp = &sw->port[out];
	uint64_t q = 0;

	for (int c = 0; c < IBFS_ETH_PRIOS; c++)
		q += sp->q[c].bytes;
	return q - ibfs__eth_frame_bytes(p);
}

void ibfs__eth_int_tx(struct ibfs_eth_switch *sw, int out,
		      struct ibfs_packet *p)
{
	struct ibfs_port *op = &sw->dev.ports[out];
	ibfs_time_t busy = sw->int_busy[out];

	sw->int_busy[out] = busy + ibfs__port_ser(op, p->wire_bytes);
	if (!(p->xh & IBFS_XH_INT) || p->intr.nhop >= IBFS_INT_MAX_HOPS)
		return;
	struct ibfs_int_hop *h = &p->intr.hop[p->intr.nhop++];
	uint64_t queued = int_queued(sw, out, p);
	ibfs_time_t drain = ibfs__port_ser(op, queued);

	sw->int_queued += queued;
	sw->int_stamps++;
	h->ts = (uint32_t)sw->dev.fab->eq.now;
	h->busy = (uint32_t)busy;
	h->qdrain = drain > UINT32_MAX ? UINT32_MAX : (uint32_t)drain;
}
