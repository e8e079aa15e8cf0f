/* SPDX-License-Identifier: MIT */
/*
 * The subnet management agents. A switch's agent sits behind its
 * management port 0 (ibfs__switch_set_local: packets for the switch's LID
 * and directed-route SMPs, whose DLID is permissive); an HCA's agent is its
 * QP0 (the HCA's management hook, src/hca/mgmt.c).
 *
 * An SMP reaching an agent is first stepped along its directed route
 * (mad.c). A switch relays an SMP that has hops left after
 * IBFS_SMA_RELAY_TIME; the destination answers after IBFS_SMA_PROC_TIME,
 * applying a Set to the device at that moment through its setters, and
 * sends the GetResp back along the return path. A response that has come
 * back to the SM's node goes to the SM at once.
 *
 * A switch's agent sends straight out of the output port when its
 * transmitter is idle, and otherwise retries when it frees; the switch has
 * no call for its port 0 to inject into the crossbar, so an SMP leaving a
 * switch does not take part in VL arbitration there (it waits at most one
 * packet time behind data; the first sweep has no data traffic).
 *
 * State an agent keeps beside the device (sma_int.h): PortState of each
 * port (Init once the link is up, then Armed and Active as the SM sets
 * them, IBA 7.2), the SM's LID, LinearFDBTop, and the SL-to-VL and VL
 * arbitration tables it was given (the devices have setters but no
 * getters for them; an HCA port's VL arbitration is programmed as a
 * switch output's). The attributes it answers are in sma_attrs.c.
 */
#include <stdlib.h>
#include <string.h>

#include "hca/hca.h"
#include "hca/mgmt.h"
#include "subnet_manager/sma.h"
#include "subnet_manager/subnet.h"
#include "subnet_manager/sma_int.h"
#include "switch/switch.h"

/*
 * A link changed state: the agents at both ends note it, and a switch's
 * agent raises trap 128 (PortStateChange, IBA 14.3.11) to the SM.
 */
static void sma_on_port_state(void *ctx, struct ibfs_port *port, int up)
{
	(void)up;
	ibfs__sma_port_changed(ctx, port->node, port->num);
}

static void sma_port_send(struct sma_node *n, int port, struct ibfs_packet *p);

static void sma_discard(struct sma_node *n, struct ibfs_packet *p)
{
	n->a->st.discarded++;
	if (p)
		ibfs__packet_free(n->a->f, p);
}

/* Switch transmit: send queued SMPs while the port is idle. */
static void sma_sw_retry_ev(void *obj, uint64_t arg);

static void sma_sw_kick(struct sma_node *n, int port)
{
	struct ibfs_fabric *f = n->a->f;
	struct sma_txq *q = &n->txq[port];
	struct ibfs_port *pt = ibfs__fabric_port(f, n->node, port);

	while (q->head) {
		struct ibfs_packet *p = q->head;
		int dead = !pt->peer || !pt->up;

		if (!dead && !ibfs__port_can_send(pt, p)) {
			if (!q->retry) {
				ibfs_time_t t = pt->tx_free_at > f->eq.now ?
							pt->tx_free_at :
							f->eq.now;
				q->retry = ibfs__eq_schedule(
					&f->eq, t, sma_sw_retry_ev, n,
					(uint64_t)port);
			}
			return;
		}
		q->head = p->next;
		if (!q->head)
			q->tail = NULL;
		p->next = NULL;
		ibfs__fabric_inject(f, p);
		if (dead) {
			ibfs__fabric_drop(f, p, IBFS_DROP_PORT_DOWN);
			sma_discard(n, p);
			continue;
		}
		ibfs__port_send(pt, p);
	}
}

static void sma_sw_retry_ev(void *obj, uint64_t arg)
{
	struct sma_node *n = obj;

	n->txq[arg].retry = NULL;
	sma_sw_kick(n, (int)arg);
}

static void sma_port_send(struct sma_node *n, int port, struct ibfs_packet *p)
{
	if (n->hca) {
		if (ibfs__hca_mgmt_send(n->hca, port, p) < 0)
			sma_discard(n, p);
		return;
	}
	struct sma_txq *q = &n->txq[port];

	p->next = NULL;
	if (q->tail)
		q->tail->next = p;
	else
		q->head = p;
	q->tail = p;
	sma_sw_kick(n, port);
}

