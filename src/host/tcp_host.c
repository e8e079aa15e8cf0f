/* SPDX-License-Identifier: MIT */
/*
 * The kernel TCP host as a fabric device (tcp_host.h): the NIC's queue
 * and port, the demultiplexing of arriving frames to connections by
 * their 4-tuple, and each connection's engine driven by the fabric's
 * clock and event queue (its timers are fabric events).
 */
#include <stdlib.h>

#include "fabric/eth.h"
#include "fabric/tcp_frame.h"
#include "host/tcp_host.h"
#include "host/tcp_host_int.h"

/* Linux's default ip_local_port_range starts here (32768-60999). */
#define TCP_EPHEMERAL_FIRST 32768u
#define TCP_EPHEMERAL_LAST 60999u
/*
 * Linux's tcp_retries2 (15): a connection whose retransmission timer has
 * backed off this many times in a row is given up (RFC 1122 4.2.3.5's R2),
 * its timers stopped and its frames ignored, so that a run with a dead
 * path ends rather than probing forever.
 */
#define TCP_RETRIES2 15

static void host_receive(struct ibfs_device *dev, struct ibfs_port *in,
			 struct ibfs_packet *p);
static void host_tx_ready(struct ibfs_device *dev, struct ibfs_port *out);

static const struct ibfs_device_ops tcp_host_ops = {
	.kind = "host",
	.receive = host_receive,
	.tx_ready = host_tx_ready,
};

static uint64_t sock_key(uint16_t peer, uint16_t lport, uint16_t rport)
{
	return (uint64_t)peer << 32 | (uint64_t)lport << 16 | rport;
}

static size_t key_slot(uint64_t k, size_t cap)
{
	k ^= k >> 29;
	k *= 0xBF58476D1CE4E5B9ull;
	k ^= k >> 32;
	return (size_t)(k & (cap - 1));
}

static struct ibfs_tcp_sock *sock_find(const struct ibfs_tcp_host *h,
				       uint16_t peer, uint16_t lport,
				       uint16_t rport)
{
	uint64_t k = sock_key(peer, lport, rport);

	if (!h->cap)
		return NULL;
	for (size_t i = key_slot(k, h->cap);; i = (i + 1) & (h->cap - 1)) {
		struct ibfs_tcp_sock *s = h->socks[i];

		if (!s || sock_key(s->peer, s->lport, s->rport) == k)
			return s;
	}
}

static void sock_put(struct ibfs_tcp_sock **v, size_t cap,
		     struct ibfs_tcp_sock *s)
{
	size_t i = key_slot(sock_key(s->peer, s->lport, s->rport), cap);

	while (v[i])
		i = (i + 1) & (cap - 1);
	v[i] = s;
}

/* Keeps the table at most half full. */
static int sock_add(struct ibfs_tcp_host *h, struct ibfs_tcp_sock *s)
{
	if (2 * (h->nsocks + 1) > h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 16;
		struct ibfs_tcp_sock **v = calloc(cap, sizeof(*v));

		if (!v)
			return -1;
		for (size_t i = 0; i < h->cap; i++)
			if (h->socks[i])
				sock_put(v, cap, h->socks[i]);
		free(h->socks);
		h->socks = v;
		h->cap = cap;
	}
	sock_put(h->socks, h->cap, s);
	h->nsocks++;
	return 0;
}

/* The NIC: frames leave in order while the port may send. */
static void host_kick(struct ibfs_tcp_host *h)
{
	struct ibfs_fabric *f = h->dev.fab;
	struct ibfs_port *port = h->port;

	while (h->txq) {
		struct ibfs_packet *p = h->txq;

		if (port->peer && port->up && !ibfs__port_can_send(port, p))
			return;
		h->txq = p->next;
		p->next = NULL;
		ibfs__fabric_inject(f, p);
		h->frames_out++;
		if (!port->peer || !port->up) {
			ibfs__fabric_drop(f, p, IBFS_DROP_PORT_DOWN);
			ibfs__packet_free(f, p);
			continue;
		}
		ibfs__port_send(port, p);
	}
	h->txq_tail = NULL;
}

