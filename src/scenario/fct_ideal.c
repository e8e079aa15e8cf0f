/* SPDX-License-Identifier: MIT */
/*
 * The ideal flow completion time of a flow of <pattern kind="flows">: the
 * time its RDMA WRITE takes alone on the idle fabric along its path, in
 * closed form from the model's own figures (the ports' rates, cables,
 * header times and the switches' latencies, the model's framing of ib or
 * roce), as the datacenter literature divides an FCT by the FCT of the
 * flow alone to get its slowdown (HPCC's simulator: the pair's base RTT
 * plus the flow's bytes with their headers at the bottleneck rate). The
 * HCAs' stages are those of their timing profiles (src/hca/profile.c;
 * none in `ideal`): the sender's doorbell, PCIe read and send pipeline,
 * the receiver's pipeline and ACK generation, and at the sender again
 * the ACK's pipeline and the CQE's write and pick-up.
 */
#include <stdlib.h>
#include <string.h>

#include "fabric/eth.h"
#include "fabric/link.h"
#include "hca/hca.h"
#include "scenario/results_int.h"

/* Wire bytes of a packet of the model with extension headers xh. */
static uint32_t fct_wire(const struct ibfs_results *r, uint16_t xh,
			 uint32_t payload)
{
	struct ibfs_packet p;

	memset(&p, 0, sizeof(p));
	p.lnh = 2; /* IBA local: BTH after the LRH (IBA 7.7.3) */
	p.xh = xh;
	p.payload_len = payload;
	if (r->sc->model == IBFS_MODEL_ROCE)
		ibfs__roce_finish(&p, r->sc->eth.pcp, r->sc->eth.ipv6);
	else
		ibfs__packet_finish(&p);
	return p.wire_bytes;
}

/*
 * A message's packets in three classes: 0 its first (or only) packet,
 * 1 its middle ones, 2 its last; each class's wire bytes, payload bytes
 * and count.
 */
struct fct_pkts {
	uint32_t wire[3];
	uint32_t payload[3];
	uint64_t count[3];
	uint64_t n;
};

/* A WRITE of `bytes` at the path MTU (IBA 9.7.1: First with its RETH,
 * Middles, Last; one Only packet when it fits). */
static void fct_packets(const struct ibfs_results *r, uint64_t bytes,
			struct fct_pkts *k)
{
	uint64_t mtu = (uint64_t)r->sc->topo->def.mtu;
	uint64_t n = bytes ? (bytes + mtu - 1) / mtu : 1;

	memset(k, 0, sizeof(*k));
	k->n = n;
	k->count[0] = 1;
	if (n == 1) {
		k->payload[0] = (uint32_t)bytes;
		k->wire[0] = fct_wire(r, IBFS_XH_RETH, (uint32_t)bytes);
		return;
	}
	k->payload[0] = k->payload[1] = (uint32_t)mtu;
	k->payload[2] = (uint32_t)(bytes - (n - 1) * mtu);
	k->wire[0] = fct_wire(r, IBFS_XH_RETH, (uint32_t)mtu);
	k->wire[1] = fct_wire(r, 0, (uint32_t)mtu);
	k->wire[2] = fct_wire(r, 0, k->payload[2]);
	k->count[1] = n - 2;
	k->count[2] = 1;
}

/* How many of packets [lo, hi] (0-based, inclusive) are of class c. */
static uint64_t fct_in(const struct fct_pkts *k, int c, uint64_t lo,
		       uint64_t hi)
{
	uint64_t a = c == 0 ? 0 : c == 1 ? 1 : k->n - 1;
	uint64_t b = c == 0 ? 0 : c == 1 ? k->n - 2 : k->n - 1;

	if (!k->count[c] || hi < a || lo > b)
		return 0;
	return (hi < b ? hi : b) - (lo > a ? lo : a) + 1;
}

