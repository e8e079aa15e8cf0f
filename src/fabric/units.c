/* SPDX-License-Identifier: MIT */
/*
 * Exact parsing of the quantities written in fabric and scenario files (see
 * units.h), done on the decimal digits with integer arithmetic only.
 *
 * Accepted form: DIGITS [ "." DIGITS ] [ " " ] UNIT. At most one space may
 * separate the number from its unit ("100ns" and "100 ns" are the same);
 * any other whitespace, a leading or trailing one included, is an error, as
 * are a sign, an exponent, a point without digits on both sides, and a
 * unit in the wrong case ("100NS", "1kbps"). Leading zeros and trailing
 * zeros of a fraction are accepted and change nothing.
 *
 * Every unit is a whole number of base units M = 2^j * 5^k (1 us = 10^6 ps,
 * 1 KiB = 2^10 B). A value I.F with f fraction digits is I * M +
 * F * M / 10^f, which must be a whole number of base units, else the value
 * is finer than the base unit resolves (IBFS_UNIT_TOO_FINE). Once trailing
 * zeros are dropped F ends in a nonzero digit, so it lacks a factor 2 or a
 * factor 5, and 10^f can divide F * M only if f <= max(j, k) <= 30: longer
 * fractions are rejected without arithmetic, and shorter ones (F < 10^30)
 * fit easily in 128 bits.
 *
 * Errors are checked in this order: empty, sign, number, unit, overflow of
 * the integer part, fraction too fine, overflow of the total.
 */
#include <stdio.h>
#include <string.h>

#include "fabric/units.h"

struct unit {
	const char *name;
	uint64_t mult; /* base units in one of these */
};

/* Times in picoseconds. */
static const struct unit units_time[] = {
	{ "ps", 1 },
	{ "ns", 1000ULL },
	{ "us", 1000000ULL },
	{ "ms", 1000000000ULL },
	{ "s", 1000000000000ULL },
	{ NULL, 0 },
};

/* Sizes in bytes: binary (IEC 80000-13) and decimal (SI) prefixes. */
static const struct unit units_size[] = {
	{ "B", 1 },
	{ "KiB", 1ULL << 10 },
	{ "MiB", 1ULL << 20 },
	{ "GiB", 1ULL << 30 },
	{ "KB", 1000ULL },
	{ "MB", 1000000ULL },
	{ "GB", 1000000000ULL },
	{ NULL, 0 },
};

/* Lengths in millimetres. */
static const struct unit units_length[] = {
	{ "mm", 1 },
	{ "cm", 10 },
	{ "m", 1000 },
	{ "km", 1000000ULL },
	{ NULL, 0 },
};

/* Rates in bit/s. */
static const struct unit units_rate[] = {
	{ "bps", 1 },
	{ "Kbps", 1000ULL },
	{ "Mbps", 1000000ULL },
	{ "Gbps", 1000000000ULL },
	{ "Tbps", 1000000000000ULL },
	{ NULL, 0 },
};

/* A number split into its digits, without leading/trailing zeros. */
struct number {
	const char *ip;  /* significant integer digits */
	size_t ilen;
	const char *fp;  /* fraction digits, trailing zeros dropped */
	size_t flen;
	const char *end; /* first character after the number */
};

static int units_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int units_scan(const char *s, struct number *n)
{
	if (!s || !*s)
		return -IBFS_UNIT_EMPTY;
	if (*s == '-')
		return -IBFS_UNIT_NEGATIVE;
	if (!units_is_digit(*s))
		return -IBFS_UNIT_NOT_NUMBER;
	const char *p = s;

	while (*p == '0' && units_is_digit(p[1]))
		p++;
	n->ip = p;
	while (units_is_digit(*p))
		p++;
	n->ilen = (size_t)(p - n->ip);
	if (n->ilen == 1 && *n->ip == '0')
		n->ilen = 0;
	n->fp = p;
	n->flen = 0;
	if (*p == '.') {
		p++;
		if (!units_is_digit(*p))
			return -IBFS_UNIT_NOT_NUMBER;
		n->fp = p;
		while (units_is_digit(*p))
			p++;
		n->flen = (size_t)(p - n->fp);
		while (n->flen > 0 && n->fp[n->flen - 1] == '0')
			n->flen--;
	}
	n->end = p;
	return 0;
}

