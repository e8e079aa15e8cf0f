/* SPDX-License-Identifier: MIT */
/*
 * The bridge's actor stacks (src/bridge/stacks.c): guard pages while the
 * run's actors fit half the process's budget of memory mappings, none
 * beyond, decided once before the first actor. Each test runs in a process
 * of its own (Check's fork mode), with SimGrid's default guard page.
 */
#include <check.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

#include "bridge/bridge.h"
#include "check_common.h"
#include "ibfsim/sim.h"

/* Three HCAs around a switch. */
static struct ibfs_topo_node nodes[] = {
	{ .id = "h0", .type = IBFS_NODE_HCA, .nports = 1 },
	{ .id = "sw", .type = IBFS_NODE_SWITCH, .nports = 8 },
	{ .id = "h1", .type = IBFS_NODE_HCA, .nports = 1 },
	{ .id = "h2", .type = IBFS_NODE_HCA, .nports = 1 },
};
static struct ibfs_topology topo = {
	.name = "stacks-test", .file = "stacks-test.xml",
	.nodes = nodes, .nnodes = 4,
};

static struct ibfs_eq eq;
static struct ibfs_bridge *br;
static struct ibfs_diag dg;

static void setup(void)
{
	static char prog[] = "check_bridge_stacks";
	static char *argv[] = { prog, NULL };
	int argc = 1;

	ibfs__bridge_init(&argc, argv);
	ck_assert_int_eq(ibfs__eq_init(&eq), 0);
	br = ibfs__bridge_new(&eq, &topo, &dg);
	ck_assert_msg(br != NULL, "bridge_new: %s", dg.msg);
}

static void teardown(void)
{
	ibfs__bridge_free(br);
	ibfs__eq_destroy(&eq);
}

/* The process's memory mappings: lines of /proc/self/maps. */
static long maps_count(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	long n = 0;
	int c;

	ck_assert_ptr_nonnull(f);
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

enum { ACTORS = 300 };
static long maps_during;
static int ran;

/* Every actor sleeps 2 ns; the counter counts while all are alive. */
static void app_idle(int argc, char **argv)
{
	ibfs_sleep(2000);
	ran++;
}

static void app_count(int argc, char **argv)
{
	ibfs_sleep(1000);
	maps_during = maps_count();
	ran++;
}

/* Runs ACTORS idle actors and the counter; returns the mappings added. */
static long run_actors(void)
{
	long before = maps_count();

	for (int i = 0; i < ACTORS; i++)
		ck_assert_int_eq(ibfs__bridge_spawn(br, nodes[2 * (i % 2)].id,
						    "idle", app_idle, 0, NULL),
				 0);
	ck_assert_int_eq(ibfs__bridge_spawn(br, "h2", "count", app_count, 0,
					    NULL),
			 0);
	ck_assert_msg(ibfs__bridge_run(br) == 0, "run: %s", dg.msg);
	ck_assert_int_eq(ran, ACTORS + 1);
	return maps_during - before;
}

/* Linux's default budget: three HCAs keep their guard pages, two mappings
 * an actor (the stack, its guard). */
START_TEST(guards_within_budget)
{
	long added = run_actors();

	ck_assert(ibfs__bridge_stacks_guarded());
	ck_assert_int_ge(added, 2 * ACTORS);
}
END_TEST

/* Exactly the actors three HCAs may have, and the fabric's: still
 * guarded. */
START_TEST(guards_at_budget)
{
	ibfs__bridge_set_guard_budget(br, 3 * 3 + 1);
	ck_assert_int_ge(run_actors(), 2 * ACTORS);
	ck_assert(ibfs__bridge_stacks_guarded());
}
END_TEST

/* Not under AddressSanitizer: see stacks_suite. */
#ifndef __SANITIZE_ADDRESS__
/* One fewer: no guard page, and the stacks add (almost) no mapping. */
START_TEST(no_guards_beyond_budget)
{
	ibfs__bridge_set_guard_budget(br, 3 * 3);
	long added = run_actors();

	ck_assert(!ibfs__bridge_stacks_guarded());
	ck_assert_int_lt(added, ACTORS / 4);
}
END_TEST

/*
 * Stacks without a guard come from calloc: after a set-up has freed a
 * block larger than a stack, glibc's raised mmap threshold would serve
 * them from the heap, cleared whole, as it would past 65,536 mapped
 * blocks (stacks.c). Once the guards are off a block of a stack's size
 * (8 MiB) is a fresh mapping again, and so are blocks past 65,536:
 * mallinfo2's hblks counts them.
 */
START_TEST(stacks_mapped_afresh)
{
	void *big = malloc(16u << 20);

	ck_assert_ptr_nonnull(big);
	((volatile char *)big)[0] = 1;
	free(big); /* glibc's threshold is now 16 MiB */
	ibfs__bridge_set_guard_budget(br, 1);
	ck_assert_int_eq(ibfs__bridge_spawn(br, "h0", "idle", app_idle, 0,
					    NULL),
			 0);
	ck_assert(!ibfs__bridge_stacks_guarded());
	size_t before = mallinfo2().hblks;
	void *stack = calloc(1, 8u << 20);

	ck_assert_ptr_nonnull(stack);
	ck_assert_uint_eq(mallinfo2().hblks, before + 1);
	free(stack);
	/* Nor is there a cap on their count (glibc's is 65,536): 66,000
	 * blocks of 1 MiB, untouched but for their headers. */
	enum { MANY = 66000 };
	void **many = malloc(MANY * sizeof(*many));

	ck_assert_ptr_nonnull(many);
	before = mallinfo2().hblks;
	for (int i = 0; i < MANY; i++)
		ck_assert_ptr_nonnull(many[i] = calloc(1, 1u << 20));
	ck_assert_uint_eq(mallinfo2().hblks, before + MANY);
	for (int i = 0; i < MANY; i++)
		free(many[i]);
	free(many);
	ck_assert_msg(ibfs__bridge_run(br) == 0, "run: %s", dg.msg);
}
END_TEST

/* Six actors an HCA (a scenario whose collectives post in four
 * streams): the budget three HCAs of three actors fit is short. */
START_TEST(host_actors_count)
{
	ibfs__bridge_set_host_actors(br, 6);
	ibfs__bridge_set_guard_budget(br, 6 * 3);
	ck_assert_int_lt(run_actors(), ACTORS / 4);
	ck_assert(!ibfs__bridge_stacks_guarded());
}
END_TEST
#endif /* __SANITIZE_ADDRESS__ */

static Suite *stacks_suite(void)
{
	Suite *s = suite_create("bridge_stacks");
	TCase *tc = tcase_create("guards");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, guards_within_budget);
	tcase_add_test(tc, guards_at_budget);
	/*
	 * These three count what glibc's allocator does; AddressSanitizer
	 * replaces it (its own mappings, no mallopt, no mallinfo2), so the
	 * sanitizer build runs the first two only.
	 */
#ifndef __SANITIZE_ADDRESS__
	tcase_add_test(tc, no_guards_beyond_budget);
	tcase_add_test(tc, stacks_mapped_afresh);
	tcase_add_test(tc, host_actors_count);
#endif
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(stacks_suite)
