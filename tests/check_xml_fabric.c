/* SPDX-License-Identifier: MIT */
/*
 * Tests of the fabric XML loader (src/fabric/xml_fabric.c) on the files in
 * tests/data/fabric and platforms/: good files load with exact counts,
 * defaults, rates, propagation delays and GUIDs, worked out by hand below;
 * each class of bad file is refused with "FILE:LINE: " and a sentence that
 * names the fault. Rates: data rate = lanes x lane rate x encoding
 * (docs/fidelity.md, "Reference figures": IBTA, as tabulated by Linux
 * ib_verbs): SDR 2.5 x 8/10 = 2, EDR 25.78125 x 64/66 = 25, FDR10
 * 10.3125 x 64/66 = 10, HDR 50, NDR 100 Gb/s a lane. Propagation: 5 ns per
 * metre, i.e. 5 ps per millimetre.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>

#include "check_common.h"
#include "fabric/topo_export.h"
#include "fabric/xml_fabric.h"

static char path_buf[4][4096];
static int path_next;

/* The path of a file under the source tree (top_srcdir is set by make). */
static const char *src_path(const char *rel)
{
	const char *top = getenv("top_srcdir");
	char *p = path_buf[path_next++ % 4];
	snprintf(p, sizeof(path_buf[0]), "%s/%s", top ? top : ".", rel);
	return p;
}

static const char *data(const char *name)
{
	char rel[256];
	snprintf(rel, sizeof(rel), "tests/data/fabric/%s", name);
	return src_path(rel);
}

/* r carries exactly gbps Gb/s. */
static void assert_rate(struct ibfs_rate r, uint64_t gbps)
{
	ck_assert_uint_ne(r.bits_den, 0);
	ck_assert_uint_eq(r.bits_num, gbps * 1000000000ULL * r.bits_den);
}

static const struct ibfs_topo_node *node(const struct ibfs_topology *t,
					 const char *id)
{
	int i = ibfs__topo_find(t, id);
	ck_assert_msg(i >= 0, "no node %s", id);
	return &t->nodes[i];
}

/* The link on id:port, checked to join it to peer:peer_port. */
static const struct ibfs_topo_link *link_at(const struct ibfs_topology *t,
					    const char *id, int port,
					    const char *peer, int peer_port)
{
	const struct ibfs_topo_node *n = node(t, id);
	const struct ibfs_topo_port *p = &n->ports[port];
	ck_assert_int_ge(p->link, 0);
	ck_assert_str_eq(t->nodes[p->peer_node].id, peer);
	ck_assert_int_eq(p->peer_port, peer_port);
	return &t->links[p->link];
}

