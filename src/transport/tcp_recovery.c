/* SPDX-License-Identifier: MIT */
/*
 * Loss recovery at the sender: fast retransmit on DupThresh duplicate
 * ACKs (RFC 5681 3.2); with SACK, RFC 6675's scoreboard, IsLost, pipe and
 * NextSeg (tcp_send.c), recovery lasting until RecoveryPoint is
 * acknowledged; without SACK, NewReno (RFC 6582): the window inflated by
 * each duplicate, a partial ACK resending the next hole at once. After a
 * retransmission timeout every segment not SACKed is deemed lost (RFC
 * 6675 5.1) and is resent in slow start.
 *
 * Not modelled: Proportional Rate Reduction (RFC 6937, Linux's cwnd
 * during recovery; here cwnd = ssthresh through recovery as RFC 6675),
 * RACK-TLP (RFC 8985), D-SACK (RFC 2883), limited transmit (RFC 3042)
 * without SACK, the rescue retransmission (RFC 6675 NextSeg rules 3, 4).
 */
#include "transport/tcp_int.h"

/* The first scoreboard index whose segment ends after off. */
static uint32_t tcp_q_find(struct ibfs_tcp *tp, uint64_t off)
{
	uint32_t lo = 0, hi = tp->qlen;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		struct ibfs_tcp_txseg *s = ibfs__tcp_qat(tp, mid);

		if (s->start + s->len <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* RFC 2018 and RFC 6675 4 (Update): segments every block covers whole
 * become SACKed. D-SACK blocks (below snd_una) are skipped. */
void ibfs__tcp_sack_input(struct ibfs_tcp *tp, const struct ibfs_tcp_seg *seg,
			  uint64_t *newly_sacked)
{
	uint32_t b, i;

	for (b = 0; b < seg->nsack && b < IBFS_TCP_SACK_MAX; b++) {
		uint64_t l = ibfs__tcp_unwrap(seg->sack[b].left, tp->iss + 1,
					      tp->snd_una);
		uint64_t r = ibfs__tcp_unwrap(seg->sack[b].right, tp->iss + 1,
					      tp->snd_una);

		if (r <= tp->snd_una || r > tp->snd_nxt || l >= r)
			continue;
		for (i = tcp_q_find(tp, l); i < tp->qlen; i++) {
			struct ibfs_tcp_txseg *s = ibfs__tcp_qat(tp, i);

			if (s->start + s->len > r)
				break;
			if (s->start < l || (s->flags & IBFS_TXS_SACKED))
				continue;
			uint8_t f = (s->flags | IBFS_TXS_SACKED) &
				    (uint8_t)~IBFS_TXS_LOST;

			ibfs__tcp_seg_flags(tp, s, f);
			*newly_sacked += s->len;
			if (s->start + s->len > tp->high_sacked)
				tp->high_sacked = s->start + s->len;
			tp->sack_changed = 1;
		}
	}
}

/*
 * RFC 6675 4, IsLost: a segment not SACKed is lost once DupThresh SACKed
 * segments, or more than (DupThresh - 1) SMSS of SACKed bytes, lie above
 * it. One pass from the highest segment down.
 */
void ibfs__tcp_mark_lost(struct ibfs_tcp *tp)
{
	uint64_t bytes = 0, lim = (uint64_t)(tp->cfg.dupthresh - 1) *
				  tp->snd_mss;
	uint32_t segs = 0, i = tp->qlen;

	tp->sack_changed = 0;
	while (i--) {
		struct ibfs_tcp_txseg *s = ibfs__tcp_qat(tp, i);

		if (s->flags & IBFS_TXS_SACKED) {
			segs++;
			bytes += s->len;
		} else if (!(s->flags & IBFS_TXS_LOST) &&
			   (segs >= tp->cfg.dupthresh || bytes > lim)) {
			ibfs__tcp_seg_flags(tp, s, s->flags | IBFS_TXS_LOST);
		}
	}
}

static void tcp_mark_head_lost(struct ibfs_tcp *tp)
{
	struct ibfs_tcp_txseg *s;

	if (!tp->qlen)
		return;
	s = ibfs__tcp_qat(tp, 0);
	if (!(s->flags & IBFS_TXS_SACKED))
		ibfs__tcp_seg_flags(tp, s, (s->flags | IBFS_TXS_LOST) &
					   (uint8_t)~IBFS_TXS_RETRANS);
	tp->force_rexmit = 1;
}

/* RFC 5681 3.2 steps 2-3, RFC 6675 5 step 4, RFC 6582 3.2 step 2. */
static void tcp_enter_recovery(struct ibfs_tcp *tp)
{
	tp->in_recovery = 1;
	tp->recover = tp->snd_nxt;
	tp->recover_set = 1;
	tp->fast_retransmits++;
	tp->cc->enter_recovery(tp);
	if (!tp->sack_ok)
		tp->cwnd += (uint64_t)tp->cfg.dupthresh * tp->snd_mss;
	/* A loss is the window's one reduction for ECN too (RFC 3168
	 * 6.1.2). */
	tp->ecn_reduced = 1;
	tp->ecn_recover = tp->snd_nxt;
	tcp_mark_head_lost(tp);
}

/* An ACK during recovery: NewReno's inflation and partial ACKs (RFC 6582
 * 3.2 steps 3, 4); the end of recovery at RecoveryPoint. */
static void tcp_in_recovery(struct ibfs_tcp *tp, uint64_t acked, int dup)
{
	uint64_t mss = tp->snd_mss;

	if (tp->snd_una >= tp->recover) {
		uint64_t flight = tp->snd_nxt - tp->snd_una;

		tp->in_recovery = 0;
		tp->dupacks = 0;
		/* RFC 6582 3.2 step 3, full ACK, option (1); RFC 6675
		 * keeps cwnd = ssthresh. */
		if (!tp->sack_ok) {
			uint64_t w = (flight > mss ? flight : mss) + mss;

			tp->cwnd = w < tp->ssthresh ? w : tp->ssthresh;
		}
		return;
	}
	if (tp->sack_ok)
		return;
	if (dup) {
		tp->cwnd += mss;
	} else if (acked) {
		tp->cwnd = tp->cwnd > acked ? tp->cwnd - acked : mss;
		if (acked >= mss)
			tp->cwnd += mss;
		tcp_mark_head_lost(tp);
	}
}

void ibfs__tcp_recovery_ack(struct ibfs_tcp *tp, uint64_t acked, int dup,
			    ibfs_time_t rtt, int cwr)
{
	int head_lost;

	if (tp->sack_ok && tp->sack_changed)
		ibfs__tcp_mark_lost(tp);
	if (acked)
		tp->dupacks = 0;
	else if (dup)
		tp->dupacks++;
	if (tp->in_recovery) {
		tcp_in_recovery(tp, acked, dup);
		return;
	}
	/* No growth in the window an ECN reduction holds (RFC 3168
	 * 6.1.2). */
	if (acked && !cwr)
		tp->cc->on_ack(tp, acked, rtt);
	if (tp->recover_set && tp->snd_una < tp->recover)
		return; /* RFC 6582 3.2 step 2: same window as the last */
	head_lost = tp->sack_ok && tp->qlen &&
		    (ibfs__tcp_qat(tp, 0)->flags & IBFS_TXS_LOST);
	if (tp->dupacks >= tp->cfg.dupthresh || head_lost)
		tcp_enter_recovery(tp);
}

/* RFC 5681 3.1 and RFC 6675 5.1: after a timeout, all but what was
 * SACKed is lost; RFC 6582 4.1: recover = HighData. */
void ibfs__tcp_recovery_rto(struct ibfs_tcp *tp)
{
	uint32_t i;

	for (i = 0; i < tp->qlen; i++) {
		struct ibfs_tcp_txseg *s = ibfs__tcp_qat(tp, i);

		if (!(s->flags & IBFS_TXS_SACKED))
			ibfs__tcp_seg_flags(tp, s,
					    (s->flags | IBFS_TXS_LOST) &
					    (uint8_t)~IBFS_TXS_RETRANS);
	}
	tp->in_recovery = 0;
	tp->dupacks = 0;
	tp->recover = tp->snd_nxt;
	tp->recover_set = 1;
	tp->force_rexmit = 1;
}
