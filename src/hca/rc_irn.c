/* SPDX-License-Identifier: MIT */
/*
 * IRN loss recovery for RC over lossy RoCE: Mittal et al., "Revisiting
 * Network Support for RDMA", SIGCOMM 2018, section 3 (IRN's design), in
 * place of the IBA's go-back-N (IBA 9.7.5.1.3) when the HCA is set so
 * (ibfs__hca_set_recovery).
 *   - Selective repeat (3.1): the responder keeps each request that
 *     arrives beyond the expected PSN and answers it with a selective
 *     NACK carrying the cumulative PSN (the expected one) and the PSN
 *     received. IRN places WRITE and READ response data at once and keeps
 *     per-packet state for SENDs; this model keeps the whole packet and
 *     executes it when the gap before it fills, so the bytes and the
 *     retransmissions are IRN's and only the placement of the kept data
 *     comes later (at the fill).
 *   - The requester marks each PSN a NACK reports in a bitmap. The first
 *     NACK starts loss recovery, which lasts until the cumulative
 *     acknowledgement passes the PSN sent last when it began: a packet
 *     the responder has not passed (its cumulative PSN, from ACKs and
 *     NACKs: a READ waiting for its data may hold the requester's own
 *     acknowledgement back), nor reported, before the highest PSN
 *     reported, is lost and sent again, once, before any new packet.
 *   - A READ response beyond the expected one means the ones before it
 *     were lost: the requester asks again for the READ's data from the
 *     first missing packet (IRN asks for the missing ones only), once a
 *     burst of responses. A READ request itself is sent again like any
 *     packet; its response PSNs are not (they are the responder's).
 *   - BDP-FC (3.2): at most ceil(BDP / MTU) packets unacknowledged, the
 *     BDP from the port's rate and the base RTT given; the requester asks
 *     for an ACK at least every half window so that the window moves.
 *   - Timeouts (3.1): RTO_low while at most N packets are in flight,
 *     RTO_high once more are (from the timer's start), not backed off;
 *     on expiry the oldest unacknowledged packet and every packet the
 *     responder has neither passed nor reported is presumed lost. The
 *     QP's retry_cnt still bounds the expiries without progress.
 *   - With PFC too (the paper evaluates IRN with and without it).
 * The selective NACK's received PSN rides in the ACK packet's imm field:
 * IRN carries it in a header of its own, whose bytes are not counted.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/link_rate.h"
#include "hca/hca_int.h"

struct ibfs_irn *ibfs__irn_get(struct ibfs_hca_qp *qp)
{
	if (!qp->irn)
		qp->irn = calloc(1, sizeof(*qp->irn));
	return qp->irn;
}

void ibfs__irn_free(struct ibfs_hca_qp *qp)
{
	struct ibfs_irn *r = qp->irn;

	if (!r)
		return;
	for (int i = 0; i < IBFS_IRN_RING; i++)
		if (r->ooo[i])
			ibfs__packet_free(qp->hca->dev.fab, r->ooo[i]);
	free(r);
	qp->irn = NULL;
}

uint32_t ibfs__irn_next_psn(const struct ibfs_hca_qp *qp)
{
	return qp->irn && qp->irn->swapped ? qp->irn->f.next_psn
					   : qp->next_psn;
}

/* Requester. */

static int irn_sacked(const struct ibfs_irn *r, uint32_t psn)
{
	uint32_t b = psn % IBFS_IRN_RING;

	return (int)(r->sacked[b / 64] >> (b % 64)) & 1;
}

static void irn_mark(struct ibfs_irn *r, uint32_t psn, int on)
{
	uint32_t b = psn % IBFS_IRN_RING;
	uint64_t m = 1ull << (b % 64);

	r->sacked[b / 64] = on ? r->sacked[b / 64] | m : r->sacked[b / 64] & ~m;
}

/* Packets the window allows unacknowledged: the BDP cap within the
 * bitmap's half ring (a READ's responses may run past the cap). */
