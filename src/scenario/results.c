/* SPDX-License-Identifier: MIT */
/*
 * The results of a run as it collects them: a record per message, and
 * their release at the end. Their statistics are in results_stats.c and
 * the three outputs in results_text.c, results_json.c and results_csv.c
 * (docs/results.md defines every figure); here also the one way the JSON
 * and the CSV tables reach their files.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenario/results_int.h"

int ibfs__results_add(struct ibfs_results *r, const struct ibfs_msg_record *m)
{
	if (r->nmsgs == r->msgs_cap) {
		size_t cap = r->msgs_cap ? 2 * r->msgs_cap : 64;
		void *v = realloc(r->msgs, cap * sizeof(*r->msgs));
		if (!v)
			return -1;
		r->msgs = v;
		r->msgs_cap = cap;
	}
	r->msgs[r->nmsgs++] = *m;
	return 0;
}

void ibfs__results_free(struct ibfs_results *r)
{
	free(r->msgs);
	free(r->colls);
	r->colls = NULL;
	r->ncolls = 0;
	free(r->no_route);
	free(r->mc_sends);
	free(r->mc_dels);
	free(r->mc_joins);
	r->mc_joins = NULL;
	free(r->fct);
	r->fct = NULL;
	r->nfct = 0;
	r->nmc_joins = 0;
	r->mc_sends = NULL;
	r->mc_dels = NULL;
	r->nmc_sends = r->nmc_dels = 0;
	r->no_route = NULL;
	r->msgs = NULL;
	r->nmsgs = r->msgs_cap = 0;
	if (r->cleanup)
		r->cleanup(r->cleanup_arg);
	r->cleanup = NULL;
}

/*
 * Writes through a temporary file in the same directory and renames it into
 * place, so a reader never sees half a file.
 */
int ibfs__results_write_whole(const char *path,
			      void (*body)(const struct ibfs_results *,
					   FILE *),
			      const struct ibfs_results *r)
{
	size_t len = strlen(path) + 16;
	char *tmp = malloc(len);
	if (!tmp)
		return -1;
	snprintf(tmp, len, "%s.tmpXXXXXX", path);
	int fd = mkstemp(tmp);
	FILE *o = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!o) {
		int e = errno;
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		errno = e;
		return -1;
	}
	body(r, o);
	int bad = ferror(o);
	bad |= fclose(o) != 0;
	if (bad || rename(tmp, path) != 0) {
		int e = errno;
		unlink(tmp);
		free(tmp);
		errno = e ? e : EIO;
		return -1;
	}
	free(tmp);
	return 0;
}
