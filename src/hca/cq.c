/* SPDX-License-Identifier: MIT */
/*
 * Completion queues (IBA 10.8, 11.4.2). The HCA writes a CQE into host
 * memory through PCIe; the CPU sees it once the write has landed and the
 * polling loop has picked it up (the profile's dma_write and cqe delays).
 * Each CQE therefore carries the time it becomes visible, and poll_cq only
 * returns CQEs visible at the caller's time. The ring is allocated once at
 * create time; an overflowing CQ drops the CQE and counts it (verbs reports
 * a CQ overflow as a fatal asynchronous event).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#include "hca/hca_int.h"

struct ibfs_cq *ibfs_create_cq(struct ibfs_context *ctx, int cqe,
			       void *cq_context, void *channel,
			       int comp_vector)
{
	(void)channel;
	(void)comp_vector;
	if (!ctx || cqe < 1 || cqe > IBFS_HCA_MAX_CQE) {
		errno = EINVAL;
		return NULL;
	}
	struct ibfs_hca_cq *cq = calloc(1, sizeof(*cq));
	if (!cq || !(cq->ring = calloc((size_t)cqe, sizeof(*cq->ring)))) {
		free(cq);
		errno = ENOMEM;
		return NULL;
	}
	cq->hca = ctx->hca;
	cq->cap = (uint32_t)cqe;
	cq->pub.context = ctx;
	cq->pub.cq_context = cq_context;
	cq->pub.cqe = cqe;
	ibfs__res_add(&cq->hca->cqs, &cq->res);
	return &cq->pub;
}

int ibfs_destroy_cq(struct ibfs_cq *pub)
{
	if (!pub)
		return EINVAL;
	struct ibfs_hca_cq *cq = (struct ibfs_hca_cq *)pub;
	if (cq->dead)
		return EINVAL;
	if (cq->notify_pending) {
		/* Notify events still refer to it: the last one frees it. */
		cq->dead = 1;
		cq->notify = NULL;
		return 0;
	}
	ibfs__res_del(&cq->res);
	free(cq->ring);
	free(cq);
	return 0;
}

void ibfs__cq_free_all(struct ibfs_hca *h)
{
	while (h->cqs.next != &h->cqs) {
		char *r = (char *)h->cqs.next;
		struct ibfs_hca_cq *cq = (struct ibfs_hca_cq *)(
			r - offsetof(struct ibfs_hca_cq, res));
		/* The fabric goes too: pending events will never run. */
		ibfs__res_del(&cq->res);
		free(cq->ring);
		free(cq);
	}
}

static void cq_notify_ev(void *obj, uint64_t arg)
{
	(void)arg;
	struct ibfs_hca_cq *cq = obj;
	cq->notify_pending--;
	if (cq->dead) {
		if (!cq->notify_pending) {
			ibfs__res_del(&cq->res);
			free(cq->ring);
			free(cq);
		}
		return;
	}
	if (cq->notify)
		cq->notify(cq->notify_arg, cq);
}

void ibfs__cq_push_after(struct ibfs_hca_cq *cq, const struct ibfs_wc *wc,
			 ibfs_time_t not_before)
{
	struct ibfs_hca *h = cq->hca;
	ibfs_time_t vis = ibfs__hca_dma_write(h, ibfs__hca_now(h), 64) +
			  h->prof->cqe;
	if (vis < not_before)
		vis = not_before;
	ibfs__hca_step(h, IBFS_STEP_CQE, ibfs__hca_now(h) > not_before ?
		       ibfs__hca_now(h) : not_before, vis, NULL);
	if (vis < cq->last_vis)
		vis = cq->last_vis;
	if (cq->count == cq->cap) {
		cq->overflows++;
		return;
	}
	struct ibfs_hca_cqe *e = &cq->ring[(cq->head + cq->count) % cq->cap];
	e->wc = *wc;
	e->vis = vis;
	cq->count++;
	cq->last_vis = vis;
	if (h->exec.ops) {
		/* Everyone waiting looks; those who find nothing wait again. */
		for (uint32_t i = 0; i < cq->nwaiters; i++)
			h->exec.ops->wake_at(h->exec.ctx, cq->waiters[i], vis);
		cq->nwaiters = 0;
	}
	if (cq->notify &&
	    ibfs__eq_schedule(&h->dev.fab->eq, vis, cq_notify_ev, cq, 0))
		cq->notify_pending++;
}

