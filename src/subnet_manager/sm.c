/* SPDX-License-Identifier: MIT */
/*
 * The subnet manager's state machine, driven by SMP responses.
 *
 * Discovery, in the order OpenSM's receivers chain their requests
 * (osm_node_info_rcv.c, osm_sw_info_rcv.c, osm_port_info_rcv.c): NodeInfo
 * of the SM's own node (hop count 0), then, for every node found,
 * NodeDescription and, of a CA, PortInfo of the port reached; of a
 * switch SwitchInfo, on its answer PortInfo of port 0, on that answer
 * PortInfo of ports 1..n. A switch port, or the SM's own port, whose
 * PortInfo shows a physical link is probed with NodeInfo one hop further
 * along the directed route, except the port the node was reached by; a
 * port's PortInfo answer also reads its P_Key table (sm_pkey.c). A
 * NodeInfo answer with a known node GUID just records the link (the
 * NodeInfo carries the far port, LocalPortNum). As OpenSM does, the SM
 * keeps a few SMPs outstanding (max_wire_smps).
 *
 * Then the discovered graph is routed and programmed with SubnSet, stage
 * by stage, each stage waiting for all its responses (sm_config.c).
 * Requests of a stage wait in a FIFO; at most max_wire are outstanding,
 * each in one of 64 slots whose number is the low 6 bits of its TID, each
 * with a timeout after which it is sent again (IBFS_SM_TRANS_TIMEOUT).
 *
 * Sweeps again (ibfs__sm_resweep, or a trap from an agent) reuse the node
 * records by GUID: the links ever found (LIDs are assigned on them, so
 * they do not move when a link fails), the PortState read (ports already
 * Active are left alone) and the LFT blocks each switch was last given,
 * so only blocks that changed are sent. A trap during a sweep starts
 * another once it is over.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "subnet_manager/routing.h"
#include "subnet_manager/sm_int.h"

void ibfs__sm_fail(struct ibfs_sm *sm, const char *msg)
{
	if (sm->st.state < 0)
		return;
	sm->st.state = -1;
	snprintf(sm->st.error, sizeof(sm->st.error), "%.200s", msg);
	sm->qhead = sm->nq;
}

/* Node records by GUID. */

static size_t sm_hslot(const struct ibfs_sm *sm, uint64_t guid)
{
	return (size_t)((guid * 0x9e3779b97f4a7c15ULL) >> 20) & (sm->hcap - 1);
}

static int sm_find(const struct ibfs_sm *sm, uint64_t guid)
{
	for (size_t h = sm_hslot(sm, guid);; h = (h + 1) & (sm->hcap - 1)) {
		if (sm->hash[h] < 0)
			return -1;
		if (sm->dn[sm->hash[h]].guid == guid)
			return sm->hash[h];
	}
}

static int sm_rehash(struct ibfs_sm *sm, size_t cap)
{
	int *h = malloc(cap * sizeof(*h));

	if (!h)
		return -1;
	free(sm->hash);
	sm->hash = h;
	sm->hcap = cap;
	memset(h, 0xff, cap * sizeof(*h));
	for (int i = 0; i < sm->ndn; i++) {
		size_t s = sm_hslot(sm, sm->dn[i].guid);

		while (h[s] >= 0)
			s = (s + 1) & (cap - 1);
		h[s] = i;
	}
	return 0;
}

static long sm_topo_index(const struct ibfs_sm *sm, uint64_t guid)
{
	size_t lo = 0, hi = sm->f->topo->nnodes;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (sm->topo_guid[mid] < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < sm->f->topo->nnodes && sm->topo_guid[lo] == guid)
		return sm->topo_idx[lo];
	return (long)sm->f->topo->nnodes + sm->ndn; /* unknown: after */
}

