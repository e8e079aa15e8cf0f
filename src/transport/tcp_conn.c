/* SPDX-License-Identifier: MIT */
/*
 * The connection: its defaults, the three-way handshake with the options
 * it negotiates (RFC 9293 3.5: MSS, RFC 7323 window scale and timestamps,
 * RFC 2018 SACK-permitted, RFC 3168 6.1.1 ECN), the close (RFC 9293 3.6:
 * FIN, TIME-WAIT), the header every segment carries, and the dispatch of
 * what arrives and what fires.
 */
#include "transport/tcp_int.h"

#include <stdlib.h>
#include <string.h>

/*
 * Linux's defaults (net/ipv4 sysctls and include/net/tcp.h): MSS 1460 for
 * a 1500-byte MTU; timestamps, SACK and window scaling on; ECN accepted
 * when the peer asks but not asked for (tcp_ecn = 2); IW10 (RFC 6928);
 * delayed ACKs with TCP_ATO_MIN = 40 ms; TCP_RTO_MIN 200 ms, TCP_RTO_MAX
 * 120 s, TCP_TIMEOUT_INIT 1 s (RFC 6298 2.1); CUBIC. Buffers of 4 MiB
 * and 6 MiB are tcp_wmem's and tcp_rmem's maxima. The clock granularity
 * G is 1 us (Linux measures RTT in microseconds); MSL 30 s gives
 * TCP_TIMEWAIT_LEN's 60 s.
 */
void ibfs__tcp_config_default(struct ibfs_tcp_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->mss = 1460;
	cfg->timestamps = 1;
	cfg->sack = 1;
	cfg->wscale = 1;
	cfg->ecn = 2;
	cfg->sndbuf = 4u << 20;
	cfg->rcvbuf = 6u << 20;
	cfg->init_cwnd = 10;
	cfg->dupthresh = 3;
	cfg->delack = 1;
	cfg->delack_timeout = 40 * IBFS_MS;
	cfg->rto_min = 200 * IBFS_MS;
	cfg->rto_max = 120 * IBFS_S;
	cfg->rto_init = 1 * IBFS_S;
	cfg->clock_g = 1 * IBFS_US;
	cfg->rto_style = IBFS_TCP_RTO_LINUX;
	cfg->msl = 30 * IBFS_S;
	cfg->tso = 0;
	cfg->tso_max = 65536;
	cfg->cc = &ibfs__tcp_cubic;
}

/* RFC 7323 2.3: the smallest shift that brings the buffer under 2^16,
 * at most 14. */
static int tcp_wscale_for(uint32_t rcvbuf)
{
	int s = 0;

	while (s < 14 && (rcvbuf >> s) > 0xFFFF)
		s++;
	return s;
}

struct ibfs_tcp *ibfs__tcp_create(const struct ibfs_tcp_config *cfg,
				  const struct ibfs_tcp_host_ops *ops,
				  void *host)
{
	struct ibfs_tcp *tp = calloc(1, sizeof(*tp));

	if (!tp)
		return NULL;
	tp->cfg = *cfg;
	tp->ops = ops;
	tp->host = host;
	tp->cc = cfg->cc ? cfg->cc : &ibfs__tcp_cubic;
	tp->iss = cfg->iss;
	tp->qcap = 64;
	tp->q = calloc(tp->qcap, sizeof(*tp->q));
	if (!tp->q) {
		free(tp);
		return NULL;
	}
	tp->rto = cfg->rto_init;
	tp->ssthresh = UINT64_MAX / 2;
	tp->rcv_wscale = cfg->wscale ? tcp_wscale_for(cfg->rcvbuf) : 0;
	tp->snd_mss = cfg->mss;
	tp->rcv_mss = cfg->mss;
	tp->cwnd = (uint64_t)cfg->init_cwnd * cfg->mss;
	tp->cc->init(tp);
	return tp;
}

void ibfs__tcp_free(struct ibfs_tcp *tp)
{
	if (!tp)
		return;
	free(tp->q);
	free(tp->ooo);
	free(tp);
}

void ibfs__tcp_set_state(struct ibfs_tcp *tp, enum ibfs_tcp_state st)
{
	tp->state = st;
	if (tp->ops->state)
		tp->ops->state(tp->host, st);
}

/* Fields every segment we send carries: the ACK of what we took in, the
 * window, the timestamps and the ECN echo. */
