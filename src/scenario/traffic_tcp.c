/* SPDX-License-Identifier: MIT */
/*
 * The scenario's traffic under `--model tcp`: each connection of the plan
 * (a source, a destination and a lane, traffic_plan.c) is a kernel TCP
 * connection between their hosts (host/tcp_host.h), opened at time 0
 * with the destination listening; each message is a write of its bytes
 * on its connection at its planned time, straight from the fabric's
 * event queue (no application actors). The receiving application reads
 * whatever arrives at once; a message is complete, its record's done
 * time, when the receiver has read its last byte (the stream's bytes are
 * counted, and the messages of a connection end in the order written).
 *
 * Operations without a TCP counterpart become an exchange, as an RPC over
 * TCP does it: a READ a request of 64 bytes (a small request message; an
 * RDMA READ request's BTH and RETH are 28) on the connection, then, when
 * the responder has read it, a response of the message's size on a
 * second connection from the destination back to the source; an atomic
 * the same with its operands' bytes both ways.
 * Its completion is when the requester has read the response's last
 * byte. A message of 0 bytes completes when posted.
 */
#include <stdlib.h>

#include "host/host_profile.h"
#include "host/tcp_host.h"
#include "scenario/traffic_int.h"
#include "transport/tcp_cc.h"

/* The READ request's bytes on the stream. */
#define TT_READ_REQ 64
/* iperf's port, where the destinations listen. */
#define TT_PORT 5001

struct tt_pend {
	uint64_t end;   /* stream offset of the message's last byte + 1 */
	size_t rec;
	int request;    /* a request: the response follows its arrival */
};

struct tt_conn {
	struct ibfs_tcp_sock *cli, *srv;
	int src, dst;
	uint64_t written, got;
	struct tt_pend *q;      /* written, not yet read, in order */
	size_t head, n, cap;
	size_t rev;             /* the response connection, or TR_NONE */
	int dead;               /* given up by its host */
};

struct ibfs_tcp_traffic {
	struct ibfs_traffic *t;
	struct ibfs_fabric *f;
	struct ibfs_tcp_config cfg;
	struct ibfs_host_profile cpu;   /* the profile, with <transport>'s */
	struct tt_conn *c;
	size_t nc;
	int opened;
	size_t left;            /* records not yet complete */
};

static int tt_connections(struct ibfs_tcp_traffic *tt);

/* Every connection opens at time 0, in an event of its own so that the
 * SYNs are seen by the captures (opened after the set-up); a post at
 * time 0 that comes first opens them itself. */
static int tt_open_all(struct ibfs_tcp_traffic *tt)
{
	if (tt->opened)
		return 0;
	tt->opened = 1;
	return tt_connections(tt);
}

static void tt_open_ev(void *obj, uint64_t arg)
{
	(void)arg;
	if (tt_open_all(obj) < 0)
		ibfs__fabric_nomem(((struct ibfs_tcp_traffic *)obj)->f);
}

const char *ibfs__tcp_traffic_refuse(const struct ibfs_scenario *sc,
				     long *line)
{
	if (sc->ncolls) {
		*line = sc->colls[0].line;
		return "collectives are";
	}
	if (sc->nmcasts) {
		*line = sc->mcasts[0].line;
		return "multicast sends are";
	}
	return NULL;
}

struct ibfs_tcp_traffic *ibfs__tcp_traffic_new(struct ibfs_traffic *t)
{
	struct ibfs_tcp_traffic *tt = calloc(1, sizeof(*tt));

	if (tt)
		tt->t = t;
	return tt;
}

void ibfs__tcp_traffic_free(struct ibfs_tcp_traffic *tt)
{
	if (!tt)
		return;
	for (size_t i = 0; i < tt->nc; i++)
		free(tt->c[i].q);
	free(tt->c);
	free(tt);
}

/* The engine's configuration from <transport model="tcp">. */
static void tt_config(const struct ibfs_scenario *sc,
		      struct ibfs_tcp_config *cfg)
{
	const struct ibfs_sc_eth *e = &sc->eth;
	uint32_t mtu = e->tcp_mtu ? e->tcp_mtu : 1500;