/* a's rate below b's (rates are exact fractions). */
static int fct_slower(struct ibfs_rate a, struct ibfs_rate b)
{
	return (unsigned __int128)a.bits_num * b.bits_den <
	       (unsigned __int128)b.bits_num * a.bits_den;
}

/* The slowest link of out[0..nh). */
static struct ibfs_rate fct_bottleneck(struct ibfs_port *const *out,
				       size_t nh)
{
	struct ibfs_rate b = out[0]->rate;

	for (size_t j = 1; j < nh; j++)
		if (fct_slower(out[j]->rate, b))
			b = out[j]->rate;
	return b;
}

/*
 * What the switch at the far end of o waits for before it forwards a
 * packet of `bytes` wire bytes: its header (the port's header time,
 * ser_lrh) when cut-through, the whole packet when store-and-forward
 * (the receiving port's rx_at_tail), and its latency (rx_delay): link.h.
 */
static ibfs_time_t fct_wait(const struct ibfs_port *o, uint32_t bytes)
{
	return (o->peer_rx_tail ? ibfs__rate_ser_time(o->rate, bytes) :
				  o->ser_lrh) +
	       o->peer_rx_delay;
}

/*
 * What the hops add along out[0..nh) (each the port a hop leaves by) to
 * the way of a packet of `bytes` wire bytes once it is serialized: each
 * link's propagation and each switch's wait (fct_wait).
 */
static ibfs_time_t fct_hops(struct ibfs_port *const *out, size_t nh,
			    uint32_t bytes)
{
	ibfs_time_t t = 0;

	for (size_t j = 0; j < nh; j++) {
		t += out[j]->prop;
		if (j + 1 < nh) /* the last: the HCA, at the tail */
			t += fct_wait(out[j], bytes);
	}
	return t;
}

/* Time from the post until packet 0 is ready (src/hca/sq.c). */
static ibfs_time_t fct_ready0(const struct fct_pkts *k,
			      const struct ibfs_hca_profile *pf)
{
	ibfs_time_t t = pf->doorbell + pf->tx_pkt;

	if (k->payload[0]) {
		t += pf->dma_read;
		if (pf->pcie_bps)
			t += ibfs__rate_ser_time(ibfs__rate_bps(pf->pcie_bps),
						 k->payload[0]);
	}
	return t;
}

/* The serialization of packets [lo, hi] at rate b (0 when lo > hi). */
static ibfs_time_t fct_ser(const struct fct_pkts *k, struct ibfs_rate b,
			   uint64_t lo, uint64_t hi)
{
	ibfs_time_t t = 0;

	for (int c = 0; lo <= hi && c < 3; c++)
		t += fct_in(k, c, lo, hi) * ibfs__rate_ser_time(b, k->wire[c]);
	return t;
}

/*
 * From the post to the last packet's tail at the destination. The sender
 * (src/hca/sq.c) has packet i ready at R_i = doorbell + dma_read +
 * pcie(payload of packets 0..i) + tx_pkt, its PCIe reads back to back
 * (pcie 0 with unlimited PCIe); the link sends it at max(R_i, the end of
 * packet i - 1). On a path of one rate every hop forwards packet i as its
 * output ends packet i - 1, so the last tail comes at
 *   max over i of (R_i + ser(packets i..n-1) + the hops for packet i),
 * the hops for packet i holding it whole at each store-and-forward switch
 * (fct_hops with its size), and over the middle packets (all alike) that
 * is largest at an end of their run: i in {0, 1, n - 2, n - 1} suffices. *paced is set when the
 * largest is not at i = 0, when PCIe and not the link sets the pace.
 * Where a link after the slowest is faster, the last packet leaves it
 * sooner than serialized at the bottleneck: the form then exceeds the
 * model's time by less than a packet's serialization.
 */
