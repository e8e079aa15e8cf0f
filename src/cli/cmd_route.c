/* SPDX-License-Identifier: MIT */
/*
 * ibfsim route: runs the subnet manager's offline half on a fabric: LID
 * assignment (with LMC), one routing engine, and the checks on the result
 * (hop counts, routes per port, credit loops). Optionally writes the LFTs
 * in OpenSM's opensm-lfts.dump format.
 *
 * With --inband the in-band subnet manager (src/subnet_manager/sm.h) also
 * brings the fabric up over the packet-level model, alone on the event
 * queue (no SimGrid, no traffic): the report adds how long the sweep took
 * in simulated time, the SMPs it needed, and whether the tables it
 * programmed into the switches are the engine's.
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
#include "subnet_manager/mad.h"
#include "subnet_manager/partitions.h"
#include "subnet_manager/qos.h"
#include "subnet_manager/pkey_plan.h"
#include "subnet_manager/mcast.h"
#include "subnet_manager/routing.h"
#include "subnet_manager/sm.h"
#include "hca/direct_exec.h"
#include "hca/hca.h"
#include "switch/switch.h"

static void route_usage(FILE *f)
{
	fputs("Usage: ibfsim route FABRIC.xml|FILE.net [--routing ENGINE] [--lmc N]\n"
	      "                    [--dump-lfts FILE] [--dump-hops FILE] [--lfts-file FILE]\n"
	      "                    [--root-guids GUID,...] [--no-fallback]\n"
	      "                    [--inband [--sm-host HCA] [--max-wire-smps N]\n"
	      "                              [--qos-sl2vl LIST ...]]\n"
	      "                    [--partitions FILE --dump-pkeys FILE]\n"
	      "                    [--mcast MGID=HCA[:PORT],... ...] [--dump-mfts FILE]\n"
	      "\n"
	      "Assigns LIDs, routes the fabric with one engine (OpenSM's names) and\n"
	      "prints switches, HCAs, LIDs, the engine, hop counts between HCA ports\n"
	      "(max, mean), CA LIDs per switch-to-switch port (min, mean, max),\n"
	      "the credit-loop (deadlock) verdict and the SLs of the paths\n"
	      "between HCAs (dfsssp's layers, lash's lanes; 0 for the others).\n"
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
	      "  --inband           also run the in-band SM over the packet-level\n"
	      "                     fabric and report its sweep: simulated time\n"
	      "                     until every port is Active, SMPs sent\n"
	      "  --sm-host HCA      the HCA the SM runs on (default the first)\n"
	      "  --max-wire-smps N  SMPs outstanding at once, 1..64 (default 4,\n"
	      "                     OpenSM's max_wire_smps)\n"
	      "  --qos-sl2vl LIST, --qos-vlarb-high LIST, --qos-vlarb-low LIST,\n"
	      "  --qos-high-limit N QoS settings the in-band SM programs, as\n"
	      "                     OpenSM's qos_* options (docs/subnet-manager.md)\n"
	      "  --partitions FILE  OpenSM's partitions.conf (docs/subnet-manager.md)\n"
	      "  --dump-pkeys FILE  write the P_Key table the SM gives each port\n"
	      "                     ('CA|SW LID PORT P_KEY...'; the SM on the\n"
	      "                     first HCA with a link)\n"
	      "  --mcast MGID=LIST  a multicast group (repeat for more; MLIDs\n"
	      "                     from 0xC000 in order): its MGID (ff..) and\n"
	      "                     members, HCA ids on their first linked port\n"
	      "                     or HCA:PORT; its spanning tree is built as\n"
	      "                     the subnet manager builds it\n"
	      "  --dump-mfts FILE   write the groups' MFTs as OpenSM's\n"
	      "                     opensm-mfts.dump\n"
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

/* 1 if msg holds the n characters at l. */
static int route_holds(const char *msg, const char *l, size_t n)
{
	for (const char *s = msg; n && (s = strchr(s, *l)); s++)
		if (!strncmp(s, l, n))
			return 1;
	return 0;
}

/*
 * The manager's log on stderr, but for its last line when the error that
 * follows (`quoted`, or NULL) already quotes it (ibfs__routing_run).
 */
