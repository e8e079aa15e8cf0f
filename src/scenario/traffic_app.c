/* SPDX-License-Identifier: MIT */
/*
 * The traffic of a scenario as application programs, written against the
 * public API only (ibfsim/verbs.h and ibfsim/sim.h), as a user would write
 * them with libibverbs: each HCA runs
 *   - a poster: opens the device, registers one buffer, creates the queue
 *     pairs of its connections, swaps (QPN, LID, address, rkey) with each
 *     peer out of band, brings the QPs to RTS, posts the receives its peers'
 *     SENDs need, waits until its peers have posted theirs, then posts each
 *     message at its start time;
 *   - a completer: waits on the completion queue and timestamps each
 *     completion; a message's latency runs from its post to its completion
 *     at the requester (docs/results.md);
 *   - with collectives, collective posters (traffic_app_coll.c).
 * A pair's connections (qps) spread over the HCAs' ports and, with an
 * LMC, over each port's 2^LMC paths, as Open MPI's openib transport does:
 * at each end, connection l takes port l mod P of its P ports with a LID
 * and path p = (l / P) mod 2^LMC: its source path bits are p and it goes
 * to the peer's port's base LID + p, so that the engines' routes for the
 * LIDs of a port (e.g. ftree's, through different spines) carry it.
 * Queue pair settings are perftest's defaults: timeout 14 (4.096 us x 2^14
 * = 67 ms), retry_cnt 7, rnr_retry 7, 16 outstanding RDMA READs/atomics.
 * Queues are as deep as the messages need, up to the HCA's max_qp_wr
 * (TR_MAX_WR): a full send queue makes the poster wait and post again, and
 * a receive queue that cannot hold every receive at once is topped up, one
 * receive for each that completes, as perftest's receivers do.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ibfsim/sim.h>

#include "fabric/trace.h"
#include "scenario/traffic_int.h"

/* The plan of the running simulation: actors receive only argc/argv. */
static struct ibfs_traffic *g_traffic;

struct ibfs_traffic *ibfs__tr_running(void)
{
	return g_traffic;
}

#define RECV_FLAG (1ull << 63)
/* A receive's wr_id: RECV_FLAG, then RECV_UD or the connection's index,
 * or RECV_MC and the multicast member's index. */
#define RECV_UD (1ull << 62)
#define RECV_MC (1ull << 61)
/* A multicast send's wr_id: MC_SEND and its record. */
#define MC_SEND (1ull << 60)
/* IBA 10.5: the destination QP of a multicast packet. */
#define MC_QPN 0xFFFFFFu
/* ConnectX's max_qp_wr (ibv_devinfo), the HCA model's limit (hca/qp.c). */
#define TR_MAX_WR (1u << 15)
/* Ports of an HCA a pair's connections spread over (struct tr_node). */
#define TR_PORTS 4
/* ConnectX's max_cqe, the HCA model's limit (hca/cq.c). */
#define TR_MAX_CQE (1u << 22)
#define FAKE_ADDR ((uintptr_t)1 << 32)
#define QKEY IBFS_TRAFFIC_QKEY

static enum ibfs_mtu mtu_enum(int bytes)
{
	switch (bytes) {
	case 256: return IBFS_MTU_256;
	case 512: return IBFS_MTU_512;
	case 1024: return IBFS_MTU_1024;
	case 2048: return IBFS_MTU_2048;
	default: return IBFS_MTU_4096;
	}
}

static void key_of(char *buf, size_t len, const char *what, size_t conn,
		   int end)
{
	snprintf(buf, len, "ibfsim/%s/%zu/%c", what, conn, end ? 'd' : 's');
}

static struct ibfs_qp *make_qp(struct tr_node *n, enum ibfs_qp_type type,
			       uint32_t send, uint32_t recv)
{
	struct ibfs_qp_init_attr a = {
		.send_cq = n->cq, .recv_cq = n->cq, .qp_type = type,
		.cap = {.max_send_wr = send ? send : 1,
			.max_recv_wr = recv ? recv : 1, .max_send_sge = 1,
			.max_recv_sge = 1}};
	return ibfs_create_qp(n->pd, &a);
}