static void host_tx_ready(struct ibfs_device *dev, struct ibfs_port *out)
{
	(void)out;
	host_kick((struct ibfs_tcp_host *)dev);
}

static void frame_of_seg(const struct ibfs_tcp_sock *s,
			 const struct ibfs_tcp_seg *g, struct ibfs_tcp_frame *fr)
{
	memset(fr, 0, sizeof(*fr));
	fr->seq = g->seq;
	fr->ack = g->ack;
	fr->tsval = g->tsval;
	fr->tsecr = g->tsecr;
	fr->len = g->len;
	fr->nsack = g->nsack;
	for (int i = 0; i < g->nsack && i < 4; i++) {
		fr->sack[i].left = g->sack[i].left;
		fr->sack[i].right = g->sack[i].right;
	}
	fr->sport = s->lport;
	fr->dport = s->rport;
	fr->window = g->window;
	fr->mss = g->mss;
	fr->flags = g->flags;
	fr->ecn = g->ecn;
	fr->wscale = g->wscale;
	fr->sack_ok = g->sack_ok;
	fr->ts = g->ts;
}

static void seg_of_frame(const struct ibfs_tcp_frame *fr, int ce,
			 struct ibfs_tcp_seg *g)
{
	memset(g, 0, sizeof(*g));
	g->seq = fr->seq;
	g->ack = fr->ack;
	g->tsval = fr->tsval;
	g->tsecr = fr->tsecr;
	g->len = fr->len;
	g->nsack = fr->nsack;
	for (int i = 0; i < fr->nsack && i < 4; i++) {
		g->sack[i].left = fr->sack[i].left;
		g->sack[i].right = fr->sack[i].right;
	}
	g->window = fr->window;
	g->mss = fr->mss;
	g->flags = fr->flags;
	/* A switch's mark turns an ECN-capable codepoint into CE; a frame
	 * sent Not-ECT keeps it (RFC 3168 5: a router drops instead). */
	g->ecn = ce && fr->ecn != IBFS_ECN_NOT_ECT ? IBFS_ECN_CE : fr->ecn;
	g->wscale = fr->wscale;
	g->sack_ok = fr->sack_ok;
	g->ts = fr->ts;
}

struct ibfs_tcp_sock *ibfs__tcp_host_find(const struct ibfs_tcp_host *h,
					  uint16_t peer, uint16_t lport,
					  uint16_t rport)
{
	return sock_find(h, peer, lport, rport);
}

/* One frame (a segment, or a piece of a super-segment) for the NIC. */
static struct ibfs_packet *host_frame(struct ibfs_tcp_sock *s,
				      const struct ibfs_tcp_seg *g)
{
	struct ibfs_tcp_host *h = s->host;
	struct ibfs_packet *p = ibfs__packet_new_raw(h->dev.fab);
	struct ibfs_tcp_frame fr;

	if (!p)
		return NULL;
	frame_of_seg(s, g, &fr);
	ibfs__tcp_frame_put(p, &fr);
	p->dlid = s->peer;
	p->slid = h->id;
	p->sl = p->vl = h->prio;
	p->lnh = IBFS_TCP_LNH;
	p->kind = IBFS_PKT_DATA;
	p->wire_bytes = ibfs__tcp_wire_bytes(g);
	p->blocks = (uint16_t)((ibfs__eth_frame_bytes(p) +
				IBFS_CREDIT_BLOCK - 1) / IBFS_CREDIT_BLOCK);
	return p;
}

struct ibfs_packet *ibfs__tcp_host_frames(struct ibfs_tcp_sock *s,
					  const struct ibfs_tcp_seg *seg)
{
	uint32_t n = ibfs__tcp_tso_count(seg);
	struct ibfs_packet *head = NULL, **tail = &head;

	for (uint32_t i = 0; i < n; i++) {
		struct ibfs_tcp_seg piece;
		struct ibfs_packet *p;

		ibfs__tcp_tso_piece(seg, i, &piece);
		p = host_frame(s, &piece);
		if (!p)
			continue;
		*tail = p;
		tail = &p->next;
	}
	return head;
}

