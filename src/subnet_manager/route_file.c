/* SPDX-License-Identifier: MIT */
/*
 * file, LFTs from an opensm-lfts.dump file (OpenSM's osm_ucast_file.c,
 * `opensm -R file -U FILE`): the tables are taken as they are, switch by
 * switch (matched by GUID). Without a file, or when the file does not fit
 * this subnet, the engine fails and the manager falls back to minhop.
 */
#include <stdlib.h>

#include "subnet_manager/lft_dump.h"
#include "subnet_manager/routing.h"

struct rfile {
	struct ibfs_subnet *sn;
	const char *path;
};

static int rfile_build(void *ctx)
{
	struct rfile *r = ctx;
	struct ibfs_diag d;
	if (!r->path) {
		ibfs__subnet_log(r->sn,
				 "ERR 6304: file: no LFT file given (--lfts-file)");
		return -1;
	}
	if (ibfs__lft_load(r->sn, r->path, &d)) {
		ibfs__subnet_log(r->sn, "%s", d.msg);
		return -1;
	}
	return 0;
}

static void rfile_destroy(void *ctx)
{
	free(ctx);
}

int ibfs__route_file_setup(struct ibfs_routing_engine *re)
{
	struct rfile *r = calloc(1, sizeof(*r));
	if (!r)
		return -1;
	r->sn = re->sn;
	r->path = re->opts->lfts_file;
	re->ctx = r;
	re->ucast_build_fwd_tables = rfile_build;
	re->destroy = rfile_destroy;
	return 0;
}
