/* SPDX-License-Identifier: MIT */
/*
 * ibfsim route: runs the subnet manager's offline half on a fabric: LID
 * assignment (with LMC), one routing engine, and the checks on the result
 * (hop counts, routes per port, credit loops). Optionally writes the LFTs
 * in OpenSM's opensm-lfts.dump format.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "fabric/topo_netfile.h"
#include "fabric/xml_fabric.h"
#include "subnet_manager/credit_loop.h"
#include "subnet_manager/lft_dump.h"
#include "subnet_manager/routing.h"

static void route_usage(FILE *f)
{
	fputs("Usage: ibfsim route FABRIC.xml|FILE.net [--routing ENGINE] [--lmc N]\n"
	      "                    [--dump-lfts FILE] [--dump-hops FILE] [--lfts-file FILE]\n"
	      "                    [--root-guids GUID,...] [--no-fallback]\n"
	      "\n"
	      "Assigns LIDs, routes the fabric with one engine (OpenSM's names) and\n"
	      "prints switches, HCAs, LIDs, the engine, hop counts between HCA ports\n"
	      "(max, mean), CA LIDs per switch-to-switch port (min, mean, max) and\n"
	      "the credit-loop (deadlock) verdict.\n"
	      "\n"
	      "  --routing ENGINE   routing engine (default minhop):\n",
	      f);
	for (const struct ibfs_routing_entry *e = ibfs__routing_engines;
	     e->name; e++)
		fprintf(f, "                       %-7s %s\n", e->name, e->what);
	fputs("  --lmc N            LID mask control 0..7: 2^N LIDs per HCA port\n"
	      "  --dump-lfts FILE   write the LFTs as OpenSM's opensm-lfts.dump\n"
	      "  --dump-hops FILE   write 'SWITCHGUID LID HOPS' lines, hops along the LFTs\n"
	      "  --lfts-file FILE   input of the 'file' engine (opensm -U)\n"
	      "  --root-guids LIST  root switches for updn/dnup (default: OpenSM's rule)\n"
	      "  --no-fallback      fail instead of falling back to minhop\n"
	      "\n"
	      "Exit status: 0 routed, 1 routing failed, 2 bad usage or input.\n",
	      f);
}

/* Loads XML, or an ibnetdiscover/.net file by its name. */
static struct ibfs_topology *route_load(const char *path, struct ibfs_diag *d)
{
	size_t n = strlen(path);
	if ((n > 4 && !strcmp(path + n - 4, ".net")) ||
	    (n > 14 && !strcmp(path + n - 14, ".ibnetdiscover")))
		return ibfs__netfile_load(path, d);
	return ibfs__fabric_xml_load(path, d);
}

static void route_print_log(const struct ibfs_subnet *sn)
{
	const char *l = sn->log;
	while (l && *l) {
		size_t n = strcspn(l, "\n");
		ibfs_cli_error("%.*s", (int)n, l);
		l += n + (l[n] == '\n');
	}
}