/* A node record for guid, new or found again in this sweep. */
static int sm_node_get(struct ibfs_sm *sm, uint64_t guid, int *fresh)
{
	int i = sm_find(sm, guid);

	*fresh = i < 0 || sm->dn[i].seen != sm->sweep_no;
	if (i >= 0)
		return i;
	if (sm->ndn == sm->dn_cap) {
		int cap = sm->dn_cap ? 2 * sm->dn_cap : 64;
		struct sm_dnode *d = realloc(sm->dn, (size_t)cap * sizeof(*d));

		if (!d)
			return -1;
		sm->dn = d;
		sm->dn_cap = cap;
	}
	i = sm->ndn++;
	memset(&sm->dn[i], 0, sizeof(sm->dn[i]));
	sm->dn[i].guid = guid;
	/* Keep the table at most half full; a rehash inserts i too. */
	if ((size_t)sm->ndn * 2 > sm->hcap)
		return sm_rehash(sm, 2 * sm->hcap) < 0 ? -1 : i;
	size_t s = sm_hslot(sm, guid);

	while (sm->hash[s] >= 0)
		s = (s + 1) & (sm->hcap - 1);
	sm->hash[s] = i;
	return i;
}

/* Requests. */

struct sm_req *ibfs__sm_push(struct ibfs_sm *sm, uint8_t method,
			      uint16_t attr, uint32_t mod, int node, int port)
{
	if (sm->nq == sm->qcap) {
		size_t cap = sm->qcap ? 2 * sm->qcap : 256;
		struct sm_req *q = realloc(sm->q, cap * sizeof(*q));

		if (!q) {
			ibfs__sm_fail(sm, "out of memory queueing SMPs");
			return NULL;
		}
		sm->q = q;
		sm->qcap = cap;
	}
	struct sm_req *r = &sm->q[sm->nq++];

	memset(r, 0, sizeof(*r));
	r->method = method;
	r->attr = attr;
	r->mod = mod;
	r->node = node;
	r->port = port;
	return r;
}

static void sm_get(struct ibfs_sm *sm, uint16_t attr, uint32_t mod, int node)
{
	ibfs__sm_push(sm, IBFS_SMP_GET, attr, mod, node, 0);
}

/* NodeInfo one hop beyond node's port (node -1: the SM's own node). */
static void sm_probe(struct ibfs_sm *sm, int node, int port)
{
	if (node >= 0 && sm->dn[node].hops >= IBFS_SMP_MAX_HOPS)
		return;
	struct sm_req *r = ibfs__sm_push(sm, IBFS_SMP_GET,
					 IBFS_SMP_ATTR_NODE_INFO, 0, node,
					 port);

	if (r && node >= 0)
		r->flags = SM_PROBE;
}

static void sm_pump(struct ibfs_sm *sm);

/* No answer to SMP `tid` in time: send it again, or give it up. */
static void sm_timeout_ev(void *obj, uint64_t tid)
{
	struct ibfs_sm *sm = obj;
	int slot = (int)(tid & (SM_SLOTS - 1));

	if (!sm->out_used[slot] || sm->out_tid[slot] != tid)
		return;
	struct sm_req r = sm->out[slot];

	sm->out_ev[slot] = NULL;
	sm->out_used[slot] = 0;
	sm->outstanding--;
	if (r.tries < IBFS_SM_TRANS_RETRIES) {
		struct sm_req *q = ibfs__sm_push(sm, r.method, r.attr, r.mod,
						 r.node, r.port);
		if (q) {
			memcpy(q->data, r.data, sizeof(q->data));
			q->flags = r.flags;
			q->tries = (uint8_t)(r.tries + 1);
			sm->retries++;
		}
	} else {
		sm->timeouts++;
		if (r.method == IBFS_SMP_SET)
			sm->st.errors++;
		if (r.flags & SM_MC_UPDATE)
			ibfs__sm_mc_update_done(sm);
	}
	sm_pump(sm);
}

