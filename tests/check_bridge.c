/* SPDX-License-Identifier: MIT */
/*
 * The SimGrid bridge (src/bridge): application actors post to a fake device
 * that schedules fabric events and wakes them through exec.wake_at; each
 * test computes the picosecond every completion must be seen at from the
 * delays it chose, and compares it exactly with ibfs_now(). The fake device
 * keeps the bridge independent of the switch and HCA models.
 *
 * SimGrid runs once per process, and Check forks every test, so every test
 * starts its own simulation (the determinism test forks two more).
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <simgrid/actor.h>

#include "bridge/bridge.h"
#include "check_common.h"
#include "ibfsim/sim.h"

/* A fabric of three HCAs around a switch: node indices 0, 2 and 3. */
static struct ibfs_topo_node nodes[] = {
	{ .id = "h0", .type = IBFS_NODE_HCA, .nports = 1 },
	{ .id = "sw", .type = IBFS_NODE_SWITCH, .nports = 8 },
	{ .id = "h1", .type = IBFS_NODE_HCA, .nports = 1 },
	{ .id = "h&2", .type = IBFS_NODE_HCA, .nports = 1 },
};
static struct ibfs_topology topo = {
	.name = "bridge-test", .file = "bridge-test.xml",
	.nodes = nodes, .nnodes = 4,
};

static struct ibfs_eq eq;
static struct ibfs_bridge *br;
static struct ibfs_exec ex;
static struct ibfs_diag dg;

static void sim_init(void)
{
	static char prog[] = "check_bridge";
	static char *argv[] = { prog, NULL };
	int argc = 1;

	ibfs__bridge_init(&argc, argv);
}

static void setup(void)
{
	sim_init();
	ck_assert_int_eq(ibfs__eq_init(&eq), 0);
	br = ibfs__bridge_new(&eq, &topo, &dg);
	ck_assert_msg(br != NULL, "bridge_new: %s", dg.msg);
	ex = ibfs__bridge_exec(br);
}

static void teardown(void)
{
	ibfs__bridge_free(br);
	ibfs__eq_destroy(&eq);
}

static void spawn(const char *hca, const char *name, void (*fn)(int, char **))
{
	ck_assert_msg(ibfs__bridge_spawn(br, hca, name, fn, 0, NULL) == 0,
		      "spawn: %s", dg.msg);
}

/* Runs the simulation and checks the fabric never ran ahead of an actor. */
static struct ibfs_bridge_stats run_ok(void)
{
	struct ibfs_bridge_stats st;

	ck_assert_msg(ibfs__bridge_run(br) == 0, "run: %s", dg.msg);
	ibfs__bridge_stats(br, &st);
	ck_assert_uint_eq(st.early_entries, 0);
	ck_assert_uint_eq(st.late_events, 0);
	return st;
}

/* The fake device. An event's obj is the waiter to wake. */

static void fake_complete(void *obj, uint64_t arg)
{
	ex.ops->wake_at(ex.ctx, obj, eq.now);
}

/* A chain: arg counts the hops left, each `chain_step` ps long. */
static ibfs_time_t chain_step;

static void fake_chain(void *obj, uint64_t arg)
{
	if (arg == 0)
		ex.ops->wake_at(ex.ctx, obj, eq.now);
	else
		ibfs__eq_after(&eq, chain_step, fake_chain, obj, arg - 1);
}

/* Posts one request completing after `delay` ps and waits for it. */
static ibfs_time_t post_wait(ibfs_event_fn fn, ibfs_time_t delay,
			     uint64_t arg)
{
	struct ibfs_waiter *w = ex.ops->waiter_get(ex.ctx);

	ex.ops->enter(ex.ctx);
	ibfs__eq_after(&eq, delay, fn, w, arg);
	ex.ops->leave(ex.ctx);
	ex.ops->wait(ex.ctx, w);
	return ibfs_now();
}

/* Results written by actors, checked after the run. */
static ibfs_time_t seen[64];
static int nseen;
static char log_buf[4096];
static size_t log_len;

static void log_line(const char *who, ibfs_time_t t)
{
	log_len += (size_t)snprintf(log_buf + log_len,
				    sizeof(log_buf) - log_len, "%s %llu\n",
				    who, (unsigned long long)t);
}

/* One actor, one request at a time, delays of 1 ps to 1 s + 1 ps. */

static const ibfs_time_t delays[] = { 1, 999, 1500, IBFS_S + 1 };

