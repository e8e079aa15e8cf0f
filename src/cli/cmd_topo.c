/* SPDX-License-Identifier: MIT */
/*
 * ibfsim topo: make, convert and describe topologies.
 *   gen KIND [PARAMS] [-o FILE]      fabric XML from a generator
 *   import FILE.net [-o FILE]        ibnetdiscover/.net to fabric XML
 *   export FABRIC.xml --format ibnetdiscover|dot [-o FILE]
 *   info FABRIC.xml                  counts, diameter, bisection
 * gen kinds: fat-tree, xgft, mesh, torus, ring, hypercube, dragonfly
 * (topo_gen.c), hyperx, dragonfly-plus (topo_gen_direct.c), slimfly
 * (topo_gen_slimfly.c).
 * Generator flags map one to one onto the parameters of <generate> in
 * fabric XML (--k K is k="K"), so both share topo_gen.c's checks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "fabric/topo_export.h"
#include "fabric/topo_gen.h"
#include "fabric/topo_info.h"
#include "fabric/topo_netfile.h"
#include "fabric/xml_fabric.h"

static const char topo_usage[] =
	"Usage: ibfsim topo gen KIND [PARAMS] [-o FILE]\n"
	"       ibfsim topo import FILE.net|FILE.ibnetdiscover [-o FILE]\n"
	"       ibfsim topo export FABRIC.xml --format ibnetdiscover|dot [-o FILE]\n"
	"       ibfsim topo info FABRIC.xml\n"
	"\n"
	"gen writes fabric XML (stdout without -o). Kinds and parameters:\n"
	"  fat-tree  --k K [--levels L] [--hosts H]   K-port switches, L levels\n"
	"                                 (default 2): K^2/2 HCAs for L=2, K^3/4 for\n"
	"                                 L=3; H HCAs a leaf (default K/2) oversubscribes\n"
	"  xgft      --m M1,..,Mh --w W1,..,Wh   XGFT(h; M; W), e.g. oversubscribed\n"
	"  mesh      --dims AxB[xC] [--hcas N]   N HCAs a switch (default 1)\n"
	"  torus     --dims AxB[xC] [--hcas N]\n"
	"  ring      --n N [--hcas N]\n"
	"  hypercube --dim D [--hcas N]\n"
	"  dragonfly --a A --p P --h H [--g G]   A switches a group, P HCAs and\n"
	"                                 H global links a switch, G = A*H+1 groups\n"
	"  hyperx    --dims AxB[xC..] [--hcas N] [--width-k K]   HyperX: a clique\n"
	"                                 along every dimension, K links a pair\n"
	"                                 (default 1), N HCAs a switch (default 1)\n"
	"  dragonfly-plus --a A --p P --h H [--g G]   groups of A leaves (P HCAs\n"
	"                                 each) under A spines (H global links\n"
	"                                 each), G = A*H+1 groups by default\n"
	"  slimfly   --q Q [--hcas N]     Slim Fly (MMS graph over GF(Q)), Q a\n"
	"                                 prime power from 3: 2Q^2 switches of\n"
	"                                 radix k' = (3Q-d)/2 (Q = 4w+d), diameter 2,\n"
	"                                 N HCAs a switch (default ceil(k'/2))\n"
	"  common: --speed EDR --width 4x --data-vls N --name NAME --prefix P\n"
	"import reads ibsim/ibnetdiscover files, keeping names and ibsim's GUIDs.\n"
	"export writes a .net file ibsim loads (GUIDs pinned) or a dot graph.\n"
	"Exit status: 0 success, 2 bad usage or input.\n";

static int topo_bad(const char *fmt, const char *a)
{
	char msg[512];
	snprintf(msg, sizeof(msg), fmt, a);
	ibfs_cli_error("topo: %s (try 'ibfsim topo --help')", msg);
	return IBFS_EXIT_USAGE;
}

/* Writes with `fn` to path, or stdout when path is NULL. */
static int topo_write(const struct ibfs_topology *t, const char *path,
		      int (*fn)(const struct ibfs_topology *, FILE *))
{
	FILE *f = path ? fopen(path, "w") : stdout;
	if (!f) {
		ibfs_cli_error("%s: cannot write: %s", path, strerror(errno));
		return IBFS_EXIT_USAGE;
	}
	int bad = fn(t, f);
	if (path)
		bad |= fclose(f) != 0;
	else
		bad |= fflush(f) != 0;
	if (bad) {
		ibfs_cli_error("%s: write error", path ? path : "stdout");
		return IBFS_EXIT_FAIL;
	}
	return IBFS_EXIT_OK;
}

/* Fabric XML or, by its name, a .net file. */
static struct ibfs_topology *topo_load(const char *path, struct ibfs_diag *d)
{
	size_t n = strlen(path);
	if ((n > 4 && !strcmp(path + n - 4, ".net")) ||
	    (n > 14 && !strcmp(path + n - 14, ".ibnetdiscover")))
		return ibfs__netfile_load(path, d);
	return ibfs__fabric_xml_load(path, d);
}

static const char *topo_param(const struct ibfs_gen_param *p, int n,
			      const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(p[i].name, name))
			return p[i].value;
	return "";
}

