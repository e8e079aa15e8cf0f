/* SPDX-License-Identifier: MIT */
/*
 * ibnetdiscover / ibsim .net import and the exporters: GUIDs exactly as
 * ibsim assigns them (checked once against ibsim 0.12 + ibnetdiscover:
 * caguid=0x5000 before a 2-port CA gave it 0x5000, port 1 0x5001, and the
 * next CA 0x5003), names and descriptions kept, every error with its line,
 * and export/import round trips. Also topo info's figures.
 */
#include <stdio.h>
#include <string.h>

#include "check_common.h"
#include "fabric/topo_export.h"
#include "fabric/topo_gen.h"
#include "fabric/topo_info.h"
#include "fabric/topo_netfile.h"

static struct ibfs_topology *read_str(const char *text, struct ibfs_diag *d)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	ck_assert_ptr_nonnull(f);
	struct ibfs_topology *t = ibfs__netfile_read(f, "x.net", d);
	fclose(f);
	return t;
}

static const char ibsim_net[] =
	"# a comment\n"
	"Switch\t4 \"sw1\"\n"
	"[1]\t\"h1\"[1]\n"
	"[2]\t\"h2\"[1]\n"
	"[3]\t\"sw2\"[3]\tw=16\n"
	"\n"
	"Switch\t4 \"sw2\"\n"
	"[1]\t\"h3\"[1]\n"
	"[3]\t\"sw1\"[3]\tw=16\n"
	"\n"
	"caguid=0x5000\n"
	"Hca\t2 \"h1\"\n"
	"[1]\t\"sw1\"[1]\n"
	"\n"
	"Hca\t1 \"h2\"\n"
	"[1]\t\"sw1\"[2]\n"
	"\n"
	"Hca\t1 \"h3\"\n"
	"[1]\t\"sw2\"[1]\n";

static const struct ibfs_topo_node *node(const struct ibfs_topology *t,
					 const char *id)
{
	int n = ibfs__topo_find(t, id);
	ck_assert_msg(n >= 0, "no node '%s'", id);
	return &t->nodes[n];
}

START_TEST(ibsim_guids)
{
	struct ibfs_diag d;
	struct ibfs_topology *t = read_str(ibsim_net, &d);
	ck_assert_msg(t != NULL, "%s", d.msg);
	ck_assert_uint_eq(t->nnodes, 5);
	ck_assert_uint_eq(t->nlinks, 4);
	ck_assert_uint_eq(node(t, "sw1")->guid, 0x200000);
	ck_assert_uint_eq(node(t, "sw2")->guid, 0x200001);
	ck_assert_uint_eq(node(t, "sw2")->ports[3].guid, 0x200001);
	ck_assert_uint_eq(node(t, "h1")->guid, 0x5000);
	ck_assert_uint_eq(node(t, "h1")->ports[1].guid, 0x5001);
	ck_assert_uint_eq(node(t, "h1")->ports[2].guid, 0x5002);
	ck_assert_uint_eq(node(t, "h2")->guid, 0x5003);
	ck_assert_uint_eq(node(t, "h2")->ports[1].guid, 0x5004);
	ck_assert_uint_eq(node(t, "h3")->guid, 0x5005);
	/* w=16 (ibsim's code for 2x) on sw1:3 sets that link's width;
	 * others take the default. */
	const struct ibfs_topo_node *s1 = node(t, "sw1");
	ck_assert_int_eq(t->links[s1->ports[3].link].width, 2);
	ck_assert_int_eq(t->links[s1->ports[1].link].width, t->def.width);
	ck_assert_int_eq(node(t, "h1")->ports[2].peer_node, -1);
	ibfs__topo_free(t);
}
END_TEST

/*
 * ibsim's speed codes (PortInfo LinkSpeedEnabled s=, LinkSpeedExtEnabled
 * e=): the fastest enabled is the link's; e= over s=; an NxSPEED word
 * (ibnetdiscover's active speed) over both.
 */
