/* SPDX-License-Identifier: MIT */
/*
 * ibfsim perftest: perftest's latency and bandwidth tests between two
 * simulated HCAs, back to back by default, printed in perftest's columns.
 * The measurement loops live in src/hca/perftest.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "fabric/units.h"
#include "fabric/xml_fabric.h"
#include "hca/pair.h"
#include "hca/perftest.h"
#include "scenario/routes.h"
#include "switch/switch.h"

static const char pt_usage[] =
	"Usage: ibfsim perftest TEST [-s BYTES] [-n ITERS] [--fabric FILE]\n"
	"                       [--profile NAME] [-c RC|UC|UD] [-i PORT] [-a]\n"
	"\n"
	"Runs one of perftest's tests between two simulated HCAs, back to\n"
	"back on one 4x EDR link with a 2 m cable, and prints perftest's\n"
	"columns.\n"
	"\n"
	"Tests: send_lat write_lat read_lat atomic_lat\n"
	"       send_bw write_bw read_bw (or perftest's names: ib_write_bw...)\n"
	"  -s BYTES        message size (default 2 for latency, 65536 for bw)\n"
	"  -n ITERS        iterations (default 1000 for latency, 5000 for bw)\n"
	"  -a              all sizes from 2 bytes to 8 MiB (powers of two)\n"
	"  -c RC|UC|UD     connection type (default RC; UD: sends only, UC:\n"
	"                  sends and writes)\n"
	"  -i PORT         the HCAs' port (--ib-port; default 1)\n"
	"  --profile NAME  HCA timing profile: ideal, connectx-4-edr\n"
	"                  (default), connectx-6-hdr, connectx-7-ndr\n"
	"  --speed SPEED   speed of the back-to-back cable (default: the\n"
	"                  profile's, EDR for ideal and connectx-4-edr)\n"
	"  --fabric FILE   run on this fabric (routed by minhop) between its\n"
	"                  first two HCAs, client first\n"
	"Latency is half a round trip for send/write, a full one for\n"
	"read/atomic, in microseconds; bandwidth in Gb/s (10^9 bit/s).\n"
	"Exit status: 0 success, 1 the run failed, 2 bad usage.\n";

static int pt_bad(const char *msg, const char *arg)
{
	ibfs_cli_error("perftest: %s%s%s (try 'ibfsim perftest --help')", msg,
		       arg ? ": " : "", arg ? arg : "");
	return IBFS_EXIT_USAGE;
}

static void pt_print_header(enum ibfs_pt_test t)
{
	if (ibfs__pt_is_bw(t))
		printf(" #bytes     #iterations    BW peak[Gb/sec]    "
		       "BW average[Gb/sec]   MsgRate[Mpps]\n");
	else
		printf(" #bytes #iterations    t_min[usec]    t_max[usec]  "
		       "t_typical[usec]    t_avg[usec]    t_stdev[usec]   "
		       "99%% percentile[usec]   99.9%% percentile[usec] \n");
}

static void pt_print(enum ibfs_pt_test t, const struct ibfs_pt_result *r)
{
	if (ibfs__pt_is_bw(t))
		printf(" %-10u %-10llu     %-18.2f %-20.2f %.6f\n", r->size,
		       (unsigned long long)r->iters, r->bw_peak_gbps,
		       r->bw_avg_gbps, r->msg_rate_mpps);
	else
		printf(" %-7u %-10llu %-14.2f %-14.2f %-16.2f %-14.2f "
		       "%-16.2f %-22.2f %.2f\n",
		       r->size, (unsigned long long)r->iters, r->t_min,
		       r->t_max, r->t_typical, r->t_avg, r->t_stdev, r->p99,
		       r->p999);
}

/* The two HCAs a run uses, back to back or on a fabric file. */
struct pt_world {
	struct ibfs_hca_pair pair;  /* back to back */
	struct ibfs_topology *t;    /* or a fabric file */
	struct ibfs_fabric *f;
	struct ibfs_direct_exec fdx;
	struct ibfs_hca *a, *b;
	struct ibfs_direct_exec *dx;
	char what[256];
};

static int pt_world_pair(struct pt_world *w,
			 const struct ibfs_hca_pair_cfg *pc,
			 struct ibfs_diag *d)
{
	memset(w, 0, sizeof(*w));
	if (ibfs__hca_pair_new(&w->pair, pc, d))
		return -1;
	w->a = w->pair.h[0];
	w->b = w->pair.h[1];
	w->dx = &w->pair.dx;
	snprintf(w->what, sizeof(w->what), "profile %s, back to back",
		 pc->profile);
	return 0;
}

