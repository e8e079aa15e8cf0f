/* SPDX-License-Identifier: MIT */
/*
 * The base round trip T of an Ethernet fabric (eth_base_rtt.h), as HPCC
 * uses it: the round trip with empty queues of the longest path, which
 * sizes a flow's first window (B T) and its step (R_AI T).
 *
 * The path: the most links between two HCAs on a shortest path (a
 * breadth-first search from each HCA; only switches pass frames on). On
 * it, with L links, every link taken as the slowest and longest of the
 * fabric and every switch as the slowest:
 *
 *   T = 2 (L prop + (L - 1) latency) + k (ser(data) + ser(ACK))
 *       + tx_pkt + 2 rx_pkt + ack_gen
 *
 * where data is an MTU RDMA WRITE Middle frame and ACK an ACK frame,
 * both with the telemetry field (fabric/eth.h), and k is 1 when the
 * switches cut through (a frame is serialized once on the path) or L
 * when they store and forward (once per link). The switch latency is
 * the profile's, or a switch's own from the fabric file. The last terms
 * are the RNICs' pipelines a round trip crosses (hca/hca.h's profile:
 * the data packet's send and receive, the ACK's generation and
 * receipt), of the slowest HCA profile in the fabric.
 */
#include "scenario/eth_base_rtt.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/eth.h"
#include "fabric/link_rate.h"
#include "hca/hca.h"

/* Most links from HCA s to another HCA over shortest paths; dist and
 * queue are scratch of t->nnodes entries each. */
static int rtt_bfs(const struct ibfs_topology *t, int s, const int *adj_off,
		   const int *adj, int *dist, int *queue)
{
	int head = 0, tail = 0, far = 0;

	for (size_t i = 0; i < t->nnodes; i++)
		dist[i] = -1;
	dist[s] = 0;
	queue[tail++] = s;
	while (head < tail) {
		int u = queue[head++];

		if (u != s && t->nodes[u].type != IBFS_NODE_SWITCH) {
			if (dist[u] > far)
				far = dist[u];
			continue; /* an HCA passes nothing on */
		}
		for (int k = adj_off[u]; k < adj_off[u + 1]; k++) {
			int v = adj[k];

			if (dist[v] < 0) {
				dist[v] = dist[u] + 1;
				queue[tail++] = v;
			}
		}
	}
	return far;
}

/* The most links on a shortest path between two HCAs (0: none). */
static int rtt_links(const struct ibfs_topology *t)
{
	size_t n = t->nnodes;
	int *adj_off = calloc(n + 1, sizeof(int));
	int *adj = calloc(2 * t->nlinks + 1, sizeof(int));
	int *dist = calloc(n + 1, sizeof(int));
	int *queue = calloc(n + 1, sizeof(int));
	int far = 0;

	if (adj_off && adj && dist && queue) {
		for (size_t i = 0; i < t->nlinks; i++) {
			adj_off[t->links[i].node_a + 1]++;
			adj_off[t->links[i].node_b + 1]++;
		}
		for (size_t i = 0; i < n; i++)
			adj_off[i + 1] += adj_off[i];
		memcpy(dist, adj_off, n * sizeof(int));
		for (size_t i = 0; i < t->nlinks; i++) {
			const struct ibfs_topo_link *l = &t->links[i];

			adj[dist[l->node_a]++] = l->node_b;
			adj[dist[l->node_b]++] = l->node_a;
		}
		for (size_t i = 0; i < n; i++) {
			if (t->nodes[i].type == IBFS_NODE_SWITCH)
				continue;
			int f = rtt_bfs(t, (int)i, adj_off, adj, dist, queue);

			if (f > far)
				far = f;
		}
	}
	free(adj_off);
	free(adj);
	free(dist);
	free(queue);
	return far;
}

/* Wire bytes of a RoCEv2 frame with headers xh and `payload` bytes. */
static uint32_t rtt_frame(uint16_t xh, uint32_t payload)
{
	struct ibfs_packet p;

	memset(&p, 0, sizeof(p));
	p.xh = xh | IBFS_XH_INT;
	p.payload_len = payload;
	ibfs__roce_finish(&p, 0, 0);
	return p.wire_bytes;
}

ibfs_time_t ibfs__eth_base_rtt(const struct ibfs_topology *t,
			       const struct ibfs_eth_profile *prof)
{
	int links = rtt_links(t);

	if (links < 1)
		return 0;
	ibfs_time_t prop = 0, lat = prof->latency, ser = 0;
	int sf = prof->store_forward;
	uint32_t data = rtt_frame(0, (uint32_t)t->def.mtu);
	uint32_t ack = rtt_frame(IBFS_XH_AETH, 0);

	for (size_t i = 0; i < t->nlinks; i++) {
		const struct ibfs_topo_link *l = &t->links[i];
		ibfs_time_t s = ibfs__rate_ser_time(l->rate, data) +
				ibfs__rate_ser_time(l->rate, ack);

		if (l->prop > prop)
			prop = l->prop;
		if (s > ser && s != IBFS_TIME_NEVER)
			ser = s;
	}
	ibfs_time_t nic = 0;

	for (size_t i = 0; i < t->nnodes; i++) {
		const struct ibfs_topo_node *n = &t->nodes[i];
		const struct ibfs_hca_profile *hp = ibfs__hca_profile(
			n->profile ? n->profile : t->def.profile);

		if (n->type != IBFS_NODE_SWITCH && hp &&
		    hp->tx_pkt + 2 * hp->rx_pkt + hp->ack_gen > nic)
			nic = hp->tx_pkt + 2 * hp->rx_pkt + hp->ack_gen;
		if (n->type == IBFS_NODE_SWITCH && n->latency_set &&
		    n->latency > lat)
			lat = n->latency;
		if (n->type == IBFS_NODE_SWITCH && n->store_forward)
			sf = 1;
	}
	ibfs_time_t l = (ibfs_time_t)links;

	return 2 * (l * prop + (l - 1) * lat) + (sf ? l : 1) * ser + nic;
}
