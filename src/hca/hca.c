/* SPDX-License-Identifier: MIT */
/*
 * The HCA as a device on the fabric: construction, LIDs, the transmit
 * scheduler of each port and the receive dispatch.
 *
 * Transmit: each port keeps, for each data VL, a FIFO of the QPs that
 * have something to send (request packets, ACKs, READ responses) whose
 * next packet takes that VL. When the transmitter is idle, management
 * packets (VL15) go first; then the port's VL arbiter (IBA 7.6.9, the
 * switches' own, fabric/vl_arbiter.c: high- and low-priority tables of
 * weights and LimitOfHighPriority, programmed by the SM) picks a data VL
 * among those that can send, and the port takes the QP at that VL's
 * head: if its next packet is ready (its DMA and send pipeline are done)
 * it builds that one packet, sends it and puts the QP back at a tail
 * (round robin within a VL); if the packet is not ready yet the QP
 * leaves with a timer that brings it back at the tail when it is. The
 * transmitter's tx_ready starts the next pick. Packets are built only
 * when they can leave, so a long message never sits in memory as packets
 * and QPs share the link packet by packet, as an HCA's send arbiter
 * does. A packet built when its VL lacks credits is held on that VL,
 * which is not ready until they come; the other VLs go on. A pick is
 * O(1) amortised: every QP taken from a head either sends or leaves.
 * The default tables give each data VL one packet in turn, so with one
 * data VL the order is plain round robin over the QPs. (It used to scan
 * a circular list of the active QPs, O(active QPs) a packet. Both send
 * in the same order, the 1024-HCA permutation gives byte-identical
 * results, but for a QP whose turn came before its DMA was done: it now
 * rejoins at the tail when the DMA ends, not at its old place in the
 * circle. Until the VL arbiter came, QPs took turns whatever their VL.)
 *
 * Receive: the link reports a packet's header; the HCA is store and
 * forward (it checks the ICRC), so it processes the packet when its tail
 * has arrived plus the receive pipeline delay, frees its buffer, lets the
 * link check the address (ib_link.c: DLID and P_Key, IBA 9.6, 10.9) and
 * hands it to its QP.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hca/hca.h"
#include "hca/mgmt.h"

static void hca_receive(struct ibfs_device *dev, struct ibfs_port *in,
			struct ibfs_packet *p);
static void hca_tx_ready(struct ibfs_device *dev, struct ibfs_port *out);
static void hca_arb_update(struct ibfs_hca_port *hp);

static const struct ibfs_device_ops hca_ops = {
	.kind = "hca",
	.receive = hca_receive,
	.tx_ready = hca_tx_ready,
	.pkey_cap = IBFS_HCA_PKEYS,
};

void *ibfs__hca_zalloc(size_t n)
{
	if (n > SIZE_MAX - 63)
		return NULL;
	/* aligned_alloc wants a multiple of the alignment. */
	n = (n + 63) & ~(size_t)63;
	void *p = aligned_alloc(64, n);
	if (p)
		memset(p, 0, n);
	return p;
}

/* The profile of HCA node n, or NULL after saying it is unknown. */
static const struct ibfs_hca_profile *
hca_node_profile(const struct ibfs_topology *t, const struct ibfs_topo_node *n,
		 const char *profile, struct ibfs_diag *d)
{
	if (!profile)
		profile = n->profile ? n->profile : t->def.profile;
	const struct ibfs_hca_profile *prof = ibfs__hca_profile(profile);
	if (!prof) {
		char known[128] = "";

		for (const char *const *p = ibfs__hca_profile_names; *p; p++)
			snprintf(known + strlen(known),
				 sizeof(known) - strlen(known), "%s%s",
				 p == ibfs__hca_profile_names ? "" : ", ", *p);
		ibfs__diag(d, t->file ? t->file : "fabric", n->line,
			   "unknown HCA profile '%s' for '%s' (known: %s)",
			   profile, n->id, known);
	}
	return prof;
}

int ibfs__hca_check_profiles(const struct ibfs_topology *t,
			     struct ibfs_diag *d)
{
	for (size_t i = 0; i < t->nnodes; i++)
		if (t->nodes[i].type == IBFS_NODE_HCA &&
		    !hca_node_profile(t, &t->nodes[i], NULL, d))
			return -1;
	return 0;
}