/* A verbs call's errno value, kept in errno for the caller's message. */
static int verbs_rc(int rc)
{
	if (rc)
		errno = rc;
	return rc ? -1 : 0;
}

/*
 * The index of pkey's partition in the port's P_Key table, whatever the
 * membership (the SM gave this port one P_Key per partition); -1 if the
 * port is not in it (the scenario's check makes sure it is).
 */
static int pkey_index(struct ibfs_context *ctx, uint8_t port, uint16_t pkey)
{
	struct ibfs_port_attr pa;
	uint16_t k;

	if (ibfs_query_port(ctx, port, &pa))
		return -1;
	for (int i = 0; i < pa.pkey_tbl_len; i++)
		if (!ibfs_query_pkey(ctx, port, i, &k) &&
		    !((k ^ pkey) & 0x7fff) && (k & 0x7fff))
			return i;
	return -1;
}

static int to_init(struct ibfs_qp *qp, enum ibfs_qp_type type, uint8_t port,
		   uint16_t pkey)
{
	int index = pkey_index(qp->context, port, pkey);

	if (index < 0) {
		errno = EACCES;
		return -1;
	}
	struct ibfs_qp_attr a = {.qp_state = IBFS_QPS_INIT, .port_num = port,
				 .pkey_index = (uint16_t)index, .qkey = QKEY,
				 .qp_access_flags = IBFS_ACCESS_LOCAL_WRITE |
						    IBFS_ACCESS_REMOTE_WRITE |
						    IBFS_ACCESS_REMOTE_READ |
						    IBFS_ACCESS_REMOTE_ATOMIC};
	int mask = IBFS_QP_STATE | IBFS_QP_PKEY_INDEX | IBFS_QP_PORT;
	mask |= type == IBFS_QPT_UD ? IBFS_QP_QKEY : IBFS_QP_ACCESS_FLAGS;
	return verbs_rc(ibfs_modify_qp(qp, &a, mask));
}

/* INIT -> RTR -> RTS towards the peer `p` (connected QPs), on the path
 * of the given source path bits to the peer's base LID + path. */
static int connect_qp(struct ibfs_qp *qp, enum ibfs_qp_type type,
		      const struct tr_endpoint *p, int mtu, uint8_t sl,
		      uint8_t path, uint8_t port)
{
	struct ibfs_qp_attr a = {.qp_state = IBFS_QPS_RTR,
				 .path_mtu = mtu_enum(mtu),
				 .dest_qp_num = p->qpn,
				 .ah_attr = {.dlid = (uint16_t)(p->lid + path),
					     .sl = sl, .src_path_bits = path,
					     .port_num = port},
				 .max_dest_rd_atomic = 16, .min_rnr_timer = 12};
	int mask = IBFS_QP_STATE | IBFS_QP_AV | IBFS_QP_PATH_MTU |
		   IBFS_QP_DEST_QPN | IBFS_QP_RQ_PSN;
	if (type == IBFS_QPT_RC)
		mask |= IBFS_QP_MAX_DEST_RD_ATOMIC | IBFS_QP_MIN_RNR_TIMER;
	if (verbs_rc(ibfs_modify_qp(qp, &a, mask)))
		return -1;
	a = (struct ibfs_qp_attr){.qp_state = IBFS_QPS_RTS, .timeout = 14,
				  .retry_cnt = 7, .rnr_retry = 7,
				  .max_rd_atomic = 16};
	mask = IBFS_QP_STATE | IBFS_QP_SQ_PSN;
	if (type == IBFS_QPT_RC)
		mask |= IBFS_QP_TIMEOUT | IBFS_QP_RETRY_CNT |
			IBFS_QP_RNR_RETRY | IBFS_QP_MAX_QP_RD_ATOMIC;
	return verbs_rc(ibfs_modify_qp(qp, &a, mask));
}