START_TEST(test_good_all)
{
	struct ibfs_diag d = {{0}};
	const char *f = data("good-all.xml");
	struct ibfs_topology *t = ibfs__fabric_xml_load(f, &d);
	ck_assert_msg(t != NULL, "%s", d.msg);
	ck_assert_str_eq(t->name, "all");
	ck_assert_str_eq(t->file, f);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_SWITCH), 2);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_HCA), 2);
	ck_assert_uint_eq(t->nlinks, 4);

	/* <defaults> of line 5. */
	ck_assert_int_eq(t->def.speed, IBFS_SPEED_HDR);
	ck_assert_int_eq(t->def.width, 4);
	ck_assert_int_eq(t->def.mtu, 2048);
	ck_assert_int_eq(t->def.data_vls, 4);
	ck_assert_uint_eq(t->def.cable_mm, 3000);
	ck_assert_uint_eq(t->def.latency, 120000);
	ck_assert_uint_eq(t->def.buffer, 65536);
	ck_assert_str_eq(t->def.profile, "connectx-6-hdr");

	const struct ibfs_topo_node *n = node(t, "leaf1");
	ck_assert_int_eq(n->type, IBFS_NODE_SWITCH);
	ck_assert_int_eq(n->nports, 8);
	ck_assert_int_eq(n->line, 7);
	ck_assert_uint_eq(n->latency, 120000);
	ck_assert_uint_eq(n->buffer, 65536);
	ck_assert_int_eq(n->store_forward, 0);
	ck_assert_uint_eq(n->guid, 0x200000);
	n = node(t, "leaf2");
	ck_assert_int_eq(n->line, 9);
	ck_assert_uint_eq(n->latency, 250000); /* 0.25 us */
	ck_assert_uint_eq(n->buffer, 16384);
	ck_assert_int_eq(n->store_forward, 1);
	ck_assert_uint_eq(n->guid, 0x200001);
	ck_assert_uint_eq(n->ports[8].guid, 0x200001);
	n = node(t, "node1");
	ck_assert_int_eq(n->type, IBFS_NODE_HCA);
	ck_assert_int_eq(n->nports, 1);
	ck_assert_str_eq(n->profile, "connectx-6-hdr");
	ck_assert_uint_eq(n->buffer, 65536);
	ck_assert_uint_eq(n->guid, 0x100000);
	ck_assert_uint_eq(n->ports[1].guid, 0x100001);
	n = node(t, "node2");
	ck_assert_int_eq(n->nports, 2);
	ck_assert_str_eq(n->profile, "ideal");
	ck_assert_uint_eq(n->buffer, 9216);
	ck_assert_uint_eq(n->guid, 0x100002);
	ck_assert_uint_eq(n->ports[2].guid, 0x100004);

	/* HDR 4x from the defaults: 4 x 50 Gb/s; 3 m: 15 ns. */
	const struct ibfs_topo_link *l = link_at(t, "node1", 1, "leaf1", 1);
	ck_assert_int_eq(l->speed, IBFS_SPEED_HDR);
	ck_assert_int_eq(l->width, 4);
	assert_rate(l->rate, 200);
	ck_assert_uint_eq(l->prop, 15000);
	ck_assert_int_eq(l->line, 12);
	/* EDR 1x: 25 Gb/s; 50 cm: 2.5 ns. */
	l = link_at(t, "node2", 1, "leaf1", 2);
	assert_rate(l->rate, 25);
	ck_assert_uint_eq(l->cable_mm, 500);
	ck_assert_uint_eq(l->prop, 2500);
	/* SDR 12x: 12 x 2 Gb/s; the default 3 m. */
	l = link_at(t, "node2", 2, "leaf2", 8);
	assert_rate(l->rate, 24);
	ck_assert_uint_eq(l->prop, 15000);
	/* FDR10 8x: 8 x 10 Gb/s; 30 m: 150 ns. */
	l = link_at(t, "leaf2", 1, "leaf1", 8);
	ck_assert_int_eq(l->speed, IBFS_SPEED_FDR10);
	assert_rate(l->rate, 80);
	ck_assert_uint_eq(l->prop, 150000);
	ibfs__topo_free(t);
}
END_TEST

START_TEST(test_good_minimal)
{
	struct ibfs_diag d = {{0}};
	struct ibfs_topology *t = ibfs__fabric_xml_load(
		data("good-minimal.xml"), &d);
	ck_assert_msg(t != NULL, "%s", d.msg);
	ck_assert_str_eq(t->name, "");
	ck_assert_uint_eq(t->nnodes, 1);
	ck_assert_uint_eq(t->nlinks, 0);
	ck_assert_int_eq(t->def.speed, IBFS_SPEED_EDR);
	ck_assert_int_eq(t->def.mtu, 4096);
	ck_assert_int_eq(t->def.data_vls, 1);
	const struct ibfs_topo_node *n = node(t, "lonely");
	ck_assert_int_eq(n->nports, 1);
	ck_assert_str_eq(n->profile, "ideal");
	ck_assert_uint_eq(n->buffer, 32768);
	ck_assert_uint_eq(n->guid, 0x100000);
	ck_assert_int_eq(n->ports[1].link, -1);
	ibfs__topo_free(t);
}
END_TEST

/*
 * Eight data VLs at a 4096-byte MTU and no buffer given: the built-in 32
 * KiB would leave 4096 bytes a VL, less than one packet of that MTU
 * (4096 + 86 bytes of headers, 66 credits); each node gets 8 x 66 x 64 =
 * 33,792 bytes, the least a file may give (sw2).
 */
START_TEST(test_good_vls)
{
	struct ibfs_diag d = {{0}};
	struct ibfs_topology *t = ibfs__fabric_xml_load(data("good-vls.xml"),
							&d);
	ck_assert_msg(t != NULL, "%s", d.msg);
	ck_assert_int_eq(t->def.data_vls, 8);
	ck_assert_uint_eq(t->def.buffer, 8 * 66 * 64);
	ck_assert_uint_eq(node(t, "sw1")->buffer, 33792);
	ck_assert_uint_eq(node(t, "sw2")->buffer, 33792);
	ck_assert_uint_eq(node(t, "node1")->buffer, 33792);
	ck_assert_uint_eq(ibfs__topo_min_buffer(4096, 8), 33792);
	ck_assert_uint_eq(ibfs__topo_min_buffer(4096, 1), 4224);
	ck_assert_uint_eq(ibfs__topo_min_buffer(256, 15), 15 * 6 * 64);
	ibfs__topo_free(t);
}
END_TEST

