/* SPDX-License-Identifier: MIT */
/*
 * The base round trip HPCC takes from a fabric when not given
 * (src/scenario/eth_base_rtt.c), on small Ethernet fabrics of 4x EDR
 * links (100 Gb/s, 80 ps a byte) and 2 m cables (10,000 ps), the
 * generic-100g switch (400,000 ps port to port), the `ideal` HCA
 * profile (no pipeline delays) and a 1,024-byte MTU: the data frame is
 * 82 + 42 + 1,024 = 1,148 bytes (91,840 ps), the ACK 86 + 42 = 128
 * (10,240 ps), 102,080 ps together.
 */
#include "check_common.h"

#include "fabric/topology.h"
#include "scenario/eth_base_rtt.h"

/* HCAs h1..h(nh) and switches s1..s(ns) in a line: h1 on s1, each
 * switch on the next, the other HCAs on the last switch. */
static struct ibfs_topology *line(int nh, int ns)
{
	struct ibfs_topology *t = ibfs__topo_new("line");
	struct ibfs_diag d;
	char name[16];

	ck_assert_ptr_nonnull(t);
	t->def.mtu = 1024;
	for (int i = 1; i <= ns; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		ck_assert_int_ge(ibfs__topo_add_node(t, name, IBFS_NODE_SWITCH,
						     8, 0, &d), 0);
	}
	for (int i = 1; i <= nh; i++) {
		snprintf(name, sizeof(name), "h%d", i);
		ck_assert_int_ge(ibfs__topo_add_node(t, name, IBFS_NODE_HCA, 1,
						     0, &d), 0);
	}
	for (int i = 1; i < ns; i++)
		ck_assert_int_ge(ibfs__topo_add_link(t, i - 1, 8, i, 7,
						     IBFS_SPEED_EDR, 4, 2000,
						     0, &d), 0);
	for (int i = 1; i <= nh; i++)
		ck_assert_int_ge(ibfs__topo_add_link(t, ns + i - 1, 1,
						     i == 1 ? 0 : ns - 1, i,
						     IBFS_SPEED_EDR, 4, 2000,
						     0, &d), 0);
	return t;
}

/*
 * One switch, two links: T = 2 (2 x 10,000 + 400,000) + 102,080 =
 * 942,080 ps; store-and-forward serializes on both links: 840,000 +
 * 2 x 102,080 = 1,044,160. Three switches in a line, four links: 2 (4 x
 * 10,000 + 3 x 400,000) + 102,080 = 2,582,080. One HCA: no path, 0.
 */
START_TEST(base_rtt_closed_form)
{
	struct ibfs_eth_profile p = *ibfs__eth_profile("generic-100g");
	struct ibfs_topology *t = line(3, 1);

	ck_assert_uint_eq(ibfs__eth_base_rtt(t, &p), 942080);
	p.store_forward = 1;
	ck_assert_uint_eq(ibfs__eth_base_rtt(t, &p), 1044160);
	p.store_forward = 0;
	ibfs__topo_free(t);
	t = line(2, 3);
	ck_assert_uint_eq(ibfs__eth_base_rtt(t, &p), 2582080);
	ibfs__topo_free(t);
	t = line(1, 1);
	ck_assert_uint_eq(ibfs__eth_base_rtt(t, &p), 0);
	ibfs__topo_free(t);
}
END_TEST

static Suite *eth_base_rtt_suite(void)
{
	Suite *s = suite_create("eth_base_rtt");
	TCase *tc = tcase_create("eth_base_rtt");

	tcase_add_test(tc, base_rtt_closed_form);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(eth_base_rtt_suite)