/* Sends s from node n along its route, or hands a response to the SM. */
static void sma_out(struct sma_node *n, struct ibfs_smp *s)
{
	int port = 0;
	int act = ibfs__smp_dr_send(s, &port);

	if (act == IBFS_DR_LOCAL) {
		if (s->dir && n->sm_fn) {
			n->a->st.to_sm++;
			n->sm_fn(n->sm_ctx, s);
		} else {
			sma_discard(n, NULL);
		}
		return;
	}
	if (act != IBFS_DR_SEND || port < 1 || port > n->nports) {
		sma_discard(n, NULL);
		return;
	}
	struct ibfs_packet *p = ibfs__smp_packet(n->a->f, s,
						 IBFS_PERMISSIVE_LID,
						 IBFS_PERMISSIVE_LID);
	if (!p) {
		sma_discard(n, NULL);
		return;
	}
	sma_port_send(n, port, p);
}

/* Events: a request is answered, or a relayed SMP leaves. */
static void sma_answer_ev(void *obj, uint64_t arg)
{
	struct sma_node *n = obj;
	struct ibfs_packet *p = (struct ibfs_packet *)(uintptr_t)arg;
	struct ibfs_smp s;
	int in_port = p->in_port;

	ibfs__smp_decode(p->payload, &s);
	ibfs__packet_free(n->a->f, p);
	ibfs__sma_process(n, &s, in_port);
	sma_out(n, &s);
}

static void sma_relay_ev(void *obj, uint64_t arg)
{
	struct sma_node *n = obj;
	struct ibfs_packet *p = (struct ibfs_packet *)(uintptr_t)arg;
	struct ibfs_smp s;
	int port = p->out_port;

	ibfs__smp_decode(p->payload, &s);
	ibfs__packet_free(n->a->f, p);
	struct ibfs_packet *q = ibfs__smp_packet(n->a->f, &s,
						 IBFS_PERMISSIVE_LID,
						 IBFS_PERMISSIVE_LID);
	if (!q) {
		sma_discard(n, NULL);
		return;
	}
	n->a->st.relayed++;
	sma_port_send(n, port, q);
}

/* An SMP has arrived at node n on in_port; the agent owns p. */
static void sma_rx(struct sma_node *n, int in_port, struct ibfs_packet *p)
{
	struct ibfs_smp s;
	struct ibfs_eq *q = &n->a->f->eq;
	int out = 0;

	if (!p->payload || p->payload_len != IBFS_MAD_BYTES ||
	    ibfs__smp_decode(p->payload, &s) < 0) {
		sma_discard(n, p);
		return;
	}
	if (s.mgmt_class == IBFS_MCLASS_SUBN_LID) {
		/* LID-routed: only traps, for the SM on this node. */
		ibfs__packet_free(n->a->f, p);
		if (s.method != IBFS_SMP_TRAP || !n->sm_fn) {
			sma_discard(n, NULL);
			return;
		}
		n->a->st.to_sm++;
		n->sm_fn(n->sm_ctx, &s);
		return;
	}
	int act = ibfs__smp_dr_recv(&s, in_port, n->nports, n->sw != NULL,
				    &out);

	if (act == IBFS_DR_DISCARD) {
		sma_discard(n, p);
		return;
	}
	if (act == IBFS_DR_LOCAL && s.dir) {
		ibfs__packet_free(n->a->f, p);
		if (!n->sm_fn) {
			sma_discard(n, NULL);
			return;
		}
		n->a->st.to_sm++;
		n->sm_fn(n->sm_ctx, &s);
		return;
	}
	/* The hop pointer and return path changed: carry them on. */
	ibfs__smp_encode(&s, p->payload);
	p->in_port = (uint8_t)in_port;
	if (act == IBFS_DR_SEND) {
		p->out_port = (uint8_t)out;
		ibfs__eq_after(q, IBFS_SMA_RELAY_TIME, sma_relay_ev, n,
			       (uint64_t)(uintptr_t)p);
	} else {
		ibfs__eq_after(q, IBFS_SMA_PROC_TIME, sma_answer_ev, n,
			       (uint64_t)(uintptr_t)p);
	}
}

static void sma_sw_local(void *ctx, struct ibfs_switch *sw,
			 struct ibfs_packet *p)
{
	(void)sw;
	sma_rx(ctx, p->in_port, p);
}