/*
 * fat-tree k=4 levels=2 (docs/fabric-format.md): 4 leaves, 2 spines, 8
 * HCAs; each leaf has 2 HCAs down and 2 links up: 8 + 8 = 16 links, all
 * NDR 4x (400 Gb/s) over 1 m (5 ns) from the defaults. The hand-made HCA
 * comes after them.
 */
START_TEST(test_good_generate)
{
	struct ibfs_diag d = {{0}};
	struct ibfs_topology *t = ibfs__fabric_xml_load(
		data("good-generate.xml"), &d);
	ck_assert_msg(t != NULL, "%s", d.msg);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_SWITCH), 6);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_HCA), 9);
	ck_assert_uint_eq(t->nlinks, 16);
	for (size_t i = 0; i < t->nlinks; i++) {
		assert_rate(t->links[i].rate, 400);
		ck_assert_uint_eq(t->links[i].prop, 5000);
		ck_assert_int_eq(t->links[i].line, 6);
	}
	for (size_t i = 0; i + 1 < t->nnodes; i++)
		ck_assert_msg(!strncmp(t->nodes[i].id, "ft", 2), "%s",
			      t->nodes[i].id);
	ck_assert_int_eq(ibfs__topo_find(t, "spare"), 14);
	ibfs__topo_free(t);
}
END_TEST

/* The three fabrics shipped in platforms/. */
START_TEST(test_platforms)
{
	struct ibfs_diag d = {{0}};
	struct ibfs_topology *t = ibfs__fabric_xml_load(
		src_path("platforms/two-hca.xml"), &d);
	ck_assert_msg(t != NULL, "%s", d.msg);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_SWITCH), 0);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_HCA), 2);
	ck_assert_uint_eq(t->nlinks, 1);
	assert_rate(link_at(t, "node1", 1, "node2", 1)->rate, 100);
	ck_assert_uint_eq(t->links[0].prop, 10000);
	ck_assert_str_eq(node(t, "node2")->profile, "connectx-4-edr");
	ibfs__topo_free(t);

	t = ibfs__fabric_xml_load(src_path("platforms/star.xml"), &d);
	ck_assert_msg(t != NULL, "%s", d.msg);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_SWITCH), 1);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_HCA), 4);
	ck_assert_uint_eq(t->nlinks, 4);
	ck_assert_int_eq(node(t, "sw1")->nports, 8);
	for (int p = 1; p <= 4; p++) {
		char id[16];
		snprintf(id, sizeof(id), "node%d", p);
		link_at(t, "sw1", p, id, 1);
	}
	for (int p = 5; p <= 8; p++)
		ck_assert_int_eq(node(t, "sw1")->ports[p].link, -1);
	ibfs__topo_free(t);

	t = ibfs__fabric_xml_load(src_path("platforms/skeleton.xml"), &d);
	ck_assert_msg(t != NULL, "%s", d.msg);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_SWITCH), 1);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_HCA), 2);
	ck_assert_uint_eq(t->nlinks, 2);
	ck_assert_uint_eq(node(t, "sw1")->latency, 100000);
	ck_assert_uint_eq(node(t, "sw1")->buffer, 32768);
	ck_assert_str_eq(node(t, "node1")->profile, "ideal");
	for (int i = 0; i < 2; i++) {
		assert_rate(t->links[i].rate, 100);
		ck_assert_uint_eq(t->links[i].prop, 10000);
	}
	ibfs__topo_free(t);
}
END_TEST

