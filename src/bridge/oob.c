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
 * order they arrived. Keys are few (a handful per connection), so a list
 * searched linearly is enough.
 */
#include <stdlib.h>
#include <string.h>

#include "bridge/bridge_int.h"
#include "ibfsim/sim.h"

/* Longest key, as in the header. */
#define OOB_KEY_MAX 255

struct brg_oob_key {
	struct brg_oob_key *next;
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

/* The entry of key, created unpublished when missing; NULL when out of
 * memory. */
static struct brg_oob_key *oob_find(struct ibfs_bridge *b, const char *key)
{
	struct brg_oob_key **p = &b->oob;

	for (; *p; p = &(*p)->next)
		if (strcmp((*p)->key, key) == 0)
			return *p;
	size_t n = strlen(key) + 1;
	struct brg_oob_key *k = calloc(1, sizeof(*k) + n);

	if (!k)
		return NULL;
	memcpy(k->key, key, n);
	k->readers_tail = &k->readers;
	*p = k;
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
