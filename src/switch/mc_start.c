/* SPDX-License-Identifier: MIT */
/*
 * Starting a multicast copy at once (the rest of multicast is in switch.c,
 * sw_multicast, and crossbar.c, xb_mc_done), apart from the crossbar's
 * arbitration, which never calls it.
 */
#include "switch/switch_int.h"

/*
 * Multicast (IBA 18.2.4.3.3): the switch replicates a packet in its
 * crossbar, one read of the input buffer feeding every output the MFT
 * names, so the copies of one packet leave together on the outputs that
 * are idle: a copy whose output is idle, with no request waiting for it
 * and credits for it, starts at once when its input's FIFO (of its VL) is
 * empty, so that it passes nothing queued there, cut through as a unicast
 * packet would (its tail rule included), and does not hold its input; the
 * others wait in the input's FIFO and are granted one at a time as any
 * packet, as all copies were before. A unicast packet arriving behind the
 * copies may meanwhile go to another output (the replication does not
 * occupy the input's read port). A copy started so on a data VL passes
 * through the output's VL arbiter as a granted packet would, with its VL
 * alone ready: the arbiter picks it (or refuses a VL its tables do not
 * serve, whose copy then waits in the FIFO, as it would be) and is
 * charged its bytes (IBA 7.6.9), so that the weights hold for the
 * packets of other VLs that follow.
 */
int ibfs__sw_mc_start(struct ibfs_switch *sw, int in, struct ibfs_packet *p)
{
	unsigned o = p->out_port;
	struct sw_out *so = &sw->out[o];
	struct ibfs_port *port = &sw->dev.ports[o];
	ibfs_time_t now = sw->dev.fab->eq.now;

	const struct sw_queue *q =
		ibfs__sw_queue(sw, in, ibfs__sw_slot(sw, p->in_vl));

	if (q->head || so->cur || so->nreq || so->flushing || p->ready_at > now ||
	    !ibfs__port_can_send(port, p) ||
	    now + ibfs__port_ser(port, p->wire_bytes) < p->tail_at)
		return 0;
	int high = -1;

	if (p->vl < sw->data_vls && !so->one &&
	    ibfs__vlarb_pick(&so->arb, 1u << p->vl, &high) < 0)
		return 0;
	sw->go[o / 64] &= ~(1ULL << (o % 64));
	sw->cur_in[o] = (uint8_t)in;
	sw->ends[sw->ends_in++] = (uint8_t)o;
	so->cur = 1;
	so->mc_free = 1;
	so->cur_in_vl = p->in_vl;
	so->cur_blocks = p->blocks;
	so->cur_orig = p->mc_orig;
	if (high >= 0)
		ibfs__vlarb_charge(&so->arb, high, p->wire_bytes);
	ibfs__port_wait_stop(port);
	ibfs__port_send(port, p);
	return 1;
}
