/* SPDX-License-Identifier: MIT */
/*
 * Output paths checked before a command does its work, so that a long run
 * or routing is not lost to a mistyped path (commands.h).
 */
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"

/*
 * 0 when `path` can be written, else -1 with errno. A file (dir 0)
 * replaces an existing one or is created in an existing directory we may
 * write; a directory of outputs (dir 1) exists as one or is created so.
 */
static int out_writable(const char *path, int dir)
{
	struct stat st;

	if (stat(path, &st) == 0) {
		if (dir != !!S_ISDIR(st.st_mode)) {
			errno = dir ? ENOTDIR : EISDIR;
			return -1;
		}
		return access(path, dir ? W_OK | X_OK : W_OK);
	}
	if (errno != ENOENT)
		return -1;
	char *copy = strdup(path);

	if (!copy)
		return -1;
	int rc = access(dirname(copy), W_OK | X_OK);

	free(copy);
	return rc;
}

int ibfs_cli_outputs_ok(const struct ibfs_cli_output *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (out[i].path && out_writable(out[i].path, out[i].dir) < 0) {
			ibfs_cli_error("%s: cannot write: %s", out[i].path,
				       strerror(errno));
			return -1;
		}
	return 0;
}
