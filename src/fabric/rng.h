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
uint64_t ibfs__rng_next(struct ibfs_rng *r);
/* Uniform in [0, n) without modulo bias; n > 0. */
uint64_t ibfs__rng_below(struct ibfs_rng *r, uint64_t n);
/* Uniform double in [0, 1). */
double ibfs__rng_double(struct ibfs_rng *r);

#endif