void ibfs__tcp_host_nic(struct ibfs_tcp_host *h, struct ibfs_packet *frames)
{
	while (frames) {
		struct ibfs_packet *p = frames;

		frames = p->next;
		p->next = NULL;
		if (h->txq_tail)
			h->txq_tail->next = p;
		else
			h->txq = p;
		h->txq_tail = p;
	}
	host_kick(h);
}

static void sock_send(void *host, const struct ibfs_tcp_seg *seg)
{
	struct ibfs_tcp_sock *s = host;

	if (s->dead)
		return;
	if (s->host->prof)
		ibfs__tcp_cpu_send(s, seg);
	else
		ibfs__tcp_host_nic(s->host, ibfs__tcp_host_frames(s, seg));
}

static void host_receive(struct ibfs_device *dev, struct ibfs_port *in,
			 struct ibfs_packet *p)
{
	struct ibfs_tcp_host *h = (struct ibfs_tcp_host *)dev;
	struct ibfs_fabric *f = dev->fab;
	struct ibfs_tcp_sock *s = NULL;
	struct ibfs_tcp_frame fr;
	struct ibfs_tcp_seg g;

	ibfs__port_consume(in, p);
	if (ibfs__is_tcp_frame(p) && p->dlid == h->id) {
		ibfs__tcp_frame_get(p, &fr);
		s = sock_find(h, p->slid, fr.dport, fr.sport);
	}
	if (!s || s->dead) {
		ibfs__fabric_drop(f, p, IBFS_DROP_NO_RECEIVER);
		ibfs__packet_free(f, p);
		return;
	}
	ibfs__fabric_deliver(f, p);
	h->frames_in++;
	if (h->prof) {
		ibfs__tcp_cpu_arrived(h, p);
		return;
	}
	seg_of_frame(&fr, p->fecn, &g);
	ibfs__packet_free(f, p);
	ibfs__tcp_segment_arrived(s->tcp, &g);
}

void ibfs__tcp_host_segment(struct ibfs_tcp_host *h, struct ibfs_packet *p)
{
	struct ibfs_tcp_sock *s;
	struct ibfs_tcp_frame fr;
	struct ibfs_tcp_seg g;

	ibfs__tcp_frame_get(p, &fr);
	s = sock_find(h, p->slid, fr.dport, fr.sport);
	seg_of_frame(&fr, p->fecn, &g);
	ibfs__packet_free(h->dev.fab, p);
	if (s && !s->dead)
		ibfs__tcp_segment_arrived(s->tcp, &g);
}

static ibfs_time_t sock_now(void *host)
{
	return ibfs__fabric_now(((struct ibfs_tcp_sock *)host)->host->dev.fab);
}

static void sock_give_up(struct ibfs_tcp_sock *s)
{
	struct ibfs_tcp_host *h = s->host;

	s->dead = 1;
	for (int k = 0; k < IBFS_TCP_T_COUNT; k++)
		if (s->timer[k]) {
			ibfs__eq_cancel(&h->dev.fab->eq, s->timer[k]);
			s->timer[k] = NULL;
		}
	if (h->app && h->app->aborted)
		h->app->aborted(h->app_ctx, s);
}

static void sock_timer_ev(void *obj, uint64_t arg)
{
	struct ibfs_tcp_sock *s = obj;
	struct ibfs_tcp_info in;

	s->timer[arg] = NULL;
	ibfs__tcp_timer_fired(s->tcp, (enum ibfs_tcp_timer)arg);
	if (arg != IBFS_TCP_T_RTO)
		return;
	ibfs__tcp_get_info(s->tcp, &in);
	if (in.backoff > TCP_RETRIES2)
		sock_give_up(s);
}

static void sock_timer_cancel(void *host, enum ibfs_tcp_timer k)
{
	struct ibfs_tcp_sock *s = host;

	if (s->timer[k])
		ibfs__eq_cancel(&s->host->dev.fab->eq, s->timer[k]);
	s->timer[k] = NULL;
}

