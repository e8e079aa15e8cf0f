/* SPDX-License-Identifier: MIT */
/*
 * partitions.conf (subnet_manager/partitions.h) and the tables it gives
 * (pkey_plan.h), on a star: switch sw1 (GUID 0x200000) with four one-port
 * HCAs h1..h4 on its ports 1-4 (port GUIDs 0x100001, 0x100003, 0x100005,
 * 0x100007, ibsim's numbering) and h5, a two-port HCA with port 2 alone
 * linked. Every class of mistake is refused with its file and line; a
 * good file's members and memberships are read as OpenSM reads them; the
 * tables are laid out as OpenSM's osm_pkey_mgr lays them out from
 * power-up, in OpenSM's order of partitions.
 */
#include "check_common.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fabric/pkey.h"
#include "subnet_manager/partitions.h"
#include "subnet_manager/pkey_plan.h"

static struct ibfs_topology *star(void)
{
	struct ibfs_diag d;
	struct ibfs_topology *t = ibfs__topo_new("star");
	int s = ibfs__topo_add_node(t, "sw1", IBFS_NODE_SWITCH, 8, 0, &d);

	for (int i = 1; i <= 5; i++) {
		char id[8];

		snprintf(id, sizeof(id), "h%d", i);
		int h = ibfs__topo_add_node(t, id, IBFS_NODE_HCA, i == 5 ? 2 : 1,
					    0, &d);
		ck_assert_int_ge(ibfs__topo_add_link(t, h, i == 5 ? 2 : 1, s, i,
						     IBFS_SPEED_EDR, 4, 2000,
						     0, &d),
				 0);
	}
	ibfs__topo_assign_guids(t, IBFS_TOPO_SWITCH_GUID_BASE,
				IBFS_TOPO_CA_GUID_BASE);
	return t;
}

/* text must be refused with "p.conf:LINE: ...phrase...". */
static void refused(const char *text, long line, const char *phrase)
{
	struct ibfs_topology *t = star();
	struct ibfs_diag d = { { 0 } };
	char want[64];

	ck_assert_ptr_null(ibfs__partitions_parse(text, "p.conf", t, &d));
	snprintf(want, sizeof(want), "p.conf:%ld: ", line);
	ck_assert_msg(!strncmp(d.msg, want, strlen(want)) &&
			      strstr(d.msg, phrase),
		      "'%s': got '%s', want line %ld and '%s'", text, d.msg,
		      line, phrase);
	ibfs__topo_free(t);
}

START_TEST(syntax_errors)
{
	refused("A : ALL ;", 1, "partition 'A' needs '=P_Key'");
	refused("# c\n\n  : ALL ;", 3, "needs '=P_Key'");
	refused("A=0x8001 ALL ;", 1, "'A' where the definition ends");
	refused("A=0x8001, ipoib\n", 1, "no ':' before the end of the file");
	refused("A=0x8001 :\n ALL,\n h1", 1, "does not end with ';'");
	refused("A=1 : ALL h1 ;", 1, "'h' after member 'ALL'");
	refused("A=1 : ALL, , h1 ;", 1, "',' where a member should be");
	refused("A=1 : ALL, ;\nB=2 : =full ;", 2, "'=' where a member");
	char longw[200];

	memset(longw, 'x', sizeof(longw));
	memcpy(longw, "A=1 : ", 6);
	longw[sizeof(longw) - 1] = '\0';
	refused(longw, 1, "is too long");
}
END_TEST

START_TEST(pkey_errors)
{
	refused("A=0x10000 : ALL ;", 1, "P_Key '0x10000'");
	refused("A=0 : ALL ;", 1, "0 is the invalid P_Key");
	refused("A=0x8000 : ALL ;", 1, "P_Key '0x8000'");
	refused("A=zz : ALL ;", 1, "P_Key 'zz'");
	refused("A= : ALL ;", 1, "P_Key ''");
	refused("\n\nA=-1 : ALL ;", 3, "P_Key '-1'");
}
END_TEST

