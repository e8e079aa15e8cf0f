/* SPDX-License-Identifier: MIT */
/*
 * Protection domains, memory regions and address handles (IBA 10.2, 10.6).
 * A memory region covers real application memory: the simulated HCA reads
 * and writes it as a real one DMAs it. Keys are 32 bits, as in mlx5: the
 * upper 24 bits index the MR table (plus one, so key 0 is never valid) and
 * the low 8 bits are a tag that changes each time a slot is reused, so a
 * stale key does not reach a new region. The lkey and rkey of a region are
 * the same value. Checks (key, PD, bounds, access) are O(1).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "hca/hca_int.h"

static struct ibfs_hca *mr_hca(struct ibfs_context *ctx)
{
	return ctx ? (struct ibfs_hca *)ctx->hca : NULL;
}

struct ibfs_pd *ibfs_alloc_pd(struct ibfs_context *ctx)
{
	struct ibfs_hca *h = mr_hca(ctx);
	if (!h) {
		errno = EINVAL;
		return NULL;
	}
	struct ibfs_hca_pd *pd = calloc(1, sizeof(*pd));
	if (!pd) {
		errno = ENOMEM;
		return NULL;
	}
	pd->pub.context = ctx;
	pd->pub.handle = ++h->next_pd;
	ibfs__res_add(&h->pds, &pd->res);
	return &pd->pub;
}

int ibfs_dealloc_pd(struct ibfs_pd *pub)
{
	if (!pub)
		return EINVAL;
	struct ibfs_hca_pd *pd = (struct ibfs_hca_pd *)pub;
	if (pd->refs)
		return EBUSY;
	ibfs__res_del(&pd->res);
	free(pd);
	return 0;
}

struct ibfs_mr *ibfs_reg_mr(struct ibfs_pd *pub, void *addr, size_t length,
			    int access)
{
	if (!pub || (!addr && length)) {
		errno = EINVAL;
		return NULL;
	}
	/* IBA 10.6.3.1: remote write or atomic requires local write. */
	if ((access & (IBFS_ACCESS_REMOTE_WRITE | IBFS_ACCESS_REMOTE_ATOMIC)) &&
	    !(access & IBFS_ACCESS_LOCAL_WRITE)) {
		errno = EINVAL;
		return NULL;
	}
	struct ibfs_hca *h = mr_hca(pub->context);
	uint32_t idx = 0;
	while (idx < h->nmrs && h->mrs[idx]->live)
		idx++;
	if (idx == h->nmrs) {
		if (h->nmrs == h->mrs_cap) {
			uint32_t cap = h->mrs_cap ? 2 * h->mrs_cap : 16;
			void *n = realloc(h->mrs, cap * sizeof(*h->mrs));
			if (!n) {
				errno = ENOMEM;
				return NULL;
			}
			h->mrs = n;
			h->mrs_cap = cap;
		}
		h->mrs[idx] = calloc(1, sizeof(struct ibfs_hca_mr));
		if (!h->mrs[idx]) {
			errno = ENOMEM;
			return NULL;
		}
		h->nmrs++;
	}
	struct ibfs_hca_mr *mr = h->mrs[idx];
	uint8_t tag = (uint8_t)(mr->tag + 1);
	memset(mr, 0, sizeof(*mr));
	mr->tag = tag;
	mr->live = 1;
	mr->pd = (struct ibfs_hca_pd *)pub;
	mr->pd->refs++;
	mr->access = access;
	mr->pub.context = pub->context;
	mr->pub.pd = pub;
	mr->pub.addr = addr;
	mr->pub.length = length;
	mr->pub.handle = idx;
	mr->pub.lkey = mr->pub.rkey = ((idx + 1) << 8) | tag;
	return &mr->pub;
}

int ibfs_dereg_mr(struct ibfs_mr *pub)
{
	if (!pub)
		return EINVAL;
	struct ibfs_hca_mr *mr = (struct ibfs_hca_mr *)pub;
	if (!mr->live)
		return EINVAL;
	mr->live = 0;
	mr->pd->refs--;
	return 0;
}