struct ibfs_hca *ibfs__hca_create(struct ibfs_fabric *f, int node,
				  const char *profile, struct ibfs_exec exec,
				  struct ibfs_diag *d)
{
	const struct ibfs_topology *t = f->topo;
	const char *file = t->file ? t->file : "fabric";
	if (node < 0 || (size_t)node >= t->nnodes ||
	    t->nodes[node].type != IBFS_NODE_HCA) {
		ibfs__diag(d, file, 0, "node %d is not an HCA", node);
		return NULL;
	}
	const struct ibfs_topo_node *n = &t->nodes[node];
	const struct ibfs_hca_profile *prof = hca_node_profile(t, n, profile,
							       d);
	if (!prof)
		return NULL;
	struct ibfs_hca *h = ibfs__hca_zalloc(sizeof(*h));
	if (!h) {
		ibfs__diag(d, file, n->line, "out of memory");
		return NULL;
	}
	/*
	 * One line a port (struct ibfs_hca_port is 64 bytes). Allocated
	 * before the HCA is attached, so that a failure leaves the fabric
	 * without a pointer to it (and its links down).
	 */
	h->hp = ibfs__hca_zalloc(((size_t)n->nports + 1) * sizeof(*h->hp));
	if (!h->hp) {
		free(h);
		ibfs__diag(d, file, n->line, "out of memory");
		return NULL;
	}
	h->dev.ops = &hca_ops;
	ibfs__fabric_attach(f, node, &h->dev);
	for (int i = 1; i <= h->dev.nports; i++) {
		h->hp[i].hca = h;
		h->hp[i].num = i;
		h->hp[i].port = ibfs__fabric_port(f, node, i);
		/* Until the SM programs it, SL s goes on VL s mod data VLs. */
		int vls = h->hp[i].port->data_vls > 0 ? h->hp[i].port->data_vls
						      : 1;
		for (int sl = 0; sl < 16; sl++)
			h->hp[i].sl2vl[sl] = (uint8_t)(sl % vls);
		/* The switches' default: one data VL after another. */
		ibfs__vlarb_default(&h->hp[i].arb, vls);
		hca_arb_update(&h->hp[i]);
	}
	h->prof = prof;
	h->ack_every = prof->ack_every ? prof->ack_every : 1;
	/* One random stream per node (ROSS-style), for loss injection. */
	ibfs__rng_seed(&h->rng, f->seed, (uint64_t)node);
	h->lops = &ibfs__ib_link_ops;
	ibfs__res_init(&h->pds);
	ibfs__res_init(&h->cqs);
	ibfs__res_init(&h->ahs);
	ibfs__res_init(&h->srqs);
	h->exec = exec;
	h->ctx.node = node;
	h->ctx.hca = h;
	if (prof->pcie_bps)
		h->pcie = ibfs__rate_bps(prof->pcie_bps);
	return h;
}

void ibfs__hca_free(struct ibfs_hca *h)
{
	if (!h)
		return;
	for (uint32_t i = 0; i < h->nqps; i++)
		if (h->qps[i])
			ibfs__qp_free(h->qps[i]);
	free(h->qps);
	ibfs__srq_free_all(h);
	ibfs__mcast_free(h);
	ibfs__mr_free_all(h);
	ibfs__cq_free_all(h);
	ibfs__hca_mgmt_free(h);
	for (int i = 1; i <= h->dev.nports; i++) {
		for (int v = 0; v < IBFS_HCA_DATA_VLS; v++)
			if (h->hp[i].held[v])
				ibfs__packet_free(h->dev.fab, h->hp[i].held[v]);
		ibfs__cc_cnp_flush(&h->hp[i]);
	}
	ibfs__hca_cc_free(h);
	if (h->dev.fab && h->dev.fab->devices &&
	    h->dev.fab->devices[h->dev.node] == &h->dev)
		h->dev.fab->devices[h->dev.node] = NULL;
	free(h->hp);
	free(h);
}

struct ibfs_hca *ibfs__hca_of_node(struct ibfs_fabric *f, int node)
{
	if (!f || node < 0 || (size_t)node >= f->topo->nnodes)
		return NULL;
	struct ibfs_device *dev = f->devices[node];
	if (!dev || dev->ops != &hca_ops)
		return NULL;
	return (struct ibfs_hca *)dev;
}