static ibfs_time_t fct_data(struct ibfs_port *const *out, size_t nh,
			    const struct fct_pkts *k,
			    const struct ibfs_hca_profile *pf, int *paced)
{
	struct ibfs_rate b = fct_bottleneck(out, nh);
	struct ibfs_rate pcie = ibfs__rate_bps(pf->pcie_bps);
	uint64_t cand[4] = {0, 1, k->n >= 2 ? k->n - 2 : 0, k->n - 1};
	ibfs_time_t best = 0, rd[3];

	for (int c = 0; c < 3; c++)
		rd[c] = pf->pcie_bps && k->payload[c] ?
				ibfs__rate_ser_time(pcie, k->payload[c]) : 0;
	*paced = 0;
	for (int i = 0; i < 4; i++) {
		uint64_t x = cand[i] < k->n ? cand[i] : k->n - 1;
		int cx = x == 0 ? 0 : x + 1 == k->n ? 2 : 1;
		ibfs_time_t f = fct_ready0(k, pf) - rd[0] +
				fct_ser(k, b, x, k->n - 1) +
				fct_hops(out, nh, k->wire[cx]);

		for (int c = 0; c < 3; c++)
			f += fct_in(k, c, 0, x) * rd[c];
		if (i == 0)
			best = f;
		else if (f > best) {
			best = f;
			*paced = 1;
		}
	}
	return best;
}

/*
 * The sender's packets on its link (src/hca/sq.c): packet i starts at
 * S(i) = r0 + ser(packets 0..i-1) when the link sets the pace, or at its
 * read's end R(i) = r0 + pcie(payloads 1..i) when PCIe does (paced).
 */
struct fct_send {
	const struct fct_pkts *k;
	struct ibfs_rate b;    /* the path's bottleneck */
	ibfs_time_t r0;        /* packet 0 ready (fct_ready0) */
	ibfs_time_t rd[3];     /* PCIe read of a packet of each class */
	int paced;
};

static ibfs_time_t fct_s0(const struct fct_send *s, uint64_t i)
{
	ibfs_time_t t = s->r0;

	if (!s->paced)
		return i ? t + fct_ser(s->k, s->b, 0, i - 1) : t;
	for (int c = 0; i && c < 3; c++)
		t += fct_in(s->k, c, 1, i) * s->rd[c];
	return t;
}

/* The last packet's start, and (*run) the start of the run of packets
 * sent back to back that ends with it. */
static ibfs_time_t fct_s0_last(const struct fct_send *s, ibfs_time_t *run)
{
	uint64_t n = s->k->n;
	ibfs_time_t last = fct_s0(s, n - 1), prev_end;

	*run = s->r0;
	if (!s->paced || n < 2)
		return last;
	prev_end = fct_s0(s, n - 2) + fct_ser(s->k, s->b, n - 2, n - 2);
	if (prev_end >= last) {
		*run = fct_s0(s, n - 2);
		return prev_end;
	}
	*run = last;
	return last;
}

/*
 * Under ib, the mid-flow ACKs' flow-control packets. A node that takes
 * in an ACK frees its buffer and returns the credits upstream on the
 * ACK's way, which is the flow's data direction (IBA 7.9.4): the sender
 * when it processes the ACK, each switch when it has sent the ACK on.
 * While a link sends the flow's packets back to back, such a 6-byte
 * packet goes between two of them and holds every later one back by its
 * serialization (ser_fcp). The ACKs asked for every ack_every packets
 * (src/hca/sq.c) that reach a link's node in the run of back-to-back
 * packets that ends with the last one (the whole flow when the link sets
 * the pace; under PCIe's pace at most the last two) each delay the last
 * packet so; the delays of the links do not add (a link after a held one
 * has the slack to take its own), so the flow ends later by the most any
 * link took:
 *   max over links j of (such ACKs at node j) x ser_fcp.
 * Only two links are sure to carry both the flow and its ACKs the other
 * way: the sender's, and the last switch's to the destination (the
 * routes between may differ each way, as ftree's do); those are counted,
 * and the last one sees the most ACKs in time when the link sets the
 * pace. Where the routes between are the same both ways, a switch
 * between may hold a PCIe-paced flow's last packet by one more ser_fcp,
 * which the ideal then leaves out.
 */