static void app_delays(int argc, char **argv)
{
	for (size_t i = 0; i < sizeof(delays) / sizeof(delays[0]); i++)
		seen[nseen++] = post_wait(fake_complete, delays[i], 0);
}

START_TEST(single_post_exact)
{
	spawn("h0", "app", app_delays);
	run_ok();
	ck_assert_int_eq(nseen, 4);
	/* Each request starts when the previous one completed. */
	ck_assert_uint_eq(seen[0], 1);
	ck_assert_uint_eq(seen[1], 1 + 999);
	ck_assert_uint_eq(seen[2], 1 + 999 + 1500);
	ck_assert_uint_eq(seen[3], 1 + 999 + 1500 + 1000000000001ULL);
}
END_TEST

/*
 * Past 2^13 s the spacing of SimGrid's double clock exceeds 1 ps: a
 * completion must still be seen at its exact picosecond.
 */

static void app_far(int argc, char **argv)
{
	seen[nseen++] = post_wait(fake_complete, 10000 * IBFS_S + 1, 0);
	seen[nseen++] = post_wait(fake_complete, 1, 0);
	seen[nseen++] = post_wait(fake_complete, 3, 0);
}

START_TEST(far_future_exact)
{
	spawn("h0", "app", app_far);
	run_ok();
	ck_assert_int_eq(nseen, 3);
	ck_assert_uint_eq(seen[0], 10000000000000001ULL);
	ck_assert_uint_eq(seen[1], 10000000000000002ULL);
	ck_assert_uint_eq(seen[2], 10000000000000005ULL);
}
END_TEST

/* A request that completes through three chained events. */

static ibfs_time_t hop[3] = { 1, 999, 1500 };

static void fake_hop(void *obj, uint64_t arg)
{
	if (arg == 2)
		ex.ops->wake_at(ex.ctx, obj, eq.now);
	else
		ibfs__eq_after(&eq, hop[arg + 1], fake_hop, obj, arg + 1);
}

static void app_chain(int argc, char **argv)
{
	for (int i = 0; i < 3; i++)
		seen[nseen++] = post_wait(fake_hop, hop[0], 0);
}

START_TEST(chained_completions)
{
	spawn("h0", "app", app_chain);
	run_ok();
	ck_assert_int_eq(nseen, 3);
	for (int i = 0; i < 3; i++)
		ck_assert_uint_eq(seen[i], (ibfs_time_t)(i + 1) * 2500);
	ck_assert_uint_eq(eq.executed, 9);
}
END_TEST

/* Two actors on two hosts, 300 ps and 500 ps requests, five each. */

static void app_every(const char *who, ibfs_time_t d)
{
	for (int i = 0; i < 5; i++)
		log_line(who, post_wait(fake_complete, d, 0));
}

static void app_a300(int argc, char **argv)
{
	app_every("A", 300);
}

static void app_b500(int argc, char **argv)
{
	app_every("B", 500);
}

START_TEST(two_hosts_interleave)
{
	spawn("h0", "a", app_a300);
	spawn("h1", "b", app_b500);
	run_ok();
	/*
	 * A completes at 300 k, B at 500 k. At 1500 ps both complete: B's
	 * event was scheduled at 1000 ps, before A's (at 1200 ps), so it runs
	 * first, its wake is delivered first and B logs first.
	 */
	ck_assert_str_eq(log_buf, "A 300\nB 500\nA 600\nA 900\nB 1000\n"
				  "A 1200\nB 1500\nA 1500\nB 2000\nB 2500\n");
}
END_TEST

/*
 * A ticking device: an event every 1000 ps from 0 to 99 000 ps counts
 * ticks. An actor sleeps 10 000 ps and then posts: at its post exactly 11
 * ticks (0, 1000, ..., 10 000) may have run. Had the fabric run ahead
 * while the actor slept, more ticks would have run and the fabric's clock
 * would be past the actor's.
 */

static uint64_t ticks;
static uint64_t ticks_at_post, ticks_at_done;
static ibfs_time_t fabric_at_post;

static void fake_tick(void *obj, uint64_t arg)
{
	ticks++;
	if (arg < 99)
		ibfs__eq_after(&eq, 1000, fake_tick, NULL, arg + 1);
}

static void app_sleep_post(int argc, char **argv)
{
	ck_assert_int_eq(ibfs_sleep(10000), 0);
	seen[nseen++] = ibfs_now();
	struct ibfs_waiter *w = ex.ops->waiter_get(ex.ctx);

	ex.ops->enter(ex.ctx);
	fabric_at_post = eq.now;
	ticks_at_post = ticks;
	ibfs__eq_after(&eq, 1500, fake_complete, w, 0);
	ex.ops->leave(ex.ctx);
	ex.ops->wait(ex.ctx, w);
	ticks_at_done = ticks;
	seen[nseen++] = ibfs_now();
}