static uint32_t irn_cap(const struct ibfs_hca_qp *qp)
{
	const struct ibfs_hca_irn_cfg *c = qp->hca->irn;
	uint32_t cap = IBFS_IRN_RING / 2;

	if (c->base_rtt) {
		ibfs_time_t per = ibfs__rate_ser_time(
			qp->hca->hp[qp->port].port->rate, qp->mtu);
		uint64_t n = per ? (c->base_rtt + per - 1) / per : cap;

		if (n < cap)
			cap = n ? (uint32_t)n : 1;
	}
	return cap;
}

int ibfs__irn_window_full(struct ibfs_hca_qp *qp)
{
	uint32_t n = (uint32_t)ibfs__psn_cmp(qp->next_psn, qp->una_psn);

	return n >= irn_cap(qp);
}

uint32_t ibfs__irn_ack_every(struct ibfs_hca_qp *qp)
{
	uint32_t half = irn_cap(qp) / 2;

	if (half == 0)
		half = 1;
	return half < qp->hca->ack_every ? half : qp->hca->ack_every;
}

static int irn_rdatomic(const struct ibfs_swqe *w)
{
	return w->opcode == IBFS_WR_RDMA_READ ||
	       w->opcode == IBFS_WR_ATOMIC_CMP_AND_SWP ||
	       w->opcode == IBFS_WR_ATOMIC_FETCH_AND_ADD;
}

/* The send WQE PSN x belongs to, or NULL. */
static const struct ibfs_swqe *irn_wqe_of(struct ibfs_hca_qp *qp,
					  uint32_t x)
{
	const struct ibfs_irn *r = qp->irn;
	uint64_t end = r->swapped ? r->f.sq_next + (r->f.tx_off ? 1 : 0)
				  : qp->sq_next + (qp->tx_off ? 1 : 0);

	if (end > qp->sq_tail)
		end = qp->sq_tail;
	for (uint64_t i = qp->sq_head; i < end; i++) {
		const struct ibfs_swqe *w = ibfs__sq_at(qp, i);

		if (ibfs__psn_cmp(x, w->first_psn) >= 0 &&
		    ibfs__psn_cmp(x, ibfs__psn_end(w)) < 0)
			return w;
	}
	return NULL;
}

/*
 * The first lost PSN still to resend (1), from retx on: after a timeout
 * or a gap in READ responses the oldest unacknowledged packet whatever
 * it is; then those the responder has not passed (its cumulative PSN)
 * nor reported, of which a READ or atomic only by its request's PSN (its
 * responses come back, or not, as a whole: a gap in them is its own).
 */
static int irn_find(struct ibfs_hca_qp *qp, uint32_t *out)
{
	struct ibfs_irn *r = qp->irn;
	uint32_t x = ibfs__psn_cmp(r->retx, qp->una_psn) > 0 ? r->retx
							      : qp->una_psn;
	uint32_t end = ibfs__irn_next_psn(qp);

	if (r->retx_una && x == qp->una_psn) {
		*out = x;
		return 1;
	}
	if (ibfs__psn_cmp(r->sack_hi, end) < 0)
		end = r->sack_hi;
	if (ibfs__psn_cmp(x, r->cum) < 0)
		x = r->cum;
	while (ibfs__psn_cmp(x, end) < 0) {
		const struct ibfs_swqe *w = irn_wqe_of(qp, x);

		if (w && irn_rdatomic(w) && x != w->first_psn) {
			x = ibfs__psn_end(w);
			continue;
		}
		if (w && !irn_sacked(r, x)) {
			*out = x;
			return 1;
		}
		x = ibfs__psn_add(x, 1);
	}
	return 0;
}

void ibfs__irn_cum(struct ibfs_hca_qp *qp, uint32_t e)
{
	struct ibfs_irn *r = qp->irn;

	if (r && ibfs__psn_cmp(e, r->cum) > 0 &&
	    ibfs__psn_cmp(e, ibfs__irn_next_psn(qp)) <= 0)
		r->cum = e;
}

