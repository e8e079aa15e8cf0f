/* SPDX-License-Identifier: MIT */
/*
 * Tests of exact unit parsing and time formatting (src/fabric/units.c):
 * every unit of every quantity, every error code, the 64-bit boundaries
 * (UINT64_MAX and one above, in several units), the whitespace rule (one
 * optional space before the unit, nothing else), and the error sentences;
 * also the diagnostics (src/fabric/diag.c) that carry them to the user.
 * Expected values are written out by hand from the unit definitions.
 */
#include <stdint.h>
#include <string.h>

#include "fabric/diag.h"
#include "fabric/units.h"
#include "check_common.h"

typedef int (*parse_fn)(const char *, uint64_t *);

struct row {
	const char *in;
	int err;        /* expected enum ibfs_unit_err (positive) */
	uint64_t value; /* expected when err == 0 */
};

static void check_rows(parse_fn fn, const char *name, const struct row *rows,
		       size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const uint64_t poison = 0x5a5a5a5a5a5a5a5aULL;
		uint64_t v = poison;
		int rc = fn(rows[i].in, &v);

		ck_assert_msg(rc == -rows[i].err,
			      "%s(\"%s\") returned %d, expected %d", name,
			      rows[i].in ? rows[i].in : "(null)", rc,
			      -rows[i].err);
		if (rows[i].err == 0)
			ck_assert_msg(v == rows[i].value,
				      "%s(\"%s\") gave %llu, expected %llu",
				      name, rows[i].in,
				      (unsigned long long)v,
				      (unsigned long long)rows[i].value);
		else
			ck_assert_msg(v == poison,
				      "%s(\"%s\") wrote its output on error",
				      name, rows[i].in);
	}
}

