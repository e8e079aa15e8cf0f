/* SPDX-License-Identifier: MIT */
/*
 * Tests of the topology graph (src/fabric/topology.c): nodes and the id
 * index, links and every way a link can be refused, "node:port" endpoints,
 * and GUIDs assigned as ibsim assigns them (ibsim/sim_net.c: one counter per
 * node type; a switch takes one GUID shared by all its ports, an HCA takes
 * nports + 1 and port i is node GUID + i). Expected GUIDs are worked out by
 * hand in the comments.
 */
#include <stdio.h>
#include <string.h>

#include "check_common.h"
#include "fabric/topology.h"

/* A topology whose diagnostics name "f.xml". */
static struct ibfs_topology *topo(void)
{
	struct ibfs_topology *t = ibfs__topo_new("t");
	ck_assert_ptr_nonnull(t);
	t->file = strdup("f.xml");
	ck_assert_ptr_nonnull(t->file);
	return t;
}

START_TEST(test_defaults)
{
	struct ibfs_topology *t = topo();
	ck_assert_str_eq(t->name, "t");
	ck_assert_int_eq(t->def.speed, IBFS_SPEED_EDR);
	ck_assert_int_eq(t->def.width, 4);
	ck_assert_int_eq(t->def.mtu, 4096);
	ck_assert_int_eq(t->def.data_vls, 1);
	ck_assert_uint_eq(t->def.cable_mm, 2000);
	ck_assert_uint_eq(t->def.latency, 100000); /* 100 ns in ps */
	ck_assert_uint_eq(t->def.buffer, 32768);   /* 32 KiB */
	ck_assert_str_eq(t->def.profile, "ideal");
	ck_assert_uint_eq(t->nnodes, 0);
	ck_assert_uint_eq(t->nlinks, 0);
	ck_assert_int_eq(ibfs__topo_find(t, "x"), -1);
	ibfs__topo_free(t);
	ibfs__topo_free(NULL);
}
END_TEST

START_TEST(test_add_find)
{
	struct ibfs_topology *t = topo();
	struct ibfs_diag d;
	t->def.latency = 70000;
	t->def.buffer = 4096;
	ck_assert_int_eq(ibfs__topo_add_node(t, "sw", IBFS_NODE_SWITCH, 36, 3,
					     &d), 0);
	ck_assert_int_eq(ibfs__topo_add_node(t, "h1", IBFS_NODE_HCA, 2, 4, &d),
			 1);
	ck_assert_int_eq(ibfs__topo_find(t, "sw"), 0);
	ck_assert_int_eq(ibfs__topo_find(t, "h1"), 1);
	ck_assert_int_eq(ibfs__topo_find(t, "h"), -1);
	ck_assert_int_eq(ibfs__topo_find(t, "h11"), -1);
	const struct ibfs_topo_node *sw = &t->nodes[0], *h = &t->nodes[1];
	ck_assert_str_eq(sw->id, "sw");
	ck_assert_str_eq(sw->desc, "sw");
	ck_assert_int_eq(sw->type, IBFS_NODE_SWITCH);
	ck_assert_int_eq(sw->nports, 36);
	ck_assert_int_eq(sw->line, 3);
	ck_assert_uint_eq(sw->latency, 70000);
	ck_assert_uint_eq(sw->buffer, 4096);
	ck_assert_ptr_null(sw->profile);
	for (int p = 0; p <= 36; p++) {
		ck_assert_int_eq(sw->ports[p].peer_node, -1);
		ck_assert_int_eq(sw->ports[p].link, -1);
	}
	ck_assert_int_eq(h->type, IBFS_NODE_HCA);
	ck_assert_str_eq(h->profile, "ideal");
	ck_assert_uint_eq(h->buffer, 4096);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_SWITCH), 1);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_HCA), 1);
	ibfs__topo_free(t);
}
END_TEST

