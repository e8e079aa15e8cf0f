/* SPDX-License-Identifier: MIT */
/*
 * The Host Channel Adapter's internals: its objects and the functions the
 * files of src/hca share. Only src/hca (and the tests of its internals)
 * include this; the layers above use hca.h. An HCA is a struct
 * ibfs_device on the fabric. It holds protection domains, memory regions,
 * completion queues and queue pairs, and runs the IBA transport layer (IBA
 * chapter 9): segmentation of messages into path-MTU packets, PSNs,
 * acknowledgements, retries and errors, for RC, UC and UD queue pairs.
 *
 * The transport is kept apart from the InfiniBand link specifics (LRH, VLs,
 * credits): it hands finished transport packets to a struct
 * ibfs_hca_link_ops (ib_link.c for InfiniBand, roce_link.c for RoCEv2), so
 * that other links reuse QPs, PSNs, retries, MRs and CQs
 * (docs/architecture.md, the HCA link ops).
 */
#ifndef IBFS_HCA_HCA_INT_H
#define IBFS_HCA_HCA_INT_H

#include <stdint.h>

#include "fabric/pkey.h"
#include "fabric/rng.h"
#include "hca/hca.h"

struct ibfs_hca_qp;

/* IBA 9.2 Table 38: opcodes (low 5 bits) and transport prefixes. */
enum {
	IBFS_OP_RC = 0x00,
	IBFS_OP_UC = 0x20,
	IBFS_OP_UD = 0x60,
	IBFS_OP_SEND_FIRST = 0x00,
	IBFS_OP_SEND_MIDDLE = 0x01,
	IBFS_OP_SEND_LAST = 0x02,
	IBFS_OP_SEND_LAST_IMM = 0x03,
	IBFS_OP_SEND_ONLY = 0x04,
	IBFS_OP_SEND_ONLY_IMM = 0x05,
	IBFS_OP_WRITE_FIRST = 0x06,
	IBFS_OP_WRITE_MIDDLE = 0x07,
	IBFS_OP_WRITE_LAST = 0x08,
	IBFS_OP_WRITE_LAST_IMM = 0x09,
	IBFS_OP_WRITE_ONLY = 0x0a,
	IBFS_OP_WRITE_ONLY_IMM = 0x0b,
	IBFS_OP_READ_REQ = 0x0c,
	IBFS_OP_READ_RESP_FIRST = 0x0d,
	IBFS_OP_READ_RESP_MIDDLE = 0x0e,
	IBFS_OP_READ_RESP_LAST = 0x0f,
	IBFS_OP_READ_RESP_ONLY = 0x10,
	IBFS_OP_ACK = 0x11,
	IBFS_OP_ATOMIC_ACK = 0x12,
	IBFS_OP_CMP_SWAP = 0x13,
	IBFS_OP_FETCH_ADD = 0x14,
	/* Congestion Notification Packet (IBA A10.2.2.1): the full opcode,
	 * LRH, BTH with BECN set, ICRC and no payload. */
	IBFS_OP_CNP = 0x80,
	/* RoCEv2's CNP (IBA A17.9.3): BTH with BECN set, 16 reserved
	 * bytes, ICRC (cc_dcqcn.c). */
	IBFS_OP_ROCE_CNP = 0x81,
};

/* What an opcode is (opcodes.c). */
enum {
	IBFS_OPF_FIRST = 1 << 0,  /* starts a message */
	IBFS_OPF_LAST = 1 << 1,   /* ends a message */
	IBFS_OPF_DATA = 1 << 2,   /* carries payload */
	IBFS_OPF_SEND = 1 << 3,
	IBFS_OPF_WRITE = 1 << 4,
	IBFS_OPF_READ = 1 << 5,   /* READ request */
	IBFS_OPF_ATOMIC = 1 << 6, /* CmpSwap, FetchAdd */
	IBFS_OPF_RESP = 1 << 7,   /* a response: ACK, READ response, atomic */
	IBFS_OPF_IMM = 1 << 8,
};
struct ibfs_hca_opinfo {
	const char *name;
	uint16_t flags;  /* IBFS_OPF_* */
	uint16_t xh;     /* extension headers (enum ibfs_xh), without DETH */
};
/* The IBA 9.2 description of a full 8-bit opcode; NULL if not valid. */
const struct ibfs_hca_opinfo *ibfs__hca_opinfo(uint8_t opcode);
/* The request opcode of packet `first`/`last` of a message of wr opcode. */
uint8_t ibfs__hca_req_opcode(enum ibfs_qp_type t, enum ibfs_wr_opcode op,
			     int first, int last);

/* AETH syndromes (IBA 9.7.5.1 Table 43). */
enum {
	IBFS_AETH_ACK = 0x00,     /* | credit count (0x1f: not limited) */
	IBFS_AETH_RNR = 0x20,     /* | RNR timer code */
	IBFS_AETH_NAK = 0x60,     /* | NAK code */
	IBFS_NAK_PSN_SEQ = 0,
	IBFS_NAK_INV_REQ = 1,
	IBFS_NAK_REM_ACCESS = 2,
	IBFS_NAK_REM_OP = 3,
};