static int sm_send(struct ibfs_sm *sm, const struct sm_req *r)
{
	struct ibfs_smp s;
	int slot = 0;

	while (sm->out_used[slot])
		slot++;
	memset(&s, 0, sizeof(s));
	s.mgmt_class = IBFS_MCLASS_SUBN_DR;
	s.method = r->method;
	s.attr_id = r->attr;
	s.attr_mod = r->mod;
	s.dr_slid = s.dr_dlid = 0xffff;
	s.tid = sm->next_tid++ << 6 | (uint64_t)slot;
	memcpy(s.data, r->data, sizeof(s.data));
	if (r->node >= 0) {
		const struct sm_dnode *n = &sm->dn[r->node];

		s.hop_cnt = n->hops;
		memcpy(s.initial_path, n->path, sizeof(s.initial_path));
		if (r->flags & SM_PROBE)
			s.initial_path[++s.hop_cnt] = (uint8_t)r->port;
	}
	if (ibfs__sma_send(sm->sma, sm->sm_node, &s) < 0)
		return -1;
	sm->out[slot] = *r;
	sm->out_tid[slot] = s.tid;
	sm->out_used[slot] = 1;
	sm->out_ev[slot] = ibfs__eq_after(&sm->f->eq, IBFS_SM_TRANS_TIMEOUT,
					  sm_timeout_ev, sm, s.tid);
	sm->outstanding++;
	sm->st.sent++;
	if (r->attr >= IBFS_SM_ATTR_BASE &&
	    r->attr < IBFS_SM_ATTR_BASE + IBFS_SM_ATTR_SLOTS)
		sm->st.by_attr[r->method == IBFS_SMP_SET]
			      [r->attr - IBFS_SM_ATTR_BASE]++;
	if (r->method == IBFS_SMP_SET && r->attr == IBFS_SMP_ATTR_PORT_INFO &&
	    (r->mod & IBFS_SMP_PI_EXT_SPEEDS))
		sm->st.pi_ext_sets++;
	if (r->method == IBFS_SMP_GET)
		sm->st.disc_sent++;
	else
		sm->st.cfg_sent++;
	return 0;
}

static void sm_pump(struct ibfs_sm *sm)
{
	while (sm->outstanding < sm->max_wire && sm->qhead < sm->nq &&
	       sm->st.state >= 0) {
		if (sm_send(sm, &sm->q[sm->qhead++]) < 0)
			ibfs__sm_fail(sm, "an SMP could not be sent (no "
					  "agent on the SM's node, or the "
					  "packet pool ran out)");
	}
	while (sm->st.state >= 0 && !sm->outstanding && sm->qhead == sm->nq &&
	       sm->phase != PH_DONE) {
		sm->nq = sm->qhead = 0;
		ibfs__sm_next_phase(sm);
		while (sm->outstanding < sm->max_wire && sm->qhead < sm->nq &&
		       sm->st.state >= 0)
			if (sm_send(sm, &sm->q[sm->qhead++]) < 0)
				ibfs__sm_fail(sm, "an SMP could not be sent");
	}
}

void ibfs__sm_pump(struct ibfs_sm *sm)
{
	sm_pump(sm);
}

/* Discovery responses. */

static void sm_link(struct ibfs_sm *sm, int a, int pa, int b, int pb)
{
	struct sm_dnode *x = &sm->dn[a], *y = &sm->dn[b];

	if (pa < 1 || pa > x->nports || pb < 1 || pb > y->nports ||
	    x->ports[pa].peer >= 0 || y->ports[pb].peer >= 0)
		return;
	x->ports[pa].peer = b;
	x->ports[pa].peer_port = pb;
	x->ports[pa].epeer = b;
	x->ports[pa].eport = pb;
	y->ports[pb].peer = a;
	y->ports[pb].peer_port = pa;
	y->ports[pb].epeer = a;
	y->ports[pb].eport = pa;
	sm->st.links++;
}

