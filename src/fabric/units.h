/* SPDX-License-Identifier: MIT */
/*
 * Exact parsing of the quantities users write in fabric and scenario files:
 * times ("100ns", "3.2us"), sizes ("32KiB", "4096B"), cable lengths ("2m")
 * and rates ("100Gbps"). Parsing is done on the decimal digits, never through
 * floating point, so "3.2us" is exactly 3,200,000 ps. A number without its
 * unit is an error, never a guess.
 *
 * Form: DIGITS [ "." DIGITS ] [ one space ] UNIT, units case-sensitive as
 * listed below. "100ns" and "100 ns" are accepted; leading, trailing or
 * repeated whitespace, signs, exponents and "1." or ".5" are refused.
 */
#ifndef IBFS_FABRIC_UNITS_H
#define IBFS_FABRIC_UNITS_H

#include <stdint.h>

/* Error codes returned (negated) by the parsers. */
enum ibfs_unit_err {
	IBFS_UNIT_OK = 0,
	IBFS_UNIT_EMPTY,      /* empty string */
	IBFS_UNIT_NOT_NUMBER, /* no digits where a number must be */
	IBFS_UNIT_NEGATIVE,   /* a leading minus sign */
	IBFS_UNIT_NO_UNIT,    /* a bare number */
	IBFS_UNIT_BAD_UNIT,   /* a unit not known for this quantity */
	IBFS_UNIT_OVERFLOW,   /* does not fit in 64 bits of the base unit */
	IBFS_UNIT_TOO_FINE,   /* more decimals than the base unit resolves */
};

/*
 * Each returns 0 on success or a negative enum ibfs_unit_err, and leaves
 * *out untouched on error. Units: time ps ns us ms s (to ps); size B KiB
 * MiB GiB KB MB GB (to bytes); length mm cm m km (to mm); rate bps Kbps
 * Mbps Gbps Tbps (to bit/s).
 */
int ibfs__parse_time(const char *s, uint64_t *ps);
int ibfs__parse_size(const char *s, uint64_t *bytes);
int ibfs__parse_length(const char *s, uint64_t *mm);
int ibfs__parse_rate(const char *s, uint64_t *bps);
/* A plain non-negative integer with no unit (counts, port numbers). */
int ibfs__parse_uint(const char *s, uint64_t *v);

/*
 * A sentence for an error code (either sign), e.g. for quantity "time":
 * "a time needs a unit (ps, ns, us, ms, s); a bare number is refused".
 * quantity is "time", "size", "length" or "rate"; anything else (or NULL)
 * gives the sentences for plain counts.
 */
const char *ibfs__unit_strerror(int err, const char *quantity);

/* Formats a time for humans, e.g. "1.234567 us"; returns buf. */
char *ibfs__format_time(uint64_t ps, char *buf, unsigned len);

#endif
