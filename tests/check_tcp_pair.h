/* SPDX-License-Identifier: MIT */
/*
 * Two TCP endpoints, A (end 0) and B (end 1), joined by a link of the
 * test's own: each direction serializes one frame at a time at a fixed
 * number of ps a byte (ibfs__tcp_wire_bytes of the frame), then the frame
 * takes a fixed one-way delay; a frame arrives whole (store and forward).
 * An event list in ps drives both engines: arrivals and timers (a timer
 * set again or cancelled leaves its old event stale). A test may drop
 * chosen frames and mark others CE. The applications read what arrives
 * as it is delivered (in the deliver callback, so that the window an ACK
 * advertises never counts unread bytes); every frame is logged as it
 * starts on the wire.
 */
#ifndef IBFS_TESTS_CHECK_TCP_PAIR_H
#define IBFS_TESTS_CHECK_TCP_PAIR_H

#include <stdlib.h>
#include <string.h>

#include "transport/tcp.h"

struct tp_ev {
	ibfs_time_t t;
	uint64_t order;
	int to;            /* the end it happens at */
	int timer;         /* -1: a segment arrives */
	uint32_t gen;
	struct ibfs_tcp_seg seg;
};

struct tp_log {
	ibfs_time_t t;     /* the frame starts on the wire */
	int from;
	int dropped;
	struct ibfs_tcp_seg seg;
};

struct tcp_pair;

struct tp_end {
	struct tcp_pair *pair;
	int id;
	struct ibfs_tcp *tcp;
	uint32_t gen[IBFS_TCP_T_COUNT];
	ibfs_time_t timer_at[IBFS_TCP_T_COUNT];
	ibfs_time_t link_free;
	uint64_t delivered;
	ibfs_time_t last_delivery;
	uint64_t data_frames;   /* frames with payload sent */
	int hold;               /* the application does not read */
};

struct tcp_pair {
	ibfs_time_t now;
	uint64_t order;
	ibfs_time_t delay;
	uint64_t ps_per_byte;
	struct tp_end end[2];
	struct tp_ev *heap;
	size_t n, cap;
	struct tp_log *log;
	size_t nlog, caplog;
	/* Drop this frame (nth: its end's count of payload frames, from 1,
	 * 0 for a frame without payload)? Mark it CE? */
	int (*drop)(struct tcp_pair *p, int from, const struct ibfs_tcp_seg *s,
		    uint64_t nth);
	int (*mark)(struct tcp_pair *p, int from, const struct ibfs_tcp_seg *s,
		    uint64_t nth);
	void *user;
};

static inline int tp_before(const struct tp_ev *a, const struct tp_ev *b)
{
	return a->t < b->t || (a->t == b->t && a->order < b->order);
}

static inline void tp_push(struct tcp_pair *p, struct tp_ev ev)
{
	size_t i;

	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 256;
		p->heap = realloc(p->heap, p->cap * sizeof(*p->heap));
	}
	ev.order = p->order++;
	i = p->n++;
	while (i && tp_before(&ev, &p->heap[(i - 1) / 2])) {
		p->heap[i] = p->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	p->heap[i] = ev;
}

static inline struct tp_ev tp_pop(struct tcp_pair *p)
{
	struct tp_ev top = p->heap[0], last = p->heap[--p->n];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= p->n)
			break;
		if (c + 1 < p->n && tp_before(&p->heap[c + 1], &p->heap[c]))
			c++;
		if (!tp_before(&p->heap[c], &last))
			break;
		p->heap[i] = p->heap[c];
		i = c;
	}
	if (p->n)
		p->heap[i] = last;
	return top;
}

static inline ibfs_time_t tp_now(void *host)
{
	return ((struct tp_end *)host)->pair->now;
}

static inline void tp_log_add(struct tcp_pair *p, ibfs_time_t t, int from,
			      const struct ibfs_tcp_seg *s, int dropped)
{
	if (p->nlog == p->caplog) {
		p->caplog = p->caplog ? 2 * p->caplog : 1024;
		p->log = realloc(p->log, p->caplog * sizeof(*p->log));
	}
	p->log[p->nlog].t = t;
	p->log[p->nlog].from = from;
	p->log[p->nlog].dropped = dropped;
	p->log[p->nlog].seg = *s;
	p->nlog++;
}

/* The NIC: a super-segment goes out as its pieces, back to back. */
static inline void tp_send(void *host, const struct ibfs_tcp_seg *seg)
{
	struct tp_end *e = host;
	struct tcp_pair *p = e->pair;
	uint32_t i, n = ibfs__tcp_tso_count(seg);

	for (i = 0; i < n; i++) {
		struct tp_ev ev;
		ibfs_time_t start = p->now > e->link_free ? p->now :
							    e->link_free;
		uint64_t nth = 0;
		int drop;

		memset(&ev, 0, sizeof(ev));
		ibfs__tcp_tso_piece(seg, i, &ev.seg);
		if (ev.seg.len)
			nth = ++e->data_frames;
		e->link_free = start + ibfs__tcp_wire_bytes(&ev.seg) *
					       p->ps_per_byte;
		drop = p->drop && p->drop(p, e->id, &ev.seg, nth);
		if (!drop && p->mark && p->mark(p, e->id, &ev.seg, nth))
			ev.seg.ecn = IBFS_ECN_CE;
		tp_log_add(p, start, e->id, &ev.seg, drop);
		if (drop)
			continue;
		ev.t = e->link_free + p->delay;
		ev.to = 1 - e->id;
		ev.timer = -1;
		tp_push(p, ev);
	}
}

