/* SPDX-License-Identifier: MIT */
/*
 * OpenSM's opensm-lfts.dump format (docs/subnet-manager.md, "Interchange
 * with OpenSM and ibsim"), written by OpenSM's dump_ucast_lfts
 * (osm_dump.c) and read back by its file engine (osm_ucast_file.c,
 * `opensm -R file -U FILE`). Per switch, in GUID order:
 *
 *   Unicast lids [0-MAX] of switch Lid L guid 0x%016x ('desc'):
 *   0x%04x %03u # Channel Adapter|Switch portguid 0x%016x: 'desc'
 *   ...
 *   MAX lids dumped
 *
 * with one line per LID that has a port (255, no path, is left out).
 */
#ifndef IBFS_SM_LFT_DUMP_H
#define IBFS_SM_LFT_DUMP_H

#include <stdio.h>

#include "subnet_manager/subnet.h"

/* Writes every switch's LFT to f. Returns 0, or -1 on a write error. */
int ibfs__lft_dump(const struct ibfs_subnet *sn, FILE *f);
/*
 * Writes "0xSWITCHGUID 0xLID HOPS" for every switch (GUID order) and LID,
 * hops from ibfs__route_stats (255: no path), for comparing two sets of
 * tables hop by hop (OpenSM's opensm-lid-matrix.dump holds the same
 * figures per port).
 */
int ibfs__hops_dump(const struct ibfs_subnet *sn, const uint8_t *hops,
		    FILE *f);
/*
 * Reads a dump into sn's LFTs (switches matched by GUID) with the one
 * reader of the format (switch/lft_file.h). Returns 0, or -1 with
 * "file:line: ..." in d.
 */
int ibfs__lft_load(struct ibfs_subnet *sn, const char *path,
		   struct ibfs_diag *d);

#endif
