/* SPDX-License-Identifier: MIT */
/*
 * The send side: the send buffer, cutting the stream into segments of the
 * MSS, sending within the congestion window and the peer's window (RFC
 * 5681 2, RFC 9293 3.8.6), retransmissions first (RFC 6675 NextSeg rule
 * 1, before new data, rule 2), TSO super-segments, and the scoreboard each
 * sent segment gets an entry in.
 *
 * The window test is RFC 6675's "cwnd - pipe >= the segment" on every
 * path, as Linux's tcp_packets_in_flight: pipe counts every segment not
 * SACKed and not deemed lost, and every retransmission. Without SACK,
 * nothing is SACKed and the one segment NewReno marks lost is counted
 * again by its retransmission, so pipe is RFC 5681's FlightSize.
 *
 * The sender sends whole segments only (the sender side of RFC 9293
 * 3.8.6.2.1), a short one only at the stream's end; Nagle's algorithm is
 * not modelled (as TCP_NODELAY). A window too small for the next segment,
 * with nothing in flight to bring an ACK, is probed (RFC 9293 3.8.6.1,
 * RFC 1122 4.2.2.17) as Linux does: a segment without data at an old
 * sequence number, which the receiver answers with an ACK, first one RTO
 * later, then backing off as the RTO does.
 */
#include "transport/tcp_int.h"

#include <stdlib.h>
#include <string.h>

/* What a segment adds to pipe (RFC 6675 4, SetPipe). */
static uint64_t tcp_pipe_part(uint8_t flags, uint32_t len)
{
	uint64_t p = 0;

	if (flags & IBFS_TXS_SACKED)
		return 0;
	if (!(flags & IBFS_TXS_LOST))
		p += len;
	if (flags & IBFS_TXS_RETRANS)
		p += len;
	return p;
}

void ibfs__tcp_seg_flags(struct ibfs_tcp *tp, struct ibfs_tcp_txseg *s,
			 uint8_t flags)
{
	tp->pipe -= tcp_pipe_part(s->flags, s->len);
	s->flags = flags;
	tp->pipe += tcp_pipe_part(s->flags, s->len);
}

static int tcp_q_push(struct ibfs_tcp *tp, uint64_t start, uint32_t len,
		      uint8_t flags)
{
	struct ibfs_tcp_txseg *s;

	if (tp->qlen == tp->qcap) {
		uint32_t cap = tp->qcap * 2, i;
		struct ibfs_tcp_txseg *q = malloc(cap * sizeof(*q));

		if (!q)
			return -1;
		for (i = 0; i < tp->qlen; i++)
			q[i] = *ibfs__tcp_qat(tp, i);
		free(tp->q);
		tp->q = q;
		tp->qcap = cap;
		tp->qhead = 0;
	}
	s = ibfs__tcp_qat(tp, tp->qlen++);
	s->start = start;
	s->len = len;
	s->flags = IBFS_TXS_SACKED; /* counts nothing in pipe until set */
	s->sent_at = ibfs__tcp_now(tp);
	ibfs__tcp_seg_flags(tp, s, flags);
	return 0;
}

uint64_t ibfs__tcp_app_send(struct ibfs_tcp *tp, uint64_t bytes)
{
	uint64_t used = tp->app_bytes - tp->snd_una;
	uint64_t room = tp->cfg.sndbuf > used ? tp->cfg.sndbuf - used : 0;
	uint64_t take = bytes < room ? bytes : room;

	if (tp->fin_queued)
		return 0;
	tp->app_bytes += take;
	if (take < bytes)
		tp->want_writable = 1;
	ibfs__tcp_output(tp);
	return take;
}

static int tcp_can_send(const struct ibfs_tcp *tp)
{
	switch (tp->state) {
	case IBFS_TCP_ESTABLISHED:
	case IBFS_TCP_CLOSE_WAIT:
	case IBFS_TCP_FIN_WAIT_1:
	case IBFS_TCP_CLOSING:
	case IBFS_TCP_LAST_ACK:
		return 1;
	default:
		return 0;
	}
}

/* The segment for stream bytes [off, off + len). */
static void tcp_data_seg(struct ibfs_tcp *tp, struct ibfs_tcp_seg *seg,
			 uint64_t off, uint32_t len)
{
	ibfs__tcp_header(tp, seg, 0);
	seg->seq = tp->iss + 1 + (uint32_t)off;
	seg->len = len;
	if (tp->sbuf && off + len <= tp->sbuf_len)
		seg->data = tp->sbuf + off;
}

static void tcp_retransmit(struct ibfs_tcp *tp, struct ibfs_tcp_txseg *s)
{
	struct ibfs_tcp_seg seg;

	if (s->flags & IBFS_TXS_FIN) {
		tcp_data_seg(tp, &seg, s->start, 0);
		seg.flags |= IBFS_TCP_FIN;
	} else {
		tcp_data_seg(tp, &seg, s->start, s->len);
	}
	/* RFC 3168 6.1.5: retransmissions are not ECN-capable. */
	seg.ecn = IBFS_ECN_NOT_ECT;
	ibfs__tcp_seg_flags(tp, s, s->flags | IBFS_TXS_RETRANS |
					   IBFS_TXS_EVER_RETRANS);
	s->sent_at = ibfs__tcp_now(tp);
	tp->retransmits++;
	ibfs__tcp_emit(tp, &seg);
	ibfs__tcp_rto_arm(tp, 0);
}

/* RFC 6675 NextSeg rule 1: the first segment deemed lost, not SACKed and
 * not yet retransmitted. */
static struct ibfs_tcp_txseg *tcp_next_lost(struct ibfs_tcp *tp)
{
	uint32_t i;

