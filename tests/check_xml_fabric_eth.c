/* SPDX-License-Identifier: MIT */
/*
 * The fabric XML's settings of an Ethernet switch, used under --model roce
 * (src/fabric/xml_fabric.c, docs/fabric-format.md): shared-buffer and
 * alpha on <defaults> and <switch>, whether latency was given, their round
 * trip through the XML writer (src/fabric/topo_export.c), and every bad
 * value refused with "FILE:LINE: " and its rule.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>

#include "check_common.h"
#include "fabric/topo_export.h"
#include "fabric/xml_fabric.h"

static const struct ibfs_topo_node *node(const struct ibfs_topology *t,
					 const char *id)
{
	int i = ibfs__topo_find(t, id);
	ck_assert_msg(i >= 0, "no node %s", id);
	return &t->nodes[i];
}

/*
 * The roce model's switch settings. Loads `xml` from memory as the file
 * "eth.xml", through the schema as a file is (ibfs__fabric_xml_load_doc).
 */
static struct ibfs_topology *eth_load(const char *xml, struct ibfs_diag *d)
{
	xmlDoc *doc = xmlReadMemory(xml, (int)strlen(xml), "eth.xml", NULL,
				    XML_PARSE_NONET);
	ck_assert_ptr_nonnull(doc);
	struct ibfs_topology *t = ibfs__fabric_xml_load_doc(doc, "eth.xml", d);
	xmlFreeDoc(doc);
	return t;
}

static void eth_assert(const struct ibfs_topology *t, const char *id,
		       int latency_set, ibfs_time_t latency, uint64_t buffer,
		       uint32_t num, uint32_t den)
{
	const struct ibfs_topo_node *n = node(t, id);

	ck_assert_int_eq(n->latency_set, latency_set);
	ck_assert_uint_eq(n->latency, latency);
	ck_assert_uint_eq(n->eth_buffer, buffer);
	ck_assert_uint_eq(n->alpha_num, num);
	ck_assert_uint_eq(n->alpha_den, den);
}

/*
 * shared-buffer and alpha on <defaults> and <switch>, and whether latency
 * was given. Alphas reduced: 0.5 = 1/2, 0.0078125 = 78125/10^7 = 1/128,
 * 2.125 = 17/8, 007.50 = 15/2, 64 = 64/1. Sizes: 1 MiB = 1,048,576 B,
 * 64 KiB = 65,536 B, 4 GiB = 4,294,967,296 B (the largest). The IB buffer
 * is left as it was: the built-in 32 KiB.
 */
START_TEST(test_eth_settings)
{
	static const char xml[] =
		"<fabric version=\"1\">\n"
		"<defaults latency=\"250ns\" shared-buffer=\"1MiB\""
		" alpha=\"0.5\"/>\n"
		"<switch id=\"a\" ports=\"2\"/>\n"
		"<switch id=\"b\" ports=\"2\" shared-buffer=\"64KiB\""
		" alpha=\"0.0078125\" latency=\"1us\"/>\n"
		"<switch id=\"c\" ports=\"2\" alpha=\"2.125\""
		" shared-buffer=\"4GiB\"/>\n"
		"<switch id=\"d\" ports=\"2\" alpha=\"007.50\"/>\n"
		"<switch id=\"e\" ports=\"2\" alpha=\"64\"/>\n"
		"<generate topology=\"ring\" n=\"3\" prefix=\"g\"/>\n"
		"</fabric>\n";
	struct ibfs_diag d = {{0}};
	struct ibfs_topology *t = eth_load(xml, &d);

	ck_assert_msg(t != NULL, "%s", d.msg);
	ck_assert_int_eq(t->def.latency_set, 1);
	ck_assert_uint_eq(t->def.eth_buffer, 1048576);
	ck_assert_uint_eq(t->def.alpha_num, 1);
	ck_assert_uint_eq(t->def.alpha_den, 2);
	eth_assert(t, "a", 1, 250000, 1048576, 1, 2);
	eth_assert(t, "b", 1, 1000000, 65536, 1, 128);
	eth_assert(t, "c", 1, 250000, 4294967296ULL, 17, 8);
	eth_assert(t, "d", 1, 250000, 1048576, 15, 2);
	eth_assert(t, "e", 1, 250000, 1048576, 64, 1);
	/* Generated switches take the defaults too. */
	eth_assert(t, "gsw1", 1, 250000, 1048576, 1, 2);
	ck_assert_uint_eq(node(t, "b")->buffer, 32768);
	ibfs__topo_free(t);

	/* Nothing given: the profile's settings stand (0 and unset). */
	t = eth_load("<fabric version=\"1\"><switch id=\"s\" ports=\"2\"/>"
		     "<switch id=\"l\" ports=\"2\" latency=\"100ns\"/>"
		     "</fabric>", &d);
	ck_assert_msg(t != NULL, "%s", d.msg);
	ck_assert_int_eq(t->def.latency_set, 0);
	eth_assert(t, "s", 0, 100000, 0, 0, 0);
	eth_assert(t, "l", 1, 100000, 0, 0, 0);
	ibfs__topo_free(t);
}
END_TEST

