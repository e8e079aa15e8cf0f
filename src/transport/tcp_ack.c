/* SPDX-License-Identifier: MIT */
/*
 * An acknowledgment at the sender (RFC 9293 3.10.7.4, fifth): the peer's
 * window, the segments it covers leaving the scoreboard, an RTT sample
 * (Karn's rule, RFC 6298 3), the ECN echo (RFC 3168 6.1.2), duplicate
 * ACKs and loss recovery (tcp_recovery.c), the congestion window
 * (tcp_cc_*.c) and the retransmission timer (RFC 6298 5.2, 5.3).
 */
#include "transport/tcp_int.h"

/* Take the segments below ack off the scoreboard. Returns the RTT sample
 * of the oldest one, or 0: none when any was ever retransmitted (Karn). */
static ibfs_time_t tcp_take_acked(struct ibfs_tcp *tp, uint64_t ack,
				  int *fin)
{
	ibfs_time_t first = IBFS_TIME_NEVER;
	int karn_ok = 1;

	while (tp->qlen) {
		struct ibfs_tcp_txseg *s = ibfs__tcp_qat(tp, 0);

		if (s->start + s->len > ack) {
			if (s->start < ack) {
				/* Acked in part: keep the rest. */
				uint8_t f = s->flags;

				ibfs__tcp_seg_flags(tp, s, IBFS_TXS_SACKED);
				s->len -= (uint32_t)(ack - s->start);
				s->start = ack;
				ibfs__tcp_seg_flags(tp, s, f);
			}
			break;
		}
		if (s->flags & IBFS_TXS_EVER_RETRANS)
			karn_ok = 0;
		else if (first == IBFS_TIME_NEVER)
			first = s->sent_at;
		if (s->flags & IBFS_TXS_FIN)
			*fin = 1;
		ibfs__tcp_seg_flags(tp, s, IBFS_TXS_SACKED);
		tp->qhead = (tp->qhead + 1) & (tp->qcap - 1);
		tp->qlen--;
	}
	if (!karn_ok || first == IBFS_TIME_NEVER)
		return 0;
	return ibfs__tcp_now(tp) - first;
}

/* RFC 3168 6.1.2: one reduction a window for ECE. The window ends when
 * an ACK goes past what was sent at the reduction (as Linux leaves its
 * CWR state): the ACK of exactly that much may still echo marks on it. */
static int tcp_ecn_input(struct ibfs_tcp *tp, int ece)
{
	if (tp->ecn_reduced && tp->snd_una > tp->ecn_recover)
		tp->ecn_reduced = 0;
	if (!ece || tp->ecn_reduced || tp->in_recovery)
		return tp->ecn_reduced;
	tp->cc->on_ecn(tp);
	tp->ecn_reduced = 1;
	tp->ecn_recover = tp->snd_nxt;
	tp->cwr_pending = 1;
	return 1;
}

void ibfs__tcp_ack_input(struct ibfs_tcp *tp, const struct ibfs_tcp_seg *seg)
{
	uint64_t ack = ibfs__tcp_unwrap(seg->ack, tp->iss + 1, tp->snd_una);
	uint64_t wnd = (uint64_t)seg->window << tp->snd_wscale;
	uint64_t acked, newly_sacked = 0;
	int ece = tp->ecn_ok && (seg->flags & IBFS_TCP_ECE);
	int wnd_changed, fin = 0, dup, cwr;
	ibfs_time_t rtt = 0;

	if (ack < tp->snd_una || ack > tp->snd_nxt)
		return;
	if (tp->sack_ok && seg->nsack)
		ibfs__tcp_sack_input(tp, seg, &newly_sacked);
	wnd_changed = wnd != tp->snd_wnd;
	tp->snd_wnd = wnd;
	acked = ack - tp->snd_una;
	if (acked) {
		rtt = tcp_take_acked(tp, ack, &fin);
		tp->snd_una = ack;
		if (rtt)
			ibfs__tcp_rtt_sample(tp, rtt);
		if (tp->cc->ack_ecn && tp->ecn_ok)
			tp->cc->ack_ecn(tp, acked, ece);
	}
	cwr = tp->ecn_ok ? tcp_ecn_input(tp, ece) : 0;
	/* RFC 5681 2 (with RFC 6675 2 when SACK is in use, where an ACK
	 * that SACKs new data is the duplicate). */
	dup = !acked && !seg->len && !(seg->flags & (IBFS_TCP_SYN |
						     IBFS_TCP_FIN)) &&
	      tp->snd_nxt > tp->snd_una &&
	      (tp->sack_ok ? newly_sacked > 0 : !wnd_changed);
	ibfs__tcp_recovery_ack(tp, acked, dup, rtt, cwr);
	if (acked) {
		if (tp->snd_una == tp->snd_nxt)
			ibfs__tcp_rto_stop(tp);
		else
			ibfs__tcp_rto_arm(tp, 1);
		if (fin)
			ibfs__tcp_fin_acked(tp);
		if (tp->want_writable && tp->ops->writable) {
			tp->want_writable = 0;
			tp->ops->writable(tp->host);
		}
	}
}
