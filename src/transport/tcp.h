/* SPDX-License-Identifier: MIT */
/*
 * A TCP connection endpoint as an event-driven engine (RFC 9293 and the
 * RFCs each file cites). The engine owns neither time nor the network:
 * the host drives it with calls (app_send, app_recv, app_close,
 * segment_arrived, timer_fired) and it answers through the host's ops
 * table (now, send_segment, timer_set, timer_cancel, deliver). Segments
 * carry header fields and a payload length; bytes move only when the
 * application lends a buffer (ibfs__tcp_send_data, ibfs__tcp_recv_data).
 *
 * Sequence numbers on the wire are 32 bits and wrap (RFC 9293 3.4);
 * inside, each direction counts 64-bit stream offsets from its initial
 * sequence number, and every sequence number that arrives is unwrapped
 * against the nearest offset in use (the window is below 2^31, so that
 * is exact, as RFC 9293's modular comparisons are).
 */
#ifndef IBFS_TRANSPORT_TCP_H
#define IBFS_TRANSPORT_TCP_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/time.h"

/* Header flags (RFC 9293 3.1, RFC 3168 6.1 for ECE and CWR). */
enum {
	IBFS_TCP_FIN = 0x01,
	IBFS_TCP_SYN = 0x02,
	IBFS_TCP_RST = 0x04,
	IBFS_TCP_PSH = 0x08,
	IBFS_TCP_ACK = 0x10,
	IBFS_TCP_ECE = 0x40,
	IBFS_TCP_CWR = 0x80,
};

/* The IP header's ECN field (RFC 3168 5). */
enum ibfs_tcp_ecn {
	IBFS_ECN_NOT_ECT = 0,
	IBFS_ECN_ECT1 = 1,
	IBFS_ECN_ECT0 = 2,
	IBFS_ECN_CE = 3,
};

/* Most SACK blocks an option can hold: 4 in 40 option bytes, 3 beside
 * the timestamps option (RFC 2018 3). */
#define IBFS_TCP_SACK_MAX 4

struct ibfs_tcp_sack_block {
	uint32_t left, right; /* sequence numbers, right edge exclusive */
};

/* A segment as the engine hands it to the host and takes it back. */
struct ibfs_tcp_seg {
	uint32_t seq, ack;
	uint8_t flags;        /* IBFS_TCP_* */
	uint8_t ecn;          /* enum ibfs_tcp_ecn, the IP header's field */
	uint16_t window;      /* the 16-bit field, before scaling */
	/* Options (RFC 9293 3.2, RFC 2018, RFC 7323); 0 or -1 when absent. */
	uint16_t mss;         /* MSS option, SYN only; 0 absent */
	int8_t wscale;        /* window scale shift, SYN only; -1 absent */
	uint8_t sack_ok;      /* SACK-permitted, SYN only */
	uint8_t ts;           /* timestamps option present */
	uint8_t nsack;        /* SACK blocks that follow */
	uint32_t tsval, tsecr;
	struct ibfs_tcp_sack_block sack[IBFS_TCP_SACK_MAX];
	uint32_t len;         /* payload bytes */
	/* TSO: a super-segment of len bytes the NIC cuts into pieces of
	 * tso_mss (ibfs__tcp_tso_piece); 0 for an ordinary segment. */
	uint32_t tso_mss;
	const uint8_t *data;  /* payload bytes, or NULL (lengths only) */
};

/* Bytes of TCP options the segment carries, padded to 4. */
uint32_t ibfs__tcp_opt_bytes(const struct ibfs_tcp_seg *seg);
/* Bytes the segment occupies an Ethernet link for: preamble and SFD 8,
 * Ethernet 14, IPv4 20, TCP 20, options, payload, FCS 4, gap 12, the
 * frame padded to 64 (IEEE 802.3, RFC 791, RFC 9293); a super-segment
 * counts every piece. */
uint32_t ibfs__tcp_wire_bytes(const struct ibfs_tcp_seg *seg);
/* Pieces of a super-segment (1 for an ordinary segment) and piece i. */
uint32_t ibfs__tcp_tso_count(const struct ibfs_tcp_seg *seg);
void ibfs__tcp_tso_piece(const struct ibfs_tcp_seg *seg, uint32_t i,
			struct ibfs_tcp_seg *out);

enum ibfs_tcp_timer {
	IBFS_TCP_T_RTO,      /* retransmission (RFC 6298), SYN included */
	IBFS_TCP_T_DELACK,   /* delayed ACK (RFC 1122 4.2.3.2) */
	IBFS_TCP_T_TIMEWAIT, /* 2 MSL in TIME-WAIT (RFC 9293 3.6.1) */
	IBFS_TCP_T_PERSIST,  /* zero-window probe (RFC 9293 3.8.6.1) */
	IBFS_TCP_T_COUNT,
};

/* Work a host CPU model may charge for (left to the host; may be NULL). */
enum ibfs_tcp_cpu_work {
	IBFS_TCP_CPU_TX_SEG,  /* a segment built (bytes: payload) */
	IBFS_TCP_CPU_RX_SEG,  /* a segment processed (bytes: payload) */
	IBFS_TCP_CPU_COPY,    /* bytes read by the application */
};

enum ibfs_tcp_state {
	IBFS_TCP_CLOSED,
	IBFS_TCP_LISTEN,
	IBFS_TCP_SYN_SENT,
	IBFS_TCP_SYN_RCVD,
	IBFS_TCP_ESTABLISHED,
	IBFS_TCP_FIN_WAIT_1,
	IBFS_TCP_FIN_WAIT_2,
	IBFS_TCP_CLOSE_WAIT,
	IBFS_TCP_CLOSING,
	IBFS_TCP_LAST_ACK,
	IBFS_TCP_TIME_WAIT,
};

