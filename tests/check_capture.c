/* SPDX-License-Identifier: MIT */
/*
 * Captures: a stream of IBA-local packets between two endpoints is written
 * as pcap/ERF; the file is read back and every field is checked against
 * what was sent: pcap and ERF headers, record times (the closed-form start
 * of each packet on the wire), lengths, and both CRCs.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check_common.h"
#include "fabric/capture.h"
#include "fabric/endpoint.h"
#include "fabric/packet_encode.h"

static uint32_t rd32(const uint8_t *b)
{
	return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint16_t rd16be(const uint8_t *b)
{
	return (uint16_t)(b[0] << 8 | b[1]);
}

/* Two endpoints joined by one EDR 4x link of 2 m. */
static struct ibfs_topology *pair(void)
{
	struct ibfs_diag d;
	struct ibfs_topology *t = ibfs__topo_new("pair");
	int a = ibfs__topo_add_node(t, "a", IBFS_NODE_HCA, 1, 0, &d);
	int b = ibfs__topo_add_node(t, "b", IBFS_NODE_HCA, 1, 0, &d);
	ck_assert_int_ge(ibfs__topo_add_link(t, a, 1, b, 1, IBFS_SPEED_EDR, 4,
					     2000, 0, &d),
			 0);
	return t;
}

START_TEST(stream_is_captured_exactly)
{
	char path[] = "/tmp/ibfs_capXXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	struct ibfs_topology *t = pair();
	struct ibfs_fabric *f = ibfs__fabric_new(t, 1, 1);
	struct ibfs_endpoint *a = ibfs__endpoint_create(f, 0);
	struct ibfs_endpoint *b = ibfs__endpoint_create(f, 1);
	ibfs__endpoint_set_lid(a, 1, 0);
	ibfs__endpoint_set_lid(b, 2, 0);
	struct ibfs_diag d;
	struct ibfs_ep_flow_spec s = {.dlid = 2, .lnh = 2, .payload = 1000,
				      .count = 5, .start = 0};
	ck_assert_int_eq(ibfs__endpoint_add_flow(a, &s, &d), 0);
	struct ibfs_capture *c = ibfs__capture_open(f, path, NULL);
	ck_assert_ptr_nonnull(c);
	ibfs__eq_run(&f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(ibfs__capture_count(c), 5);
	ck_assert_int_eq(ibfs__capture_close(c), 0);

	FILE *in = fopen(path, "rb");
	ck_assert_ptr_nonnull(in);
	uint8_t buf[8192];
	size_t n = fread(buf, 1, sizeof(buf), in);
	fclose(in);
	unlink(path);
	ck_assert_uint_eq(rd32(buf), 0xa1b23c4du);
	ck_assert_uint_eq(rd32(buf + 20), 197); /* LINKTYPE_ERF */
	/* Wire: LRH 8 + BTH 12 + 1000 + ICRC 4 + VCRC 2 = 1026 bytes; EDR 4x
	 * moves 100 Gb/s, 80 ps a byte: packets start every 82,080 ps. */
	const uint32_t wire = 1026;
	const uint8_t *r = buf + 24;
	for (int k = 0; k < 5; k++) {
		ck_assert_uint_le((size_t)(r - buf) + 16 + 16 + wire, n);
		uint64_t start = (uint64_t)k * wire * 80;
		ck_assert_uint_eq(rd32(r), start / IBFS_S);
		ck_assert_uint_eq(rd32(r + 4), start / IBFS_NS);
		ck_assert_uint_eq(rd32(r + 8), 16 + wire);
		const uint8_t *e = r + 16;
		uint64_t ts = rd32(e) | (uint64_t)rd32(e + 4) << 32;
		/* 32.32 fixed point: the fraction is start x 2^32 / 10^12. */
		ck_assert_uint_eq(ts, (uint64_t)(((unsigned __int128)start
						   << 32) / IBFS_S));
		ck_assert_uint_eq(e[8], 21);    /* TYPE_INFINIBAND */
		ck_assert_uint_eq(e[9] & 0x04, 0x04);
		ck_assert_uint_eq(rd16be(e + 10), 16 + wire);
		ck_assert_uint_eq(rd16be(e + 14), wire);
		const uint8_t *pk = e + 16;
		ck_assert_uint_eq(rd16be(pk + 2), 2); /* DLID */
		ck_assert_uint_eq(rd16be(pk + 6), 1); /* SLID */
		ck_assert_uint_eq(rd16be(pk + 4) & 0x7FF, (wire - 2) / 4);
		ck_assert_uint_eq(rd32(pk + wire - 6),
				  ibfs__icrc(pk, wire - 6));
		ck_assert_uint_eq(pk[wire - 2] | pk[wire - 1] << 8,
				  ibfs__crc16_vcrc(pk, wire - 2));
		r += 16 + 16 + wire;
	}
	ck_assert_uint_eq((size_t)(r - buf), n);
	ibfs__endpoint_destroy(a);
	ibfs__endpoint_destroy(b);
	ibfs__fabric_free(f);
	ibfs__topo_free(t);
}
END_TEST

START_TEST(unwritable_path_fails_cleanly)
{
	struct ibfs_topology *t = pair();
	struct ibfs_fabric *f = ibfs__fabric_new(t, 1, 1);
	ck_assert_ptr_null(
		ibfs__capture_open(f, "/nonexistent-dir/x.pcap", NULL));
	ck_assert_ptr_null(f->observers);
	ibfs__fabric_free(f);
	ibfs__topo_free(t);
}
END_TEST

/* --pcap-ports / --trace-ports lists: what they name, each mistake. */
START_TEST(port_sets)
{
	struct ibfs_diag d;
	struct ibfs_topology *t = ibfs__topo_new("ps");
	int s = ibfs__topo_add_node(t, "sw", IBFS_NODE_SWITCH, 4, 0, &d);
	int h = ibfs__topo_add_node(t, "h", IBFS_NODE_HCA, 2, 0, &d);
	ck_assert_int_ge(s, 0);
	ck_assert_int_ge(h, 0);
	struct ibfs_port_set ps;
	char err[160];

	ck_assert_int_eq(ibfs__port_set_parse(&ps, t, "sw:3,h", err,
					      sizeof(err)), 0);
	for (int p = 1; p <= 4; p++)
		ck_assert_int_eq(ibfs__port_set_has(&ps, s, p), p == 3);
	ck_assert_int_eq(ibfs__port_set_has(&ps, h, 1), 1);
	ck_assert_int_eq(ibfs__port_set_has(&ps, h, 2), 1);
	ibfs__port_set_free(&ps);
	ck_assert_int_eq(ibfs__port_set_parse(&ps, t, "all", err,
					      sizeof(err)), 0);
	ck_assert_int_eq(ibfs__port_set_has(&ps, s, 4), 1);
	ibfs__port_set_free(&ps);
	static const struct { const char *list, *err; } bad[] = {
		{"sw,x", "no node 'x' in the fabric"},
		{"sw:5", "'sw:5': 'sw' has ports 1 to 4"},
		{"sw:0", "'sw:0': 'sw' has ports 1 to 4"},
		{"sw:2x", "'sw:2x': 'sw' has ports 1 to 4"},
		{":1", "':1' is not NODE or NODE:PORT"},
		{"sw,", "'' is not NODE or NODE:PORT"},
		{"", "'' is not NODE or NODE:PORT"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(ibfs__port_set_parse(&ps, t, bad[i].list, err,
						      sizeof(err)), -1);
		ck_assert_str_eq(err, bad[i].err);
		ck_assert_ptr_null(ps.in);
	}
	ibfs__topo_free(t);
}
END_TEST

START_TEST(abort_leaves_no_file)
{
	char path[] = "/tmp/ibfs_capXXXXXX";
	int fd = mkstemp(path);
	close(fd);
	unlink(path);
	struct ibfs_topology *t = pair();
	struct ibfs_fabric *f = ibfs__fabric_new(t, 1, 1);
	struct ibfs_capture *c = ibfs__capture_open(f, path, NULL);
	ck_assert_ptr_nonnull(c);
	ibfs__capture_abort(c);
	ck_assert_int_ne(access(path, F_OK), 0);
	char part[64];
	snprintf(part, sizeof(part), "%s.part", path);
	ck_assert_int_ne(access(part, F_OK), 0);
	ck_assert_ptr_null(f->observers);
	ibfs__fabric_free(f);
	ibfs__topo_free(t);
}
END_TEST

static Suite *capture_suite(void)
{
	Suite *s = suite_create("capture");
	TCase *tc = tcase_create("pcap_erf");
	tcase_add_test(tc, stream_is_captured_exactly);
	tcase_add_test(tc, unwritable_path_fails_cleanly);
	tcase_add_test(tc, abort_leaves_no_file);
	tcase_add_test(tc, port_sets);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(capture_suite)