/* One bad file a class: the line of the fault and words naming it. */
static const struct {
	const char *file;
	long line;
	const char *words;
} bad[] = {
	{"bad-malformed.xml", 5, "Opening and ending tag mismatch: switch "
				 "line 3 and fabric"},
	{"bad-empty.xml", 1, "Document is empty"},
	{"bad-entity.xml", 5, "Attribute references external entity "
			      "'secret'"},
	{"bad-root.xml", 2, "the root element is <topology>, not <fabric>"},
	{"bad-version.xml", 2, "fabric version \"2\" is not supported (this "
			       "ibfsim reads version 1)"},
	{"bad-element.xml", 4, "unknown element <router> in <fabric>"},
	{"bad-attribute.xml", 4, "unknown attribute 'colour' on <switch>"},
	{"bad-missing-attribute.xml", 4, "<switch> needs a 'ports' attribute"},
	{"bad-text.xml", 3, "<hca> has no content, found text"},
	{"bad-defaults-late.xml", 4, "<defaults> must come first in <fabric>"},
	{"bad-duplicate.xml", 5, "duplicate id 'sw1' (first defined at line "
				 "3)"},
	{"bad-id-space.xml", 3, "<hca> id=\"node 1\": an id is one word, "
				"without spaces or ':'"},
	/* Beyond the reader: the schema's own words. */
	{"bad-prefix.xml", 4, "Invalid attribute prefix for element "
			      "generate"},
	{"bad-missing-node.xml", 6, "'node2:1': no node 'node2'"},
	{"bad-port-zero.xml", 5, "'sw1:0': port 0 of a switch is its "
				 "management port and takes no link"},
	{"bad-port-range.xml", 5, "'sw1:9': port out of range ('sw1' has 8 "
				  "ports)"},
	{"bad-port-twice.xml", 7, "port 'sw1:3' is already linked to "
				  "'node1:1' (line 6)"},
	{"bad-speed.xml", 5, "<link> speed=\"EDX\": unknown speed (SDR, DDR, "
			     "QDR, FDR10, FDR, EDR, HDR, NDR or XDR)"},
	{"bad-width.xml", 3, "<defaults> width=\"3x\": unknown width (1x, 2x, "
			     "4x, 8x or 12x)"},
	{"bad-unit-missing.xml", 5, "<link> cable=\"2\": a length needs a "
				    "unit (mm, cm, m, km)"},
	{"bad-unit-unknown.xml", 4, "<switch> latency=\"100 parsecs\": "
				    "unknown unit for a time"},
	{"bad-unit-overflow.xml", 4, "<switch> latency=\"99999999999999999999"
				     "s\": the time does not fit in 64 bits"},
	{"bad-ports-zero.xml", 3, "<switch> ports=\"0\": a node has 1 to 254 "
				  "ports"},
	{"bad-mtu.xml", 3, "<defaults> mtu=\"3000\": the MTU is 256, 512, "
			   "1024, 2048 or 4096"},
	{"bad-data-vls.xml", 3, "<defaults> data-vls=\"3\": a port has 1, 2, "
				"4, 8 or 15 data VLs"},
	{"bad-generate.xml", 4, "spaghetti"},
	{"bad-buffer-zero.xml", 4, "<switch> buffer=\"0B\": a buffer of 0 "
				   "bytes holds no credits"},
	/* Room for one largest packet a data VL (ibfs__topo_min_buffer). */
	{"bad-buffer-mtu.xml", 4, "<switch> buffer=\"8KiB\": 2 data VLs x 1 "
				  "packet of the 4096-byte MTU (4224 bytes in "
				  "credits) need at least 8448 bytes"},
	{"bad-buffer-defaults.xml", 3, "<defaults> buffer=\"32KiB\": 15 data "
				       "VLs x 1 packet of the 4096-byte MTU "
				       "(4224 bytes in credits) need at least "
				       "63360 bytes"},
	{"bad-buffer-hca.xml", 4, "<hca> buffer=\"2175B\": 1 data VL x 1 "
				  "packet of the 2048-byte MTU (2176 bytes in "
				  "credits) need at least 2176 bytes"},
	{"bad-store-forward.xml", 4, "<switch> store-and-forward=\"maybe\": "
				     "neither true nor false"},
	{"bad-profile-empty.xml", 3, "<hca> profile=\"\": a profile needs a "
				     "name"},
	/* libxml2's message on one line, its second line after a space. */
	{"bad-utf8.xml", 3, "Input is not proper UTF-8, indicate encoding ! "
			    "Bytes: 0xFF"},
	{"bad-comment.xml", 3, "Double hyphen within comment"},
	/* A newline put in a value (&#10;) is not one in the message. */
	{"bad-newline-value.xml", 4, "latency=\"1 00ns\": unknown unit"},
	/* The line of the words, not of the element after them. */
	{"bad-fabric-text.xml", 4, "unexpected text in <fabric>"},
};

START_TEST(test_bad)
{
	struct ibfs_diag d = {{0}};
	const char *f = data(bad[_i].file);
	char prefix[4200];
	snprintf(prefix, sizeof(prefix), "%s:%ld: ", f, bad[_i].line);
	struct ibfs_topology *t = ibfs__fabric_xml_load(f, &d);
	ck_assert_ptr_null(t);
	ck_assert_msg(!strncmp(d.msg, prefix, strlen(prefix)),
		      "'%s' does not start with '%s'", d.msg, prefix);
	ck_assert_msg(strstr(d.msg + strlen(prefix), bad[_i].words),
		      "'%s' does not say '%s'", d.msg, bad[_i].words);
}
END_TEST