#define CHECK_ROWS(fn, rows) \
	check_rows(fn, #fn, rows, sizeof(rows) / sizeof(rows[0]))

#define U64MAX 18446744073709551615ULL

START_TEST(test_time)
{
	static const struct row rows[] = {
		{ "0ps", 0, 0 },
		{ "1ps", 0, 1 },
		{ "100ns", 0, 100000 },
		{ "3.2us", 0, 3200000 },
		{ "1.5ms", 0, 1500000000ULL },
		{ "2s", 0, 2000000000000ULL },
		{ "0.001ns", 0, 1 },
		{ "0.000001us", 0, 1 },
		{ "0.000000001ms", 0, 1 },
		{ "0.000000000001s", 0, 1 },
		{ "1.000000000000s", 0, 1000000000000ULL },
		{ "007ns", 0, 7000 },
		{ "0.0ns", 0, 0 },
		{ "100 ns", 0, 100000 },
		{ "3.2 us", 0, 3200000 },
		/* Trailing zeros of a fraction, however many, are fine. */
		{ "0.10000000000000000000000000000000000000000000000ns", 0,
		  100 },
		{ "0000000000000000000000000000000000001ps", 0, 1 },
		/* Boundaries of 64 bits, in several units. */
		{ "18446744073709551615ps", 0, U64MAX },
		{ "18446744073709551616ps", IBFS_UNIT_OVERFLOW, 0 },
		{ "18446744073709551.615ns", 0, U64MAX },
		{ "18446744073709551.616ns", IBFS_UNIT_OVERFLOW, 0 },
		{ "18446744073.709551615ms", 0, U64MAX },
		{ "18446744073.709551616ms", IBFS_UNIT_OVERFLOW, 0 },
		/* Twelve decimals of a millisecond are below a picosecond. */
		{ "18446744.073709551615ms", IBFS_UNIT_TOO_FINE, 0 },
		{ "18446744.073709551615s", 0, U64MAX },
		{ "18446745s", IBFS_UNIT_OVERFLOW, 0 },
		{ "99999999999999999999ps", IBFS_UNIT_OVERFLOW, 0 },
		{ "999999999999999999999999999999ps", IBFS_UNIT_OVERFLOW, 0 },
		/* Errors. */
		{ "", IBFS_UNIT_EMPTY, 0 },
		{ NULL, IBFS_UNIT_EMPTY, 0 },
		{ "ns", IBFS_UNIT_NOT_NUMBER, 0 },
		{ " 100ns", IBFS_UNIT_NOT_NUMBER, 0 },
		{ "+1ns", IBFS_UNIT_NOT_NUMBER, 0 },
		{ ".5ns", IBFS_UNIT_NOT_NUMBER, 0 },
		{ "1.ns", IBFS_UNIT_NOT_NUMBER, 0 },
		{ "1.", IBFS_UNIT_NOT_NUMBER, 0 },
		{ "-1ns", IBFS_UNIT_NEGATIVE, 0 },
		{ "-0ns", IBFS_UNIT_NEGATIVE, 0 },
		{ "100", IBFS_UNIT_NO_UNIT, 0 },
		{ "3.2", IBFS_UNIT_NO_UNIT, 0 },
		{ "100 ", IBFS_UNIT_NO_UNIT, 0 },
		{ "100  ns", IBFS_UNIT_BAD_UNIT, 0 },
		{ "100ns ", IBFS_UNIT_BAD_UNIT, 0 },
		{ "100\tns", IBFS_UNIT_BAD_UNIT, 0 },
		{ "100 n s", IBFS_UNIT_BAD_UNIT, 0 },
		{ "100NS", IBFS_UNIT_BAD_UNIT, 0 },
		{ "100xs", IBFS_UNIT_BAD_UNIT, 0 },
		{ "1e3ns", IBFS_UNIT_BAD_UNIT, 0 },
		{ "1,000ns", IBFS_UNIT_BAD_UNIT, 0 },
		{ "1.2.3ns", IBFS_UNIT_BAD_UNIT, 0 },
		{ "5m", IBFS_UNIT_BAD_UNIT, 0 },
		{ "0.1ps", IBFS_UNIT_TOO_FINE, 0 },
		{ "0.0001ns", IBFS_UNIT_TOO_FINE, 0 },
		{ "1.0000000000001s", IBFS_UNIT_TOO_FINE, 0 },
		{ "18446744073709551615.5ps", IBFS_UNIT_TOO_FINE, 0 },
		/* A long fraction ending in a nonzero digit: refused without
		 * overflowing the arithmetic. */
		{ "1.00000000000000000000000000000000000000000000000001ns",
		  IBFS_UNIT_TOO_FINE, 0 },
	};

	CHECK_ROWS(ibfs__parse_time, rows);
}
END_TEST

START_TEST(test_size)
{
	static const struct row rows[] = {
		{ "0B", 0, 0 },
		{ "4096B", 0, 4096 },
		{ "1KiB", 0, 1024 },
		{ "32KiB", 0, 32768 },
		{ "1.5KiB", 0, 1536 },
		{ "0.25KiB", 0, 256 },
		{ "1MiB", 0, 1048576 },
		{ "0.5MiB", 0, 524288 },
		{ "1GiB", 0, 1073741824ULL },
		{ "16GiB", 0, 17179869184ULL },
		{ "1KB", 0, 1000 },
		{ "1.5MB", 0, 1500000 },
		{ "2GB", 0, 2000000000ULL },
		{ "64 KiB", 0, 65536 },
		/* 1/1024 KiB = 5^10 / 10^10 KiB = 1 B, the finest KiB value;
		 * half of it is too fine. */
		{ "0.0009765625KiB", 0, 1 },
		{ "0.00048828125KiB", IBFS_UNIT_TOO_FINE, 0 },
		/* 2^-30 GiB = 1 B needs 30 decimals. */
		{ "0.000000000931322574615478515625GiB", 0, 1 },
		{ "0.000000000931322574615478515626GiB", IBFS_UNIT_TOO_FINE,
		  0 },
		/* 2^64 - 2^30 B, then + (2^30 - 1) B = UINT64_MAX. */
		{ "17179869183GiB", 0, U64MAX - 1073741823ULL },
		{ "17179869183.999999999068677425384521484375GiB", 0, U64MAX },
		{ "17179869184GiB", IBFS_UNIT_OVERFLOW, 0 },
		{ "18446744073709551615B", 0, U64MAX },
		{ "18446744073709551616B", IBFS_UNIT_OVERFLOW, 0 },
		{ "18446744073.709551615GB", 0, U64MAX },
		{ "18446744073.709551616GB", IBFS_UNIT_OVERFLOW, 0 },
		{ "0.1KiB", IBFS_UNIT_TOO_FINE, 0 },
		{ "1.5B", IBFS_UNIT_TOO_FINE, 0 },
		{ "0.0001KB", IBFS_UNIT_TOO_FINE, 0 },
		{ "1kB", IBFS_UNIT_BAD_UNIT, 0 },
		{ "1kib", IBFS_UNIT_BAD_UNIT, 0 },
		{ "1TiB", IBFS_UNIT_BAD_UNIT, 0 },
		{ "1b", IBFS_UNIT_BAD_UNIT, 0 },
		{ "4096", IBFS_UNIT_NO_UNIT, 0 },
		{ "-1B", IBFS_UNIT_NEGATIVE, 0 },
		{ "KiB", IBFS_UNIT_NOT_NUMBER, 0 },
		{ "", IBFS_UNIT_EMPTY, 0 },
	};

	CHECK_ROWS(ibfs__parse_size, rows);
}
END_TEST

START_TEST(test_length)
{
	static const struct row rows[] = {
		{ "5mm", 0, 5 },
		{ "1cm", 0, 10 },
		{ "0.1cm", 0, 1 },
		{ "2m", 0, 2000 },
		{ "30m", 0, 30000 },
		{ "1.5m", 0, 1500 },
		{ "0.001m", 0, 1 },
		{ "2 m", 0, 2000 },
		{ "1km", 0, 1000000 },
		{ "0.000001km", 0, 1 },
		{ "18446744073709551615mm", 0, U64MAX },
		{ "18446744073709551.615m", 0, U64MAX },
		{ "18446744073709551.616m", IBFS_UNIT_OVERFLOW, 0 },
		{ "0.0001m", IBFS_UNIT_TOO_FINE, 0 },
		{ "0.5mm", IBFS_UNIT_TOO_FINE, 0 },
		{ "2M", IBFS_UNIT_BAD_UNIT, 0 },
		{ "2ft", IBFS_UNIT_BAD_UNIT, 0 },
		{ "2", IBFS_UNIT_NO_UNIT, 0 },
		{ "-2m", IBFS_UNIT_NEGATIVE, 0 },
		{ "m", IBFS_UNIT_NOT_NUMBER, 0 },
		{ "", IBFS_UNIT_EMPTY, 0 },
	};

	CHECK_ROWS(ibfs__parse_length, rows);
}
END_TEST

START_TEST(test_rate)
{
	static const struct row rows[] = {
		{ "1bps", 0, 1 },
		{ "1Kbps", 0, 1000 },
		{ "1Mbps", 0, 1000000 },
		{ "100Gbps", 0, 100000000000ULL },
		{ "2.5Gbps", 0, 2500000000ULL },
		{ "54.54545Gbps", 0, 54545450000ULL },
		{ "1Tbps", 0, 1000000000000ULL },
		{ "0.000000000001Tbps", 0, 1 },
		{ "400 Gbps", 0, 400000000000ULL },
		{ "18446744.073709551615Tbps", 0, U64MAX },
		{ "18446744.073709551616Tbps", IBFS_UNIT_OVERFLOW, 0 },
		{ "1.5bps", IBFS_UNIT_TOO_FINE, 0 },
		{ "0.0000000000001Tbps", IBFS_UNIT_TOO_FINE, 0 },
		{ "1kbps", IBFS_UNIT_BAD_UNIT, 0 },
		{ "10Gb/s", IBFS_UNIT_BAD_UNIT, 0 },
		{ "10GBps", IBFS_UNIT_BAD_UNIT, 0 },
		{ "100", IBFS_UNIT_NO_UNIT, 0 },
		{ "-1Gbps", IBFS_UNIT_NEGATIVE, 0 },
		{ "Gbps", IBFS_UNIT_NOT_NUMBER, 0 },
		{ "", IBFS_UNIT_EMPTY, 0 },
	};

	CHECK_ROWS(ibfs__parse_rate, rows);
}
END_TEST

START_TEST(test_uint)
{
	static const struct row rows[] = {
		{ "0", 0, 0 },
		{ "42", 0, 42 },
		{ "007", 0, 7 },
		{ "18446744073709551615", 0, U64MAX },
		{ "18446744073709551616", IBFS_UNIT_OVERFLOW, 0 },
		{ "100000000000000000000000", IBFS_UNIT_OVERFLOW, 0 },
		{ "", IBFS_UNIT_EMPTY, 0 },
		{ NULL, IBFS_UNIT_EMPTY, 0 },
		{ "-1", IBFS_UNIT_NEGATIVE, 0 },
		{ "x", IBFS_UNIT_NOT_NUMBER, 0 },
		{ " 1", IBFS_UNIT_NOT_NUMBER, 0 },
		{ "1.", IBFS_UNIT_NOT_NUMBER, 0 },
		{ "4x", IBFS_UNIT_BAD_UNIT, 0 },
		{ "1 ", IBFS_UNIT_BAD_UNIT, 0 },
		{ "0x10", IBFS_UNIT_BAD_UNIT, 0 },
		{ "2.0", IBFS_UNIT_TOO_FINE, 0 },
		{ "2.5", IBFS_UNIT_TOO_FINE, 0 },
	};

	CHECK_ROWS(ibfs__parse_uint, rows);
}
END_TEST

START_TEST(test_strerror)
{
	static const char *const q[] = { "time", "size", "length", "rate",
					  NULL };
	static const char *const lists[] = {
		"(ps, ns, us, ms, s)", "(B, KiB, MiB, GiB, KB, MB, GB)",
		"(mm, cm, m, km)", "(bps, Kbps, Mbps, Gbps, Tbps)", NULL
	};

	for (int i = 0; i < 5; i++) {
		for (int e = IBFS_UNIT_EMPTY; e <= IBFS_UNIT_TOO_FINE; e++) {
			const char *m = ibfs__unit_strerror(-e, q[i]);

			ck_assert_ptr_nonnull(m);
			ck_assert_uint_gt(strlen(m), 10);
			/* Either sign of the code gives the same text. */
			ck_assert_str_eq(m, ibfs__unit_strerror(e, q[i]));
			if (q[i])
				ck_assert_ptr_nonnull(strstr(m, q[i]));
		}
		if (lists[i])
			ck_assert_ptr_nonnull(strstr(
				ibfs__unit_strerror(-IBFS_UNIT_NO_UNIT, q[i]),
				lists[i]));
	}
	ck_assert_str_eq(ibfs__unit_strerror(-IBFS_UNIT_NO_UNIT, "time"),
			 "a time needs a unit (ps, ns, us, ms, s); a bare "
			 "number is refused");
	ck_assert_ptr_nonnull(strstr(
		ibfs__unit_strerror(-IBFS_UNIT_BAD_UNIT, "size"), "KiB"));
	ck_assert_ptr_nonnull(strstr(
		ibfs__unit_strerror(-IBFS_UNIT_TOO_FINE, "time"),
		"picoseconds"));
	ck_assert_ptr_nonnull(strstr(
		ibfs__unit_strerror(-IBFS_UNIT_TOO_FINE, NULL), "whole"));
	ck_assert_str_eq(ibfs__unit_strerror(-99, "time"), "invalid value");
	/* An unknown quantity falls back to the count sentences. */
	ck_assert_str_eq(ibfs__unit_strerror(-IBFS_UNIT_OVERFLOW, "port"),
			 ibfs__unit_strerror(-IBFS_UNIT_OVERFLOW, NULL));
}
END_TEST

START_TEST(test_format_time)
{
	static const struct {
		uint64_t ps;
		const char *out;
	} rows[] = {
		{ 0, "0 ps" },
		{ 999, "999 ps" },
		{ 1000, "1 ns" },
		{ 1500, "1.5 ns" },
		{ 1001, "1.001 ns" },
		{ 1234567, "1.234567 us" },
		{ 1000001, "1.000001 us" },
		{ 1000000, "1 us" },
		{ 999999999, "999.999999 us" },
		{ 2500000000ULL, "2.5 ms" },
		{ 1000000000000ULL, "1 s" },
		{ U64MAX, "18446744.073709551615 s" },
	};
	char buf[64];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		ck_assert_ptr_eq(ibfs__format_time(rows[i].ps, buf,
						   sizeof(buf)),
				 buf);
		ck_assert_str_eq(buf, rows[i].out);
	}
	/* A short buffer is truncated, still terminated. */
	ibfs__format_time(1234567, buf, 5);
	ck_assert_str_eq(buf, "1.23");
	/* A zero length writes nothing. */
	buf[0] = 'x';
	ibfs__format_time(1, buf, 0);
	ck_assert_int_eq(buf[0], 'x');
	/* Every time that prints parses back to itself. */
	static const uint64_t back[] = { 1, 999, 1500, 1234567, 2500000000ULL,
					 U64MAX };

	for (size_t i = 0; i < sizeof(back) / sizeof(back[0]); i++) {
		uint64_t v = 0;

		ibfs__format_time(back[i], buf, sizeof(buf));
		ck_assert_int_eq(ibfs__parse_time(buf, &v), 0);
		ck_assert_uint_eq(v, back[i]);
	}
}
END_TEST