static int ud_ready(struct ibfs_qp *qp)
{
	struct ibfs_qp_attr a = {.qp_state = IBFS_QPS_RTR};
	if (verbs_rc(ibfs_modify_qp(qp, &a, IBFS_QP_STATE)))
		return -1;
	a.qp_state = IBFS_QPS_RTS;
	return verbs_rc(ibfs_modify_qp(qp, &a, IBFS_QP_STATE | IBFS_QP_SQ_PSN));
}

static uint32_t depth(uint64_t n)
{
	return n < TR_MAX_WR ? (uint32_t)n : TR_MAX_WR;
}

/*
 * Posts `count` receives on qp, named `tag` (RECV_UD or a connection); UD
 * receives have `extra` bytes for the GRH.
 */
static int post_recvs(struct tr_node *n, struct ibfs_qp *qp, uint64_t tag,
		      uint32_t count, uint32_t extra)
{
	struct ibfs_sge sge = {.addr = (uintptr_t)n->mr->addr,
			       .length = (uint32_t)(n->bufsize + extra),
			       .lkey = n->mr->lkey};
	for (uint32_t i = 0; i < count; i++) {
		struct ibfs_recv_wr wr = {.wr_id = RECV_FLAG | tag,
					  .sg_list = &sge, .num_sge = 1},
				    *bad;
		if (ibfs_post_recv(qp, &wr, &bad))
			return -1;
	}
	return 0;
}

/*
 * A receive named wr_id completed: posts the next on its queue if it has
 * more to come than the queue could hold at first.
 */
static void repost(struct ibfs_traffic *t, struct tr_node *n, uint64_t wr_id)
{
	if (wr_id & RECV_MC) {
		struct tr_mc_member *m =
			&t->mc_members[wr_id & ~(RECV_FLAG | RECV_MC)];

		if (m->recvs_left && !post_recvs(n, m->qp, RECV_MC |
						 (size_t)(m - t->mc_members),
						 1, 40))
			m->recvs_left--;
		return;
	}
	if (wr_id & RECV_UD) {
		if (n->ud_recvs_left && !post_recvs(n, n->ud_qp, RECV_UD, 1, 40))
			n->ud_recvs_left--;
		return;
	}
	struct tr_conn *c = &t->conns[wr_id & ~RECV_FLAG];

	if (c->recvs_left && !post_recvs(n, c->qp_dst, wr_id & ~RECV_FLAG, 1,
					 0))
		c->recvs_left--;
}

static enum ibfs_qp_type qpt(enum ibfs_sc_qp q)
{
	return q == IBFS_SC_RC ? IBFS_QPT_RC
	       : q == IBFS_SC_UC ? IBFS_QPT_UC : IBFS_QPT_UD;
}

/*
 * Opens the device, takes its first port with a LID (the subnet manager
 * gave one to each port linked into its subnet), registers the buffer,
 * creates the CQ.
 */
static int open_node(struct ibfs_traffic *t, struct tr_node *n)
{
	n->ctx = ibfs_open_device();
	if (!n->ctx || !(n->pd = ibfs_alloc_pd(n->ctx)))
		return -1;
	struct ibfs_port_attr pa = {0};
	n->nports = 0;
	for (int p = 1; n->nports < TR_PORTS &&
			ibfs_query_port(n->ctx, (uint8_t)p, &pa) == 0; p++)
		if (pa.lid) {
			n->ports[n->nports] = (uint8_t)p;
			n->lids[n->nports++] = pa.lid;
			n->lmc = pa.lmc;
		}
	if (!n->nports) {
		errno = ENETDOWN; /* no port of it is in the subnet */
		return -1;
	}
	n->port = n->ports[0];
	n->lid = n->lids[0];
	/* UD receives carry 40 bytes of GRH space first (IBA 11.4.1.2). */
	size_t len = n->bufsize + 40;
	void *addr = (void *)FAKE_ADDR;
	if (t->data) {
		n->buf = calloc(1, len);
		if (!n->buf)
			return -1;
		addr = n->buf;
	}
	n->mr = ibfs_reg_mr(n->pd, addr, len,
			    IBFS_ACCESS_LOCAL_WRITE | IBFS_ACCESS_REMOTE_WRITE |
				    IBFS_ACCESS_REMOTE_READ |
				    IBFS_ACCESS_REMOTE_ATOMIC);
	/* Room for every completion, up to ConnectX's max_cqe (2^22, as
	 * hca/cq.c): the completer drains it as they come. */
	int cqe = (int)(n->expected + 16 < TR_MAX_CQE ? n->expected + 16
						      : TR_MAX_CQE);
	n->cq = ibfs_create_cq(n->ctx, cqe, NULL, NULL, 0);
	return n->mr && n->cq ? 0 : -1;
}

