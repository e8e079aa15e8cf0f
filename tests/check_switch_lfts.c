/* SPDX-License-Identifier: MIT */
/*
 * Forwarding tables from OpenSM's opensm-lfts.dump format: the line
 * routing of the four-switch ring (tests/data/switch/ring4-line.lfts)
 * loads, sets each switch's LID and table, and carries all-to-all traffic
 * without deadlock; each kind of bad file is refused with FILE:LINE.
 */
#include "check_common.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fabric/endpoint.h"
#include "fabric/fabric.h"
#include "fabric/xml_fabric.h"
#include "switch/switch.h"

#define NSW 4

struct ring {
	struct ibfs_topology *t;
	struct ibfs_fabric *f;
	struct ibfs_switch *sw[NSW];
	struct ibfs_endpoint *ep[NSW];
};

static void ring_make(struct ring *x)
{
	struct ibfs_diag d;
	char path[1024];

	snprintf(path, sizeof(path), "%s/tests/data/switch/ring4.xml",
		 IBFS_SRC(0));
	x->t = ibfs__fabric_xml_load(path, &d);
	ck_assert_msg(x->t != NULL, "%s", d.msg);
	x->f = ibfs__fabric_new(x->t, 1, 0);
	ck_assert_ptr_nonnull(x->f);
	for (int i = 0; i < NSW; i++) {
		x->sw[i] = ibfs__switch_create(x->f, i, &d);
		ck_assert_ptr_nonnull(x->sw[i]);
		x->ep[i] = ibfs__endpoint_create(x->f, NSW + i);
		ibfs__endpoint_set_lid(x->ep[i], (uint16_t)(i + 1), 0);
	}
}

static void ring_free(struct ring *x)
{
	for (int i = 0; i < NSW; i++) {
		ibfs__endpoint_destroy(x->ep[i]);
		ibfs__switch_destroy(x->sw[i]);
	}
	ibfs__fabric_free(x->f);
	ibfs__topo_free(x->t);
}

START_TEST(load_and_run)
{
	struct ring x;
	struct ibfs_diag d;
	char path[1024];

	ring_make(&x);
	snprintf(path, sizeof(path), "%s/tests/data/switch/ring4-line.lfts",
		 IBFS_SRC(0));
	ck_assert_msg(ibfs__switch_load_lfts(x.f, path, &d) == 0, "%s", d.msg);
	for (int i = 0; i < NSW; i++) {
		ck_assert_uint_eq(ibfs__switch_get_lid(x.sw[i]), 100 + i);
		for (int j = 0; j < NSW; j++) {
			uint16_t lid = (uint16_t)(j + 1);

			ck_assert_uint_eq(ibfs__switch_get_lft(x.sw[i], lid),
					  j == i ? 1 : j > i ? 2 : 3);
		}
		ck_assert_uint_eq(ibfs__switch_get_lft(x.sw[i], 5),
				  IBFS_LFT_NONE);
	}
	for (int i = 0; i < NSW; i++)
		for (int j = 0; j < NSW; j++) {
			struct ibfs_ep_flow_spec s = {
				.dlid = (uint16_t)(j + 1), .payload = 2036,
				.count = 100,
			};

			if (j != i)
				ck_assert_int_eq(ibfs__endpoint_add_flow(
							 x.ep[i], &s, &d), 0);
		}
	struct ibfs_deadlock_monitor *m =
		ibfs__deadlock_monitor_new(x.f, 20 * IBFS_US);

	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_int_eq(ibfs__deadlock_verdict(m)->deadlock, 0);
	ck_assert_uint_eq(x.f->pkts_delivered, NSW * (NSW - 1) * 100);
	ibfs__deadlock_monitor_free(m);
	ring_free(&x);
}
END_TEST

/* Writes `text` to a temporary file and loads it; returns the diag. */
static int load_text(const char *text, char *msg, size_t len)
{
	struct ring x;
	struct ibfs_diag d;
	char path[] = "/tmp/ibfs-lfts-XXXXXX";
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	ring_make(&x);
	int rc = ibfs__switch_load_lfts(x.f, path, &d);

	/* Strip the temporary directory so messages compare exactly. */
	snprintf(msg, len, "%s", rc ? d.msg + strlen("/tmp/") : "");
	unlink(path);
	ring_free(&x);
	return rc;
}

/* The reader's words for a line that is not "LID PORT". */
#define ENTRY "expected 'LID PORT' as in '0x0001 001 # ...'"
#define HDR0 "Unicast lids [0-4] of switch Lid 100 guid 0x0000000000200000 " \
	     "('s0'):\n"