START_TEST(test_missing_file)
{
	struct ibfs_diag d = {{0}};
	const char *f = data("no-such-file.xml");
	char want[4200];
	snprintf(want, sizeof(want), "%s: cannot open: No such file or "
		 "directory", f);
	ck_assert_ptr_null(ibfs__fabric_xml_load(f, &d));
	ck_assert_str_eq(d.msg, want);
}
END_TEST

/* The schema alone: what it refuses, with its own words and line. */
START_TEST(test_schema)
{
	struct ibfs_diag d = {{0}};
	const char *f = data("bad-speed.xml");
	xmlDoc *doc = ibfs__xml_parse_file(f, &d);
	ck_assert_ptr_nonnull(doc);
	ck_assert_int_eq(ibfs__xml_check_schema(doc, "fabric.rng", f, &d), -1);
	char want[4200];
	snprintf(want, sizeof(want),
		 "%s:5: an attribute the element does not take: expected "
		 "only those docs/fabric-format.md and "
		 "docs/scenario-format.md list for it (Invalid attribute "
		 "speed for element link)", f);
	ck_assert_str_eq(d.msg, want);
	xmlFreeDoc(doc);

	/* Duplicates are beyond a grammar: the schema passes the file. */
	f = data("bad-duplicate.xml");
	doc = ibfs__xml_parse_file(f, &d);
	ck_assert_ptr_nonnull(doc);
	ck_assert_int_eq(ibfs__xml_check_schema(doc, "fabric.rng", f, &d), 0);
	xmlFreeDoc(doc);

	f = data("good-all.xml");
	doc = ibfs__xml_parse_file(f, &d);
	ck_assert_ptr_nonnull(doc);
	ck_assert_int_eq(ibfs__xml_check_schema(doc, "fabric.rng", f, &d), 0);
	xmlFreeDoc(doc);
}
END_TEST

/* Without its schema the loader refuses even a good file, and says why. */
START_TEST(test_schema_missing)
{
	setenv("IBFSIM_PLATFORMS", "/nonexistent-ibfsim", 1);
	ck_assert_str_eq(ibfs__platforms_dir(), "/nonexistent-ibfsim");
	struct ibfs_diag d = {{0}};
	ck_assert_ptr_null(ibfs__fabric_xml_load(data("good-all.xml"), &d));
	ck_assert_ptr_nonnull(strstr(d.msg, "/nonexistent-ibfsim/fabric.rng: "
					    "cannot load the schema"));
	unsetenv("IBFSIM_PLATFORMS");
	ck_assert_str_eq(ibfs__platforms_dir(), IBFS_PLATFORMS_DIR);
}
END_TEST

/* An inline <fabric> (as a scenario holds one) read from memory. */
START_TEST(test_read_inline)
{
	static const char xml[] =
		"<scenario>\n"
		"  <fabric version=\"1\" name=\"in\">\n"
		"    <switch id=\"s\" ports=\"2\"/>\n"
		"    <hca id=\"a\"/><hca id=\"b\"/>\n"
		"    <link a=\"a:1\" b=\"s:1\" width=\"1x\"/>\n"
		"    <link a=\"b:1\" b=\"s:1\"/>\n"
		"  </fabric>\n"
		"</scenario>\n";
	xmlDoc *doc = xmlReadMemory(xml, sizeof(xml) - 1, "s.xml", NULL,
				    XML_PARSE_NONET);
	ck_assert_ptr_nonnull(doc);
	xmlNode *root = xmlDocGetRootElement(doc);
	xmlNode *fab = root->children;
	while (fab && fab->type != XML_ELEMENT_NODE)
		fab = fab->next;
	struct ibfs_diag d = {{0}};
	ck_assert_ptr_null(ibfs__fabric_xml_read(fab, "s.xml", &d));
	ck_assert_str_eq(d.msg, "s.xml:6: port 's:1' is already linked to "
				"'a:1' (line 5)");
	ck_assert_ptr_null(ibfs__fabric_xml_read(root, "s.xml", &d));
	ck_assert_str_eq(d.msg, "s.xml:1: expected a <fabric> element, found "
				"<scenario>");

	/* The same element with the second link moved to port 2. */
	xmlNode *l2 = fab->children;
	int links = 0;
	for (; l2; l2 = l2->next)
		if (l2->type == XML_ELEMENT_NODE &&
		    !strcmp((const char *)l2->name, "link") && ++links == 2)
			break;
	ck_assert_ptr_nonnull(l2);
	xmlSetProp(l2, BAD_CAST "b", BAD_CAST "s:2");
	struct ibfs_topology *t = ibfs__fabric_xml_read(fab, "s.xml", &d);
	ck_assert_msg(t != NULL, "%s", d.msg);
	ck_assert_str_eq(t->name, "in");
	ck_assert_uint_eq(t->nlinks, 2);
	assert_rate(link_at(t, "a", 1, "s", 1)->rate, 25);
	assert_rate(link_at(t, "b", 1, "s", 2)->rate, 100);
	ibfs__topo_free(t);
	xmlFreeDoc(doc);
}
END_TEST