/* Counts the sends a node posts on connection c. */
static uint32_t sends_on(const struct ibfs_traffic *t, const struct tr_node *n,
			 size_t c)
{
	uint64_t s = 0;
	for (size_t i = 0; i < n->nmsgs; i++)
		if (t->msgs[n->msgs[i]].conn == c)
			s += t->msgs[n->msgs[i]].count;
	return depth(s);
}

/* The port (index into n->ports) and path bits of connection lane l. */
static int lane_port(const struct tr_node *n, uint16_t lane, uint8_t *path)
{
	*path = (uint8_t)((lane / n->nports) & ((1u << n->lmc) - 1));
	return lane % n->nports;
}

/* The group's MGID as verbs take it. */
static union ibfs_gid mc_gid(const struct ibfs_traffic *t, int group)
{
	union ibfs_gid g;

	memcpy(g.raw, t->sc->groups[group].mgid, 16);
	return g;
}

/*
 * The node's multicast receive QPs: one UD QP a group it is a full
 * member of, on the member's port, attached to the group (the join the
 * SM took at bring-up).
 */
static int create_mc_qps(struct ibfs_traffic *t, int node)
{
	for (size_t i = 0; i < t->nmc_members; i++) {
		struct tr_mc_member *m = &t->mc_members[i];

		if (m->node != node)
			continue;
		union ibfs_gid g = mc_gid(t, m->group);
		struct tr_node *n = &t->nodes[node];

		/* A member joining at run time: its own CQ, not attached. */
		if (m->dynamic &&
		    !(m->cq = ibfs_create_cq(n->ctx, (int)depth(m->recvs) + 1,
					     NULL, NULL, 0)))
			return -1;
		struct ibfs_cq *cq = n->cq;

		if (m->dynamic)
			n->cq = m->cq;
		m->qp = make_qp(n, IBFS_QPT_UD, 1, depth(m->recvs));
		n->cq = cq;
		if (!m->qp ||
		    to_init(m->qp, IBFS_QPT_UD, (uint8_t)m->port, 0xffff) ||
		    ud_ready(m->qp) ||
		    (!m->dynamic &&
		     verbs_rc(ibfs_attach_mcast(m->qp, &g,
						t->sc->groups[m->group].mlid))))
			return -1;
	}
	return 0;
}

/* The receives of the node's multicast QPs, as deep as they may be. */
static int post_mc_recvs(struct ibfs_traffic *t, int node)
{
	for (size_t i = 0; i < t->nmc_members; i++) {
		struct tr_mc_member *m = &t->mc_members[i];

		if (m->node != node)
			continue;
		/* Dynamic: nobody reposts (its CQ is read after the run). */
		m->recvs_left = m->dynamic ? 0 : m->recvs - depth(m->recvs);
		if (post_recvs(&t->nodes[node], m->qp, RECV_MC | i,
			       depth(m->recvs), 40))
			return -1;
	}
	return 0;
}