START_TEST(ibsim_speed_codes)
{
	static const char text[] =
		"Switch\t8 \"sw\"\n"
		"[1]\t\"h1\"[1]\ts=1\n"
		"[2]\t\"h2\"[1]\ts=3\n"
		"[3]\t\"h3\"[1]\ts=7 e=0\n"
		"[4]\t\"h4\"[1]\ts=7 e=1\n"
		"[5]\t\"h5\"[1]\te=3\n"
		"[6]\t\"h6\"[1]\ts=4 e=4\n"
		"[7]\t\"h7\"[1]\tw=16 s=7 e=15\n"
		"[8]\t\"h8\"[1]\ts=1 e=2\t# 4xHDR\n"
		"\nHca\t1 \"h1\"\nHca\t1 \"h2\"\nHca\t1 \"h3\"\nHca\t1 \"h4\"\n"
		"Hca\t1 \"h5\"\nHca\t1 \"h6\"\nHca\t1 \"h7\"\nHca\t1 \"h8\"\n";
	static const enum ibfs_speed want[] = {
		IBFS_SPEED_SDR, IBFS_SPEED_DDR, IBFS_SPEED_QDR, IBFS_SPEED_FDR,
		IBFS_SPEED_EDR, IBFS_SPEED_HDR, IBFS_SPEED_NDR, IBFS_SPEED_HDR};
	struct ibfs_diag d;
	struct ibfs_topology *t = read_str(text, &d);
	ck_assert_msg(t != NULL, "%s", d.msg);
	const struct ibfs_topo_node *s = node(t, "sw");
	for (int p = 1; p <= 8; p++)
		ck_assert_msg(t->links[s->ports[p].link].speed == want[p - 1],
			      "port %d: speed %d, want %d", p,
			      t->links[s->ports[p].link].speed, want[p - 1]);
	ck_assert_int_eq(t->links[s->ports[7].link].width, 2);
	ibfs__topo_free(t);
}
END_TEST

START_TEST(ibnetdiscover_format)
{
	static const char text[] =
		"#\n# Topology file: generated on ...\n#\n"
		"vendid=0x2c9\ndevid=0xb924\nsysimgguid=0x8f10400411f56\n"
		"switchguid=0x8f10400411f56(8f10400411f56)\n"
		"Switch\t24 \"S-0008f10400411f56\"\t\t# \"ISR9024 Voltaire\" base port 0 lid 1 lmc 0\n"
		"[1]\t\"H-0008f10403961354\"[1](8f10403961355) \t\t# \"MT23108 InfiniHost Mellanox Technologies\" lid 5 4xQDR\n"
		"\n"
		"vendid=0x2c9\ndevid=0x5a44\n"
		"caguid=0x8f10403961354\n"
		"Ca\t2 \"H-0008f10403961354\"\t\t# \"MT23108 InfiniHost Mellanox Technologies\"\n"
		"[1](8f10403961355) \t\"S-0008f10400411f56\"[1]\t\t# lid 5 lmc 0 \"ISR9024 Voltaire\" lid 1 4xQDR\n";
	struct ibfs_diag d;
	struct ibfs_topology *t = read_str(text, &d);
	ck_assert_msg(t != NULL, "%s", d.msg);
	const struct ibfs_topo_node *s = node(t, "S-0008f10400411f56");
	ck_assert_uint_eq(s->guid, 0x8f10400411f56ULL);
	ck_assert_str_eq(s->desc, "ISR9024 Voltaire");
	ck_assert_int_eq(s->nports, 24);
	const struct ibfs_topo_node *h = node(t, "H-0008f10403961354");
	ck_assert_uint_eq(h->guid, 0x8f10403961354ULL);
	ck_assert_uint_eq(h->ports[1].guid, 0x8f10403961355ULL);
	ck_assert_uint_eq(t->nlinks, 1);
	ck_assert_int_eq(t->links[0].speed, IBFS_SPEED_QDR);
	ck_assert_int_eq(t->links[0].width, 4);
	ibfs__topo_free(t);
}
END_TEST

static void expect_error(const char *text, const char *msg)
{
	struct ibfs_diag d = {{0}};
	struct ibfs_topology *t = read_str(text, &d);
	ck_assert_ptr_null(t);
	ck_assert_msg(strstr(d.msg, msg) != NULL, "'%s' lacks '%s'", d.msg,
		      msg);
}

