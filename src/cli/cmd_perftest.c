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
	"                       [-b] [-q QPS] [-t DEPTH] [-I BYTES] [-m MTU]\n"
	"\n"
	"Runs one of perftest's tests between two simulated HCAs, back to\n"
	"back on one 4x EDR link with a 2 m cable, and prints perftest's\n"
	"columns.\n"
	"\n"
	"Tests: send_lat write_lat read_lat atomic_lat\n"
	"       send_bw write_bw read_bw (or perftest's names: ib_write_bw...)\n"
	"Options (perftest's, short or long: -s 64, --size 64, --size=64):\n"
	"  -s, --size BYTES     message size (default 2 for latency, 65536\n"
	"                       for bw)\n"
	"  -n, --iters ITERS    iterations (a QP; default 1000 for latency,\n"
	"                       5000 for bw)\n"
	"  -a, --all            all sizes from 2 bytes to 8 MiB (powers of two)\n"
	"  -c, --connection RC|UC|UD  connection type (default RC; UD: sends\n"
	"                       only, UC: sends and writes)\n"
	"  -i, --ib-port PORT   the HCAs' port (default 1)\n"
	"  -b, --bidirectional  bw: both sides send; the figures are the sums\n"
	"  -q, --qp QPS         bw: QPs, each with ITERS messages (default 1)\n"
	"  -t, --tx-depth DEPTH bw: WRs in flight a QP (default 128)\n"
	"  -I, --inline_size BYTES  send inline up to BYTES (default: 236\n"
	"                       for send_lat, 188 over UD, 220 for write_lat,\n"
	"                       0 for the others)\n"
	"  -m, --mtu MTU        path MTU, 256 to 4096 (default the port's)\n"
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
	const struct ibfs_topo_node *na = &w->t->nodes[ibfs__hca_node(w->a)],
				    *nb = &w->t->nodes[ibfs__hca_node(w->b)];
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

/* What the command line asks for. */
struct pt_opts {
	struct ibfs_pt_cfg c;   /* size, iters, qpt, port, -b -q -t -I -m */
	int have_size, all, have_profile;
	const char *profile, *fabric;
	struct ibfs_hca_pair_cfg pc;
};

/* Options of ours with no letter in perftest. */
enum { PT_OPT_PROFILE = 1, PT_OPT_FABRIC, PT_OPT_SPEED };

/* The options that take a value: perftest's letter and long name. */
static const struct {
	int code;        /* the letter, or PT_OPT_* */
	const char *name;
} pt_valued[] = {
	{'s', "size"}, {'n', "iters"}, {'c', "connection"}, {'i', "ib-port"},
	{'q', "qp"}, {'t', "tx-depth"}, {'I', "inline_size"}, {'m', "mtu"},
	{PT_OPT_PROFILE, "profile"}, {PT_OPT_FABRIC, "fabric"},
	{PT_OPT_SPEED, "speed"},
};

/* The code of option o (its first len bytes: "-s", "--size"), or -1. */
static int pt_opt_code(const char *o, size_t len)
{
	for (size_t k = 0; k < sizeof(pt_valued) / sizeof(pt_valued[0]); k++) {
		const char *name = pt_valued[k].name;
		if (len == 2 && o[0] == '-' && o[1] == pt_valued[k].code)
			return pt_valued[k].code;
		if (len > 2 && !strncmp(o, "--", 2) &&
		    strlen(name) == len - 2 && !strncmp(o + 2, name, len - 2))
			return pt_valued[k].code;
	}
	return -1;
}

/* A whole number from lo to hi, else a usage error with msg. */
static int pt_num(const char *v, uint64_t lo, uint64_t hi, uint64_t *x,
		  const char *msg)
{
	if (ibfs__parse_uint(v, x) || *x < lo || *x > hi)
		return pt_bad(msg, v);
	return 0;
}

static int pt_qp_type(struct pt_opts *o, const char *v)
{
	if (!strcmp(v, "RC"))
		o->c.qpt = IBFS_QPT_RC;
	else if (!strcmp(v, "UC"))
		o->c.qpt = IBFS_QPT_UC;
	else if (!strcmp(v, "UD"))
		o->c.qpt = IBFS_QPT_UD;
	else
		return pt_bad("connection type must be RC, UC or UD", v);
	return 0;
}