START_TEST(sleep_then_post)
{
	ibfs__eq_schedule(&eq, 0, fake_tick, NULL, 0);
	spawn("h0", "app", app_sleep_post);
	run_ok();
	ck_assert_uint_eq(seen[0], 10000);
	ck_assert_uint_eq(fabric_at_post, 10000);
	ck_assert_uint_eq(ticks_at_post, 11);
	ck_assert_uint_eq(seen[1], 11500);
	ck_assert_uint_eq(ticks_at_done, 12); /* up to 11 000 ps */
}
END_TEST

/*
 * The same device against an actor the bridge cannot see: it sleeps
 * through SimGrid directly (as a computation would), so the fabric must
 * hold at the actor's clock.
 */

static void app_raw_sleep(int argc, char **argv)
{
	sg_actor_sleep_for(5e-9);
	struct ibfs_waiter *w = ex.ops->waiter_get(ex.ctx);

	ex.ops->enter(ex.ctx);
	fabric_at_post = eq.now;
	ticks_at_post = ticks;
	ibfs__eq_after(&eq, 1, fake_complete, w, 0);
	ex.ops->leave(ex.ctx);
	ex.ops->wait(ex.ctx, w);
	seen[nseen++] = ibfs_now();
}

START_TEST(invisible_actor_holds_fabric)
{
	ibfs__eq_schedule(&eq, 0, fake_tick, NULL, 0);
	spawn("h1", "app", app_raw_sleep);
	run_ok();
	ck_assert_uint_eq(fabric_at_post, 5000);
	/*
	 * Ticks at 0..4000 ps have run; the one at 5000 ps is simultaneous
	 * with the post and may come either side of it (SimGrid's order of
	 * two timers at one date), but no later tick may have run.
	 */
	ck_assert_uint_ge(ticks_at_post, 5);
	ck_assert_uint_le(ticks_at_post, 6);
	ck_assert_uint_eq(seen[0], 5001);
}
END_TEST

/*
 * A completion delivered before the actor waits is kept: the actor posts
 * a 100 ps request, sleeps 1000 ps, and its wait returns at once.
 */

static void app_early_token(int argc, char **argv)
{
	struct ibfs_waiter *w = ex.ops->waiter_get(ex.ctx);

	ex.ops->enter(ex.ctx);
	ibfs__eq_after(&eq, 100, fake_complete, w, 0);
	ex.ops->leave(ex.ctx);
	ck_assert_int_eq(ibfs_sleep(1000), 0);
	ex.ops->wait(ex.ctx, w);
	seen[nseen++] = ibfs_now();
	/* The next wait blocks again until its own completion. */
	seen[nseen++] = post_wait(fake_complete, 7, 0);
}

START_TEST(completion_before_wait)
{
	spawn("h0", "app", app_early_token);
	run_ok();
	ck_assert_uint_eq(seen[0], 1000);
	ck_assert_uint_eq(seen[1], 1007);
}
END_TEST

/*
 * Eight actors register with a device whose single event at 5000 ps wakes
 * them in the reverse of their registration order: they must all see
 * 5000 ps and run in the order of the wake_at calls.
 */

#define NSAME 8
static struct ibfs_waiter *registered[NSAME];
static int nregistered;

static void fake_wake_all_reversed(void *obj, uint64_t arg)
{
	for (int i = nregistered - 1; i >= 0; i--)
		ex.ops->wake_at(ex.ctx, registered[i], eq.now);
}

static void app_same_ps(int argc, char **argv)
{
	struct ibfs_waiter *w = ex.ops->waiter_get(ex.ctx);

	ex.ops->enter(ex.ctx);
	registered[nregistered++] = w;
	if (nregistered == NSAME)
		ibfs__eq_schedule(&eq, 5000, fake_wake_all_reversed, NULL, 0);
	ex.ops->leave(ex.ctx);
	ex.ops->wait(ex.ctx, w);
	log_line(sg_actor_self_get_name(), ibfs_now());
}

