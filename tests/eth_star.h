/* SPDX-License-Identifier: MIT */
/*
 * The fixture of the Ethernet switch and PFC suites (check_eth_switch.c,
 * check_pfc.c): simple Ethernet hosts and a star of them around one
 * Ethernet switch.
 *
 * A host is a device with one port and no processing time. It sends raw
 * frames of a chosen size (destination MAC to FCS) and priority back to
 * back, flows taking turns frame by frame, a flow whose priority is paused
 * skipped; it sinks what it receives at the frame's tail, counting frames
 * per source host and keeping the first arrivals' times. Its port is a
 * PFC port (fabric/pfc.h) whose pauses it obeys; it asks for none.
 *
 * Links are 4x EDR in the topology, 100 Gb/s exactly (4 x 25.78125 Gb/s x
 * 64/66), the rate of 100GBASE-R: n bytes take n x 80 ps. A cable takes
 * 5 ns a metre. Host h (1..n) is node h, on switch port h, host id h
 * (the switch is node 0, so hosts are numbered from 1 in topology order).
 */
#ifndef IBFS_TESTS_ETH_STAR_H
#define IBFS_TESTS_ETH_STAR_H

#include "check_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/fabric.h"
#include "fabric/pfc.h"
#include "fabric/topology.h"
#include "switch/eth_switch.h"

#define ES_MAX_HOSTS 16
#define ES_MAX_FLOWS 1100
#define ES_LOG 64

static const uint64_t ES_BPS = 100000000000ULL;

/* Serialization at 100 Gb/s: 80 ps a byte. */
static inline ibfs_time_t es_ser(uint64_t bytes)
{
	return bytes * 80;
}

struct es_flow {
	uint16_t dlid;
	uint8_t prio;
	uint32_t frame;   /* bytes, destination MAC to FCS */
	uint32_t qp;      /* flow entropy: the UDP source port's input */
	uint64_t count, sent;
	uint8_t ect;      /* 1: sent as ECN-capable transport packets */
};

struct es_host {
	struct ibfs_device dev; /* first: the device ops cast back */
	uint16_t id;
	int nflows;
	int rr;
	struct es_flow flows[ES_MAX_FLOWS];
	uint64_t rx_frames, rx_bytes;
	uint64_t rx_from[ES_MAX_HOSTS + 1];
	uint64_t rx_prio[IBFS_ETH_PRIOS];
	ibfs_time_t first_tail, last_tail;
	ibfs_time_t log_tail[ES_LOG];
	/* ECN: frames that arrived CE, and the first one's place in order. */
	uint64_t rx_ce, first_ce;
	ibfs_time_t tx_last_end;
};

static inline struct ibfs_port *es_port(struct es_host *h)
{
	return &h->dev.ports[1];
}

static void es_pump(struct es_host *h)
{
	struct ibfs_port *out = es_port(h);
	struct ibfs_fabric *f = h->dev.fab;

	if (!ibfs__port_idle_up(out))
		return;
	for (int k = 0; k < h->nflows; k++) {
		struct es_flow *fl = &h->flows[(h->rr + k) % h->nflows];
		struct ibfs_packet probe = { .vl = fl->prio };

		if (fl->sent == fl->count ||
		    !ibfs__port_flow_allows(out, &probe))
			continue;
		struct ibfs_packet *p = ibfs__packet_new_raw(f);

		ck_assert_ptr_nonnull(p);
		p->kind = fl->ect ? IBFS_PKT_DATA : IBFS_PKT_RAW;
		p->dlid = fl->dlid;
		p->slid = h->id;
		p->sl = p->vl = fl->prio;
		p->dest_qp = fl->qp;
		p->wire_bytes = ibfs__eth_wire_bytes(fl->frame);
		p->blocks = (uint16_t)((fl->frame + 63) / 64);
		fl->sent++;
		h->rr = (int)((h->rr + k + 1) % h->nflows);
		ibfs__fabric_inject(f, p);
		ibfs__port_send(out, p);
		h->tx_last_end = out->tx_free_at;
		return;
	}
}

static void es_tx_ready(struct ibfs_device *dev, struct ibfs_port *out)
{
	(void)out;
	es_pump((struct es_host *)dev);
}

static void es_receive(struct ibfs_device *dev, struct ibfs_port *in,
		       struct ibfs_packet *p)
{
	struct es_host *h = (struct es_host *)dev;
	struct ibfs_fabric *f = dev->fab;

	if (h->rx_frames < ES_LOG)
		h->log_tail[h->rx_frames] = p->tail_at;
	if (!h->rx_frames)
		h->first_tail = p->tail_at;
	h->last_tail = p->tail_at;
	h->rx_frames++;
	h->rx_bytes += p->wire_bytes;
	if (p->slid <= ES_MAX_HOSTS)
		h->rx_from[p->slid]++;
	h->rx_prio[p->vl & 7]++;
	if (p->fecn && !h->rx_ce++)
		h->first_ce = h->rx_frames - 1;
	ibfs__port_consume(in, p);
	ibfs__fabric_deliver(f, p);
	ibfs__packet_free(f, p);
}