/* Puts the send engine on the packet of PSN x (as ibfs__sq_rewind). */
static int irn_place(struct ibfs_hca_qp *qp, uint32_t x)
{
	uint64_t end = qp->sq_next + (qp->tx_off ? 1 : 0);

	if (end > qp->sq_tail)
		end = qp->sq_tail;
	for (uint64_t i = qp->sq_head; i < end; i++) {
		struct ibfs_swqe *w = ibfs__sq_at(qp, i);
		int atomic = w->opcode == IBFS_WR_ATOMIC_CMP_AND_SWP ||
			     w->opcode == IBFS_WR_ATOMIC_FETCH_AND_ADD;

		if (w->done || ibfs__psn_cmp(x, w->first_psn) < 0 ||
		    ibfs__psn_cmp(x, ibfs__psn_end(w)) >= 0)
			continue;
		qp->sq_next = i;
		qp->tx_off = atomic ? 0 :
			     (uint32_t)ibfs__psn_cmp(x, w->first_psn) * qp->mtu;
		qp->next_psn = x;
		return 1;
	}
	return 0;
}

int ibfs__irn_seek_lost(struct ibfs_hca_qp *qp)
{
	struct ibfs_irn *r = ibfs__irn_get(qp);
	uint32_t x;

	if (!r)
		return 0;
	if (r->swapped)
		return 1;
	if (!r->recovery || !irn_find(qp, &x))
		return 0;
	r->f.sq_next = qp->sq_next;
	r->f.tx_off = qp->tx_off;
	r->f.next_psn = qp->next_psn;
	r->f.pkts_since_ack = qp->pkts_since_ack;
	r->f.rd_out = qp->rd_out;
	r->f.wqe_begin = qp->wqe_begin;
	r->f.wqe_next = qp->wqe_next;
	if (!irn_place(qp, x)) {
		r->retx = ibfs__psn_add(x, 1);
		return 0;
	}
	r->swapped = 1;
	qp->fresh = 1; /* a retransmission reads its payload anew */
	return 1;
}

static void irn_restore(struct ibfs_hca_qp *qp)
{
	struct ibfs_irn *r = qp->irn;

	qp->sq_next = r->f.sq_next;
	qp->tx_off = r->f.tx_off;
	qp->next_psn = r->f.next_psn;
	qp->pkts_since_ack = r->f.pkts_since_ack;
	qp->rd_out = r->f.rd_out;
	qp->wqe_begin = r->f.wqe_begin;
	qp->wqe_next = r->f.wqe_next;
	r->swapped = 0;
	qp->fresh = 1;
}

void ibfs__irn_built(struct ibfs_hca_qp *qp, struct ibfs_packet *p)
{
	struct ibfs_irn *r = qp->irn;

	if (!r || !r->swapped)
		return;
	/* The responder answers a retransmission, so that the cumulative
	 * acknowledgement moves as soon as a gap fills. */
	p->ack_req = 1;
	qp->hca->st.retransmitted++;
	r->retx_una = 0;
	r->retx = qp->next_psn;
	irn_restore(qp);
}

void ibfs__irn_unseek(struct ibfs_hca_qp *qp)
{
	if (!qp->irn || !qp->irn->swapped)
		return;
	irn_restore(qp);
	qp->req_ready_valid = 0;
}

/* Loss recovery begins (a retransmission event, counted as go-back-N
 * counts its rewinds): the packets sent so far are its scope. */
static void irn_recover(struct ibfs_hca_qp *qp)
{
	struct ibfs_irn *r = qp->irn;

	if (r->recovery)
		return;
	r->recovery = 1;
	r->rec_end = qp->next_psn;
	r->retx = qp->una_psn;
	r->sack_hi = qp->una_psn;
	r->retx_una = 0;
	qp->hca->st.retransmits++;
}

