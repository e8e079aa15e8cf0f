/* SPDX-License-Identifier: MIT */
/*
 * The HCA as a device on the fabric: construction, the port attributes
 * the SM sets and reads (LIDs, MasterSMLID, SL-to-VL), the accessors of
 * hca.h and the receive dispatch. Each port's transmit scheduler is in
 * tx_sched.c.
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

#include "fabric/eth.h"
#include "hca/hca_int.h"
#include "hca/mgmt.h"

static void hca_receive(struct ibfs_device *dev, struct ibfs_port *in,
			struct ibfs_packet *p);

static const struct ibfs_device_ops hca_ops = {
	.kind = "hca",
	.receive = hca_receive,
	.tx_ready = ibfs__tx_sched_ready,
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
		ibfs__tx_sched_init(&h->hp[i], vls);
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
	/* The control freed below looks for QPs' state: there are none. */
	h->qps = NULL;
	h->nqps = 0;
	ibfs__srq_free_all(h);
	ibfs__mcast_free(h);
	ibfs__mr_free_all(h);
	ibfs__cq_free_all(h);
	ibfs__hca_mgmt_free(h);
	for (int i = 1; i <= h->dev.nports; i++) {
		ibfs__tx_sched_flush(&h->hp[i]);
		ibfs__cc_cnp_flush(&h->hp[i]);
	}
	ibfs__hca_cc_free(h);
	free(h->irn);
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

/* Port hp's SL-to-VL table and scheduler for `vls` data VLs. */
static void hca_port_vls(struct ibfs_hca_port *hp, int vls)
{
	for (int sl = 0; sl < 16; sl++)
		hp->sl2vl[sl] = (uint8_t)(sl % vls);
	ibfs__tx_sched_init(hp, vls);
}

int ibfs__hca_set_link(struct ibfs_hca *h, enum ibfs_hca_link kind, int vlan,
		       int ipv6)
{
	int roce = kind == IBFS_HCA_LINK_ROCE;

	if ((kind != IBFS_HCA_LINK_IB && !roce) || h->nqps)
		return -1;
	h->lops = roce ? &ibfs__roce_link_ops : &ibfs__ib_link_ops;
	h->eth_vlan = (uint8_t)(roce && vlan);
	h->eth_ipv6 = (uint8_t)(roce && ipv6);
	for (int i = 1; i <= h->dev.nports; i++) {
		struct ibfs_hca_port *hp = &h->hp[i];
		struct ibfs_port *port = hp->port;

		/* An Ethernet port's eight priorities are its data VLs
		 * (fabric/eth.h), whatever the topology gave it. */
		if (roce)
			port->data_vls = IBFS_ETH_PRIOS;
		hca_port_vls(hp, port->data_vls > 0 ? port->data_vls : 1);
	}
	return 0;
}

int ibfs__hca_set_recovery(struct ibfs_hca *h, enum ibfs_hca_recovery r,
			   const struct ibfs_hca_irn_cfg *cfg)
{
	static const struct ibfs_hca_irn_cfg defaults = {
		.rto_low = IBFS_IRN_RTO_LOW, .rto_high = IBFS_IRN_RTO_HIGH,
		.rto_n = IBFS_IRN_RTO_N,
	};

	if ((r != IBFS_HCA_RECOVERY_GBN && r != IBFS_HCA_RECOVERY_IRN) ||
	    h->nqps)
		return -1;
	if (r == IBFS_HCA_RECOVERY_GBN) {
		free(h->irn);
		h->irn = NULL;
		return 0;
	}
	if (h->lops != &ibfs__roce_link_ops)
		return -1; /* IRN is a RoCE NIC's */
	if (!h->irn)
		h->irn = malloc(sizeof(*h->irn));
	if (!h->irn)
		return -1;
	*h->irn = cfg ? *cfg : defaults;
	return 0;
}

enum ibfs_hca_recovery ibfs__hca_recovery(const struct ibfs_hca *h)
{
	return h->irn ? IBFS_HCA_RECOVERY_IRN : IBFS_HCA_RECOVERY_GBN;
}

enum ibfs_hca_link ibfs__hca_link(const struct ibfs_hca *h)
{
	return h->lops == &ibfs__roce_link_ops ? IBFS_HCA_LINK_ROCE
					       : IBFS_HCA_LINK_IB;
}

int ibfs__hca_set_host_id(struct ibfs_hca *h, int port, uint16_t id)
{
	return ibfs__hca_set_lid(h, port, id, 0);
}

struct ibfs_context *ibfs__hca_context(struct ibfs_hca *h)
{
	return &h->ctx;
}

int ibfs__hca_node(const struct ibfs_hca *h)
{
	return h->dev.node;
}

struct ibfs_fabric *ibfs__hca_fabric(const struct ibfs_hca *h)
{
	return h->dev.fab;
}

int ibfs__hca_nports(const struct ibfs_hca *h)
{
	return h->dev.nports;
}

uint32_t ibfs__hca_max_inline(const struct ibfs_hca *h)
{
	return h->prof->max_inline;
}

/* Port `port` of h, NULL if it has none of that number. */
static const struct ibfs_hca_port *hca_port(const struct ibfs_hca *h,
					    int port)
{
	return port >= 1 && port <= h->dev.nports ? &h->hp[port] : NULL;
}

uint16_t ibfs__hca_port_lid(const struct ibfs_hca *h, int port)
{
	const struct ibfs_hca_port *hp = hca_port(h, port);
	return hp ? hp->lid : 0;
}

uint8_t ibfs__hca_port_lmc(const struct ibfs_hca *h, int port)
{
	const struct ibfs_hca_port *hp = hca_port(h, port);
	return hp ? hp->lmc : 0;
}

uint16_t ibfs__hca_port_sm_lid(const struct ibfs_hca *h, int port)
{
	const struct ibfs_hca_port *hp = hca_port(h, port);
	return hp ? hp->sm_lid : 0;
}

const uint8_t *ibfs__hca_port_sl2vl(const struct ibfs_hca *h, int port)
{
	const struct ibfs_hca_port *hp = hca_port(h, port);
	return hp ? hp->sl2vl : NULL;
}

const struct ibfs_hca_stats *ibfs__hca_stats(const struct ibfs_hca *h)
{
	return &h->st;
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
	/* Congestion notification (A10.3; the control's, cc.c): a CNP is
	 * consumed there. */
	if (__builtin_expect((p->fecn | p->becn) || h->cc, 0) &&
	    ibfs__cc_rx(hp, p)) {
		ibfs__fabric_deliver(h->dev.fab, p);
		ibfs__packet_free(h->dev.fab, p);
		return;
	}
	const struct ibfs_hca_opinfo *oi = ibfs__hca_opinfo(p->opcode);
	struct ibfs_hca_qp *qp = NULL;
	enum ibfs_drop_cause cause = IBFS_DROP_NO_RECEIVER;
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
			cause = IBFS_DROP_INJECTED;
		} else if (ppm && ibfs__rng_below(&h->rng, 1000000) < ppm) {
			qp = NULL;
			cause = IBFS_DROP_INJECTED;
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
		ibfs__fabric_drop(f, p, cause);
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
		ibfs__fabric_drop(f, p, IBFS_DROP_PKEY);
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