START_TEST(flag_errors)
{
	refused("A=1, foo : ALL ;", 1, "unknown partition flag 'foo'");
	refused("A=1, mtu=6 : ALL ;", 1, "mtu needs a value from 1 to 5");
	refused("A=1, mtu : ALL ;", 1, "mtu needs a value");
	refused("A=1,\n rate=1 : ALL ;", 2, "rate needs a value from 2");
	refused("A=1, sl=16 : ALL ;", 1, "sl needs a value from 0 to 15");
	refused("A=1, scope=0 : ALL ;", 1, "scope needs a value");
	refused("A=1, ipoib=1 : ALL ;", 1, "unknown partition flag 'ipoib'");
	refused("A=1, defmember=most : ALL ;", 1, "membership 'most'");
	refused("A=1, indx0 : ALL ;", 1, "indx0 is not modelled");
}
END_TEST

START_TEST(member_errors)
{
	refused("A=1 : h9 ;", 1, "unknown member 'h9'");
	refused("A=1 : all ;", 1, "unknown member 'all'");
	refused("A=1 :\n\n 0x100002 ;", 3,
		"no end port of the fabric has GUID 0x0000000000100002");
	refused("A=1 : 0x10000g ;", 1, "'0x10000g' is not a GUID");
	refused("A=1 : h1:2 ;", 1, "'h1:2': no such port");
	refused("A=1 : h1:0 ;", 1, "'h1:0': no such port");
	refused("A=1 : h1:x ;", 1, "'h1:x': no such port");
	refused("A=1 : sw1:3 ;", 1, "a switch's end port is port 0");
	refused("A=1 : ALL=fool ;", 1, "membership 'fool'");
	refused("A=1 : ALL=\n ;", 2, "membership ''");
	refused("A=1 : mgid=ff12:401b::ffff:ffff ;", 1,
		"multicast groups (mgid=) are not modelled");
	refused("A=1 : ALL_ROUTERS ;", 1, "the model has no routers");
}
END_TEST

START_TEST(file_errors)
{
	struct ibfs_topology *t = star();
	struct ibfs_diag d;
	char path[] = "/tmp/check_partitions_XXXXXX";
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "A=1 :\0 ALL ;", 12), 12);
	close(fd);
	ck_assert_ptr_null(ibfs__partitions_load(path, t, &d));
	ck_assert_ptr_nonnull(strstr(d.msg, "holds a NUL byte"));
	unlink(path);
	ck_assert_ptr_null(ibfs__partitions_load(path, t, &d));
	ck_assert_ptr_nonnull(strstr(d.msg, "cannot read"));
	ck_assert_ptr_nonnull(strstr(d.msg, path));
	ibfs__topo_free(t);
}
END_TEST