static unsigned __int128 units_digits(const char *p, size_t len)
{
	unsigned __int128 v = 0;

	for (size_t i = 0; i < len; i++)
		v = v * 10 + (unsigned)(p[i] - '0');
	return v;
}

static unsigned units_count_factor(uint64_t m, unsigned f)
{
	unsigned c = 0;

	while (m && m % f == 0) {
		m /= f;
		c++;
	}
	return c;
}

static unsigned __int128 units_pow(unsigned b, unsigned e)
{
	unsigned __int128 v = 1;

	while (e--)
		v *= b;
	return v;
}

/* n (already scanned) times mult, exactly; 0 or a negative error. */
static int units_scale(const struct number *n, uint64_t mult, uint64_t *out)
{
	/* 10^20 > 2^64: twenty significant digits or more cannot fit. */
	if (n->ilen >= 21)
		return -IBFS_UNIT_OVERFLOW;
	unsigned __int128 whole = units_digits(n->ip, n->ilen) * mult;

	if (whole > UINT64_MAX)
		return -IBFS_UNIT_OVERFLOW;

	unsigned __int128 frac = 0;

	if (n->flen > 0) {
		unsigned twos = units_count_factor(mult, 2);
		unsigned fives = units_count_factor(mult, 5);
		unsigned most = twos > fives ? twos : fives;

		if (n->flen > most)
			return -IBFS_UNIT_TOO_FINE;
		/* frac = F * 2^twos * 5^fives / (2^f * 5^f), if whole. */
		frac = units_digits(n->fp, n->flen);
		unsigned f = (unsigned)n->flen;
		unsigned __int128 d2 = twos < f ? units_pow(2, f - twos) : 1;
		unsigned __int128 d5 = fives < f ? units_pow(5, f - fives) : 1;

		if (frac % d2 || (frac / d2) % d5)
			return -IBFS_UNIT_TOO_FINE;
		frac = frac / d2 / d5;
		if (twos > f)
			frac *= units_pow(2, twos - f);
		if (fives > f)
			frac *= units_pow(5, fives - f);
		/* frac < mult < 2^64 here, since F < 10^f. */
	}
	if (whole + frac > UINT64_MAX)
		return -IBFS_UNIT_OVERFLOW;
	*out = (uint64_t)(whole + frac);
	return 0;
}

static int units_parse(const char *s, const struct unit *table, uint64_t *out)
{
	struct number n;
	int err = units_scan(s, &n);

	if (err)
		return err;
	const char *u = n.end;

	if (*u == ' ')
		u++;
	if (!*u)
		return -IBFS_UNIT_NO_UNIT;
	const struct unit *unit = NULL;

	for (const struct unit *t = table; t->name; t++)
		if (!strcmp(u, t->name)) {
			unit = t;
			break;
		}
	if (!unit)
		return -IBFS_UNIT_BAD_UNIT;
	uint64_t v;

	err = units_scale(&n, unit->mult, &v);
	if (err)
		return err;
	*out = v;
	return 0;
}

int ibfs__parse_time(const char *s, uint64_t *ps)
{
	return units_parse(s, units_time, ps);
}

int ibfs__parse_size(const char *s, uint64_t *bytes)
{
	return units_parse(s, units_size, bytes);
}

int ibfs__parse_length(const char *s, uint64_t *mm)
{
	return units_parse(s, units_length, mm);
}

int ibfs__parse_rate(const char *s, uint64_t *bps)
{
	return units_parse(s, units_rate, bps);
}

