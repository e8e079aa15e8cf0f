/* SPDX-License-Identifier: MIT */
/*
 * Fixed-size object pools. Events, packets and payload buffers are taken from
 * pools and given back, so a simulation in steady state allocates nothing:
 * a pool grows by whole slabs when it runs dry and never shrinks until it is
 * destroyed. get and put are O(1) pushes and pops on an intrusive free list.
 * Slabs are aligned to IBFS_POOL_LINE and objects of that size or more take
 * a multiple of it, so they start on a cache line (pool.c).
 */
#ifndef IBFS_FABRIC_POOL_H
#define IBFS_FABRIC_POOL_H

#include <stddef.h>
#include <stdint.h>

/* The cache line: 64 bytes on x86-64 (Intel and AMD optimisation manuals)
 * and on the common AArch64 cores. */
#define IBFS_POOL_LINE 64

struct ibfs_pool {
	void *free_list;     /* singly linked through the first word */
	size_t obj_size;     /* a multiple of 16, or of 64 from 64 on */
	size_t per_slab;     /* objects added each time the pool grows */
	void **slabs;        /* every slab, freed by destroy */
	size_t nslabs, slabs_cap;
	size_t in_use;       /* objects handed out and not given back (by
			      * get/put; take/give leave it alone) */
	size_t capacity;     /* objects owned by the pool */
	uint64_t grows;      /* number of slab allocations so far */
};

void ibfs__pool_init(struct ibfs_pool *p, size_t obj_size, size_t per_slab);
void ibfs__pool_destroy(struct ibfs_pool *p);
/* Adds one slab; returns 0 or -1 when memory is exhausted. */
int ibfs__pool_grow(struct ibfs_pool *p);

/* Returns an uninitialised object, or NULL when the pool is empty (it does
 * not grow: for callers that grow it out of line). */
static inline void *ibfs__pool_try_get(struct ibfs_pool *p)
{
	void *obj = p->free_list;

	if (obj) {
		p->free_list = *(void **)obj;
		p->in_use++;
	}
	return obj;
}

/* Returns an uninitialised object, or NULL when memory is exhausted. */
static inline void *ibfs__pool_get(struct ibfs_pool *p)
{
	if (!p->free_list && ibfs__pool_grow(p) < 0)
		return NULL;
	void *obj = p->free_list;
	p->free_list = *(void **)obj;
	p->in_use++;
	return obj;
}

static inline void ibfs__pool_put(struct ibfs_pool *p, void *obj)
{
	*(void **)obj = p->free_list;
	p->free_list = obj;
	p->in_use--;
}

/*
 * The free list alone, without in_use: for a pool whose owner knows how
 * many objects are out by other means and takes and gives back at a rate
 * where the count's two read-modify-writes show (the event queue: one of
 * each an event, counted by ibfs__eq_events_out instead). A pool must be
 * used through these or through get/put, not both.
 */
static inline void *ibfs__pool_take(struct ibfs_pool *p)
{
	void *obj = p->free_list;

	if (obj)
		p->free_list = *(void **)obj;
	return obj;
}

static inline void ibfs__pool_give(struct ibfs_pool *p, void *obj)
{
	*(void **)obj = p->free_list;
	p->free_list = obj;
}

/* Objects on the free list: O(free objects), for tests and statistics. */
size_t ibfs__pool_free_count(const struct ibfs_pool *p);

#endif
