/* SPDX-License-Identifier: MIT */
/*
 * Random streams: xoshiro256** (Blackman and Vigna, "Scrambled linear
 * pseudorandom number generators", 2018), whose 256-bit state is filled by
 * splitmix64 as its authors recommend. A stream is named by (seed, stream):
 * the stream number is first scrambled by one splitmix64 step and mixed into
 * the seed, so streams 0, 1, 2 ... of one seed start at unrelated states and
 * adding an entity never shifts the draws of another.
 */
#include "fabric/rng.h"

/* The golden-ratio increment of splitmix64, 2^64 / phi rounded to odd. */
#define RNG_GOLDEN 0x9e3779b97f4a7c15ULL

static inline uint64_t rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t ibfs__splitmix64(uint64_t *x)
{
	uint64_t z = (*x += RNG_GOLDEN);

	/* The two multipliers are those of splitmix64 (Vigna's "mix13"). */
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void ibfs__rng_seed(struct ibfs_rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t t = stream;
	uint64_t x = seed ^ ibfs__splitmix64(&t);

	for (int i = 0; i < 4; i++)
		r->s[i] = ibfs__splitmix64(&x);
	/* An all-zero state would only ever return zeros; splitmix64 is a
	 * bijection of its counter, so four zero outputs in a row cannot
	 * happen, but the guard costs nothing. */
	if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
		r->s[0] = RNG_GOLDEN;
}

uint64_t ibfs__rng_next(struct ibfs_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return result;
}

uint64_t ibfs__rng_below(struct ibfs_rng *r, uint64_t n)
{
	if (n == 0)
		return 0;
	/*
	 * Lemire's multiply-and-reject ("Fast random integer generation in an
	 * interval", 2019): the high word of x * n is uniform in [0, n) once
	 * the low words below 2^64 mod n are rejected.
	 */
	unsigned __int128 m = (unsigned __int128)ibfs__rng_next(r) * n;
	uint64_t low = (uint64_t)m;

	if (low < n) {
		uint64_t threshold = -n % n;

		while (low < threshold) {
			m = (unsigned __int128)ibfs__rng_next(r) * n;
			low = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

double ibfs__rng_double(struct ibfs_rng *r)
{
	/* The top 53 bits fill a double's mantissa exactly: k / 2^53. */
	return (double)(ibfs__rng_next(r) >> 11) * 0x1.0p-53;
}