/* Creates the QPs of every connection of `node` and publishes them. */
static int create_qps(struct ibfs_traffic *t, int node)
{
	struct tr_node *n = &t->nodes[node];
	char key[96];
	for (size_t i = 0; i < n->nconns; i++) {
		struct tr_conn *c = &t->conns[n->conns[i]];
		int dst_end = c->dst == node;
		struct ibfs_qp *qp =
			make_qp(n, qpt(c->qp),
				dst_end ? 1 : sends_on(t, n, n->conns[i]),
				dst_end ? depth(c->recvs) : 1);
		uint8_t path;
		int pi = lane_port(n, c->lane, &path);
		if (!qp || to_init(qp, qpt(c->qp), n->ports[pi], c->pkey))
			return -1;
		*(dst_end ? &c->qp_dst : &c->qp_src) = qp;
		struct tr_endpoint e = {qp->qp_num, n->lids[pi], n->mr->rkey,
					(uintptr_t)n->mr->addr};
		key_of(key, sizeof(key), "qp", n->conns[i], dst_end);
		if (ibfs_oob_put(key, &e, sizeof(e)))
			return -1;
	}
	if (n->uses_ud) {
		n->ud_qp = make_qp(n, IBFS_QPT_UD, TR_MAX_WR,
				   depth(n->ud_recvs));
		/* On the default partition (scenario_pkeys.c). */
		if (!n->ud_qp ||
		    to_init(n->ud_qp, IBFS_QPT_UD, n->port, 0xffff) ||
		    ud_ready(n->ud_qp))
			return -1;
		struct tr_endpoint e = {n->ud_qp->qp_num, n->lid, 0, 0};
		key_of(key, sizeof(key), "ud", (size_t)node, 0);
		if (ibfs_oob_put(key, &e, sizeof(e)))
			return -1;
	}
	return create_mc_qps(t, node);
}

/* The SL of a connection: the scenario's, else the SM's path SL. */
static uint8_t conn_sl(const struct ibfs_traffic *t, const struct tr_conn *c,
		       uint16_t slid, uint16_t dlid)
{
	if (c->sl_given || !t->path_sl)
		return c->sl;
	return t->path_sl(t->path_sl_ctx, slid, dlid);
}

/* Connects every RC/UC QP of `node` and posts the receives it needs. */
static int connect_all(struct ibfs_traffic *t, int node)
{
	struct tr_node *n = &t->nodes[node];
	char key[96];
	for (size_t i = 0; i < n->nconns; i++) {
		struct tr_conn *c = &t->conns[n->conns[i]];
		int dst_end = c->dst == node;
		struct tr_endpoint peer;
		key_of(key, sizeof(key), "qp", n->conns[i], !dst_end);
		if (ibfs_oob_get(key, &peer, sizeof(peer)))
			return -1;
		struct ibfs_qp *qp = dst_end ? c->qp_dst : c->qp_src;
		/* Every CA port has the SM's one LMC (IBA 14.2.5.6). */
		uint8_t path;
		int pi = lane_port(n, c->lane, &path);
		if (connect_qp(qp, qpt(c->qp), &peer, t->sc->topo->def.mtu,
			       conn_sl(t, c, n->lids[pi] + path,
				       peer.lid + path),
			       path, n->ports[pi]))
			return -1;
		if (dst_end && c->recvs) {
			c->recvs_left = c->recvs - depth(c->recvs);
			if (post_recvs(n, qp, n->conns[i], depth(c->recvs), 0))
				return -1;
		}
	}
	if (n->ud_qp && n->ud_recvs) {
		n->ud_recvs_left = n->ud_recvs - depth(n->ud_recvs);
		if (post_recvs(n, n->ud_qp, RECV_UD, depth(n->ud_recvs), 40))
			return -1;
	}
	if (post_mc_recvs(t, node))
		return -1;
	snprintf(key, sizeof(key), "ibfsim/rx/%d", node);
	return ibfs_oob_put(key, "", 1);
}

