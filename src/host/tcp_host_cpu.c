/* SPDX-License-Identifier: MIT */
/*
 * The kernel TCP/IP path on the host's CPU (docs/tcp.md, "The host
 * CPU"): each step a job on a core (host_cpu.h) costing what the host's
 * profile says (host_profile.c).
 *
 * The application's core runs its system calls, its copies and its
 * wake-ups; the network core runs the kernel's protocol work: each
 * segment's TCP/IP transmit, the NIC's interrupts and the softirq's
 * receive processing. The two are apart, as with the NIC's interrupt
 * steered away from the application's core (a profile of one core runs
 * both on it).
 *
 * Sender: send() is a system call, then a copy of what the send buffer
 * has room for, at most send_chunk bytes before the kernel pushes; the
 * bytes enter the engine when the copy ends. A writer whose buffer is
 * full sleeps, and is woken when ACKs make room: a wake-up, then its
 * next copy. Each
 * segment the engine emits is TCP/IP transmit work (a TSO super-segment
 * costs tx_tso once) on the network core; its frames reach the NIC's
 * queue when that ends.
 *
 * Receiver: frames wait in the NIC's ring until an interrupt, raised
 * rx-usecs after the first frame's arrival or at the rx-frames'th frame,
 * whichever comes first (ethtool's struct ethtool_coalesce:
 * rx_coalesce_usecs, rx_max_coalesced_frames). The interrupt's batch
 * costs the interrupt, then the softirq's receive per packet, or with
 * GRO per run of consecutive data frames of one connection (up to
 * 64 KiB, GRO's largest) and per pure ACK; its segments reach the engine
 * when that ends. Bytes that become readable wake the reader if it
 * slept (a wake-up on its core, after which it runs); each recv() reads
 * what is readable when it starts, at most recv_bytes, a system call and
 * a copy, and the reader calls again while bytes remain.
 */
#include <stdlib.h>

#include "fabric/tcp_frame.h"
#include "host/tcp_host_int.h"

/* GRO merges at most 64 KiB of payload (GRO_LEGACY_MAX_SIZE). */
#define GRO_MAX_BYTES 65536u

enum hj_kind { HJ_TX, HJ_RX, HJ_WRITE, HJ_READ, HJ_WAKE };

struct host_job {
	struct ibfs_cpu_job j;  /* first */
	enum hj_kind kind;
	struct ibfs_tcp_host *h;
	struct ibfs_tcp_sock *s;
	struct ibfs_packet *pkts; /* TX: the frames; RX: the batch */
	uint64_t bytes;          /* WRITE, READ: what it copies */
	int tso;                 /* TX: a super-segment */
	enum hj_kind then;       /* WAKE: the woken thread's call */
};

static ibfs_time_t job_start(struct ibfs_cpu_job *j, ibfs_time_t now);
static void job_done(struct ibfs_cpu_job *j);

static struct host_job *job_new(struct ibfs_tcp_host *h,
				struct ibfs_tcp_sock *s, enum hj_kind kind)
{
	struct host_job *hj = calloc(1, sizeof(*hj));

	if (!hj) {
		ibfs__fabric_nomem(h->dev.fab);
		return NULL;
	}
	hj->j.start = job_start;
	hj->j.done = job_done;
	hj->kind = kind;
	hj->h = h;
	hj->s = s;
	return hj;
}

static void packets_free(struct ibfs_fabric *f, struct ibfs_packet *p)
{
	while (p) {
		struct ibfs_packet *n = p->next;

		ibfs__packet_free(f, p);
		p = n;
	}
}

/* ---- the softirq's receive: the batch of one interrupt ---- */

/* Does q continue p's GRO run (same connection, both carrying data)? */
static int gro_joins(const struct ibfs_packet *p,
		     const struct ibfs_tcp_frame *a,
		     const struct ibfs_packet *q,
		     const struct ibfs_tcp_frame *b, uint32_t run)
{
	return a->len && b->len && p->slid == q->slid &&
	       a->sport == b->sport && a->dport == b->dport &&
	       run + b->len <= GRO_MAX_BYTES;
}

static ibfs_time_t rx_cost(const struct ibfs_host_profile *pf,
			   const struct ibfs_packet *batch)
{
	ibfs_time_t c = pf->irq;
	const struct ibfs_packet *prev = NULL;
	struct ibfs_tcp_frame a, b;
	uint32_t run = 0;

	for (const struct ibfs_packet *p = batch; p; p = p->next) {
		ibfs__tcp_frame_get(p, &b);
		if (pf->gro && prev && gro_joins(prev, &a, p, &b, run)) {
			run += b.len;
		} else {
			c += pf->gro && b.len ? pf->rx_gro : pf->rx_pkt;
			run = b.len;
		}
		prev = p;
		a = b;
	}
	return c;
}