static void route_print_log(const struct ibfs_subnet *sn, const char *quoted)
{
	const char *l = sn->log;
	while (l && *l) {
		size_t n = strcspn(l, "\n");
		if (quoted && (!l[n] || !l[n + 1]) && route_holds(quoted, l, n))
			break;
		ibfs_cli_error("%.*s", (int)n, l);
		l += n + (l[n] == '\n');
	}
}

/* ps as "U.FFFFFF us", exactly. */
/*
 * "path SLs: 0, 1 (2 of 4 data VLs)": the SLs the engine gives CA-to-CA
 * paths (dfsssp's layers, lash's lanes; SL 0 for the others), as the SA
 * would answer PathRecord queries, which senders must use.
 */
static void print_sl_use(const struct ibfs_subnet *sn)
{
	uint16_t use = ibfs__route_sl_use(sn);
	int n = 0;
	printf("path SLs:");
	for (int sl = 0; sl < 16; sl++)
		if (use >> sl & 1)
			printf("%s %d", n++ ? "," : "", sl);
	printf(" (%d of %d data VL%s)\n", n, sn->data_vls,
	       sn->data_vls == 1 ? "" : "s");
}

/*
 * The sweep's SMPs by method and attribute, Gets first, each by attribute
 * ID: "in-band SMPs by attribute: Get NodeDescription 5, ...", the form
 * tests/opensm_smp_counts.sh also writes OpenSM's log in; then the
 * PortInfo Sets with SMSupportExtendedSpeeds (modifier bit 31).
 */
static void route_print_by_attr(const struct ibfs_sm_stats *st)
{
	const char *sep = " ";

	printf("in-band SMPs by attribute:");
	for (int m = 0; m < 2; m++)
		for (int a = 0; a < IBFS_SM_ATTR_SLOTS; a++) {
			if (!st->by_attr[m][a])
				continue;
			printf("%s%s %s %u", sep, m ? "Set" : "Get",
			       ibfs__smp_attr_str(
				       (uint16_t)(IBFS_SM_ATTR_BASE + a)),
			       st->by_attr[m][a]);
			sep = ", ";
		}
	printf("\n");
	printf("in-band PortInfo Sets with SMSupportExtendedSpeeds: %u\n",
	       st->pi_ext_sets);
}

static void route_print_us(const char *what, ibfs_time_t t)
{
	printf("%s%llu.%06llu us", what, (unsigned long long)(t / IBFS_US),
	       (unsigned long long)(t % IBFS_US));
}

/* Devices of the in-band run: one per node, freed together. */
struct route_net {
	struct ibfs_fabric *f;
	struct ibfs_switch **sw;
	struct ibfs_hca **hca;
	size_t n;
	struct ibfs_direct_exec dx;
};

static void route_net_free(struct route_net *x)
{
	for (size_t i = 0; i < x->n && x->sw; i++) {
		ibfs__switch_destroy(x->sw[i]);
		ibfs__hca_free(x->hca[i]);
	}
	free(x->sw);
	free(x->hca);
	ibfs__fabric_free(x->f);
}

static int route_net_build(struct route_net *x, struct ibfs_topology *t,
			   struct ibfs_diag *d)
{
	memset(x, 0, sizeof(*x));
	x->n = t->nnodes;
	x->f = ibfs__fabric_new(t, 1, 0);
	x->sw = calloc(x->n + 1, sizeof(*x->sw));
	x->hca = calloc(x->n + 1, sizeof(*x->hca));
	if (!x->f || !x->sw || !x->hca) {
		ibfs__diag(d, t->file, 0, "out of memory building the fabric");
		return -1;
	}
	struct ibfs_exec ex = ibfs__direct_exec(&x->dx, &x->f->eq);

	for (size_t i = 0; i < x->n; i++) {
		if (t->nodes[i].type == IBFS_NODE_SWITCH)
			x->sw[i] = ibfs__switch_create(x->f, (int)i, d);
		else
			x->hca[i] = ibfs__hca_create(x->f, (int)i, NULL, ex,
						     d);
		if (!x->sw[i] && !x->hca[i])
			return -1;
	}
	return 0;
}