static ibfs_time_t fct_fcp_delay(const struct ibfs_results *r,
				 struct ibfs_port *const *out, size_t nh,
				 const struct fct_send *sd,
				 const struct ibfs_hca_profile *ps,
				 const struct ibfs_hca_profile *pd)
{
	const struct fct_pkts *k = sd->k;
	uint32_t every = ps->ack_every ? ps->ack_every : 1;
	uint32_t ack = fct_wire(r, IBFS_XH_AETH, 0);
	ibfs_time_t run, last = fct_s0_last(sd, &run), worst = 0;
	ibfs_time_t to_dst = 0, dst_wait;

	for (size_t j = 0; j + 1 < nh; j++)
		to_dst += out[j]->prop + fct_wait(out[j], k->wire[0]);
	to_dst += out[nh - 1]->prop;
	dst_wait = pd->rx_pkt + (pd->ack_gen > out[nh - 1]->peer->ser_fcp ?
				 pd->ack_gen : out[nh - 1]->peer->ser_fcp);
	/* Link j: its node takes ACK m at F; the run and the last packet
	 * start on it the hops before j after they do on the first. */
	for (size_t e = 0; e < 2 && (e == 0 || nh > 1); e++) {
		size_t j = e ? nh - 1 : 0;
		ibfs_time_t before = 0, back = 0;
		uint64_t got = 0;

		for (size_t l = 0; l < j; l++)
			before += out[l]->prop + fct_wait(out[l], k->wire[0]);
		/* The ACK's way back from the destination to node j. */
		for (size_t l = nh - 1; l > j; l--)
			back += out[l]->peer->prop +
				fct_wait(out[l]->peer, ack);
		/* Node j takes it in: the sender at its tail and receive
		 * pipeline; a switch at the end of sending it on. */
		if (j == 0)
			back += out[0]->peer->prop + ps->rx_pkt +
				ibfs__rate_ser_time(out[0]->peer->rate, ack);
		else
			back += out[j]->peer->prop +
				fct_wait(out[j]->peer, ack) +
				ibfs__rate_ser_time(out[j - 1]->peer->rate,
						    ack);
		for (uint64_t i = every - 1; i + 1 < k->n; i += every) {
			ibfs_time_t f = fct_s0(sd, i) + to_dst +
					fct_ser(k, sd->b, i, i) + dst_wait +
					back;

			if (f >= last + before)
				break;
			got += f >= run + before;
		}
		if (got * out[j]->ser_fcp > worst)
			worst = got * out[j]->ser_fcp;
	}
	return worst;
}

/*
 * The time between the tails of the last two packets at the destination:
 * the last one's serialization when the link sets the pace; under PCIe's
 * pace (paced) its start waits for its read too (fct_data).
 */
static ibfs_time_t fct_last_gap(const struct fct_pkts *k, struct ibfs_rate b,
				const struct ibfs_hca_profile *pf, int paced)
{
	ibfs_time_t prev, step;

	if (k->n < 2)
		return 0;
	prev = step = fct_ser(k, b, k->n - 2, k->n - 2);
	if (paced && pf->pcie_bps && k->payload[2]) {
		ibfs_time_t rd = ibfs__rate_ser_time(
			ibfs__rate_bps(pf->pcie_bps), k->payload[2]);

		if (rd > step)
			step = rd;
	}
	return step + fct_ser(k, b, k->n - 1, k->n - 1) - prev;
}