static void sma_hca_rx(void *ctx, struct ibfs_hca *h, int port,
		       struct ibfs_packet *p)
{
	(void)h;
	sma_rx(ctx, port, p);
}

struct ibfs_sma *ibfs__sma_new(struct ibfs_fabric *f, struct ibfs_diag *d)
{
	struct ibfs_sma *a = calloc(1, sizeof(*a));
	const char *file = f->topo->file ? f->topo->file : "fabric";

	if (!a)
		goto oom;
	a->f = f;
	a->listener = (struct ibfs_port_listener){
		.port_state = sma_on_port_state, .ctx = a};
	ibfs__fabric_listen(f, &a->listener);
	a->nnodes = (int)f->topo->nnodes;
	a->nodes = calloc((size_t)a->nnodes, sizeof(*a->nodes));
	if (!a->nodes)
		goto oom;
	for (int i = 0; i < a->nnodes; i++) {
		struct sma_node *n = &a->nodes[i];
		struct ibfs_device *dev = f->devices[i];

		n->a = a;
		n->node = i;
		n->nports = f->topo->nodes[i].nports;
		n->sw = dev ? ibfs__switch_of(dev) : NULL;
		n->hca = n->sw ? NULL : ibfs__hca_of_node(f, i);
		if (!n->sw && !n->hca)
			continue;
		n->state = calloc((size_t)n->nports + 1, 1);
		n->pp = calloc((size_t)n->nports + 1, sizeof(*n->pp));
		if (!n->state || !n->pp)
			goto oom;
		/* Power-up: the link-local prefix (IBA 4.1.1's default GID
		 * prefix), each link at the fabric's MTU, SubnetTimeOut 0. */
		for (int p = 0; p <= n->nports; p++) {
			n->pp[p].gid_prefix = IBFS_GID_PREFIX_LINK_LOCAL;
			n->pp[p].nbr_mtu = ibfs__mad_mtu_code(f->mtu);
		}
		for (int p = 1; p <= n->nports; p++) {
			struct ibfs_port *pt = ibfs__fabric_port(f, i, p);

			n->state[p] = pt->peer && pt->up ? IBFS_PORT_INIT :
							   IBFS_PORT_DOWN;
		}
		n->state[0] = n->sw ? IBFS_PORT_ACTIVE : IBFS_PORT_DOWN;
		/* Its linked ports went from Down to Init at power-up, which
		 * sets a switch's PortStateChange (IBA 14.2.5.4; from memory,
		 * and what ibsim's switches report to OpenSM). */
		for (int p = 1; n->sw && p <= n->nports; p++)
			n->psc |= n->state[p] == IBFS_PORT_INIT;
		int dv = ibfs__fabric_port(f, i, 0)->data_vls;

		for (int sl = 0; sl < 16; sl++)
			n->sl2vl[sl] = (uint8_t)(dv > 0 ? sl % dv : 0);
		n->arb = calloc((size_t)n->nports + 1, sizeof(*n->arb));
		if (!n->arb)
			goto oom;
		/* The devices' default arbitration (fabric/vl_arbiter.c). */
		for (int p = 0; p <= n->nports; p++)
			ibfs__vlarb_default(&n->arb[p], dv);
		if (n->hca) {
			if (ibfs__hca_mgmt_attach(n->hca, sma_hca_rx, n) < 0)
				goto oom;
			continue;
		}
		n->txq = calloc((size_t)n->nports + 1, sizeof(*n->txq));
		if (!n->txq)
			goto oom;
		ibfs__switch_set_local(n->sw, sma_sw_local, n);
	}
	return a;
oom:
	ibfs__sma_free(a);
	ibfs__diag(d, file, 0, "out of memory creating the SM agents");
	return NULL;
}

void ibfs__sma_free(struct ibfs_sma *a)
{
	if (!a)
		return;
	if (a->listener.port_state)
		ibfs__fabric_unlisten(a->f, &a->listener);
	for (int i = 0; a->nodes && i < a->nnodes; i++) {
		struct sma_node *n = &a->nodes[i];

		if (n->hca && n->state)
			ibfs__hca_mgmt_detach(n->hca);
		if (n->sw && n->txq) {
			ibfs__switch_set_local(n->sw, NULL, NULL);
			for (int p = 0; p <= n->nports; p++) {
				struct ibfs_packet *k = n->txq[p].head;

				while (k) {
					struct ibfs_packet *next = k->next;

					ibfs__packet_free(a->f, k);
					k = next;
				}
				if (n->txq[p].retry)
					ibfs__eq_cancel(&a->f->eq,
							n->txq[p].retry);
			}
		}
		free(n->state);
		free(n->pp);
		free(n->arb);
		free(n->txq);
	}
	free(a->nodes);
	free(a);
}