/*
 * libxml2 keeps element lines in 16 bits: a fault on line 70003 must still
 * be reported there. Line 1 is the declaration, 2 <fabric>, then one HCA a
 * line: n0 is on line 3, so n69999 is on line 70002 and the duplicate of
 * n5 (line 8) on line 70003; line 70004 holds a link on a missing port.
 */
START_TEST(test_big_lines)
{
	char path[] = "/tmp/ibfsim-bigXXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs("<?xml version=\"1.0\"?>\n<fabric version=\"1\">\n", f);
	for (int i = 0; i < 70000; i++)
		fprintf(f, "<hca id=\"n%d\"/>\n", i);
	fputs("<hca id=\"n5\"/>\n</fabric>\n", f);
	fclose(f);
	struct ibfs_diag d = {{0}};
	ck_assert_ptr_null(ibfs__fabric_xml_load(path, &d));
	char want[256];
	snprintf(want, sizeof(want), "%s:70003: duplicate id 'n5' (first "
		 "defined at line 8)", path);
	ck_assert_str_eq(d.msg, want);

	/* The schema's complaint about line 70003 names it too. */
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("<?xml version=\"1.0\"?>\n<fabric version=\"1\">\n", f);
	for (int i = 0; i < 70000; i++)
		fprintf(f, "<hca id=\"n%d\"/>\n", i);
	fputs("<hca id=\"x y\"/>\n</fabric>\n", f);
	fclose(f);
	xmlDoc *doc = ibfs__xml_parse_file(path, &d);
	ck_assert_ptr_nonnull(doc);
	ck_assert_int_eq(ibfs__xml_check_schema(doc, "fabric.rng", path, &d),
			 -1);
	snprintf(want, sizeof(want), "%s:70003: ", path);
	ck_assert_msg(!strncmp(d.msg, want, strlen(want)), "%s", d.msg);
	xmlFreeDoc(doc);
	unlink(path);
}
END_TEST

/*
 * The fast proof of validity (xml_fast.c) may refuse what the schema
 * accepts (the caller then validates in full) but must never accept what
 * the schema refuses. Each document states whether the fast path proves
 * it and whether libxml2's validator accepts it; both are checked.
 */
