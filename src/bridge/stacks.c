/* SPDX-License-Identifier: MIT */
/*
 * Actor stacks and the process's memory mappings.
 *
 * SimGrid (3.32, raw and ucontext contexts) allocates each actor's stack
 * with the guard page its option contexts/guard-size asks for (one page
 * by default) below it, made inaccessible with mprotect: the stack and
 * its guard are then two memory mappings of their own, where stacks
 * without a guard are anonymous memory that Linux merges with its
 * neighbours (as /proc/self/maps shows: each guarded actor adds two
 * mappings, an unguarded one none). Linux refuses a process more than
 * vm.max_map_count mappings (65,530 by default), and SimGrid then aborts
 * ("Failed to protect stack: Cannot allocate memory"): a scenario with
 * two traffic actors an HCA would on a fat tree of 27,648 HCAs.
 *
 * SimGrid reads the option again to free a stack, so it must not change
 * while actors exist (turned off half-way, SimGrid crashes at the end).
 * It is therefore set once, before the first actor: guard pages
 * stay when the actors such a run has, up to three an HCA (a poster, a
 * completer and a collective's poster in a scenario; a scenario whose
 * collectives post in several streams, as the double tree's four, says
 * how many with ibfs__bridge_set_host_actors) and the fabric's, take at
 * most half the budget with theirs (max_map_count / 4 guarded actors:
 * 5,460 HCAs at three and Linux's default), and are turned off otherwise.
 * Without them a run's results are the same; only a stack overflow
 * would no longer be reported by SimGrid (the stacks keep SimGrid's
 * default size, 8 MiB). A user's --cfg=contexts/guard-size:0 stays.
 */
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <xbt/config.h>

#include "bridge/bridge_int.h"

#define BRG_GUARD_OPTION "contexts/guard-size"
/* Linux's default vm.max_map_count (DEFAULT_MAX_MAP_COUNT). */
#define BRG_MAP_COUNT_DEFAULT 65530

static size_t brg_max_map_count(void)
{
	FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
	unsigned long n = 0;

	if (f) {
		if (fscanf(f, "%lu", &n) != 1)
			n = 0;
		fclose(f);
	}
	return n ? (size_t)n : BRG_MAP_COUNT_DEFAULT;
}

/*
 * Without a guard, SimGrid takes a stack from calloc, which clears it
 * unless the block is a fresh mapping (known to be zero). Glibc maps a
 * block afresh only above its mmap threshold, which rises to the largest
 * mapped block freed so far (up to 32 MiB on 64-bit): once a set-up had
 * freed a block larger than a stack, every later stack came from the heap
 * and was cleared whole, 8 MiB each (a fat tree of 43,904 HCAs, 87,808
 * actors, filled the 24 GiB of the machine and was killed; gdb showed
 * calloc's memset under SwappedContext's constructor); and glibc maps
 * at most 65,536 blocks at a time (M_MMAP_MAX), so that even without a
 * raised threshold the actors past the 65,536th were cleared. A fixed
 * threshold of 1 MiB and no limit on the count keep every stack in a
 * fresh mapping, whose pages are touched only where the stack is used,
 * and which Linux merges with its neighbours.
 */
static void brg_stacks_fresh(void)
{
#if defined(M_MMAP_THRESHOLD) && defined(M_MMAP_MAX)
	mallopt(M_MMAP_THRESHOLD, 1 << 20);
	mallopt(M_MMAP_MAX, INT_MAX);
#endif
}

void ibfs__brg_stacks_init(struct ibfs_bridge *b)
{
	b->guard_budget = brg_max_map_count() / 4;
	b->host_actors = 3;
	b->guard_set = 0;
}

void ibfs__bridge_set_guard_budget(struct ibfs_bridge *b, size_t actors)
{
	b->guard_budget = actors;
}

void ibfs__bridge_set_host_actors(struct ibfs_bridge *b, size_t n)
{
	b->host_actors = n;
}

int ibfs__bridge_stacks_guarded(void)
{
	return sg_cfg_get_int(BRG_GUARD_OPTION) > 0;
}

void ibfs__brg_stacks_before_actor(struct ibfs_bridge *b)
{
	if (b->guard_set)
		return;
	b->guard_set = 1;
	if (b->host_actors * b->nhosts + 1 > b->guard_budget &&
	    sg_cfg_get_int(BRG_GUARD_OPTION) > 0) {
		sg_cfg_set_int(BRG_GUARD_OPTION, 0);
		brg_stacks_fresh();
	}
}