/* 24-bit PSN arithmetic (IBA 9.7.1). */
#define ibfs__psn_end(w) ibfs__psn_add((w)->first_psn, (w)->npsn)
static inline uint32_t ibfs__psn_add(uint32_t psn, uint32_t n)
{
	return (psn + n) & 0xffffff;
}
/* <0, 0, >0 as a is before, equal to, after b (modulo 2^24). */
static inline int32_t ibfs__psn_cmp(uint32_t a, uint32_t b)
{
	return (int32_t)((a - b) << 8) >> 8;
}

/*
 * Every PD, CQ and AH an HCA hands out sits on one of its lists, so that
 * freeing the HCA frees what applications did not destroy (as closing a
 * device does).
 */
struct ibfs_hca_res {
	struct ibfs_hca_res *prev, *next;
};
static inline void ibfs__res_init(struct ibfs_hca_res *head)
{
	head->prev = head->next = head;
}
static inline void ibfs__res_add(struct ibfs_hca_res *head,
				 struct ibfs_hca_res *r)
{
	r->next = head->next;
	r->prev = head;
	head->next->prev = r;
	head->next = r;
}
static inline void ibfs__res_del(struct ibfs_hca_res *r)
{
	r->prev->next = r->next;
	r->next->prev = r->prev;
}

/* Memory (mr.c). */
struct ibfs_hca_pd {
	struct ibfs_pd pub;
	struct ibfs_hca_res res;
	int refs;
};

struct ibfs_hca_mr {
	struct ibfs_mr pub;
	struct ibfs_hca_pd *pd;
	int access;
	uint8_t tag;
	int live;
};

struct ibfs_ah {
	struct ibfs_hca_res res;   /* first: freed through the list */
	struct ibfs_pd *pd;
	struct ibfs_ah_attr attr;
};

/* The memory region for key, if it covers [va, va+len) with `access`. */
enum { IBFS_MR_OK, IBFS_MR_BAD_KEY, IBFS_MR_BOUNDS, IBFS_MR_ACCESS };
int ibfs__mr_check(struct ibfs_hca *h, uint32_t key, struct ibfs_hca_pd *pd,
		   uint64_t va, uint64_t len, int access);
/* Checks a whole scatter/gather list (local keys). IBFS_MR_OK or error. */
int ibfs__mr_check_sgl(struct ibfs_hca *h, struct ibfs_hca_pd *pd,
		       const struct ibfs_sge *sg, int n, int access);
/* Copies len bytes at message offset off out of / into a scatter list. */
void ibfs__sgl_gather(const struct ibfs_sge *sg, int n, uint32_t off,
		      uint8_t *dst, uint32_t len);
void ibfs__sgl_scatter(const struct ibfs_sge *sg, int n, uint32_t off,
		       const uint8_t *src, uint32_t len);
void ibfs__mr_free_all(struct ibfs_hca *h);

/* Completion queues (cq.c). */
enum { IBFS_CQ_WAITERS = 8 };
struct ibfs_hca_cqe {
	struct ibfs_wc wc;
	ibfs_time_t vis;   /* when a polling CPU sees it */
};

struct ibfs_hca_cq {
	struct ibfs_cq pub;
	struct ibfs_hca_res res;
	struct ibfs_hca *hca;
	struct ibfs_hca_cqe *ring;
	uint32_t cap, head, count;
	ibfs_time_t last_vis;
	uint64_t overflows;
	/* Actors blocked in ibfs_wait_cq on this CQ (a few may share it). */
	struct ibfs_waiter *waiters[IBFS_CQ_WAITERS];
	uint32_t nwaiters;
	/* Event-driven consumers (perftest, tests): called when a CQE
	 * becomes visible. */
	void (*notify)(void *arg, struct ibfs_hca_cq *cq);
	void *notify_arg;
	uint32_t notify_pending;  /* notify events not yet run */
	int dead;                 /* destroyed; freed by the last of them */
};

/* Writes a CQE through PCIe now; it becomes visible after the profile's
 * DMA write and CQE delays. Wakes a blocked waiter at that time. */
void ibfs__cq_push(struct ibfs_hca_cq *cq, const struct ibfs_wc *wc);
/* As push, visible no earlier than not_before (data it completes). */
void ibfs__cq_push_after(struct ibfs_hca_cq *cq, const struct ibfs_wc *wc,
			 ibfs_time_t not_before);
/* Frees every SRQ of h (HCA teardown, srq.c). */
void ibfs__srq_free_all(struct ibfs_hca *h);
/* Frees every CQ of h (HCA teardown). */
void ibfs__cq_free_all(struct ibfs_hca *h);
int ibfs__cq_poll(struct ibfs_hca_cq *cq, int num, struct ibfs_wc *wc,
		  ibfs_time_t now);
