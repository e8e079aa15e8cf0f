/* SPDX-License-Identifier: MIT */
/*
 * The commands `ibfsim route` and `ibfsim topo`, run as a user runs them
 * ($IBFSIM, set by the test driver): exact report lines for a fabric whose
 * figures are known in closed form, and exit status 2 with
 * "ibfsim: FILE:LINE: ..." (or the option at fault) for bad input.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_common.h"

static char out[65536], err[65536];

/* Runs "$IBFSIM args" in $top_srcdir; returns the exit status. */
static int run(const char *args)
{
	const char *bin = getenv("IBFSIM");
	const char *src = getenv("top_srcdir");
	ck_assert_msg(bin && src, "IBFSIM and top_srcdir must be set");
	char cmd[2048];
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && '%s' %s >/tmp/ibfs-cli-out.%d 2>/tmp/ibfs-cli-err.%d",
		 src, bin, args, (int)getpid(), (int)getpid());
	int st = system(cmd);
	char path[64];
	snprintf(path, sizeof(path), "/tmp/ibfs-cli-out.%d", (int)getpid());
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(out, 1, sizeof(out) - 1, f) : 0;
	out[n] = 0;
	if (f)
		fclose(f);
	unlink(path);
	snprintf(path, sizeof(path), "/tmp/ibfs-cli-err.%d", (int)getpid());
	f = fopen(path, "r");
	n = f ? fread(err, 1, sizeof(err) - 1, f) : 0;
	err[n] = 0;
	if (f)
		fclose(f);
	unlink(path);
	ck_assert(WIFEXITED(st));
	return WEXITSTATUS(st);
}

#define HAS(buf, s) ck_assert_msg(strstr(buf, s) != NULL, "missing '%s' in:\n%s", s, buf)

START_TEST(route_report)
{
	ck_assert_int_eq(run("route platforms/fat-tree-k4-l2.xml --routing ftree"),
			 0);
	ck_assert_str_eq(out,
			 "fabric: fat-tree-k4-l2\n"
			 "switches: 6\n"
			 "HCAs: 8\n"
			 "LIDs: 1-14 (LMC 0)\n"
			 "routing engine: ftree\n"
			 "hops between HCA ports: max 4, mean 3.714\n"
			 "CA LIDs per switch-to-switch port: min 2, mean 2.500, max 3\n"
			 "unroutable: none\n"
			 "credit loops: deadlock-free (no credit loop on 1 VL)\n"
			 "path SLs: 0 (1 of 1 data VL)\n");
	ck_assert_str_eq(err, "");
	/* LMC 2: 6 switch LIDs, then 8 aligned blocks of 4 from 8. */
	ck_assert_int_eq(run("route platforms/fat-tree-k4-l2.xml --lmc 2"), 0);
	HAS(out, "LIDs: 1-39 (LMC 2)\n");
}
END_TEST

START_TEST(route_ring_loop)
{
	ck_assert_int_eq(run("route platforms/ring-n4.xml --routing dor"), 0);
	HAS(out, "credit loops: credit loop on VL 0: sw1:1 -> sw2:1 -> sw3:1 -> sw4:1 -> sw1:1\n");
	ck_assert_int_eq(run("route platforms/ring-n4.xml --routing dfsssp"), 0);
	HAS(out, "routing engine: dfsssp\n");
	HAS(out, "credit loops: deadlock-free (no credit loop on 2 VLs)\n");
	/* dfsssp's balanced paths on 4 switches need no second layer;
	 * lash's fixed trees need a second lane. */
	HAS(out, "path SLs: 0 (1 of 2 data VLs)\n");
	ck_assert_int_eq(run("route platforms/ring-n4.xml --routing lash"), 0);
	HAS(out, "routing engine: lash\n");
	HAS(out, "path SLs: 0, 1 (2 of 2 data VLs)\n");
}
END_TEST

