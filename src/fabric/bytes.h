/* SPDX-License-Identifier: MIT */
/*
 * Big-endian fields in wire bytes: IBA headers and MADs are in network
 * order (IBA 13.4.2 for MADs). Shared by the SMP and SA codecs.
 */
#ifndef IBFS_FABRIC_BYTES_H
#define IBFS_FABRIC_BYTES_H

#include <stdint.h>

static inline void ibfs__put16(uint8_t *b, uint16_t v)
{
	b[0] = (uint8_t)(v >> 8);
	b[1] = (uint8_t)v;
}

static inline void ibfs__put32(uint8_t *b, uint32_t v)
{
	ibfs__put16(b, (uint16_t)(v >> 16));
	ibfs__put16(b + 2, (uint16_t)v);
}

static inline void ibfs__put64(uint8_t *b, uint64_t v)
{
	ibfs__put32(b, (uint32_t)(v >> 32));
	ibfs__put32(b + 4, (uint32_t)v);
}

static inline uint16_t ibfs__get16(const uint8_t *b)
{
	return (uint16_t)(b[0] << 8 | b[1]);
}

static inline uint32_t ibfs__get32(const uint8_t *b)
{
	return (uint32_t)ibfs__get16(b) << 16 | ibfs__get16(b + 2);
}

static inline uint64_t ibfs__get64(const uint8_t *b)
{
	return (uint64_t)ibfs__get32(b) << 32 | ibfs__get32(b + 4);
}

#endif
