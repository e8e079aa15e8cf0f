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
 * State an agent keeps beside the device: PortState of each port (Init
 * once the link is up, then Armed and Active as the SM sets them, IBA
 * 7.2), the SM's LID, LinearFDBTop, and the SL-to-VL and VL arbitration
 * tables it was given (the devices have setters but no getters for them;
 * an HCA port's VL arbitration is programmed as a switch output's).
 */
#include <stdlib.h>
#include <string.h>

#include "hca/hca.h"
#include "subnet_manager/sma.h"
#include "subnet_manager/subnet.h"
#include "switch/switch.h"

struct sma_txq {
	struct ibfs_packet *head, *tail;
	struct ibfs_event *retry;
};

struct sma_node {
	struct ibfs_sma *a;
	int node, nports;
	struct ibfs_switch *sw;
	struct ibfs_hca *hca;
	uint8_t *state;         /* [nports + 1] PortState */
	uint16_t sm_lid;
	uint8_t lmc;            /* switch port 0 */
	uint16_t lft_top;
	uint8_t psc;            /* SwitchInfo PortStateChange */
	uint8_t sl2vl[16];
	/* [nports + 1]: each switch output's or HCA port's VL arbitration
	 * tables (IBA 7.6.9) and PortInfo VLHighLimit (limit); entries past
	 * the last with a weight are zero, their state fields unused. */
	struct ibfs_vlarb *arb;
	struct sma_txq *txq;    /* switches: [nports + 1] */
	ibfs_sma_sm_fn sm_fn;   /* the SM on this node, if any */
	void *sm_ctx;
	int sm_port;
};

struct ibfs_sma {
	struct ibfs_fabric *f;
	int nnodes;
	struct sma_node *nodes;
	struct ibfs_sma_stats st;
	/* Told of every link going down or up (a fault): see port_state. */
	struct ibfs_port_listener listener;
};

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
			ibfs__fabric_drop(f, p);
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

/* The attributes. */

/* LinkWidthActive codes (IBA 14.2.5.6): 1x 1, 4x 2, 8x 4, 12x 8, 2x 16. */
static uint8_t sma_width_code(int lanes)
{
	switch (lanes) {
	case 1: return 1;
	case 2: return 16;
	case 4: return 2;
	case 8: return 4;
	case 12: return 8;
	default: return 0;
	}
}

/* VLCap and OperationalVLs codes (IBA 14.2.5.6): 1 VL0, 2 VL0-1, 3
 * VL0-3, 4 VL0-7, 5 VL0-14. */
static uint8_t sma_vl_code(int data_vls)
{
	uint8_t c = 1;

	while (c < 5 && (1 << (c - 1)) < data_vls)
		c++;
	return c;
}

static void sma_port_info(struct sma_node *n, int port, int in_port,
			  struct ibfs_smp_port_info *pi)
{
	struct ibfs_fabric *f = n->a->f;
	struct ibfs_port *pt = ibfs__fabric_port(f, n->node, port);

	memset(pi, 0, sizeof(*pi));
	if (n->sw) {
		pi->lid = ibfs__switch_get_lid(n->sw);
		pi->lmc = n->lmc;
	} else {
		pi->lid = n->hca->hp[port].lid;
		pi->lmc = n->hca->hp[port].lmc;
	}
	pi->sm_lid = n->sm_lid;
	pi->local_port = (uint8_t)in_port;
	if (pt->link >= 0)
		pi->width_active =
			sma_width_code(f->topo->links[pt->link].width);
	pi->state = n->state[port];
	pi->phys_state = port == 0 || (pt->peer && pt->up) ?
				 IBFS_PHYS_LINKUP :
				 2; /* Polling: no partner */
	pi->vl_cap = pi->op_vls = sma_vl_code(pt->data_vls);
	pi->vlarb_high_cap = pi->vlarb_low_cap = 64;
	pi->vl_high_limit = n->arb[port].limit;
}

static int sma_arb_len(const struct ibfs_vlarb_entry *t)
{
	int n = 0;

	for (int i = 0; i < 64; i++)
		if (t[i].weight)
			n = i + 1;
	return n;
}

/* Programs switch output or HCA port `port` with its tables and limit. */
static int sma_arb_apply(struct sma_node *n, int port)
{
	const struct ibfs_vlarb *a = &n->arb[port];
	int nh = sma_arb_len(a->high), nl = sma_arb_len(a->low);

	if (n->hca)
		return ibfs__hca_set_vlarb(n->hca, port, a->high, nh, a->low,
					   nl, a->limit);
	return ibfs__switch_set_vlarb(n->sw, port, a->high, nh, a->low, nl,
				      a->limit);
}

/* PortInfo Set: LID, LMC, SM LID, PortState, a switch output's or HCA
 * port's VLHighLimit (IBA 14.2.5.6, 7.2). */