void ibfs__cq_set_notify(struct ibfs_cq *cq,
			 void (*fn)(void *arg, struct ibfs_hca_cq *cq),
			 void *arg);

/* Queue pairs (qp.c). */
/* Scatter/gather entries a WR may carry: a choice kept small so WQEs
 * stay in one cache line or two (ConnectX allows 30). */
enum { IBFS_HCA_MAX_SGE = 4 };

struct ibfs_swqe {
	uint64_t wr_id;
	uint8_t opcode;      /* enum ibfs_wr_opcode */
	uint8_t signaled, inl, fence, solicited;
	uint8_t num_sge;
	uint8_t done;        /* the transport finished it */
	uint8_t status;      /* enum ibfs_wc_status when done */
	uint8_t failed;      /* completes with status when the QP errs */
	uint32_t len;
	uint32_t imm;
	uint64_t raddr;
	uint32_t rkey;
	uint64_t cmp_add, swap;
	uint16_t dlid;       /* UD destination */
	uint8_t sl;
	uint8_t path_bits;   /* UD: the AH's source path bits */
	uint8_t global;      /* UD: the AH's is_global: a GRH to dgid */
	uint8_t dgid[16];
	uint32_t dqpn, qkey;
	uint32_t first_psn;
	uint32_t npsn;       /* PSNs the request uses (READ: responses) */
	ibfs_time_t ready_at;
	struct ibfs_sge sge[IBFS_HCA_MAX_SGE];
};

struct ibfs_rwqe {
	uint64_t wr_id;
	uint32_t len;
	uint8_t num_sge;
	struct ibfs_sge sge[IBFS_HCA_MAX_SGE];
};

/*
 * A receive queue: a QP's own, or a shared one (srq.c) that several QPs
 * take WQEs from. A receiver takes a message's WQE when its first packet
 * arrives (qp->cur_rwqe), so that the QPs sharing a queue never take
 * each other's.
 */
struct ibfs_hca_rq {
	struct ibfs_rwqe *ring;
	uint32_t cap;           /* ring slots */
	uint32_t max_wr;        /* most WQEs posted at once */
	uint32_t max_sge;
	uint64_t head, tail;
	struct ibfs_hca_pd *pd; /* whose MRs the WQEs' lkeys name */
};

static inline int ibfs__rq_empty(const struct ibfs_hca_rq *q)
{
	return q->head == q->tail;
}

/* 0, or ENOMEM when max_wr are posted; EINVAL for a bad request. */
int ibfs__rq_post(struct ibfs_hca_rq *q, const struct ibfs_recv_wr *wr);

struct ibfs_hca_srq {
	struct ibfs_srq pub;
	struct ibfs_hca_rq rq;
	struct ibfs_hca_res res;
	uint32_t srq_limit;
	int refs;               /* QPs using it */
};

/*
 * Atomic results a responder keeps to answer duplicates (rc_responder.c);
 * no profile may allow more outstanding atomics than this (check_hca:
 * profiles_fit_the_atomic_history).
 */
enum { IBFS_AT_HIST = 16 };

/* A pending responder response: READ data or an atomic result. */
struct ibfs_resp {
	uint8_t atomic;
	uint32_t psn;       /* PSN of the next response packet */
	uint32_t last_psn;
	uint64_t va;        /* next byte to read */
	uint32_t left;      /* bytes still to send */
	uint32_t total;
	uint64_t orig;      /* atomic: the original value */
	ibfs_time_t ready;  /* the next packet can go to the wire */
	ibfs_time_t dma_end;
};

/*
 * A queue pair. With thousands of HCAs a packet's visit to a QP misses
 * the cache, so the fields are laid out by which packet touches them, in
 * 64-byte lines (QPs are allocated 64-byte aligned, qp.c): line 0 the
 * verbs part and the HCA; line 1 what the port's transmit scheduler
 * (tx_sched.c) reads at every wake, sender or responder: its FIFO links
 * and timer, when the next request and the pending ACK are ready, and the
 * flags (bytes, to fit); line 2 the requester's per-packet state; line 3
 * what requests use less often (ACKs, READs, retries); line 4 the
 * attributes a packet's headers take (dest_qp_num to ah_attr.sl and
 * max_rd_atomic: 64 bytes of struct ibfs_qp_attr placed to fill exactly
 * that line); line 5 the responder's per-packet state. A data packet sent
 * touches lines 0, 1, 2 and 4 and one received lines 0, 1 and 5. Set-up,
 * errors, RNR and atomics use the rest.
 */
struct ibfs_hca_qp {
	/* Line 0. */
	struct ibfs_qp pub;
	struct ibfs_hca *hca;

