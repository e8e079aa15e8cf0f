/* SPDX-License-Identifier: MIT */
/*
 * OpenSM's congestion control option values (subnet_manager/cc_config.c):
 * what each parses into, in the widths of IBA A10.4.3's fields, what is
 * refused, and the settings applied to a fabric's switches and HCAs.
 */
#include "check_common.h"

#include <string.h>

#include "subnet_manager/cc_config.h"

static struct ibfs_cc_config C;
static char err[160];

static int parse(enum ibfs_cc_opt o, const char *v)
{
	err[0] = 0;
	return ibfs__cc_parse(&C, o, v, err, sizeof(err));
}

START_TEST(numbers)
{
	ibfs__cc_default(&C);
	ck_assert_int_eq(C.enabled, 0);
	ck_assert_int_eq(parse(IBFS_CC_ENABLE, "TRUE"), 0);
	ck_assert_int_eq(C.enabled, 1);
	ck_assert_int_eq(parse(IBFS_CC_ENABLE, "false"), 0);
	ck_assert_int_eq(C.enabled, 0);
	ck_assert_int_eq(parse(IBFS_CC_SW_CONTROL_MAP, "0x1f"), 0);
	ck_assert_uint_eq(C.sw.control_map, 0x1f);
	ck_assert_int_eq(parse(IBFS_CC_SW_THRESHOLD, " 0xf "), 0);
	ck_assert_uint_eq(C.sw.threshold, 15);
	ck_assert_int_eq(parse(IBFS_CC_SW_PACKET_SIZE, "255"), 0);
	ck_assert_uint_eq(C.sw.packet_size, 255);
	ck_assert_int_eq(parse(IBFS_CC_SW_CS_THRESHOLD, "7"), 0);
	ck_assert_uint_eq(C.sw.cs_threshold, 7);
	ck_assert_int_eq(parse(IBFS_CC_SW_MARKING_RATE, "65535"), 0);
	ck_assert_uint_eq(C.sw.marking_rate, 65535);
	ck_assert_int_eq(parse(IBFS_CC_CA_PORT_CONTROL, "0x0001"), 0);
	ck_assert_uint_eq(C.ca.port_control, 1);
	ck_assert_int_eq(parse(IBFS_CC_CA_CONTROL_MAP, "0xffff"), 0);
	ck_assert_uint_eq(C.ca.control_map, 0xffff);
	ck_assert_int_eq(parse(IBFS_CC_SW_CS_RETURN_DELAY, "2:100"), 0);
	ck_assert_uint_eq(C.sw.cs_return_delay, 2 << 14 | 100);
	/* Refusals name the value. */
	ck_assert_int_eq(parse(IBFS_CC_SW_THRESHOLD, "16"), -1);
	ck_assert_str_eq(err, "16 is above 15");
	ck_assert_int_eq(parse(IBFS_CC_SW_CONTROL_MAP, "32"), -1);
	ck_assert_int_eq(parse(IBFS_CC_SW_MARKING_RATE, "99999999999999999999"),
			 -1);
	ck_assert_int_eq(parse(IBFS_CC_SW_PACKET_SIZE, "12x"), -1);
	ck_assert_str_eq(err, "unexpected \"x\"");
	ck_assert_int_eq(parse(IBFS_CC_CA_CONTROL_MAP, ""), -1);
	ck_assert_int_eq(parse(IBFS_CC_ENABLE, "1"), -1);
	ck_assert_int_eq(parse(IBFS_CC_NOPTS, "1"), -1);
	ck_assert_str_eq(err, "unknown option");
}
END_TEST

START_TEST(masks)
{
	ibfs__cc_default(&C);
	ck_assert_int_eq(parse(IBFS_CC_SW_VICTIM_MASK, "0x6"), 0);
	ck_assert_uint_eq(C.sw.victim_mask[0], 6);
	/* Bit 64 and bit 254: 64 hexadecimal digits. */
	ck_assert_int_eq(parse(IBFS_CC_SW_CREDIT_MASK,
			       "0x40000000000000000000000000000000"
			       "000000000000000100000000000000000"), -1);
	ck_assert_int_eq(parse(IBFS_CC_SW_CREDIT_MASK,
			       "0x4000000000000000000000000000000"
			       "000000000000000010000000000000000"), 0);
	ck_assert_uint_eq(C.sw.credit_mask[0], 0);
	ck_assert_uint_eq(C.sw.credit_mask[1], 1);
	ck_assert_uint_eq(C.sw.credit_mask[2], 0);
	ck_assert_uint_eq(C.sw.credit_mask[3], 1ULL << 62);
	ck_assert_int_eq(parse(IBFS_CC_SW_VICTIM_MASK, "ffff"), 0);
	ck_assert_uint_eq(C.sw.victim_mask[0], 0xffff);
	ck_assert_int_eq(parse(IBFS_CC_SW_VICTIM_MASK, "0x"), -1);
	ck_assert_int_eq(parse(IBFS_CC_SW_VICTIM_MASK, "0x1 2"), -1);
}
END_TEST

START_TEST(per_sl_and_table)
{
	ibfs__cc_default(&C);
	ck_assert_int_eq(parse(IBFS_CC_CA_CCTI_TIMER, "0 150, 15 65535"), 0);
	ck_assert_uint_eq(C.ca.sl[0].ccti_timer, 150);
	ck_assert_uint_eq(C.ca.sl[15].ccti_timer, 65535);
	ck_assert_uint_eq(C.ca.sl[1].ccti_timer, 0);
	ck_assert_int_eq(parse(IBFS_CC_CA_CCTI_INCREASE, "3 255"), 0);
	ck_assert_uint_eq(C.ca.sl[3].ccti_increase, 255);
	ck_assert_int_eq(parse(IBFS_CC_CA_TRIGGER_THRESHOLD, "2 9"), 0);
	ck_assert_uint_eq(C.ca.sl[2].trigger_threshold, 9);
	ck_assert_int_eq(parse(IBFS_CC_CA_CCTI_MIN, "0 4"), 0);
	ck_assert_uint_eq(C.ca.sl[0].ccti_min, 4);
	ck_assert_int_eq(parse(IBFS_CC_CA_CCTI_INCREASE, "3 256"), -1);
	ck_assert_str_eq(err, "pair 0: 256 is above 255");
	ck_assert_int_eq(parse(IBFS_CC_CA_CCTI_MIN, "0 1,"), -1);
	ck_assert_int_eq(parse(IBFS_CC_CCT, "0:0, 1:2,3:16383"), 0);
	ck_assert_int_eq(C.ca.ncct, 3);
	ck_assert_uint_eq(C.ca.cct[1], 1 << 14 | 2);
	ck_assert_uint_eq(C.ca.cct[2], 3 << 14 | 16383);
	ck_assert_int_eq(parse(IBFS_CC_CCT, "0:0,1"), -1);
	ck_assert_str_eq(err, "entry 1: expected SHIFT:MULTIPLIER");
	/* ccti_min must be in the table, for the SLs control_map names. */
	C.ca.control_map = 0x2;
	ck_assert_int_eq(ibfs__cc_check(&C, err, sizeof(err)), 0);
	C.ca.control_map = 0x1;
	ck_assert_int_eq(ibfs__cc_check(&C, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "SL 0: ccti_min 4 is beyond the last index of "
			      "cc_cct (CCTI_Limit 2)");
}
END_TEST

static Suite *cc_config_suite(void)
{
	Suite *s = suite_create("cc_config");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, numbers);
	tcase_add_test(tc, masks);
	tcase_add_test(tc, per_sl_and_table);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(cc_config_suite)
