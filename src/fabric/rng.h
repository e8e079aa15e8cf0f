/* SPDX-License-Identifier: MIT */
/*
 * Random numbers. A run's --seed drives every random choice; each entity
 * (pattern, HCA, switch) takes its own stream derived from the seed and a
 * stream number, as ROSS gives one generator to each LP, so adding an entity
 * does not change the draws of the others. Generator: xoshiro256**, seeded
 * through splitmix64 (Blackman and Vigna).
 */
#ifndef IBFS_FABRIC_RNG_H
#define IBFS_FABRIC_RNG_H

#include <stdint.h>

struct ibfs_rng {
	uint64_t s[4];
};

/*
 * One step of splitmix64 on the counter *x (advanced by the golden ratio);
 * used for seeding and exposed for tests.
 */
uint64_t ibfs__splitmix64(uint64_t *x);

void ibfs__rng_seed(struct ibfs_rng *r, uint64_t seed, uint64_t stream);

static inline uint64_t ibfs__rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/*
 * The next 64 bits of the stream (xoshiro256**). Inline, with the common
 * case of ibfs__rng_below, because traffic generators draw once a packet:
 * a call cost as much as the generator.
 */
static inline uint64_t ibfs__rng_next(struct ibfs_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = ibfs__rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = ibfs__rng_rotl(s[3], 45);
	return result;
}

/* ibfs__rng_below's rare path: a draw that may fall in the biased zone. */
uint64_t ibfs__rng_below_retry(struct ibfs_rng *r, uint64_t n,
			       unsigned __int128 m);

/*
 * Uniform in [0, n) without modulo bias; 0 when n is 0. Lemire's
 * multiply-and-reject ("Fast random integer generation in an interval",
 * 2019): the high word of x * n is uniform in [0, n) once the low words
 * below 2^64 mod n are rejected; a low word of n or more can never be, so
 * only the rare low < n goes out of line.
 */
static inline uint64_t ibfs__rng_below(struct ibfs_rng *r, uint64_t n)
{
	if (n == 0)
		return 0;
	unsigned __int128 m = (unsigned __int128)ibfs__rng_next(r) * n;

	if (__builtin_expect((uint64_t)m < n, 0))
		return ibfs__rng_below_retry(r, n, m);
	return (uint64_t)(m >> 64);
}
/* Uniform double in [0, 1). */
double ibfs__rng_double(struct ibfs_rng *r);

#endif