static uint16_t sma_port_set(struct sma_node *n, int port,
			     const struct ibfs_smp_port_info *w)
{
	if (port > 0 && w->vl_high_limit != n->arb[port].limit) {
		uint8_t old = n->arb[port].limit;

		n->arb[port].limit = w->vl_high_limit;
		if (sma_arb_apply(n, port) < 0) {
			n->arb[port].limit = old;
			return IBFS_MAD_STATUS_BAD_FIELD;
		}
	}
	if (w->state != IBFS_PORT_NOP && (port > 0 || !n->sw)) {
		uint8_t cur = n->state[port];
		int ok = (w->state == IBFS_PORT_ARMED &&
			  (cur == IBFS_PORT_INIT || cur == IBFS_PORT_ARMED)) ||
			 (w->state == IBFS_PORT_ACTIVE &&
			  (cur == IBFS_PORT_ARMED || cur == IBFS_PORT_ACTIVE));
		if (!ok)
			return IBFS_MAD_STATUS_BAD_FIELD;
	}
	if (w->lid && n->hca &&
	    ibfs__hca_set_lid(n->hca, port, w->lid, w->lmc) < 0)
		return IBFS_MAD_STATUS_BAD_FIELD;
	if (w->lid && n->sw && port == 0) {
		if (w->lid >= IBFS_MCAST_LID_BASE)
			return IBFS_MAD_STATUS_BAD_FIELD;
		ibfs__switch_set_lid(n->sw, w->lid);
		ibfs__switch_set_lmc(n->sw, w->lmc);
		n->lmc = w->lmc;
	}
	if (w->sm_lid)
		n->sm_lid = w->sm_lid;
	if (w->state != IBFS_PORT_NOP && (port > 0 || !n->sw))
		n->state[port] = w->state;
	return IBFS_MAD_STATUS_OK;
}

static uint16_t sma_lft(struct sma_node *n, struct ibfs_smp *s, int set)
{
	uint32_t block = s->attr_mod;

	if (block > IBFS_MAX_UCAST_LID / IBFS_LFT_BLOCK)
		return IBFS_MAD_STATUS_BAD_FIELD;
	if (set && ibfs__switch_set_lft_block(n->sw, block, s->data) < 0)
		return IBFS_MAD_STATUS_BAD_FIELD;
	for (uint32_t i = 0; i < IBFS_LFT_BLOCK; i++) {
		uint32_t lid = block * IBFS_LFT_BLOCK + i;

		s->data[i] = ibfs__switch_get_lft(n->sw, (uint16_t)lid);
	}
	return IBFS_MAD_STATUS_OK;
}

/* SL2VL of a switch: modifier bits 15-8 input port, 7-0 output port; an
 * input of 0xff stands for every input (an ibfsim convention, so that the
 * SM sends one SMP per output as the engines give one table). */
static uint16_t sma_sl2vl(struct sma_node *n, struct ibfs_smp *s, int set)
{
	int in = (int)(s->attr_mod >> 8 & 0xff);
	int out = (int)(s->attr_mod & 0xff);

	if (in == 0xff)
		in = -1;
	if (in > n->nports || out > n->nports)
		return IBFS_MAD_STATUS_BAD_FIELD;
	if (set) {
		uint8_t vls[16];

		ibfs__smp_get_sl2vl(s->data, vls);
		if (ibfs__switch_set_sl2vl(n->sw, in, out, vls) < 0)
			return IBFS_MAD_STATUS_BAD_FIELD;
		memcpy(n->sl2vl, vls, 16);
	}
	ibfs__smp_put_sl2vl(s->data, n->sl2vl);
	return IBFS_MAD_STATUS_OK;
}

/* SL2VL of an HCA port: the modifier names the port, 0 the one the SMP
 * came in on (IBA 14.2.5.8). */
static uint16_t sma_ca_sl2vl(struct sma_node *n, struct ibfs_smp *s, int set,
			     int in_port)
{
	int port = (int)(s->attr_mod & 0xff);

	if (port == 0)
		port = in_port;
	if (port > n->nports)
		return IBFS_MAD_STATUS_BAD_FIELD;
	if (set) {
		uint8_t vls[16];

		ibfs__smp_get_sl2vl(s->data, vls);
		if (ibfs__hca_set_sl2vl(n->hca, port, vls) < 0)
			return IBFS_MAD_STATUS_BAD_FIELD;
	}
	ibfs__smp_put_sl2vl(s->data, n->hca->hp[port].sl2vl);
	return IBFS_MAD_STATUS_OK;
}

/* VLArb: modifier bits 31-16 the output port (an HCA's: 0 is the one the
 * SMP came in on, as for SL2VL), 15-0 the block: 1 and 2 the low-priority
 * entries 0-31 and 32-63, 3 and 4 the high (14.2.5.9). */