static void rx_done(struct host_job *hj)
{
	struct ibfs_packet *p = hj->pkts;

	hj->pkts = NULL;
	while (p) {
		struct ibfs_packet *n = p->next;

		p->next = NULL;
		ibfs__tcp_host_segment(hj->h, p);
		p = n;
	}
}

/* The NIC raises its interrupt: the ring's frames go to the softirq. */
static void nic_interrupt(struct ibfs_tcp_host *h)
{
	struct host_job *hj;

	if (h->coal) {
		ibfs__eq_cancel(&h->dev.fab->eq, h->coal);
		h->coal = NULL;
	}
	if (!h->ring)
		return;
	hj = job_new(h, NULL, HJ_RX);
	if (!hj)
		return;
	hj->pkts = h->ring;
	h->ring = h->ring_tail = NULL;
	h->ring_n = 0;
	h->irqs++;
	ibfs__cpu_submit(h->net_core, &hj->j);
}

static void coal_ev(void *obj, uint64_t arg)
{
	struct ibfs_tcp_host *h = obj;

	(void)arg;
	h->coal = NULL;
	nic_interrupt(h);
}

void ibfs__tcp_cpu_arrived(struct ibfs_tcp_host *h, struct ibfs_packet *p)
{
	const struct ibfs_host_profile *pf = h->prof;
	struct ibfs_fabric *f = h->dev.fab;

	p->next = NULL;
	if (h->ring_tail)
		h->ring_tail->next = p;
	else
		h->ring = p;
	h->ring_tail = p;
	h->ring_n++;
	if (pf->rx_frames && h->ring_n >= pf->rx_frames) {
		nic_interrupt(h);
		return;
	}
	/* rx-usecs 0: the frame count alone (struct ethtool_coalesce). */
	if (h->ring_n == 1 && pf->rx_usecs) {
		h->coal = ibfs__eq_schedule(&f->eq, ibfs__fabric_now(f) +
						       pf->rx_usecs,
					    coal_ev, h, 0);
		if (!h->coal)
			ibfs__fabric_nomem(f);
	}
}

/* ---- transmit: a segment's TCP/IP work, then the NIC ---- */

void ibfs__tcp_cpu_send(struct ibfs_tcp_sock *s,
			const struct ibfs_tcp_seg *seg)
{
	struct host_job *hj = job_new(s->host, s, HJ_TX);

	if (!hj)
		return;
	hj->tso = ibfs__tcp_tso_count(seg) > 1;
	hj->pkts = ibfs__tcp_host_frames(s, seg);
	ibfs__cpu_submit(s->host->net_core, &hj->j);
}

/* ---- the application's send() and recv() ---- */

/* The send buffer's room, as the engine counts it (tcp_send.c). */
static uint64_t snd_room(const struct ibfs_tcp_sock *s)
{
	struct ibfs_tcp_info in;
	uint64_t used;

	ibfs__tcp_get_info(s->tcp, &in);
	used = s->queued - in.acked;
	return s->sndbuf > used ? s->sndbuf - used : 0;
}

/* The application's next call (after its wake-up when it slept). */
static void app_call(struct ibfs_tcp_sock *s, enum hj_kind kind, int woke)
{
	struct host_job *hj = job_new(s->host, s, woke ? HJ_WAKE : kind);

	if (!hj)
		return;
	hj->then = kind;
	ibfs__cpu_submit(s->host->app_core, &hj->j);
}

static void write_next(struct ibfs_tcp_sock *s, int woke)
{
	if (s->writing || s->blocked || !s->backlog || s->dead)
		return;
	s->writing = 1;
	app_call(s, HJ_WRITE, woke);
}

void ibfs__tcp_cpu_write(struct ibfs_tcp_sock *s, uint64_t bytes)
{
	s->backlog += bytes;
	s->calls++;
	write_next(s, 0);
}

void ibfs__tcp_cpu_writable(struct ibfs_tcp_sock *s)
{
	if (!s->blocked)
		return;
	s->blocked = 0;
	write_next(s, 1);
}