static void mr_free_list(struct ibfs_hca_res *head, size_t off)
{
	while (head->next != head) {
		struct ibfs_hca_res *r = head->next;
		ibfs__res_del(r);
		free((char *)r - off);
	}
}

void ibfs__mr_free_all(struct ibfs_hca *h)
{
	mr_free_list(&h->ahs, offsetof(struct ibfs_ah, res));
	mr_free_list(&h->pds, offsetof(struct ibfs_hca_pd, res));
	for (uint32_t i = 0; i < h->nmrs; i++)
		free(h->mrs[i]);
	free(h->mrs);
	h->mrs = NULL;
	h->nmrs = h->mrs_cap = 0;
}

int ibfs__mr_check(struct ibfs_hca *h, uint32_t key, struct ibfs_hca_pd *pd,
		   uint64_t va, uint64_t len, int access)
{
	uint32_t idx = key >> 8;
	if (idx == 0 || idx > h->nmrs)
		return IBFS_MR_BAD_KEY;
	struct ibfs_hca_mr *mr = h->mrs[idx - 1];
	if (!mr->live || mr->tag != (key & 0xff) || (pd && mr->pd != pd))
		return IBFS_MR_BAD_KEY;
	uint64_t start = (uint64_t)(uintptr_t)mr->pub.addr;
	if (va < start || len > mr->pub.length ||
	    va - start > mr->pub.length - len)
		return IBFS_MR_BOUNDS;
	if ((mr->access & access) != access)
		return IBFS_MR_ACCESS;
	return IBFS_MR_OK;
}

int ibfs__mr_check_sgl(struct ibfs_hca *h, struct ibfs_hca_pd *pd,
		       const struct ibfs_sge *sg, int n, int access)
{
	for (int i = 0; i < n; i++) {
		int r = ibfs__mr_check(h, sg[i].lkey, pd, sg[i].addr,
				       sg[i].length, access);
		if (r != IBFS_MR_OK)
			return r;
	}
	return IBFS_MR_OK;
}

/* Walks the scatter list from message offset off for len bytes. */
static void mr_walk(const struct ibfs_sge *sg, int n, uint32_t off,
		    uint8_t *buf, uint32_t len, int to_sgl)
{
	for (int i = 0; i < n && len; i++) {
		if (off >= sg[i].length) {
			off -= sg[i].length;
			continue;
		}
		uint32_t k = sg[i].length - off;
		if (k > len)
			k = len;
		uint8_t *mem = (uint8_t *)(uintptr_t)sg[i].addr + off;
		if (to_sgl)
			memcpy(mem, buf, k);
		else
			memcpy(buf, mem, k);
		buf += k;
		len -= k;
		off = 0;
	}
}

void ibfs__sgl_gather(const struct ibfs_sge *sg, int n, uint32_t off,
		      uint8_t *dst, uint32_t len)
{
	mr_walk(sg, n, off, dst, len, 0);
}

void ibfs__sgl_scatter(const struct ibfs_sge *sg, int n, uint32_t off,
		       const uint8_t *src, uint32_t len)
{
	mr_walk(sg, n, off, (uint8_t *)src, len, 1);
}

struct ibfs_ah *ibfs_create_ah(struct ibfs_pd *pd, struct ibfs_ah_attr *attr)
{
	/* A multicast DLID needs the GRH that names the group (IBA 8.3.1,
	 * 10.5): is_global with the MGID as DGID. */
	if (!pd || !attr || attr->sl > 15 ||
	    (attr->dlid >= IBFS_MCAST_LID_BASE && !attr->is_global)) {
		errno = EINVAL;
		return NULL;
	}
	struct ibfs_ah *ah = calloc(1, sizeof(*ah));
	if (!ah) {
		errno = ENOMEM;
		return NULL;
	}
	ah->pd = pd;
	ah->attr = *attr;
	ibfs__res_add(&((struct ibfs_hca *)pd->context->hca)->ahs, &ah->res);
	((struct ibfs_hca_pd *)pd)->refs++;
	return ah;
}

int ibfs_destroy_ah(struct ibfs_ah *ah)
{
	if (!ah)
		return EINVAL;
	((struct ibfs_hca_pd *)ah->pd)->refs--;
	ibfs__res_del(&ah->res);
	free(ah);
	return 0;
}