static void sm_on_node_info(struct ibfs_sm *sm, const struct sm_req *r,
			    const struct ibfs_smp *s)
{
	struct ibfs_smp_node_info ni;
	int fresh;

	ibfs__smp_get_node_info(s->data, &ni);
	int i = sm_node_get(sm, ni.node_guid, &fresh);

	if (i < 0) {
		ibfs__sm_fail(sm, "out of memory in discovery");
		return;
	}
	struct sm_dnode *n = &sm->dn[i];

	if (fresh) {
		int known = n->ports && n->nports == ni.nports;
		struct sm_port *pp = realloc(n->ports, ((size_t)ni.nports + 1) *
							       sizeof(*pp));
		if (!pp) {
			ibfs__sm_fail(sm, "out of memory in discovery");
			return;
		}
		n->ports = pp;
		for (int p = 0; p <= ni.nports; p++)
			pp[p] = (struct sm_port){
				.peer = -1,
				.epeer = known ? pp[p].epeer : -1,
				.eport = known ? pp[p].eport : 0,
			};
		n->type = ni.node_type;
		n->nports = ni.nports;
		n->port_guid = ni.port_guid;
		n->entry = ni.local_port;
		n->seen = sm->sweep_no;
		n->topo = sm_topo_index(sm, ni.node_guid);
		n->hops = 0;
		memset(n->path, 0, sizeof(n->path));
		if (r->node >= 0) {
			const struct sm_dnode *par = &sm->dn[r->node];

			n->hops = (uint8_t)(par->hops + 1);
			memcpy(n->path, par->path, sizeof(n->path));
			n->path[n->hops] = (uint8_t)r->port;
		}
		if (n->type == IBFS_NODE_SWITCH)
			sm->st.switches++;
		else
			sm->st.cas++;
		n->pkey_cap = ni.partition_cap;
		/* A switch's ports are read once its SwitchInfo is in
		 * (sm_on_switch_info), as OpenSM's receivers chain them. */
		sm_get(sm, IBFS_SMP_ATTR_NODE_DESC, 0, i);
		if (n->type == IBFS_NODE_SWITCH)
			sm_get(sm, IBFS_SMP_ATTR_SWITCH_INFO, 0, i);
		else
			sm_get(sm, IBFS_SMP_ATTR_PORT_INFO,
			       (uint32_t)n->entry, i);
	}
	if (r->node >= 0)
		sm_link(sm, r->node, r->port, i, ni.local_port);
	else
		sm->root = i;
}

/*
 * A switch's SwitchInfo: kept (its PartitionEnforcementCap sizes the
 * P_Key tables of its ports, its PortStateChange is cleared later), then
 * PortInfo of port 0, as OpenSM's osm_sw_info_rcv.c asks for it.
 */
static void sm_on_switch_info(struct ibfs_sm *sm, const struct sm_req *r,
			      const struct ibfs_smp *s)
{
	ibfs__smp_get_switch_info(s->data, &sm->dn[r->node].si);
	sm_get(sm, IBFS_SMP_ATTR_PORT_INFO, 0, r->node);
}

/*
 * PortInfo of a port: its state and link. Port 0 of a switch asks for
 * the other ports' (osm_port_info_rcv.c, pi_rcv_process_switch_port0);
 * a linked port other than the one the node was reached by is probed
 * with NodeInfo; then the port's P_Key table is read (sm_pkey.c).
 */
static void sm_on_port_info(struct ibfs_sm *sm, const struct sm_req *r,
			    const struct ibfs_smp *s)
{
	struct ibfs_smp_port_info pi;
	struct sm_dnode *n = &sm->dn[r->node];
	int p = (int)(r->mod & IBFS_SMP_PI_PORT_MASK);

	ibfs__smp_get_port_info(s->data, &pi);
	if (p > n->nports)
		return;
	n->ports[p].up = pi.phys_state == IBFS_PHYS_LINKUP;
	n->ports[p].state = pi.state;
	n->ports[p].enf = pi.part_enf;
	n->ports[p].arb_low_cap = pi.vlarb_low_cap;
	n->ports[p].arb_high_cap = pi.vlarb_high_cap;
	n->ports[p].lid = pi.lid;
	n->ports[p].sm_lid = pi.sm_lid;
	n->ports[p].lmc = pi.lmc;
	n->ports[p].mtu_cap = pi.mtu_cap;
	n->ports[p].vl_cap = pi.vl_cap;
	n->ports[p].width_en = pi.width_enabled;
	n->ports[p].speed_en = pi.speed_enabled;
	n->ports[p].ext = !!(pi.cap_mask & IBFS_PORT_CAP_EXT_SPEEDS);
	if (p > 0 && n->ports[p].up && (!n->vl_cap || pi.vl_cap < n->vl_cap))
		n->vl_cap = pi.vl_cap;
	if (n->type == IBFS_NODE_SWITCH && p == 0)
		for (int q = 1; q <= n->nports; q++)
			sm_get(sm, IBFS_SMP_ATTR_PORT_INFO, (uint32_t)q,
			       r->node);
	if (n->ports[p].up && p > 0 &&
	    (n->type == IBFS_NODE_SWITCH ? p != n->entry :
					   n->hops == 0 && p == sm->sm_port))
		sm_probe(sm, r->node, p);
	ibfs__sm_pkey_get(sm, r->node, p);
}