/* Members and memberships as read, merges, flags, comments, lines. */
START_TEST(good_file)
{
	struct ibfs_topology *t = star();
	struct ibfs_diag d;
	const char *text =
		"# tenants\n"
		"Default=0x7fff : ALL, SELF=full ;\n"
		"TenantA = 0x8001 , ipoib , mtu=5,rate=7, sl=3 :\n"
		"   0x100001=full,   # h1 by GUID\n"
		"   h2 , h3:1=both, h5 = limited ;\n"
		"B=0x0002,defmember=full: ALL_CAS, ALL_SWITCHES=limited;\n"
		"more=0x0001 : sw1 ;  Empty=0x0003 : ;\n";
	struct ibfs_partitions *pp =
		ibfs__partitions_parse(text, "p.conf", t, &d);

	ck_assert_msg(pp != NULL, "%s", d.msg);
	ck_assert_int_eq(pp->from_file, 1);
	ck_assert_uint_eq(pp->n, 4); /* 0x0001 merged into 0x8001's */
	const struct ibfs_prtn *a = ibfs__partitions_find(pp, 0x0001);

	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(a->name, "TenantA");
	ck_assert_int_eq(a->line, 3);
	ck_assert_int_eq(a->ipoib, 1);
	ck_assert_int_eq(a->mtu, 5);
	ck_assert_int_eq(a->rate, 7);
	ck_assert_int_eq(a->sl, 3);
	ck_assert_uint_eq(a->nm, 5);
	const struct { int who, node, port, full; long line; } want[] = {
		{IBFS_PRTN_PORT, 1, 1, 1, 4}, {IBFS_PRTN_NODE, 2, 0, 0, 5},
		{IBFS_PRTN_PORT, 3, 1, 1, 5}, {IBFS_PRTN_NODE, 5, 0, 0, 5},
		{IBFS_PRTN_NODE, 0, 0, 0, 7},
	};
	for (size_t i = 0; i < a->nm; i++) {
		ck_assert_int_eq(a->m[i].who, want[i].who);
		ck_assert_int_eq(a->m[i].node, want[i].node);
		ck_assert_int_eq(a->m[i].port, want[i].port);
		ck_assert_int_eq(a->m[i].full, want[i].full);
		ck_assert_int_eq(a->m[i].line, want[i].line);
	}
	const struct ibfs_prtn *b = ibfs__partitions_find(pp, 0x8002);

	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(b->nm, 2);
	ck_assert_int_eq(b->m[0].who, IBFS_PRTN_ALL_CAS);
	ck_assert_int_eq(b->m[0].full, 1);
	ck_assert_int_eq(b->m[1].who, IBFS_PRTN_ALL_SWITCHES);
	ck_assert_int_eq(b->m[1].full, 0);
	const struct ibfs_prtn *e = ibfs__partitions_find(pp, 3);

	ck_assert_ptr_nonnull(e);
	ck_assert_uint_eq(e->nm, 0);
	ck_assert_ptr_null(ibfs__partitions_find(pp, 4));
	ibfs__partitions_free(pp);
	ibfs__topo_free(t);
}
END_TEST

/*
 * Bad input never crashes: every prefix of a good file, and the file
 * with each byte replaced by a delimiter or a NUL, is read or refused
 * with its file and a line (the sanitizer build and valgrind watch).
 */
START_TEST(prefixes_and_mutations)
{
	struct ibfs_topology *t = star();
	struct ibfs_diag d;
	const char good[] = "Default=0x7fff : ALL, SELF=full ;\n"
			    "A=0x8001, ipoib, sl=2 : h1=full,\n"
			    "  0x100003, h3:1=both # note\n ;\n";
	char buf[sizeof(good)];
	const char subst[] = "=,:;# \n0x\0";

	for (size_t n = 0; n + 1 < sizeof(good); n++) {
		for (size_t k = 0; k <= sizeof(subst) - 1; k++) {
			memcpy(buf, good, sizeof(good));
			if (k < sizeof(subst) - 1)
				buf[n] = subst[k];
			else
				buf[n] = '\0'; /* the prefix */
			struct ibfs_partitions *pp =
				ibfs__partitions_parse(buf, "p.conf", t, &d);

			if (!pp)
				ck_assert_msg(!strncmp(d.msg, "p.conf:", 7),
					      "'%s': %s", buf, d.msg);
			ibfs__partitions_free(pp);
		}
	}
	ibfs__topo_free(t);
}
END_TEST

/* Table of node:port from the plan, `want` padded with zeros. */
static void table_is(const struct ibfs_pkey_plan *pl, int node, int port,
		     const uint16_t *want, int n)
{
	const uint16_t *tab = ibfs__pkey_plan_table(pl, node, port);
	int cap = ibfs__pkey_plan_cap(&pl->t->nodes[node]);

	ck_assert_msg(tab != NULL, "node %d port %d not programmed", node,
		      port);
	for (int i = 0; i < cap; i++)
		ck_assert_msg(tab[i] == (i < n ? want[i] : 0),
			      "node %d port %d entry %d: 0x%04x, want 0x%04x",
			      node, port, i, tab[i], i < n ? want[i] : 0);
}

