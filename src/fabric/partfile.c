/* SPDX-License-Identifier: MIT */
/* Write to PATH.part, rename on success (see partfile.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabric/partfile.h"

static void pf_free(struct ibfs_partfile *pf)
{
	free(pf->path);
	free(pf->part);
	pf->path = pf->part = NULL;
	pf->out = NULL;
}

int ibfs__partfile_open(struct ibfs_partfile *pf, const char *path)
{
	size_t len = strlen(path) + 6;
	pf->out = NULL;
	pf->path = strdup(path);
	pf->part = malloc(len);
	if (!pf->path || !pf->part) {
		pf_free(pf);
		errno = ENOMEM;
		return -1;
	}
	snprintf(pf->part, len, "%s.part", path);
	pf->out = fopen(pf->part, "wb");
	if (!pf->out) {
		int e = errno;
		pf_free(pf);
		errno = e;
		return -1;
	}
	return 0;
}

int ibfs__partfile_commit(struct ibfs_partfile *pf, int err)
{
	if (fclose(pf->out) != 0 && !err)
		err = errno ? errno : EIO;
	if (!err && rename(pf->part, pf->path) != 0)
		err = errno;
	if (err)
		unlink(pf->part);
	pf_free(pf);
	errno = err;
	return err ? -1 : 0;
}

void ibfs__partfile_abort(struct ibfs_partfile *pf)
{
	fclose(pf->out);
	unlink(pf->part);
	pf_free(pf);
}