	ibfs__tcp_config_default(cfg);
	/* MSS = MTU - IPv4 20 - TCP 20 (RFC 9293 3.7.1). */
	cfg->mss = mtu - 40;
	if (e->tcp_rto_min)
		cfg->rto_min = e->tcp_rto_min;
	cfg->cc = e->tcp_cc == IBFS_SC_TCP_NEWRENO ? &ibfs__tcp_newreno :
		  e->tcp_cc == IBFS_SC_TCP_DCTCP ? &ibfs__tcp_dctcp :
						   &ibfs__tcp_cubic;
	/* With marking switches the hosts ask for ECN (tcp_ecn = 1), as
	 * DCTCP requires (RFC 8257 3.1); else Linux's accept-only. */
	if (e->ecn.line || e->tcp_cc == IBFS_SC_TCP_DCTCP)
		cfg->ecn = 1;
}

/* Every host's CPU runs the scenario's profile (docs/tcp.md), with
 * <transport>'s rx-usecs and rx-frames when given. */
static void tt_cpu(struct ibfs_tcp_traffic *tt)
{
	const struct ibfs_scenario *sc = tt->t->sc;
	const struct ibfs_sc_eth *e = &sc->eth;

	tt->cpu = *ibfs__host_profile(
		ibfs__host_profile_names[e->tcp_host_profile]);
	if (e->line && e->tcp_rx_usecs != UINT64_MAX)
		tt->cpu.rx_usecs = (ibfs_time_t)e->tcp_rx_usecs;
	if (e->line && e->tcp_rx_frames != UINT64_MAX)
		tt->cpu.rx_frames = (uint32_t)e->tcp_rx_frames;
	for (size_t i = 0; i < sc->topo->nnodes; i++) {
		struct ibfs_tcp_host *h = ibfs__tcp_host_of_node(tt->f, (int)i);

		if (h)
			ibfs__tcp_host_set_profile(h, &tt->cpu);
	}
}

static int tt_open(struct ibfs_tcp_traffic *tt, size_t k, int src, int dst)
{
	struct ibfs_tcp_host *a = ibfs__tcp_host_of_node(tt->f, src);
	struct ibfs_tcp_host *b = ibfs__tcp_host_of_node(tt->f, dst);
	struct tt_conn *c = &tt->c[k];

	c->src = src;
	c->dst = dst;
	c->rev = TR_NONE;
	if (!a || !b)
		return -1;
	return ibfs__tcp_host_connect(a, b, TT_PORT, &tt->cfg, k, &c->cli,
				      &c->srv);
}

/*
 * Record rec is complete now (status 0), or failed. The last one ends
 * the run, as the last application actor's end does under ib and roce:
 * what is still on the wires (the last ACKs) stays there, in flight.
 */
static void tt_end(struct ibfs_tcp_traffic *tt, size_t rec, int status)
{
	struct ibfs_msg_record *r = &tt->t->recs[rec];

	r->done = ibfs__fabric_now(tt->f);
	r->status = status;
	if (!--tt->left)
		ibfs__eq_limit(&tt->f->eq, r->done);
}

static int tt_push(struct ibfs_tcp_traffic *tt, struct tt_conn *c,
		   uint64_t bytes, size_t rec, int req)
{
	if (c->dead) {
		tt_end(tt, rec, IBFS_WC_RETRY_EXC_ERR);
		return 0;
	}
	if (c->head + c->n == c->cap) {
		if (c->head) {
			memmove(c->q, c->q + c->head, c->n * sizeof(*c->q));
			c->head = 0;
		} else {
			size_t cap = c->cap ? 2 * c->cap : 8;
			struct tt_pend *q = realloc(c->q, cap * sizeof(*q));

			if (!q)
				return -1;
			c->q = q;
			c->cap = cap;
		}
	}
	c->written += bytes;
	c->q[c->head + c->n++] = (struct tt_pend){
		.end = c->written, .rec = rec, .request = req};
	ibfs__tcp_sock_write(c->cli, bytes);
	return 0;
}

static int tt_is_exchange(enum ibfs_sc_op op)
{
	return op == IBFS_SC_READ || op == IBFS_SC_CMP_SWAP ||
	       op == IBFS_SC_FETCH_ADD;
}

