/* SPDX-License-Identifier: MIT */
/*
 * Tests of the fixed-size object pools (src/fabric/pool.c): size rounding,
 * growth by whole slabs, LIFO reuse, distinct non-overlapping objects,
 * that a pool in steady use stops growing, and that objects of 64 bytes or
 * more start on a 64-byte cache line.
 */
#include <stdint.h>
#include <string.h>

#include "fabric/pool.h"
#include "check_common.h"

START_TEST(test_rounding)
{
	struct ibfs_pool p;

	/* Sizes round up to a multiple of 16, never below one pointer. */
	static const size_t in[] = { 0, 1, 8, 15, 16, 17, 32, 48, 49 };
	static const size_t out[] = { 16, 16, 16, 16, 16, 32, 32, 48, 64 };

	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		ibfs__pool_init(&p, in[i], 4);
		ck_assert_uint_eq(p.obj_size, out[i]);
		ck_assert_uint_eq(p.per_slab, 4);
		ck_assert_uint_eq(p.capacity, 0);
		ck_assert_uint_eq(p.grows, 0);
		ibfs__pool_destroy(&p);
	}
	/* per_slab 0 takes the documented default of 256. */
	ibfs__pool_init(&p, 24, 0);
	ck_assert_uint_eq(p.per_slab, 256);
	ibfs__pool_destroy(&p);
}
END_TEST

START_TEST(test_growth_and_reuse)
{
	struct ibfs_pool p;
	void *objs[10];

	ibfs__pool_init(&p, 40, 4);
	for (int i = 0; i < 10; i++) {
		objs[i] = ibfs__pool_get(&p);
		ck_assert_ptr_nonnull(objs[i]);
		ck_assert_uint_eq((uintptr_t)objs[i] % 16, 0);
		ck_assert_uint_eq(p.in_use, (size_t)i + 1);
		/* Slabs of 4: 1..4 need one slab, 5..8 two, 9..10 three. */
		ck_assert_uint_eq(p.grows, (uint64_t)(i / 4 + 1));
		ck_assert_uint_eq(p.capacity, 4 * (size_t)(i / 4 + 1));
	}
	ck_assert_uint_eq(p.nslabs, 3);
	/* Inside a slab, objects are handed out in address order. */
	ck_assert_ptr_eq((char *)objs[1], (char *)objs[0] + 48);
	ck_assert_ptr_eq((char *)objs[3], (char *)objs[0] + 3 * 48);

	/* Fill every object with its own pattern; none may overlap. */
	for (int i = 0; i < 10; i++)
		memset(objs[i], 0xa0 + i, 40);
	for (int i = 0; i < 10; i++) {
		unsigned char *b = objs[i];

		for (int k = 0; k < 40; k++)
			ck_assert_uint_eq(b[k], 0xa0 + i);
	}

	/* Put is LIFO: the last object given back is the next handed out. */
	ibfs__pool_put(&p, objs[6]);
	ibfs__pool_put(&p, objs[2]);
	ck_assert_uint_eq(p.in_use, 8);
	ck_assert_ptr_eq(ibfs__pool_get(&p), objs[2]);
	ck_assert_ptr_eq(ibfs__pool_get(&p), objs[6]);
	ck_assert_uint_eq(p.grows, 3);

	/* The two spare objects of the third slab come before a new slab. */
	ck_assert_ptr_nonnull(ibfs__pool_get(&p));
	ck_assert_ptr_nonnull(ibfs__pool_get(&p));
	ck_assert_uint_eq(p.grows, 3);
	ck_assert_ptr_nonnull(ibfs__pool_get(&p));
	ck_assert_uint_eq(p.grows, 4);
	ck_assert_uint_eq(p.capacity, 16);
	ck_assert_uint_eq(p.in_use, 13);
	ibfs__pool_destroy(&p);
	ck_assert_uint_eq(p.capacity, 0);
	ck_assert_uint_eq(p.in_use, 0);
	ck_assert_ptr_null(p.free_list);
}
END_TEST

START_TEST(test_steady_state)
{
	struct ibfs_pool p;
	void *held[100];

	ibfs__pool_init(&p, 64, 32);
	for (int i = 0; i < 100; i++)
		held[i] = ibfs__pool_get(&p);
	/* 100 objects need ceil(100 / 32) = 4 slabs. */
	ck_assert_uint_eq(p.grows, 4);
	/* A million get/put pairs with 100 held never grow the pool. */
	for (int round = 0; round < 1000000; round++) {
		int i = round % 100;

		ibfs__pool_put(&p, held[i]);
		held[i] = ibfs__pool_get(&p);
	}
	ck_assert_uint_eq(p.grows, 4);
	ck_assert_uint_eq(p.capacity, 128);
	ck_assert_uint_eq(p.in_use, 100);
	for (int i = 0; i < 100; i++)
		ibfs__pool_put(&p, held[i]);
	ck_assert_uint_eq(p.in_use, 0);
	ibfs__pool_destroy(&p);
}
END_TEST