void ibfs__sma_set_sm(struct ibfs_sma *a, int node, int port,
		      ibfs_sma_sm_fn fn, void *ctx)
{
	a->nodes[node].sm_fn = fn;
	a->nodes[node].sm_ctx = ctx;
	a->nodes[node].sm_port = port;
}

int ibfs__sma_send(struct ibfs_sma *a, int node, const struct ibfs_smp *s)
{
	if (node < 0 || node >= a->nnodes || !a->nodes[node].state)
		return -1;
	struct sma_node *n = &a->nodes[node];
	struct ibfs_smp c = *s;
	int port = 0;
	int act = ibfs__smp_dr_send(&c, &port);

	if (act == IBFS_DR_DISCARD ||
	    (act == IBFS_DR_SEND && (port < 1 || port > n->nports)))
		return -1;
	struct ibfs_packet *p = ibfs__smp_packet(a->f, &c, IBFS_PERMISSIVE_LID,
						 IBFS_PERMISSIVE_LID);
	if (!p)
		return -1;
	if (act == IBFS_DR_SEND) {
		sma_port_send(n, port, p);
		return 0;
	}
	/* Hop count 0: the node's own agent, without the wire. */
	p->in_port = (uint8_t)n->sm_port;
	ibfs__eq_after(&a->f->eq, IBFS_SMA_PROC_TIME, sma_answer_ev, n,
		       (uint64_t)(uintptr_t)p);
	return 0;
}

/*
 * Trap 128 as a Notice (IBA 14.2.5.1): IsGeneric and Type (1, urgent) in
 * byte 0, ProducerType (2, switch) in bytes 1-3, TrapNumber at 4,
 * IssuerLID at 6, and the switch's LID first in the DataDetails at 10.
 */
static void sma_trap(struct sma_node *n)
{
	uint16_t lid = ibfs__switch_get_lid(n->sw);
	uint8_t out = ibfs__switch_get_lft(n->sw, n->sm_lid);
	struct ibfs_smp s;

	if (!lid || out == IBFS_LFT_NONE || out < 1 || out > n->nports) {
		sma_discard(n, NULL);
		return;
	}
	memset(&s, 0, sizeof(s));
	s.mgmt_class = IBFS_MCLASS_SUBN_LID;
	s.method = IBFS_SMP_TRAP;
	s.attr_id = IBFS_SMP_ATTR_NOTICE;
	s.tid = ++n->a->st.traps;
	s.data[0] = 0x80 | 1;
	s.data[3] = 2;
	s.data[5] = 128;
	s.data[6] = (uint8_t)(lid >> 8);
	s.data[7] = (uint8_t)lid;
	s.data[10] = (uint8_t)(lid >> 8);
	s.data[11] = (uint8_t)lid;
	struct ibfs_packet *p = ibfs__smp_packet(n->a->f, &s, n->sm_lid, lid);

	if (!p) {
		sma_discard(n, NULL);
		return;
	}
	sma_port_send(n, out, p);
}

void ibfs__sma_port_changed(struct ibfs_sma *a, int node, int port)
{
	if (node < 0 || node >= a->nnodes || !a->nodes[node].state ||
	    port < 1 || port > a->nodes[node].nports)
		return;
	struct sma_node *n = &a->nodes[node];
	struct ibfs_port *pt = ibfs__fabric_port(a->f, node, port);

	n->state[port] = pt->peer && pt->up ? IBFS_PORT_INIT : IBFS_PORT_DOWN;
	if (!n->sw)
		return;
	n->psc = 1;
	if (n->sm_lid)
		sma_trap(n);
}

int ibfs__sma_port_state(const struct ibfs_sma *a, int node, int port)
{
	if (node < 0 || node >= a->nnodes || !a->nodes[node].state ||
	    port < 0 || port > a->nodes[node].nports)
		return -1;
	return a->nodes[node].state[port];
}

void ibfs__sma_stats(const struct ibfs_sma *a, struct ibfs_sma_stats *st)
{
	*st = a->st;
}