/*
 * The XML writer gives back what was read: the settings in <defaults>
 * and, on a switch, those that differ from them, each in its largest
 * exact unit; the output reads back to the same values.
 */
START_TEST(test_eth_round_trip)
{
	static const char xml[] =
		"<fabric version=\"1\" name=\"rt\">\n"
		"<defaults latency=\"1000ns\" shared-buffer=\"2048KiB\""
		" alpha=\"0.50\"/>\n"
		"<switch id=\"a\" ports=\"2\"/>\n"
		"<switch id=\"b\" ports=\"2\" shared-buffer=\"65000B\""
		" alpha=\"0.0078125\" latency=\"1500ps\"/>\n"
		"<switch id=\"c\" ports=\"2\" alpha=\"2.125\" latency=\"1us\"/>\n"
		"</fabric>\n";
	static const char want[] =
		"<?xml version=\"1.0\"?>\n<fabric version=\"1\" name=\"rt\">\n"
		"  <defaults speed=\"EDR\" width=\"4x\" mtu=\"4096\" "
		"data-vls=\"1\" cable=\"2m\" latency=\"1us\" "
		"shared-buffer=\"2MiB\" alpha=\"0.5\"/>\n"
		"  <switch id=\"a\" ports=\"2\"/>\n"
		"  <switch id=\"b\" ports=\"2\" latency=\"1500ps\" "
		"shared-buffer=\"65000B\" alpha=\"0.0078125\"/>\n"
		"  <switch id=\"c\" ports=\"2\" alpha=\"2.125\"/>\n"
		"</fabric>\n";
	struct ibfs_diag d = {{0}};
	struct ibfs_topology *t = eth_load(xml, &d);
	char *buf = NULL;
	size_t len = 0;

	ck_assert_msg(t != NULL, "%s", d.msg);
	FILE *f = open_memstream(&buf, &len);
	ck_assert_int_eq(ibfs__topo_write_xml(t, f), 0);
	fclose(f);
	ck_assert_str_eq(buf, want);
	ibfs__topo_free(t);
	t = eth_load(buf, &d);
	ck_assert_msg(t != NULL, "%s", d.msg);
	eth_assert(t, "a", 1, 1000000, 2097152, 1, 2);
	eth_assert(t, "b", 1, 1500, 65000, 1, 128);
	eth_assert(t, "c", 1, 1000000, 2097152, 17, 8);
	ibfs__topo_free(t);
	free(buf);

	/* Without the settings, the writer adds none. */
	t = eth_load("<fabric version=\"1\" name=\"n\">"
		     "<switch id=\"s\" ports=\"2\"/></fabric>", &d);
	ck_assert_msg(t != NULL, "%s", d.msg);
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(ibfs__topo_write_xml(t, f), 0);
	fclose(f);
	ck_assert_str_eq(buf, "<?xml version=\"1.0\"?>\n<fabric version=\"1\" "
			      "name=\"n\">\n  <defaults speed=\"EDR\" "
			      "width=\"4x\" mtu=\"4096\" data-vls=\"1\" "
			      "cable=\"2m\"/>\n  <switch id=\"s\" "
			      "ports=\"2\"/>\n</fabric>\n");
	free(buf);
	ibfs__topo_free(t);
}
END_TEST

/* Each refused value: its line (the document's line 2 or 3) and words. */
#define ETH_SW "<fabric version=\"1\">\n<hca id=\"h\"/>\n<switch id=\"s\" " \
	       "ports=\"2\" "
#define ETH_DF "<fabric version=\"1\">\n<defaults "
static const char eth_size_rule[] =
	"a shared packet buffer is more than 0 bytes and at most 4 GiB";
static const char eth_alpha_form[] =
	"alpha is a decimal number such as 1, 0.5 or 0.0078125, with at most "
	"7 digits after the point";