/*
 * A re-sweep's LFT block was set: every LID whose entry changed on this
 * switch has been re-routed here at the current time.
 */
static void sm_note_reroute(struct ibfs_sm *sm, const struct sm_dnode *n,
			    const struct sm_req *r)
{
	const uint8_t *old = n->lft + (size_t)r->mod * IBFS_LFT_BLOCK;
	unsigned need = (unsigned)(r->mod + 1) * IBFS_LFT_BLOCK;

	if (need > sm->rerouted_len) {
		ibfs_time_t *v = realloc(sm->rerouted, need * sizeof(*v));

		if (!v)
			return; /* the report loses this block, the run goes on */
		memset(v + sm->rerouted_len, 0,
		       (need - sm->rerouted_len) * sizeof(*v));
		sm->rerouted = v;
		sm->rerouted_len = need;
	}
	for (unsigned k = 0; k < IBFS_LFT_BLOCK; k++)
		if (old[k] != r->data[k])
			sm->rerouted[r->mod * IBFS_LFT_BLOCK + k] = sm->f->eq.now;
}

static void sm_rx(void *ctx, const struct ibfs_smp *s)
{
	struct ibfs_sm *sm = ctx;
	int slot = (int)(s->tid & (SM_SLOTS - 1));

	if (s->method == IBFS_SMP_TRAP) {
		/* A port changed somewhere (trap 128): sweep again, now or
		 * once the sweep in progress is over. */
		sm->traps++;
		if (sm->st.state == 0)
			sm->resweep_pending = 1;
		else
			ibfs__sm_resweep(sm);
		return;
	}

	if (!sm->out_used[slot] || sm->out_tid[slot] != s->tid ||
	    s->method != IBFS_SMP_GETRESP)
		return; /* not ours, or a stale answer */
	struct sm_req r = sm->out[slot];

	if (sm->out_ev[slot])
		ibfs__eq_cancel(&sm->f->eq, sm->out_ev[slot]);
	sm->out_ev[slot] = NULL;
	sm->out_used[slot] = 0;
	sm->outstanding--;
	sm->st.received++;
	if (s->status != IBFS_MAD_STATUS_OK) {
		sm->st.errors++;
	} else if (sm->st.state >= 0 && sm->phase == PH_DISCOVER) {
		sm->st.discovered = sm->f->eq.now;
		if (r.attr == IBFS_SMP_ATTR_NODE_INFO)
			sm_on_node_info(sm, &r, s);
		else if (r.attr == IBFS_SMP_ATTR_SWITCH_INFO)
			sm_on_switch_info(sm, &r, s);
		else if (r.attr == IBFS_SMP_ATTR_PORT_INFO)
			sm_on_port_info(sm, &r, s);
		else if (r.attr == IBFS_SMP_ATTR_PKEY_TABLE)
			ibfs__sm_pkey_read(sm, &r, s->data);
		else if (r.attr == IBFS_SMP_ATTR_NODE_DESC)
			memcpy(sm->dn[r.node].desc, s->data,
			       IBFS_SMP_DATA_BYTES);
	} else if (r.attr == IBFS_SMP_ATTR_LFT) {
		struct sm_dnode *n = &sm->dn[r.node];

		if (n->lft_ok[r.mod])
			sm_note_reroute(sm, n, &r);
		memcpy(n->lft + (size_t)r.mod * IBFS_LFT_BLOCK, r.data,
		       IBFS_LFT_BLOCK);
		n->lft_ok[r.mod] = 1;
	} else if (r.attr == IBFS_SMP_ATTR_MFT) {
		ibfs__sm_mft_acked(sm, &r);
	}
	if (r.flags & SM_MC_UPDATE)
		ibfs__sm_mc_update_done(sm);
	if (sm->phase == PH_ACTIVE && sm->st.state >= 0)
		sm->st.up = sm->f->eq.now;
	sm_pump(sm);
}

