/* SPDX-License-Identifier: MIT */
/*
 * The receive side: in-order delivery, the out-of-order queue, the
 * cumulative ACK with SACK blocks (RFC 2018), the window we advertise
 * (RFC 9293 3.8.6.2.2, RFC 7323 2) and when to acknowledge (RFC 1122
 * 4.2.3.2, RFC 5681 4.2): at once for a segment out of order, one that
 * fills a hole, a duplicate or a FIN; after two full-sized segments;
 * otherwise when the delayed-ACK timer expires. The ECN echo is RFC 3168
 * 6.1.3's (ECE from a CE mark until CWR) or, under DCTCP, RFC 8257 3.2's
 * (ECE as the last segment's CE, an ACK at once when that changes).
 *
 * Not modelled: Linux's quick-ACK mode at the start of a connection and
 * its adaptive ATO (the timeout is fixed), receive-buffer autotuning.
 */
#include "transport/tcp_int.h"

#include <stdlib.h>
#include <string.h>

uint16_t ibfs__tcp_window_field(struct ibfs_tcp *tp)
{
	uint64_t unread = tp->rcv_nxt - tp->rcv_read;
	uint64_t wnd = tp->cfg.rcvbuf > unread ? tp->cfg.rcvbuf - unread : 0;

	/* RFC 9293 3.8.6.2.1: the right edge does not move left. */
	if (tp->rcv_nxt + wnd < tp->rcv_adv)
		wnd = tp->rcv_adv - tp->rcv_nxt;
	wnd >>= tp->rcv_wscale;
	return (uint16_t)(wnd > 0xFFFF ? 0xFFFF : wnd);
}

/* RFC 2018 4: the first block holds the latest segment, then the blocks
 * reported most recently; 3 fit beside timestamps, else 4. */
uint32_t ibfs__tcp_sack_fill(const struct ibfs_tcp *tp,
			     struct ibfs_tcp_seg *seg)
{
	uint32_t max = tp->ts_ok ? 3 : 4, i;

	if (!tp->sack_ok || !tp->nooo)
		return 0;
	for (i = 0; i < tp->nrecent && i < max; i++) {
		seg->sack[i].left = tp->irs + 1 + (uint32_t)tp->recent[i].start;
		seg->sack[i].right = tp->irs + 1 + (uint32_t)tp->recent[i].end;
	}
	seg->nsack = (uint8_t)i;
	return i;
}

void ibfs__tcp_send_ack(struct ibfs_tcp *tp)
{
	struct ibfs_tcp_seg seg;

	ibfs__tcp_header(tp, &seg, 0);
	seg.seq = tp->iss + 1 + (uint32_t)tp->snd_nxt;
	ibfs__tcp_sack_fill(tp, &seg);
	tp->acks_out++;
	ibfs__tcp_emit(tp, &seg);
}

/* Insert [s, e) into the sorted out-of-order ranges; returns the merged
 * range that holds it. */
static struct ibfs_tcp_range tcp_ooo_insert(struct ibfs_tcp *tp,
					    uint64_t s, uint64_t e)
{
	uint32_t i = 0, j;
	struct ibfs_tcp_range m = { s, e };

	while (i < tp->nooo && tp->ooo[i].end < s)
		i++;
	j = i;
	while (j < tp->nooo && tp->ooo[j].start <= e) {
		if (tp->ooo[j].start < m.start)
			m.start = tp->ooo[j].start;
		if (tp->ooo[j].end > m.end)
			m.end = tp->ooo[j].end;
		j++;
	}
	if (j == i && tp->nooo == tp->cap_ooo) {
		uint32_t cap = tp->cap_ooo ? tp->cap_ooo * 2 : 8;
		struct ibfs_tcp_range *r = realloc(tp->ooo, cap * sizeof(*r));

		if (!r)
			return m;
		tp->ooo = r;
		tp->cap_ooo = cap;
	}
	/* Ranges i..j-1 become one at i. */
	memmove(&tp->ooo[i + 1], &tp->ooo[j],
		(tp->nooo - j) * sizeof(*tp->ooo));
	tp->nooo = tp->nooo - (j - i) + 1;
	tp->ooo[i] = m;
	return m;
}

static int tcp_overlaps(struct ibfs_tcp_range a, struct ibfs_tcp_range b)
{
	return a.start <= b.end && b.start <= a.end;
}

/* The block of the latest segment goes first; blocks it swallowed and
 * blocks now below rcv_nxt go. */
static void tcp_recent_update(struct ibfs_tcp *tp, struct ibfs_tcp_range m,
			      int have_m)
{
	struct ibfs_tcp_range out[IBFS_TCP_SACK_MAX];
	uint32_t n = 0, i;

	if (have_m)
		out[n++] = m;
	for (i = 0; i < tp->nrecent && n < IBFS_TCP_SACK_MAX; i++) {
		struct ibfs_tcp_range r = tp->recent[i];

		if (r.end <= tp->rcv_nxt || (have_m && tcp_overlaps(r, m)))
			continue;
		out[n++] = r;
	}
	memcpy(tp->recent, out, n * sizeof(*out));
	tp->nrecent = n;
}

/* Bytes [s, e) of the stream into the application's buffer, if lent. */
static void tcp_place(struct ibfs_tcp *tp, const struct ibfs_tcp_seg *seg,
		      uint64_t off, uint64_t s, uint64_t e)
{
	if (!tp->rbuf || !seg->data || e > tp->rbuf_len)
		return;
	memcpy(tp->rbuf + s, seg->data + (s - off), e - s);
}