START_TEST(test_diag)
{
	struct ibfs_diag d;
	uint64_t v;
	int err = ibfs__parse_time("100", &v);

	ck_assert_int_eq(ibfs__diag(&d, "fab.xml", 12, "cable \"%s\": %s",
				    "100", ibfs__unit_strerror(err, "time")),
			 -1);
	ck_assert_str_eq(d.msg, "fab.xml:12: cable \"100\": a time needs a "
				"unit (ps, ns, us, ms, s); a bare number is "
				"refused");
	/* Line 0 omits the line; no file omits both. */
	ibfs__diag(&d, "fab.xml", 0, "empty file");
	ck_assert_str_eq(d.msg, "fab.xml: empty file");
	ibfs__diag(&d, NULL, 7, "no file %d", 3);
	ck_assert_str_eq(d.msg, "no file 3");
	/* A NULL diag is accepted and still reports failure. */
	ck_assert_int_eq(ibfs__diag(NULL, "x", 1, "ignored"), -1);
	/* One line whatever the message holds: libxml2's second lines, a
	 * value with &#10; in it; plain spaces stay as they are. */
	ibfs__diag(&d, "f.xml", 4, "%s", "Input is not proper UTF-8, "
		   "indicate encoding !\nBytes: 0xFF 0x22\n");
	ck_assert_str_eq(d.msg, "f.xml:4: Input is not proper UTF-8, "
				"indicate encoding ! Bytes: 0xFF 0x22");
	ibfs__diag(&d, "f.xml", 5, "speed=\"%s\":  unknown", "ED\r\n\t R\x7f");
	ck_assert_str_eq(d.msg, "f.xml:5: speed=\"ED R \":  unknown");
	ibfs__diag(&d, "f.xml", 6, "ends \t\n ");
	ck_assert_str_eq(d.msg, "f.xml:6: ends");
	ibfs__diag(&d, "f.xml", 7, "spaces  ");
	ck_assert_str_eq(d.msg, "f.xml:7: spaces  ");

	/* Over-long file names and messages are cut, never overrun. */
	char big[3000];

	memset(big, 'f', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ibfs__diag(&d, big, 1, "tail");
	ck_assert_uint_eq(strlen(d.msg), sizeof(d.msg) - 1);
	ck_assert_int_eq(d.msg[0], 'f');
	ibfs__diag(&d, "a.xml", 2, "%s", big);
	ck_assert_uint_eq(strlen(d.msg), sizeof(d.msg) - 1);
	ck_assert_int_eq(strncmp(d.msg, "a.xml:2: fff", 12), 0);
}
END_TEST

static Suite *units_suite(void)
{
	Suite *s = suite_create("units");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, test_time);
	tcase_add_test(tc, test_size);
	tcase_add_test(tc, test_length);
	tcase_add_test(tc, test_rate);
	tcase_add_test(tc, test_uint);
	tcase_add_test(tc, test_strerror);
	tcase_add_test(tc, test_format_time);
	tcase_add_test(tc, test_diag);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(units_suite)