START_TEST(bad_files)
{
	char msg[1200];
	const char *s;

	ck_assert_int_eq(load_text(HDR0 "0x0001 001\n0x0002 007 # x\n", msg,
				   sizeof(msg)), -1);
	s = strchr(msg, ':');
	ck_assert_str_eq(s, ":3: port 7 out of range for switch 's0' (0-3)");
	ck_assert_int_eq(load_text("0x0001 001\n", msg, sizeof(msg)), -1);
	ck_assert_str_eq(strchr(msg, ':'),
			 ":1: an LFT entry outside a 'Unicast lids' block");
	ck_assert_int_eq(load_text("\n" HDR0 "0xc000 001\n", msg,
				   sizeof(msg)), -1);
	ck_assert_str_eq(strchr(msg, ':'),
			 ":3: LID 0xc000 is not a unicast LID (1-0xbfff)");
	ck_assert_int_eq(load_text("Unicast lids [0-4] of switch Lid 7 guid "
				   "0x99 ('nosuch'):\n", msg, sizeof(msg)),
			 -1);
	ck_assert_str_eq(strchr(msg, ':'),
			 ":1: no switch with GUID 0x0000000000000099 "
			 "('nosuch') in the fabric");
	ck_assert_int_eq(load_text(HDR0 "4 lids dumped\nhello\n", msg,
				   sizeof(msg)), -1);
	ck_assert_str_eq(strchr(msg, ':'), ":3: " ENTRY);
	ck_assert_int_eq(load_text(HDR0 "0x0001 one\n", msg, sizeof(msg)), -1);
	ck_assert_str_eq(strchr(msg, ':'), ":2: " ENTRY);
	ck_assert_int_eq(load_text("Unicast lids of switch\n", msg,
				   sizeof(msg)), -1);
	ck_assert_str_eq(strchr(msg, ':'),
			 ":1: a 'Unicast lids' line without 'guid 0x...'");
	ck_assert_int_eq(load_text("Unicast lids [0-4] of switch Lid 49152 guid "
				   "0x0000000000200000 ('s0'):\n", msg,
				   sizeof(msg)), -1);
	ck_assert_str_eq(strchr(msg, ':'),
			 ":1: switch LID 49152 is not a unicast LID");
	/* The LID, then the port, not numbers. */
	ck_assert_int_eq(load_text(HDR0 "0xzz 001\n", msg, sizeof(msg)), -1);
	ck_assert_str_eq(strchr(msg, ':'), ":2: " ENTRY);
	ck_assert_int_eq(load_text(HDR0 "0x0001 1x\n", msg, sizeof(msg)), -1);
	ck_assert_str_eq(strchr(msg, ':'), ":2: " ENTRY);
	/* A line longer than the reader's 1023 bytes. */
	char big[1200];

	memset(big, '#', sizeof(big) - 2);
	big[sizeof(big) - 2] = '\n';
	big[sizeof(big) - 1] = 0;
	ck_assert_int_eq(load_text(big, msg, sizeof(msg)), -1);
	ck_assert_str_eq(strchr(msg, ':'), ":1: line too long");
	/* Windows line ends and ibroute's "N valid lids dumped " trailer. */
	ck_assert_int_eq(load_text(HDR0 "0x0001 001\r\n4 valid lids dumped \r\n"
				   "0x0002 001\n", msg, sizeof(msg)), -1);
	ck_assert_str_eq(strchr(msg, ':'),
			 ":4: an LFT entry outside a 'Unicast lids' block");
	/* A switch found by name when its GUID is not known. */
	ck_assert_int_eq(load_text("Unicast lids [0-4] of switch Lid 9 guid "
				   "0x1 ('s2'):\n0x0003 001\n", msg,
				   sizeof(msg)), 0);
	/* A missing file. */
	struct ring x;
	struct ibfs_diag d;

	ring_make(&x);
	ck_assert_int_eq(ibfs__switch_load_lfts(x.f, "/nonexistent/lfts", &d),
			 -1);
	ck_assert_str_eq(d.msg, "/nonexistent/lfts: cannot open: "
				"No such file or directory");
	ring_free(&x);
}
END_TEST

static Suite *lfts_suite(void)
{
	Suite *s = suite_create("switch_lfts");
	TCase *tc = tcase_create("lfts");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, load_and_run);
	tcase_add_test(tc, bad_files);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(lfts_suite)