static void pt_world_free(struct pt_world *w)
{
	if (!w->f) {
		ibfs__hca_pair_free(&w->pair);
		return;
	}
	for (size_t i = 0; i < w->t->nnodes; i++) {
		if (!w->f->devices[i])
			continue;
		if (w->t->nodes[i].type == IBFS_NODE_SWITCH)
			ibfs__switch_destroy(ibfs__switch_of(w->f->devices[i]));
		else
			ibfs__hca_free(ibfs__hca_of_node(w->f, (int)i));
	}
	ibfs__fabric_free(w->f);
	ibfs__topo_free(w->t);
}

/* Every device of the fabric, routes by minhop; client and server are
 * the first two HCAs of the file. */
static int pt_world_load(struct pt_world *w, const char *path,
			 const char *profile, struct ibfs_diag *d)
{
	memset(w, 0, sizeof(*w));
	w->t = ibfs__fabric_xml_load(path, d);
	if (!w->t)
		return -1;
	if (ibfs__topo_count(w->t, IBFS_NODE_HCA) < 2) {
		ibfs__diag(d, path, 0, "perftest needs two HCAs");
		ibfs__topo_free(w->t);
		return -1;
	}
	w->f = ibfs__fabric_new(w->t, 1, 1);
	if (!w->f) {
		ibfs__topo_free(w->t);
		return ibfs__diag(d, path, 0, "out of memory");
	}
	w->dx = &w->fdx;
	struct ibfs_exec ex = ibfs__direct_exec(&w->fdx, &w->f->eq);
	int found = 0;
	for (size_t i = 0; i < w->t->nnodes; i++) {
		const struct ibfs_topo_node *n = &w->t->nodes[i];
		if (n->type == IBFS_NODE_SWITCH) {
			if (!ibfs__switch_create(w->f, (int)i, d))
				goto fail;
			continue;
		}
		struct ibfs_hca *h = ibfs__hca_create(
			w->f, (int)i, profile ? profile : n->profile, ex, d);
		if (!h)
			goto fail;
		if (found == 0)
			w->a = h;
		else if (found == 1)
			w->b = h;
		found++;
	}
	if (ibfs__routes_program(w->f, "minhop", 0, NULL, NULL, d) < 0)
		goto fail;
	/* Each end's profile: the file's (default ideal) or --profile. */
	const struct ibfs_topo_node *na = &w->t->nodes[w->a->dev.node],
				    *nb = &w->t->nodes[w->b->dev.node];
	const char *pa = profile ? profile : na->profile,
		   *pb = profile ? profile : nb->profile;
	if (!strcmp(pa, pb))
		snprintf(w->what, sizeof(w->what),
			 "%s, client %s, server %s, profile %s", path, na->id,
			 nb->id, pa);
	else
		snprintf(w->what, sizeof(w->what),
			 "%s, client %s (profile %s), server %s (profile %s)",
			 path, na->id, pa, nb->id, pb);
	return 0;
fail:
	pt_world_free(w);
	return -1;
}