int ibfs__hca_set_lid(struct ibfs_hca *h, int port, uint16_t lid,
		      uint8_t lmc)
{
	/* Unicast LIDs are 0x0001-0xbfff (IBA 4.1.3); LMC is 0-7. */
	if (port < 1 || port > h->dev.nports || lid == 0 || lid >= 0xc000 ||
	    lmc > 7)
		return -1;
	h->hp[port].lid = lid;
	h->hp[port].lmc = lmc;
	return 0;
}

int ibfs__hca_set_sm_lid(struct ibfs_hca *h, int port, uint16_t lid)
{
	if (port < 1 || port > h->dev.nports)
		return -1;
	h->hp[port].sm_lid = lid;
	return 0;
}

int ibfs__hca_set_sl2vl(struct ibfs_hca *h, int port, const uint8_t vls[16])
{
	if (port < 1 || port > h->dev.nports)
		return -1;
	for (int sl = 0; sl < 16; sl++)
		if (vls[sl] >= h->hp[port].port->data_vls)
			return -1;
	memcpy(h->hp[port].sl2vl, vls, 16);
	return 0;
}

struct ibfs_context *ibfs__hca_context(struct ibfs_hca *h)
{
	return &h->ctx;
}

ibfs_time_t ibfs__hca_pcie_ser(const struct ibfs_hca *h, uint64_t len)
{
	if (!h->prof->pcie_bps || !len)
		return 0;
	return ibfs__rate_ser_time(h->pcie, len);
}

ibfs_time_t ibfs__hca_dma_write(struct ibfs_hca *h, ibfs_time_t t,
				uint64_t len)
{
	ibfs_time_t start = t > h->pcie_wr_free ? t : h->pcie_wr_free;
	h->pcie_wr_free = start + ibfs__hca_pcie_ser(h, len);
	return h->pcie_wr_free + h->prof->dma_write;
}

struct ibfs_packet *ibfs__hca_packet(struct ibfs_hca *h, uint32_t len)
{
	struct ibfs_fabric *f = h->dev.fab;
	struct ibfs_packet *p = ibfs__packet_new(f);
	if (!p)
		return NULL;
	p->kind = IBFS_PKT_DATA;
	p->payload_len = len;
	if (len && f->data_mode)
		p->payload = ibfs__payload_new(f);
	return p;
}

/* Transmit scheduling. */

_Static_assert(offsetof(struct ibfs_hca_port, fifo) == 64,
	       "what hca_run reads per packet in line 0 (hca.h)");

static ibfs_time_t hca_qp_ready(struct ibfs_hca_qp *qp)
{
	ibfs_time_t t = IBFS_TIME_NEVER, r;
	if (ibfs__rc_resp_pending(qp, &r))
		t = r;
	if (qp->req_ready_valid && qp->req_ready < t) {
		r = qp->req_ready > qp->hold_until ? qp->req_ready :
						     qp->hold_until;
		/* Congestion control's injection rate delay (A10.3). */
		if (__builtin_expect(qp->hca->cc != NULL, 0)) {
			ibfs_time_t u = ibfs__cc_until(qp);
			if (u > r)
				r = u;
		}
		if (r < t)
			t = r;
	}
	return t;
}

/*
 * The data VL qp's next packet takes: its path's, through the port's
 * SL-to-VL table. A UD QP's packets take the SL of each WQE's address
 * handle: it waits on the VL of its own packet when one is held, so that
 * its packets leave in order, else on its next WQE's.
 */
static int hca_qp_vl(const struct ibfs_hca_port *hp, struct ibfs_hca_qp *qp)
{
	uint8_t sl = qp->attr.ah_attr.sl;
	if (qp->pub.qp_type == IBFS_QPT_UD) {
		for (uint32_t m = hp->held_mask; m; m &= m - 1)
			if (hp->held_qp[__builtin_ctz(m)] == qp)
				return __builtin_ctz(m);
		if (qp->sq_next != qp->sq_tail)
			sl = ibfs__sq_at(qp, qp->sq_next)->sl;
	}
	return hp->sl2vl[sl & 15];
}

/*
 * Appends qp to the FIFO of the VL its next packet takes (no-op if it is
 * in a FIFO already). O(1).
 */
static void hca_push(struct ibfs_hca_port *hp, struct ibfs_hca_qp *qp)
{
	if (qp->in_ring)
		return;
	int vl = hp->one ? 0 : hca_qp_vl(hp, qp);
	qp->rr_next = NULL;
	qp->rr_prev = hp->fifo[vl].tail;
	if (hp->fifo[vl].tail)
		hp->fifo[vl].tail->rr_next = qp;
	else
		hp->fifo[vl].head = qp;
	hp->fifo[vl].tail = qp;
	hp->fifo_mask |= (uint16_t)(1u << vl);
	qp->in_ring = (uint8_t)(1 + vl);
}

