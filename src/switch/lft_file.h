/* SPDX-License-Identifier: MIT */
/*
 * The one reader of OpenSM's opensm-lfts.dump format
 * (docs/subnet-manager.md, "Interchange with OpenSM and ibsim"), as
 * OpenSM's dump_ucast_lfts writes it and its file engine reads it back
 * (`opensm -R file -U FILE`), and as ibroute (dump_lfts.sh) prints it.
 * Each switch has a block:
 *
 *   Unicast lids [0-MAX] of switch Lid L guid 0xGUID ('description'):
 *   0xLID PORT # optional comment
 *   ...
 *   MAX lids dumped
 *
 * LID and GUID in hexadecimal, PORT in decimal. The reader checks the
 * syntax and hands each block header and entry to its caller, which
 * finds the switch and checks the values against its own model: the
 * switches of a fabric (ibfs__switch_load_lfts) or the SM's subnet
 * (subnet_manager/lft_dump.c).
 */
#ifndef IBFS_SWITCH_LFT_FILE_H
#define IBFS_SWITCH_LFT_FILE_H

#include <stdint.h>

#include "fabric/diag.h"

/* A block's header line. */
struct ibfs_lft_block {
	uint64_t guid;
	unsigned long lid; /* its "Lid L"; 0 when the line has none */
	const char *desc;  /* the quoted description, or NULL */
};

/* Each returns 0, or -1 with "FILE:LINE: what is wrong" in d. */
struct ibfs_lft_file_ops {
	int (*block)(void *arg, const struct ibfs_lft_block *b,
		     const char *file, long line, struct ibfs_diag *d);
	/* An entry of the block the last header opened. */
	int (*entry)(void *arg, unsigned long lid, unsigned long port,
		     const char *file, long line, struct ibfs_diag *d);
};

/*
 * Reads the file at path, calling ops for every header and entry. Returns
 * 0, or -1 at the first bad line or refused call, with d filled.
 */
int ibfs__lft_file_read(const char *path, const struct ibfs_lft_file_ops *ops,
			void *arg, struct ibfs_diag *d);

#endif
