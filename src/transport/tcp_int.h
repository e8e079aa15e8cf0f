/* SPDX-License-Identifier: MIT */
/*
 * The connection's state, shared by the engine's files (tcp_conn.c, the
 * handshake and close; tcp_wire.c, sizes on the wire and TSO pieces;
 * tcp_send.c, segmentation and the window; tcp_ack.c, acknowledgments at
 * the sender; tcp_recv.c, the receive side and ACKs; tcp_rto.c, the
 * timer; tcp_recovery.c, loss recovery; tcp_cc_*.c, the controls).
 *
 * Offsets: each direction counts its stream from 0, the first data byte,
 * at wire sequence number ISS + 1 (the SYN takes ISS); the FIN takes the
 * offset after the last byte.
 */
#ifndef IBFS_TRANSPORT_TCP_INT_H
#define IBFS_TRANSPORT_TCP_INT_H

#include "transport/tcp.h"
#include "transport/tcp_cc.h"

/* A sent segment as the sender remembers it: its place in the stream
 * and its state in the RFC 6675 scoreboard. */
enum {
	IBFS_TXS_SACKED = 0x01,     /* SACKed by the peer */
	IBFS_TXS_LOST = 0x02,       /* deemed lost (IsLost, RTO, NewReno) */
	IBFS_TXS_RETRANS = 0x04,    /* retransmitted since marked lost */
	IBFS_TXS_EVER_RETRANS = 0x08, /* ever retransmitted: Karn's rule */
	IBFS_TXS_FIN = 0x10,        /* the FIN (one offset, no bytes) */
};

struct ibfs_tcp_txseg {
	uint64_t start;
	uint32_t len;           /* offsets taken: payload, or 1 for FIN */
	uint8_t flags;
	ibfs_time_t sent_at;    /* last (re)transmission */
};

struct ibfs_tcp_range {
	uint64_t start, end;
};

/* The TCP timestamps option: 10 bytes, sent as 12 with two NOPs
 * (RFC 7323 3.2, appendix A). */
#define IBFS_TCP_TS_BYTES 12
/* RFC 9293 3.7.1: the MSS a peer that sends no MSS option is assumed
 * to accept. */
#define IBFS_TCP_DEFAULT_MSS 536
/* Fixed TCP header (RFC 9293 3.1). */
#define IBFS_TCP_HDR 20

struct ibfs_tcp {
	struct ibfs_tcp_config cfg;
	const struct ibfs_tcp_host_ops *ops;
	void *host;
	const struct ibfs_tcp_cc_ops *cc;
	union ibfs_tcp_cc_state ccs;
	enum ibfs_tcp_state state;

	/* Negotiated in the handshake. */
	uint32_t snd_mss, rcv_mss;
	int sack_ok, ts_ok, ecn_ok;
	int snd_wscale, rcv_wscale;
	int ws_ok;              /* both offered window scaling */
	int syn_retrans;        /* the SYN or SYN-ACK was resent */
	ibfs_time_t syn_sent_at;

	/* Send side. */
	uint32_t iss;
	uint64_t app_bytes;     /* the stream's end as the app queued it */
	uint64_t snd_una, snd_nxt;
	uint64_t snd_wnd;
	int fin_queued;
	uint64_t fin_off;
	struct ibfs_tcp_txseg *q; /* scoreboard ring from snd_una */
	uint32_t qcap, qhead, qlen;
	uint64_t pipe;          /* RFC 6675 SetPipe, kept up to date */
	uint64_t high_sacked;   /* end of the highest SACKed segment */
	int force_rexmit;       /* send one retransmission past cwnd */
	int sack_changed;
	const uint8_t *sbuf;
	uint64_t sbuf_len;
	int want_writable;

	/* Congestion and recovery. */
	uint64_t cwnd, ssthresh;
	int in_recovery;
	int recover_set;
	uint64_t recover;       /* HighData at recovery or RTO */
	uint32_t dupacks;
	uint64_t ecn_recover;   /* no ECE response until snd_una passes */
	int ecn_reduced;
	int cwr_pending;

	/* RTT and the retransmission timer (RFC 6298). */
	ibfs_time_t srtt, rttvar, rto;
	int rtt_valid;
	uint32_t backoff;
	int rto_running;
	int persist_armed;
	uint32_t persist_backoff;

