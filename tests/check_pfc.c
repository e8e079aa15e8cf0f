/* SPDX-License-Identifier: MIT */
/*
 * The Ethernet switch (src/switch/eth_*.c) with simple Ethernet hosts
 * (eth_star.h), each expectation in closed form.
 */
#include "eth_star.h"

START_TEST(smoke)
{
	struct es_star x;
	struct ibfs_eth_profile p = es_profile(1500);

	es_star_make(&x, 2, 2, 2000);
	es_star_start(&x, &p, 0);
	es_flow_add(x.h[1], 2, 0, 1000, 1, 1);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(x.h[2]->rx_frames, 1);
	es_conserved(x.f);
	es_star_free(&x);
}
END_TEST

static Suite *eth_switch_suite(void)
{
	Suite *s = suite_create("eth_switch");
	TCase *tc = tcase_create("eth_switch");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, smoke);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(eth_switch_suite)