START_TEST(same_ps_order)
{
	static const char *hosts[] = { "h0", "h1", "h&2" };
	char name[8];

	for (int i = 0; i < NSAME; i++) {
		snprintf(name, sizeof(name), "a%d", i);
		spawn(hosts[i % 3], name, app_same_ps);
	}
	struct ibfs_bridge_stats st = run_ok();

	ck_assert_str_eq(log_buf, "a7 5000\na6 5000\na5 5000\na4 5000\n"
				  "a3 5000\na2 5000\na1 5000\na0 5000\n");
	ck_assert_uint_eq(st.deliveries, NSAME);
}
END_TEST

/* Node indices seen from actors, and spawn's errors. */

static int node_of[3];

static void app_node(int argc, char **argv)
{
	node_of[argv[1][0] - '0'] = ibfs__bridge_current_node();
}

START_TEST(current_node)
{
	static char p[] = "app", s0[] = "0", s1[] = "1", s2[] = "2";
	char *a0[] = { p, s0, NULL }, *a1[] = { p, s1, NULL },
	     *a2[] = { p, s2, NULL };

	ck_assert_int_eq(ibfs__bridge_current_node(), -1);
	ck_assert_int_eq(ibfs__bridge_spawn(br, "h0", "x", app_node, 2, a0),
			 0);
	ck_assert_int_eq(ibfs__bridge_spawn(br, "h1", "y", app_node, 2, a1),
			 0);
	ck_assert_int_eq(ibfs__bridge_spawn(br, "h&2", "z", app_node, 2, a2),
			 0);
	ck_assert_int_eq(ibfs__bridge_spawn(br, "sw", "s", app_node, 2, a0),
			 -1);
	ck_assert_str_eq(dg.msg, "bridge-test.xml: no HCA named 'sw' to run "
				 "'s' on");
	ck_assert_int_eq(ibfs__bridge_spawn(br, "nope", "n", app_node, 2, a0),
			 -1);
	ck_assert_str_eq(dg.msg, "bridge-test.xml: no HCA named 'nope' to "
				 "run 'n' on");
	run_ok();
	ck_assert_int_eq(node_of[0], 0);
	ck_assert_int_eq(node_of[1], 2);
	ck_assert_int_eq(node_of[2], 3);
	ck_assert_int_eq(ibfs__bridge_current_node(), -1);
}
END_TEST

/*
 * An actor started during the run, from another actor, at 2000 ps: it
 * runs on its own host from that time and its requests complete exactly.
 */

static int child_node = -9;
static int sleep_errs[2] = { -9, -9 };

static void app_child(int argc, char **argv)
{
	child_node = ibfs__bridge_current_node();
	seen[nseen++] = ibfs_now();
	seen[nseen++] = post_wait(fake_complete, 333, 0);
}

static void app_parent(int argc, char **argv)
{
	/* A zero sleep returns at once; one past the end of time fails. */
	sleep_errs[0] = ibfs_sleep(0);
	sleep_errs[1] = ibfs_sleep(UINT64_MAX);
	ck_assert_int_eq(ibfs_sleep(2000), 0);
	ck_assert_int_eq(ibfs__bridge_spawn(br, "h&2", "child", app_child, 0,
					    NULL), 0);
	seen[nseen++] = post_wait(fake_complete, 1000, 0);
}

START_TEST(spawn_during_run)
{
	spawn("h0", "parent", app_parent);
	run_ok();
	ck_assert_int_eq(sleep_errs[0], 0);
	ck_assert_int_eq(sleep_errs[1], -1);
	ck_assert_int_eq(child_node, 3);
	ck_assert_int_eq(nseen, 3);
	/* The child starts at 2000 ps and completes at 2333 ps, before the
	 * parent's request (2000 + 1000 ps). */
	ck_assert_uint_eq(seen[0], 2000);
	ck_assert_uint_eq(seen[1], 2333);
	ck_assert_uint_eq(seen[2], 3000);
}
END_TEST

/* Out-of-band exchange: the reader comes first and blocks. */

static const uint8_t qp_info[8] = { 0x00, 0x12, 0x34, 0xff, 0x80, 0x01,
				    0x7e, 0x00 };
static uint8_t got[8];
static int get_rc = -2, oob_errs[8];

static void app_reader(int argc, char **argv)
{
	memset(got, 0xaa, sizeof(got));
	get_rc = ibfs_oob_get("qpn", got, sizeof(got));
	seen[nseen++] = ibfs_now();
	/* A published value of another length is refused, nothing copied. */
	uint8_t small[4] = { 1, 2, 3, 4 };

	oob_errs[0] = ibfs_oob_get("qpn", small, sizeof(small));
	ck_assert_int_eq(small[0], 1);
	/* Published already, read again: no block, same bytes. */
	uint8_t again[8];

	oob_errs[1] = ibfs_oob_get("qpn", again, sizeof(again));
	ck_assert_mem_eq(again, qp_info, 8);
	seen[nseen++] = ibfs_now();
}