START_TEST(route_errors)
{
	ck_assert_int_eq(run("route --help"), 0);
	HAS(out, "Usage: ibfsim route");
	HAS(out, "dfsssp");
	ck_assert_int_eq(run("route platforms/ring-n4.xml --routing lash9"), 2);
	HAS(err, "ibfsim: route: unknown routing engine 'lash9' (known: minhop,");
	ck_assert_int_eq(run("route platforms/ring-n4.xml --lmc 8"), 2);
	HAS(err, "ibfsim: route: --lmc '8' must be 0 to 7");
	ck_assert_int_eq(run("route platforms/ring-n4.xml --frobnicate 1"), 2);
	HAS(err, "unknown option '--frobnicate'");
	ck_assert_int_eq(run("route"), 2);
	ck_assert_int_eq(run("route /nonexistent.xml"), 2);
	HAS(err, "ibfsim: /nonexistent.xml");
	ck_assert_int_eq(run("route platforms/torus-4x4.xml --routing ftree --no-fallback"),
			 1);
	/* One line: the failure and its cause, the log's last line. */
	HAS(err, "routing engine 'ftree' failed: ERR AB03: ftree: switch 'sw1'");
	ck_assert_ptr_null(strstr(err, "ibfsim: ERR AB03"));
	ck_assert_int_eq(run("route platforms/torus-4x4.xml --routing file"), 0);
	HAS(err, "ERR 6304");
	HAS(out, "routing engine: minhop\n");
}
END_TEST

START_TEST(topo_commands)
{
	char tmp[] = "/tmp/ibfs-topo-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(tmp));
	char a[512];
	snprintf(a, sizeof(a), "topo gen torus --dims 4x4 -o %s/t.xml", tmp);
	ck_assert_int_eq(run(a), 0);
	snprintf(a, sizeof(a), "topo info %s/t.xml", tmp);
	ck_assert_int_eq(run(a), 0);
	ck_assert_str_eq(out, "fabric: torus-4x4\nswitches: 16\n"
			      "HCAs: 16 (16 linked ports)\nlinks: 48\n"
			      "LIDs: 32 at LMC 0 (a switch 1, an HCA port "
			      "2^LMC) of the 49151 unicast LIDs of a subnet\n"
			      "diameter: 6 links between HCA ports\n"
			      "bisection: 8 links (closed form for a generated torus)\n");
	snprintf(a, sizeof(a), "topo export %s/t.xml --format ibnetdiscover -o %s/t.net",
		 tmp, tmp);
	ck_assert_int_eq(run(a), 0);
	snprintf(a, sizeof(a), "topo import %s/t.net -o %s/u.xml", tmp, tmp);
	ck_assert_int_eq(run(a), 0);
	snprintf(a, sizeof(a), "route %s/t.net", tmp);
	ck_assert_int_eq(run(a), 0);
	HAS(out, "switches: 16\nHCAs: 16\n");
	snprintf(a, sizeof(a), "topo export %s/u.xml --format dot", tmp);
	ck_assert_int_eq(run(a), 0);
	HAS(out, "\t\"sw1\" -- \"sw2\" [taillabel=\"1\", headlabel=\"2\"];\n");
	snprintf(a, sizeof(a), "topo export %s/u.xml --format png", tmp);
	ck_assert_int_eq(run(a), 2);
	HAS(err, "unknown format 'png'");
	/* A broken .net: the line is named. */
	snprintf(a, sizeof(a),
		 "sh -c \"printf 'Switch 4 \\\"a\\\"\\n[1] \\\"zz\\\"[1]\\n' > %s/bad.net\"",
		 tmp);
	ck_assert_int_eq(system(a), 0);
	snprintf(a, sizeof(a), "topo import %s/bad.net", tmp);
	ck_assert_int_eq(run(a), 2);
	HAS(err, "bad.net:2: 'zz' is not defined in this file\n");
	ck_assert_int_eq(run("topo gen fat-tree --k 5"), 2);
	ck_assert_str_eq(err, "ibfsim: topo gen: fat-tree: k=5 must be even (half the ports go down, half up)\n");
	ck_assert_int_eq(run("topo gen hexagon --n 3"), 2);
	HAS(err, "unknown topology 'hexagon'");
	ck_assert_int_eq(run("topo gen ring --n"), 2);
	ck_assert_int_eq(run("topo frob"), 2);
	ck_assert_int_eq(run("topo --help"), 0);
	HAS(out, "dragonfly --a A --p P --h H");
	snprintf(a, sizeof(a), "rm -rf %s", tmp);
	ck_assert_int_eq(system(a), 0);
}
END_TEST

static Suite *route_cli_suite(void)
{
	Suite *s = suite_create("route_cli");
	TCase *tc = tcase_create("cli");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, route_report);
	tcase_add_test(tc, route_ring_loop);
	tcase_add_test(tc, route_errors);
	tcase_add_test(tc, topo_commands);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(route_cli_suite)