	/* Receive side. */
	uint32_t irs;
	uint64_t rcv_nxt, rcv_read, rcv_adv;
	struct ibfs_tcp_range *ooo; /* out-of-order ranges, sorted */
	uint32_t nooo, cap_ooo;
	struct ibfs_tcp_range recent[IBFS_TCP_SACK_MAX]; /* RFC 2018 4 */
	uint32_t nrecent;
	uint64_t rcv_unacked;   /* bytes taken in since the last ACK */
	int delack_armed;
	int ece_echo;           /* set ECE on what we send */
	int ce_last;            /* CE of the last data segment (DCTCP) */
	int peer_fin, fin_taken;
	uint64_t peer_fin_off;
	uint32_t ts_recent;
	uint8_t *rbuf;
	uint64_t rbuf_len;

	/* Counters. */
	uint64_t retransmits, rto_fires, fast_retransmits;
	uint64_t segs_out, acks_out, probes;
};

static inline ibfs_time_t ibfs__tcp_now(const struct ibfs_tcp *tp)
{
	return tp->ops->now(tp->host);
}

/* A 32-bit sequence number seq as an offset near ref, the stream starting
 * at base (RFC 9293 3.4's modular arithmetic). */
static inline uint64_t ibfs__tcp_unwrap(uint32_t seq, uint32_t base,
					uint64_t ref)
{
	uint32_t ref_seq = base + (uint32_t)ref;
	int32_t d = (int32_t)(seq - ref_seq);

	if (d < 0 && (uint64_t)(-(int64_t)d) > ref)
		return 0;
	return (uint64_t)((int64_t)ref + d);
}

static inline struct ibfs_tcp_txseg *ibfs__tcp_qat(struct ibfs_tcp *tp,
						   uint32_t i)
{
	return &tp->q[(tp->qhead + i) & (tp->qcap - 1)];
}

/* tcp_conn.c */
void ibfs__tcp_set_state(struct ibfs_tcp *tp, enum ibfs_tcp_state st);
void ibfs__tcp_header(struct ibfs_tcp *tp, struct ibfs_tcp_seg *seg,
		      uint8_t flags);
void ibfs__tcp_emit(struct ibfs_tcp *tp, struct ibfs_tcp_seg *seg);
void ibfs__tcp_send_syn(struct ibfs_tcp *tp);
void ibfs__tcp_fin_acked(struct ibfs_tcp *tp);
void ibfs__tcp_peer_fin(struct ibfs_tcp *tp);

/* tcp_send.c, tcp_ack.c */
void ibfs__tcp_output(struct ibfs_tcp *tp);
void ibfs__tcp_persist_fired(struct ibfs_tcp *tp);
void ibfs__tcp_seg_flags(struct ibfs_tcp *tp, struct ibfs_tcp_txseg *s,
			 uint8_t flags);
void ibfs__tcp_ack_input(struct ibfs_tcp *tp, const struct ibfs_tcp_seg *seg);

/* tcp_recv.c */
void ibfs__tcp_data_input(struct ibfs_tcp *tp, const struct ibfs_tcp_seg *seg);
void ibfs__tcp_send_ack(struct ibfs_tcp *tp);
uint16_t ibfs__tcp_window_field(struct ibfs_tcp *tp);
uint32_t ibfs__tcp_sack_fill(const struct ibfs_tcp *tp,
			     struct ibfs_tcp_seg *seg);

/* tcp_rto.c */
void ibfs__tcp_rtt_sample(struct ibfs_tcp *tp, ibfs_time_t r);
ibfs_time_t ibfs__tcp_rto_now(const struct ibfs_tcp *tp);
void ibfs__tcp_rto_arm(struct ibfs_tcp *tp, int restart);
void ibfs__tcp_rto_stop(struct ibfs_tcp *tp);
void ibfs__tcp_rto_fired(struct ibfs_tcp *tp);

/* tcp_recovery.c */
void ibfs__tcp_sack_input(struct ibfs_tcp *tp, const struct ibfs_tcp_seg *seg,
			  uint64_t *newly_sacked);
void ibfs__tcp_mark_lost(struct ibfs_tcp *tp);
void ibfs__tcp_recovery_ack(struct ibfs_tcp *tp, uint64_t acked, int dup,
			    ibfs_time_t rtt, int cwr);
void ibfs__tcp_recovery_rto(struct ibfs_tcp *tp);

#endif
