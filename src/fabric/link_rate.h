/* SPDX-License-Identifier: MIT */
/*
 * InfiniBand link speeds and widths, and the exact data rate they give:
 * data rate = width x lane signalling rate x encoding efficiency.
 * SDR/DDR/QDR use 8b/10b; FDR10/FDR/EDR use 64b/66b; HDR/NDR/XDR are given
 * by their data rate per lane (PAM4 with FEC): 50, 100 and 200 Gb/s.
 * Figures: IBTA, as tabulated by Linux ib_verbs (docs/fidelity.md,
 * "Reference figures").
 *
 * A rate is kept as the exact fraction bits_num / bits_den bits per second
 * so that serialization times are computed in integers, rounded up to the
 * next picosecond.
 */
#ifndef IBFS_FABRIC_LINK_RATE_H
#define IBFS_FABRIC_LINK_RATE_H

#include <stdint.h>

#include "fabric/time.h"

enum ibfs_speed {
	IBFS_SPEED_SDR,
	IBFS_SPEED_DDR,
	IBFS_SPEED_QDR,
	IBFS_SPEED_FDR10,
	IBFS_SPEED_FDR,
	IBFS_SPEED_EDR,
	IBFS_SPEED_HDR,
	IBFS_SPEED_NDR,
	IBFS_SPEED_XDR,
	IBFS_SPEED_COUNT
};

struct ibfs_rate {
	uint64_t bits_num; /* data rate = bits_num / bits_den bit/s */
	uint64_t bits_den;
};

/* Parses "EDR" etc.; returns 0 or -1. */
int ibfs__speed_parse(const char *s, enum ibfs_speed *out);
const char *ibfs__speed_str(enum ibfs_speed s);
/* Parses "1x" "2x" "4x" "8x" "12x"; returns the lane count or -1. */
int ibfs__width_parse(const char *s);

/* The data rate of `width` lanes of `speed`, as a reduced fraction;
 * {0, 1} for an unknown speed or a width other than 1, 2, 4, 8, 12. */
struct ibfs_rate ibfs__link_rate(enum ibfs_speed speed, int width);
/* A rate given directly in bit/s (e.g. from rate="100Gbps"). */
struct ibfs_rate ibfs__rate_bps(uint64_t bps);
/* Data rate in Gb/s as a double, for reports only. */
double ibfs__rate_gbps(struct ibfs_rate r);
/*
 * Time to serialize `bytes` bytes, rounded up to the picosecond; exact for
 * any byte count. IBFS_TIME_NEVER for a zero rate or a time past 2^64 ps.
 */
ibfs_time_t ibfs__rate_ser_time(struct ibfs_rate r, uint64_t bytes);

#endif
