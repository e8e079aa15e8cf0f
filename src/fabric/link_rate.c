/* SPDX-License-Identifier: MIT */
/*
 * InfiniBand link data rates (see link_rate.h), kept as exact fractions of
 * bit/s. Per lane:
 *   SDR 2.5, DDR 5, QDR 10 Gbaud with 8b/10b coding: 2, 4, 8 Gb/s of data;
 *   FDR10 10.3125, FDR 14.0625, EDR 25.78125 Gbaud with 64b/66b coding:
 *   10, 150/11 (13.6363...) and 25 Gb/s of data;
 *   HDR 50, NDR 100, XDR 200 Gb/s of data (PAM4 with FEC, quoted as data).
 * A link of w lanes carries w times that, so 4x gives FDR 54.5454...,
 * EDR 100, HDR 200, NDR 400 and XDR 800 Gb/s (IBTA figures as tabulated by
 * Linux ib_verbs; docs/fidelity.md, "Reference figures").
 */
#include <string.h>

#include "fabric/link_rate.h"

struct lane {
	const char *name;
	uint64_t baud;    /* signalling rate of one lane, symbols/s */
	uint64_t enc_num; /* coding efficiency enc_num / enc_den */
	uint64_t enc_den;
};

static const struct lane lanes[IBFS_SPEED_COUNT] = {
	[IBFS_SPEED_SDR] = { "SDR", 2500000000ULL, 8, 10 },
	[IBFS_SPEED_DDR] = { "DDR", 5000000000ULL, 8, 10 },
	[IBFS_SPEED_QDR] = { "QDR", 10000000000ULL, 8, 10 },
	[IBFS_SPEED_FDR10] = { "FDR10", 10312500000ULL, 64, 66 },
	[IBFS_SPEED_FDR] = { "FDR", 14062500000ULL, 64, 66 },
	[IBFS_SPEED_EDR] = { "EDR", 25781250000ULL, 64, 66 },
	/* Quoted by their data rate: efficiency 1. */
	[IBFS_SPEED_HDR] = { "HDR", 50000000000ULL, 1, 1 },
	[IBFS_SPEED_NDR] = { "NDR", 100000000000ULL, 1, 1 },
	[IBFS_SPEED_XDR] = { "XDR", 200000000000ULL, 1, 1 },
};

static uint64_t rate_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

int ibfs__speed_parse(const char *s, enum ibfs_speed *out)
{
	if (!s)
		return -1;
	for (int i = 0; i < IBFS_SPEED_COUNT; i++)
		if (!strcmp(s, lanes[i].name)) {
			*out = (enum ibfs_speed)i;
			return 0;
		}
	return -1;
}

const char *ibfs__speed_str(enum ibfs_speed s)
{
	if ((unsigned)s >= IBFS_SPEED_COUNT)
		return "unknown";
	return lanes[s].name;
}

int ibfs__width_parse(const char *s)
{
	static const struct {
		const char *name;
		int lanes;
	} widths[] = { { "1x", 1 }, { "2x", 2 }, { "4x", 4 }, { "8x", 8 },
		       { "12x", 12 } };

	if (!s)
		return -1;
	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++)
		if (!strcmp(s, widths[i].name))
			return widths[i].lanes;
	return -1;
}

struct ibfs_rate ibfs__link_rate(enum ibfs_speed speed, int width)
{
	struct ibfs_rate r = { 0, 1 };

	if ((unsigned)speed >= IBFS_SPEED_COUNT)
		return r;
	if (width != 1 && width != 2 && width != 4 && width != 8 &&
	    width != 12)
		return r;
	const struct lane *l = &lanes[speed];
	/* baud * width * enc_num stays below 2^64: 25.8e9 * 12 * 64 < 2e13. */
	uint64_t num = l->baud * (uint64_t)width * l->enc_num;
	uint64_t den = l->enc_den;
	uint64_t g = rate_gcd(num, den);

	r.bits_num = num / g;
	r.bits_den = den / g;
	return r;
}

struct ibfs_rate ibfs__rate_bps(uint64_t bps)
{
	struct ibfs_rate r = { bps, 1 };

	return r;
}

double ibfs__rate_gbps(struct ibfs_rate r)
{
	if (r.bits_den == 0)
		return 0.0;
	return (double)r.bits_num / (double)r.bits_den / 1e9;
}

ibfs_time_t ibfs__rate_ser_time(struct ibfs_rate r, uint64_t bytes)
{
	if (bytes == 0)
		return 0;
	if (r.bits_num == 0 || r.bits_den == 0)
		return IBFS_TIME_NEVER;
	/*
	 * t = ceil(bytes * 8 * 10^12 * den / num). n = bytes * 8 * 10^12 is
	 * below 2^107. Write n = q * num + rem; then t = q * den +
	 * ceil(rem * den / num), where rem * den + num - 1 < 2^128 because
	 * rem < num < 2^64 and den < 2^64: exact for every input, and a
	 * result past 2^64 - 1 ps saturates to IBFS_TIME_NEVER.
	 */
	unsigned __int128 n = (unsigned __int128)bytes * 8 * IBFS_S;
	unsigned __int128 q = n / r.bits_num, rem = n % r.bits_num;

	if (q > UINT64_MAX / r.bits_den)
		return IBFS_TIME_NEVER;
	unsigned __int128 t = q * r.bits_den +
			      (rem * r.bits_den + r.bits_num - 1) / r.bits_num;

	return t >= UINT64_MAX ? IBFS_TIME_NEVER : (ibfs_time_t)t;
}