static enum ibfs_wr_opcode wr_op(enum ibfs_sc_op op)
{
	static const enum ibfs_wr_opcode map[IBFS_SC_OP_COUNT] = {
		IBFS_WR_SEND, IBFS_WR_SEND_WITH_IMM, IBFS_WR_RDMA_WRITE,
		IBFS_WR_RDMA_WRITE_WITH_IMM, IBFS_WR_RDMA_READ,
		IBFS_WR_ATOMIC_CMP_AND_SWP, IBFS_WR_ATOMIC_FETCH_AND_ADD};
	return map[op];
}

/* Posts record `rec` of message m; retries while the send queue is full. */
int ibfs__tr_post_one(struct ibfs_traffic *t, struct tr_node *n,
		      const struct tr_msg *m, size_t rec)
{
	const struct tr_conn *c = &t->conns[m->conn];
	char key[96];
	struct tr_endpoint peer;
	/* The destination's UD QP (one an HCA, create_qps), or the
	 * connection's destination end. */
	if (c->qp == IBFS_SC_UD)
		key_of(key, sizeof(key), "ud", (size_t)c->dst, 0);
	else
		key_of(key, sizeof(key), "qp", m->conn, 1);
	if (ibfs_oob_get(key, &peer, sizeof(peer)))
		return -1;
	struct ibfs_sge sge = {.addr = (uintptr_t)n->mr->addr,
			       .length = (uint32_t)m->size,
			       .lkey = n->mr->lkey};
	struct ibfs_send_wr wr = {.wr_id = rec, .sg_list = &sge,
				  .num_sge = 1, .opcode = wr_op(m->op),
				  .send_flags = IBFS_SEND_SIGNALED,
				  .imm_data = (uint32_t)rec},
			    *bad;
	struct ibfs_ah *ah = NULL;
	if (c->qp == IBFS_SC_UD) {
		struct ibfs_ah_attr aa = {.dlid = peer.lid,
					  .sl = conn_sl(t, c, n->lid, peer.lid),
					  .port_num = n->port};
		ah = ibfs_create_ah(n->pd, &aa);
		if (!ah)
			return -1;
		wr.wr.ud.ah = ah;
		wr.wr.ud.remote_qpn = peer.qpn;
		wr.wr.ud.remote_qkey = QKEY;
	} else if (m->op == IBFS_SC_CMP_SWAP || m->op == IBFS_SC_FETCH_ADD) {
		wr.wr.atomic.remote_addr = peer.addr;
		wr.wr.atomic.rkey = peer.rkey;
		wr.wr.atomic.compare_add = 1;
		wr.wr.atomic.swap = rec;
	} else {
		wr.wr.rdma.remote_addr = peer.addr;
		wr.wr.rdma.rkey = peer.rkey;
	}
	struct ibfs_qp *qp = c->qp == IBFS_SC_UD ? n->ud_qp : c->qp_src;
	int rc;
	t->recs[rec].post = ibfs_now();
	while ((rc = ibfs_post_send(qp, &wr, &bad)) == ENOMEM) {
		ibfs_sleep(100 * IBFS_TIME_PS_PER_NS);
		t->recs[rec].post = ibfs_now();
	}
	if (!rc)
		ibfs__trace_wr(t->trace, c->src, qp->qp_num, rec,
			       ibfs_wr_opcode_str(wr.opcode), m->size,
			       t->recs[rec].post);
	/* The address handle is only read while posting (IBA 11.2.4.3). */
	if (ah)
		ibfs_destroy_ah(ah);
	return rc ? -1 : 0;
}

/*
 * Posts multicast record `rec`: a UD SEND to its group's MLID with a GRH
 * to its MGID (IBA 8.3.1), destination QP 0xFFFFFF; the group's SL is 0
 * (OpenSM's default) unless sl="" says otherwise.
 */