/* A retransmission is due: it goes before the new packet prepared. */
static void irn_kick(struct ibfs_hca_qp *qp)
{
	uint32_t x;

	if (qp->irn->recovery && irn_find(qp, &x))
		qp->req_ready_valid = 0;
	ibfs__sq_prepare(qp);
	ibfs__hca_qp_wake(qp);
}

void ibfs__irn_nack(struct ibfs_hca_qp *qp, uint32_t e, uint32_t rcv)
{
	struct ibfs_irn *r = ibfs__irn_get(qp);

	if (!r)
		return;
	qp->hca->st.seq_naks++;
	if (ibfs__psn_cmp(rcv, qp->una_psn) < 0 ||
	    ibfs__psn_cmp(rcv, qp->next_psn) >= 0)
		return; /* acknowledged since, or never sent */
	ibfs__irn_cum(qp, e);
	irn_mark(r, rcv, 1);
	irn_recover(qp);
	if (ibfs__psn_cmp(rcv, r->sack_hi) > 0)
		r->sack_hi = rcv;
	irn_kick(qp);
}

void ibfs__irn_read_gap(struct ibfs_hca_qp *qp, uint32_t psn)
{
	struct ibfs_irn *r = ibfs__irn_get(qp);

	if (!r)
		return;
	irn_recover(qp);
	if (ibfs__psn_cmp(psn, r->sack_hi) > 0)
		r->sack_hi = psn;
	/*
	 * Once a burst of responses: the READ goes again from its missing
	 * packet at the first response past the gap, and again only when a
	 * new burst (the responses asked again, from a lower PSN) has one.
	 */
	if (!r->gap_set || qp->una_psn != r->gap_una ||
	    ibfs__psn_cmp(psn, r->gap_last) <= 0) {
		r->retx_una = 1;
		r->retx = qp->una_psn;
	}
	r->gap_set = 1;
	r->gap_una = qp->una_psn;
	r->gap_last = psn;
	irn_kick(qp);
}

void ibfs__irn_acked(struct ibfs_hca_qp *qp, uint32_t old, uint32_t una)
{
	struct ibfs_irn *r = qp->irn;

	if (!r)
		return;
	for (uint32_t n = 0; ibfs__psn_cmp(old, una) < 0 && n < IBFS_IRN_RING;
	     old = ibfs__psn_add(old, 1), n++)
		irn_mark(r, old, 0);
	if (r->recovery && ibfs__psn_cmp(una, r->rec_end) >= 0)
		r->recovery = 0;
}

void ibfs__irn_timeout(struct ibfs_hca_qp *qp)
{
	struct ibfs_irn *r = ibfs__irn_get(qp);

	if (!r)
		return;
	/* A new recovery from the oldest unacknowledged packet (the timer
	 * counted the event). */
	r->recovery = 1;
	r->rec_end = qp->next_psn;
	r->retx = qp->una_psn;
	r->retx_una = 1;
	r->sack_hi = qp->next_psn;
	irn_kick(qp);
}

/* Responder. */

/* A copy of a received request, kept until the gap before it fills. */
static struct ibfs_packet *irn_clone(struct ibfs_hca *h,
				     const struct ibfs_packet *p)
{
	struct ibfs_packet *q = ibfs__hca_packet(h, p->payload_len);
	size_t off = offsetof(struct ibfs_packet, opcode);
	uint8_t *pl;

	if (!q)
		return NULL;
	pl = q->payload;
	memcpy((char *)q + off, (const char *)p + off, sizeof(*q) - off);
	q->payload = pl;
	if (pl && p->payload)
		memcpy(pl, p->payload, p->payload_len);
	q->slid = p->slid;
	q->dlid = p->dlid;
	q->sl = p->sl;
	q->vl = p->vl;
	q->lnh = p->lnh;
	return q;
}