START_TEST(test_reinit_after_destroy)
{
	struct ibfs_pool p;

	ibfs__pool_init(&p, 16, 2);
	ck_assert_ptr_nonnull(ibfs__pool_get(&p));
	ibfs__pool_destroy(&p);
	/* A destroyed pool is empty but usable with its old object size. */
	ck_assert_uint_eq(p.obj_size, 16);
	void *o = ibfs__pool_get(&p);

	ck_assert_ptr_nonnull(o);
	ck_assert_uint_eq(p.grows, 1);
	ck_assert_uint_eq(p.capacity, 2);
	ibfs__pool_destroy(&p);
}
END_TEST

/*
 * Objects of 64 bytes or more round up to a multiple of 64 and every one
 * starts on a 64-byte boundary; smaller ones keep the multiple of 16, in a
 * slab that itself starts a line.
 */
START_TEST(test_line_alignment)
{
	static const size_t in[] = { 64, 65, 127, 128, 129, 208, 4096 };
	static const size_t out[] = { 64, 128, 128, 128, 192, 256, 4096 };

	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		struct ibfs_pool p;

		ibfs__pool_init(&p, in[i], 3);
		ck_assert_uint_eq(p.obj_size, out[i]);
		/* Three slabs of three: every object on a line boundary, and
		 * its last byte writable (ASan checks the slab's extent). */
		for (int k = 0; k < 9; k++) {
			unsigned char *o = ibfs__pool_get(&p);

			ck_assert_ptr_nonnull(o);
			ck_assert_uint_eq((uintptr_t)o % 64, 0);
			memset(o, 0xa5, in[i]);
		}
		ck_assert_uint_eq(p.grows, 3);
		ibfs__pool_destroy(&p);
	}
	/* 48-byte objects: 16-byte multiples; the slab's first one starts
	 * a line, so objects 0, 4, 8, ... of each slab do too. */
	struct ibfs_pool p;

	ibfs__pool_init(&p, 48, 5);
	unsigned char *first = ibfs__pool_get(&p);

	ck_assert_uint_eq(p.obj_size, 48);
	ck_assert_uint_eq((uintptr_t)first % 64, 0);
	for (int k = 1; k < 5; k++) {
		unsigned char *o = ibfs__pool_get(&p);

		ck_assert_ptr_eq(o, first + 48 * k);
	}
	ibfs__pool_destroy(&p);
}
END_TEST

/*
 * take/give: the free list without in_use (the event queue's use). take
 * returns NULL when the list is empty instead of growing; objects come
 * back last in, first out; ibfs__pool_free_count counts the list.
 */
START_TEST(test_take_give)
{
	struct ibfs_pool p;

	ibfs__pool_init(&p, 64, 3);
	ck_assert_ptr_null(ibfs__pool_take(&p));
	ck_assert_int_eq(ibfs__pool_grow(&p), 0);
	ck_assert_uint_eq(ibfs__pool_free_count(&p), 3);

	void *a = ibfs__pool_take(&p), *b = ibfs__pool_take(&p);
	void *c = ibfs__pool_take(&p);

	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_null(ibfs__pool_take(&p));
	ck_assert_uint_eq(ibfs__pool_free_count(&p), 0);
	ck_assert_uint_eq(p.in_use, 0);
	ibfs__pool_give(&p, b);
	ibfs__pool_give(&p, a);
	ck_assert_uint_eq(ibfs__pool_free_count(&p), 2);
	ck_assert_ptr_eq(ibfs__pool_take(&p), a);
	ck_assert_ptr_eq(ibfs__pool_take(&p), b);
	ck_assert_uint_eq(p.capacity, 3);
	ibfs__pool_destroy(&p);
}
END_TEST

static Suite *pool_suite(void)
{
	Suite *s = suite_create("pool");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, test_rounding);
	tcase_add_test(tc, test_growth_and_reuse);
	tcase_add_test(tc, test_steady_state);
	tcase_add_test(tc, test_reinit_after_destroy);
	tcase_add_test(tc, test_line_alignment);
	tcase_add_test(tc, test_take_give);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(pool_suite)
