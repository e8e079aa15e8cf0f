/* SPDX-License-Identifier: MIT */
/*
 * The out-of-band channel of include/ibfsim/sim.h. Real RDMA programs open
 * a TCP socket (or use rdma_cm, MPI, a file) to swap queue pair numbers,
 * LIDs and rkeys before they talk over the fabric; simulated programs
 * publish such values under a key and read them back. The exchange takes
 * no simulated time: it is set-up, not traffic.
 *
 * A key is published once. A reader that comes before the writer blocks:
 * the bridge counts it as waiting for another actor, which is running, so
 * the fabric's horizon is unaffected. Readers of a key are woken in the
 * order they arrived. A scenario publishes a few keys per connection, so a
 * 1024-HCA permutation holds thousands: keys live in a hash table (FNV-1a,
 * chained, doubled above one key a slot), not a list searched with
 * strcmp, whose cost would grow with the square of the HCAs.
 *
 * struct ibfs_bridge has one pointer for this store (b->oob), the head of a
 * list of every key, which ibfs__bridge_oob_free walks. The table hangs off
 * that list's first entry, a sentinel with the empty key (never a valid
 * one) whose data is the table.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/bridge_int.h"
#include "ibfsim/sim.h"

/* Longest key, as in the header. */
#define OOB_KEY_MAX 255

struct brg_oob_key {
	struct brg_oob_key *next;  /* every key, for ibfs__bridge_oob_free */
	struct brg_oob_key *hnext; /* the next key of its hash slot */
	uint64_t hash;
	int published;
	void *data;
	size_t len;
	struct ibfs_waiter *readers; /* blocked readers, oldest first */
	struct ibfs_waiter **readers_tail;
	char key[];
};

static int oob_key_ok(const char *key)
{
	return key && *key && strnlen(key, OOB_KEY_MAX + 1) <= OOB_KEY_MAX;
}

/* The sentinel's data: slots of chained keys. */
struct brg_oob_table {
	size_t nslots; /* a power of two */
	size_t nkeys;
	struct brg_oob_key *slot[];
};

/* First table size; doubled whenever the keys outnumber the slots. */
#define OOB_SLOTS_MIN 64

/* FNV-1a, 64 bits (Fowler, Noll and Vo; offset basis and prime as
 * published in the FNV reference, draft-eastlake-fnv). */
static uint64_t oob_hash(const char *key)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (const unsigned char *c = (const unsigned char *)key; *c; c++) {
		h ^= *c;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static struct brg_oob_table *oob_table_new(size_t nslots)
{
	struct brg_oob_table *t =
		calloc(1, sizeof(*t) + nslots * sizeof(t->slot[0]));

	if (t)
		t->nslots = nslots;
	return t;
}

/* The sentinel that holds the table, created on first use; or NULL. */
static struct brg_oob_key *oob_sentinel(struct ibfs_bridge *b)
{
	if (b->oob)
		return b->oob;
	struct brg_oob_key *s = calloc(1, sizeof(*s) + 1);

	if (!s)
		return NULL;
	s->data = oob_table_new(OOB_SLOTS_MIN);
	if (!s->data) {
		free(s);
		return NULL;
	}
	s->readers_tail = &s->readers;
	b->oob = s;
	return s;
}

/* Doubles the table (keys keep their order within a slot); on failure the
 * old table stays, only more crowded. */
static void oob_grow(struct brg_oob_key *s)
{
	struct brg_oob_table *t = s->data;
	struct brg_oob_table *n = oob_table_new(2 * t->nslots);

	if (!n)
		return;
	n->nkeys = t->nkeys;
	for (size_t i = 0; i < t->nslots; i++) {
		struct brg_oob_key *k = t->slot[i];

		while (k) {
			struct brg_oob_key *next = k->hnext;
			struct brg_oob_key **p =
				&n->slot[k->hash & (n->nslots - 1)];

			while (*p)
				p = &(*p)->hnext;
			k->hnext = NULL;
			*p = k;
			k = next;
		}
	}
	free(t);
	s->data = n;
}

/* The entry of key, created unpublished when missing; NULL when out of
 * memory. */
static struct brg_oob_key *oob_find(struct ibfs_bridge *b, const char *key)
{
	struct brg_oob_key *s = oob_sentinel(b);

	if (!s)
		return NULL;
	struct brg_oob_table *t = s->data;
	uint64_t h = oob_hash(key);
	struct brg_oob_key **p = &t->slot[h & (t->nslots - 1)];

	for (; *p; p = &(*p)->hnext)
		if ((*p)->hash == h && strcmp((*p)->key, key) == 0)
			return *p;
	size_t n = strlen(key) + 1;
	struct brg_oob_key *k = calloc(1, sizeof(*k) + n);

	if (!k)
		return NULL;
	memcpy(k->key, key, n);
	k->hash = h;
	k->readers_tail = &k->readers;
	*p = k;
	/* Every key also joins the list behind the sentinel. */
	k->next = s->next;
	s->next = k;
	if (++t->nkeys > t->nslots && t->nslots <= SIZE_MAX / 4)
		oob_grow(s);
	return k;
}

int ibfs_oob_put(const char *key, const void *buf, size_t len)
{
	struct ibfs_waiter *me = ibfs__bridge_self();

	if (!me || !oob_key_ok(key) || (len && !buf))
		return -1;
	struct brg_oob_key *k = oob_find(me->b, key);

	if (!k || k->published)
		return -1;
	/* One byte more so that an empty value still owns a buffer. */
	k->data = malloc(len + 1);
	if (!k->data)
		return -1;
	if (len)
		memcpy(k->data, buf, len);
	k->len = len;
	k->published = 1;

	/* Wake every reader; each release may let the reader run at once,
	 * so take it off the list first. */
	while (k->readers) {
		struct ibfs_waiter *r = k->readers;

		k->readers = r->oob_next;
		r->oob_next = NULL;
		ibfs__bridge_unblock(r);
	}
	k->readers_tail = &k->readers;
	return 0;
}

int ibfs_oob_get(const char *key, void *buf, size_t len)
{
	struct ibfs_waiter *me = ibfs__bridge_self();

	if (!me || !oob_key_ok(key) || (len && !buf))
		return -1;
	struct brg_oob_key *k = oob_find(me->b, key);

	if (!k)
		return -1;
	if (!k->published) {
		*k->readers_tail = me;
		k->readers_tail = &me->oob_next;
		ibfs__bridge_block(me, BRG_OOB);
		ibfs__bridge_notify(me->b);
		sg_sem_acquire(me->sem);
	}
	if (k->len != len)
		return -1;
	if (len)
		memcpy(buf, k->data, len);
	return 0;
}

void ibfs__bridge_oob_free(struct ibfs_bridge *b)
{
	while (b->oob) {
		struct brg_oob_key *k = b->oob;

		b->oob = k->next;
		free(k->data);
		free(k);
	}
}