/* Takes qp out of its FIFO, if it is in one. O(1). */
static void hca_unlink(struct ibfs_hca_port *hp, struct ibfs_hca_qp *qp)
{
	if (!qp->in_ring)
		return;
	int vl = qp->in_ring - 1;
	if (qp->rr_prev)
		qp->rr_prev->rr_next = qp->rr_next;
	else
		hp->fifo[vl].head = qp->rr_next;
	if (qp->rr_next)
		qp->rr_next->rr_prev = qp->rr_prev;
	else
		hp->fifo[vl].tail = qp->rr_prev;
	if (!hp->fifo[vl].head)
		hp->fifo_mask &= (uint16_t)~(1u << vl);
	qp->rr_next = qp->rr_prev = NULL;
	qp->in_ring = 0;
}

/*
 * One data VL that the arbiter serves: every pick would be VL 0 whatever
 * entry the tables are at (the entries only share the link among data
 * VLs), so hca_run skips the pick and the charge, as a switch output with
 * one data VL does (switch/vlarb.c).
 */
static void hca_arb_update(struct ibfs_hca_port *hp)
{
	hp->one = hp->port->data_vls <= 1 && ibfs__vlarb_serves(&hp->arb, 0);
}

static void hca_kick_ev(void *obj, uint64_t arg);
static void hca_qp_timer_ev(void *obj, uint64_t arg);

static void hca_schedule(struct ibfs_hca_port *hp, ibfs_time_t t)
{
	struct ibfs_eq *q = &hp->hca->dev.fab->eq;
	if (t < q->now)
		t = q->now;
	if (hp->kick) {
		if (hp->kick_at <= t)
			return;
		ibfs__eq_cancel(q, hp->kick);
	}
	hp->kick = ibfs__eq_schedule(q, t, hca_kick_ev, hp, 0);
	hp->kick_at = t;
}

void ibfs__hca_port_run_at(struct ibfs_hca_port *hp, ibfs_time_t t)
{
	hca_schedule(hp, t);
}

int ibfs__hca_set_vlarb(struct ibfs_hca *h, int port,
			const struct ibfs_vlarb_entry *high, int nhigh,
			const struct ibfs_vlarb_entry *low, int nlow,
			uint8_t limit_high)
{
	if (port < -1 || port == 0 || port > h->dev.nports ||
	    ibfs__vlarb_check(high, nhigh, low, nlow) < 0)
		return -1;
	int last = port < 0 ? h->dev.nports : port;
	for (int i = port < 0 ? 1 : port; i <= last; i++) {
		struct ibfs_hca_port *hp = &h->hp[i];
		ibfs__vlarb_set(&hp->arb, high, nhigh, low, nlow, limit_high);
		hca_arb_update(hp);
		/* A VL the old tables did not serve may send now. */
		if (hp->fifo_mask || hp->held_mask)
			hca_schedule(hp, ibfs__hca_now(h));
	}
	return 0;
}

/* Wakes qp at t, when its next packet is ready (one timer a QP). */
static void hca_qp_timer(struct ibfs_hca_qp *qp, ibfs_time_t t)
{
	struct ibfs_eq *q = &qp->hca->dev.fab->eq;
	if (qp->wake_ev) {
		if (qp->wake_at <= t)
			return;
		ibfs__eq_cancel(q, qp->wake_ev);
	}
	qp->wake_ev = ibfs__eq_schedule(q, t, hca_qp_timer_ev, qp, 0);
	qp->wake_at = t;
}

/*
 * The last packet of a UC or UD message on QP `ends` (NULL: none) leaves
 * the port at `left`: the message completes then. An unreliable service
 * has no acknowledgment to wait for, and its send buffer may be reused
 * once the data is on the wire; completing when the packet was built
 * made a few UD SENDs finish faster than the link carries them.
 */
static void hca_sent(struct ibfs_hca_qp *ends, ibfs_time_t left)
{
	if (ends)
		ibfs__qp_complete_sq(ends, left);
}