	/* Line 1: transmit scheduler (tx_sched.c), the QP's place in its
	 * port's FIFO of QPs with something to send, its timer for a next
	 * packet that is not ready yet, and when the next packet of each
	 * side is. */
	struct ibfs_hca_qp *rr_next, *rr_prev;
	struct ibfs_event *wake_ev;
	ibfs_time_t wake_at;
	ibfs_time_t req_ready;   /* next request packet may go then */
	ibfs_time_t hold_until;  /* RNR wait */
	ibfs_time_t ack_ready;
	uint8_t req_ready_valid;
	/* 0: in no list; 1 + v: in its port's FIFO of data VL v. */
	uint8_t in_ring;
	uint8_t destroyed;
	uint8_t ack_pending;
	uint8_t fresh;           /* next packet restarts a WQE: fetch again */
	uint8_t port;
	uint16_t resp_count;     /* at most resp_cap, from a uint8_t */

	/* Line 2: requester, per packet. Send queue: indices grow for
	 * ever; slot = index % sq_cap. */
	struct ibfs_swqe *sq;
	uint64_t sq_next;        /* next to (re)transmit */
	uint64_t sq_tail;        /* next free */
	struct ibfs_event *timer;
	ibfs_time_t dma_end;     /* its payload has been read from memory */
	uint32_t sq_cap;
	uint32_t tx_off;         /* bytes of sq_next already packetized */
	uint32_t next_psn;
	uint32_t una_psn;        /* oldest PSN not yet acknowledged */
	uint32_t mtu;
	uint32_t pkts_since_ack;

	/* Line 3: requester, less often. */
	uint64_t sq_head;        /* oldest not completed */
	ibfs_time_t timer_at;
	int rd_out;              /* READs and atomics in flight */
	uint32_t resp_psn;       /* READ: next expected response PSN */
	int retry_left, rnr_left;
	uint32_t resp_cap, resp_head;

	/* Line 4 (from dest_qp_num on; see above). */
	struct ibfs_qp_attr attr;

	/* Line 5: responder, per packet. */
	uint32_t epsn;
	uint32_t msn;
	uint64_t w_va;
	uint32_t w_rkey;
	uint32_t w_left;
	ibfs_time_t last_data_vis;
	uint32_t ack_psn;
	uint8_t ack_syn;
	int nak_sent;
	int in_write;
	int err_pending;         /* enter ERR once the NAK has left */
	int in_send;             /* a multi-packet SEND is being received */
	uint32_t recv_off;

	/* The rest: READ and atomic responses, receive queue. */
	int recv_err;            /* its receive WQE failed */
	struct ibfs_resp *resp;  /* ring of max_dest_rd_atomic entries */
	struct ibfs_hca_rq *rq;  /* own_rq, or the SRQ's */
	struct ibfs_hca_rq own_rq;
	struct ibfs_rwqe cur_rwqe; /* the message's, taken at its start */
	int rwqe_kept;           /* UC: cur_rwqe, kept for the next SEND */
	uint8_t *inl;            /* max_inline bytes per slot */
	struct ibfs_qp_init_attr init;
	/* Results of the last atomics, to answer duplicates without
	 * executing them again (IBA 9.7.5.1.2: as many as the responder
	 * resources; the profiles allow 16). */
	struct {
		uint32_t psn;
		uint8_t valid;
		uint64_t orig;
	} at_hist[IBFS_AT_HIST];
	uint32_t at_next;
	/* Message rate (profile wqe_gap): when the WQE being prepared
	 * began, and when the next may (sq.c). */
	ibfs_time_t wqe_begin, wqe_next;
	/* Congestion control (cc_throttle.c), QP-based (Port_Control 0):
	 * the CCTI as set at cc_at, and when the next request packet may
	 * go (the injection rate delay). cc_becn: the next ACK carries a
	 * BECN (a FECN-marked request arrived). */
	uint16_t cc_ccti;
	uint8_t cc_becn;
	ibfs_time_t cc_at, cc_until;
	/* The state a RoCEv2 congestion control keeps per QP (its
	 * ops' own), NULL until it needs one. */
	void *cc_qp;
	/* IRN loss recovery state (rc_irn.c), NULL under go-back-N or
	 * until the QP first needs it. */
	struct ibfs_irn *irn;
};

struct ibfs_hca_qp *ibfs__qp_lookup(struct ibfs_hca *h, uint32_t qpn);
/* Moves qp to ERR: the current WQE completes with status, the rest and
 * every receive WQE flush with IBFS_WC_WR_FLUSH_ERR. */
void ibfs__qp_error(struct ibfs_hca_qp *qp, enum ibfs_wc_status status);
/* Completes send WQEs from the head of the SQ while they are done. */
void ibfs__qp_complete_sq(struct ibfs_hca_qp *qp, ibfs_time_t not_before);
static inline struct ibfs_swqe *ibfs__sq_at(struct ibfs_hca_qp *qp,
					    uint64_t i)
{
	return &qp->sq[i % qp->sq_cap];
}
int ibfs__qp_modify(struct ibfs_hca_qp *qp, struct ibfs_qp_attr *a, int mask);
void ibfs__qp_free(struct ibfs_hca_qp *qp);

