// SPDX-License-Identifier: MIT
/*
 * The scratch directory the harnesses write their input to, made once per
 * process under $TMPDIR and removed at exit.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

static char top[PATH_MAX];
static char last[PATH_MAX + 64];

const char *ibfs_fuzz_srcdir(void)
{
	const char *s = getenv("top_srcdir");

	return s && *s ? s : FUZZ_SRCDIR;
}

/* The links that stand for the source tree's directories. */
static const char *const links[][2] = {
	{ "platforms", "platforms" },
	{ "examples", "examples" },
	{ "tests/data/sm", "tests/data/sm" },
	{ "tests/data/flows", "tests/data/flows" },
	{ "tests/data/scenario/pkeys", "tests/data/scenario/pkeys" },
};

static void cleanup(void)
{
	char p[PATH_MAX + 64];

	if (last[0])
		unlink(last);
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", top, links[i][0]);
		unlink(p);
	}
	static const char *const dirs[] = { "tests/data/scenario",
					    "tests/data", "tests", "" };
	for (size_t i = 0; i < 4; i++) {
		snprintf(p, sizeof(p), "%s/%s", top, dirs[i]);
		rmdir(p);
	}
}

static void make_top(void)
{
	const char *tmp = getenv("TMPDIR");
	char p[PATH_MAX + 64], to[PATH_MAX + 64];

	snprintf(top, sizeof(top), "%s/ibfs-fuzz-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(top)) {
		perror(top);
		abort();
	}
	snprintf(p, sizeof(p), "%s/tests", top);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/tests/data", top);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/tests/data/scenario", top);
	mkdir(p, 0700);
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", top, links[i][0]);
		snprintf(to, sizeof(to), "%s/%s", ibfs_fuzz_srcdir(),
			 links[i][1]);
		if (symlink(to, p))
			perror(p);
	}
	atexit(cleanup);
}

const char *ibfs_fuzz_file(const uint8_t *data, size_t size,
			   const char *name)
{
	if (!top[0])
		make_top();
	snprintf(last, sizeof(last), "%s/tests/data/scenario/%s", top, name);
	FILE *f = fopen(last, "wb");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f)) {
		perror(last);
		abort();
	}
	return last;
}

char *ibfs_fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}