/* Enough nodes to grow the arrays and the hash table many times. */
START_TEST(test_many_nodes)
{
	struct ibfs_topology *t = topo();
	struct ibfs_diag d;
	char id[32];
	for (int i = 0; i < 20000; i++) {
		snprintf(id, sizeof(id), "n%d", i);
		ck_assert_int_eq(ibfs__topo_add_node(t, id, IBFS_NODE_HCA, 1,
						     i + 1, &d), i);
	}
	for (int i = 0; i < 20000; i++) {
		snprintf(id, sizeof(id), "n%d", i);
		ck_assert_int_eq(ibfs__topo_find(t, id), i);
	}
	ck_assert_int_eq(ibfs__topo_find(t, "n20000"), -1);
	ck_assert_int_eq(ibfs__topo_add_node(t, "n19999", IBFS_NODE_HCA, 1,
					     30000, &d), -1);
	ck_assert_str_eq(d.msg, "f.xml:30000: duplicate id 'n19999' (first "
				"defined at line 20000)");
	ck_assert_uint_eq(t->nnodes, 20000);
	ibfs__topo_free(t);
}
END_TEST

START_TEST(test_node_errors)
{
	struct ibfs_topology *t = topo();
	struct ibfs_diag d;
	ck_assert_int_eq(ibfs__topo_add_node(t, "a", IBFS_NODE_HCA, 1, 3, &d),
			 0);
	ck_assert_int_eq(ibfs__topo_add_node(t, "a", IBFS_NODE_SWITCH, 8, 7,
					     &d), -1);
	ck_assert_str_eq(d.msg, "f.xml:7: duplicate id 'a' (first defined at "
				"line 3)");
	ck_assert_int_eq(ibfs__topo_add_node(t, "b", IBFS_NODE_SWITCH, 0, 8,
					     &d), -1);
	ck_assert_str_eq(d.msg, "f.xml:8: 'b' has 0 ports; a node has 1 to "
				"254 (IBA NodeInfo NumPorts, port 255 "
				"reserved)");
	ck_assert_int_eq(ibfs__topo_add_node(t, "b", IBFS_NODE_SWITCH, 255, 9,
					     &d), -1);
	ck_assert_ptr_nonnull(strstr(d.msg, "f.xml:9: 'b' has 255 ports"));
	ck_assert_int_eq(ibfs__topo_add_node(t, "", IBFS_NODE_HCA, 1, 10, &d),
			 -1);
	ck_assert_str_eq(d.msg, "f.xml:10: a node needs a non-empty id");
	ck_assert_int_eq(ibfs__topo_add_node(t, "x:1", IBFS_NODE_HCA, 1, 11,
					     &d), -1);
	ck_assert_str_eq(d.msg, "f.xml:11: id 'x:1' contains ':', which "
				"separates node and port in link endpoints");
	ck_assert_int_eq(ibfs__topo_add_node(t, "c", 7, 1, 12, &d), -1);
	ck_assert_str_eq(d.msg, "f.xml:12: node 'c' has an unknown type");
	/* Nothing of the refused nodes stayed behind. */
	ck_assert_uint_eq(t->nnodes, 1);
	ck_assert_int_eq(ibfs__topo_find(t, "b"), -1);
	ibfs__topo_free(t);
}
END_TEST

/* sw (8 ports, index 0), h1 (1 port, 1), h2 (2 ports, 2). */
static struct ibfs_topology *small(void)
{
	struct ibfs_topology *t = topo();
	struct ibfs_diag d;
	ck_assert_int_eq(ibfs__topo_add_node(t, "sw", IBFS_NODE_SWITCH, 8, 2,
					     &d), 0);
	ck_assert_int_eq(ibfs__topo_add_node(t, "h1", IBFS_NODE_HCA, 1, 3, &d),
			 1);
	ck_assert_int_eq(ibfs__topo_add_node(t, "h2", IBFS_NODE_HCA, 2, 4, &d),
			 2);
	return t;
}