/* Requester send engine (sq.c). */
/* Computes when the next request packet can leave, if there is one. */
void ibfs__sq_prepare(struct ibfs_hca_qp *qp);
/* Builds that packet (now >= req_ready). */
struct ibfs_packet *ibfs__sq_build(struct ibfs_hca_qp *qp);
/* Rewinds the send queue to retransmit from psn (go-back-N, IBA 9.7.5). */
void ibfs__sq_rewind(struct ibfs_hca_qp *qp, uint32_t psn);

/* RC requester: responses (rc_requester.c). */
void ibfs__rc_req_rx(struct ibfs_hca_qp *qp, struct ibfs_packet *p);
/* RC responder: requests (rc_responder.c). */
void ibfs__rc_resp_rx(struct ibfs_hca_qp *qp, struct ibfs_packet *p);
int ibfs__rc_resp_pending(const struct ibfs_hca_qp *qp, ibfs_time_t *when);
struct ibfs_packet *ibfs__rc_resp_build(struct ibfs_hca_qp *qp);
void ibfs__rc_queue_ack(struct ibfs_hca_qp *qp, uint8_t syn, uint32_t psn);
/* Retry timers (rc_retry.c). */
void ibfs__rc_timer_arm(struct ibfs_hca_qp *qp);
void ibfs__rc_timer_stop(struct ibfs_hca_qp *qp);
void ibfs__rc_nak(struct ibfs_hca_qp *qp, uint8_t syn, uint32_t psn);
/* RNR timer code to picoseconds (IBA 9.7.5.2.8 Table 45). */
ibfs_time_t ibfs__rnr_time(uint8_t code);
/* Local ACK timeout 4.096 us x 2^t (IBA 9.7.6.1.3); 0: never. */
ibfs_time_t ibfs__ack_timeout(uint8_t t);
/*
 * IRN selective repeat (rc_irn.c), for QPs of an HCA with h->irn set;
 * the go-back-N paths above call these only then.
 */
enum { IBFS_IRN_RING = 256, IBFS_IRN_SACKQ = 32 };
struct ibfs_irn {
	/* Requester. PSNs a selective NACK reported received, a bit each
	 * by PSN % IBFS_IRN_RING (the window keeps every PSN in flight
	 * within the ring). In loss recovery (until the cumulative
	 * acknowledgement reaches rec_end) the packets before sack_hi not
	 * so reported are lost; the next retransmission is the first of
	 * them from retx on. */
	uint64_t sacked[IBFS_IRN_RING / 64];
	uint8_t recovery, swapped, t_low, draining;
	uint8_t retx_una;  /* the oldest unacknowledged packet goes first */
	uint8_t gap_set;   /* gap_una and gap_last hold a gap */
	uint32_t rec_end, sack_hi, retx;
	uint32_t cum;      /* the responder's cumulative PSN, as reported */
	/* The last READ response past a gap, and the PSN it was past. */
	uint32_t gap_una, gap_last;
	/* The new packets' send position while the engine sits on a
	 * retransmission (swapped). */
	struct {
		uint64_t sq_next;
		uint32_t tx_off, next_psn, pkts_since_ack;
		int rd_out;
		ibfs_time_t wqe_begin, wqe_next;
	} f;
	/* The retry timer: when it started and whether it runs RTO_low. */
	ibfs_time_t t_start;
	/* Responder: the out-of-order requests kept, by PSN % ring, and the
	 * PSNs still to report in selective NACKs. */
	struct ibfs_packet *ooo[IBFS_IRN_RING];
	uint32_t sackq[IBFS_IRN_SACKQ];
	uint32_t sack_head, sack_count;
};
void ibfs__irn_free(struct ibfs_hca_qp *qp);
/* The QP's IRN state, made on first use; NULL when out of memory. */
struct ibfs_irn *ibfs__irn_get(struct ibfs_hca_qp *qp);
/* The PSN the next new packet takes (whatever the engine sits on). */
uint32_t ibfs__irn_next_psn(const struct ibfs_hca_qp *qp);
/* Requester: 1 while the BDP cap (or the bitmap's window) holds back a
 * new packet. */
int ibfs__irn_window_full(struct ibfs_hca_qp *qp);
/* Requester: moves the send position to the next lost packet, if any
 * (called by ibfs__sq_prepare); 1 while positioned there. */
int ibfs__irn_seek_lost(struct ibfs_hca_qp *qp);
/* Requester: p was built; a retransmission returns to the new packets. */
void ibfs__irn_built(struct ibfs_hca_qp *qp, struct ibfs_packet *p);
/* Requester: back to the new packets' position (before an ACK or a
 * timeout reads it). */
void ibfs__irn_unseek(struct ibfs_hca_qp *qp);
/* Packets between two AckReq under IRN (the window asks for ACKs). */
uint32_t ibfs__irn_ack_every(struct ibfs_hca_qp *qp);
/* Requester: the responder expects PSN e next (an ACK or NACK said). */
void ibfs__irn_cum(struct ibfs_hca_qp *qp, uint32_t e);
/* Requester: a selective NACK (cumulative PSN e, received PSN r). */
void ibfs__irn_nack(struct ibfs_hca_qp *qp, uint32_t e, uint32_t r);
/* Requester: a READ response beyond the expected one: the earlier ones
 * are lost. */