int ibfs_cmd_route(int argc, char **argv)
{
	const char *fabric = NULL, *engine = "minhop", *dump = NULL;
	const char *hops_file = NULL;
	struct ibfs_routing_opts opts = {0};
	long lmc = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (ibfs_cli_is_help(a)) {
			route_usage(stdout);
			return IBFS_EXIT_OK;
		} else if (!strcmp(a, "--no-fallback")) {
			opts.no_fallback = 1;
		} else if (a[0] == '-' && a[1] == '-' && a[2]) {
			if (!v) {
				ibfs_cli_error("route: %s needs a value", a);
				return IBFS_EXIT_USAGE;
			}
			i++;
			if (!strcmp(a, "--routing")) {
				engine = v;
			} else if (!strcmp(a, "--lmc")) {
				char *end;
				errno = 0;
				lmc = strtol(v, &end, 10);
				if (*end || end == v || lmc < 0 ||
				    lmc > IBFS_MAX_LMC) {
					ibfs_cli_error("route: --lmc '%s' must be 0 to %d",
						       v, IBFS_MAX_LMC);
					return IBFS_EXIT_USAGE;
				}
			} else if (!strcmp(a, "--dump-lfts")) {
				dump = v;
			} else if (!strcmp(a, "--dump-hops")) {
				hops_file = v;
			} else if (!strcmp(a, "--lfts-file")) {
				opts.lfts_file = v;
			} else if (!strcmp(a, "--root-guids")) {
				opts.root_guids = v;
			} else {
				ibfs_cli_error("route: unknown option '%s' (try 'ibfsim route --help')",
					       a);
				return IBFS_EXIT_USAGE;
			}
		} else if (!fabric) {
			fabric = a;
		} else {
			ibfs_cli_error("route: more than one fabric ('%s', '%s')",
				       fabric, a);
			return IBFS_EXIT_USAGE;
		}
	}
	if (!fabric) {
		route_usage(stderr);
		return IBFS_EXIT_USAGE;
	}
	if (!ibfs__routing_find(engine)) {
		struct ibfs_diag d;
		struct ibfs_subnet tmp = {0};
		ibfs__routing_run(&tmp, engine, &opts, &d);
		ibfs_cli_error("route: %s", d.msg);
		return IBFS_EXIT_USAGE;
	}
	struct ibfs_diag d = {{0}};
	struct ibfs_topology *t = route_load(fabric, &d);
	if (!t) {
		ibfs_cli_error("%s", d.msg);
		return IBFS_EXIT_USAGE;
	}
	int rc = IBFS_EXIT_OK;
	struct ibfs_subnet *sn = ibfs__subnet_from_topo(t, &d);
	if (!sn || ibfs__subnet_assign_lids(sn, (int)lmc, &d)) {
		ibfs_cli_error("%s: %s", fabric, d.msg);
		rc = IBFS_EXIT_USAGE;
		goto out;
	}
	if (ibfs__routing_run(sn, engine, &opts, &d)) {
		route_print_log(sn);
		ibfs_cli_error("%s: %s", fabric, d.msg);
		rc = IBFS_EXIT_FAIL;
		goto out;
	}
	route_print_log(sn);
	struct ibfs_route_stats st;
	char verdict[2048];
	uint8_t *hops = NULL;
	if (hops_file) {
		hops = malloc((size_t)sn->nsw * (sn->max_lid + 1) + 1);
		if (!hops) {
			ibfs_cli_error("%s: out of memory", fabric);
			rc = IBFS_EXIT_FAIL;
			goto out;
		}
	}
	int bad_stats = ibfs__route_stats(sn, &st, hops);
	if (!bad_stats && hops_file) {
		FILE *f = fopen(hops_file, "w");
		int bad = !f;
		if (f) {
			bad |= ibfs__hops_dump(sn, hops, f) != 0;
			bad |= fclose(f) != 0;
		}
		if (bad) {
			ibfs_cli_error("%s: cannot write: %s", hops_file,
				       strerror(errno));
			rc = IBFS_EXIT_FAIL;
		}
	}
	free(hops);
	if (bad_stats ||
	    ibfs__credit_loops(sn, verdict, sizeof(verdict)) < 0) {
		ibfs_cli_error("%s: out of memory", fabric);
		rc = IBFS_EXIT_FAIL;
		goto out;
	}
	size_t ncas = ibfs__topo_count(t, IBFS_NODE_HCA);
	printf("fabric: %s\n", t->name ? t->name : fabric);
	printf("switches: %d\n", sn->nsw);
	printf("HCAs: %zu\n", ncas);
	printf("LIDs: 1-%u (LMC %d)\n", sn->max_lid, sn->lmc);
	printf("routing engine: %s\n", sn->engine);
	printf("hops between HCA ports: max %d, mean %.3f\n", st.hop_max,
	       st.hop_mean);
	if (st.isw_ports)
		printf("CA LIDs per switch-to-switch port: min %ld, mean %.3f, max %ld\n",
		       st.routes_min, st.routes_mean, st.routes_max);
	else
		printf("CA LIDs per switch-to-switch port: none (no switch-to-switch links)\n");
	if (st.unreachable || st.loops)
		printf("unroutable: %d (switch, LID) pairs without a path, %d looping; first: %s\n",
		       st.unreachable, st.loops, st.first_bad);
	else
		printf("unroutable: none\n");
	printf("credit loops: %s\n", verdict);
	if (dump) {
		FILE *f = fopen(dump, "w");
		int bad = !f;
		if (f) {
			bad |= ibfs__lft_dump(sn, f) != 0;
			bad |= fclose(f) != 0;
		}
		if (bad) {
			ibfs_cli_error("%s: cannot write: %s", dump,
				       strerror(errno));
			rc = IBFS_EXIT_FAIL;
		}
	}
out:
	ibfs__subnet_free(sn);
	ibfs__topo_free(t);
	return rc;
}
