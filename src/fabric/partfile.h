/* SPDX-License-Identifier: MIT */
/*
 * Output files that are never seen half written: the data goes to
 * PATH.part, which is renamed to PATH only when everything was written
 * and closed without error; on failure or abort PATH.part is removed.
 * Used by captures and timelines.
 */
#ifndef IBFS_FABRIC_PARTFILE_H
#define IBFS_FABRIC_PARTFILE_H

#include <stdio.h>

struct ibfs_partfile {
	FILE *out;
	char *path, *part;
};

/* Opens PATH.part for writing; returns 0, or -1 with errno set. */
int ibfs__partfile_open(struct ibfs_partfile *pf, const char *path);
/*
 * Closes the file and, unless `err` (an errno value met while writing) or
 * the close fails, renames it into place. Returns 0, or -1 with errno set
 * and nothing left under either name.
 */
int ibfs__partfile_commit(struct ibfs_partfile *pf, int err);
/* Closes and removes PATH.part. */
void ibfs__partfile_abort(struct ibfs_partfile *pf);

#endif