void ibfs__tcp_header(struct ibfs_tcp *tp, struct ibfs_tcp_seg *seg,
		      uint8_t flags)
{
	memset(seg, 0, sizeof(*seg));
	seg->wscale = -1;
	seg->flags = flags;
	if (tp->state != IBFS_TCP_SYN_SENT) {
		seg->flags |= IBFS_TCP_ACK;
		seg->ack = tp->irs + 1 + (uint32_t)tp->rcv_nxt +
			   (uint32_t)tp->fin_taken;
		seg->window = ibfs__tcp_window_field(tp);
	}
	if (tp->ts_ok) {
		/* TSval on a millisecond clock, as Linux's tcp_time_stamp. */
		seg->ts = 1;
		seg->tsval = (uint32_t)(ibfs__tcp_now(tp) / IBFS_MS);
		seg->tsecr = tp->ts_recent;
	}
	if (tp->ecn_ok && tp->ece_echo)
		seg->flags |= IBFS_TCP_ECE;
}

/* Hand a segment to the host. Whatever carries an ACK answers what the
 * receive side owed (RFC 1122 4.2.3.2: a piggybacked ACK). */
void ibfs__tcp_emit(struct ibfs_tcp *tp, struct ibfs_tcp_seg *seg)
{
	if (seg->flags & IBFS_TCP_ACK) {
		tp->rcv_unacked = 0;
		if (tp->delack_armed) {
			tp->delack_armed = 0;
			tp->ops->timer_cancel(tp->host, IBFS_TCP_T_DELACK);
		}
		tp->rcv_adv = tp->rcv_nxt +
			      ((uint64_t)seg->window << tp->rcv_wscale);
	}
	tp->segs_out++;
	if (tp->ops->cpu)
		tp->ops->cpu(tp->host, IBFS_TCP_CPU_TX_SEG, seg->len);
	tp->ops->send_segment(tp->host, seg);
}

/* SYN or SYN-ACK with our options. */
void ibfs__tcp_send_syn(struct ibfs_tcp *tp)
{
	struct ibfs_tcp_seg seg;
	int passive = tp->state == IBFS_TCP_SYN_RCVD;
	uint8_t flags = IBFS_TCP_SYN;

	if (!passive && tp->cfg.ecn == 1)
		flags |= IBFS_TCP_ECE | IBFS_TCP_CWR; /* RFC 3168 6.1.1 */
	else if (passive && tp->ecn_ok)
		flags |= IBFS_TCP_ECE;
	ibfs__tcp_header(tp, &seg, flags);
	seg.seq = tp->iss;
	seg.mss = (uint16_t)tp->cfg.mss;
	seg.sack_ok = (uint8_t)(passive ? tp->sack_ok : tp->cfg.sack);
	if (!passive) {
		seg.ts = (uint8_t)tp->cfg.timestamps;
		if (seg.ts)
			seg.tsval = (uint32_t)(ibfs__tcp_now(tp) / IBFS_MS);
	}
	/* RFC 7323 2.2: the SYN's window is never scaled. */
	seg.window = (uint16_t)(tp->cfg.rcvbuf > 0xFFFF ? 0xFFFF :
						       tp->cfg.rcvbuf);
	tp->rcv_adv = seg.window;
	if (passive ? tp->ws_ok : tp->cfg.wscale)
		seg.wscale = (int8_t)tp->rcv_wscale;
	tp->segs_out++;
	tp->ops->send_segment(tp->host, &seg);
	tp->syn_sent_at = ibfs__tcp_now(tp);
	ibfs__tcp_rto_arm(tp, 1);
}

void ibfs__tcp_connect(struct ibfs_tcp *tp)
{
	ibfs__tcp_set_state(tp, IBFS_TCP_SYN_SENT);
	ibfs__tcp_send_syn(tp);
}

void ibfs__tcp_listen(struct ibfs_tcp *tp)
{
	ibfs__tcp_set_state(tp, IBFS_TCP_LISTEN);
}

/* Options the peer's SYN or SYN-ACK carries, against ours. */
static void tcp_negotiate(struct ibfs_tcp *tp, const struct ibfs_tcp_seg *seg)
{
	uint32_t peer_mss = seg->mss ? seg->mss : IBFS_TCP_DEFAULT_MSS;
	uint32_t mss = peer_mss < tp->cfg.mss ? peer_mss : tp->cfg.mss;

	tp->irs = seg->seq;
	tp->sack_ok = tp->cfg.sack && seg->sack_ok;
	tp->ts_ok = tp->cfg.timestamps && seg->ts;
	tp->ws_ok = tp->cfg.wscale && seg->wscale >= 0;
	if (tp->ws_ok) {
		tp->snd_wscale = seg->wscale > 14 ? 14 : seg->wscale;
	} else {
		tp->snd_wscale = 0;
		tp->rcv_wscale = 0;
	}
	if (tp->ts_ok)
		tp->ts_recent = seg->tsval;
	/* RFC 7323 3.2 and Linux's tcp_mss_to_mtu: the timestamps option's
	 * 12 bytes come out of every segment's payload. */
	tp->snd_mss = mss - (tp->ts_ok ? IBFS_TCP_TS_BYTES : 0);
	tp->rcv_mss = tp->snd_mss;
	tp->snd_wnd = seg->window; /* unscaled in a SYN */
}