void ibfs__irn_read_gap(struct ibfs_hca_qp *qp, uint32_t psn);
/* Requester: the cumulative acknowledgement moved from old to una. */
void ibfs__irn_acked(struct ibfs_hca_qp *qp, uint32_t old, uint32_t una);
void ibfs__irn_timer_arm(struct ibfs_hca_qp *qp);
void ibfs__irn_timeout(struct ibfs_hca_qp *qp);
/* Responder: a request beyond the expected PSN (kept, NACKed). */
void ibfs__irn_ooo(struct ibfs_hca_qp *qp, struct ibfs_packet *p);
/* Responder: the expected PSN moved: process the packets kept for it. */
void ibfs__irn_drain(struct ibfs_hca_qp *qp);
/* Responder: an ACK packet being built becomes the next selective NACK
 * if one is owed. */
void ibfs__irn_sack_fill(struct ibfs_hca_qp *qp, struct ibfs_packet *p);

/* UD and UC receive (ud.c). */
void ibfs__ud_rx(struct ibfs_hca_qp *qp, struct ibfs_packet *p);
/* Multicast (mcast.c): a packet to an MLID arrived on hp (it frees it);
 * a QP that goes leaves its groups; the HCA frees its attachments. */
struct ibfs_hca_mcast;
struct ibfs_hca_port;
void ibfs__mcast_rx(struct ibfs_hca_port *hp, struct ibfs_packet *p);
void ibfs__mcast_qp_gone(struct ibfs_hca_qp *qp);
void ibfs__mcast_free(struct ibfs_hca *h);
void ibfs__uc_rx(struct ibfs_hca_qp *qp, struct ibfs_packet *p);

/* The link underneath the transport (ib_link.c for InfiniBand,
 * roce_link.c for RoCEv2). */
struct ibfs_hca_port;
struct ibfs_hca_link_ops {
	/*
	 * Adds link headers for dlid/sl and computes the wire size.
	 * path_bits: the address vector's source path bits, which choose
	 * one of the port's 2^LMC LIDs as the SLID (IBA 7.11.1); pkey: the
	 * BTH's P_Key, the QP's (ibfs__qp_pkey).
	 */
	void (*frame)(struct ibfs_hca_port *hp, struct ibfs_packet *p,
		      uint16_t dlid, uint8_t sl, uint8_t path_bits,
		      uint16_t pkey);
	int (*can_send)(struct ibfs_hca_port *hp, const struct ibfs_packet *p);
	/* Sends p; returns when its last byte leaves the port (now if the
	 * port loses it). */
	ibfs_time_t (*send)(struct ibfs_hca_port *hp, struct ibfs_packet *p);
	/* The device is done with a received packet's buffer. */
	void (*consume)(struct ibfs_hca_port *hp, struct ibfs_packet *p);
	/* 1 if a received packet is addressed to this port (InfiniBand:
	 * DLID within the port's LID range; the P_Key is the QP's to check,
	 * ibfs__qp_pkey_ok). */
	int (*accept)(struct ibfs_hca_port *hp, const struct ibfs_packet *p);
};
extern const struct ibfs_hca_link_ops ibfs__ib_link_ops;
/* What both links do through the fabric port (ib_link.c): a port whose
 * link is down takes the packet and loses it. */
int ibfs__hca_port_can_send(struct ibfs_hca_port *hp,
			    const struct ibfs_packet *p);
ibfs_time_t ibfs__hca_port_send(struct ibfs_hca_port *hp,
				struct ibfs_packet *p);
void ibfs__hca_port_consume(struct ibfs_hca_port *hp, struct ibfs_packet *p);
/* RoCEv2 (IBA Annex A17) over an Ethernet port (roce_link.c). */
extern const struct ibfs_hca_link_ops ibfs__roce_link_ops;

struct ibfs_hca_port;
/*
 * The QP's P_Key: the entry of its port's P_KeyTable at its pkey_index,
 * read when used, as a CA does (IBA 10.9.1): a table the SM changes
 * changes the P_Key of the QPs naming that entry.
 */
static inline uint16_t ibfs__qp_pkey(const struct ibfs_hca_qp *qp);

/* Data VLs an HCA port can hold a packet for (VL0-14). */
#define IBFS_HCA_DATA_VLS 15

/*
 * The transmit side of an HCA port arbitrates between its data VLs as a
 * switch output does (IBA 7.6.9; tx_sched.c): a FIFO of QPs per data VL, each
 * QP on the FIFO of the VL its next packet takes, and the shared VL
 * arbiter (fabric/vl_arbiter.c) picking the VL that sends next. Each data
 * VL may hold one packet built and waiting for credits, with the QP that
 * built it and the UC/UD QP whose message that packet ends; that VL is
 * then not ready until the credits come, and the QPs on its FIFO wait
 * with it, so that a VL without credits does not stop the others.
 *
 * Line 0 is what the scheduler (tx_run) reads for every packet, and the
 * SL-to-VL table the frame reads; with one data VL it also reads VL 0's
 * FIFO, at the start of line 1, and neither the held packets nor the
 * arbiter (check_hca: qp_and_hca_start_a_cache_line).
 */