/* Start and the API. */

static void sm_kick_ev(void *obj, uint64_t arg)
{
	struct ibfs_sm *sm = obj;

	(void)arg;
	sm->kick = NULL;
	sm_pump(sm);
}

static void sm_begin(struct ibfs_sm *sm)
{
	sm->sweep_no++;
	memset(&sm->st, 0, sizeof(sm->st));
	sm->st.start = sm->f->eq.now;
	sm->st.sm_node = sm->sm_node;
	sm->st.sm_port = sm->sm_port;
	sm->phase = PH_DISCOVER;
	sm->nq = sm->qhead = 0;
	sm_probe(sm, -1, 0);
	sm->kick = ibfs__eq_after(&sm->f->eq, 0, sm_kick_ev, sm, 0);
}

static int sm_cmp_guid(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

static int sm_topo_init(struct ibfs_sm *sm)
{
	const struct ibfs_topology *t = sm->f->topo;
	uint64_t(*pairs)[2] = malloc(t->nnodes * sizeof(*pairs) + 1);

	sm->topo_guid = malloc(t->nnodes * sizeof(uint64_t) + 1);
	sm->topo_idx = malloc(t->nnodes * sizeof(long) + 1);
	if (!pairs || !sm->topo_guid || !sm->topo_idx) {
		free(pairs);
		return -1;
	}
	for (size_t i = 0; i < t->nnodes; i++) {
		pairs[i][0] = t->nodes[i].guid;
		pairs[i][1] = i;
	}
	qsort(pairs, t->nnodes, sizeof(*pairs), sm_cmp_guid);
	for (size_t i = 0; i < t->nnodes; i++) {
		sm->topo_guid[i] = pairs[i][0];
		sm->topo_idx[i] = (long)pairs[i][1];
	}
	free(pairs);
	return 0;
}

struct ibfs_sm *ibfs__sm_start(struct ibfs_fabric *f, int sm_node,
			       const char *engine, int lmc,
			       void (*up)(void *ctx, ibfs_time_t t), void *ctx,
			       struct ibfs_diag *d)
{
	const struct ibfs_topology *t = f->topo;
	const char *file = t->file ? t->file : "fabric";
	int port = 0;

	if (sm_node < 0 || (size_t)sm_node >= t->nnodes ||
	    t->nodes[sm_node].type != IBFS_NODE_HCA || !f->devices[sm_node]) {
		ibfs__diag(d, file, 0,
			   "the subnet manager must run on an HCA (node %d "
			   "is not one)", sm_node);
		return NULL;
	}
	for (int p = 1; p <= t->nodes[sm_node].nports && !port; p++)
		if (ibfs__fabric_port(f, sm_node, p)->peer)
			port = p;
	if (!port) {
		ibfs__diag(d, file, t->nodes[sm_node].line,
			   "the subnet manager's HCA '%s' has no linked port",
			   t->nodes[sm_node].id);
		return NULL;
	}
	if (!engine)
		engine = "minhop";
	if (!ibfs__routing_find(engine)) {
		ibfs__diag(d, file, 0, "unknown routing engine '%s'", engine);
		return NULL;
	}
	if (lmc < 0 || lmc > IBFS_MAX_LMC) {
		ibfs__diag(d, file, 0, "LMC %d is out of range 0..%d", lmc,
			   IBFS_MAX_LMC);
		return NULL;
	}
	struct ibfs_sm *sm = calloc(1, sizeof(*sm));

	if (sm)
		sm->f = f;
	if (!sm || sm_topo_init(sm) < 0 || sm_rehash(sm, 256) < 0) {
		ibfs__sm_free(sm);
		ibfs__diag(d, file, 0, "out of memory starting the SM");
		return NULL;
	}
	sm->sma = ibfs__sma_new(f, d);
	if (!sm->sma) {
		ibfs__sm_free(sm);
		return NULL;
	}
	sm->sm_node = sm_node;
	sm->sm_port = port;
	snprintf(sm->engine, sizeof(sm->engine), "%s", engine);
	sm->lmc = lmc;
	sm->up = up;
	sm->ctx = ctx;
	sm->max_wire = IBFS_SM_MAX_WIRE_SMPS;
	ibfs__sma_set_sm(sm->sma, sm_node, port, sm_rx, sm);
	sm->sa = ibfs__sa_new(sm);
	if (!sm->sa) {
		ibfs__sm_free(sm);
		ibfs__diag(d, file, 0, "out of memory starting the SA");
		return NULL;
	}
	sm_begin(sm);
	return sm;
}

void ibfs__sm_set_qos(struct ibfs_sm *sm, const struct ibfs_qos *q)
{
	sm->qos = *q;
}

void ibfs__sm_set_partitions(struct ibfs_sm *sm,
			     const struct ibfs_partitions *pp)
{
	sm->pp = pp;
}

void ibfs__sm_set_max_wire(struct ibfs_sm *sm, int n)
{
	sm->max_wire = n < 1 ? 1 : n > SM_SLOTS ? SM_SLOTS : n;
}

void ibfs__sm_set_routing_opts(struct ibfs_sm *sm,
			       const struct ibfs_routing_opts *o)
{
	sm->opts = *o;
}

int ibfs__sm_set_engine(struct ibfs_sm *sm, const char *engine)
{
	if (!engine || !ibfs__routing_find(engine))
		return -1;
	snprintf(sm->engine, sizeof(sm->engine), "%s", engine);
	return 0;
}

int ibfs__sm_resweep(struct ibfs_sm *sm)
{
	if (sm->st.state == 0)
		return -1;
	sm_begin(sm);
	return 0;
}

ibfs_time_t ibfs__sm_lid_rerouted(const struct ibfs_sm *sm, unsigned lid)
{
	return lid < sm->rerouted_len ? sm->rerouted[lid] : 0;
}

void ibfs__sm_free(struct ibfs_sm *sm)
{
	if (!sm)
		return;
	if (sm->kick)
		ibfs__eq_cancel(&sm->f->eq, sm->kick);
	for (int i = 0; i < SM_SLOTS; i++)
		if (sm->out_used[i] && sm->out_ev[i])
			ibfs__eq_cancel(&sm->f->eq, sm->out_ev[i]);
	ibfs__sa_free(sm->sa);
	ibfs__sma_free(sm->sma);
	ibfs__sm_mcast_free(sm);
	for (int i = 0; i < sm->ndn; i++) {
		free(sm->dn[i].ports);
		free(sm->dn[i].lft);
		free(sm->dn[i].lft_ok);
		free(sm->dn[i].pkeys);
		free(sm->dn[i].mft);
	}
	ibfs__sm_pkey_free(sm);
	free(sm->mft);
	free(sm->dn);
	free(sm->hash);
	free(sm->topo_guid);
	free(sm->rerouted);
	free(sm->topo_idx);
	free(sm->q);
	ibfs__subnet_free(sm->sn);
	free(sm);
}

void ibfs__sm_stats(const struct ibfs_sm *sm, struct ibfs_sm_stats *st)
{
	struct ibfs_sma_stats a;

	*st = sm->st;
	ibfs__sma_stats(sm->sma, &a);
	st->agent_answered = a.answered;
	st->agent_relayed = a.relayed;
	st->agent_discarded = a.discarded;
	st->traps = sm->traps;
	st->retries = sm->retries;
	st->timeouts = sm->timeouts;
}

const struct ibfs_subnet *ibfs__sm_subnet(const struct ibfs_sm *sm)
{
	return sm->phase > PH_DISCOVER ? sm->sn : NULL;
}

int ibfs__sm_port_state(const struct ibfs_sm *sm, int node, int port)
{
	return ibfs__sma_port_state(sm->sma, node, port);
}

void ibfs__sm_port_changed(struct ibfs_sm *sm, int node, int port)
{
	ibfs__sma_port_changed(sm->sma, node, port);
}
