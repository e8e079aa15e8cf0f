/* SPDX-License-Identifier: MIT */
/*
 * The ideal flow completion time of a flow of <pattern kind="flows">: the
 * time its RDMA WRITE takes alone on the idle fabric along its path, in
 * closed form from the model's own figures (the ports' rates, cables,
 * header times and the switches' latencies, the model's framing of ib or
 * roce), as the datacenter literature divides an FCT by the FCT of the
 * flow alone to get its slowdown (HPCC's simulator: the pair's base RTT
 * plus the flow's bytes with their headers at the bottleneck rate).
 */
#include <stdlib.h>
#include <string.h>

#include "fabric/eth.h"
#include "fabric/link.h"
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

/* A message's packets: up to three sizes (first, middle, last). */
struct fct_pkts {
	uint32_t wire[3];
	uint64_t count[3];
};

/* A WRITE of `bytes` at the path MTU (IBA 9.7.1: First with its RETH,
 * Middles, Last; one Only packet when it fits). */
static void fct_packets(const struct ibfs_results *r, uint64_t bytes,
			struct fct_pkts *k)
{
	uint64_t mtu = (uint64_t)r->sc->topo->def.mtu;
	uint64_t n = bytes ? (bytes + mtu - 1) / mtu : 1;

	memset(k, 0, sizeof(*k));
	if (n == 1) {
		k->wire[0] = fct_wire(r, IBFS_XH_RETH, (uint32_t)bytes);
		k->count[0] = 1;
		return;
	}
	k->wire[0] = fct_wire(r, IBFS_XH_RETH, (uint32_t)mtu);
	k->count[0] = 1;
	k->wire[1] = fct_wire(r, 0, (uint32_t)mtu);
	k->count[1] = n - 2;
	k->wire[2] = fct_wire(r, 0, (uint32_t)(bytes - (n - 1) * mtu));
	k->count[2] = 1;
}

/* a's rate below b's (rates are exact fractions). */
static int fct_slower(struct ibfs_rate a, struct ibfs_rate b)
{
	return (unsigned __int128)a.bits_num * b.bits_den <
	       (unsigned __int128)b.bits_num * a.bits_den;
}

/*
 * One way along out[0..nh) (each the port a hop leaves by) for packets k
 * sent back to back, to the last packet's tail at the far end:
 *   every packet serialized at the bottleneck (the slowest link), plus
 *   each link's propagation, plus at each switch what it waits for
 *   before it forwards: its header (the port's header time, ser_lrh) and
 *   its latency when cut-through, the whole first packet and its latency
 *   when store-and-forward (the receiving port's rx_at_tail, rx_delay:
 *   link.h).
 * On a path of one rate this is exact: each hop forwards packet i as its
 * output ends packet i - 1, so the hops only add their own delay once.
 * Where a link after the bottleneck is faster, the last packet leaves it
 * sooner than serialized at the bottleneck: the form is then above the
 * model's time by less than one packet's serialization.
 */
static ibfs_time_t fct_one_way(struct ibfs_port *const *out, size_t nh,
			       const struct fct_pkts *k)
{
	struct ibfs_rate b = out[0]->rate;
	ibfs_time_t t = 0;

	for (size_t j = 1; j < nh; j++)
		if (fct_slower(out[j]->rate, b))
			b = out[j]->rate;
	for (int i = 0; i < 3; i++)
		if (k->count[i])
			t += k->count[i] * ibfs__rate_ser_time(b, k->wire[i]);
	for (size_t j = 0; j < nh; j++) {
		t += out[j]->prop;
		if (j + 1 == nh)
			break; /* the HCA: the tail, counted above */
		t += out[j]->peer_rx_tail ?
			     ibfs__rate_ser_time(out[j]->rate, k->wire[0]) :
			     out[j]->ser_lrh;
		t += out[j]->peer_rx_delay;
	}
	return t;
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

/*
 * The ideal FCT of a WRITE of `bytes`: its packets one way, then the ACK
 * of its last packet back along the same links (each hop's other port),
 * under ib behind the flow-control packet the destination sends first
 * for the buffer the last packet freed (IBA 7.9.4; docs/architecture.md,
 * "One RDMA WRITE"). The HCAs' own stages are those of the ideal profile
 * (none): with another profile the ideal leaves them out.
 */
static ibfs_time_t fct_ideal_path(const struct ibfs_results *r,
				  struct ibfs_port **out, size_t nh,
				  uint64_t bytes)
{
	struct fct_pkts k, ack = {{0}, {0}};
	ibfs_time_t t;

	fct_packets(r, bytes, &k);
	t = fct_one_way(out, nh, &k);
	ack.wire[0] = fct_wire(r, IBFS_XH_AETH, 0);
	ack.count[0] = 1;
	for (size_t i = 0; i < nh / 2; i++) {
		struct ibfs_port *x = out[i]->peer;

		out[i] = out[nh - 1 - i]->peer;
		out[nh - 1 - i] = x;
	}
	if (nh % 2)
		out[nh / 2] = out[nh / 2]->peer;
	t += fct_one_way(out, nh, &ack);
	if (r->sc->model != IBFS_MODEL_ROCE)
		t += out[0]->ser_fcp;
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
		t = fct_ideal_path(r, out, nh, bytes);
	free(out);
	free(from);
	free(queue);
	return t;
}
