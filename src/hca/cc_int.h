/* SPDX-License-Identifier: MIT */
/*
 * The HCA's congestion control seam, private to src/hca (included by
 * hca_int.h after the HCA's structures, which its inline reads): the
 * ops table every control fills (cc.c; InfiniBand's throttle in
 * cc_throttle.c, RoCEv2's controls in cc_dcqcn.c, cc_hpcc.c,
 * cc_timely.c) and the calls the transmit and receive paths make.
 */
#ifndef IBFS_HCA_CC_INT_H
#define IBFS_HCA_CC_INT_H

/*
 * Congestion control at the HCA, a seam (cc.c): an ops table chosen per
 * run. InfiniBand's throttle (IBA A10.3, cc_throttle.c) is one; rate and
 * window controls for RoCEv2 plug in the same way. h->cc is NULL without
 * one, and the transmit and receive paths test only that.
 */
struct ibfs_hca_cc;
/* What a control learns of a packet sent, taken before the send frees it. */
struct ibfs_cc_tx {
	uint8_t request, sl;
	uint8_t opcode;
	uint32_t wire;
	uint32_t psn;
};
struct ibfs_hca_cc_ops {
	const char *name;
	/* 1: READ responses wait for until too (a RoCEv2 rate control
	 * paces the responder's QP, whose data they are). */
	uint8_t responses;
	/* When qp's next request packet may go: 0 now; IBFS_TIME_NEVER
	 * until the control calls ibfs__hca_qp_wake (a window is full). */
	ibfs_time_t (*until)(const struct ibfs_hca_qp *qp);
	/* qp (NULL: a CNP or management) sent tx; its last byte leaves
	 * the port at left. */
	void (*sent)(struct ibfs_hca_port *hp, struct ibfs_hca_qp *qp,
		     const struct ibfs_cc_tx *tx, ibfs_time_t left);
	/* Every packet received on hp while the control is on, before the
	 * transport sees it: 1 when the control consumed it (a CNP). */
	int (*rx)(struct ibfs_hca_port *hp, struct ibfs_packet *p);
	/* qp's current sending rate in bits per second (reports, samples);
	 * NULL or 0: not rate-limited. */
	uint64_t (*rate)(const struct ibfs_hca_qp *qp);
	/* qp is destroyed: drop its state (NULL: none kept). */
	void (*qp_gone)(struct ibfs_hca_qp *qp);
	/* The lowest rate the control has set on any QP since it was
	 * installed, bit/s (reports); NULL or 0: none kept. */
	uint64_t (*rate_min)(const struct ibfs_hca *h);
	/* qp built p, an RC request or an ACK, and frames it next: the
	 * control may add a header of its own (HPCC: an empty telemetry
	 * field on a request, the last request's telemetry echoed on an
	 * ACK). NULL: none. */
	void (*stamp)(struct ibfs_hca_qp *qp, struct ibfs_packet *p);
	/* Frees the control (h->cc) and what it keeps in the QPs (cc_qp). */
	void (*free)(struct ibfs_hca *h);
};
/* Every control's state begins with this. */
struct ibfs_hca_cc {
	const struct ibfs_hca_cc_ops *ops;
};
/* Lets h's control, if it has a stamp, add its header to p (qp's). */
static inline void ibfs__cc_stamp(struct ibfs_hca_qp *qp,
				  struct ibfs_packet *p)
{
	const struct ibfs_hca_cc *cc = qp->hca->cc;

	if (__builtin_expect(cc != NULL, 0) && cc->ops->stamp)
		cc->ops->stamp(qp, p);
}
/* Installs cc (NULL: none) in place of h's control, which is freed. */
void ibfs__hca_cc_install(struct ibfs_hca *h, struct ibfs_hca_cc *cc);
void ibfs__hca_cc_free(struct ibfs_hca *h);
/* When qp's next request packet may go for its control (0: now). */
static inline ibfs_time_t ibfs__cc_until(const struct ibfs_hca_qp *qp)
{
	const struct ibfs_hca_cc *cc = qp->hca->cc;

	return cc ? cc->ops->until(qp) : 0;
}
/*
 * A received packet (h->cc set, or FECN or BECN in it): 1 when it was a
 * CNP, consumed. Without a control, FECN, BECN and CNPs are only counted.
 */
int ibfs__cc_rx(struct ibfs_hca_port *hp, struct ibfs_packet *p);
void ibfs__cc_sent(struct ibfs_hca_port *hp, struct ibfs_hca_qp *qp,
		   const struct ibfs_cc_tx *tx, ibfs_time_t left);
/* Queues the CNP c on hp; CNPs go ahead of data packets (tx_sched.c). */
void ibfs__cc_cnp_queue(struct ibfs_hca_port *hp, struct ibfs_packet *c);
/* Sends the port's first CNP if it may go: 1 when it sent one. */
int ibfs__cc_cnp_tx(struct ibfs_hca_port *hp);
void ibfs__cc_cnp_flush(struct ibfs_hca_port *hp);
/*
 * InfiniBand's control (cc_throttle.c). The current CCTI of qp's flow:
 * its own (per QP) or its port's for sl (per SL); 0 without CC. For
 * tests and reports.
 */
uint16_t ibfs__hca_cc_ccti(const struct ibfs_hca_qp *qp, uint8_t sl);
/* InfiniBand's answer to a packet with FECN or BECN, or a CNP, with or
 * without a control programmed (the counters). */
int ibfs__cc_ib_rx(struct ibfs_hca_port *hp, struct ibfs_packet *p);

#endif