/*
 * The data VLs that may send now: those with a QP on their FIFO and no
 * packet held, and those whose held packet has its credits now. A VL
 * whose packet waits for credits is not ready, nor are the QPs on its
 * FIFO: their next packet takes that VL (or, for UD, follows that
 * packet).
 */
static uint32_t hca_ready(struct ibfs_hca_port *hp)
{
	uint32_t ready = hp->fifo_mask & ~(uint32_t)hp->held_mask;
	for (uint32_t m = hp->held_mask; m; m &= m - 1) {
		int vl = __builtin_ctz(m);
		if (hp->hca->lops->can_send(hp, hp->held[vl]))
			ready |= 1u << vl;
	}
	return ready;
}

/* Takes VL vl's held packet; *ends: the QP whose message it ends. */
static struct ibfs_packet *hca_take_held(struct ibfs_hca_port *hp, int vl,
					 struct ibfs_hca_qp **ends)
{
	struct ibfs_packet *p = hp->held[vl];
	*ends = hp->held_ends[vl];
	hp->held[vl] = NULL;
	hp->held_qp[vl] = NULL;
	hp->held_ends[vl] = NULL;
	hp->held_mask &= (uint16_t)~(1u << vl);
	return p;
}

/*
 * The next packet of the QP at the head of VL vl's FIFO, which leaves the
 * FIFO: it rejoins a tail if it sent (even with nothing more to send yet:
 * it keeps that place if work comes before its turn, and leaves when its
 * turn finds it idle); it drops out if it has nothing left, or with a
 * timer that brings it back when its packet is not ready yet; and it
 * moves to another VL's FIFO if its next packet now takes that VL. NULL
 * when no packet may go now: with *stop set when the port should stop
 * rather than spin (out of memory). A packet built without credits for
 * its VL is held there, and NULL returned.
 */
static struct ibfs_packet *hca_build(struct ibfs_hca_port *hp, int vl,
				     ibfs_time_t now, struct ibfs_hca_qp **ends,
				     int *stop)
{
	struct ibfs_hca *h = hp->hca;
	struct ibfs_hca_qp *qp = hp->fifo[vl].head;
	hca_unlink(hp, qp);
	/* A UD QP's next WQE, or a new SL-to-VL table, takes another VL. */
	if (!hp->one && hca_qp_vl(hp, qp) != vl) {
		hca_push(hp, qp);
		return NULL;
	}
	ibfs_time_t r = hca_qp_ready(qp);
	if (r == IBFS_TIME_NEVER)
		return NULL;
	if (r > now) {
		hca_qp_timer(qp, r);
		return NULL;
	}
	ibfs_time_t rr;
	struct ibfs_packet *p;
	uint64_t sq_next = qp->sq_next;
	if (ibfs__rc_resp_pending(qp, &rr) && rr <= now)
		p = ibfs__rc_resp_build(qp);
	else
		p = ibfs__sq_build(qp);
	if (!p) {
		/* The QP failed (it is in ERR, out of the FIFO) and another
		 * may go; or memory ran out: keep the QP and stop rather
		 * than spin. */
		if (qp->destroyed || qp->pub.state == IBFS_QPS_ERR)
			return NULL;
		hca_push(hp, qp);
		*stop = hca_qp_ready(qp) <= now;
		return NULL;
	}
	h->st.tx_pkts++;
	/* A UC or UD message ends with this packet (sq.c). */
	*ends = qp->pub.qp_type != IBFS_QPT_RC && qp->sq_next != sq_next ? qp
									  : NULL;
	int live = !qp->destroyed && qp->pub.state != IBFS_QPS_ERR;
	if (h->lops->can_send(hp, p)) {
		if (live)
			hca_push(hp, qp);
		return p;
	}
	/* p->vl is vl (hca_qp_vl), which held nothing: it waits for its
	 * credits there, and the QP, pushed after, waits on it too. */
	hp->held[p->vl] = p;
	hp->held_qp[p->vl] = qp;
	hp->held_ends[p->vl] = *ends;
	hp->held_mask |= (uint16_t)(1u << p->vl);
	if (live)
		hca_push(hp, qp);
	return NULL;
}

/*
 * hca_run's send with congestion control: the flow of QP `from` waits
 * its injection rate delay after a request packet (cc_throttle.c). What
 * that needs of p is read before the send, which may free it.
 */