int ibfs__parse_uint(const char *s, uint64_t *v)
{
	struct number n;
	int err = units_scan(s, &n);

	if (err)
		return err;
	/* A count is whole: "2.0" is refused as firmly as "2.5". */
	if (memchr(s, '.', (size_t)(n.end - s)))
		return -IBFS_UNIT_TOO_FINE;
	if (*n.end)
		return -IBFS_UNIT_BAD_UNIT;
	uint64_t r;

	err = units_scale(&n, 1, &r);
	if (err)
		return err;
	*v = r;
	return 0;
}

/*
 * Messages for each quantity, indexed by enum ibfs_unit_err. They are
 * fragments to follow "FILE:LINE: attribute \"value\": ".
 */
#define UNIT_MSGS(q, list, base)                                             \
	{                                                                    \
		"no error",                                                  \
		"the " q " is empty; write a number and a unit (" list ")",  \
		"a " q " must be a decimal number such as 100 or 3.2 "       \
		"followed by a unit (" list ")",                             \
		"a " q " cannot be negative",                                \
		"a " q " needs a unit (" list "); a bare number is refused", \
		"unknown unit for a " q "; use " list                        \
		" (case matters, at most one space before the unit)",        \
		"the " q " does not fit in 64 bits of " base,                \
		"a " q " is counted in whole " base                          \
		"; this value has a finer fraction",                         \
	}

static const char *const msgs_time[] =
	UNIT_MSGS("time", "ps, ns, us, ms, s", "picoseconds");
static const char *const msgs_size[] =
	UNIT_MSGS("size", "B, KiB, MiB, GiB, KB, MB, GB", "bytes");
static const char *const msgs_length[] =
	UNIT_MSGS("length", "mm, cm, m, km", "millimetres");
static const char *const msgs_rate[] =
	UNIT_MSGS("rate", "bps, Kbps, Mbps, Gbps, Tbps", "bit/s");
static const char *const msgs_count[] = {
	"no error",
	"the number is empty",
	"expected a whole decimal number such as 4",
	"the number cannot be negative",
	"expected a whole decimal number such as 4",
	"a count takes no unit and no other characters",
	"the number does not fit in 64 bits",
	"expected a whole number, without a decimal point",
};

const char *ibfs__unit_strerror(int err, const char *quantity)
{
	if (err < 0)
		err = -err;
	if (err > IBFS_UNIT_TOO_FINE)
		return "invalid value";
	const char *const *m = msgs_count;

	if (!quantity)
		m = msgs_count;
	else if (!strcmp(quantity, "time"))
		m = msgs_time;
	else if (!strcmp(quantity, "size"))
		m = msgs_size;
	else if (!strcmp(quantity, "length"))
		m = msgs_length;
	else if (!strcmp(quantity, "rate"))
		m = msgs_rate;
	return m[err];
}

char *ibfs__format_time(uint64_t ps, char *buf, unsigned len)
{
	static const struct {
		const char *name;
		uint64_t mult;
		int decimals;
	} steps[] = {
		{ "s", 1000000000000ULL, 12 },
		{ "ms", 1000000000ULL, 9 },
		{ "us", 1000000ULL, 6 },
		{ "ns", 1000ULL, 3 },
	};

	if (!buf || len == 0)
		return buf;
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if (ps < steps[i].mult)
			continue;
		uint64_t whole = ps / steps[i].mult, frac = ps % steps[i].mult;
		int d = steps[i].decimals;

		/* Exact: print every picosecond, then drop trailing zeros. */
		while (d > 0 && frac % 10 == 0) {
			frac /= 10;
			d--;
		}
		if (d == 0)
			snprintf(buf, len, "%llu %s", (unsigned long long)whole,
				 steps[i].name);
		else
			snprintf(buf, len, "%llu.%0*llu %s",
				 (unsigned long long)whole, d,
				 (unsigned long long)frac, steps[i].name);
		return buf;
	}
	snprintf(buf, len, "%llu ps", (unsigned long long)ps);
	return buf;
}