void ibfs__irn_ooo(struct ibfs_hca_qp *qp, struct ibfs_packet *p)
{
	struct ibfs_hca *h = qp->hca;
	struct ibfs_irn *r = ibfs__irn_get(qp);
	uint32_t d = (uint32_t)ibfs__psn_cmp(p->psn, qp->epsn);
	uint32_t slot = p->psn % IBFS_IRN_RING;

	if (!r || d >= IBFS_IRN_RING) {
		h->st.dropped++; /* beyond what the responder keeps */
		return;
	}
	if (!r->ooo[slot] || r->ooo[slot]->psn != p->psn) {
		if (r->ooo[slot])
			ibfs__packet_free(h->dev.fab, r->ooo[slot]);
		r->ooo[slot] = irn_clone(h, p);
	} else {
		h->st.duplicates++;
	}
	if (r->sack_count == IBFS_IRN_SACKQ) { /* the oldest report goes */
		r->sack_head = (r->sack_head + 1) % IBFS_IRN_SACKQ;
		r->sack_count--;
	}
	r->sackq[(r->sack_head + r->sack_count++) % IBFS_IRN_SACKQ] = p->psn;
	/* A pending ACK is subsumed: the NACK carries the cumulative PSN. */
	if (!qp->ack_pending || (qp->ack_syn & 0xe0) == IBFS_AETH_ACK) {
		if (!qp->ack_pending)
			qp->ack_ready = ibfs__hca_now(h) + h->prof->ack_gen;
		qp->ack_pending = 1;
		qp->ack_syn = IBFS_AETH_NAK | IBFS_NAK_PSN_SEQ;
		qp->ack_psn = qp->epsn;
	}
	ibfs__hca_qp_wake(qp);
}

void ibfs__irn_sack_fill(struct ibfs_hca_qp *qp, struct ibfs_packet *p)
{
	struct ibfs_irn *r = qp->irn;

	if (!r || !r->sack_count ||
	    qp->ack_syn != (IBFS_AETH_NAK | IBFS_NAK_PSN_SEQ))
		return;
	/* Reports the gap has filled since are moot. */
	while (r->sack_count &&
	       ibfs__psn_cmp(r->sackq[r->sack_head], qp->epsn) < 0) {
		r->sack_head = (r->sack_head + 1) % IBFS_IRN_SACKQ;
		r->sack_count--;
	}
	if (!r->sack_count) {
		/* None left: a plain ACK of everything received. */
		p->aeth.syndrome = IBFS_AETH_ACK | 0x1f;
		p->psn = ibfs__psn_add(qp->epsn, -1u);
		return;
	}
	p->psn = qp->epsn;
	p->imm = r->sackq[r->sack_head];
	r->sack_head = (r->sack_head + 1) % IBFS_IRN_SACKQ;
	if (--r->sack_count) {
		qp->ack_pending = 1;
		qp->ack_psn = qp->epsn;
		qp->ack_ready = ibfs__hca_now(qp->hca) + qp->hca->prof->ack_gen;
	}
}

void ibfs__irn_drain(struct ibfs_hca_qp *qp)
{
	struct ibfs_irn *r = qp->irn;
	int n = 0;

	if (!r || r->draining)
		return;
	r->draining = 1;
	for (;;) {
		uint32_t slot = qp->epsn % IBFS_IRN_RING, before = qp->epsn;
		struct ibfs_packet *q = r->ooo[slot];

		if (!q)
			break;
		r->ooo[slot] = NULL;
		if (q->psn == before)
			ibfs__rc_resp_rx(qp, q);
		ibfs__packet_free(qp->hca->dev.fab, q);
		if (qp->epsn == before)
			break;
		n++;
	}
	r->draining = 0;
	/* The gap filled: acknowledge what the kept packets completed. */
	if (n)
		ibfs__rc_queue_ack(qp, IBFS_AETH_ACK | 0x1f,
				   ibfs__psn_add(qp->epsn, -1u));
}