/* Devices whose LID or LFT entry differs from the engine's (ref). */
static long route_mismatches(const struct route_net *x,
			     const struct ibfs_subnet *ref, char *first,
			     size_t len)
{
	long bad = 0;

	for (int i = 0; i < ref->nnodes; i++) {
		const struct ibfs_sn_node *n = &ref->nodes[i];

		for (int p = 1; x->hca[i] && p <= n->nports; p++) {
			uint16_t lid = ibfs__hca_port_lid(x->hca[i], p);

			if (lid != n->ports[p].lid && !bad++)
				snprintf(first, len, "LID of %s:%d", n->name,
					 p);
		}
		if (!x->sw[i])
			continue;
		if (ibfs__switch_get_lid(x->sw[i]) != n->ports[0].lid &&
		    !bad++)
			snprintf(first, len, "LID of %s", n->name);
		for (unsigned lid = 1; lid <= ref->max_lid; lid++)
			if (ibfs__switch_get_lft(x->sw[i], (uint16_t)lid) !=
				    *ibfs__subnet_lft(ref, n->sw, lid) &&
			    !bad++)
				snprintf(first, len, "LFT of %s for LID %u",
					 n->name, lid);
	}
	return bad;
}

/*
 * Brings the fabric up with the in-band SM and prints its sweep. Returns
 * an exit status.
 */
/* The in-band SM's options: --sm-host, --max-wire-smps, --qos-*. */
struct route_sm_opts {
	const char *host;
	int window;
	const char *qos[IBFS_QOS_NOPTS];
};

/*
 * QoS settings from the --qos-* options for engine; -1 (said) if one is
 * wrong, or if the SL-to-VL table merges dfsssp's or lash's layers.
 */
static int route_qos(const struct ibfs_topology *t, const char *engine,
		     const struct route_sm_opts *so, struct ibfs_qos *q)
{
	int vls = t->def.data_vls > 0 ? t->def.data_vls : 1, bad;
	char err[200] = "";

	if (!ibfs__qos_from_opts(q, vls, so->qos, &bad, err, sizeof(err))) {
		if (!q->given || !engine ||
		    (strcmp(engine, "dfsssp") && strcmp(engine, "lash")) ||
		    !ibfs__qos_check_layers(q, vls, engine, err, sizeof(err)))
			return 0;
		ibfs_cli_error("route: --qos-sl2vl '%s': %s", so->qos[0], err);
		return -1;
	}
	if (bad >= 0)
		ibfs_cli_error("route: --%s '%s': %s", ibfs__qos_opt_names[bad],
			       so->qos[bad], err);
	else
		ibfs_cli_error("route: QoS settings: %s", err);
	return -1;
}