void ibfs__cq_push(struct ibfs_hca_cq *cq, const struct ibfs_wc *wc)
{
	ibfs__cq_push_after(cq, wc, 0);
}

int ibfs__cq_poll(struct ibfs_hca_cq *cq, int num, struct ibfs_wc *wc,
		  ibfs_time_t now)
{
	int n = 0;
	while (n < num && cq->count && cq->ring[cq->head].vis <= now) {
		wc[n++] = cq->ring[cq->head].wc;
		cq->head = (cq->head + 1) % cq->cap;
		cq->count--;
	}
	return n;
}

int ibfs__cq_take(struct ibfs_cq *pub, int num, struct ibfs_wc *wc,
		  ibfs_time_t *vis)
{
	struct ibfs_hca_cq *cq = (struct ibfs_hca_cq *)pub;
	int n = 0;

	while (n < num && cq->count) {
		vis[n] = cq->ring[cq->head].vis;
		wc[n++] = cq->ring[cq->head].wc;
		cq->head = (cq->head + 1) % cq->cap;
		cq->count--;
	}
	return n;
}

void ibfs__cq_set_notify(struct ibfs_cq *pub,
			 void (*fn)(void *arg, struct ibfs_hca_cq *cq),
			 void *arg)
{
	struct ibfs_hca_cq *cq = (struct ibfs_hca_cq *)pub;
	cq->notify = fn;
	cq->notify_arg = arg;
}

static void cq_enter(struct ibfs_hca *h)
{
	if (h->exec.ops && h->exec.ops->enter)
		h->exec.ops->enter(h->exec.ctx);
}

static void cq_leave(struct ibfs_hca *h)
{
	if (h->exec.ops && h->exec.ops->leave)
		h->exec.ops->leave(h->exec.ctx);
}

int ibfs_poll_cq(struct ibfs_cq *pub, int num, struct ibfs_wc *wc)
{
	if (!pub || num < 0 || (num && !wc))
		return -1;
	struct ibfs_hca_cq *cq = (struct ibfs_hca_cq *)pub;
	cq_enter(cq->hca);
	int n = ibfs__cq_poll(cq, num, wc, ibfs__hca_now(cq->hca));
	cq_leave(cq->hca);
	return n;
}

int ibfs_wait_cq(struct ibfs_cq *pub, int num, struct ibfs_wc *wc)
{
	if (!pub || num < 1 || !wc) {
		errno = EINVAL;
		return -1;
	}
	struct ibfs_hca_cq *cq = (struct ibfs_hca_cq *)pub;
	struct ibfs_hca *h = cq->hca;
	for (;;) {
		cq_enter(h);
		int n = ibfs__cq_poll(cq, num, wc, ibfs__hca_now(h));
		if (n > 0 || !h->exec.ops) {
			cq_leave(h);
			if (n > 0)
				return n;
			errno = ETIMEDOUT;
			return -1;
		}
		struct ibfs_waiter *w = h->exec.ops->waiter_get(h->exec.ctx);
		if (cq->count) {
			/* A CQE exists but is not visible yet: wake then. */
			h->exec.ops->wake_at(h->exec.ctx, w,
					     cq->ring[cq->head].vis);
		} else if (cq->nwaiters < IBFS_CQ_WAITERS) {
			cq->waiters[cq->nwaiters++] = w;
		} else {
			cq_leave(h);
			errno = EBUSY;
			return -1;
		}
		cq_leave(h);
		h->exec.ops->wait(h->exec.ctx, w);
		for (uint32_t i = 0; i < cq->nwaiters; i++) {
			if (cq->waiters[i] != w)
				continue;
			/* Woken without a CQE: nothing can produce one. */
			cq->waiters[i] = cq->waiters[--cq->nwaiters];
			errno = ETIMEDOUT;
			return -1;
		}
	}
}