#define FP_HEAD "<fabric version=\"1\">"
static const struct {
	const char *doc;
	int proven, valid;
} fast[] = {
	/* What the generators write: proven. */
	{FP_HEAD "<defaults speed=\"EDR\" mtu=\"4096\"/>"
		 "<switch id=\"leaf1\" ports=\"254\" guid=\"0x2\" desc=\"\"/>"
		 "<hca id=\"n1\" ports=\"2\" guid=\"0x0123456789abcdef\"/>"
		 "<link a=\"leaf1:1\" b=\"n1:1\" speed=\"FDR10\" width=\"12x\"/>"
		 "\n\t</fabric>", 1, 1},
	{"<fabric version=\"1\" name=\"x\"><hca id=\"a\"/></fabric>", 1, 1},
	{FP_HEAD "</fabric>", 1, 1},
	/* Valid, but beyond the narrow checks: left to libxml2. */
	{FP_HEAD "<hca id=\"n1\"/>\n <!---->\n</fabric>", 0, 1},
	{FP_HEAD "<switch id=\"s\" ports=\"08\"/></fabric>", 0, 1},
	{FP_HEAD "<switch id=\"s\" ports=\"8\" buffer=\"1MiB\"/></fabric>",
	 0, 1},
	{FP_HEAD "<hca id=\"h\" buffer=\"1MiB\"/></fabric>", 0, 1},
	{FP_HEAD "<link a=\"s:1\" b=\"t:1\" cable=\"2m\"/></fabric>", 0, 1},
	{FP_HEAD "<generate topology=\"ring\"/></fabric>", 0, 1},
	/* The roce model's switch settings are proven too. */
	{FP_HEAD "<switch id=\"s\" ports=\"8\" latency=\"1ns\"/></fabric>",
	 1, 1},
	{FP_HEAD "<switch id=\"s\" ports=\"8\" shared-buffer=\"1MiB\" "
		 "alpha=\"0.125\" latency=\"2.5 us\"/></fabric>", 1, 1},
	{FP_HEAD "<switch id=\"s\" ports=\"8\" shared-buffer=\"12 B\" "
		 "alpha=\"64.0000001\" latency=\"0s\"/></fabric>", 1, 1},
	{FP_HEAD "<switch id=\"s\" ports=\"8\" alpha=\"07\"/></fabric>",
	 1, 1},
	{FP_HEAD "<defaults shared-buffer=\"1MiB\" alpha=\"2\"/>"
		 "<hca id=\"a\"/></fabric>", 1, 1},
	/* Values the schema refuses. */
	{FP_HEAD "<switch id=\"s\" ports=\"0\"/></fabric>", 0, 0},
	{FP_HEAD "<switch id=\"s\" ports=\"255\"/></fabric>", 0, 0},
	{FP_HEAD "<switch id=\"s\" ports=\"1000\"/></fabric>", 0, 0},
	{FP_HEAD "<switch id=\"s\" ports=\"-1\"/></fabric>", 0, 0},
	{FP_HEAD "<switch id=\"s:1\" ports=\"8\"/></fabric>", 0, 0},
	{FP_HEAD "<hca id=\"a b\"/></fabric>", 0, 0},
	{FP_HEAD "<hca id=\"\"/></fabric>", 0, 0},
	{FP_HEAD "<hca id=\"a\" guid=\"0x\"/></fabric>", 0, 0},
	{FP_HEAD "<hca id=\"a\" guid=\"0x00000000000000001\"/></fabric>", 0, 0},
	{FP_HEAD "<hca id=\"a\" guid=\"12\"/></fabric>", 0, 0},
	{FP_HEAD "<hca id=\"a\" guid=\"0xg\"/></fabric>", 0, 0},
	{FP_HEAD "<link a=\"s:1\" b=\"t\"/></fabric>", 0, 0},
	{FP_HEAD "<link a=\"s:1\" b=\"t:\"/></fabric>", 0, 0},
	{FP_HEAD "<link a=\"s:1\" b=\":1\"/></fabric>", 0, 0},
	{FP_HEAD "<link a=\"s:1\" b=\"t:1x\"/></fabric>", 0, 0},
	{FP_HEAD "<link a=\"s:1\" b=\"t:1:2\"/></fabric>", 0, 0},
	{FP_HEAD "<link a=\"s:1\" b=\"t:1\" speed=\"sdr\"/></fabric>", 0, 0},
	{FP_HEAD "<link a=\"s:1\" b=\"t:1\" speed=\"4x\"/></fabric>", 0, 0},
	{FP_HEAD "<link a=\"s:1\" b=\"t:1\" width=\"EDR\"/></fabric>", 0, 0},
	{FP_HEAD "<link a=\"s:1\" b=\"t:1\" width=\"3x\"/></fabric>", 0, 0},
	{FP_HEAD "<defaults mtu=\"3000\"/></fabric>", 0, 0},
	{FP_HEAD "<defaults alpha=\"1/8\"/></fabric>", 0, 0},
	{FP_HEAD "<defaults shared-buffer=\"1\"/></fabric>", 0, 0},
	{FP_HEAD "<switch id=\"s\" ports=\"8\" alpha=\"0.12345678\"/>"
		 "</fabric>", 0, 0},
	{FP_HEAD "<switch id=\"s\" ports=\"8\" alpha=\"1.\"/></fabric>",
	 0, 0},
	{FP_HEAD "<switch id=\"s\" ports=\"8\" alpha=\".5\"/></fabric>",
	 0, 0},
	{FP_HEAD "<switch id=\"s\" ports=\"8\" alpha=\"1 \"/></fabric>",
	 0, 0},
	{FP_HEAD "<switch id=\"s\" ports=\"8\" latency=\"1\"/></fabric>",
	 0, 0},
	{FP_HEAD "<switch id=\"s\" ports=\"8\" latency=\"1  ns\"/>"
		 "</fabric>", 0, 0},
	{FP_HEAD "<switch id=\"s\" ports=\"8\" latency=\"1 Ns\"/>"
		 "</fabric>", 0, 0},
	{FP_HEAD "<switch id=\"s\" ports=\"8\" latency=\"1.ns\"/>"
		 "</fabric>", 0, 0},
	{FP_HEAD "<switch id=\"s\" ports=\"8\" shared-buffer=\"1KiBs\"/>"
		 "</fabric>", 0, 0},
	{FP_HEAD "<switch id=\"s\" ports=\"8\" shared-buffer=\"-1B\"/>"
		 "</fabric>", 0, 0},
	{FP_HEAD "<link a=\"s:1\" b=\"t:1\" latency=\"1ns\"/></fabric>",
	 0, 0},
	{FP_HEAD "<hca id=\"a\" latency=\"1ns\"/></fabric>", 0, 0},
	{FP_HEAD "<hca id=\"a\" alpha=\"1\"/></fabric>", 0, 0},
	{"<fabric version=\"2\"><hca id=\"a\"/></fabric>", 0, 0},
	{"<fabric><hca id=\"a\"/></fabric>", 0, 0},
	{"<fabric version=\"1\" bad=\"1\"><hca id=\"a\"/></fabric>", 0, 0},
	/* Attributes and elements out of place or missing. */
	{FP_HEAD "<hca/></fabric>", 0, 0},
	{FP_HEAD "<switch id=\"s\"/></fabric>", 0, 0},
	{FP_HEAD "<switch ports=\"8\"/></fabric>", 0, 0},
	{FP_HEAD "<link a=\"s:1\"/></fabric>", 0, 0},
	{FP_HEAD "<link a=\"s:1\" b=\"t:1\" id=\"l\"/></fabric>", 0, 0},
	{FP_HEAD "<link a=\"s:1\" b=\"t:1\" ports=\"2\"/></fabric>", 0, 0},
	{FP_HEAD "<hca id=\"a\" a=\"s:1\"/></fabric>", 0, 0},
	{FP_HEAD "<hca id=\"a\" speed=\"EDR\"/></fabric>", 0, 0},
	{FP_HEAD "<hca id=\"a\" x:y=\"1\" xmlns:x=\"urn:x\"/></fabric>", 0, 0},
	{FP_HEAD "<hca id=\"a\"/><defaults/></fabric>", 0, 0},
	{FP_HEAD "<defaults/><defaults/></fabric>", 0, 0},
	{FP_HEAD "<hca id=\"a\">x</hca></fabric>", 0, 0},
	{FP_HEAD "<hca id=\"a\"><port/></hca></fabric>", 0, 0},
	{FP_HEAD "text<hca id=\"a\"/></fabric>", 0, 0},
	{FP_HEAD "<node id=\"a\"/></fabric>", 0, 0},
	{FP_HEAD "<x:hca xmlns:x=\"urn:x\" id=\"a\"/></fabric>", 0, 0},
	{"<fabric xmlns=\"urn:x\" version=\"1\"><hca id=\"a\"/></fabric>", 0, 0},
};