/*
 * OpenSM's layout: the default partition's P_Key keeps entry 0 (it has
 * 0xFFFF there at power-up); the others fill the free entries in the
 * order of OpenSM's partition map, by P_Key in network byte order (0x0100
 * before 0x0001 before 0x0002). The SM (h1) is a full member of the
 * default partition; without a rule for it every end port would be a
 * limited member, here ALL is limited by defmember and SELF full. The
 * last member naming a port sets its membership.
 */
START_TEST(layout_as_opensm)
{
	struct ibfs_topology *t = star();
	struct ibfs_diag d;
	const char *text = "Default=0x7fff : ALL, SELF=full ;\n"
			   "P2=0x0002 : h1=full, h2 ;\n"
			   "P1=0x8001 : h2=full, h3, h3=full, h4 ;\n"
			   "P256=0x0100 : h3=full, h4=full, sw1=full ;\n";
	struct ibfs_partitions *pp =
		ibfs__partitions_parse(text, "p.conf", t, &d);
	struct ibfs_pkey_plan pl;

	ck_assert_msg(pp != NULL, "%s", d.msg);
	ck_assert_int_eq(ibfs__pkey_plan_build(&pl, pp, t, 1, 1, &d), 0);
	const uint16_t sw0[] = {0x7fff, 0x8100};
	const uint16_t h1[] = {0xffff, 0x8002};
	const uint16_t h2[] = {0x7fff, 0x8001, 0x0002};
	const uint16_t h3[] = {0x7fff, 0x8100, 0x8001};
	const uint16_t h4[] = {0x7fff, 0x8100, 0x0001};
	const uint16_t h5[] = {0x7fff};

	table_is(&pl, 0, 0, sw0, 2);
	table_is(&pl, 1, 1, h1, 2);
	table_is(&pl, 2, 1, h2, 3);
	table_is(&pl, 3, 1, h3, 3);
	table_is(&pl, 4, 1, h4, 3);
	table_is(&pl, 5, 2, h5, 1);
	/* h5's port 1 has no link: not an end port of the subnet. */
	ck_assert_ptr_null(ibfs__pkey_plan_table(&pl, 5, 1));
	/* The switch ports facing the CAs copy their block and enforce. */
	const uint16_t *cas[] = {h1, h2, h3, h4, h5};
	const int ns[] = {2, 3, 3, 3, 1};

	for (int p = 1; p <= 5; p++) {
		table_is(&pl, 0, p, cas[p - 1], ns[p - 1]);
		ck_assert_int_eq(pl.enf[0][p],
				 IBFS_PKEY_ENF_IN | IBFS_PKEY_ENF_OUT);
	}
	ck_assert_int_eq(pl.enf[0][0], 0);
	ck_assert_ptr_null(ibfs__pkey_plan_table(&pl, 0, 6));
	ck_assert_int_eq(pl.enf[0][6], 0);
	ck_assert_uint_eq(ibfs__pkey_plan_member(&pl, 4, 1, 0x8001), 0x0001);
	ck_assert_uint_eq(ibfs__pkey_plan_member(&pl, 1, 1, 0x0001), 0);
	ck_assert_uint_eq(ibfs__pkey_plan_member(&pl, 9, 1, 0x0001), 0);
	ibfs__pkey_plan_free(&pl);
	ibfs__partitions_free(pp);

	/* No Default rule: all limited but the SM; a port outside the
	 * default partition fills entry 0 with its first P_Key. */
	pp = ibfs__partitions_parse("P=0x0009 : h2=full ;", "p.conf", t, &d);
	ck_assert_int_eq(ibfs__pkey_plan_build(&pl, pp, t, 1, 1, &d), 0);
	const uint16_t l1[] = {0xffff}, l2[] = {0x7fff, 0x8009};

	table_is(&pl, 1, 1, l1, 1);
	table_is(&pl, 2, 1, l2, 2);
	ibfs__pkey_plan_free(&pl);
	ibfs__partitions_free(pp);
	pp = ibfs__partitions_parse("Default=0x7fff : h1=full, h2 ;\n"
				    "P=0x0009 : h3=full ;", "p.conf", t, &d);
	ck_assert_int_eq(ibfs__pkey_plan_build(&pl, pp, t, 1, 1, &d), 0);
	const uint16_t n3[] = {0x7fff, 0x8009};

	table_is(&pl, 3, 1, n3, 2); /* limited from OpenSM's default */
	ibfs__pkey_plan_free(&pl);
	ibfs__partitions_free(pp);

	/* Without a file: every end port a full member of 0x7fff, as at
	 * power-up, and the SM's port too. */
	pp = ibfs__partitions_default();
	ck_assert_int_eq(pp->from_file, 0);
	ck_assert_int_eq(ibfs__pkey_plan_build(&pl, pp, t, 1, 1, &d), 0);
	const uint16_t dflt[] = {0xffff};

	for (int n = 1; n <= 4; n++)
		table_is(&pl, n, 1, dflt, 1);
	table_is(&pl, 0, 0, dflt, 1);
	table_is(&pl, 0, 3, dflt, 1);
	ibfs__pkey_plan_free(&pl);
	ibfs__partitions_free(pp);
	ibfs__topo_free(t);
}
END_TEST