static const char eth_alpha_range[] = "alpha is more than 0 and at most 64";
static const struct {
	const char *doc;
	long line;
	const char *attr, *words;
} eth_bad[] = {
	{ETH_SW "shared-buffer=\"0B\"/></fabric>", 3,
	 "<switch> shared-buffer=\"0B\"", eth_size_rule},
	/* 4 GiB + 1 B = 4,294,967,297 B. */
	{ETH_SW "shared-buffer=\"4294967297B\"/></fabric>", 3,
	 "<switch> shared-buffer=\"4294967297B\"", eth_size_rule},
	{ETH_SW "shared-buffer=\"5 GiB\"/></fabric>", 3,
	 "<switch> shared-buffer=\"5 GiB\"", eth_size_rule},
	{ETH_SW "shared-buffer=\"12\"/></fabric>", 3,
	 "<switch> shared-buffer=\"12\"", "a size needs a unit (B, KiB, MiB, "
	 "GiB, KB, MB, GB); a bare number is refused"},
	{ETH_SW "shared-buffer=\"12 furlongs\"/></fabric>", 3,
	 "<switch> shared-buffer=\"12 furlongs\"", "unknown unit for a size; "
	 "use B, KiB, MiB, GiB, KB, MB, GB (case matters, at most one space "
	 "before the unit)"},
	{ETH_DF "shared-buffer=\"0KiB\"/></fabric>", 2,
	 "<defaults> shared-buffer=\"0KiB\"", eth_size_rule},
	{ETH_SW "alpha=\"0\"/></fabric>", 3, "<switch> alpha=\"0\"",
	 eth_alpha_range},
	{ETH_SW "alpha=\"0.0000000\"/></fabric>", 3,
	 "<switch> alpha=\"0.0000000\"", eth_alpha_range},
	{ETH_SW "alpha=\"64.0000001\"/></fabric>", 3,
	 "<switch> alpha=\"64.0000001\"", eth_alpha_range},
	{ETH_SW "alpha=\"65\"/></fabric>", 3, "<switch> alpha=\"65\"",
	 eth_alpha_range},
	{ETH_SW "alpha=\"99999999999999999999999\"/></fabric>", 3,
	 "<switch> alpha=\"99999999999999999999999\"", eth_alpha_range},
	{ETH_SW "alpha=\"0.00000001\"/></fabric>", 3,
	 "<switch> alpha=\"0.00000001\"", eth_alpha_form},
	{ETH_SW "alpha=\"1/8\"/></fabric>", 3, "<switch> alpha=\"1/8\"",
	 eth_alpha_form},
	{ETH_SW "alpha=\".5\"/></fabric>", 3, "<switch> alpha=\".5\"",
	 eth_alpha_form},
	{ETH_SW "alpha=\"1.\"/></fabric>", 3, "<switch> alpha=\"1.\"",
	 eth_alpha_form},
	{ETH_SW "alpha=\"-1\"/></fabric>", 3, "<switch> alpha=\"-1\"",
	 eth_alpha_form},
	{ETH_SW "alpha=\"\"/></fabric>", 3, "<switch> alpha=\"\"",
	 eth_alpha_form},
	{ETH_SW "alpha=\"0.5 \"/></fabric>", 3, "<switch> alpha=\"0.5 \"",
	 eth_alpha_form},
	{ETH_DF "alpha=\"1e-3\"/></fabric>", 2, "<defaults> alpha=\"1e-3\"",
	 eth_alpha_form},
	{ETH_DF "alpha=\"100\"/></fabric>", 2, "<defaults> alpha=\"100\"",
	 eth_alpha_range},
	/* HCAs have no Ethernet switch settings. */
	{"<fabric version=\"1\">\n<hca id=\"h\" alpha=\"1\"/></fabric>", 2,
	 "unknown attribute 'alpha' on <hca>", ""},
	{"<fabric version=\"1\">\n<hca id=\"h\" shared-buffer=\"1MiB\"/>"
	 "</fabric>", 2, "unknown attribute 'shared-buffer' on <hca>", ""},
};

START_TEST(test_eth_bad)
{
	struct ibfs_diag d = {{0}};
	char want[512];

	ck_assert_ptr_null(eth_load(eth_bad[_i].doc, &d));
	snprintf(want, sizeof(want), "eth.xml:%ld: %s%s%s", eth_bad[_i].line,
		 eth_bad[_i].attr, *eth_bad[_i].words ? ": " : "",
		 eth_bad[_i].words);
	ck_assert_str_eq(d.msg, want);
}
END_TEST

static Suite *xml_fabric_eth_suite(void)
{
	Suite *s = suite_create("xml_fabric_eth");
	TCase *tc = tcase_create("eth");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, test_eth_settings);
	tcase_add_test(tc, test_eth_round_trip);
	tcase_add_loop_test(tc, test_eth_bad, 0,
			    sizeof(eth_bad) / sizeof(eth_bad[0]));
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(xml_fabric_eth_suite)