/* The connection is open: the initial window (RFC 6928; one segment
 * after a lost SYN or SYN-ACK, RFC 5681 3.1) and RFC 6298 5.7's 3 s. */
static void tcp_established(struct ibfs_tcp *tp)
{
	tp->cwnd = (uint64_t)tp->cfg.init_cwnd * tp->snd_mss;
	if (tp->syn_retrans) {
		tp->cwnd = tp->snd_mss;
		if (!tp->rtt_valid)
			tp->rto = 3 * IBFS_S;
		tp->backoff = 0;
	}
	ibfs__tcp_rto_stop(tp);
	tp->cc->init(tp);
	/* A close during the handshake takes effect now. */
	ibfs__tcp_set_state(tp, tp->fin_queued ? IBFS_TCP_FIN_WAIT_1 :
						 IBFS_TCP_ESTABLISHED);
}

static void tcp_syn_sent_input(struct ibfs_tcp *tp,
			       const struct ibfs_tcp_seg *seg)
{
	uint64_t before;

	if ((seg->flags & (IBFS_TCP_SYN | IBFS_TCP_ACK)) !=
	    (IBFS_TCP_SYN | IBFS_TCP_ACK) || seg->ack != tp->iss + 1)
		return;
	tcp_negotiate(tp, seg);
	tp->ecn_ok = tp->cfg.ecn == 1 && (seg->flags & IBFS_TCP_ECE) &&
		     !(seg->flags & IBFS_TCP_CWR);
	if (!tp->syn_retrans)
		ibfs__tcp_rtt_sample(tp, ibfs__tcp_now(tp) - tp->syn_sent_at);
	tcp_established(tp);
	/* Data, if any, carries the handshake's ACK; else a pure ACK. */
	before = tp->segs_out;
	ibfs__tcp_output(tp);
	if (tp->segs_out == before)
		ibfs__tcp_send_ack(tp);
}

static void tcp_listen_input(struct ibfs_tcp *tp,
			     const struct ibfs_tcp_seg *seg)
{
	if (!(seg->flags & IBFS_TCP_SYN) || (seg->flags & IBFS_TCP_ACK))
		return;
	tcp_negotiate(tp, seg);
	tp->ecn_ok = tp->cfg.ecn && (seg->flags & IBFS_TCP_ECE) &&
		     (seg->flags & IBFS_TCP_CWR);
	ibfs__tcp_set_state(tp, IBFS_TCP_SYN_RCVD);
	ibfs__tcp_send_syn(tp);
}

static int tcp_syn_rcvd_input(struct ibfs_tcp *tp,
			      const struct ibfs_tcp_seg *seg)
{
	if (seg->flags & IBFS_TCP_SYN) {
		/* Our SYN-ACK was lost and the SYN came again. */
		ibfs__tcp_send_syn(tp);
		return 0;
	}
	if (!(seg->flags & IBFS_TCP_ACK) || seg->ack != tp->iss + 1)
		return 0;
	if (!tp->syn_retrans)
		ibfs__tcp_rtt_sample(tp, ibfs__tcp_now(tp) - tp->syn_sent_at);
	tcp_established(tp);
	return 1;
}

void ibfs__tcp_segment_arrived(struct ibfs_tcp *tp,
			       const struct ibfs_tcp_seg *seg)
{
	if (tp->ops->cpu)
		tp->ops->cpu(tp->host, IBFS_TCP_CPU_RX_SEG, seg->len);
	switch (tp->state) {
	case IBFS_TCP_CLOSED:
		return;
	case IBFS_TCP_LISTEN:
		tcp_listen_input(tp, seg);
		return;
	case IBFS_TCP_SYN_SENT:
		tcp_syn_sent_input(tp, seg);
		return;
	case IBFS_TCP_SYN_RCVD:
		if (!tcp_syn_rcvd_input(tp, seg))
			return;
		break;
	default:
		if (seg->flags & IBFS_TCP_SYN) {
			/* The peer lost our ACK of its SYN-ACK. */
			ibfs__tcp_send_ack(tp);
			return;
		}
		break;
	}
	if (tp->ts_ok && seg->ts)
		tp->ts_recent = seg->tsval;
	if (seg->flags & IBFS_TCP_ACK)
		ibfs__tcp_ack_input(tp, seg);
	ibfs__tcp_data_input(tp, seg);
	ibfs__tcp_output(tp);
}

void ibfs__tcp_app_close(struct ibfs_tcp *tp)
{
	if (tp->fin_queued)
		return;
	tp->fin_queued = 1;
	tp->fin_off = tp->app_bytes;
	if (tp->state == IBFS_TCP_ESTABLISHED)
		ibfs__tcp_set_state(tp, IBFS_TCP_FIN_WAIT_1);
	else if (tp->state == IBFS_TCP_CLOSE_WAIT)
		ibfs__tcp_set_state(tp, IBFS_TCP_LAST_ACK);
	ibfs__tcp_output(tp);
}

