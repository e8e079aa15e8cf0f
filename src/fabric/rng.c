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

uint64_t ibfs__rng_below_retry(struct ibfs_rng *r, uint64_t n,
			       unsigned __int128 m)
{
	/* See ibfs__rng_below: reject low words below 2^64 mod n. */
	uint64_t threshold = -n % n;

	while ((uint64_t)m < threshold)
		m = (unsigned __int128)ibfs__rng_next(r) * n;
	return (uint64_t)(m >> 64);
}

double ibfs__rng_double(struct ibfs_rng *r)
{
	/* The top 53 bits fill a double's mantissa exactly: k / 2^53. */
	return (double)(ibfs__rng_next(r) >> 11) * 0x1.0p-53;
}