int ibfs_cmd_perftest(int argc, char **argv)
{
	if (argc < 2)
		return pt_bad("which test?", NULL);
	if (ibfs_cli_is_help(argv[1])) {
		fputs(pt_usage, stdout);
		return IBFS_EXIT_OK;
	}
	int test = ibfs__pt_test_parse(argv[1]);
	if (test < 0)
		return pt_bad("unknown test", argv[1]);
	uint64_t size = 0, iters = 0;
	int have_size = 0, all = 0;
	enum ibfs_qp_type qpt = IBFS_QPT_RC;
	const char *profile = "connectx-4-edr", *fabric = NULL;
	int have_profile = 0;
	uint8_t port = 1;
	struct ibfs_hca_pair_cfg pc = {.data_mode = 1};
	for (int i = 2; i < argc; i++) {
		const char *o = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (ibfs_cli_is_help(o)) {
			fputs(pt_usage, stdout);
			return IBFS_EXIT_OK;
		} else if (!strcmp(o, "-a")) {
			all = 1;
		} else if (!strcmp(o, "-c")) {
			if (!v)
				return pt_bad("missing value after", o);
			i++;
			if (!strcmp(v, "RC"))
				qpt = IBFS_QPT_RC;
			else if (!strcmp(v, "UC"))
				qpt = IBFS_QPT_UC;
			else if (!strcmp(v, "UD"))
				qpt = IBFS_QPT_UD;
			else
				return pt_bad("connection type must be RC, UC "
					      "or UD", v);
		} else if (!strcmp(o, "-i") || !strcmp(o, "--ib-port")) {
			uint64_t x;
			if (!v)
				return pt_bad("missing value after", o);
			i++;
			if (ibfs__parse_uint(v, &x) || x < 1 || x > 254)
				return pt_bad("port must be 1 to 254", v);
			port = (uint8_t)x;
		} else if (!strcmp(o, "-s") || !strcmp(o, "-n") ||
			   !strcmp(o, "--profile") || !strcmp(o, "--fabric") ||
			   !strcmp(o, "--speed")) {
			if (!v)
				return pt_bad("missing value after", o);
			i++;
			if (!strcmp(o, "--profile")) {
				if (!ibfs__hca_profile(v))
					return pt_bad("unknown profile", v);
				profile = v;
				have_profile = 1;
			} else if (!strcmp(o, "--fabric")) {
				fabric = v;
			} else if (!strcmp(o, "--speed")) {
				if (ibfs__speed_parse(v, &pc.speed))
					return pt_bad("unknown speed", v);
				pc.have_speed = 1;
			} else {
				uint64_t x;
				if (ibfs__parse_uint(v, &x) ||
				    (o[1] == 's' && x > (1u << 30)) ||
				    (o[1] == 'n' && (x < 1 || x > 100000000)))
					return pt_bad(o[1] == 's' ?
						"size must be 0 to 1 GiB" :
						"iterations must be 1 to 10^8",
						v);
				if (o[1] == 's') {
					size = x;
					have_size = 1;
				} else {
					iters = x;
				}
			}
		} else {
			return pt_bad("unknown option", o);
		}
	}
	enum ibfs_pt_test t = (enum ibfs_pt_test)test;
	int sendish = t == IBFS_PT_SEND_LAT || t == IBFS_PT_SEND_BW;
	int writeish = t == IBFS_PT_WRITE_LAT || t == IBFS_PT_WRITE_BW;
	if ((qpt == IBFS_QPT_UD && !sendish) ||
	    (qpt == IBFS_QPT_UC && !sendish && !writeish))
		return pt_bad(qpt == IBFS_QPT_UD ?
				      "UD runs send_lat and send_bw only" :
				      "UC runs sends and writes only",
			      argv[1]);
	if (!have_size)
		size = ibfs__pt_is_bw(t) ? 65536 : 2;
	if (!iters)
		iters = ibfs__pt_is_bw(t) ? 5000 : 1000;
	pc.profile = profile;
	if (!pc.have_speed) {
		/* The cable of the profile's generation. */
		pc.have_speed = 1;
		pc.speed = strstr(profile, "-hdr") ? IBFS_SPEED_HDR :
			   strstr(profile, "-ndr") ? IBFS_SPEED_NDR :
						    IBFS_SPEED_EDR;
	}
	struct ibfs_diag d = {{0}};
	struct pt_world w;
	if (fabric ? pt_world_load(&w, fabric, have_profile ? profile : NULL,
				   &d) :
		     pt_world_pair(&w, &pc, &d)) {
		ibfs_cli_error("%s", d.msg);
		return IBFS_EXIT_USAGE;
	}
	uint64_t lo = all ? 2 : size, hi = all ? (8u << 20) : size;
	uint32_t mtu = w.a->dev.fab->mtu ? w.a->dev.fab->mtu : 4096;
	if (qpt == IBFS_QPT_UD && hi > mtu) {
		/* IBA 9.8.4: a UD message is one packet. -a stops there. */
		if (!all) {
			pt_world_free(&w);
			return pt_bad("a UD message is at most one MTU", NULL);
		}
		hi = mtu;
	}
	if (ibfs__perftest_port_ok(w.a, w.b, port, &d) < 0) {
		pt_world_free(&w);
		ibfs_cli_error("%s", d.msg);
		return IBFS_EXIT_USAGE;
	}
	printf("# ibfsim perftest %s, %s\n", argv[1], w.what);
	pt_print_header(t);
	int rc = IBFS_EXIT_OK;
	for (uint64_t s = lo; s <= hi; s = s ? 2 * s : 1) {
		struct ibfs_pt_cfg c = {.test = t, .size = (uint32_t)s,
					.iters = iters, .inline_max = 236,
					.qpt = qpt, .port = port};
		struct ibfs_pt_result r;
		if (ibfs__perftest_run(w.a, w.b, w.dx, &c, &r, &d)) {
			ibfs_cli_error("%s", d.msg);
			rc = IBFS_EXIT_FAIL;
			break;
		}
		pt_print(t, &r);
		if (t == IBFS_PT_ATOMIC_LAT || s == hi)
			break;
	}
	pt_world_free(&w);
	return rc;
}
