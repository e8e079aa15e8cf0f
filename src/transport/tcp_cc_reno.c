/* SPDX-License-Identifier: MIT */
/*
 * NewReno's window (RFC 5681 3.1): slow start below ssthresh, counting
 * bytes with L = 2 SMSS (RFC 3465 2.2; Linux counts segments acked, the
 * same with an ACK every second segment), congestion avoidance of one
 * SMSS per cwnd of bytes acknowledged (RFC 3465 2.1); on a loss ssthresh
 * = max(FlightSize / 2, 2 SMSS) (eq. 4) and, after a timeout, cwnd = one
 * SMSS (the loss window). The slow start and the avoidance are shared by
 * DCTCP (RFC 8257 3.5) and CUBIC's slow start.
 */
#include "transport/tcp_int.h"

void ibfs__tcp_slow_start(struct ibfs_tcp *tp, uint64_t acked)
{
	uint64_t l = 2 * (uint64_t)tp->snd_mss;

	tp->cwnd += acked < l ? acked : l;
}

void ibfs__tcp_reno_avoid(struct ibfs_tcp *tp, struct ibfs_tcp_reno *r,
			  uint64_t acked)
{
	r->bytes_acked += acked;
	while (r->bytes_acked >= tp->cwnd) {
		r->bytes_acked -= tp->cwnd;
		tp->cwnd += tp->snd_mss;
	}
}

static void reno_init(struct ibfs_tcp *tp)
{
	tp->ccs.reno.bytes_acked = 0;
}

static void reno_on_ack(struct ibfs_tcp *tp, uint64_t acked, ibfs_time_t rtt)
{
	if (tp->cwnd < tp->ssthresh)
		ibfs__tcp_slow_start(tp, acked);
	else
		ibfs__tcp_reno_avoid(tp, &tp->ccs.reno, acked);
}

static uint64_t reno_half_flight(const struct ibfs_tcp *tp)
{
	uint64_t half = (tp->snd_nxt - tp->snd_una) / 2;
	uint64_t min = 2 * (uint64_t)tp->snd_mss;

	return half > min ? half : min;
}

static void reno_reduce(struct ibfs_tcp *tp)
{
	tp->ssthresh = reno_half_flight(tp);
	tp->cwnd = tp->ssthresh;
	tp->ccs.reno.bytes_acked = 0;
}

static void reno_on_rto(struct ibfs_tcp *tp)
{
	tp->ssthresh = reno_half_flight(tp);
	tp->cwnd = tp->snd_mss;
	tp->ccs.reno.bytes_acked = 0;
}

const struct ibfs_tcp_cc_ops ibfs__tcp_newreno = {
	.name = "newreno",
	.init = reno_init,
	.on_ack = reno_on_ack,
	.enter_recovery = reno_reduce,
	.on_ecn = reno_reduce,  /* RFC 3168 6.1.2: as for a loss */
	.on_rto = reno_on_rto,
};