struct ibfs_hca_port {
	_Alignas(64) struct ibfs_hca *hca;
	struct ibfs_port *port;
	int num;
	uint16_t lid;
	uint8_t lmc;
	/*
	 * 1 when the port has one data VL and the arbiter serves it: every
	 * pick would be VL 0, so tx_run neither picks nor charges (as a
	 * switch output's `one`). Kept by tx_arb_update.
	 */
	uint8_t one;
	uint16_t held_mask;        /* data VLs with a packet in held[] */
	uint16_t fifo_mask;        /* data VLs whose FIFO has a QP */
	struct ibfs_event *kick;
	ibfs_time_t kick_at;
	/* The port's SLtoVLMappingTable (IBA 7.6.6): VL of each SL. */
	uint8_t sl2vl[16];
	/* FIFOs of QPs that may have a packet to send on each VL: the
	 * head goes next if ready, then rejoins a tail (round robin). */
	struct {
		struct ibfs_hca_qp *head, *tail;
	} fifo[IBFS_HCA_DATA_VLS];
	struct ibfs_packet *held[IBFS_HCA_DATA_VLS];
	struct ibfs_hca_qp *held_qp[IBFS_HCA_DATA_VLS];
	struct ibfs_hca_qp *held_ends[IBFS_HCA_DATA_VLS];
	/* VL arbitration tables and LimitOfHighPriority (IBA 7.6.9). */
	struct ibfs_vlarb arb;
	uint16_t sm_lid;           /* PortInfo MasterSMLID, as the SM set it */
	/* CNPs waiting to be sent, linked through next (cc_throttle.c). */
	struct ibfs_packet *cnp_head, *cnp_tail;
};

/* Which of the port's 2^LMC LIDs a packet was sent to: its DLID's low
 * LMC bits (the work completion's dlid_path_bits). */
static inline uint8_t ibfs__hca_dlid_path_bits(const struct ibfs_hca_port *hp,
					       uint16_t dlid)
{
	return (uint8_t)(dlid & ((1u << hp->lmc) - 1));
}

/*
 * Laid out, as the QP, by what a packet touches (allocated 64-byte
 * aligned, hca.c): line 0 the device, the profile, the ports and the QP
 * table; line 1 the rest of what the transmit scheduler and the receive
 * dispatch read per packet (PCIe channels and rate, loss injection);
 * line 2 the write hook and the packet counters; set-up and verbs use
 * the rest.
 */
struct ibfs_hca {
	/* Line 0. */
	struct ibfs_device dev;    /* first: the fabric sees a device */
	const struct ibfs_hca_profile *prof;
	const struct ibfs_hca_link_ops *lops;
	struct ibfs_hca_port *hp;  /* [1..nports] */
	struct ibfs_hca_qp **qps;  /* by qpn - IBFS_HCA_QPN_BASE */

	/* Line 1. */
	uint32_t nqps;
	/* ACK coalescing: the requester asks for an ACK (AckReq) on the last
	 * packet of a message and at least every ack_every packets (from the
	 * profile; tests and tools may change it). */
	uint32_t ack_every;
	/* Management agent or SM attached (mgmt.c), NULL when none. */
	struct ibfs_hca_mgmt *mgmt;
	ibfs_time_t pcie_rd_free, pcie_wr_free;
	/* Fault injection for tests: lose the next N request packets or the
	 * next N responses (ACK, NAK, READ response, atomic ACK) that this
	 * HCA receives. */
	int drop_next_rx;
	int drop_next_resp;
	/* ... or each with this probability, in parts per million, drawn
	 * from the HCA's own random stream (seeded by the run's seed). */
	uint32_t drop_ppm_rx, drop_ppm_resp;
	struct ibfs_rate pcie;

	/* Line 2. */
	/* Observers of placed RDMA WRITE data (perftest's memory polling). */
	void (*write_hook)(void *arg, struct ibfs_hca_qp *qp, uint64_t va,
			   uint32_t len, ibfs_time_t vis);
	void *write_hook_arg;
	struct ibfs_hca_stats st;