/* Options of ours: --profile, --fabric, --speed. */
static int pt_own_opt(struct pt_opts *o, int code, const char *v)
{
	if (code == PT_OPT_PROFILE) {
		if (!ibfs__hca_profile(v))
			return pt_bad("unknown profile", v);
		o->profile = v;
		o->have_profile = 1;
	} else if (code == PT_OPT_FABRIC) {
		o->fabric = v;
	} else if (ibfs__speed_parse(v, &o->pc.speed)) {
		return pt_bad("unknown speed", v);
	} else {
		o->pc.have_speed = 1;
	}
	return 0;
}

static int pt_valued_opt(struct pt_opts *o, int code, const char *v)
{
	static const char mtus[] = "MTU must be 256, 512, 1024, 2048 or 4096";
	uint64_t x = 0;
	int rc;
	switch (code) {
	case 's':
		rc = pt_num(v, 0, 1u << 30, &x, "size must be 0 to 1 GiB");
		o->c.size = (uint32_t)x;
		o->have_size = 1;
		return rc;
	case 'n':
		rc = pt_num(v, 1, 100000000, &x,
			    "iterations must be 1 to 10^8");
		o->c.iters = x;
		return rc;
	case 'c':
		return pt_qp_type(o, v);
	case 'i':
		rc = pt_num(v, 1, 254, &x, "port must be 1 to 254");
		o->c.port = (uint8_t)x;
		return rc;
	case 'q':
		rc = pt_num(v, 1, IBFS_PT_MAX_QPS, &x,
			    "QPs must be 1 to 16384");
		o->c.nqps = (uint32_t)x;
		return rc;
	case 't':
		rc = pt_num(v, 1, IBFS_PT_MAX_TX, &x,
			    "tx depth must be 1 to 15000");
		o->c.tx_depth = (uint32_t)x;
		return rc;
	case 'I':
		rc = pt_num(v, 0, IBFS_PT_MAX_INLINE, &x,
			    "inline size must be 0 to 912");
		o->c.inline_size = (uint32_t)x;
		o->c.have_inline = 1;
		return rc;
	case 'm':
		rc = pt_num(v, 256, 4096, &x, mtus);
		if (!rc && (x & (x - 1)))
			rc = pt_bad(mtus, v);
		o->c.mtu = (uint32_t)x;
		return rc;
	default:
		return pt_own_opt(o, code, v);
	}
}

/* Reads argv[2..]; returns -1 to go on, or the exit status (--help, a
 * usage error). */
static int pt_parse(struct pt_opts *o, int argc, char **argv)
{
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '=');
		size_t len = eq && !strncmp(a, "--", 2) ? (size_t)(eq - a)
							 : strlen(a);
		int code = pt_opt_code(a, len);
		if (ibfs_cli_is_help(a)) {
			fputs(pt_usage, stdout);
			return IBFS_EXIT_OK;
		} else if (!strcmp(a, "-a") || !strcmp(a, "--all")) {
			o->all = 1;
		} else if (!strcmp(a, "-b") || !strcmp(a, "--bidirectional")) {
			o->c.bidir = 1;
		} else if (code < 0) {
			return pt_bad("unknown option", a);
		} else {
			const char *v = len < strlen(a) ? a + len + 1 :
				        i + 1 < argc   ? argv[++i] :
							 NULL;
			if (!v)
				return pt_bad("missing value after", a);
			int rc = pt_valued_opt(o, code, v);
			if (rc)
				return rc;
		}
	}
	return -1;
}

/* The header line: the test, its modes, and where it runs. */
static void pt_print_title(const struct pt_opts *o, const char *test,
			   const char *what)
{
	printf("# ibfsim perftest %s", test);
	if (o->c.bidir || o->c.nqps > 1)
		printf(" (%s%s%u QP%s)", o->c.bidir ? "bidirectional" : "",
		       o->c.bidir ? ", " : "", o->c.nqps ? o->c.nqps : 1,
		       o->c.nqps > 1 ? "s" : "");
	printf(", %s\n", what);
}

