/* SPDX-License-Identifier: MIT */
/*
 * The Ethernet switch as a device: taking a frame in, picking its next
 * hop among the ECMP next hops, admitting it to the buffer and queueing it
 * at its output (the model: eth_switch.h); and the switch profiles.
 *
 * Timing, as the InfiniBand switch: cut-through, the switch takes a frame
 * in once its header (IBFS_ETH_CUT_HDR bytes, fabric/pfc.h) has arrived
 * plus the port-to-port latency, and may send it at once; store-and-
 * forward, once its last byte has arrived plus the latency.
 */
#include "switch/eth_switch_int.h"

#include <stdlib.h>
#include <string.h>

/*
 * Profiles. Sizes in bytes, times in ps; "MB" of a data sheet taken as
 * MiB. Choices that are ours and not a product's (alphas, reserve,
 * resume offset, weights) are the same in all three.
 */
#define ETH_PROFILE_COMMON                                                 \
	.mtu = 9216, /* the usual jumbo frame limit of datacenter switches */ \
	.alpha_num = 1, .alpha_den = 1, /* Choudhury and Hahne's alpha 1 */   \
	.pfc_alpha_num = 1, .pfc_alpha_den = 8,                              \
	.reserved = 9216, .resume_offset = 2 * 9216,                         \
	.lossless = 1u << 3, /* RoCE's usual lossless priority */            \
	.quanta = IBFS_PFC_QUANTA_MAX,                                       \
	.weight = { 1, 1, 1, 1, 1, 1, 1, 1 }

static const struct ibfs_eth_profile eth_profiles[] = {
	/* A generic 100G shared-buffer switch: round figures of the class
	 * (a 12 MiB buffer, 400 ns), not a product. */
	{ .name = "generic-100g", .buffer = 12u << 20, .pipes = 1,
	  .latency = 400000, ETH_PROFILE_COMMON },
	/*
	 * NVIDIA/Mellanox SN2700 (Spectrum, 32 x 100GbE): a 16 MB fully
	 * shared packet buffer (router-switch.com's comparison of the
	 * SN2700 and SN3700), 300 ns port to port (the figure Mellanox
	 * gives for its Spectrum switches; Linley Group, "Spectrum-2
	 * Debuts 200GbE", 2017, for the second generation).
	 */
	{ .name = "sn2700", .buffer = 16u << 20, .pipes = 1,
	  .latency = 300000, ETH_PROFILE_COMMON },
	/*
	 * Broadcom Tomahawk (BCM56960, 32 x 100GbE): about 500 ns of
	 * switching latency (300 ns in a plain L2 mode) per the Juniper
	 * QFX5200 presentation summed up on ipspace.net, "Broadcom
	 * Tomahawk 101", 2015. The 16 MB buffer in four pipelines of 4 MB
	 * is the commonly quoted layout, which the sources we found do not
	 * state: a frame takes from its ingress port's pipeline.
	 */
	{ .name = "tomahawk", .buffer = 16u << 20, .pipes = 4,
	  .latency = 500000, ETH_PROFILE_COMMON },
};

const struct ibfs_eth_profile *ibfs__eth_profile(const char *name)
{
	for (size_t i = 0; i < sizeof(eth_profiles) / sizeof(*eth_profiles);
	     i++)
		if (!strcmp(eth_profiles[i].name, name))
			return &eth_profiles[i];
	return NULL;
}

static inline struct ibfs_eth_switch *eth_sw(struct ibfs_device *dev)
{
	return (struct ibfs_eth_switch *)dev;
}

/*
 * The output of p; -1 when there is no next hop, -2 - port when the one
 * picked is down (PortXmitDiscards counts it there). By
 * hash, the pick of the route analysis (ibfs__eth_route_pick), so that a
 * flow takes the path the tables' analysis follows.
 */
static int eth_route(struct ibfs_eth_switch *sw, const struct ibfs_packet *p)
{
	uint32_t n;
	const uint8_t *hops = ibfs__eth_next_hops(sw->routes, p->dlid, &n);
	int out = 0;

	if (n == 0)
		return -1;
	switch (sw->prof.pick) {
	case IBFS_ETH_PICK_HASH:
		out = ibfs__eth_route_pick(sw->routes, p);
		break;
	case IBFS_ETH_PICK_RR:
		out = hops[sw->spray[p->dlid]++ % n];
		break;
	case IBFS_ETH_PICK_RANDOM:
		out = hops[ibfs__rng_below(&sw->rng, n)];
		break;
	}
	if (out < 1 || out > sw->dev.nports)
		return -1;
	if (!sw->dev.ports[out].up)
		return -2 - out;
	return out;
}

static void eth_drop(struct ibfs_eth_switch *sw, struct ibfs_port *in,
		     struct ibfs_packet *p, enum ibfs_drop_cause cause)
{
	struct ibfs_fabric *f = sw->dev.fab;

	ibfs__port_consume(in, p);
	ibfs__fabric_drop(f, p, cause);
	ibfs__packet_free(f, p);
}

static void eth_receive(struct ibfs_device *dev, struct ibfs_port *in,
			struct ibfs_packet *p)
{
	struct ibfs_eth_switch *sw = eth_sw(dev);
	int i = in->num, c = p->vl & (IBFS_ETH_PRIOS - 1);
	struct ibfs_eth_prio_stats *st = &sw->port[i].st[c];
	int out;