/*
 * When the destination starts the ACK of the last packet, from its
 * receive (rx_pkt after its tail). Its transmitter sends, under ib, a
 * flow-control packet for each packet it takes in (ser_fcp, before any
 * waiting data packet: IBA 7.9.4) and the ACKs, each ack_gen after the
 * packet it answers; pending ACKs coalesce (src/hca/rc_responder.c).
 * Alone that is max(ack_gen, ser_fcp). When the packet before the last
 * asked for an ACK too (every ack_every packets), that ACK and its
 * flow-control packet may still hold the transmitter: the four are
 * served here in order, flow-control packets first. `gap` is the time
 * between the two packets' tails.
 */
static ibfs_time_t fct_ack_start(ibfs_time_t fcp, ibfs_time_t gen,
				 ibfs_time_t ack_ser, ibfs_time_t gap,
				 int two)
{
	/* ready times: FCP 1, ACK 1, FCP 2, ACK 2 (1: the packet before) */
	ibfs_time_t ready[4] = {0, gen, gap, gap + gen};
	ibfs_time_t len[4] = {fcp, ack_ser, fcp, ack_ser};
	int done[4] = {!two || !fcp, !two, !fcp, 0};
	ibfs_time_t free_at = 0;

	for (;;) {
		int pick = -1;

		/* What is ready when the transmitter frees, FCPs first. */
		for (int i = 0; i < 4; i++)
			if (!done[i] && ready[i] <= free_at &&
			    (pick < 0 || (i % 2 == 0 && pick % 2)))
				pick = i;
		for (int i = 0; pick < 0 && i < 4; i++)
			if (!done[i] && (pick < 0 || ready[i] < ready[pick]))
				pick = i;
		ibfs_time_t at = ready[pick] > free_at ? ready[pick] : free_at;

		/* An ACK that goes after the last packet came answers it. */
		if (pick == 3 || (pick == 1 && at >= gap))
			return at - gap;
		done[pick] = 1;
		free_at = at + len[pick];
	}
}

/* The HCA profile of node (its own, the fabric's default, or ideal). */
static const struct ibfs_hca_profile *fct_profile(const struct ibfs_results *r,
						  int node)
{
	const struct ibfs_topology *t = r->sc->topo;
	const char *name = t->nodes[node].profile ? t->nodes[node].profile :
			   t->def.profile;
	const struct ibfs_hca_profile *pf = ibfs__hca_profile(name);

	return pf ? pf : ibfs__hca_profile(NULL);
}

/*
 * The ports a shortest path (fewest links, as HPCC's simulator takes a
 * pair's base RTT) from src to dst leaves by, through switches only,
 * found breadth first in topology order: *nh of them in out (nnodes
 * long). 0, or -1 when there is none.
 */
static int fct_path(const struct ibfs_results *r, int src, int dst,
		    struct ibfs_port **out, size_t *nh, int *from,
		    int *queue)
{
	const struct ibfs_topology *t = r->sc->topo;
	size_t qn = 0;

	for (size_t i = 0; i < t->nnodes; i++)
		from[i] = -1;
	from[src] = src;
	queue[qn++] = src;
	for (size_t q = 0; q < qn && from[dst] < 0; q++) {
		const struct ibfs_topo_node *n = &t->nodes[queue[q]];

		if (queue[q] != src && n->type != IBFS_NODE_SWITCH)
			continue;
		for (int p = 1; p <= n->nports; p++) {
			int peer = n->ports[p].peer_node;

			if (peer < 0 || from[peer] >= 0)
				continue;
			from[peer] = queue[q];
			queue[qn++] = peer;
		}
	}
	if (from[dst] < 0)
		return -1;
	/* Back from dst: the port of each node toward the next. */
	*nh = 0;
	for (int v = dst; v != src; v = from[v]) {
		const struct ibfs_topo_node *u = &t->nodes[from[v]];

		for (int p = 1; p <= u->nports; p++)
			if (u->ports[p].peer_node == v) {
				out[(*nh)++] = &r->fab->ports[from[v]][p];
				break;
			}
	}
	for (size_t i = 0; i < *nh / 2; i++) {
		struct ibfs_port *x = out[i];

		out[i] = out[*nh - 1 - i];
		out[*nh - 1 - i] = x;
	}
	return 0;
}