	for (i = 0; i < tp->qlen; i++) {
		struct ibfs_tcp_txseg *s = ibfs__tcp_qat(tp, i);

		if ((s->flags & (IBFS_TXS_LOST | IBFS_TXS_SACKED |
				 IBFS_TXS_RETRANS)) == IBFS_TXS_LOST)
			return s;
	}
	return NULL;
}

/* Does a segment of len bytes at snd_nxt fit both windows? */
static int tcp_fits(const struct ibfs_tcp *tp, uint64_t extra, uint32_t len)
{
	/* The pieces of a super-segment already counted are in pipe. */
	return tp->pipe + len <= tp->cwnd &&
	       tp->snd_nxt + extra + len <= tp->snd_una + tp->snd_wnd;
}

static int tcp_send_fin(struct ibfs_tcp *tp)
{
	struct ibfs_tcp_seg seg;

	if (tp->pipe + 1 > tp->cwnd && tp->pipe)
		return 0;
	tcp_data_seg(tp, &seg, tp->fin_off, 0);
	seg.flags |= IBFS_TCP_FIN;
	if (tcp_q_push(tp, tp->fin_off, 1, IBFS_TXS_FIN))
		return 0;
	tp->snd_nxt = tp->fin_off + 1;
	ibfs__tcp_emit(tp, &seg);
	ibfs__tcp_rto_arm(tp, 0);
	return 1;
}

/* RFC 6675 NextSeg rule 2: new data, one segment or, with TSO, one
 * super-segment of as many as fit (up to tso_max bytes). */
static int tcp_send_new(struct ibfs_tcp *tp)
{
	struct ibfs_tcp_seg seg;
	uint64_t off = tp->snd_nxt, total = 0;
	uint32_t len, n = 0;

	if (off >= tp->app_bytes) {
		if (tp->fin_queued && off == tp->fin_off)
			return tcp_send_fin(tp);
		return 0;
	}
	for (;;) {
		uint64_t left = tp->app_bytes - (off + total);

		len = left < tp->snd_mss ? (uint32_t)left : tp->snd_mss;
		if (!len || !tcp_fits(tp, total, len))
			break;
		if (tcp_q_push(tp, off + total, len, 0))
			break;
		total += len;
		n++;
		if (!tp->cfg.tso || total + tp->snd_mss > tp->cfg.tso_max ||
		    len < tp->snd_mss)
			break;
	}
	if (!n)
		return 0;
	tcp_data_seg(tp, &seg, off, (uint32_t)total);
	if (n > 1)
		seg.tso_mss = tp->snd_mss;
	if (off + total == tp->app_bytes)
		seg.flags |= IBFS_TCP_PSH;
	if (tp->ecn_ok) {
		seg.ecn = IBFS_ECN_ECT0; /* RFC 3168 6.1.2 */
		if (tp->cwr_pending) {
			seg.flags |= IBFS_TCP_CWR;
			tp->cwr_pending = 0;
		}
	}
	tp->snd_nxt = off + total;
	ibfs__tcp_emit(tp, &seg);
	ibfs__tcp_rto_arm(tp, 0);
	return 1;
}

static void tcp_output_loop(struct ibfs_tcp *tp)
{
	for (;;) {
		struct ibfs_tcp_txseg *s = tcp_next_lost(tp);

		if (s) {
			if (!tp->force_rexmit && tp->pipe + s->len > tp->cwnd)
				break;
			tp->force_rexmit = 0;
			tcp_retransmit(tp, s);
			continue;
		}
		tp->force_rexmit = 0;
		if (!tcp_send_new(tp))
			break;
	}
}

/* The peer's window holds no next segment and no ACK is coming. */
static int tcp_window_stalled(const struct ibfs_tcp *tp)
{
	uint64_t left = tp->app_bytes - tp->snd_nxt;
	uint32_t len = left < tp->snd_mss ? (uint32_t)left : tp->snd_mss;

	return tp->snd_nxt == tp->snd_una && left &&
	       tp->snd_nxt + len > tp->snd_una + tp->snd_wnd;
}

static void tcp_persist_check(struct ibfs_tcp *tp)
{
	int stalled = tcp_window_stalled(tp);

	if (stalled && !tp->persist_armed) {
		ibfs_time_t t = ibfs__tcp_rto_now(tp);
		uint32_t i;

		for (i = 0; i < tp->persist_backoff && t < tp->cfg.rto_max;
		     i++)
			t *= 2;
		if (t > tp->cfg.rto_max)
			t = tp->cfg.rto_max;
		tp->persist_armed = 1;
		tp->ops->timer_set(tp->host, IBFS_TCP_T_PERSIST,
				   ibfs__tcp_now(tp) + t);
	} else if (!stalled) {
		tp->persist_backoff = 0;
		if (tp->persist_armed) {
			tp->persist_armed = 0;
			tp->ops->timer_cancel(tp->host, IBFS_TCP_T_PERSIST);
		}
	}
}

void ibfs__tcp_persist_fired(struct ibfs_tcp *tp)
{
	struct ibfs_tcp_seg seg;

	if (!tcp_can_send(tp) || !tcp_window_stalled(tp))
		return;
	ibfs__tcp_header(tp, &seg, 0);
	seg.seq = tp->iss + (uint32_t)tp->snd_una; /* snd_una - 1 */
	tp->probes++;
	tp->persist_backoff++;
	ibfs__tcp_emit(tp, &seg);
	tcp_persist_check(tp);
}

void ibfs__tcp_output(struct ibfs_tcp *tp)
{
	if (!tcp_can_send(tp))
		return;
	tcp_output_loop(tp);
	tcp_persist_check(tp);
}
