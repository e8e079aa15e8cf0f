/* SPDX-License-Identifier: MIT */
/*
 * Tests of link rates (src/fabric/link_rate.c): the data rate of every
 * speed at every width, worked out here from the lane signalling rate and
 * the line coding (8b/10b, 64b/66b) or the quoted per-lane data rate, and
 * serialization times computed by hand, including rounding up to the
 * picosecond and byte counts that would overflow 64-bit arithmetic.
 */
#include <stdint.h>

#include "fabric/link_rate.h"
#include "check_common.h"

START_TEST(test_names)
{
	static const char *const names[] = { "SDR", "DDR", "QDR", "FDR10",
					     "FDR", "EDR", "HDR", "NDR",
					     "XDR" };
	enum ibfs_speed s;

	ck_assert_int_eq(IBFS_SPEED_COUNT, 9);
	for (int i = 0; i < IBFS_SPEED_COUNT; i++) {
		s = IBFS_SPEED_COUNT;
		ck_assert_int_eq(ibfs__speed_parse(names[i], &s), 0);
		ck_assert_int_eq(s, i);
		ck_assert_str_eq(ibfs__speed_str((enum ibfs_speed)i), names[i]);
	}
	static const char *const bad[] = { "", "edr", "EDR ", "FDR14", "QDR2",
					   "SDRX", "HDR100" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_int_eq(ibfs__speed_parse(bad[i], &s), -1);
	ck_assert_int_eq(ibfs__speed_parse(NULL, &s), -1);
	ck_assert_str_eq(ibfs__speed_str(IBFS_SPEED_COUNT), "unknown");

	ck_assert_int_eq(ibfs__width_parse("1x"), 1);
	ck_assert_int_eq(ibfs__width_parse("2x"), 2);
	ck_assert_int_eq(ibfs__width_parse("4x"), 4);
	ck_assert_int_eq(ibfs__width_parse("8x"), 8);
	ck_assert_int_eq(ibfs__width_parse("12x"), 12);
	static const char *const badw[] = { "", "3x", "4", "4X", "x", "16x",
					    " 4x", "04x" };

	for (size_t i = 0; i < sizeof(badw) / sizeof(badw[0]); i++)
		ck_assert_int_eq(ibfs__width_parse(badw[i]), -1);
	ck_assert_int_eq(ibfs__width_parse(NULL), -1);
}
END_TEST

START_TEST(test_every_rate)
{
	/* Per lane: signalling rate (baud) and coding, from the IBTA table. */
	static const struct {
		uint64_t baud, enc_num, enc_den;
	} lane[IBFS_SPEED_COUNT] = {
		{ 2500000000ULL, 8, 10 },    /* SDR */
		{ 5000000000ULL, 8, 10 },    /* DDR */
		{ 10000000000ULL, 8, 10 },   /* QDR */
		{ 10312500000ULL, 64, 66 },  /* FDR10 */
		{ 14062500000ULL, 64, 66 },  /* FDR */
		{ 25781250000ULL, 64, 66 },  /* EDR */
		{ 50000000000ULL, 1, 1 },    /* HDR, data rate */
		{ 100000000000ULL, 1, 1 },   /* NDR, data rate */
		{ 200000000000ULL, 1, 1 },   /* XDR, data rate */
	};
	static const int widths[] = { 1, 2, 4, 8, 12 };

	for (int s = 0; s < IBFS_SPEED_COUNT; s++)
		for (int w = 0; w < 5; w++) {
			struct ibfs_rate r =
				ibfs__link_rate((enum ibfs_speed)s, widths[w]);
			unsigned __int128 want_num = (unsigned __int128)
				lane[s].baud * widths[w] * lane[s].enc_num;
			unsigned __int128 want_den = lane[s].enc_den;

			ck_assert_uint_gt(r.bits_den, 0);
			/* Equal fractions: num * want_den == want_num * den. */
			ck_assert_msg((unsigned __int128)r.bits_num *
						      want_den ==
					      want_num * r.bits_den,
				      "speed %d width %d: %llu/%llu", s,
				      widths[w],
				      (unsigned long long)r.bits_num,
				      (unsigned long long)r.bits_den);
		}

	/*
	 * The rounded 4x figures of docs/fidelity.md, "Reference figures"
	 * (IBTA, as tabulated by Linux ib_verbs), as exact values.
	 */
	struct ibfs_rate r = ibfs__link_rate(IBFS_SPEED_EDR, 4);

	ck_assert_uint_eq(r.bits_num, 100000000000ULL);
	ck_assert_uint_eq(r.bits_den, 1);
	/* FDR 4x: 4 * 14.0625e9 * 64 / 66 = 600e9 / 11 (reduced). */
	r = ibfs__link_rate(IBFS_SPEED_FDR, 4);
	ck_assert_uint_eq(r.bits_num, 600000000000ULL);
	ck_assert_uint_eq(r.bits_den, 11);
	ck_assert_double_eq_tol(ibfs__rate_gbps(r), 54.5454545, 1e-6);
	/* FDR10 4x: 4 * 10.3125e9 * 64 / 66 = 40e9 exactly. */
	r = ibfs__link_rate(IBFS_SPEED_FDR10, 4);
	ck_assert_uint_eq(r.bits_num, 40000000000ULL);
	ck_assert_uint_eq(r.bits_den, 1);
	/* SDR 1x: 2.5e9 * 8 / 10 = 2e9. */
	r = ibfs__link_rate(IBFS_SPEED_SDR, 1);
	ck_assert_uint_eq(r.bits_num, 2000000000ULL);
	ck_assert_uint_eq(r.bits_den, 1);
	r = ibfs__link_rate(IBFS_SPEED_HDR, 4);
	ck_assert_uint_eq(r.bits_num, 200000000000ULL);
	r = ibfs__link_rate(IBFS_SPEED_NDR, 4);
	ck_assert_uint_eq(r.bits_num, 400000000000ULL);
	r = ibfs__link_rate(IBFS_SPEED_XDR, 1);
	ck_assert_uint_eq(r.bits_num, 200000000000ULL);
	r = ibfs__link_rate(IBFS_SPEED_XDR, 12);
	ck_assert_uint_eq(r.bits_num, 2400000000000ULL);
	ck_assert_double_eq_tol(ibfs__rate_gbps(r), 2400.0, 1e-9);

	/* Bad speed or width: the zero rate. */
	static const int badw[] = { 0, 3, 5, 16, -4 };

	for (int i = 0; i < 5; i++) {
		r = ibfs__link_rate(IBFS_SPEED_EDR, badw[i]);
		ck_assert_uint_eq(r.bits_num, 0);
	}
	r = ibfs__link_rate(IBFS_SPEED_COUNT, 4);
	ck_assert_uint_eq(r.bits_num, 0);
	ck_assert_uint_eq(ibfs__rate_ser_time(r, 1), IBFS_TIME_NEVER);
}
END_TEST

START_TEST(test_ser_time)
{
	struct ibfs_rate edr = ibfs__link_rate(IBFS_SPEED_EDR, 4);

	/* 100 Gb/s: 8 bits take 80 ps. */
	ck_assert_uint_eq(ibfs__rate_ser_time(edr, 0), 0);
	ck_assert_uint_eq(ibfs__rate_ser_time(edr, 1), 80);
	ck_assert_uint_eq(ibfs__rate_ser_time(edr, 4096), 4096 * 80);
	ck_assert_uint_eq(ibfs__rate_ser_time(edr, 1ULL << 50),
			  (1ULL << 50) * 80);

	/*
	 * FDR 4x, 600e9/11 bit/s. 1 byte: 8 * 11 / 600e9 s = 146.67 ps,
	 * rounded up to 147. 4096 bytes: 32768 * 11 * 1e12 / 600e9 =
	 * 3604480 / 6 = 600746.67 ps -> 600747.
	 */
	struct ibfs_rate fdr = ibfs__link_rate(IBFS_SPEED_FDR, 4);

	ck_assert_uint_eq(ibfs__rate_ser_time(fdr, 1), 147);
	ck_assert_uint_eq(ibfs__rate_ser_time(fdr, 4096), 600747);
	/* 75 bytes = 600 bits: 600 * 11 / 600e9 s = 11 ns exactly. */
	ck_assert_uint_eq(ibfs__rate_ser_time(fdr, 75), 11000);
	ck_assert_uint_eq(ibfs__rate_ser_time(fdr, 76), 11147);

	/* SDR 1x = 2 Gb/s: 4 ns a byte. QDR 4x = 32 Gb/s: 250 ps. */
	ck_assert_uint_eq(
		ibfs__rate_ser_time(ibfs__link_rate(IBFS_SPEED_SDR, 1), 1),
		4000);
	ck_assert_uint_eq(
		ibfs__rate_ser_time(ibfs__link_rate(IBFS_SPEED_QDR, 4), 2048),
		2048 * 250);
	/* HDR 4x 40 ps, NDR 4x 20 ps, XDR 4x 10 ps a byte. */
	ck_assert_uint_eq(
		ibfs__rate_ser_time(ibfs__link_rate(IBFS_SPEED_HDR, 4), 100),
		4000);
	ck_assert_uint_eq(
		ibfs__rate_ser_time(ibfs__link_rate(IBFS_SPEED_NDR, 4), 100),
		2000);
	ck_assert_uint_eq(
		ibfs__rate_ser_time(ibfs__link_rate(IBFS_SPEED_XDR, 4), 100),
		1000);
	/* XDR 12x, 2.4 Tb/s: one byte 3.33 ps -> 4; three bytes 10 ps. */
	struct ibfs_rate x12 = ibfs__link_rate(IBFS_SPEED_XDR, 12);

	ck_assert_uint_eq(ibfs__rate_ser_time(x12, 1), 4);
	ck_assert_uint_eq(ibfs__rate_ser_time(x12, 3), 10);

	/* A direct rate: 1 bit/s makes a byte last 8 s. */
	ck_assert_uint_eq(ibfs__rate_ser_time(ibfs__rate_bps(1), 1),
			  8 * IBFS_S);
	ck_assert_uint_eq(ibfs__rate_ser_time(ibfs__rate_bps(0), 1),
			  IBFS_TIME_NEVER);
	ck_assert_uint_eq(ibfs__rate_ser_time(ibfs__rate_bps(0), 0), 0);

	/* Beyond 64 bits of picoseconds the result saturates. */
	ck_assert_uint_eq(ibfs__rate_ser_time(edr, UINT64_MAX),
			  IBFS_TIME_NEVER);
	/* 2^64 - 1 bytes at 8e15 bit/s take (2^64 - 1) / 1000 ps, rounded
	 * up (2^64 - 1 ends in 615); the product bytes * 8e12 needs 128
	 * bits. */
	struct ibfs_rate huge = { 8000000000000000ULL, 1 };

	ck_assert_uint_eq(ibfs__rate_ser_time(huge, UINT64_MAX),
			  UINT64_MAX / 1000 + 1);
	/* 7 bit/s written with a large denominator, 7 * 2^40 / 2^40: seven
	 * bytes (56 bits) take 8 s exactly. */
	struct ibfs_rate seven = { 7ULL << 40, 1ULL << 40 };

	ck_assert_uint_eq(ibfs__rate_ser_time(seven, 7), 8 * IBFS_S);
	ck_assert_uint_eq(ibfs__rate_ser_time(seven, 1),
			  (8 * IBFS_S + 6) / 7);
	/* A rate with a large denominator: 1e12 / 3 bit/s; 3 bytes = 24
	 * bits take 24 * 3 / 1e12 s = 72 ps. */
	struct ibfs_rate third = { 1000000000000ULL, 3 };

	ck_assert_uint_eq(ibfs__rate_ser_time(third, 3), 72);
	struct ibfs_rate odd = { 7, 1ULL << 40 };

	/* 1 byte at 7 / 2^40 bit/s: 8 * 2^40 / 7 s, too long: saturates. */
	ck_assert_uint_eq(ibfs__rate_ser_time(odd, 1), IBFS_TIME_NEVER);
}
END_TEST

static Suite *link_rate_suite(void)
{
	Suite *s = suite_create("link_rate");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_every_rate);
	tcase_add_test(tc, test_ser_time);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(link_rate_suite)