/* The name `topo info` recognizes for the bisection width. */
static void topo_default_name(char *buf, size_t len, const char *kind,
			      const struct ibfs_gen_param *p, int n)
{
	char dims[64];
	snprintf(dims, sizeof(dims), "%s", topo_param(p, n, "dims"));
	for (char *c = dims; *c; c++)
		if (*c == ',')
			*c = 'x';
	if (!strcmp(kind, "fat-tree") && *topo_param(p, n, "hosts"))
		snprintf(buf, len, "fat-tree-k%s-l%s-h%s", topo_param(p, n, "k"),
			 *topo_param(p, n, "levels")
				 ? topo_param(p, n, "levels")
				 : "2",
			 topo_param(p, n, "hosts"));
	else if (!strcmp(kind, "fat-tree"))
		snprintf(buf, len, "fat-tree-k%s-l%s", topo_param(p, n, "k"),
			 *topo_param(p, n, "levels")
				 ? topo_param(p, n, "levels")
				 : "2");
	else if (!strcmp(kind, "torus") || !strcmp(kind, "mesh"))
		snprintf(buf, len, "%s-%s", kind, dims);
	else if (!strcmp(kind, "hypercube"))
		snprintf(buf, len, "hypercube-d%s", topo_param(p, n, "dim"));
	else if (!strcmp(kind, "ring"))
		snprintf(buf, len, "ring-n%s", topo_param(p, n, "n"));
	else if (!strcmp(kind, "dragonfly") && !*topo_param(p, n, "g"))
		snprintf(buf, len, "dragonfly-a%s-p%s-h%s",
			 topo_param(p, n, "a"), topo_param(p, n, "p"),
			 topo_param(p, n, "h"));
	else if (!strcmp(kind, "hyperx"))
		snprintf(buf, len, "hyperx-%s%s%s", dims,
			 *topo_param(p, n, "width-k") ? "-k" : "",
			 topo_param(p, n, "width-k"));
	else if (!strcmp(kind, "dragonfly-plus"))
		snprintf(buf, len, "dragonfly-plus-a%s-p%s-h%s%s%s",
			 topo_param(p, n, "a"), topo_param(p, n, "p"),
			 topo_param(p, n, "h"), *topo_param(p, n, "g") ? "-g" : "",
			 topo_param(p, n, "g"));
	else if (!strcmp(kind, "slimfly"))
		snprintf(buf, len, "slimfly-q%s", topo_param(p, n, "q"));
	else
		snprintf(buf, len, "%s", kind);
}

static int topo_gen(int argc, char **argv)
{
	if (argc < 2)
		return topo_bad("gen needs a kind%s", "");
	const char *kind = argv[1], *out = NULL, *name = NULL, *prefix = "";
	struct ibfs_gen_param p[16];
	int n = 0;
	struct ibfs_topology *t = ibfs__topo_new("");
	if (!t)
		return IBFS_EXIT_FAIL;
	struct ibfs_diag d = {{0}};
	int rc = IBFS_EXIT_USAGE;
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		if (strncmp(a, "--", 2) && strcmp(a, "-o")) {
			topo_bad("unexpected argument '%s'", a);
			goto out;
		}
		if (i + 1 >= argc) {
			topo_bad("%s needs a value", a);
			goto out;
		}
		const char *v = argv[++i];
		if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			out = v;
		} else if (!strcmp(a, "--name")) {
			name = v;
		} else if (!strcmp(a, "--prefix")) {
			prefix = v;
		} else if (!strcmp(a, "--speed")) {
			if (ibfs__speed_parse(v, &t->def.speed)) {
				topo_bad("unknown speed '%s'", v);
				goto out;
			}
		} else if (!strcmp(a, "--width")) {
			int w = ibfs__width_parse(v);
			if (w < 0) {
				topo_bad("unknown width '%s' (1x 2x 4x 8x 12x)", v);
				goto out;
			}
			t->def.width = w;
		} else if (!strcmp(a, "--data-vls")) {
			int vl = atoi(v);
			if (vl != 1 && vl != 2 && vl != 4 && vl != 8 &&
			    vl != 15) {
				topo_bad("--data-vls '%s' must be 1, 2, 4, 8 or 15 (IBA VLCap)",
					 v);
				goto out;
			}
			t->def.data_vls = vl;
		} else if (n < 16) {
			p[n++] = (struct ibfs_gen_param){a + 2, v};
		} else {
			topo_bad("too many parameters%s", "");
			goto out;
		}
	}
	if (ibfs__topo_generate(t, kind, p, n, prefix, "topo gen", 0, &d)) {
		ibfs_cli_error("%s", d.msg);
		goto out;
	}
	char buf[128];
	topo_default_name(buf, sizeof(buf), kind, p, n);
	free(t->name);
	t->name = strdup(name ? name : buf);
	ibfs__topo_assign_guids(t, IBFS_TOPO_SWITCH_GUID_BASE,
				IBFS_TOPO_CA_GUID_BASE);
	rc = topo_write(t, out, ibfs__topo_write_xml);
	size_t lids = ibfs__topo_lids_needed(t);
	if (rc == IBFS_EXIT_OK && lids > IBFS_UCAST_LIDS)
		fprintf(stderr,
			"ibfsim: warning: topo gen: %s needs %zu LIDs, more "
			"than the %d unicast LIDs of a subnet: a subnet "
			"manager cannot bring it all up\n",
			t->name, lids, IBFS_UCAST_LIDS);
