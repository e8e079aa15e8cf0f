/* SPDX-License-Identifier: MIT */
/*
 * OpenSM's QoS option values (src/subnet_manager/qos.c): what parses, what
 * each mistake is told, and the check that every VL carrying an SL can
 * be sent.
 */
#include "check_common.h"

#include <string.h>

#include "subnet_manager/qos.h"

START_TEST(vlarb_values)
{
	struct ibfs_vlarb_entry t[IBFS_QOS_ENTRIES];
	char err[160];
	int n = -1;

	ck_assert_int_eq(ibfs__qos_parse_vlarb("0:64,1:192", 2, t, &n, err,
					       sizeof(err)), 0);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(t[0].vl, 0);
	ck_assert_int_eq(t[0].weight, 64);
	ck_assert_int_eq(t[1].vl, 1);
	ck_assert_int_eq(t[1].weight, 192);
	/* An empty table; VL 14 and weight 255 at the top of their ranges. */
	ck_assert_int_eq(ibfs__qos_parse_vlarb("", 2, t, &n, err, sizeof(err)),
			 0);
	ck_assert_int_eq(n, 0);
	ck_assert_int_eq(ibfs__qos_parse_vlarb("14:255", 15, t, &n, err,
					       sizeof(err)), 0);
	ck_assert_int_eq(t[0].vl, 14);
	ck_assert_int_eq(t[0].weight, 255);
	/* Blanks around numbers, as opensm.conf lines may have. */
	ck_assert_int_eq(ibfs__qos_parse_vlarb(" 0 : 64 , 1:192 ", 2, t, &n,
					       err, sizeof(err)), 0);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(t[1].weight, 192);
}
END_TEST

static void vlarb_bad(const char *s, int vls, const char *want)
{
	struct ibfs_vlarb_entry t[IBFS_QOS_ENTRIES];
	char err[160] = "";
	int n;

	ck_assert_int_eq(ibfs__qos_parse_vlarb(s, vls, t, &n, err,
					       sizeof(err)), -1);
	ck_assert_msg(strstr(err, want), "'%s': '%s', want '%s'", s, err,
		      want);
}

START_TEST(vlarb_mistakes)
{
	vlarb_bad("0:64,2:1", 2, "entry 2 names VL 2, but the fabric has 2 data VLs");
	vlarb_bad("1:1", 1, "names VL 1, but the fabric has 1 data VL");
	vlarb_bad("0:256", 2, "entry 1 is not VL:WEIGHT");
	vlarb_bad("15:1", 15, "entry 1 is not VL:WEIGHT");
	vlarb_bad("0-64", 2, "entry 1 is not VL:WEIGHT");
	vlarb_bad("0:64;1:64", 2, "entry 1 is not VL:WEIGHT");
	vlarb_bad("0:64,", 2, "a comma ends the list");
	vlarb_bad("0:64, ", 2, "a comma ends the list");
	char many[65 * 5 + 1] = "";
	for (int i = 0; i < 65; i++)
		strcat(many, i ? ",0:1" : "0:1");
	vlarb_bad(many, 2, "more than 64 entries");
}
END_TEST