START_TEST(errors)
{
	expect_error("Switch 4 \"a\"\n[1] \"b\"[1]\n",
		     "x.net:2: 'b' is not defined in this file");
	expect_error("Switch 4 \"a\"\n[5] \"b\"[1]\n",
		     "x.net:2: port 5 of 'a', which has 4 ports");
	expect_error("Switch 4 \"a\"\n[1] \"b\"[3]\n\nHca 1 \"b\"\n",
		     "x.net:2: port 3 of 'b', which has 1 ports");
	expect_error("Swatch 4 \"a\"\n", "x.net:1: expected a 'Switch'");
	expect_error("Switch 4 a\n", "x.net:1: expected 'TYPE PORTS \"name\"'");
	expect_error("Switch 300 \"a\"\n", "x.net:1: 'a' has 300 ports");
	/* Counts that an int cast would wrap (into range, or to -1). */
	expect_error("Switch 4294967297 \"a\"\n",
		     "x.net:1: 'a' has 4294967297 ports");
	expect_error("Switch 99999999999999999999 \"a\"\n",
		     "x.net:1: 'a' has 99999999999999999999 ports");
	expect_error("Rt 2 \"r\"\n", "x.net:1: routers (Rt) are not modelled");
	expect_error("[1] \"b\"[1]\n", "x.net:1: a port line outside a node");
	expect_error("Switch 4 \"a\"\n[1] b[1]\n",
		     "x.net:2: expected '[port] \"remote\"[port]'");
	expect_error("caguid=zz\n", "x.net:1: bad GUID after 'caguid='");
	expect_error("Switch 4 \"a\"\n\nSwitch 4 \"a\"\n",
		     "x.net:3: duplicate id 'a'");
	expect_error("Switch 4 \"a\"\n[1] \"b\"[1]\n[2] \"c\"[1]\n\n"
		     "Hca 1 \"b\"\n[1] \"a\"[2]\n\nHca 1 \"c\"\n",
		     "contradicts the link");
	expect_error("# nothing\n", "x.net: no Switch or Ca record");
	expect_error("Switch 4 \"a\"\n[1] \"b\"[1] w=3\n",
		     "x.net:2: a 'w=' width must be ibsim's code");
	expect_error("Switch 4 \"a\"\n[1] \"b\"[1] w=2 s=8\n",
		     "x.net:2: an 's=' speed must be ibsim's code 0 to 7");
	expect_error("Switch 4 \"a\"\n[1] \"b\"[1] s=x\n",
		     "x.net:2: an 's=' speed must be ibsim's code 0 to 7");
	expect_error("Switch 4 \"a\"\n[1] \"b\"[1] w=2 e=16\n",
		     "x.net:2: an 'e=' speed must be ibsim's code 0 to 15");
	struct ibfs_diag d;
	ck_assert_ptr_null(ibfs__netfile_load("/nonexistent.net", &d));
	ck_assert_ptr_nonnull(strstr(d.msg, "/nonexistent.net: cannot open"));
}
END_TEST

START_TEST(export_import_round_trip)
{
	struct ibfs_topology *t = ibfs__topo_new("rt");
	struct ibfs_gen_param p[] = {{"a", "2"}, {"p", "2"}, {"h", "1"}};
	struct ibfs_diag d;
	ck_assert_int_eq(ibfs__topo_generate(t, "dragonfly", p, 3, "", "x", 1,
					     &d), 0);
	ibfs__topo_assign_guids(t, 0x200000, 0x100000);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_int_eq(ibfs__topo_write_netfile(t, f), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "\nswitchguid=0x0000000000200000\nSwitch\t4 \"g1_sw1\"\t\t# \"g1_sw1\"\n[1]\t\"node1\"[1]\tw=2 s=7 e=3\t# 4xEDR\n"));
	struct ibfs_topology *u = read_str(buf, &d);
	ck_assert_msg(u != NULL, "%s", d.msg);
	ck_assert_uint_eq(u->nnodes, t->nnodes);
	ck_assert_uint_eq(u->nlinks, t->nlinks);
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct ibfs_topo_node *a = &t->nodes[i];
		const struct ibfs_topo_node *b = node(u, a->id);
		ck_assert_int_eq(a->type, b->type);
		ck_assert_int_eq(a->nports, b->nports);
		ck_assert_uint_eq(a->guid, b->guid);
		for (int q = 1; q <= a->nports; q++) {
			ck_assert_uint_eq(a->ports[q].guid, b->ports[q].guid);
			if (a->ports[q].peer_node < 0)
				continue;
			ck_assert_str_eq(t->nodes[a->ports[q].peer_node].id,
					 u->nodes[b->ports[q].peer_node].id);
			ck_assert_int_eq(a->ports[q].peer_port,
					 b->ports[q].peer_port);
		}
	}
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(ibfs__topo_write_dot(t, f), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "graph \"rt\" {\n\t\"g1_sw1\" [shape=box];\n"));
	ck_assert_ptr_nonnull(strstr(buf, "\t\"node1\" [shape=ellipse];\n"));
	ck_assert_ptr_nonnull(strstr(buf, "\t\"g1_sw1\" -- \"node1\" [taillabel=\"1\", headlabel=\"1\"];\n"));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(ibfs__topo_write_xml(t, f), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "<fabric version=\"1\" name=\"rt\">\n  <defaults speed=\"EDR\" width=\"4x\" mtu=\"4096\" data-vls=\"1\" cable=\"2m\"/>\n  <switch id=\"g1_sw1\" ports=\"4\"/>\n"));
	ck_assert_ptr_nonnull(strstr(buf, "  <link a=\"g1_sw1:1\" b=\"node1:1\"/>\n"));
	free(buf);
	ibfs__topo_free(u);
	ibfs__topo_free(t);
}
END_TEST

