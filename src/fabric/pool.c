/* SPDX-License-Identifier: MIT */
/*
 * Fixed-size object pools (see pool.h). Objects are carved from slabs of
 * per_slab objects each; a slab is never freed before the pool is destroyed,
 * so a simulation that has reached its working set stops allocating. The
 * free list is threaded through the first word of each free object.
 *
 * Slabs start on a 64-byte boundary (the cache line of x86-64 and of most
 * AArch64 cores), and objects of 64 bytes or more take a multiple of 64, so
 * each such object starts a line: a packet's first 64 bytes, which every
 * hop reads, then sit in one line instead of straddling two.
 */
#include <stdlib.h>
#include <string.h>

#include "fabric/pool.h"

/* Objects per slab when the caller passes 0: 256 objects of 64 bytes are
 * 16 KiB, four pages, which keeps the first slab of a small pool cheap. */
#define POOL_DEFAULT_PER_SLAB 256

void ibfs__pool_init(struct ibfs_pool *p, size_t obj_size, size_t per_slab)
{
	memset(p, 0, sizeof(*p));
	if (obj_size < sizeof(void *))
		obj_size = sizeof(void *);
	/* A multiple of 16 keeps every object aligned as malloc's own are;
	 * from 64 bytes on, a multiple of the cache line. */
	if (obj_size >= IBFS_POOL_LINE)
		p->obj_size = (obj_size + IBFS_POOL_LINE - 1) &
			      ~(size_t)(IBFS_POOL_LINE - 1);
	else
		p->obj_size = (obj_size + 15) & ~(size_t)15;
	p->per_slab = per_slab ? per_slab : POOL_DEFAULT_PER_SLAB;
}

void ibfs__pool_destroy(struct ibfs_pool *p)
{
	for (size_t i = 0; i < p->nslabs; i++)
		free(p->slabs[i]);
	free(p->slabs);
	size_t obj_size = p->obj_size, per_slab = p->per_slab;

	memset(p, 0, sizeof(*p));
	/* The pool stays usable, empty, as if freshly initialised. */
	p->obj_size = obj_size;
	p->per_slab = per_slab;
}

int ibfs__pool_grow(struct ibfs_pool *p)
{
	if (p->per_slab > SIZE_MAX / p->obj_size)
		return -1;
	if (p->nslabs == p->slabs_cap) {
		size_t cap = p->slabs_cap ? 2 * p->slabs_cap : 8;
		void **s = realloc(p->slabs, cap * sizeof(*s));

		if (!s)
			return -1;
		p->slabs = s;
		p->slabs_cap = cap;
	}
	/* aligned_alloc wants a size that is a multiple of the alignment. */
	size_t bytes = p->per_slab * p->obj_size;

	if (bytes > SIZE_MAX - IBFS_POOL_LINE)
		return -1;
	bytes = (bytes + IBFS_POOL_LINE - 1) & ~(size_t)(IBFS_POOL_LINE - 1);
	char *slab = aligned_alloc(IBFS_POOL_LINE, bytes);

	if (!slab)
		return -1;
	p->slabs[p->nslabs++] = slab;
	/*
	 * Thread the new objects onto the free list back to front, so that
	 * gets hand them out in address order (kinder to the cache).
	 */
	for (size_t i = p->per_slab; i-- > 0;) {
		void *obj = slab + i * p->obj_size;

		*(void **)obj = p->free_list;
		p->free_list = obj;
	}
	p->capacity += p->per_slab;
	p->grows++;
	return 0;
}

size_t ibfs__pool_free_count(const struct ibfs_pool *p)
{
	size_t n = 0;

	for (void *obj = p->free_list; obj; obj = *(void **)obj)
		n++;
	return n;
}