struct ibfs_tcp;

struct ibfs_tcp_host_ops {
	ibfs_time_t (*now)(void *host);
	void (*send_segment)(void *host, const struct ibfs_tcp_seg *seg);
	void (*timer_set)(void *host, enum ibfs_tcp_timer kind, ibfs_time_t at);
	void (*timer_cancel)(void *host, enum ibfs_tcp_timer kind);
	/* bytes more are readable, in order (app_recv takes them). */
	void (*deliver)(void *host, uint64_t bytes);
	/* Optional (NULL): the connection changed state; the send buffer
	 * has room again; CPU work done. */
	void (*state)(void *host, enum ibfs_tcp_state st);
	void (*writable)(void *host);
	void (*cpu)(void *host, enum ibfs_tcp_cpu_work what, uint32_t bytes);
};

enum ibfs_tcp_rto_style {
	/* RFC 6298 2.4: max(SRTT + max(G, 4 RTTVAR), rto_min). */
	IBFS_TCP_RTO_RFC,
	/* Linux (tcp_set_rto): SRTT + max(G, 4 RTTVAR, rto_min), the
	 * variance term floored rather than the sum. */
	IBFS_TCP_RTO_LINUX,
};

struct ibfs_tcp_cc_ops;

struct ibfs_tcp_config {
	uint32_t mss;          /* MSS we announce: MTU - 40 (RFC 9293 3.7.1) */
	int timestamps;        /* offer RFC 7323 timestamps */
	int sack;              /* offer SACK (RFC 2018) */
	int wscale;            /* offer window scaling (RFC 7323 2) */
	int ecn;               /* RFC 3168 6.1.1, as Linux's tcp_ecn: 0 off,
				* 1 request and accept, 2 accept only */
	uint32_t sndbuf;       /* send buffer, bytes */
	uint32_t rcvbuf;       /* receive buffer, bytes */
	uint32_t init_cwnd;    /* initial window, segments (RFC 6928) */
	uint32_t dupthresh;    /* duplicate ACKs to fast retransmit */
	int delack;            /* delay ACKs (RFC 1122 4.2.3.2) */
	ibfs_time_t delack_timeout;
	ibfs_time_t rto_min, rto_max, rto_init, clock_g;
	enum ibfs_tcp_rto_style rto_style;
	ibfs_time_t msl;       /* TIME-WAIT lasts 2 msl */
	int tso;               /* hand the NIC super-segments */
	uint32_t tso_max;      /* bytes of one super-segment */
	uint32_t iss;          /* initial sequence number */
	const struct ibfs_tcp_cc_ops *cc;
};

/* Linux's defaults (see docs/tcp.md): MSS 1460, timestamps, SACK,
 * window scaling, no ECN request, IW10, CUBIC, rto_min 200 ms. */
void ibfs__tcp_config_default(struct ibfs_tcp_config *cfg);

struct ibfs_tcp *ibfs__tcp_create(const struct ibfs_tcp_config *cfg,
				 const struct ibfs_tcp_host_ops *ops,
				 void *host);
void ibfs__tcp_free(struct ibfs_tcp *tp);

/* Open actively (a SYN now) or passively (LISTEN). */
void ibfs__tcp_connect(struct ibfs_tcp *tp);
void ibfs__tcp_listen(struct ibfs_tcp *tp);
/* Queue up to bytes for sending; returns what the send buffer took. */
uint64_t ibfs__tcp_app_send(struct ibfs_tcp *tp, uint64_t bytes);
/* Read up to max in-order bytes; returns how many. */
uint64_t ibfs__tcp_app_recv(struct ibfs_tcp *tp, uint64_t max);
/* No more to send: a FIN follows the queued bytes. */
void ibfs__tcp_app_close(struct ibfs_tcp *tp);
void ibfs__tcp_segment_arrived(struct ibfs_tcp *tp,
			      const struct ibfs_tcp_seg *seg);
void ibfs__tcp_timer_fired(struct ibfs_tcp *tp, enum ibfs_tcp_timer kind);

/* Byte checks: the stream's bytes to send from (byte i of the stream is
 * buf[i]); where arriving payload is placed (at its stream offset). */
void ibfs__tcp_send_data(struct ibfs_tcp *tp, const uint8_t *buf,
			uint64_t len);
void ibfs__tcp_recv_data(struct ibfs_tcp *tp, uint8_t *buf, uint64_t len);

/* What a host or a test reads. */
struct ibfs_tcp_info {
	enum ibfs_tcp_state state;
	uint32_t snd_mss;        /* payload of a full segment */
	uint64_t cwnd, ssthresh; /* bytes */
	uint64_t snd_wnd;        /* the peer's window, bytes */
	uint64_t flight;         /* snd_nxt - snd_una, bytes */
	uint64_t pipe;           /* RFC 6675 pipe, bytes */
	uint64_t acked;          /* stream bytes acknowledged */
	uint64_t sent;           /* stream bytes sent at least once */
	uint64_t delivered;      /* stream bytes received in order */
	ibfs_time_t srtt, rttvar, rto;
	uint32_t backoff;        /* RTO doublings in force */
	int in_recovery;
	int sack_ok, ts_ok, ecn_ok;
	int snd_wscale, rcv_wscale;
	uint64_t retransmits, rto_fires, fast_retransmits;
	uint64_t segs_out, acks_out, probes;
};
void ibfs__tcp_get_info(const struct ibfs_tcp *tp, struct ibfs_tcp_info *in);

#endif