START_TEST(test_link)
{
	struct ibfs_topology *t = small();
	struct ibfs_diag d;
	ck_assert_int_eq(ibfs__topo_add_link(t, 1, 1, 0, 5, IBFS_SPEED_EDR, 4,
					     2000, 10, &d), 0);
	ck_assert_int_eq(ibfs__topo_add_link(t, 0, 8, 2, 2, IBFS_SPEED_SDR, 1,
					     30000, 11, &d), 1);
	ck_assert_uint_eq(t->nlinks, 2);
	const struct ibfs_topo_link *l = &t->links[0];
	ck_assert_int_eq(l->node_a, 1);
	ck_assert_int_eq(l->port_a, 1);
	ck_assert_int_eq(l->node_b, 0);
	ck_assert_int_eq(l->port_b, 5);
	ck_assert_int_eq(l->line, 10);
	ck_assert_int_eq(l->width, 4);
	ck_assert_uint_eq(l->cable_mm, 2000);
	/* 2 m at 5 ns per metre. */
	ck_assert_uint_eq(l->prop, 10000);
	/* EDR: 25.78125 Gb/s a lane, 64b/66b: 25 Gb/s of data; 4x: 100. */
	ck_assert_uint_eq(l->rate.bits_num, 100000000000ULL * l->rate.bits_den);
	/* SDR 1x: 2.5 Gb/s with 8b/10b: 2 Gb/s; 30 m: 150 ns. */
	l = &t->links[1];
	ck_assert_uint_eq(l->rate.bits_num, 2000000000ULL * l->rate.bits_den);
	ck_assert_uint_eq(l->prop, 150000);
	/* Both ends know their peer and the link. */
	const struct ibfs_topo_port *p = &t->nodes[0].ports[5];
	ck_assert_int_eq(p->peer_node, 1);
	ck_assert_int_eq(p->peer_port, 1);
	ck_assert_int_eq(p->link, 0);
	p = &t->nodes[1].ports[1];
	ck_assert_int_eq(p->peer_node, 0);
	ck_assert_int_eq(p->peer_port, 5);
	ck_assert_int_eq(p->link, 0);
	p = &t->nodes[2].ports[2];
	ck_assert_int_eq(p->peer_node, 0);
	ck_assert_int_eq(p->peer_port, 8);
	ck_assert_int_eq(p->link, 1);
	ck_assert_int_eq(t->nodes[2].ports[1].link, -1);
	ibfs__topo_free(t);
}
END_TEST

START_TEST(test_link_errors)
{
	struct ibfs_topology *t = small();
	struct ibfs_diag d;
	ck_assert_int_eq(ibfs__topo_add_link(t, 1, 1, 0, 5, IBFS_SPEED_EDR, 4,
					     2000, 10, &d), 0);
	ck_assert_int_eq(ibfs__topo_add_link(t, 2, 1, 0, 5, IBFS_SPEED_EDR, 4,
					     2000, 12, &d), -1);
	ck_assert_str_eq(d.msg, "f.xml:12: port 'sw:5' is already linked to "
				"'h1:1' (line 10)");
	ck_assert_int_eq(ibfs__topo_add_link(t, 1, 1, 2, 1, IBFS_SPEED_EDR, 4,
					     2000, 13, &d), -1);
	ck_assert_str_eq(d.msg, "f.xml:13: port 'h1:1' is already linked to "
				"'sw:5' (line 10)");
	ck_assert_int_eq(ibfs__topo_add_link(t, 0, 0, 2, 1, IBFS_SPEED_EDR, 4,
					     2000, 14, &d), -1);
	ck_assert_str_eq(d.msg, "f.xml:14: 'sw:0': port 0 of a switch is its "
				"management port and takes no link");
	ck_assert_int_eq(ibfs__topo_add_link(t, 0, 1, 2, 0, IBFS_SPEED_EDR, 4,
					     2000, 15, &d), -1);
	ck_assert_str_eq(d.msg, "f.xml:15: 'h2:0': HCA ports are numbered "
				"from 1");
	ck_assert_int_eq(ibfs__topo_add_link(t, 0, 9, 2, 1, IBFS_SPEED_EDR, 4,
					     2000, 16, &d), -1);
	ck_assert_str_eq(d.msg, "f.xml:16: 'sw:9': port out of range ('sw' "
				"has 8 ports)");
	ck_assert_int_eq(ibfs__topo_add_link(t, 0, 1, 2, 3, IBFS_SPEED_EDR, 4,
					     2000, 17, &d), -1);
	ck_assert_str_eq(d.msg, "f.xml:17: 'h2:3': port out of range ('h2' "
				"has 2 ports)");
	ck_assert_int_eq(ibfs__topo_add_link(t, 0, 2, 0, 2, IBFS_SPEED_EDR, 4,
					     2000, 18, &d), -1);
	ck_assert_str_eq(d.msg, "f.xml:18: a link joins 'sw:2' to itself");
	ck_assert_int_eq(ibfs__topo_add_link(t, 0, 2, 2, 1, IBFS_SPEED_EDR, 3,
					     2000, 19, &d), -1);
	ck_assert_str_eq(d.msg, "f.xml:19: a link of 3 lanes: widths are 1x, "
				"2x, 4x, 8x and 12x");
	ck_assert_int_eq(ibfs__topo_add_link(t, 0, 2, 2, 1, IBFS_SPEED_COUNT,
					     4, 2000, 20, &d), -1);
	ck_assert_str_eq(d.msg, "f.xml:20: unknown link speed 9");
	ck_assert_int_eq(ibfs__topo_add_link(t, 0, 2, 9, 1, IBFS_SPEED_EDR, 4,
					     2000, 21, &d), -1);
	ck_assert_str_eq(d.msg, "f.xml:21: node index 9 does not exist");
	ck_assert_int_eq(ibfs__topo_add_link(t, 0, 2, 2, 1, IBFS_SPEED_EDR, 4,
					     UINT64_MAX / 4, 22, &d), -1);
	ck_assert_ptr_nonnull(strstr(d.msg, "f.xml:22: a cable of "));
	/* The refused links left the ports free and the list unchanged. */
	ck_assert_uint_eq(t->nlinks, 1);
	ck_assert_int_eq(t->nodes[0].ports[2].link, -1);
	ck_assert_int_eq(t->nodes[2].ports[1].link, -1);
	ck_assert_int_eq(ibfs__topo_add_link(t, 0, 2, 2, 1, IBFS_SPEED_HDR, 4,
					     0, 23, &d), 1);
	ck_assert_uint_eq(t->links[1].prop, 0);
	ibfs__topo_free(t);
}
END_TEST

