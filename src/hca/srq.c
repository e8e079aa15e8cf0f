/* SPDX-License-Identifier: MIT */
/*
 * Receive queues (IBA 10.2.9): each QP's own, and shared receive queues
 * (SRQs, IBA 10.2.9.5) from which every QP created with one takes its
 * receive WQEs, in the order they were posted. A receiver takes a WQE
 * when a message's first packet arrives (rc_responder.c, ud.c: the QP's
 * cur_rwqe), so the QPs of one SRQ never share a WQE, and one finding it
 * empty answers as with an empty queue of its own (RNR NAK on RC, a drop
 * on UC and UD). The WQEs of an SRQ stay in it when a QP enters the
 * error state; only the one that QP was filling completes, flushed.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#include "hca/hca_int.h"

int ibfs__rq_post(struct ibfs_hca_rq *q, const struct ibfs_recv_wr *wr)
{
	if (wr->num_sge < 0 || (uint32_t)wr->num_sge > q->max_sge ||
	    (wr->num_sge && !wr->sg_list))
		return EINVAL;
	if (q->tail - q->head >= q->max_wr)
		return ENOMEM;
	struct ibfs_rwqe *rw = &q->ring[q->tail % q->cap];
	rw->wr_id = wr->wr_id;
	rw->num_sge = (uint8_t)wr->num_sge;
	rw->len = 0;
	for (int i = 0; i < wr->num_sge; i++) {
		rw->sge[i] = wr->sg_list[i];
		rw->len += wr->sg_list[i].length;
	}
	q->tail++;
	return 0;
}

struct ibfs_srq *ibfs_create_srq(struct ibfs_pd *pd,
				 struct ibfs_srq_init_attr *a)
{
	if (!pd || !a || a->attr.max_wr < 1 || a->attr.max_wr > IBFS_HCA_MAX_WR ||
	    a->attr.max_sge < 1 || a->attr.max_sge > IBFS_HCA_MAX_SGE ||
	    a->attr.srq_limit > a->attr.max_wr) {
		errno = EINVAL;
		return NULL;
	}
	struct ibfs_hca *h = pd->context->hca;
	struct ibfs_hca_srq *s = calloc(1, sizeof(*s));
	struct ibfs_rwqe *ring = calloc(a->attr.max_wr, sizeof(*ring));
	if (!s || !ring) {
		free(s);
		free(ring);
		errno = ENOMEM;
		return NULL;
	}
	s->pub.context = pd->context;
	s->pub.srq_context = a->srq_context;
	s->pub.pd = pd;
	s->pub.handle = ++h->next_srq;
	s->rq = (struct ibfs_hca_rq){.ring = ring, .cap = a->attr.max_wr,
				     .max_wr = a->attr.max_wr,
				     .max_sge = a->attr.max_sge,
				     .pd = (struct ibfs_hca_pd *)pd};
	s->srq_limit = a->attr.srq_limit;
	((struct ibfs_hca_pd *)pd)->refs++;
	ibfs__res_add(&h->srqs, &s->res);
	return &s->pub;
}

int ibfs_query_srq(struct ibfs_srq *pub, struct ibfs_srq_attr *attr)
{
	if (!pub || !attr)
		return EINVAL;
	const struct ibfs_hca_srq *s = (const struct ibfs_hca_srq *)pub;
	*attr = (struct ibfs_srq_attr){.max_wr = s->rq.max_wr,
				       .max_sge = s->rq.max_sge,
				       .srq_limit = s->srq_limit};
	return 0;
}

static void srq_free(struct ibfs_hca_srq *s)
{
	ibfs__res_del(&s->res);
	free(s->rq.ring);
	free(s);
}

int ibfs_destroy_srq(struct ibfs_srq *pub)
{
	if (!pub)
		return EINVAL;
	struct ibfs_hca_srq *s = (struct ibfs_hca_srq *)pub;
	if (s->refs)
		return EBUSY;
	s->rq.pd->refs--;
	srq_free(s);
	return 0;
}

void ibfs__srq_free_all(struct ibfs_hca *h)
{
	while (h->srqs.next != &h->srqs)
		srq_free((struct ibfs_hca_srq *)((char *)h->srqs.next -
						 offsetof(struct ibfs_hca_srq,
							  res)));
}