/* The same links the other way: each hop's other port, in reverse. */
static void fct_reverse(struct ibfs_port **out, size_t nh)
{
	for (size_t i = 0; i < nh / 2; i++) {
		struct ibfs_port *x = out[i]->peer;

		out[i] = out[nh - 1 - i]->peer;
		out[nh - 1 - i] = x;
	}
	if (nh % 2)
		out[nh / 2] = out[nh / 2]->peer;
}

/*
 * The ideal FCT of a WRITE of `bytes`: its packets to the destination
 * (fct_data), its receive pipeline (rx_pkt); the ACK of its last packet
 * after the destination's ACK generation (ack_gen), under ib not before
 * the 6-byte flow-control packet the destination sends first for the
 * buffer the last packet freed (IBA 7.9.4; docs/architecture.md, "One
 * RDMA WRITE"); the ACK back along the same links; at the sender its
 * receive pipeline, then the 64-byte CQE written over PCIe (dma_write)
 * and picked up (cqe): src/hca/cq.c.
 */
static ibfs_time_t fct_ideal_path(const struct ibfs_results *r, int src,
				  int dst, struct ibfs_port **out, size_t nh,
				  uint64_t bytes)
{
	const struct ibfs_hca_profile *ps = fct_profile(r, src);
	const struct ibfs_hca_profile *pd = fct_profile(r, dst);
	uint32_t ack = fct_wire(r, IBFS_XH_AETH, 0);
	struct fct_pkts k;
	ibfs_time_t t, wait;
	int paced;

	fct_packets(r, bytes, &k);
	t = fct_data(out, nh, &k, ps, &paced) + pd->rx_pkt;
	if (r->sc->model != IBFS_MODEL_ROCE) {
		struct fct_send sd = {&k, fct_bottleneck(out, nh),
				      fct_ready0(&k, ps), {0, 0, 0}, paced};

		for (int c = 0; ps->pcie_bps && c < 3; c++)
			sd.rd[c] = ibfs__rate_ser_time(
				ibfs__rate_bps(ps->pcie_bps), k.payload[c]);
		t += fct_fcp_delay(r, out, nh, &sd, ps, pd);
	}
	fct_reverse(out, nh);
	wait = fct_ack_start(r->sc->model == IBFS_MODEL_ROCE ? 0 :
			     out[0]->ser_fcp, pd->ack_gen,
			     ibfs__rate_ser_time(out[0]->rate, ack),
			     fct_last_gap(&k, fct_bottleneck(out, nh), ps,
					  paced),
			     k.n >= 2 && (k.n - 1) % (ps->ack_every ?
						     ps->ack_every : 1) == 0);
	t += wait + ibfs__rate_ser_time(fct_bottleneck(out, nh), ack) +
	     fct_hops(out, nh, ack);
	t += ps->rx_pkt + ps->dma_write + ps->cqe;
	if (ps->pcie_bps)
		t += ibfs__rate_ser_time(ibfs__rate_bps(ps->pcie_bps), 64);
	return t;
}

ibfs_time_t ibfs__fct_ideal(const struct ibfs_results *r, int src, int dst,
			    uint64_t bytes)
{
	size_t n = r->sc->topo->nnodes, nh;
	struct ibfs_port **out = malloc(n * sizeof(*out));
	int *from = malloc(n * sizeof(*from));
	int *queue = malloc(n * sizeof(*queue));
	ibfs_time_t t = 0;

	if (out && from && queue &&
	    fct_path(r, src, dst, out, &nh, from, queue) == 0)
		t = fct_ideal_path(r, src, dst, out, nh, bytes);
	free(out);
	free(from);
	free(queue);
	return t;
}