static void sock_timer_set(void *host, enum ibfs_tcp_timer k, ibfs_time_t at)
{
	struct ibfs_tcp_sock *s = host;
	struct ibfs_fabric *f = s->host->dev.fab;

	sock_timer_cancel(host, k);
	if (s->dead)
		return;
	if (at < f->eq.now)
		at = f->eq.now;
	s->timer[k] = ibfs__eq_schedule(&f->eq, at, sock_timer_ev, s,
					(uint64_t)k);
}

/* The application reads what arrives at once (it waits in recv). */
static void sock_deliver(void *host, uint64_t bytes)
{
	struct ibfs_tcp_sock *s = host;
	struct ibfs_tcp_host *h = s->host;
	uint64_t got;

	if (h->prof) {
		ibfs__tcp_cpu_deliver(s, bytes);
		return;
	}
	got = ibfs__tcp_app_recv(s->tcp, bytes);

	if (got && h->app && h->app->delivered)
		h->app->delivered(h->app_ctx, s, got);
}

static void sock_writable(void *host)
{
	struct ibfs_tcp_sock *s = host;

	if (s->host->prof)
		ibfs__tcp_cpu_writable(s);
	else if (s->backlog)
		s->backlog -= ibfs__tcp_app_send(s->tcp, s->backlog);
}

/* The engine's work, counted (the CPU's time is charged by the steps of
 * tcp_host_cpu.c, which know when each runs). */
static void sock_cpu(void *host, enum ibfs_tcp_cpu_work what, uint32_t bytes)
{
	struct ibfs_tcp_sock *s = host;

	(void)bytes;
	if ((unsigned)what < 3)
		s->host->work[what]++;
}

static const struct ibfs_tcp_host_ops sock_ops = {
	.now = sock_now,
	.send_segment = sock_send,
	.timer_set = sock_timer_set,
	.timer_cancel = sock_timer_cancel,
	.deliver = sock_deliver,
	.writable = sock_writable,
	.cpu = sock_cpu,
};

struct ibfs_tcp_host *ibfs__tcp_host_create(struct ibfs_fabric *f, int node,
					    uint16_t id, uint8_t prio,
					    const struct ibfs_tcp_app_ops *app,
					    void *app_ctx)
{
	struct ibfs_tcp_host *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->dev.ops = &tcp_host_ops;
	h->id = id;
	h->prio = prio;
	h->next_port = TCP_EPHEMERAL_FIRST;
	h->app = app;
	h->app_ctx = app_ctx;
	ibfs__fabric_attach(f, node, &h->dev);
	h->port = &h->dev.ports[1];
	ibfs__cpu_core_init(&h->core[0], f);
	ibfs__cpu_core_init(&h->core[1], f);
	/* A NIC hands a frame up once its FCS is checked: at its tail. */
	ibfs__port_set_rx(h->port, 0, 1);
	return h;
}

static void sock_free(struct ibfs_tcp_sock *s)
{
	for (int k = 0; k < IBFS_TCP_T_COUNT; k++)
		if (s->timer[k])
			ibfs__eq_cancel(&s->host->dev.fab->eq, s->timer[k]);
	ibfs__tcp_free(s->tcp);
	free(s);
}

void ibfs__tcp_host_free(struct ibfs_tcp_host *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->cap; i++)
		if (h->socks[i])
			sock_free(h->socks[i]);
	ibfs__tcp_cpu_free(h);
	free(h->socks);
	while (h->txq) {
		struct ibfs_packet *p = h->txq;

		h->txq = p->next;
		ibfs__packet_free(h->dev.fab, p);
	}
	h->dev.fab->devices[h->dev.node] = NULL;
	free(h);
}

struct ibfs_tcp_host *ibfs__tcp_host_of_node(struct ibfs_fabric *f, int node)
{
	struct ibfs_device *d = f->devices[node];

