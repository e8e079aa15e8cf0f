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
 * What the hops add along out[0..nh) (each the port a hop leaves by) to
 * a packet's way once it is serialized: each link's propagation, and at
 * each switch what it waits for before it forwards, its header (the
 * port's header time, ser_lrh) when cut-through, the whole first packet
 * (`first` wire bytes) when store-and-forward (the receiving port's
 * rx_at_tail), and its latency (rx_delay): link.h.
 */
static ibfs_time_t fct_hops(struct ibfs_port *const *out, size_t nh,
			    uint32_t first)
{
	ibfs_time_t t = 0;

	for (size_t j = 0; j < nh; j++) {
		t += out[j]->prop;
		if (j + 1 == nh)
			break; /* the HCA: the tail, counted by the caller */
		t += out[j]->peer_rx_tail ?
			     ibfs__rate_ser_time(out[j]->rate, first) :
			     out[j]->ser_lrh;
		t += out[j]->peer_rx_delay;
	}
	return t;
}

/*
 * From the post to the last packet's tail at the destination. The sender
 * (src/hca/sq.c) has packet i ready at R_i = doorbell + dma_read +
 * pcie(payload of packets 0..i) + tx_pkt, its PCIe reads back to back
 * (pcie 0 with unlimited PCIe); the link sends it at max(R_i, the end of
 * packet i - 1). On a path of one rate every hop forwards packet i as its
 * output ends packet i - 1, so the last tail comes at
 *   max over i of (R_i + ser(packets i..n-1)) + the hops,
 * and over the middle packets (all alike) that is largest at an end of
 * their run: i in {0, 1, n - 2, n - 1} suffices. Where a link after the
 * slowest is faster, the last packet leaves it sooner than serialized at
 * the bottleneck: the form then exceeds the model's time by less than a
 * packet's serialization.
 */
static ibfs_time_t fct_data(struct ibfs_port *const *out, size_t nh,
			    const struct fct_pkts *k,
			    const struct ibfs_hca_profile *pf)
{
	struct ibfs_rate b = fct_bottleneck(out, nh);
	struct ibfs_rate pcie = ibfs__rate_bps(pf->pcie_bps);
	uint64_t cand[4] = {0, 1, k->n >= 2 ? k->n - 2 : 0, k->n - 1};
	ibfs_time_t best = 0, ser[3], rd[3];

	for (int c = 0; c < 3; c++) {
		ser[c] = ibfs__rate_ser_time(b, k->wire[c]);
		rd[c] = pf->pcie_bps && k->payload[c] ?
				ibfs__rate_ser_time(pcie, k->payload[c]) : 0;
	}
	for (int i = 0; i < 4; i++) {
		uint64_t x = cand[i] < k->n ? cand[i] : k->n - 1;
		ibfs_time_t f = pf->doorbell + pf->tx_pkt;

		if (k->payload[0])
			f += pf->dma_read;
		for (int c = 0; c < 3; c++)
			f += fct_in(k, c, 0, x) * rd[c] +
			     fct_in(k, c, x, k->n - 1) * ser[c];
		if (f > best)
			best = f;
	}
	return best + fct_hops(out, nh, k->wire[0]);
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

	fct_packets(r, bytes, &k);
	t = fct_data(out, nh, &k, ps) + pd->rx_pkt;
	fct_reverse(out, nh);
	wait = pd->ack_gen;
	if (r->sc->model != IBFS_MODEL_ROCE && out[0]->ser_fcp > wait)
		wait = out[0]->ser_fcp;
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
