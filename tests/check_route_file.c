/* SPDX-License-Identifier: MIT */
/*
 * OpenSM's opensm-lfts.dump format: the writer's lines, exactly as
 * OpenSM's dump_ucast_lfts prints them, the file engine loading them back
 * byte for byte, and every error of the reader.
 */
#include <unistd.h>

#include "check_route_util.h"
#include "subnet_manager/lft_dump.h"

static const char *const ft42[] = {"k", "4", "levels", "2", NULL};

static char *dump_to_string(const struct ibfs_subnet *sn, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(ibfs__lft_dump(sn, f), 0);
	fclose(f);
	return buf;
}

START_TEST(dump_lines)
{
	struct rt r = rt_make("fat-tree", ft42, 1, 0);
	rt_route(&r, "ftree", "ftree");
	size_t len;
	char *s = dump_to_string(r.sn, &len);
	/* LIDs: leaf1-4 = 1-4, spine1-2 = 5-6, node1-8 = 7-14. GUIDs as
	 * ibsim: switches from 0x200000, HCA n at 0x100000 + 2(n-1), its
	 * port 1 one more. leaf1 reaches leaf2 by its lowest up port, 3. */
	const char *head =
		"Unicast lids [0-14] of switch Lid 1 guid 0x0000000000200000 ('leaf1'):\n"
		"0x0001 000 # Switch portguid 0x0000000000200000: 'leaf1'\n"
		"0x0002 003 # Switch portguid 0x0000000000200001: 'leaf2'\n";
	ck_assert_int_eq(strncmp(s, head, strlen(head)), 0);
	ck_assert_ptr_nonnull(strstr(s,
				     "0x0007 001 # Channel Adapter portguid 0x0000000000100001: 'node1'\n"
				     "0x0008 002 # Channel Adapter portguid 0x0000000000100003: 'node2'\n"));
	ck_assert_ptr_nonnull(strstr(s,
				     "14 lids dumped\nUnicast lids [0-14] of switch Lid 2 guid 0x0000000000200001 ('leaf2'):\n"));
	/* spine1 sends node8 (LID 14) down to leaf4 on its port 4. */
	ck_assert_ptr_nonnull(strstr(s,
				     "('spine1'):\n"));
	ck_assert_ptr_nonnull(strstr(s,
				     "0x000e 004 # Channel Adapter portguid 0x000000000010000f: 'node8'\n14 lids dumped\nUnicast lids [0-14] of switch Lid 6"));
	/* 6 switches x (header + 14 LIDs + footer) lines; LID 0 has none. */
	int lines = 0;
	for (size_t i = 0; i < len; i++)
		lines += s[i] == '\n';
	ck_assert_int_eq(lines, 6 * 16);
	ck_assert_ptr_null(strstr(s, "0x0000 "));
	free(s);
	rt_free(&r);
}
END_TEST

START_TEST(file_engine_round_trip)
{
	struct rt a = rt_make("fat-tree", ft42, 1, 0);
	rt_route(&a, "ftree", "ftree");
	char path[] = "/tmp/ibfs-lfts-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "w");
	ck_assert_int_eq(ibfs__lft_dump(a.sn, f), 0);
	fclose(f);
	struct rt b = rt_make("fat-tree", ft42, 1, 0);
	struct ibfs_routing_opts o = {.lfts_file = path};
	struct ibfs_diag d;
	ck_assert_int_eq(ibfs__routing_run(b.sn, "file", &o, &d), 0);
	ck_assert_str_eq(b.sn->engine, "file");
	size_t n = (size_t)(a.sn->max_lid + 1) * (size_t)a.sn->nsw;
	ck_assert_int_eq(memcmp(a.sn->lft, b.sn->lft, n), 0);
	size_t la, lb;
	char *sa = dump_to_string(a.sn, &la), *sb = dump_to_string(b.sn, &lb);
	ck_assert_str_eq(sa, sb);
	free(sa);
	free(sb);
	unlink(path);
	rt_free(&a);
	rt_free(&b);
}
END_TEST

/* Loads `text` as a dump into a fresh k=4 two-level fat tree. */
static void expect_load_error(const char *text, const char *msg)
{
	char path[] = "/tmp/ibfs-lfts-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	struct rt r = rt_make("fat-tree", ft42, 1, 0);
	struct ibfs_diag d = {{0}};
	ck_assert_int_eq(ibfs__lft_load(r.sn, path, &d), -1);
	ck_assert_msg(strstr(d.msg, msg) && !strncmp(d.msg, path, strlen(path)),
		      "'%s' lacks '%s'", d.msg, msg);
	/* Through the engine: the same line in the log, minhop runs. */
	struct ibfs_routing_opts o = {.lfts_file = path};
	ck_assert_int_eq(ibfs__routing_run(r.sn, "file", &o, &d), 0);
	ck_assert_str_eq(r.sn->engine, "minhop");
	ck_assert_ptr_nonnull(strstr(r.sn->log, msg));
	unlink(path);
	rt_free(&r);
}

START_TEST(load_errors)
{
	expect_load_error("Unicast lids [0-14] of switch Lid 1 guid 0x0000000000200000 ('leaf1'):\n"
			  "0x0001 000 # x\n"
			  "banana\n",
			  ":3: expected 'LID PORT'");
	expect_load_error("Unicast lids [0-14] of switch Lid 1 guid 0x00000000002000ff ('x'):\n",
			  ":1: ERR 6301: switch GUID 0x00000000002000ff is not in this subnet");
	expect_load_error("Unicast lids [0-14] of switch Lid 1 guid 0x0000000000200000 ('leaf1'):\n"
			  "0x0001 009 # x\n",
			  ":2: ERR 6302: LID 0x0001 port 9 is out of range");
	expect_load_error("0x0001 001\n", ":1: an LFT entry outside");
	expect_load_error("Unicast lids [0-14] of switch Lid 1 guid 0x0000000000200000 ('leaf1'):\n"
			  "14 lids dumped\n",
			  "ERR 6303: no table for switch 'leaf2' GUID 0x0000000000200001 port 0");
	expect_load_error("Unicast lids [0-14] of switch Lid 1 ('leaf1'):\n",
			  ":1: a 'Unicast lids' line without 'guid 0x...'");
	struct rt r = rt_make("fat-tree", ft42, 1, 0);
	struct ibfs_diag d;
	ck_assert_int_eq(ibfs__lft_load(r.sn, "/nonexistent/lfts", &d), -1);
	ck_assert_ptr_nonnull(strstr(d.msg, "/nonexistent/lfts: cannot open"));
	ck_assert_int_eq(ibfs__routing_run(r.sn, "file", NULL, &d), 0);
	ck_assert_ptr_nonnull(strstr(r.sn->log, "ERR 6304: file: no LFT file given"));
	rt_free(&r);
}
END_TEST

static Suite *route_file_suite(void)
{
	Suite *s = suite_create("route_file");
	TCase *tc = tcase_create("file");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, dump_lines);
	tcase_add_test(tc, file_engine_round_trip);
	tcase_add_test(tc, load_errors);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(route_file_suite)