static void hca_send_cc(struct ibfs_hca_port *hp, struct ibfs_hca_qp *from,
			struct ibfs_packet *p, struct ibfs_hca_qp *ends)
{
	struct ibfs_hca *h = hp->hca;
	const struct ibfs_hca_opinfo *oi = ibfs__hca_opinfo(p->opcode);
	struct ibfs_cc_tx tx = {
		.request = oi && !(oi->flags & IBFS_OPF_RESP),
		.sl = p->sl,
		.wire = p->wire_bytes,
	};
	ibfs_time_t left = h->lops->send(hp, p);
	ibfs__cc_sent(hp, from, &tx, left);
	hca_sent(ends, left);
}

/*
 * Sends while the transmitter is free: management packets first, then
 * the data VL that the arbiter picks among those ready (IBA 7.6.9) sends
 * its held packet if it has one, else the next packet of the QP at its
 * FIFO's head (hca_build), and is charged that packet's bytes. Each QP
 * taken from a head either sends, leaves or moves to its VL's FIFO, so a
 * packet costs O(1) amortised whatever the number of QPs, plus the pick,
 * O(entries of the tables) (no pick with one data VL).
 */
static void hca_run(struct ibfs_hca_port *hp)
{
	struct ibfs_hca *h = hp->hca;
	ibfs_time_t now = ibfs__hca_now(h);
	for (;;) {
		/* Management packets (VL15) go ahead of data (mgmt.c). */
		if (h->mgmt && ibfs__hca_mgmt_tx(hp))
			continue;
		if (!h->lops->can_send(hp, NULL))
			return;
		/* CNPs (congestion control) go ahead of data too. */
		if (__builtin_expect(hp->cnp_head != NULL, 0) &&
		    ibfs__cc_cnp_tx(hp))
			continue;
		uint32_t ready = hp->held_mask ? hca_ready(hp) : hp->fifo_mask;
		if (!ready)
			return;
		int high = 0, stop = 0;
		int vl = hp->one ? 0 : ibfs__vlarb_pick(&hp->arb, ready, &high);
		if (vl < 0)
			return;
		struct ibfs_hca_qp *ends = NULL;
		struct ibfs_hca_qp *from = hp->held_mask >> vl & 1 ?
						   hp->held_qp[vl] :
						   hp->fifo[vl].head;
		struct ibfs_packet *p = hp->held_mask >> vl & 1 ?
						hca_take_held(hp, vl, &ends) :
						hca_build(hp, vl, now, &ends,
							  &stop);
		if (!p) {
			if (stop)
				return;
			continue;
		}
		/* Charged before the send, which frees p on a dead link. */
		if (!hp->one)
			ibfs__vlarb_charge(&hp->arb, high, p->wire_bytes);
		if (__builtin_expect(h->cc != NULL, 0)) {
			hca_send_cc(hp, from, p, ends);
			continue;
		}
		hca_sent(ends, h->lops->send(hp, p));
	}
}

static void hca_kick_ev(void *obj, uint64_t arg)
{
	(void)arg;
	struct ibfs_hca_port *hp = obj;
	hp->kick = NULL;
	hca_run(hp);
}

static void hca_qp_timer_ev(void *obj, uint64_t arg)
{
	(void)arg;
	struct ibfs_hca_qp *qp = obj;
	qp->wake_ev = NULL;
	ibfs__hca_qp_wake(qp);
}

void ibfs__hca_qp_wake(struct ibfs_hca_qp *qp)
{
	if (qp->destroyed)
		return;
	struct ibfs_hca_port *hp = &qp->hca->hp[qp->port];
	ibfs_time_t r = hca_qp_ready(qp);
	if (r == IBFS_TIME_NEVER)
		return;
	ibfs_time_t now = ibfs__hca_now(qp->hca);
	if (r > now && !qp->in_ring) {
		hca_qp_timer(qp, r);
		return;
	}
	/* In the FIFO (or already there, with a packet due later): the
	 * port runs at r, once every wake due then has been seen, or
	 * earlier when its transmitter frees (tx_ready). */
	hca_push(hp, qp);
	hca_schedule(hp, r);
}

/* Called when a QP is destroyed or fails: it leaves its port's FIFO and
 * its timer stops. */
void ibfs__hca_qp_gone(struct ibfs_hca_qp *qp);
void ibfs__hca_qp_gone(struct ibfs_hca_qp *qp)
{
	if (qp->wake_ev) {
		ibfs__eq_cancel(&qp->hca->dev.fab->eq, qp->wake_ev);
		qp->wake_ev = NULL;
	}
	if (qp->port >= 1 && qp->port <= qp->hca->dev.nports)
		hca_unlink(&qp->hca->hp[qp->port], qp);
}

