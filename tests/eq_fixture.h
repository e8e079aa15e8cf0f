/* SPDX-License-Identifier: MIT */
/*
 * The fixture of the event queue suites (check_event_queue.c,
 * check_event_queue_ref.c): one queue, and a log of what handlers saw, in
 * the order they ran.
 */
#ifndef IBFS_TESTS_EQ_FIXTURE_H
#define IBFS_TESTS_EQ_FIXTURE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/event_queue.h"
#include "fabric/rng.h"
#include "check_common.h"

/* What handlers saw, in the order they ran. */
struct rec {
	ibfs_time_t now;
	uint64_t arg;
};

static struct ibfs_eq q;
static struct rec *log_buf;
static size_t log_n, log_cap;

static inline void log_reset(size_t cap)
{
	free(log_buf);
	log_buf = calloc(cap, sizeof(*log_buf));
	ck_assert_ptr_nonnull(log_buf);
	log_n = 0;
	log_cap = cap;
}

static inline void on_log(void *obj, uint64_t arg)
{
	ck_assert_ptr_eq(obj, &q);
	ck_assert_uint_lt(log_n, log_cap);
	log_buf[log_n].now = q.now;
	log_buf[log_n].arg = arg;
	log_n++;
}

static inline void setup(void)
{
	ck_assert_int_eq(ibfs__eq_init(&q), 0);
	log_reset(1024);
}

static inline void teardown(void)
{
	ibfs__eq_destroy(&q);
	free(log_buf);
	log_buf = NULL;
}

/* Sorting key for the independent check of a random schedule. */
struct key {
	ibfs_time_t time;
	uint64_t arg; /* equal to the schedule order, so it is the seq */
};

static inline int key_cmp(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->arg < y->arg ? -1 : x->arg > y->arg;
}

#endif