START_TEST(info_figures)
{
	const char *fam;
	ck_assert_int_eq(ibfs__topo_bisection_by_name("fat-tree-k36-l3", &fam),
			 5832); /* 11,664 / 2 */
	ck_assert_str_eq(fam, "fat tree");
	ck_assert_int_eq(ibfs__topo_bisection_by_name("torus-4x4", &fam), 8);
	ck_assert_int_eq(ibfs__topo_bisection_by_name("torus-4x2", &fam), 4);
	ck_assert_int_eq(ibfs__topo_bisection_by_name("mesh-4x4", &fam), 4);
	ck_assert_int_eq(ibfs__topo_bisection_by_name("hypercube-d3", &fam), 4);
	ck_assert_int_eq(ibfs__topo_bisection_by_name("ring-n4", &fam), 2);
	ck_assert_int_eq(ibfs__topo_bisection_by_name("dragonfly-a4-p2-h2", &fam),
			 20); /* 9 groups: 4 x 5 */
	ck_assert_int_eq(ibfs__topo_bisection_by_name("torus-4xq", &fam), -1);
	ck_assert_int_eq(ibfs__topo_bisection_by_name("two-leaf", &fam), -1);
	ck_assert_ptr_null(fam);
	/* Diameters: torus 4x4: 2+2 switch hops + 2 HCA links. */
	struct ibfs_topology *t = ibfs__topo_new("torus-4x4");
	struct ibfs_gen_param p[] = {{"dims", "4x4"}};
	struct ibfs_diag d;
	ck_assert_int_eq(ibfs__topo_generate(t, "torus", p, 1, "", "x", 1, &d),
			 0);
	struct ibfs_topo_info in;
	ck_assert_int_eq(ibfs__topo_info(t, &in), 0);
	ck_assert_int_eq(in.diameter, 6);
	ck_assert_uint_eq(in.switches, 16);
	ck_assert_uint_eq(in.hcas, 16);
	ck_assert_uint_eq(in.links, 48);
	ck_assert_int_eq(in.bisection, 8);
	ibfs__topo_free(t);
	/* Two islands: no diameter. */
	t = ibfs__topo_new("x");
	struct ibfs_gen_param q[] = {{"k", "2"}, {"levels", "1"}};
	ck_assert_int_eq(ibfs__topo_generate(t, "fat-tree", q, 2, "a", "x", 1,
					     &d), 0);
	ck_assert_int_eq(ibfs__topo_info(t, &in), 0);
	ck_assert_int_eq(in.diameter, 2);
	ck_assert_int_eq(ibfs__topo_generate(t, "fat-tree", q, 2, "b", "x", 1,
					     &d), 0);
	ck_assert_int_eq(ibfs__topo_info(t, &in), 0);
	ck_assert_int_eq(in.diameter, -1);
	ibfs__topo_free(t);
}
END_TEST

START_TEST(real_ibnetdiscover_output)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/tests/data/sm/fat-tree-k4-l2.ibnetdiscover",
		 IBFS_SRC("."));
	struct ibfs_diag d;
	struct ibfs_topology *t = ibfs__netfile_load(path, &d);
	ck_assert_msg(t != NULL, "%s", d.msg);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_SWITCH), 6);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_HCA), 8);
	ck_assert_uint_eq(t->nlinks, 16);
	/* The GUIDs ibsim gave, from the GUIDs we exported. */
	const struct ibfs_topo_node *s = node(t, "S-0000000000200004");
	ck_assert_uint_eq(s->guid, 0x200004);
	ck_assert_str_eq(s->desc, "spine1");
	const struct ibfs_topo_node *h = node(t, "H-0000000000100000");
	ck_assert_uint_eq(h->guid, 0x100000);
	ck_assert_uint_eq(h->ports[1].guid, 0x100001);
	ck_assert_str_eq(h->desc, "node1");
	int pp = node(t, "S-0000000000200003")->ports[1].peer_node;
	ck_assert_str_eq(t->nodes[pp].id, "H-000000000010000c");
	/* ibsim links are SDR; widths 4x from the "4xSDR" tokens. */
	ck_assert_int_eq(t->links[0].speed, IBFS_SPEED_SDR);
	ck_assert_int_eq(t->links[0].width, 4);
	ibfs__topo_free(t);
}
END_TEST

static Suite *netfile_suite(void)
{
	Suite *s = suite_create("netfile");
	TCase *tc = tcase_create("netfile");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, ibsim_guids);
	tcase_add_test(tc, ibsim_speed_codes);
	tcase_add_test(tc, ibnetdiscover_format);
	tcase_add_test(tc, errors);
	tcase_add_test(tc, export_import_round_trip);
	tcase_add_test(tc, info_figures);
	tcase_add_test(tc, real_ibnetdiscover_output);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(netfile_suite)