static void app_writer(int argc, char **argv)
{
	char longkey[300];

	memset(longkey, 'k', sizeof(longkey) - 1);
	longkey[sizeof(longkey) - 1] = '\0';
	ck_assert_int_eq(ibfs_sleep(700), 0);
	ck_assert_int_eq(ibfs_oob_put("qpn", qp_info, sizeof(qp_info)), 0);
	oob_errs[2] = ibfs_oob_put("qpn", qp_info, sizeof(qp_info));
	oob_errs[3] = ibfs_oob_put("", qp_info, 1);
	oob_errs[4] = ibfs_oob_put(longkey, qp_info, 1);
	oob_errs[5] = ibfs_oob_put(NULL, qp_info, 1);
	oob_errs[6] = ibfs_oob_get(longkey, got, 1);
	/* An empty value is a value. */
	ck_assert_int_eq(ibfs_oob_put("empty", NULL, 0), 0);
	oob_errs[7] = ibfs_oob_get("empty", NULL, 0);
}

START_TEST(oob_get_blocks_until_put)
{
	ck_assert_int_eq(ibfs_oob_put("x", "y", 1), -1);
	ck_assert_int_eq(ibfs_oob_get("x", got, 1), -1);
	spawn("h0", "reader", app_reader);
	spawn("h1", "writer", app_writer);
	run_ok();
	ck_assert_int_eq(get_rc, 0);
	ck_assert_mem_eq(got, qp_info, sizeof(qp_info));
	ck_assert_uint_eq(seen[0], 700);
	ck_assert_uint_eq(seen[1], 700);
	ck_assert_int_eq(oob_errs[0], -1);
	ck_assert_int_eq(oob_errs[1], 0);
	for (int i = 2; i <= 6; i++)
		ck_assert_int_eq(oob_errs[i], -1);
	ck_assert_int_eq(oob_errs[7], 0);
}
END_TEST

/* Deadlocks end the run with a message, not a hang. */

static void app_wait_forever(int argc, char **argv)
{
	ex.ops->wait(ex.ctx, ex.ops->waiter_get(ex.ctx));
}

static void app_get_forever(int argc, char **argv)
{
	ibfs_sleep(42);
	ibfs_oob_get("never", got, 1);
}

START_TEST(deadlock_reported)
{
	spawn("h0", "w", app_wait_forever);
	spawn("h1", "g", app_get_forever);
	ck_assert_int_eq(ibfs__bridge_run(br), -1);
	ck_assert_str_eq(dg.msg, "deadlock at 42 ps: 2 application actor(s) "
				 "wait for a completion or an out-of-band "
				 "key that never comes");
}
END_TEST

/* Errors outside a simulation. */

START_TEST(bad_setup)
{
	struct ibfs_topology none = { .name = "empty", .file = "e.xml",
				      .nodes = nodes + 1, .nnodes = 1 };

	ck_assert_ptr_null(ibfs__bridge_new(&eq, &topo, &dg));
	ck_assert_str_eq(dg.msg,
			 "SimGrid is not initialised (ibfs__bridge_init)");
	ck_assert_int_eq(ibfs_sleep(5), -1);
	ck_assert_uint_eq(ibfs_now(), 0);
	sim_init();
	ck_assert_int_eq(ibfs__eq_init(&eq), 0);
	ck_assert_ptr_null(ibfs__bridge_new(&eq, &none, &dg));
	ck_assert_str_eq(dg.msg,
			 "e.xml: the fabric has no HCA to run applications on");
	br = ibfs__bridge_new(&eq, &topo, &dg);
	ck_assert_ptr_nonnull(br);
	ck_assert_ptr_null(ibfs__bridge_new(&eq, &topo, &dg));
	ck_assert_str_eq(dg.msg, "one SimGrid simulation per process: a "
				 "bridge was created already");
	ck_assert_int_eq(ibfs_sleep(5), -1);
	ck_assert_int_eq(ibfs__bridge_run(br), 0);
	teardown();
}
END_TEST

/*
 * Run-ahead: each request completes after a chain of 100 000 events 10 ps
 * apart. The fabric should run each chain in its own loop, yielding a few
 * times per request, not once per event.
 */

#define CHAIN_HOPS 100000