static int post_mc(struct ibfs_traffic *t, struct tr_node *n, size_t rec)
{
	const struct tr_mc_msg *m = &t->mc_msgs[t->mc_rec_msg[rec]];
	const struct ibfs_mcast_group *g = &t->sc->groups[m->group];
	struct ibfs_ah_attr aa = {.dlid = g->mlid, .sl = m->sl,
				  .is_global = 1, .port_num = n->port};

	memcpy(aa.grh.dgid, g->mgid, 16);
	struct ibfs_ah *ah = ibfs_create_ah(n->pd, &aa);

	if (!ah)
		return -1;
	struct ibfs_sge sge = {.addr = (uintptr_t)n->mr->addr,
			       .length = (uint32_t)m->size,
			       .lkey = n->mr->lkey};
	struct ibfs_send_wr wr = {.wr_id = MC_SEND | rec, .sg_list = &sge,
				  .num_sge = 1,
				  .opcode = wr_op(m->op),
				  .send_flags = IBFS_SEND_SIGNALED,
				  .imm_data = (uint32_t)rec},
			    *bad;
	int rc;

	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = MC_QPN;
	wr.wr.ud.remote_qkey = QKEY;
	t->mc_recs[rec].post = ibfs_now();
	while ((rc = ibfs_post_send(n->ud_qp, &wr, &bad)) == ENOMEM) {
		ibfs_sleep(100 * IBFS_TIME_PS_PER_NS);
		t->mc_recs[rec].post = ibfs_now();
	}
	ibfs_destroy_ah(ah);
	return rc ? -1 : 0;
}

/* Waits until every full member of the groups `node` sends to is ready. */
static void wait_mc_members(struct ibfs_traffic *t, int node)
{
	char key[64], one;

	for (size_t i = 0; i < t->nmc_srcs; i++) {
		if (t->mc_srcs[i].node != node)
			continue;
		for (size_t k = 0; k < t->nmc_members; k++)
			if (t->mc_members[k].group == t->mc_srcs[i].group) {
				snprintf(key, sizeof(key), "ibfsim/rx/%d",
					 t->mc_members[k].node);
				ibfs_oob_get(key, &one, 1);
			}
	}
}

static void poster(int argc, char **argv)
{
	struct ibfs_traffic *t = g_traffic;
	int node = atoi(argv[1]);
	struct tr_node *n = &t->nodes[node];
	char key[64];
	if (open_node(t, n) || create_qps(t, node) || connect_all(t, node)) {
		/* The run then fails (ibfs__traffic_setup_failed). */
		fprintf(stderr, "ibfsim: traffic on %s: setup failed: %s\n",
			t->sc->topo->nodes[node].id, strerror(errno));
		t->setup_failed = 1;
		return;
	}
	snprintf(key, sizeof(key), "ibfsim/ready/%d", node);
	ibfs_oob_put(key, "", 1);
	/* Wait until each destination has posted its receives. */
	for (size_t i = 0; i < n->nmsgs; i++) {
		char one;
		snprintf(key, sizeof(key), "ibfsim/rx/%d",
			 t->conns[t->msgs[n->msgs[i]].conn].dst);
		ibfs_oob_get(key, &one, 1);
	}
	wait_mc_members(t, node);
	/* Each message at its planned time (rates spread them out), the
	 * multicast sends among them by time, a message first on a tie. */
	for (size_t i = 0, j = 0; i < n->nposts || j < n->nmc_posts;) {
		int mc = j < n->nmc_posts &&
			 (i == n->nposts ||
			  t->mc_planned[n->mc_posts[j]] <
				  t->planned[n->posts[i]]);
		size_t rec = mc ? n->mc_posts[j++] : n->posts[i++];
		ibfs_time_ps now = ibfs_now();
		ibfs_time_ps at = t->base + (mc ? t->mc_planned[rec]
					       : t->planned[rec]);
		if (at > now)
			ibfs_sleep(at - now);
		if (mc ? post_mc(t, n, rec)
		       : ibfs__tr_post_one(t, n, &t->msgs[t->rec_msg[rec]], rec))
			return;
	}
}