static int route_inband(struct ibfs_topology *t, const char *fabric,
			const char *engine, int lmc,
			const struct ibfs_routing_opts *opts,
			const struct route_sm_opts *so,
			const struct ibfs_subnet *ref)
{
	struct ibfs_diag d = { { 0 } };
	const char *host = so->host;
	int node = -1, window = so->window;
	struct ibfs_qos qos;

	if (route_qos(t, engine, so, &qos) < 0)
		return IBFS_EXIT_USAGE;

	if (host) {
		node = ibfs__topo_find(t, host);
		if (node < 0 || t->nodes[node].type != IBFS_NODE_HCA) {
			ibfs_cli_error("route: --sm-host '%s' is not an HCA of "
				       "%s", host, fabric);
			return IBFS_EXIT_USAGE;
		}
	}
	for (size_t i = 0; node < 0 && i < t->nnodes; i++)
		if (t->nodes[i].type == IBFS_NODE_HCA)
			node = (int)i;
	if (node < 0) {
		ibfs_cli_error("route: %s has no HCA for the SM to run on",
			       fabric);
		return IBFS_EXIT_USAGE;
	}
	struct route_net x;
	int rc = IBFS_EXIT_OK;
	struct ibfs_sm *sm = NULL;
	struct ibfs_sm_stats st;
	char first[256] = "";

	if (route_net_build(&x, t, &d) < 0) {
		ibfs_cli_error("%s", d.msg);
		rc = IBFS_EXIT_USAGE;
		goto out;
	}
	sm = ibfs__sm_start(x.f, node, engine, lmc, NULL, NULL, &d);
	if (!sm) {
		ibfs_cli_error("%s", d.msg);
		rc = IBFS_EXIT_USAGE;
		goto out;
	}
	ibfs__sm_set_max_wire(sm, window);
	if (qos.given)
		ibfs__sm_set_qos(sm, &qos);
	ibfs__sm_set_routing_opts(sm, opts);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ibfs__sm_stats(sm, &st);
	if (x.f->eq.nomem) {
		ibfs_cli_error("%s: out of memory at %.3f us: the in-band "
			       "sweep stopped there", fabric,
			       (double)x.f->eq.now / 1e6);
		rc = IBFS_EXIT_FAIL;
		goto out;
	}
	if (st.state != 1) {
		ibfs_cli_error("%s: the in-band sweep failed: %s", fabric,
			       st.state < 0 ? st.error :
					      "SMPs went unanswered");
		rc = IBFS_EXIT_FAIL;
		goto out;
	}
	route_print_us("in-band sweep: ", st.sweep);
	printf(" (SM on %s:%d, at most %d SMP%s outstanding)\n",
	       t->nodes[node].id, st.sm_port, window, window > 1 ? "s" : "");
	printf("in-band SMPs: %llu (%llu Get, %llu Set), %llu answered, "
	       "%llu with errors, %llu LFT blocks\n",
	       (unsigned long long)st.sent, (unsigned long long)st.disc_sent,
	       (unsigned long long)st.cfg_sent,
	       (unsigned long long)st.received,
	       (unsigned long long)st.errors,
	       (unsigned long long)st.lft_blocks);
	route_print_by_attr(&st);
	long bad = route_mismatches(&x, ref, first, sizeof(first));

	if (bad) {
		printf("in-band tables: %ld entries differ from the engine's "
		       "(first: %s)\n", bad, first);
		rc = IBFS_EXIT_FAIL;
	} else {
		printf("in-band tables: the engine's LIDs and LFTs\n");
	}
out:
	ibfs__sm_free(sm);
	route_net_free(&x);
	return rc;
}

/* --partitions IN --dump-pkeys OUT: the tables the SM would program. */
static int route_pkeys(const struct ibfs_topology *t,
		       const struct ibfs_subnet *sn, const char *in,
		       const char *out)
{
	struct ibfs_diag d;
	struct ibfs_partitions *pp = ibfs__partitions_load(in, t, &d);
	struct ibfs_pkey_plan pl;
	int sm = -1, port = -1;

	for (size_t n = 0; n < t->nnodes && sm < 0; n++)
		for (int p = 1; t->nodes[n].type == IBFS_NODE_HCA &&
				p <= t->nodes[n].nports && sm < 0; p++)
			if (t->nodes[n].ports[p].peer_node >= 0) {
				sm = (int)n;
				port = p;
			}
	if (!pp || ibfs__pkey_plan_build(&pl, pp, t, sm, port, &d) < 0) {
		ibfs__partitions_free(pp);
		ibfs_cli_error("%s", d.msg);
		return -1;
	}
	FILE *f = fopen(out, "w");
	int bad = !f || ibfs__pkey_plan_dump(&pl, sn, f) < 0;

	if (f)
		bad |= fclose(f) != 0;
	if (bad)
		ibfs_cli_error("%s: cannot write: %s", out, strerror(errno));
	ibfs__pkey_plan_free(&pl);
	ibfs__partitions_free(pp);
	return bad ? -1 : 0;
}

/* 1 if option a is one of --qos-*, whose value v it keeps. */
static int route_qos_opt(const char *a, const char *v,
			 struct route_sm_opts *so)
{
	for (int i = 0; i < IBFS_QOS_NOPTS; i++)
		if (!strcmp(a + 2, ibfs__qos_opt_names[i])) {
			so->qos[i] = v;
			return 1;
		}
	return 0;
}