static void app_busy(int argc, char **argv)
{
	for (int i = 0; i < 10; i++)
		seen[nseen++] = post_wait(fake_chain, 10, CHAIN_HOPS - 1);
}

START_TEST(run_ahead)
{
	chain_step = 10;
	spawn("h0", "busy", app_busy);
	struct ibfs_bridge_stats st = run_ok();

	for (int i = 0; i < 10; i++)
		ck_assert_uint_eq(seen[i],
				  (ibfs_time_t)(i + 1) * CHAIN_HOPS * 10);
	ck_assert_uint_eq(st.events, 10 * CHAIN_HOPS);
	ck_assert_uint_le(st.yields, 10 * 4);
	fprintf(stderr, "run-ahead: %llu events, %llu yields\n",
		(unsigned long long)st.events,
		(unsigned long long)st.yields);
}
END_TEST

/*
 * Determinism: three actors post requests with pseudo-random delays and
 * sleeps (each its own LCG stream); two runs in two processes must log the
 * same lines, and each actor's times must be the sums of its own delays.
 */

static uint64_t lcg_next(uint64_t *s)
{
	/* Knuth's MMIX multiplier and increment. */
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

static void app_random(int argc, char **argv)
{
	uint64_t s = (uint64_t)(argv[1][0] - '0') + 1;
	ibfs_time_t expect = 0;

	for (int i = 0; i < 12; i++) {
		ibfs_time_t d = lcg_next(&s) % 3000 + 1;

		if (lcg_next(&s) % 3 == 0) {
			ibfs_sleep(d);
		} else {
			ibfs_time_t t = post_wait(fake_complete, d, 0);

			log_line(argv[1], t);
		}
		expect += d;
		ck_assert_uint_eq(ibfs_now(), expect);
	}
}

static void run_random_child(int fd)
{
	static char p[] = "r", s0[] = "0", s1[] = "1", s2[] = "2";
	char *a[3][3] = { { p, s0, NULL }, { p, s1, NULL }, { p, s2, NULL } };

	setup();
	ibfs__bridge_spawn(br, "h0", "r0", app_random, 2, a[0]);
	ibfs__bridge_spawn(br, "h1", "r1", app_random, 2, a[1]);
	ibfs__bridge_spawn(br, "h&2", "r2", app_random, 2, a[2]);
	int rc = ibfs__bridge_run(br);
	struct ibfs_bridge_stats st;

	ibfs__bridge_stats(br, &st);
	if (rc == 0 && st.early_entries == 0 && st.late_events == 0 &&
	    write(fd, log_buf, log_len) == (ssize_t)log_len)
		_exit(0);
	_exit(1);
}

static size_t run_random(char *out, size_t cap)
{
	int p[2];

	ck_assert_int_eq(pipe(p), 0);
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(p[0]);
		run_random_child(p[1]);
	}
	close(p[1]);
	size_t n = 0;
	ssize_t r;

	while ((r = read(p[0], out + n, cap - n)) > 0)
		n += (size_t)r;
	close(p[0]);
	int status;

	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	return n;
}

START_TEST(deterministic)
{
	static char one[4096], two[4096];
	size_t n1 = run_random(one, sizeof(one));
	size_t n2 = run_random(two, sizeof(two));

	ck_assert_uint_gt(n1, 40);
	ck_assert_uint_eq(n1, n2);
	ck_assert_mem_eq(one, two, n1);
}
END_TEST

static Suite *bridge_suite(void)
{
	Suite *s = suite_create("bridge");
	TCase *tc = tcase_create("timing");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, single_post_exact);
	tcase_add_test(tc, far_future_exact);
	tcase_add_test(tc, chained_completions);
	tcase_add_test(tc, two_hosts_interleave);
	tcase_add_test(tc, sleep_then_post);
	tcase_add_test(tc, invisible_actor_holds_fabric);
	tcase_add_test(tc, completion_before_wait);
	tcase_add_test(tc, same_ps_order);
	tcase_add_test(tc, current_node);
	tcase_add_test(tc, spawn_during_run);
	tcase_add_test(tc, oob_get_blocks_until_put);
	tcase_add_test(tc, deadlock_reported);
	tcase_add_test(tc, run_ahead);
	suite_add_tcase(s, tc);

	TCase *bare = tcase_create("process");

	tcase_set_timeout(bare, 20);
	tcase_add_test(bare, bad_setup);
	tcase_add_test(bare, deterministic);
	suite_add_tcase(s, bare);
	return s;
}

IBFS_CHECK_MAIN(bridge_suite)
