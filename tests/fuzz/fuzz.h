/* SPDX-License-Identifier: MIT */
/*
 * What the fuzz harnesses share. Each harness is one libFuzzer entry point,
 * LLVMFuzzerTestOneInput, around one of ibfsim's parsers; it is built with
 * clang's libFuzzer by bench/fuzz.sh and, for `make check`, with the
 * ordinary compiler and replay.c, which feeds it every file of its corpus
 * and of its past crashes.
 */
#ifndef IBFS_TESTS_FUZZ_H
#define IBFS_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Writes the input to a file of a private directory that mirrors the
 * source tree's layout (tests/data/scenario/NAME, with platforms/,
 * examples/, tests/data/sm and the scenario's pkeys/ reached through
 * links), so that a scenario's relative references resolve as they do
 * from tests/data/scenario. Returns the path; aborts if it cannot write.
 */
const char *ibfs_fuzz_file(const uint8_t *data, size_t size,
			   const char *name);
/* The input as a NUL-terminated string (freed by the caller). */
char *ibfs_fuzz_string(const uint8_t *data, size_t size);
/* The source tree's top (FUZZ_SRCDIR at build time, or $top_srcdir). */
const char *ibfs_fuzz_srcdir(void);

#endif