	struct ibfs_context ctx;
	struct ibfs_exec exec;
	struct ibfs_hca_res pds, cqs, ahs, srqs;
	struct ibfs_hca_mr **mrs;
	uint32_t nmrs, mrs_cap;
	uint32_t next_pd, next_srq;
	uint32_t qps_cap;
	struct ibfs_rng rng;
	/* Congestion control settings and state, NULL when off. */
	struct ibfs_hca_cc *cc;
	/* Multicast attachments (mcast.c): QP, MLID and MGID each. */
	struct ibfs_hca_mcast *mc;
	uint32_t nmc, mc_cap;
	/* RoCEv2 framing of every port (roce_link.c): an 802.1Q tag
	 * carries the priority in its PCP (else the DSCP alone does); IPv6
	 * rather than IPv4. Set with ibfs__hca_set_link. */
	uint8_t eth_vlan, eth_ipv6;
	/* IRN loss recovery of its RC QPs (rc_irn.c); NULL: go-back-N.
	 * Set with ibfs__hca_set_recovery. */
	struct ibfs_hca_irn_cfg *irn;
	/* ibfsim explain's listener of the steps (ibfs__hca_set_steps);
	 * NULL in every other run. */
	ibfs_hca_step_fn steps;
	void *steps_arg;
};

/* QP numbers: 0 and 1 are the SMI and GSI QPs (IBA 3.5.1, 9.6); data
 * QPs are numbered from here (an arbitrary start above them). */
enum { IBFS_HCA_QPN_BASE = 0x11 };
/* The QPs an HCA can have (QPNs are 24 bits: the BTH's DestQP, IBA 9.2),
 * and the WRs of a QP or SRQ (ConnectX's max_qp_wr, ibv_devinfo). */
enum {
	IBFS_HCA_MAX_QP = (1 << 24) - IBFS_HCA_QPN_BASE,
	IBFS_HCA_MAX_WR = 1 << 15,
	/* A CQ's entries: ConnectX's max_cqe (ibv_devinfo), 4 M. */
	IBFS_HCA_MAX_CQE = 1 << 22,
};

static inline uint16_t ibfs__qp_pkey(const struct ibfs_hca_qp *qp)
{
	return ibfs__port_pkey_at(qp->hca->hp[qp->port].port,
				  qp->attr.pkey_index);
}

/*
 * A step of the HCA's pipeline, told to explain's listener if any. A
 * macro so that its times are computed only when someone listens: the
 * hot paths pay one predictable branch.
 */
#define ibfs__hca_step(h, step, start, end, p)                              \
	do {                                                                \
		if (__builtin_expect((h)->steps != NULL, 0))                \
			(h)->steps((h)->steps_arg, (h)->dev.node, (step),   \
				   (start), (end), (p));                    \
	} while (0)

static inline ibfs_time_t ibfs__hca_now(const struct ibfs_hca *h)
{
	return h->dev.fab->eq.now;
}
/* Time a PCIe transfer of len bytes occupies the bus. */
ibfs_time_t ibfs__hca_pcie_ser(const struct ibfs_hca *h, uint64_t len);
/* Reserves the PCIe write channel: returns when len bytes written at or
 * after t are visible to the CPU. */
ibfs_time_t ibfs__hca_dma_write(struct ibfs_hca *h, ibfs_time_t t,
				uint64_t len);
/* n zeroed bytes from a 64-byte boundary (the cache line; NULL when out
 * of memory), for the objects laid out by line (QPs, HCAs, their ports);
 * free() releases them. */
void *ibfs__hca_zalloc(size_t n);
/* A fresh transport packet from the fabric pool (NULL: exhausted). */
struct ibfs_packet *ibfs__hca_packet(struct ibfs_hca *h, uint32_t len);

/*
 * Management packets (mgmt.c; the interface of the SM and its agents is
 * mgmt.h). For ibfs__hca_free: QP0 and QP1 go, with the packets still
 * queued. For the receive dispatch: delivers a received management packet
 * (1), 0 if nobody is attached. For the transmit scheduler: sends the
 * port's next queued one if it can (1), else 0; a port sends its queued
 * management packets before any data packet.
 */
void ibfs__hca_mgmt_free(struct ibfs_hca *h);
int ibfs__hca_mgmt_rx(struct ibfs_hca_port *hp, struct ibfs_packet *p);
int ibfs__hca_mgmt_tx(struct ibfs_hca_port *hp);


/* The transmit scheduler of each port (tx_sched.c). */
/* Sets up port hp's scheduler with vls data VLs: the switches' default
 * VL arbitration, one data VL after another. */
void ibfs__tx_sched_init(struct ibfs_hca_port *hp, int vls);
/* Frees the packets hp holds for credits (HCA teardown). */
void ibfs__tx_sched_flush(struct ibfs_hca_port *hp);
/* The device op: the transmitter of `out` is free. */
void ibfs__tx_sched_ready(struct ibfs_device *dev, struct ibfs_port *out);
/* The port's transmitter runs at t. */
void ibfs__hca_port_run_at(struct ibfs_hca_port *hp, ibfs_time_t t);
/* A QP has (or may have) a packet to send: schedule its port. */
void ibfs__hca_qp_wake(struct ibfs_hca_qp *qp);
/* A QP is destroyed or fails: it leaves its port's FIFO and its timer
 * stops. */
void ibfs__hca_qp_gone(struct ibfs_hca_qp *qp);

/* Congestion control at the HCA: the seam (cc_int.h). */
#include "hca/cc_int.h"

#endif