START_TEST(test_fast_proof)
{
	struct ibfs_diag d = {{0}};
	xmlDoc *doc = xmlReadMemory(fast[_i].doc, (int)strlen(fast[_i].doc),
				    "fast.xml", NULL, XML_PARSE_NONET);
	ck_assert_ptr_nonnull(doc);
	int proven = ibfs__fabric_xml_plainly_valid(
		doc, xmlDocGetRootElement(doc), "fast.xml");
	ck_assert_msg(proven == fast[_i].proven, "%s: proven %d, want %d",
		      fast[_i].doc, proven, fast[_i].proven);
	int valid = ibfs__xml_check_schema(doc, "fabric.rng", "fast.xml", &d);
	ck_assert_msg(!proven || valid == 0, "%s: proven, but the schema "
		      "says %s", fast[_i].doc, d.msg);
	ck_assert_msg((valid == 0) == fast[_i].valid, "%s: schema %d, want %d",
		      fast[_i].doc, valid == 0, fast[_i].valid);
	xmlFreeDoc(doc);
}
END_TEST

static Suite *xml_fabric_suite(void)
{
	Suite *s = suite_create("xml_fabric");
	TCase *tc = tcase_create("good");
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, test_good_all);
	tcase_add_test(tc, test_good_minimal);
	tcase_add_test(tc, test_good_vls);
	tcase_add_test(tc, test_good_generate);
	tcase_add_test(tc, test_platforms);
	tcase_add_test(tc, test_read_inline);
	suite_add_tcase(s, tc);
	tc = tcase_create("bad");
	tcase_set_timeout(tc, 20);
	tcase_add_loop_test(tc, test_bad, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(tc, test_missing_file);
	tcase_add_test(tc, test_schema);
	tcase_add_test(tc, test_schema_missing);
	tcase_add_test(tc, test_big_lines);
	tcase_add_loop_test(tc, test_fast_proof, 0,
			    sizeof(fast) / sizeof(fast[0]));
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(xml_fabric_suite)