/* Sets up the two HCAs and runs the sizes asked for. */
static int pt_execute(struct pt_opts *o, const char *test)
{
	enum ibfs_pt_test t = o->c.test;
	struct ibfs_diag d = {{0}};
	struct pt_world w;
	if (o->fabric ? pt_world_load(&w, o->fabric,
				      o->have_profile ? o->profile : NULL, &d) :
			pt_world_pair(&w, &o->pc, &d)) {
		ibfs_cli_error("%s", d.msg);
		return IBFS_EXIT_USAGE;
	}
	uint64_t lo = o->all ? 2 : o->c.size, hi = o->all ? (8u << 20) : o->c.size;
	const struct ibfs_fabric *fab = ibfs__hca_fabric(w.a);
	uint32_t mtu = fab->mtu ? fab->mtu : 4096;
	if (o->c.mtu > mtu) {
		/* As perftest: above the port's active MTU, the port's. */
		fprintf(stderr, "ibfsim: perftest: MTU %u is above the port's "
				"%u: using %u\n", o->c.mtu, mtu, mtu);
		o->c.mtu = mtu;
	}
	if (o->c.mtu)
		mtu = o->c.mtu;
	if (o->c.qpt == IBFS_QPT_UD && hi > mtu) {
		/* IBA 9.8.4: a UD message is one packet. -a stops there. */
		if (!o->all) {
			pt_world_free(&w);
			return pt_bad("a UD message is at most one MTU", NULL);
		}
		hi = mtu;
	}
	uint32_t max_inline = ibfs__hca_max_inline(w.a);
	if (o->c.have_inline && o->c.inline_size > max_inline) {
		/* ibv_create_qp refuses it: perftest stops before the test. */
		ibfs_cli_error("perftest: inline size %u is above the HCA's "
			       "max_inline_data, %u", o->c.inline_size,
			       max_inline);
		pt_world_free(&w);
		return IBFS_EXIT_USAGE;
	}
	if (ibfs__perftest_port_ok(w.a, w.b, o->c.port, &d) < 0) {
		pt_world_free(&w);
		ibfs_cli_error("%s", d.msg);
		return IBFS_EXIT_USAGE;
	}
	pt_print_title(o, test, w.what);
	pt_print_header(t);
	int rc = IBFS_EXIT_OK;
	for (uint64_t s = lo; s <= hi; s = s ? 2 * s : 1) {
		struct ibfs_pt_cfg c = o->c;
		struct ibfs_pt_result r;
		c.size = (uint32_t)s;
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
	struct pt_opts o = {.c = {.test = (enum ibfs_pt_test)test,
				  .qpt = IBFS_QPT_RC, .port = 1},
			    .profile = "connectx-4-edr",
			    .pc = {.data_mode = 1}};
	int rc = pt_parse(&o, argc, argv);
	if (rc >= 0)
		return rc;
	enum ibfs_pt_test t = o.c.test;
	if (!o.have_size)
		o.c.size = ibfs__pt_is_bw(t) ? 65536 : 2;
	if (!o.c.iters)
		o.c.iters = ibfs__pt_is_bw(t) ? 5000 : 1000;
	/* What perftest refuses before it starts: the library's rules. */
	struct ibfs_diag d = {{0}};
	if (ibfs__pt_check_usage(&o.c, &d) < 0) {
		ibfs_cli_error("%s (try 'ibfsim perftest --help')", d.msg);
		return IBFS_EXIT_USAGE;
	}
	o.pc.profile = o.profile;
	if (!o.pc.have_speed) {
		/* The cable of the profile's generation. */
		o.pc.have_speed = 1;
		o.pc.speed = strstr(o.profile, "-hdr") ? IBFS_SPEED_HDR :
			     strstr(o.profile, "-ndr") ? IBFS_SPEED_NDR :
							IBFS_SPEED_EDR;
	}
	return pt_execute(&o, argv[1]);
}