static uint16_t sma_vlarb(struct sma_node *n, struct ibfs_smp *s, int set,
			  int in_port)
{
	int port = (int)(s->attr_mod >> 16), blk = (int)(s->attr_mod & 0xffff);

	if (n->hca && port == 0)
		port = in_port;
	if (port > n->nports || blk < 1 || blk > 4)
		return IBFS_MAD_STATUS_BAD_FIELD;
	struct ibfs_vlarb *a = &n->arb[port];
	struct ibfs_vlarb_entry *t = (blk <= 2 ? a->low : a->high) +
				     (blk % 2 ? 0 : 32);
	uint8_t vl[32], w[32];

	if (set) {
		struct ibfs_vlarb save = *a;

		ibfs__smp_get_vlarb(s->data, vl, w);
		for (int i = 0; i < 32; i++)
			t[i] = (struct ibfs_vlarb_entry){ vl[i], w[i] };
		if (sma_arb_apply(n, port) < 0) {
			*a = save;
			return IBFS_MAD_STATUS_BAD_FIELD;
		}
	}
	for (int i = 0; i < 32; i++) {
		vl[i] = t[i].vl;
		w[i] = t[i].weight;
	}
	ibfs__smp_put_vlarb(s->data, vl, w);
	return IBFS_MAD_STATUS_OK;
}

/* Answers request s that arrived on in_port; s becomes the response. */
static void sma_process(struct sma_node *n, struct ibfs_smp *s, int in_port)
{
	const struct ibfs_topo_node *tn = &n->a->f->topo->nodes[n->node];
	int set = s->method == IBFS_SMP_SET;
	uint16_t st = IBFS_MAD_STATUS_OK;

	switch (s->method != IBFS_SMP_GET && !set ? 0 : s->attr_id) {
	case 0:
		st = IBFS_MAD_STATUS_BAD_METHOD;
		break;
	case IBFS_SMP_ATTR_NODE_INFO: {
		struct ibfs_smp_node_info ni = {
			.node_type = (uint8_t)tn->type,
			.nports = (uint8_t)tn->nports,
			.sys_guid = tn->guid,
			.node_guid = tn->guid,
			.port_guid = n->sw ? tn->guid :
					     tn->ports[in_port].guid,
			.partition_cap = 1,
			.local_port = (uint8_t)in_port,
		};
		if (set)
			st = IBFS_MAD_STATUS_BAD_ATTR;
		else
			ibfs__smp_put_node_info(s->data, &ni);
		break;
	}
	case IBFS_SMP_ATTR_NODE_DESC: {
		const char *desc = tn->desc ? tn->desc : tn->id;

		if (set) {
			st = IBFS_MAD_STATUS_BAD_ATTR;
			break;
		}
		memset(s->data, 0, IBFS_SMP_DATA_BYTES);
		memcpy(s->data, desc, strnlen(desc, IBFS_SMP_DATA_BYTES));
		break;
	}
	case IBFS_SMP_ATTR_SWITCH_INFO: {
		struct ibfs_smp_switch_info w;

		if (!n->sw) {
			st = IBFS_MAD_STATUS_BAD_ATTR;
			break;
		}
		if (set) {
			ibfs__smp_get_switch_info(s->data, &w);
			if (w.lft_top > IBFS_MAX_UCAST_LID) {
				st = IBFS_MAD_STATUS_BAD_FIELD;
				break;
			}
			n->lft_top = w.lft_top;
		}
		/* Writing PortStateChange as 1 clears it (14.2.5.4). */
		if (set && w.port_state_change)
			n->psc = 0;
		w = (struct ibfs_smp_switch_info){
			.lft_cap = IBFS_MAX_UCAST_LID + 1,
			.lft_top = n->lft_top,
			.port_state_change = n->psc,
		};
		ibfs__smp_put_switch_info(s->data, &w);
		break;
	}
	case IBFS_SMP_ATTR_PORT_INFO: {
		int port = (int)s->attr_mod;
		struct ibfs_smp_port_info pi;

		if (!n->sw && port == 0)
			port = in_port;
		if (port > n->nports || (!n->sw && port < 1)) {
			st = IBFS_MAD_STATUS_BAD_FIELD;
			break;
		}
		if (set) {
			ibfs__smp_get_port_info(s->data, &pi);
			st = sma_port_set(n, port, &pi);
		}
		sma_port_info(n, port, in_port, &pi);
		ibfs__smp_put_port_info(s->data, &pi);
		break;
	}
	case IBFS_SMP_ATTR_LFT:
		st = n->sw ? sma_lft(n, s, set) : IBFS_MAD_STATUS_BAD_ATTR;
		break;
	case IBFS_SMP_ATTR_SL2VL:
		st = n->sw ? sma_sl2vl(n, s, set) : sma_ca_sl2vl(n, s, set,
								 in_port);
		break;
	case IBFS_SMP_ATTR_VLARB:
		st = sma_vlarb(n, s, set, in_port);
		break;
	default:
		st = IBFS_MAD_STATUS_BAD_ATTR;
	}
	n->a->st.answered++;
	if (set)
		n->a->st.sets++;
	if (st != IBFS_MAD_STATUS_OK)
		n->a->st.errors++;
	ibfs__smp_make_resp(s, st);
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
	sma_process(n, &s, in_port);
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
		if (!n->state)
			goto oom;
		for (int p = 1; p <= n->nports; p++) {
			struct ibfs_port *pt = ibfs__fabric_port(f, i, p);

			n->state[p] = pt->peer && pt->up ? IBFS_PORT_INIT :
							   IBFS_PORT_DOWN;
		}
		n->state[0] = n->sw ? IBFS_PORT_ACTIVE : IBFS_PORT_DOWN;
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
