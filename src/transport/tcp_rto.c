/* SPDX-License-Identifier: MIT */
/*
 * The retransmission timer (RFC 6298): SRTT and RTTVAR from RTT samples
 * (2.2, 2.3, alpha 1/8, beta 1/4), RTO = SRTT + max(G, 4 RTTVAR) (2.3)
 * held at or above rto_min (2.4; Linux's 200 ms, settable lower) and at
 * most rto_max (2.5; Linux's 120 s), doubled at each expiry (5.5) until a
 * new sample (5.7).
 *
 * Samples follow Karn's rule (RFC 6298 3): the sender times each segment
 * from its own clock and takes no sample from an ACK that covers a
 * retransmitted segment. Timestamps (RFC 7323 4) would also give samples
 * after retransmissions, but they echo the sender's clock at millisecond
 * resolution in Linux, far coarser than a datacenter RTT; the send times
 * the engine keeps are exact, so Karn's rule loses nothing but the
 * samples of retransmitted segments. The option's bytes are still sent
 * when negotiated, so that segment sizes are Linux's.
 *
 * Linux's variant (IBFS_TCP_RTO_LINUX, tcp_rtt_estimator and tcp_set_rto)
 * floors the variance term at rto_min instead of the sum: RTO = SRTT +
 * max(G, 4 RTTVAR, rto_min), so that on a steady path RTO is SRTT +
 * rto_min, not rto_min.
 */
#include "transport/tcp_int.h"

static ibfs_time_t tcp_max(ibfs_time_t a, ibfs_time_t b)
{
	return a > b ? a : b;
}

void ibfs__tcp_rtt_sample(struct ibfs_tcp *tp, ibfs_time_t r)
{
	ibfs_time_t var;

	if (!tp->rtt_valid) {
		tp->srtt = r;          /* 2.2 */
		tp->rttvar = r / 2;
		tp->rtt_valid = 1;
	} else {
		ibfs_time_t d = tp->srtt > r ? tp->srtt - r : r - tp->srtt;

		tp->rttvar = (3 * tp->rttvar + d) / 4; /* 2.3, RTTVAR first */
		tp->srtt = (7 * tp->srtt + r) / 8;
	}
	var = tcp_max(tp->cfg.clock_g, 4 * tp->rttvar);
	if (tp->cfg.rto_style == IBFS_TCP_RTO_LINUX)
		tp->rto = tp->srtt + tcp_max(var, tp->cfg.rto_min);
	else
		tp->rto = tcp_max(tp->srtt + var, tp->cfg.rto_min);
	if (tp->rto > tp->cfg.rto_max)
		tp->rto = tp->cfg.rto_max;
	tp->backoff = 0;
}

/* The timeout in force: RTO doubled once per backoff, at most rto_max. */
ibfs_time_t ibfs__tcp_rto_now(const struct ibfs_tcp *tp)
{
	ibfs_time_t t = tp->rto;
	uint32_t i;

	for (i = 0; i < tp->backoff && t < tp->cfg.rto_max; i++)
		t *= 2;
	return t < tp->cfg.rto_max ? t : tp->cfg.rto_max;
}

/* RFC 6298 5.1 (start when data leaves and the timer is off) and 5.3
 * (restart on an ACK of new data). */
void ibfs__tcp_rto_arm(struct ibfs_tcp *tp, int restart)
{
	if (tp->rto_running && !restart)
		return;
	tp->rto_running = 1;
	tp->ops->timer_set(tp->host, IBFS_TCP_T_RTO,
			   ibfs__tcp_now(tp) + ibfs__tcp_rto_now(tp));
}

/* RFC 6298 5.2: everything acknowledged. */
void ibfs__tcp_rto_stop(struct ibfs_tcp *tp)
{
	if (!tp->rto_running)
		return;
	tp->rto_running = 0;
	tp->ops->timer_cancel(tp->host, IBFS_TCP_T_RTO);
}

/* RFC 6298 5.4-5.6: resend the earliest unacknowledged segment, back
 * off, restart; the control's loss window (RFC 5681 3.1 eq. 4). A SYN or
 * SYN-ACK is resent the same way. */
void ibfs__tcp_rto_fired(struct ibfs_tcp *tp)
{
	if (tp->state == IBFS_TCP_SYN_SENT || tp->state == IBFS_TCP_SYN_RCVD) {
		tp->syn_retrans = 1;
		tp->backoff++;
		tp->rto_fires++;
		tp->retransmits++;
		ibfs__tcp_send_syn(tp);
		return;
	}
	if (!tp->qlen)
		return;
	tp->rto_fires++;
	/* RFC 5681 3.1: ssthresh is held when the timer expires again for
	 * a segment it already resent; cwnd is the loss window either way. */
	if (!tp->backoff)
		tp->cc->on_rto(tp);
	else
		tp->cwnd = tp->snd_mss;
	tp->backoff++;
	tp->ecn_reduced = 0;
	ibfs__tcp_recovery_rto(tp);
	ibfs__tcp_output(tp);
	ibfs__tcp_rto_arm(tp, 0);
}