/*
 * A CA's table holds 128 P_Keys: the default and 127 more fit, one more
 * is refused at the line of the partition that does not fit. A switch
 * port facing a CA that uses more than its 32 entries copies nothing and
 * does not enforce (OpenSM's ERR 0508).
 */
START_TEST(table_overflow)
{
	struct ibfs_topology *t = star();
	struct ibfs_diag d;
	static char text[128 * 32];
	size_t len = 0;

	for (int i = 1; i <= 128; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len,
					"P%d=%d : h2=full ;\n", i, i);
	struct ibfs_partitions *pp =
		ibfs__partitions_parse(text, "p.conf", t, &d);
	struct ibfs_pkey_plan pl;

	ck_assert_msg(pp != NULL, "%s", d.msg);
	ck_assert_int_eq(ibfs__pkey_plan_build(&pl, pp, t, 1, 1, &d), -1);
	ck_assert_msg(strstr(d.msg, "'h2' port 1 is in more partitions than "
				    "its P_Key table holds (128)") != NULL,
		      "%s", d.msg);
	/* OpenSM's order puts 128 (0x0080) after 127 (0x007f): the last. */
	ck_assert_msg(!strncmp(d.msg, "p.conf:128: ", 12), "%s", d.msg);
	ibfs__partitions_free(pp);

	text[0] = '\0';
	len = 0;
	for (int i = 1; i <= 127; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len,
					"P%d=%d : h2=full ;\n", i, i);
	pp = ibfs__partitions_parse(text, "p.conf", t, &d);
	ck_assert_int_eq(ibfs__pkey_plan_build(&pl, pp, t, 1, 1, &d), 0);
	const uint16_t *h2 = ibfs__pkey_plan_table(&pl, 2, 1);

	ck_assert_uint_eq(h2[0], 0x7fff);
	for (int i = 1; i < 128; i++)
		ck_assert_uint_ne(h2[i], 0);
	ck_assert_int_eq(pl.enf[0][2], 0);
	ck_assert_ptr_null(ibfs__pkey_plan_table(&pl, 0, 2));
	ck_assert_int_eq(pl.enf[0][3], IBFS_PKEY_ENF_IN | IBFS_PKEY_ENF_OUT);
	ibfs__pkey_plan_free(&pl);
	ibfs__partitions_free(pp);
	ibfs__topo_free(t);
}
END_TEST

static Suite *partitions_suite(void)
{
	Suite *s = suite_create("partitions");
	TCase *tc = tcase_create("partitions");

	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, syntax_errors);
	tcase_add_test(tc, pkey_errors);
	tcase_add_test(tc, flag_errors);
	tcase_add_test(tc, member_errors);
	tcase_add_test(tc, file_errors);
	tcase_add_test(tc, good_file);
	tcase_add_test(tc, prefixes_and_mutations);
	tcase_add_test(tc, layout_as_opensm);
	tcase_add_test(tc, table_overflow);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(partitions_suite)