START_TEST(sl2vl_and_limit)
{
	uint8_t v[16];
	uint8_t lim = 9;
	char err[160] = "";

	ck_assert_int_eq(ibfs__qos_parse_sl2vl("0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1",
					       2, v, err, sizeof(err)), 0);
	for (int sl = 0; sl < 16; sl++)
		ck_assert_int_eq(v[sl], sl % 2);
	ck_assert_int_eq(ibfs__qos_parse_sl2vl("0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,7",
					       2, v, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "SL 2 on VL 2, but the fabric has 2 data VLs");
	ck_assert_int_eq(ibfs__qos_parse_sl2vl("0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,15",
					       2, v, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "SL 15 on VL 15 (discard) is not modelled");
	ck_assert_int_eq(ibfs__qos_parse_sl2vl("0,0,0", 2, v, err,
					       sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "expected 16 VLs"));
	ck_assert_int_eq(ibfs__qos_parse_sl2vl("0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0",
					       2, v, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "(at SL 15)"));
	ck_assert_int_eq(ibfs__qos_parse_limit("255", &lim, err, sizeof(err)),
			 0);
	ck_assert_int_eq(lim, 255);
	ck_assert_int_eq(ibfs__qos_parse_limit("0", &lim, err, sizeof(err)), 0);
	ck_assert_int_eq(lim, 0);
	ck_assert_int_eq(ibfs__qos_parse_limit("256", &lim, err, sizeof(err)),
			 -1);
	ck_assert_int_eq(ibfs__qos_parse_limit("", &lim, err, sizeof(err)),
			 -1);
	ck_assert_int_eq(ibfs__qos_parse_limit("4k", &lim, err, sizeof(err)),
			 -1);
	ck_assert_int_eq(lim, 0);
}
END_TEST

/* Every VL that carries an SL needs a weight in a table (IBA 7.6.9). */
START_TEST(defaults_and_check)
{
	struct ibfs_qos q;
	char err[160] = "";

	ibfs__qos_default(&q, 4);
	ck_assert_int_eq(q.given, 0);
	ck_assert_int_eq(q.sl2vl[5], 1);
	ck_assert_int_eq(q.nlow, 4);
	ck_assert_int_eq(q.low[3].vl, 3);
	ck_assert_int_eq(q.low[3].weight, 1);
	ck_assert_int_eq(q.nhigh, 0);
	ck_assert_int_eq(q.high_limit, 255);
	ck_assert_int_eq(ibfs__qos_check(&q, err, sizeof(err)), 0);
	/* VL 2 only in the high table still goes. */
	q.low[2].weight = 0;
	q.high[0] = (struct ibfs_vlarb_entry){ 2, 1 };
	q.nhigh = 1;
	ck_assert_int_eq(ibfs__qos_check(&q, err, sizeof(err)), 0);
	/* VL 3 nowhere with a weight: SL 3 is the first on it. */
	q.low[3].weight = 0;
	ck_assert_int_eq(ibfs__qos_check(&q, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "SL 3 is on VL 3, which has no weight in "
			      "either VL arbitration table: its packets "
			      "would never be sent");
}
END_TEST

/*
 * dfsssp and lash route on SLs 0 to data VLs - 1, one layer each: an
 * SL-to-VL table may permute those SLs' VLs, not merge two.
 */
START_TEST(layers_keep_their_vls)
{
	struct ibfs_qos q;
	char err[200] = "";

	ibfs__qos_default(&q, 4);
	ck_assert_int_eq(ibfs__qos_check_layers(&q, 4, "dfsssp", err,
						sizeof(err)), 0);
	/* A permutation of VLs 0-3 on SLs 0-3; SLs 4-15 are free. */
	uint8_t perm[16] = { 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	memcpy(q.sl2vl, perm, sizeof(perm));
	ck_assert_int_eq(ibfs__qos_check_layers(&q, 4, "lash", err,
						sizeof(err)), 0);
	/* SLs 1 and 3 merged on VL 2: the first such pair is named. */
	q.sl2vl[3] = 2;
	ck_assert_int_eq(ibfs__qos_check_layers(&q, 4, "dfsssp", err,
						sizeof(err)), -1);
	ck_assert_str_eq(err, "qos-sl2vl puts SLs 1 and 3 on VL 2, but dfsssp "
			      "routes on SLs 0 to 3 as layers that each need "
			      "a VL of their own (or credit loops come back)");
	/* With two data VLs only SLs 0 and 1 count. */
	ck_assert_int_eq(ibfs__qos_check_layers(&q, 2, "dfsssp", err,
						sizeof(err)), 0);
	/* One data VL: one layer, nothing to merge. */
	memset(q.sl2vl, 0, sizeof(q.sl2vl));
	ck_assert_int_eq(ibfs__qos_check_layers(&q, 1, "lash", err,
						sizeof(err)), 0);
}
END_TEST

static Suite *qos_suite(void)
{
	Suite *s = suite_create("qos");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, vlarb_values);
	tcase_add_test(tc, vlarb_mistakes);
	tcase_add_test(tc, sl2vl_and_limit);
	tcase_add_test(tc, defaults_and_check);
	tcase_add_test(tc, layers_keep_their_vls);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(qos_suite)