static void write_done(struct host_job *hj)
{
	struct ibfs_tcp_sock *s = hj->s;
	uint64_t took = ibfs__tcp_app_send(s->tcp, hj->bytes);

	s->writing = 0;
	s->queued += took;
	s->backlog -= took;
	if (s->backlog && !snd_room(s)) {
		/* Asking for one byte more than the room has the engine
		 * call writable when ACKs free some (tcp_send.c). */
		s->blocked = 1;
		took = ibfs__tcp_app_send(s->tcp, 1);
		if (!took)
			return;
		s->blocked = 0;
		s->queued += took;
		s->backlog -= took;
	}
	write_next(s, 0);
}

void ibfs__tcp_cpu_deliver(struct ibfs_tcp_sock *s, uint64_t bytes)
{
	s->readable += bytes;
	if (s->reading)
		return;
	s->reading = 1;
	app_call(s, HJ_READ, 1);
}

static void read_done(struct host_job *hj)
{
	struct ibfs_tcp_sock *s = hj->s;
	struct ibfs_tcp_host *h = s->host;
	uint64_t got = ibfs__tcp_app_recv(s->tcp, hj->bytes);

	s->readable -= hj->bytes;
	s->reading = 0;
	if (got && h->app && h->app->delivered)
		h->app->delivered(h->app_ctx, s, got);
	if (!s->readable || s->reading || s->dead)
		return;
	/* More arrived meanwhile: the reader calls recv() again awake. */
	s->reading = 1;
	app_call(s, HJ_READ, 0);
}

/* ---- each job's cost as it starts, and its effect at its end ---- */

static ibfs_time_t app_cost(struct host_job *hj)
{
	const struct ibfs_host_profile *pf = hj->h->prof;
	struct ibfs_tcp_sock *s = hj->s;
	ibfs_time_t c = 0;
	uint64_t n;

	if (hj->kind == HJ_WRITE) {
		n = snd_room(s);
		n = n < s->backlog ? n : s->backlog;
		n = n < pf->send_chunk ? n : pf->send_chunk;
		c += (ibfs_time_t)s->calls * pf->syscall +
		     (ibfs_time_t)n * pf->copy_tx_ps;
		hj->h->syscalls += s->calls;
		s->calls = 0;
	} else {
		n = s->readable < pf->recv_bytes ? s->readable : pf->recv_bytes;
		c += pf->syscall + (ibfs_time_t)n * pf->copy_rx_ps;
		hj->h->syscalls++;
	}
	hj->bytes = n;
	hj->h->copied += n;
	return c;
}

static ibfs_time_t job_start(struct ibfs_cpu_job *j, ibfs_time_t now)
{
	struct host_job *hj = (struct host_job *)j;
	const struct ibfs_host_profile *pf = hj->h->prof;

	(void)now;
	switch (hj->kind) {
	case HJ_TX:
		return hj->tso ? pf->tx_tso : pf->tx_seg;
	case HJ_RX:
		return rx_cost(pf, hj->pkts);
	case HJ_WAKE:
		hj->h->wakeups++;
		return pf->wakeup;
	default:
		return app_cost(hj);
	}
}

static void job_done(struct ibfs_cpu_job *j)
{
	struct host_job *hj = (struct host_job *)j;

	switch (hj->kind) {
	case HJ_TX:
		if (hj->s->dead)
			packets_free(hj->h->dev.fab, hj->pkts);
		else
			ibfs__tcp_host_nic(hj->h, hj->pkts);
		break;
	case HJ_RX:
		rx_done(hj);
		break;
	case HJ_WRITE:
		write_done(hj);
		break;
	case HJ_READ:
		read_done(hj);
		break;
	case HJ_WAKE:
		app_call(hj->s, hj->then, 0);
		break;
	}
	free(hj);
}

/* Jobs still queued or running when the run ends, and the ring. */
void ibfs__tcp_cpu_free(struct ibfs_tcp_host *h)
{
	struct ibfs_fabric *f = h->dev.fab;

	for (int k = 0; k < 2; k++) {
		struct ibfs_cpu_core *c = &h->core[k];
		struct ibfs_cpu_job *j = c->cur;

		c->cur = NULL;
		if (j) {
			j->next = c->head;
			c->head = j;
		}
		while (c->head) {
			struct host_job *hj = (struct host_job *)c->head;

			c->head = c->head->next;
			packets_free(f, hj->pkts);
			free(hj);
		}
		c->tail = NULL;
	}
	if (h->coal)
		ibfs__eq_cancel(&f->eq, h->coal);
	h->coal = NULL;
	packets_free(f, h->ring);
	h->ring = h->ring_tail = NULL;
}