	return d && d->ops == &tcp_host_ops ? (struct ibfs_tcp_host *)d : NULL;
}

uint16_t ibfs__tcp_host_id(const struct ibfs_tcp_host *h)
{
	return h->id;
}

void ibfs__tcp_host_stats(const struct ibfs_tcp_host *h,
			  struct ibfs_tcp_host_stats *st)
{
	memset(st, 0, sizeof(*st));
	for (size_t i = 0; i < h->cap; i++) {
		struct ibfs_tcp_info in;

		if (!h->socks[i])
			continue;
		ibfs__tcp_get_info(h->socks[i]->tcp, &in);
		st->retransmits += in.retransmits;
		st->timeouts += in.rto_fires;
		st->fast_retransmits += in.fast_retransmits;
		st->segs_out += in.segs_out;
		st->acks_out += in.acks_out;
	}
	st->frames_out = h->frames_out;
	st->frames_in = h->frames_in;
	st->cores = h->prof ? h->prof->cores : 0;
	st->cpu_busy = h->prof ? h->core[0].busy +
					 (h->prof->cores > 1 ? h->core[1].busy
							     : 0)
			       : 0;
	st->irqs = h->irqs;
	st->syscalls = h->syscalls;
	st->wakeups = h->wakeups;
	st->copied = h->copied;
}

/* Two cores, the application's and the softirq's, or one for both. */
void ibfs__tcp_host_set_profile(struct ibfs_tcp_host *h,
				const struct ibfs_host_profile *prof)
{
	if (prof)
		h->pf = *prof;
	h->prof = prof && !prof->ideal ? &h->pf : NULL;
	h->app_core = &h->core[0];
	h->net_core = prof && prof->cores > 1 ? &h->core[1] : &h->core[0];
}

static struct ibfs_tcp_sock *sock_new(struct ibfs_tcp_host *h, uint16_t peer,
				      uint16_t lport, uint16_t rport,
				      const struct ibfs_tcp_config *cfg,
				      uint64_t user)
{
	struct ibfs_tcp_sock *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->host = h;
	s->peer = peer;
	s->lport = lport;
	s->rport = rport;
	s->user = user;
	s->sndbuf = cfg->sndbuf;
	s->tcp = ibfs__tcp_create(cfg, &sock_ops, s);
	if (!s->tcp || sock_add(h, s) < 0) {
		ibfs__tcp_free(s->tcp);
		free(s);
		return NULL;
	}
	return s;
}

int ibfs__tcp_host_connect(struct ibfs_tcp_host *a, struct ibfs_tcp_host *b,
			   uint16_t dport, const struct ibfs_tcp_config *cfg,
			   uint64_t user, struct ibfs_tcp_sock **client,
			   struct ibfs_tcp_sock **server)
{
	uint16_t sport;

	/* The next free ephemeral port toward b:dport, wrapping. */
	do {
		sport = a->next_port;
		a->next_port = (uint16_t)(sport == TCP_EPHEMERAL_LAST ?
						  TCP_EPHEMERAL_FIRST :
						  sport + 1u);
	} while (sock_find(a, b->id, sport, dport));
	*server = sock_new(b, a->id, dport, sport, cfg, user);
	if (!*server)
		return -1;
	*client = sock_new(a, b->id, sport, dport, cfg, user);
	if (!*client)
		return -1;
	ibfs__tcp_listen((*server)->tcp);
	ibfs__tcp_connect((*client)->tcp);
	return 0;
}

void ibfs__tcp_sock_write(struct ibfs_tcp_sock *s, uint64_t bytes)
{
	if (s->host->prof) {
		ibfs__tcp_cpu_write(s, bytes);
		return;
	}
	s->backlog += bytes;
	s->backlog -= ibfs__tcp_app_send(s->tcp, s->backlog);
}

uint64_t ibfs__tcp_sock_user(const struct ibfs_tcp_sock *s)
{
	return s->user;
}

const struct ibfs_tcp *ibfs__tcp_sock_engine(const struct ibfs_tcp_sock *s)
{
	return s->tcp;
}