/* RFC 3168 6.1.3, or RFC 8257 3.2 under DCTCP. */
static void tcp_ecn_rx(struct ibfs_tcp *tp, const struct ibfs_tcp_seg *seg)
{
	int ce = seg->ecn == IBFS_ECN_CE;

	if (!tp->ecn_ok)
		return;
	if (tp->cc->per_segment_echo) {
		if (ce != tp->ce_last && tp->rcv_unacked)
			ibfs__tcp_send_ack(tp);
		tp->ce_last = ce;
		tp->ece_echo = ce;
		return;
	}
	if (seg->flags & IBFS_TCP_CWR)
		tp->ece_echo = 0;
	if (ce)
		tp->ece_echo = 1;
}

/* In order: rcv_nxt moves over the segment and the queued ranges it
 * reaches. Returns whether it filled a hole. */
static int tcp_in_order(struct ibfs_tcp *tp, uint64_t end)
{
	uint64_t old = tp->rcv_nxt;
	int had_ooo = tp->nooo > 0;

	tp->rcv_nxt = end;
	while (tp->nooo && tp->ooo[0].start <= tp->rcv_nxt) {
		if (tp->ooo[0].end > tp->rcv_nxt)
			tp->rcv_nxt = tp->ooo[0].end;
		memmove(&tp->ooo[0], &tp->ooo[1],
			(tp->nooo - 1) * sizeof(*tp->ooo));
		tp->nooo--;
	}
	if (had_ooo)
		tcp_recent_update(tp, tp->recent[0], 0);
	tp->rcv_unacked += tp->rcv_nxt - old;
	tp->ops->deliver(tp->host, tp->rcv_nxt - old);
	return had_ooo;
}

static int tcp_rx_open(const struct ibfs_tcp *tp)
{
	return tp->state == IBFS_TCP_ESTABLISHED ||
	       tp->state == IBFS_TCP_FIN_WAIT_1 ||
	       tp->state == IBFS_TCP_FIN_WAIT_2;
}

void ibfs__tcp_data_input(struct ibfs_tcp *tp, const struct ibfs_tcp_seg *seg)
{
	int fin = seg->flags & IBFS_TCP_FIN;
	uint64_t off, end;
	int now = 0;

	off = ibfs__tcp_unwrap(seg->seq, tp->irs + 1, tp->rcv_nxt);
	if (!seg->len && !fin) {
		/* An old sequence number (a window probe): RFC 9293
		 * 3.10.7.4, an unacceptable segment is answered. */
		uint32_t nxt = tp->irs + 1 + (uint32_t)tp->rcv_nxt;

		if ((int32_t)(seg->seq - nxt) < 0)
			ibfs__tcp_send_ack(tp);
		return;
	}
	end = off + seg->len;
	tcp_ecn_rx(tp, seg);
	if (!tcp_rx_open(tp) || end < tp->rcv_nxt ||
	    (end == tp->rcv_nxt && (!fin || tp->fin_taken))) {
		ibfs__tcp_send_ack(tp); /* a duplicate: RFC 9293 3.10.7.4 */
		return;
	}
	if (fin) {
		tp->peer_fin = 1;
		tp->peer_fin_off = end;
	}
	if (end > tp->rcv_nxt) {
		uint64_t s = off > tp->rcv_nxt ? off : tp->rcv_nxt;

		tcp_place(tp, seg, off, s, end);
		if (off <= tp->rcv_nxt) {
			now = tcp_in_order(tp, end);
		} else {
			tcp_recent_update(tp, tcp_ooo_insert(tp, off, end), 1);
			now = 1;
		}
	}
	if (tp->peer_fin && !tp->fin_taken && tp->rcv_nxt == tp->peer_fin_off) {
		tp->fin_taken = 1;
		now = 1;
		ibfs__tcp_peer_fin(tp);
	}
	if (now || !tp->cfg.delack ||
	    tp->rcv_unacked >= 2 * (uint64_t)tp->rcv_mss) {
		ibfs__tcp_send_ack(tp);
	} else if (!tp->delack_armed) {
		tp->delack_armed = 1;
		tp->ops->timer_set(tp->host, IBFS_TCP_T_DELACK,
				   ibfs__tcp_now(tp) + tp->cfg.delack_timeout);
	}
}

/*
 * The application reads. A window update goes out only when the window we
 * advertised has less than two segments left, so that the peer may be
 * stalled, and reading opens at least two more segments (or half the
 * buffer; RFC 9293 3.8.6.2.2's receiver-side silly window avoidance);
 * otherwise the next ACK carries the larger window.
 */
uint64_t ibfs__tcp_app_recv(struct ibfs_tcp *tp, uint64_t max)
{
	uint64_t avail = tp->rcv_nxt - tp->rcv_read;
	uint64_t n = max < avail ? max : avail;
	uint64_t cur, now_free, step;

	if (!n)
		return 0;
	tp->rcv_read += n;
	if (tp->ops->cpu)
		tp->ops->cpu(tp->host, IBFS_TCP_CPU_COPY, (uint32_t)n);
	cur = tp->rcv_adv > tp->rcv_nxt ? tp->rcv_adv - tp->rcv_nxt : 0;
	now_free = tp->cfg.rcvbuf - (tp->rcv_nxt - tp->rcv_read);
	step = 2 * (uint64_t)tp->rcv_mss;
	if (step > tp->cfg.rcvbuf / 2)
		step = tp->cfg.rcvbuf / 2;
	if (tcp_rx_open(tp) && cur < 2 * (uint64_t)tp->rcv_mss &&
	    now_free >= cur + step)
		ibfs__tcp_send_ack(tp);
	return n;
}
