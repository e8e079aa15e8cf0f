/* SPDX-License-Identifier: MIT */
/*
 * Diagnostics for bad input. Loaders fill a struct ibfs_diag with one
 * sentence "FILE:LINE: what is wrong" and return -1; the command line prints
 * it as "ibfsim: FILE:LINE: what is wrong" and exits 2. Nothing is printed
 * from inside the library.
 */
#ifndef IBFS_FABRIC_DIAG_H
#define IBFS_FABRIC_DIAG_H

struct ibfs_diag {
	char msg[1024];
};

/* Formats "file:line: message" into d (line 0 omits the line). Returns -1. */
int ibfs__diag(struct ibfs_diag *d, const char *file, long line,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * "<el> needs a 'name' attribute" (an 'at', an 'id'), the sentence the
 * fabric and scenario readers give for a missing attribute. Returns -1.
 */
int ibfs__diag_needs(struct ibfs_diag *d, const char *file, long line,
		     const char *el, const char *name);

#endif