int ibfs_cmd_route(int argc, char **argv)
{
	const char *fabric = NULL, *engine = "minhop", *dump = NULL;
	const char *hops_file = NULL, *pkeys_in = NULL, *pkeys_out = NULL;
	struct ibfs_routing_opts opts = {0};
	long lmc = 0, window = IBFS_SM_MAX_WIRE_SMPS;
	int inband = 0;
	const char *sm_host = NULL, *mfts = NULL;
	struct route_sm_opts so = { 0 };
	const char *mcast[256];
	int nmcast = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (ibfs_cli_is_help(a)) {
			route_usage(stdout);
			return IBFS_EXIT_OK;
		} else if (!strcmp(a, "--no-fallback")) {
			opts.no_fallback = 1;
		} else if (!strcmp(a, "--inband")) {
			inband = 1;
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
			} else if (!strcmp(a, "--dump-mfts")) {
				mfts = v;
			} else if (!strcmp(a, "--mcast")) {
				if (nmcast == 256) {
					ibfs_cli_error("route: at most 256 "
						       "--mcast groups");
					return IBFS_EXIT_USAGE;
				}
				mcast[nmcast++] = v;
			} else if (!strcmp(a, "--dump-hops")) {
				hops_file = v;
			} else if (!strcmp(a, "--partitions")) {
				pkeys_in = v;
			} else if (!strcmp(a, "--dump-pkeys")) {
				pkeys_out = v;
			} else if (!strcmp(a, "--lfts-file")) {
				opts.lfts_file = v;
			} else if (!strcmp(a, "--root-guids")) {
				opts.root_guids = v;
			} else if (route_qos_opt(a, v, &so)) {
				inband = 1;
			} else if (!strcmp(a, "--sm-host")) {
				sm_host = v;
				inband = 1;
			} else if (!strcmp(a, "--max-wire-smps")) {
				char *end;
				window = strtol(v, &end, 10);
				if (*end || end == v || window < 1 ||
				    window > 64) {
					ibfs_cli_error("route: --max-wire-smps "
						       "'%s' must be 1 to 64",
						       v);
					return IBFS_EXIT_USAGE;
				}
				inband = 1;
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
	const struct ibfs_cli_output out[] = { { dump, 0 }, { hops_file, 0 },
					       { pkeys_out, 0 }, { mfts, 0 } };

	if (ibfs_cli_outputs_ok(out, 4) < 0)
		return IBFS_EXIT_USAGE;
	if (!pkeys_in != !pkeys_out) {
		ibfs_cli_error("route: --partitions and --dump-pkeys go "
			       "together");
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
	struct ibfs_qos qos; /* checked before anything is printed */

	if (route_qos(t, engine, &so, &qos) < 0) {
		ibfs__topo_free(t);
		return IBFS_EXIT_USAGE;
	}
	struct ibfs_mcast_group *groups = NULL;

	if ((nmcast || mfts) &&
	    !(groups = ibfs_cli_route_mcast(t, mcast, nmcast))) {
		ibfs__topo_free(t);
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
		route_print_log(sn, d.msg);
		ibfs_cli_error("%s: %s", fabric, d.msg);
		rc = IBFS_EXIT_FAIL;
		goto out;
	}
	route_print_log(sn, NULL);
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
	print_sl_use(sn);
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
	if (pkeys_out && route_pkeys(t, sn, pkeys_in, pkeys_out) < 0)
		rc = IBFS_EXIT_USAGE;
	if (groups) {
		int r = ibfs_cli_route_mfts(sn, groups, nmcast, mfts);

		groups = NULL;
		if (r != IBFS_EXIT_OK) {
			rc = r;
			goto out;
		}
	}
	if (inband) {
		fflush(stdout);
		so.host = sm_host;
		so.window = (int)window;
		int r = route_inband(t, fabric, engine, (int)lmc, &opts, &so,
				     sn);
		if (r != IBFS_EXIT_OK)
			rc = r;
	}
out:
	if (groups) {
		for (int i = 0; i < nmcast; i++)
			free(groups[i].members);
		free(groups);
	}
	ibfs__subnet_free(sn);
	ibfs__topo_free(t);
	return rc;
}