static inline void tp_timer_set(void *host, enum ibfs_tcp_timer k,
				ibfs_time_t at)
{
	struct tp_end *e = host;
	struct tp_ev ev;

	memset(&ev, 0, sizeof(ev));
	e->gen[k]++;
	e->timer_at[k] = at;
	ev.t = at;
	ev.to = e->id;
	ev.timer = (int)k;
	ev.gen = e->gen[k];
	tp_push(e->pair, ev);
}

static inline void tp_timer_cancel(void *host, enum ibfs_tcp_timer k)
{
	struct tp_end *e = host;

	e->gen[k]++;
	e->timer_at[k] = IBFS_TIME_NEVER;
}

static inline void tp_deliver(void *host, uint64_t bytes)
{
	struct tp_end *e = host;

	e->delivered += bytes;
	e->last_delivery = e->pair->now;
	if (!e->hold)
		ibfs__tcp_app_recv(e->tcp, bytes);
}

static const struct ibfs_tcp_host_ops tp_ops = {
	.now = tp_now,
	.send_segment = tp_send,
	.timer_set = tp_timer_set,
	.timer_cancel = tp_timer_cancel,
	.deliver = tp_deliver,
};

/* A pair with the given configurations, delay and rate; nothing sent. */
static inline void tp_init(struct tcp_pair *p,
			   const struct ibfs_tcp_config *a,
			   const struct ibfs_tcp_config *b, ibfs_time_t delay,
			   uint64_t ps_per_byte)
{
	int i;

	memset(p, 0, sizeof(*p));
	p->delay = delay;
	p->ps_per_byte = ps_per_byte;
	for (i = 0; i < 2; i++) {
		struct tp_end *e = &p->end[i];
		int k;

		e->pair = p;
		e->id = i;
		for (k = 0; k < IBFS_TCP_T_COUNT; k++)
			e->timer_at[k] = IBFS_TIME_NEVER;
		e->tcp = ibfs__tcp_create(i ? b : a, &tp_ops, e);
	}
}

static inline void tp_free(struct tcp_pair *p)
{
	ibfs__tcp_free(p->end[0].tcp);
	ibfs__tcp_free(p->end[1].tcp);
	free(p->heap);
	free(p->log);
}

/* Run events up to and including time `until`. */
static inline void tp_run(struct tcp_pair *p, ibfs_time_t until)
{
	while (p->n && p->heap[0].t <= until) {
		struct tp_ev ev = tp_pop(p);
		struct tp_end *e = &p->end[ev.to];

		p->now = ev.t;
		if (ev.timer >= 0) {
			if (ev.gen != e->gen[ev.timer])
				continue;
			e->timer_at[ev.timer] = IBFS_TIME_NEVER;
			ibfs__tcp_timer_fired(e->tcp,
					      (enum ibfs_tcp_timer)ev.timer);
		} else {
			ibfs__tcp_segment_arrived(e->tcp, &ev.seg);
		}
	}
}

/* The k-th logged frame (from 0) sent by `from` with payload, or NULL. */
static inline const struct tp_log *tp_data(const struct tcp_pair *p,
					   int from, size_t k)
{
	size_t i;

	for (i = 0; i < p->nlog; i++)
		if (p->log[i].from == from && p->log[i].seg.len && !k--)
			return &p->log[i];
	return NULL;
}

/* Count of frames from `from` whose flags include all of `flags` and,
 * if payload >= 0, whose payload is that long (-1: any). */
static inline size_t tp_count(const struct tcp_pair *p, int from,
			      uint8_t flags, long payload)
{
	size_t i, c = 0;

	for (i = 0; i < p->nlog; i++)
		if (p->log[i].from == from &&
		    (p->log[i].seg.flags & flags) == flags &&
		    (payload < 0 || p->log[i].seg.len == (uint32_t)payload))
			c++;
	return c;
}

/* Open A -> B: B listens, A sends its SYN at the current time. */
static inline void tp_open(struct tcp_pair *p)
{
	ibfs__tcp_listen(p->end[1].tcp);
	ibfs__tcp_connect(p->end[0].tcp);
}

/* A test configuration: Linux's defaults, the given MSS and buffers
 * large enough that the peer's window never limits (16 MiB, scale 9). */
static inline void tp_config(struct ibfs_tcp_config *c, uint32_t mss)
{
	ibfs__tcp_config_default(c);
	c->mss = mss;
	c->sndbuf = 16u << 20;
	c->rcvbuf = 16u << 20;
}

#endif