static void tt_post(void *obj, uint64_t arg)
{
	struct ibfs_tcp_traffic *tt = obj;
	struct ibfs_traffic *t = tt->t;
	size_t rec = (size_t)arg;
	const struct tr_msg *m = &t->msgs[t->rec_msg[rec]];
	struct ibfs_msg_record *r = &t->recs[rec];
	uint64_t bytes = m->op == IBFS_SC_READ ? TT_READ_REQ : m->size;

	r->post = ibfs__fabric_now(tt->f);
	if (tt_open_all(tt) < 0) {
		ibfs__fabric_nomem(tt->f);
		return;
	}
	if (!m->size) {
		tt_end(tt, rec, 0);
		return;
	}
	if (tt_push(tt, &tt->c[m->conn], bytes, rec, tt_is_exchange(m->op)) < 0)
		ibfs__fabric_nomem(tt->f);
}

/* The receiving application read `bytes` more on s. */
static void tt_delivered(void *ctx, struct ibfs_tcp_sock *s, uint64_t bytes)
{
	struct ibfs_tcp_traffic *tt = ctx;
	struct tt_conn *c = &tt->c[ibfs__tcp_sock_user(s)];

	c->got += bytes;
	while (c->n && c->q[c->head].end <= c->got) {
		struct tt_pend e = c->q[c->head];

		c->head++;
		c->n--;
		if (!e.request)
			tt_end(tt, e.rec, 0);
		else if (tt_push(tt, &tt->c[c->rev], tt->t->recs[e.rec].bytes,
				 e.rec, 0) < 0)
			ibfs__fabric_nomem(tt->f);
	}
}

/*
 * s's host gave the connection up: its messages not yet read fail as an
 * RC QP's do when its retries are exhausted (IBA 9.7.6.1.3), at the same
 * status; so do later writes on it, which nothing will carry.
 */
static void tt_aborted(void *ctx, struct ibfs_tcp_sock *s)
{
	struct ibfs_tcp_traffic *tt = ctx;
	struct tt_conn *c = &tt->c[ibfs__tcp_sock_user(s)];

	c->dead = 1;
	while (c->n) {
		tt_end(tt, c->q[c->head].rec, IBFS_WC_RETRY_EXC_ERR);
		c->head++;
		c->n--;
	}
}

const struct ibfs_tcp_app_ops ibfs__tcp_traffic_app = {
	.delivered = tt_delivered,
	.aborted = tt_aborted,
};

/* Connections: the plan's, then a response connection for each that
 * carries a READ or an atomic. */
static int tt_connections(struct ibfs_tcp_traffic *tt)
{
	struct ibfs_traffic *t = tt->t;
	size_t k;

	tt->c = calloc(2 * t->nconns + 1, sizeof(*tt->c));
	if (!tt->c)
		return -1;
	for (k = 0; k < t->nconns; k++)
		if (tt_open(tt, k, t->conns[k].src, t->conns[k].dst) < 0)
			return -1;
	tt->nc = k;
	for (size_t j = 0; j < t->nmsgs; j++) {
		struct tt_conn *c = &tt->c[t->msgs[j].conn];

		if (!tt_is_exchange(t->msgs[j].op) || c->rev != TR_NONE)
			continue;
		c->rev = tt->nc;
		if (tt_open(tt, tt->nc++, c->dst, c->src) < 0)
			return -1;
	}
	return 0;
}

int ibfs__tcp_traffic_start(struct ibfs_tcp_traffic *tt,
			    struct ibfs_fabric *f, struct ibfs_diag *d)
{
	struct ibfs_traffic *t = tt->t;

	tt->f = f;
	tt->left = t->nrecs;
	tt_config(t->sc, &tt->cfg);
	tt_cpu(tt);
	if (!ibfs__eq_schedule(&f->eq, 0, tt_open_ev, tt, 0))
		return ibfs__diag(d, t->sc->file, 0, "out of memory opening "
				  "the TCP connections");
	for (size_t i = 0; i < t->nrecs; i++)
		if (!ibfs__eq_schedule(&f->eq, t->base + t->planned[i],
				       tt_post, tt, i))
			return ibfs__diag(d, t->sc->file, 0, "out of memory "
					  "scheduling the messages");
	return 0;
}