static void hca_tx_ready(struct ibfs_device *dev, struct ibfs_port *out)
{
	struct ibfs_hca *h = (struct ibfs_hca *)dev;
	hca_run(&h->hp[out->num]);
}

/* Receive. */

static void hca_rx_ev(void *obj, uint64_t arg)
{
	struct ibfs_hca_port *hp = obj;
	struct ibfs_hca *h = hp->hca;
	struct ibfs_packet *p = (struct ibfs_packet *)(uintptr_t)arg;
	h->lops->consume(hp, p);
	h->st.rx_pkts++;
	if (p->kind == IBFS_PKT_MGMT && ibfs__hca_mgmt_rx(hp, p))
		return;
	/* Congestion notification (A10.3): a CNP is consumed there. */
	if (__builtin_expect(p->fecn | p->becn, 0) && ibfs__cc_rx(hp, p)) {
		ibfs__fabric_deliver(h->dev.fab, p);
		ibfs__packet_free(h->dev.fab, p);
		return;
	}
	const struct ibfs_hca_opinfo *oi = ibfs__hca_opinfo(p->opcode);
	struct ibfs_hca_qp *qp = NULL;
	if (p->kind == IBFS_PKT_DATA && oi && h->lops->accept(hp, p))
		qp = ibfs__qp_lookup(h, p->dest_qp);
	if (qp && qp->port == hp->num) {
		/* Test hooks: lose this request or response. */
		int resp = !!(oi->flags & IBFS_OPF_RESP);
		int *drop = resp ? &h->drop_next_resp : &h->drop_next_rx;
		uint32_t ppm = resp ? h->drop_ppm_resp : h->drop_ppm_rx;
		if (*drop > 0) {
			(*drop)--;
			qp = NULL;
		} else if (ppm && ibfs__rng_below(&h->rng, 1000000) < ppm) {
			qp = NULL;
		}
	}
	struct ibfs_fabric *f = h->dev.fab;
	if (!qp || qp->port != hp->num) {
		/* Off the unicast path: a multicast DLID is never a port's. */
		if (p->dlid >= IBFS_MCAST_LID_BASE && p->kind == IBFS_PKT_DATA &&
		    p->dlid != IBFS_PERMISSIVE_LID) {
			ibfs__mcast_rx(hp, p);
			return;
		}
		h->st.dropped++;
		ibfs__fabric_drop(f, p);
		ibfs__packet_free(f, p);
		return;
	}
	/*
	 * IBA 10.9.3: the packet's P_Key must match the QP's (RC and UC:
	 * the one in its context; UD: its table entry), else it is dropped
	 * silently and counted in the port's P_KeyViolations.
	 */
	if (__builtin_expect(!ibfs__pkey_match(p->pkey, ibfs__qp_pkey(qp)),
			     0)) {
		hp->port->pkey_violations++;
		h->st.dropped++;
		ibfs__fabric_drop(f, p);
		ibfs__packet_free(f, p);
		return;
	}
	ibfs__fabric_deliver(f, p);
	if (qp->pub.qp_type == IBFS_QPT_UD) {
		if ((p->opcode & 0xe0) == IBFS_OP_UD)
			ibfs__ud_rx(qp, p);
		else
			h->st.dropped++;
	} else if (qp->pub.qp_type == IBFS_QPT_UC) {
		if ((p->opcode & 0xe0) == IBFS_OP_UC)
			ibfs__uc_rx(qp, p);
		else
			h->st.dropped++;
	} else if ((p->opcode & 0xe0) != IBFS_OP_RC) {
		h->st.dropped++;
	} else if (oi->flags & IBFS_OPF_RESP) {
		ibfs__rc_req_rx(qp, p);
	} else {
		ibfs__rc_resp_rx(qp, p);
	}
	ibfs__packet_free(f, p);
}

static void hca_receive(struct ibfs_device *dev, struct ibfs_port *in,
			struct ibfs_packet *p)
{
	struct ibfs_hca *h = (struct ibfs_hca *)dev;
	ibfs_time_t t = p->tail_at + h->prof->rx_pkt;
	ibfs__eq_schedule(&dev->fab->eq, t, hca_rx_ev, &h->hp[in->num],
			  (uint64_t)(uintptr_t)p);
}