static const struct ibfs_device_ops es_host_ops = {
	.kind = "hca",
	.receive = es_receive,
	.tx_ready = es_tx_ready,
};

static inline void es_flow_add(struct es_host *h, uint16_t dlid, uint8_t prio,
			       uint32_t frame, uint64_t count, uint32_t qp)
{
	ck_assert_int_lt(h->nflows, ES_MAX_FLOWS);
	h->flows[h->nflows++] = (struct es_flow){
		.dlid = dlid, .prio = prio, .frame = frame, .qp = qp,
		.count = count,
	};
}

/* Starts every host's flows at time 0. */
static void es_start_ev(void *obj, uint64_t arg)
{
	(void)arg;
	es_pump(obj);
}

struct es_star {
	struct ibfs_topology *t;
	struct ibfs_fabric *f;
	struct ibfs_eth_switch *sw;
	struct ibfs_eth_routes routes;
	uint32_t off[ES_MAX_HOSTS + 2];
	uint8_t hops[ES_MAX_HOSTS * 4];
	int n;
	struct es_host *h[ES_MAX_HOSTS + 1]; /* [1..n] */
};

/*
 * A switch of `nports` ports, hosts on ports 1..n (n <= nports), every
 * cable cable_mm long, host h routed to port h; the host ports' lossless
 * priorities `lossless`. Ports above n are left free for the test to
 * link. The switch is made by es_star_switch.
 */
static inline void es_star_make(struct es_star *x, int n, int nports,
				uint64_t cable_mm)
{
	struct ibfs_diag d;

	memset(x, 0, sizeof(*x));
	x->n = n;
	x->t = ibfs__topo_new("eth-star");
	ck_assert_ptr_nonnull(x->t);
	ck_assert_int_eq(ibfs__topo_add_node(x->t, "sw", IBFS_NODE_SWITCH,
					     nports, 0, &d),
			 0);
	for (int i = 1; i <= n; i++) {
		char name[16];

		snprintf(name, sizeof(name), "h%d", i);
		ck_assert_int_eq(ibfs__topo_add_node(x->t, name,
						     IBFS_NODE_HCA, 1, 0, &d),
				 i);
		ck_assert_int_ge(ibfs__topo_add_link(x->t, 0, i, i, 1,
						     IBFS_SPEED_EDR, 4,
						     cable_mm, 0, &d),
				 0);
	}
	x->routes.nhosts = (uint32_t)n;
	x->routes.off = x->off;
	x->routes.ports = x->hops;
	x->routes.seed = 0x5eed;
	for (int h = 1; h <= n; h++) {
		x->off[h] = (uint32_t)(h - 1);
		x->hops[h - 1] = (uint8_t)h;
	}
	x->off[0] = 0;
	x->off[n + 1] = (uint32_t)n;
}

/* The fabric, the hosts (PFC on `lossless`) and the switch. */
static inline void es_star_start(struct es_star *x,
				 const struct ibfs_eth_profile *prof,
				 uint8_t lossless)
{
	struct ibfs_diag d;

	x->f = ibfs__fabric_new(x->t, 1, 0);
	ck_assert_ptr_nonnull(x->f);
	for (int i = 1; i <= x->n; i++) {
		struct es_host *h = calloc(1, sizeof(*h));

		ck_assert_ptr_nonnull(h);
		h->id = (uint16_t)i;
		h->dev.ops = &es_host_ops;
		x->h[i] = h;
		ck_assert_int_eq(ibfs__pfc_attach(ibfs__fabric_port(x->f, i, 1),
						  lossless, 0),
				 0);
		ibfs__port_set_rx(ibfs__fabric_port(x->f, i, 1), 0, 1);
		ibfs__fabric_attach(x->f, i, &h->dev);
	}
	x->sw = ibfs__eth_switch_create(x->f, 0, prof, &x->routes, &d);
	ck_assert_msg(x->sw != NULL, "%s", d.msg);
	for (int i = 1; i <= x->n; i++)
		ck_assert_ptr_nonnull(ibfs__eq_schedule(&x->f->eq, 0,
							es_start_ev, x->h[i],
							0));
}

static inline void es_conserved(const struct ibfs_fabric *f)
{
	char msg[512] = "";

	ck_assert_msg(ibfs__fabric_check(f, msg, sizeof(msg)) == 0, "%s",
		      msg);
}

static inline void es_star_free(struct es_star *x)
{
	ibfs__eth_switch_destroy(x->sw);
	for (int i = 1; i <= x->n; i++) {
		ibfs__pfc_detach(ibfs__fabric_port(x->f, i, 1));
		free(x->h[i]);
	}
	ibfs__fabric_free(x->f);
	ibfs__topo_free(x->t);
}

/* A test profile: the generic one with `frame`-sized jumbo limit. */
static inline struct ibfs_eth_profile es_profile(uint32_t mtu)
{
	struct ibfs_eth_profile p = *ibfs__eth_profile("generic-100g");

	p.mtu = mtu;
	return p;
}

#endif