out:
	ibfs__topo_free(t);
	return rc;
}

static int topo_convert(int argc, char **argv, int import)
{
	const char *in = NULL, *out = NULL, *format = import ? "xml" : NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-o") || !strcmp(a, "--output") ||
		    (!import && !strcmp(a, "--format"))) {
			if (i + 1 >= argc)
				return topo_bad("%s needs a value", a);
			if (a[1] == 'o' || a[2] == 'o')
				out = argv[++i];
			else
				format = argv[++i];
		} else if (a[0] == '-') {
			return topo_bad("unknown option '%s'", a);
		} else if (!in) {
			in = a;
		} else {
			return topo_bad("unexpected argument '%s'", a);
		}
	}
	if (!in)
		return topo_bad("%s needs an input file",
				import ? "import" : "export");
	int (*fn)(const struct ibfs_topology *, FILE *) = ibfs__topo_write_xml;
	if (!format)
		return topo_bad("export needs --format ibnetdiscover|dot%s", "");
	if (!strcmp(format, "ibnetdiscover") || !strcmp(format, "net"))
		fn = ibfs__topo_write_netfile;
	else if (!strcmp(format, "dot"))
		fn = ibfs__topo_write_dot;
	else if (strcmp(format, "xml"))
		return topo_bad("unknown format '%s' (ibnetdiscover, dot)",
				format);
	struct ibfs_diag d = {{0}};
	struct ibfs_topology *t = import ? ibfs__netfile_load(in, &d)
					 : topo_load(in, &d);
	if (!t || (fn == ibfs__topo_write_netfile &&
		   ibfs__topo_netfile_check(t, &d) < 0)) {
		ibfs_cli_error("%s", d.msg);
		ibfs__topo_free(t);
		return IBFS_EXIT_USAGE;
	}
	int rc = topo_write(t, out, fn);
	ibfs__topo_free(t);
	return rc;
}

static int topo_info(int argc, char **argv)
{
	if (argc != 2 || argv[1][0] == '-')
		return topo_bad("info needs exactly one fabric file%s", "");
	struct ibfs_diag d = {{0}};
	struct ibfs_topology *t = topo_load(argv[1], &d);
	if (!t) {
		ibfs_cli_error("%s", d.msg);
		return IBFS_EXIT_USAGE;
	}
	struct ibfs_topo_info in;
	if (ibfs__topo_info(t, &in)) {
		ibfs__topo_free(t);
		ibfs_cli_error("out of memory");
		return IBFS_EXIT_FAIL;
	}
	printf("fabric: %s\n", t->name);
	printf("switches: %zu\n", in.switches);
	printf("HCAs: %zu (%zu linked ports)\n", in.hcas, in.hca_ports);
	printf("links: %zu\n", in.links);
	if (in.lids > IBFS_UCAST_LIDS)
		printf("LIDs: %zu at LMC 0, more than the %d unicast LIDs of a "
		       "subnet: its subnet manager stops where they run out\n",
		       in.lids, IBFS_UCAST_LIDS);
	else
		printf("LIDs: %zu at LMC 0 (a switch 1, an HCA port 2^LMC) of "
		       "the %d unicast LIDs of a subnet\n",
		       in.lids, IBFS_UCAST_LIDS);
	if (in.diameter >= 0)
		printf("diameter: %d links between HCA ports\n", in.diameter);
	else
		printf("diameter: infinite (some HCA ports cannot reach others)\n");
	if (in.bisection >= 0)
		printf("bisection: %ld links (closed form for a generated %s)\n",
		       in.bisection, in.family);
	else if (in.family)
		printf("bisection: unknown (no closed form here for a generated %s)\n",
		       in.family);
	else
		printf("bisection: unknown (not a generated family)\n");
	ibfs__topo_free(t);
	return IBFS_EXIT_OK;
}

int ibfs_cmd_topo(int argc, char **argv)
{
	if (argc < 2) {
		fputs(topo_usage, stderr);
		return IBFS_EXIT_USAGE;
	}
	for (int i = 1; i < argc; i++)
		if (ibfs_cli_is_help(argv[i])) {
			fputs(topo_usage, stdout);
			return IBFS_EXIT_OK;
		}
	const char *sub = argv[1];
	if (!strcmp(sub, "gen"))
		return topo_gen(argc - 1, argv + 1);
	if (!strcmp(sub, "import"))
		return topo_convert(argc - 1, argv + 1, 1);
	if (!strcmp(sub, "export"))
		return topo_convert(argc - 1, argv + 1, 0);
	if (!strcmp(sub, "info"))
		return topo_info(argc - 1, argv + 1);
	return topo_bad("unknown subcommand '%s' (gen, import, export, info)",
			sub);
}
