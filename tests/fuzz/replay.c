// SPDX-License-Identifier: MIT
/*
 * The replay driver: a main() for a fuzz harness built without libFuzzer.
 * With no arguments it feeds LLVMFuzzerTestOneInput every file of
 * tests/fuzz/corpus/NAME and tests/fuzz/crashes/NAME (NAME the harness's,
 * FUZZ_NAME at build time); otherwise every file or directory given. A
 * parser that crashes, leaks (under the sanitizers) or hangs fails the
 * test; what it returns does not matter.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int feed_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f) {
		perror(path);
		return -1;
	}
	for (;;) {
		if (n == cap) {
			cap = cap ? 2 * cap : 4096;
			uint8_t *b = realloc(buf, cap);
			if (!b)
				abort();
			buf = b;
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		if (!got)
			break;
		n += got;
	}
	fclose(f);
	/* An exact-size copy, so that ASan sees a read past the input. */
	uint8_t *exact = malloc(n ? n : 1);
	if (!exact)
		abort();
	memcpy(exact, buf, n);
	free(buf);
	LLVMFuzzerTestOneInput(exact, n);
	free(exact);
	return 0;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir, in name order; a missing dir is empty. */
static int feed_dir(const char *dir, int *count)
{
	DIR *d = opendir(dir);
	char **names = NULL;
	size_t n = 0;
	int rc = 0;

	if (!d)
		return 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		char **nn = realloc(names, (n + 1) * sizeof(*names));
		if (!nn)
			abort();
		names = nn;
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp);
	for (size_t i = 0; i < n; i++) {
		char p[PATH_MAX];
		struct stat st;

		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		if (!stat(p, &st) && S_ISREG(st.st_mode)) {
			rc |= feed_file(p);
			(*count)++;
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	int rc = 0, count = 0;

	if (argc > 1) {
		for (int i = 1; i < argc; i++) {
			struct stat st;
			if (!stat(argv[i], &st) && S_ISDIR(st.st_mode))
				rc |= feed_dir(argv[i], &count);
			else
				rc |= feed_file(argv[i]), count++;
		}
	} else {
		static const char *const kinds[] = { "corpus", "crashes" };
		for (int k = 0; k < 2; k++) {
			char p[PATH_MAX];
			snprintf(p, sizeof(p), "%s/tests/fuzz/%s/%s",
				 ibfs_fuzz_srcdir(), kinds[k], FUZZ_NAME);
			rc |= feed_dir(p, &count);
		}
	}
	printf("replay %s: %d inputs\n", FUZZ_NAME, count);
	return rc ? 1 : 0;
}
