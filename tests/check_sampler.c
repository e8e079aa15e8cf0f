/* SPDX-License-Identifier: MIT */
/*
 * The sampler (src/scenario/sampler.c) on the star of eth_star.h: one
 * Ethernet switch, hosts on 2 m cables at 100 Gb/s, and the PFC deadlock
 * monitor a roce run has (50 us, assemble_eth.c). What is checked is that
 * sampling never keeps an idle fabric alive (the run ends, or finds its
 * deadlock, as without it) and that the samples of an idle stretch are
 * still all written, on the interval's grid.
 */
#include "eth_star.h"

#include <unistd.h>

#include "scenario/sampler.h"
#include "switch/eth_deadlock.h"

#define US 1000000ULL

/* Lines of a file, its header included. */
static long lines_of(const char *path)
{
	FILE *f = fopen(path, "r");
	long n = 0;
	int c;

	ck_assert_ptr_nonnull(f);
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/*
 * Nothing to send: the monitor looks at 50 us (armed at 0), the sampler
 * every 1 us from 1 us. Until 50 us each sampler event finds the
 * monitor's pending and goes on; at 50 us the monitor, scheduled first,
 * finds only the sampler's event, which is quiet, and stops; the sampler
 * then finds nothing and rests. The queue empties: 50 sampler events and
 * one monitor look, 51 events. Finished at 120 us, the samples are 120,
 * 6 linked ports each (3 hosts' and 3 of the switch: 720 rows and the
 * header), the last 70 written without an event.
 */
START_TEST(idle_fabric_ends)
{
	struct es_star x;
	struct ibfs_eth_profile p = es_profile(1500);
	struct ibfs_diag d;
	char dir[] = "/tmp/ibfs-sampler-XXXXXX", path[64];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	es_star_make(&x, 3, 3, 2000);
	es_star_start(&x, &p, 0);
	struct ibfs_eth_deadlock_monitor *m =
		ibfs__eth_deadlock_monitor_new(x.f, 50 * US);
	struct ibfs_sampler *s = ibfs__sampler_start(x.f, US, dir, NULL, &d);

	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(s);
	uint64_t before = x.f->eq.executed;

	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(ibfs__eq_size(&x.f->eq), 0);
	ck_assert_uint_eq(x.f->eq.now, 50 * US);
	ck_assert_uint_eq(x.f->eq.executed - before - 3, 51);
	ck_assert_int_eq(ibfs__sampler_finish(s, 120 * US), 0);
	ck_assert_uint_eq(ibfs__sampler_count(s), 120);
	snprintf(path, sizeof(path), "%s/samples_ports.csv", dir);
	ck_assert_int_eq(lines_of(path), 1 + 120 * 6);
	unlink(path);
	snprintf(path, sizeof(path), "%s/samples_qps.csv", dir);
	ck_assert_int_eq(lines_of(path), 1);
	unlink(path);
	rmdir(dir);
	ibfs__sampler_free(s);
	ibfs__eth_deadlock_monitor_free(m);
	es_star_free(&x);
}
END_TEST

/*
 * h1 sends 100 frames of 1,500 bytes to h2 (1,520 bytes on the wire each,
 * 121,600 ps; the last reaches h2 at 200 us + 100 x 121,600 ps + 2 x
 * 10,000 ps of cable + 400,000 ps of switch + 4,320 ps of header, as in
 * check_eth_switch: 212.584320 us).
 * As a run's application would, the sender decides to start only once the
 * fabric is idle (the queue empty at 50 us, as above): the start at 200
 * us is scheduled then. The first frame wakes the sampler, which writes
 * the samples of 51 to 199 us alike, samples at 200 to 213 us (frames in
 * flight until 212.58 us; the one at 213 us finds the fabric idle again)
 * and rests. Against the same run without samples: 50 + 1 + 14 = 65
 * events more (the samples to 50 us, the wake-up, the 14), for 300
 * samples once finished at 300 us.
 */
static uint64_t stretch(int sample, ibfs_time_t *last_tail)
{
	struct es_star x;
	struct ibfs_eth_profile p = es_profile(1500);
	struct ibfs_diag d;
	struct ibfs_sampler *s = NULL;

	es_star_make(&x, 3, 3, 2000);
	es_star_start(&x, &p, 0);
	struct ibfs_eth_deadlock_monitor *m =
		ibfs__eth_deadlock_monitor_new(x.f, 50 * US);

	if (sample)
		ck_assert_ptr_nonnull(
			s = ibfs__sampler_start(x.f, US, NULL, NULL, &d));
	uint64_t before = x.f->eq.executed;

	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(x.f->eq.now, 50 * US);
	es_flow_add(x.h[1], 2, 0, 1500, 100, 1);
	ck_assert_ptr_nonnull(ibfs__eq_schedule(&x.f->eq, 200 * US,
						es_start_ev, x.h[1], 0));
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(x.h[2]->rx_frames, 100);
	ck_assert_uint_eq(ibfs__eq_size(&x.f->eq), 0);
	*last_tail = x.h[2]->last_tail;
	uint64_t n = x.f->eq.executed - before;

	if (s) {
		ck_assert_int_eq(ibfs__sampler_finish(s, 300 * US), 0);
		ck_assert_uint_eq(ibfs__sampler_count(s), 300);
	}
	ibfs__sampler_free(s);
	ibfs__eth_deadlock_monitor_free(m);
	es_star_free(&x);
	return n;
}

START_TEST(idle_stretch_written)
{
	ibfs_time_t with, without;
	uint64_t n = stretch(1, &with);

	ck_assert_uint_eq(n - stretch(0, &without), 65);
	ck_assert_uint_eq(with, without);
	ck_assert_uint_eq(with, 200 * US + 100 * 121600 + 2 * 10000 + 400000 +
					4320);
	ck_assert_uint_eq(with, 212584320);
}
END_TEST

static Suite *sampler_suite(void)
{
	Suite *s = suite_create("sampler");
	TCase *tc = tcase_create("sampler");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, idle_fabric_ends);
	tcase_add_test(tc, idle_stretch_written);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(sampler_suite)