static void tcp_time_wait(struct ibfs_tcp *tp)
{
	ibfs__tcp_set_state(tp, IBFS_TCP_TIME_WAIT);
	ibfs__tcp_rto_stop(tp);
	tp->ops->timer_set(tp->host, IBFS_TCP_T_TIMEWAIT,
			   ibfs__tcp_now(tp) + 2 * tp->cfg.msl);
}

/* Our FIN is acknowledged (RFC 9293 3.10.7.4, the ACK in each state). */
void ibfs__tcp_fin_acked(struct ibfs_tcp *tp)
{
	switch (tp->state) {
	case IBFS_TCP_FIN_WAIT_1:
		ibfs__tcp_set_state(tp, IBFS_TCP_FIN_WAIT_2);
		break;
	case IBFS_TCP_CLOSING:
		tcp_time_wait(tp);
		break;
	case IBFS_TCP_LAST_ACK:
		ibfs__tcp_set_state(tp, IBFS_TCP_CLOSED);
		break;
	default:
		break;
	}
}

/* The peer's FIN is taken in, in order (RFC 9293 3.10.7.4, eighth). */
void ibfs__tcp_peer_fin(struct ibfs_tcp *tp)
{
	int fin_acked = tp->fin_queued && tp->snd_una > tp->fin_off;

	switch (tp->state) {
	case IBFS_TCP_ESTABLISHED:
		ibfs__tcp_set_state(tp, IBFS_TCP_CLOSE_WAIT);
		break;
	case IBFS_TCP_FIN_WAIT_1:
		if (fin_acked)
			tcp_time_wait(tp);
		else
			ibfs__tcp_set_state(tp, IBFS_TCP_CLOSING);
		break;
	case IBFS_TCP_FIN_WAIT_2:
		tcp_time_wait(tp);
		break;
	default:
		break;
	}
}

void ibfs__tcp_timer_fired(struct ibfs_tcp *tp, enum ibfs_tcp_timer kind)
{
	switch (kind) {
	case IBFS_TCP_T_RTO:
		tp->rto_running = 0;
		ibfs__tcp_rto_fired(tp);
		break;
	case IBFS_TCP_T_DELACK:
		tp->delack_armed = 0;
		if (tp->rcv_unacked)
			ibfs__tcp_send_ack(tp);
		break;
	case IBFS_TCP_T_TIMEWAIT:
		if (tp->state == IBFS_TCP_TIME_WAIT)
			ibfs__tcp_set_state(tp, IBFS_TCP_CLOSED);
		break;
	case IBFS_TCP_T_PERSIST:
		tp->persist_armed = 0;
		ibfs__tcp_persist_fired(tp);
		break;
	default:
		break;
	}
}

void ibfs__tcp_send_data(struct ibfs_tcp *tp, const uint8_t *buf,
			 uint64_t len)
{
	tp->sbuf = buf;
	tp->sbuf_len = len;
}

void ibfs__tcp_recv_data(struct ibfs_tcp *tp, uint8_t *buf, uint64_t len)
{
	tp->rbuf = buf;
	tp->rbuf_len = len;
}

void ibfs__tcp_get_info(const struct ibfs_tcp *tp, struct ibfs_tcp_info *in)
{
	memset(in, 0, sizeof(*in));
	in->state = tp->state;
	in->snd_mss = tp->snd_mss;
	in->cwnd = tp->cwnd;
	in->ssthresh = tp->ssthresh;
	in->snd_wnd = tp->snd_wnd;
	in->flight = tp->snd_nxt - tp->snd_una;
	in->pipe = tp->pipe;
	in->acked = tp->snd_una < tp->app_bytes ? tp->snd_una : tp->app_bytes;
	in->sent = tp->snd_nxt < tp->app_bytes ? tp->snd_nxt : tp->app_bytes;
	in->delivered = tp->rcv_nxt;
	in->srtt = tp->srtt;
	in->rttvar = tp->rttvar;
	in->rto = ibfs__tcp_rto_now(tp);
	in->backoff = tp->backoff;
	in->in_recovery = tp->in_recovery;
	in->sack_ok = tp->sack_ok;
	in->ts_ok = tp->ts_ok;
	in->ecn_ok = tp->ecn_ok;
	in->snd_wscale = tp->snd_wscale;
	in->rcv_wscale = tp->rcv_wscale;
	in->retransmits = tp->retransmits;
	in->rto_fires = tp->rto_fires;
	in->fast_retransmits = tp->fast_retransmits;
	in->segs_out = tp->segs_out;
	in->acks_out = tp->acks_out;
	in->probes = tp->probes;
}