static void completer(int argc, char **argv)
{
	struct ibfs_traffic *t = g_traffic;
	int node = atoi(argv[1]);
	struct tr_node *n = ibfs__tr_node_ready(t, argv);
	struct ibfs_wc wc[16];
	for (uint64_t seen = 0; seen < n->expected;) {
		int got = ibfs_wait_cq(n->cq, 16, wc);
		if (got <= 0)
			return;
		ibfs_time_ps now = ibfs_now();
		for (int i = 0; i < got; i++, seen++) {
			uint64_t id = wc[i].wr_id;

			if ((id & (RECV_FLAG | RECV_MC)) ==
				    (RECV_FLAG | RECV_MC) &&
			    ibfs__tr_mc_delivered(
				    t, &t->mc_members[id & ~(RECV_FLAG |
							      RECV_MC)],
				    wc[i].slid,
				    wc[i].wc_flags & IBFS_WC_WITH_IMM ?
					    &wc[i].imm_data :
					    NULL,
				    (int)wc[i].status, now) < 0)
				return;
			if (id & RECV_FLAG) {
				repost(t, n, id);
				if (!(id & RECV_MC))
					ibfs__tr_arrived(t, &wc[i], now);
				continue;
			}
			if (id & MC_SEND) {
				struct ibfs_mc_send_rec *s =
					&t->mc_recs[id & ~MC_SEND];

				s->done = now;
				s->status = wc[i].status;
				continue;
			}
			struct ibfs_msg_record *r = &t->recs[wc[i].wr_id];
			r->done = now;
			r->status = wc[i].status;
			if (t->sig[wc[i].wr_id] & TR_SIG_COMPLETION)
				ibfs__tr_announce("cmp", wc[i].wr_id);
			ibfs__trace_cqe(t->trace, node, wc[i].qp_num,
					wc[i].wr_id,
					ibfs_wc_opcode_str(wc[i].opcode),
					ibfs_wc_status_str(wc[i].status),
					r->bytes, r->post, r->done);
		}
	}
}

int ibfs__traffic_setup_failed(const struct ibfs_traffic *t)
{
	return t->setup_failed;
}

void ibfs__traffic_set_trace(struct ibfs_traffic *t, struct ibfs_trace *tr)
{
	t->trace = tr;
}

void ibfs__traffic_set_path_sl(struct ibfs_traffic *t,
			       uint8_t (*fn)(void *ctx, uint16_t slid,
					     uint16_t dlid),
			       void *ctx)
{
	t->path_sl = fn;
	t->path_sl_ctx = ctx;
}

int ibfs__traffic_spawn(struct ibfs_traffic *t, struct ibfs_bridge *b,
			int data, ibfs_time_t base, struct ibfs_diag *d)
{
	g_traffic = t;
	t->data = data;
	t->base = base;
	const struct ibfs_topology *topo = t->sc->topo;
	for (size_t i = 0; i < topo->nnodes; i++) {
		const struct tr_node *n = &t->nodes[i];
		if (!n->nmsgs && !n->nconns && !n->uses_ud && !n->mc)
			continue;
		char idx[24], name[300];
		snprintf(idx, sizeof(idx), "%zu", i);
		char *argv[] = {name, idx, NULL};
		snprintf(name, sizeof(name), "post-%s", topo->nodes[i].id);
		if (ibfs__bridge_spawn(b, topo->nodes[i].id, name, poster, 2,
				       argv) < 0)
			return ibfs__diag(d, t->sc->file, 0,
					  "cannot start traffic on %s",
					  topo->nodes[i].id);
		snprintf(name, sizeof(name), "cq-%s", topo->nodes[i].id);
		if (ibfs__bridge_spawn(b, topo->nodes[i].id, name, completer, 2,
				       argv) < 0)
			return ibfs__diag(d, t->sc->file, 0,
					  "cannot start traffic on %s",
					  topo->nodes[i].id);
		if (ibfs__tr_coll_spawn(t, b, i, d) < 0)
			return -1;
	}
	return 0;
}