	st->rx_frames++;
	st->rx_bytes += p->wire_bytes;
	out = eth_route(sw, p);
	if (out < 0) {
		if (out == -1)
			st->no_route++;
		else
			dev->ports[-2 - out].xmit_discards++;
		eth_drop(sw, in, p, out == -1 ? IBFS_DROP_NO_ROUTE :
						IBFS_DROP_PORT_DOWN);
		return;
	}
	/* A lossless priority drops only when its headroom overflows. */
	if (ibfs__eth_buf_admit(sw, i, c, out, ibfs__eth_frame_bytes(p)) < 0) {
		eth_drop(sw, in, p, (sw->prof.lossless >> c) & 1 ?
					    IBFS_DROP_HEADROOM :
					    IBFS_DROP_SWITCH_BUFFER);
		return;
	}
	ibfs__eth_enqueue(sw, out, p);
}

static void eth_tx_ready(struct ibfs_device *dev, struct ibfs_port *out)
{
	ibfs__eth_kick(eth_sw(dev), out->num);
}

static void eth_tx_done(struct ibfs_device *dev, struct ibfs_port *out)
{
	ibfs__eth_tx_done(eth_sw(dev), out->num);
}

static void eth_port_state(struct ibfs_device *dev, struct ibfs_port *port,
			   int up)
{
	if (!up)
		ibfs__eth_flush(eth_sw(dev), port->num);
}

static const struct ibfs_device_ops eth_switch_ops = {
	.kind = "switch",
	.receive = eth_receive,
	.tx_ready = eth_tx_ready,
	.tx_done = eth_tx_done,
	.port_state = eth_port_state,
};

struct ibfs_eth_switch *ibfs__eth_switch_of(struct ibfs_device *dev)
{
	if (!dev || dev->ops != &eth_switch_ops)
		return NULL;
	return (struct ibfs_eth_switch *)dev;
}

/* The switch's ports become PFC ports that take frames as timed above. */
static int eth_ports_setup(struct ibfs_eth_switch *sw, struct ibfs_diag *d)
{
	for (int i = 1; i <= sw->dev.nports; i++) {
		struct ibfs_port *port = &sw->dev.ports[i];

		sw->port[i].wake_at = IBFS_TIME_NEVER;
		if (!port->peer)
			continue;
		if (ibfs__pfc_attach(port, sw->prof.lossless,
				     sw->prof.quanta) < 0)
			return ibfs__diag(d, NULL, 0, "out of memory");
		ibfs__port_set_rx(port, sw->prof.latency,
				  sw->prof.store_forward);
	}
	return 0;
}

struct ibfs_eth_switch *ibfs__eth_switch_create(
	struct ibfs_fabric *f, int node, const struct ibfs_eth_profile *prof,
	const struct ibfs_eth_routes *routes, struct ibfs_diag *d)
{
	struct ibfs_eth_switch *sw = calloc(1, sizeof(*sw));

	if (!sw) {
		ibfs__diag(d, NULL, 0, "out of memory");
		return NULL;
	}
	sw->prof = *prof;
	sw->routes = routes;
	sw->dev.ops = &eth_switch_ops;
	sw->dev.fab = f;
	sw->dev.node = node;
	sw->dev.nports = f->topo->nodes[node].nports;
	sw->dev.ports = f->ports[node];
	sw->port = calloc((size_t)sw->dev.nports + 1, sizeof(*sw->port));
	sw->spray = calloc((size_t)routes->nhosts + 2, sizeof(*sw->spray));
	if (!sw->port || !sw->spray) {
		ibfs__diag(d, NULL, 0, "out of memory");
		goto fail;
	}
	ibfs__rng_seed(&sw->rng, routes->seed, (uint64_t)node);
	if (eth_ports_setup(sw, d) < 0 || ibfs__eth_buf_setup(sw, d) < 0)
		goto fail;
	ibfs__fabric_attach(f, node, &sw->dev);
	return sw;
fail:
	ibfs__eth_switch_destroy(sw);
	return NULL;
}

void ibfs__eth_switch_destroy(struct ibfs_eth_switch *sw)
{
	if (!sw)
		return;
	for (int i = 1; sw->port && i <= sw->dev.nports; i++)
		ibfs__pfc_detach(&sw->dev.ports[i]);
	free(sw->pipe_used);
	free(sw->spray);
	free(sw->int_busy);
	free(sw->port);
	free(sw);
}

const struct ibfs_eth_prio_stats *
ibfs__eth_switch_stats(const struct ibfs_eth_switch *sw, int port, int prio)
{
	return &sw->port[port].st[prio & (IBFS_ETH_PRIOS - 1)];
}

const struct ibfs_pfc_stats *
ibfs__eth_switch_pfc_stats(const struct ibfs_eth_switch *sw, int port)
{
	const struct ibfs_pfc_port *pp = ibfs__pfc_of(&sw->dev.ports[port]);

	return pp ? &pp->st : NULL;
}

uint64_t ibfs__eth_switch_used(const struct ibfs_eth_switch *sw)
{
	return sw->used;
}

uint64_t ibfs__eth_switch_peak(const struct ibfs_eth_switch *sw)
{
	return sw->peak;
}

uint64_t ibfs__eth_switch_shared(const struct ibfs_eth_switch *sw)
{
	return sw->shared;
}

uint64_t ibfs__eth_switch_headroom(const struct ibfs_eth_switch *sw,
				   int port, int prio)
{
	return sw->port[port].hdr_cap[prio & (IBFS_ETH_PRIOS - 1)];
}