START_TEST(test_endpoint)
{
	struct ibfs_topology *t = small();
	struct ibfs_diag d;
	int node = -7, port = -7;
	ck_assert_int_eq(ibfs__topo_parse_endpoint(t, "sw:8", &node, &port,
						   "g.xml", 5, &d), 0);
	ck_assert_int_eq(node, 0);
	ck_assert_int_eq(port, 8);
	ck_assert_int_eq(ibfs__topo_parse_endpoint(t, "h2:2", &node, &port,
						   "g.xml", 5, &d), 0);
	ck_assert_int_eq(node, 2);
	ck_assert_int_eq(port, 2);

	static const struct {
		const char *in, *msg;
	} bad[] = {
		{"sw", "g.xml:5: 'sw' is not NODE:PORT"},
		{":3", "g.xml:5: ':3' is not NODE:PORT"},
		{"sw:", "g.xml:5: 'sw:' is not NODE:PORT"},
		{"sw:x", "g.xml:5: 'sw:x': the port 'x' is not a decimal "
			 "number"},
		{"sw:-1", "g.xml:5: 'sw:-1': the port '-1' is not a decimal "
			  "number"},
		{"nope:1", "g.xml:5: 'nope:1': no node 'nope'"},
		{"sw:0", "g.xml:5: 'sw:0': port 0 of a switch is its "
			 "management port and takes no link"},
		{"h1:0", "g.xml:5: 'h1:0': HCA ports are numbered from 1"},
		{"h1:2", "g.xml:5: 'h1:2': port out of range ('h1' has 1 "
			 "port)"},
		{"sw:99999999999999999999", "g.xml:5: 'sw:99999999999999999999'"
					    ": port out of range ('sw' has 8 "
					    "ports)"},
		{"sw:9", "g.xml:5: 'sw:9': port out of range ('sw' has 8 "
			 "ports)"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		node = port = -7;
		ck_assert_int_eq(ibfs__topo_parse_endpoint(t, bad[i].in, &node,
							   &port, "g.xml", 5,
							   &d), -1);
		ck_assert_str_eq(d.msg, bad[i].msg);
		ck_assert_int_eq(node, -7);
		ck_assert_int_eq(port, -7);
	}
	ibfs__topo_free(t);
}
END_TEST

/*
 * sw1 (8 ports), h1 (1), h2 (2), sw2 (4), h3 (1) from ibsim's bases:
 * switches 0x200000, 0x200001; h1 0x100000 (port 1: 0x100001), the next HCA
 * starts 1 + 1 later: h2 0x100002 (ports 0x100003, 0x100004), then 2 + 1
 * later: h3 0x100005 (port 0x100006).
 */
START_TEST(test_guids_ibsim)
{
	struct ibfs_topology *t = topo();
	struct ibfs_diag d;
	ck_assert_int_eq(ibfs__topo_add_node(t, "sw1", IBFS_NODE_SWITCH, 8, 1,
					     &d), 0);
	ck_assert_int_eq(ibfs__topo_add_node(t, "h1", IBFS_NODE_HCA, 1, 2, &d),
			 1);
	ck_assert_int_eq(ibfs__topo_add_node(t, "h2", IBFS_NODE_HCA, 2, 3, &d),
			 2);
	ck_assert_int_eq(ibfs__topo_add_node(t, "sw2", IBFS_NODE_SWITCH, 4, 4,
					     &d), 3);
	ck_assert_int_eq(ibfs__topo_add_node(t, "h3", IBFS_NODE_HCA, 1, 5, &d),
			 4);
	ibfs__topo_assign_guids(t, IBFS_TOPO_SWITCH_GUID_BASE,
				IBFS_TOPO_CA_GUID_BASE);
	const struct ibfs_topo_node *n = t->nodes;
	ck_assert_uint_eq(n[0].guid, 0x200000);
	for (int p = 0; p <= 8; p++)
		ck_assert_uint_eq(n[0].ports[p].guid, 0x200000);
	ck_assert_uint_eq(n[3].guid, 0x200001);
	for (int p = 0; p <= 4; p++)
		ck_assert_uint_eq(n[3].ports[p].guid, 0x200001);
	ck_assert_uint_eq(n[1].guid, 0x100000);
	ck_assert_uint_eq(n[1].ports[1].guid, 0x100001);
	ck_assert_uint_eq(n[2].guid, 0x100002);
	ck_assert_uint_eq(n[2].ports[1].guid, 0x100003);
	ck_assert_uint_eq(n[2].ports[2].guid, 0x100004);
	ck_assert_uint_eq(n[4].guid, 0x100005);
	ck_assert_uint_eq(n[4].ports[1].guid, 0x100006);
	/* An HCA has no port 0. */
	ck_assert_uint_eq(n[1].ports[0].guid, 0);
	ibfs__topo_free(t);
}
END_TEST

/*
 * A node that has a GUID keeps it and takes no number from the counters:
 * h1 is 0xabc00 (port 0xabc01) and h2 gets the first CA GUID, 0x10; sw
 * gets 0x500 from a base chosen by the caller.
 */
START_TEST(test_guids_kept)
{
	struct ibfs_topology *t = topo();
	struct ibfs_diag d;
	ck_assert_int_eq(ibfs__topo_add_node(t, "h1", IBFS_NODE_HCA, 1, 1, &d),
			 0);
	ck_assert_int_eq(ibfs__topo_add_node(t, "h2", IBFS_NODE_HCA, 2, 2, &d),
			 1);
	ck_assert_int_eq(ibfs__topo_add_node(t, "sw", IBFS_NODE_SWITCH, 2, 3,
					     &d), 2);
	t->nodes[0].guid = 0xabc00;
	ibfs__topo_assign_guids(t, 0x500, 0x10);
	ck_assert_uint_eq(t->nodes[0].guid, 0xabc00);
	ck_assert_uint_eq(t->nodes[0].ports[1].guid, 0xabc01);
	ck_assert_uint_eq(t->nodes[1].guid, 0x10);
	ck_assert_uint_eq(t->nodes[1].ports[2].guid, 0x12);
	ck_assert_uint_eq(t->nodes[2].guid, 0x500);
	ck_assert_uint_eq(t->nodes[2].ports[0].guid, 0x500);
	/* A second pass changes nothing. */
	ibfs__topo_assign_guids(t, 0x900, 0x90);
	ck_assert_uint_eq(t->nodes[1].guid, 0x10);
	ck_assert_uint_eq(t->nodes[2].ports[2].guid, 0x500);
	ibfs__topo_free(t);
}
END_TEST

static Suite *topology_suite(void)
{
	Suite *s = suite_create("topology");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_add_find);
	tcase_add_test(tc, test_many_nodes);
	tcase_add_test(tc, test_node_errors);
	tcase_add_test(tc, test_link);
	tcase_add_test(tc, test_link_errors);
	tcase_add_test(tc, test_endpoint);
	tcase_add_test(tc, test_guids_ibsim);
	tcase_add_test(tc, test_guids_kept);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(topology_suite)
