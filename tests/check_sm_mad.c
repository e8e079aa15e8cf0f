/* SPDX-License-Identifier: MIT */
/*
 * SMPs byte for byte (IBA 13.4.2, 14.2.1.2 and the attribute layouts of
 * 14.2.5), the directed-route steps of IBA 14.2.2 along a path through two
 * switches and their discard cases, and the HCA's management hook sending
 * VL15 ahead of data. The agents' answers are check_sma.c's.
 */
#include "check_common.h"

#include <stdio.h>
#include <string.h>

#include "hca/hca_int.h"
#include "hca/mgmt.h"
#include "hca/pair.h"
#include "subnet_manager/mad.h"
#include "subnet_manager/sma.h"
#include "switch/switch.h"

#include "smp_sample.h"

START_TEST(test_encode_dr)
{
	struct ibfs_smp s = smp_sample(), t;
	uint8_t m[256];

	ibfs__smp_encode(&s, m);
	const uint8_t head[36] = {
		1, 0x81, 1, 0x02, 0x92, 0x34, 2, 3,
		1, 2, 3, 4, 5, 6, 7, 8,
		0x00, 0x15, 0, 0, 0xa1, 0xb2, 0xc3, 0xd4,
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		0xff, 0xff, 0xff, 0xfe,
	};
	ck_assert_mem_eq(m, head, sizeof(head));
	for (int i = 36; i < 64; i++)
		ck_assert_uint_eq(m[i], 0);
	for (int i = 0; i < 64; i++) {
		ck_assert_uint_eq(m[64 + i], i + 1);
		ck_assert_uint_eq(m[128 + i], 100 + i);
		ck_assert_uint_eq(m[192 + i], 200 - i);
	}
	ck_assert_int_eq(ibfs__smp_decode(m, &t), 0);
	ck_assert_mem_eq(&s, &t, sizeof(s));
}
END_TEST

START_TEST(test_encode_lid_routed)
{
	struct ibfs_smp s = smp_sample(), t;
	uint8_t m[256];

	s.mgmt_class = IBFS_MCLASS_SUBN_LID;
	ibfs__smp_encode(&s, m);
	/* No D bit, no hop fields, nothing in 32-63 nor the paths. */
	ck_assert_uint_eq(m[1], 0x01);
	ck_assert_uint_eq(m[4], 0x12);
	ck_assert_uint_eq(m[5], 0x34);
	ck_assert_uint_eq(m[6], 0);
	ck_assert_uint_eq(m[7], 0);
	for (int i = 32; i < 64; i++)
		ck_assert_uint_eq(m[i], 0);
	for (int i = 128; i < 256; i++)
		ck_assert_uint_eq(m[i], 0);
	ck_assert_int_eq(ibfs__smp_decode(m, &t), 0);
	ck_assert_uint_eq(t.dir, 0);
	ck_assert_uint_eq(t.hop_cnt, 0);
	ck_assert_uint_eq(t.tid, s.tid);
	ck_assert_mem_eq(t.data, s.data, 64);
}
END_TEST

START_TEST(test_decode_errors)
{
	struct ibfs_smp s = smp_sample(), t;
	uint8_t m[256];

	ibfs__smp_encode(&s, m);
	m[0] = 2; /* BaseVersion */
	ck_assert_int_eq(ibfs__smp_decode(m, &t), -1);
	ibfs__smp_encode(&s, m);
	m[1] = 0x04; /* performance management class */
	ck_assert_int_eq(ibfs__smp_decode(m, &t), -1);
	ibfs__smp_encode(&s, m);
	m[2] = 2; /* ClassVersion */
	ck_assert_int_eq(ibfs__smp_decode(m, &t), -1);
	ibfs__smp_encode(&s, m);
	m[7] = 64; /* more hops than the path holds */
	ck_assert_int_eq(ibfs__smp_decode(m, &t), -1);
	m[7] = 63;
	ck_assert_int_eq(ibfs__smp_decode(m, &t), 0);
}
END_TEST

/* Every field of PortInfo that this model decodes, equal. */
static void port_info_eq(const struct ibfs_smp_port_info *a,
			 const struct ibfs_smp_port_info *b)
{
#define PI_EQ(f) ck_assert_uint_eq(a->f, b->f)
	PI_EQ(gid_prefix); PI_EQ(lid); PI_EQ(sm_lid); PI_EQ(cap_mask);
	PI_EQ(local_port); PI_EQ(width_enabled); PI_EQ(width_supported);
	PI_EQ(width_active); PI_EQ(speed_supported); PI_EQ(speed_active);
	PI_EQ(speed_enabled); PI_EQ(speed_ext_supported);
	PI_EQ(speed_ext_active); PI_EQ(speed_ext_enabled);
	PI_EQ(neighbor_mtu); PI_EQ(mtu_cap); PI_EQ(subnet_timeout);
	PI_EQ(state); PI_EQ(phys_state); PI_EQ(lmc); PI_EQ(vl_cap);
	PI_EQ(op_vls); PI_EQ(vl_high_limit); PI_EQ(vlarb_high_cap);
	PI_EQ(vlarb_low_cap); PI_EQ(part_enf); PI_EQ(pkey_violations);
#undef PI_EQ
}

START_TEST(test_attributes)
{
	uint8_t d[64];
	struct ibfs_smp_node_info ni = {
		.node_type = 2, .nports = 36, .sys_guid = 0x0a0b0c0d0e0f1011,
		.node_guid = 0x2000000000000201, .port_guid = 0x33,
		.partition_cap = 8, .device_id = 0xcafe, .revision = 0xa0,
		.local_port = 17, .vendor_id = 0x0002c9,
	}, n2;

	ibfs__smp_put_node_info(d, &ni);
	const uint8_t want[40] = {
		1, 1, 2, 36, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11,
		0x20, 0, 0, 0, 0, 0, 0x02, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x33,
		0, 8, 0xca, 0xfe, 0, 0, 0, 0xa0, 17, 0x00, 0x02, 0xc9,
	};
	ck_assert_mem_eq(d, want, 40);
	memset(&n2, 0, sizeof(n2));
	ibfs__smp_get_node_info(d, &n2);
	ck_assert_uint_eq(n2.node_type, ni.node_type);
	ck_assert_uint_eq(n2.nports, ni.nports);
	ck_assert_uint_eq(n2.sys_guid, ni.sys_guid);
	ck_assert_uint_eq(n2.node_guid, ni.node_guid);
	ck_assert_uint_eq(n2.port_guid, ni.port_guid);
	ck_assert_uint_eq(n2.partition_cap, ni.partition_cap);
	ck_assert_uint_eq(n2.device_id, ni.device_id);
	ck_assert_uint_eq(n2.revision, ni.revision);
	ck_assert_uint_eq(n2.local_port, ni.local_port);
	ck_assert_uint_eq(n2.vendor_id, ni.vendor_id);

	struct ibfs_smp_port_info pi = {
		.lid = 0x0123, .sm_lid = 0x0045, .local_port = 3,
		.width_active = 2, .state = IBFS_PORT_ARMED,
		.phys_state = IBFS_PHYS_LINKUP, .lmc = 5, .vl_cap = 4,
		.op_vls = 3, .vlarb_high_cap = 64, .vlarb_low_cap = 32,
	}, p2;
	ibfs__smp_put_port_info(d, &pi);
	ck_assert_uint_eq(d[16], 0x01);
	ck_assert_uint_eq(d[17], 0x23);
	ck_assert_uint_eq(d[19], 0x45);
	ck_assert_uint_eq(d[28], 3);
	ck_assert_uint_eq(d[31], 2);
	ck_assert_uint_eq(d[32], 0x03);
	ck_assert_uint_eq(d[33], 0x50);
	ck_assert_uint_eq(d[34], 5);
	ck_assert_uint_eq(d[37], 0x40);
	ck_assert_uint_eq(d[39], 64);
	ck_assert_uint_eq(d[40], 32);
	ck_assert_uint_eq(d[43], 0x30);
	memset(&p2, 0xee, sizeof(p2));
	ibfs__smp_get_port_info(d, &p2);
	port_info_eq(&p2, &pi);

	/* MTU codes: the largest MTU not above the bytes given. */
	ck_assert_uint_eq(ibfs__mad_mtu_code(256), 1);
	ck_assert_uint_eq(ibfs__mad_mtu_code(1000), 2);
	ck_assert_uint_eq(ibfs__mad_mtu_code(1024), 3);
	ck_assert_uint_eq(ibfs__mad_mtu_code(2048), 4);
	ck_assert_uint_eq(ibfs__mad_mtu_code(4096), 5);
	ck_assert_uint_eq(ibfs__mad_mtu_code(65536), 5);

	/* The link, capability and timeout fields (OpenSM's
	 * ib_port_info_t, libibmad's IB_PORT_*_F bit offsets). */
	struct ibfs_smp_port_info px = {
		.gid_prefix = 0xfe80000000000001ull, .cap_mask = 0x00004042,
		.width_enabled = 0x0b, .width_supported = 0x0b,
		.width_active = 8, .speed_supported = 7, .state = 4,
		.speed_active = 4, .speed_enabled = 5, .neighbor_mtu = 4,
		.mtu_cap = 5, .vl_cap = 4, .subnet_timeout = 18,
		.speed_ext_active = 2, .speed_ext_supported = 3,
		.speed_ext_enabled = 0x1f,
	}, p3;
	ibfs__smp_put_port_info(d, &px);
	const uint8_t prefix[8] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 1 };
	const uint8_t cap[4] = { 0, 0, 0x40, 0x42 };
	ck_assert_mem_eq(d + 8, prefix, 8);
	ck_assert_mem_eq(d + 20, cap, 4);
	ck_assert_uint_eq(d[29], 0x0b);
	ck_assert_uint_eq(d[30], 0x0b);
	ck_assert_uint_eq(d[31], 0x08);
	ck_assert_uint_eq(d[32], 0x74);
	ck_assert_uint_eq(d[35], 0x45);
	ck_assert_uint_eq(d[36], 0x40);
	ck_assert_uint_eq(d[37], 0x40);
	ck_assert_uint_eq(d[41], 0x05);
	ck_assert_uint_eq(d[51], 0x12);
	ck_assert_uint_eq(d[62], 0x23);
	ck_assert_uint_eq(d[63], 0x1f);
	memset(&p3, 0xee, sizeof(p3));
	ibfs__smp_get_port_info(d, &p3);
	port_info_eq(&p3, &px);

	struct ibfs_smp_switch_info w = { 0xc000, 0x200, 0x0123, 1, 0x20,
					  0xc005 }, w2;
	ibfs__smp_put_switch_info(d, &w);
	const uint8_t sw[16] = { 0xc0, 0, 0, 0, 0x02, 0, 0x01, 0x23,
				 0, 0, 0, 0x04, 0, 0, 0, 0x20 };
	ck_assert_mem_eq(d, sw, 16);
	/* MulticastFDBTop: bytes 18-19 (IBA 14.2.5.4, table 145). */
	ck_assert_uint_eq(d[18] << 8 | d[19], 0xc005);
	ibfs__smp_get_switch_info(d, &w2);
	ck_assert_uint_eq(w2.lft_cap, w.lft_cap);
	ck_assert_uint_eq(w2.mft_cap, w.mft_cap);
	ck_assert_uint_eq(w2.lft_top, w.lft_top);
	ck_assert_uint_eq(w2.port_state_change, 1);
	ck_assert_uint_eq(w2.enforce_cap, 0x20);
	ck_assert_uint_eq(w2.mft_top, 0xc005);

	uint8_t vls[16], back[16];
	for (int i = 0; i < 16; i++)
		vls[i] = (uint8_t)(15 - i);
	ibfs__smp_put_sl2vl(d, vls);
	ck_assert_uint_eq(d[0], 0xfe);
	ck_assert_uint_eq(d[7], 0x10);
	ibfs__smp_get_sl2vl(d, back);
	ck_assert_mem_eq(back, vls, 16);

	uint8_t vl[32], wt[32], vl2[32], wt2[32];
	for (int i = 0; i < 32; i++) {
		vl[i] = (uint8_t)(i % 15);
		wt[i] = (uint8_t)(255 - i);
	}
	ibfs__smp_put_vlarb(d, vl, wt);
	ck_assert_uint_eq(d[2], 1);
	ck_assert_uint_eq(d[3], 254);
	ibfs__smp_get_vlarb(d, vl2, wt2);
	ck_assert_mem_eq(vl2, vl, 32);
	ck_assert_mem_eq(wt2, wt, 32);
}
END_TEST

/*
 * SM (CA, port 1) -> switch X (in 4, out 7) -> switch Y (in 2, out 9) ->
 * CA (in 1): InitialPath = [1, 7, 9], hop count 3.
 */
START_TEST(test_dr_walk)
{
	struct ibfs_smp s;
	int port = -1;

	memset(&s, 0, sizeof(s));
	s.mgmt_class = IBFS_MCLASS_SUBN_DR;
	s.hop_cnt = 3;
	s.initial_path[1] = 1;
	s.initial_path[2] = 7;
	s.initial_path[3] = 9;
	ck_assert_int_eq(ibfs__smp_dr_send(&s, &port), IBFS_DR_SEND);
	ck_assert_int_eq(port, 1);
	ck_assert_uint_eq(s.hop_ptr, 1);
	/* A second send of the same SMP is not an originator's. */
	struct ibfs_smp again = s;
	ck_assert_int_eq(ibfs__smp_dr_send(&again, &port), IBFS_DR_DISCARD);

	ck_assert_int_eq(ibfs__smp_dr_recv(&s, 4, 36, 1, &port), IBFS_DR_SEND);
	ck_assert_int_eq(port, 7);
	ck_assert_uint_eq(s.hop_ptr, 2);
	ck_assert_uint_eq(s.return_path[1], 4);
	ck_assert_int_eq(ibfs__smp_dr_recv(&s, 2, 36, 1, &port), IBFS_DR_SEND);
	ck_assert_int_eq(port, 9);
	ck_assert_uint_eq(s.return_path[2], 2);
	ck_assert_int_eq(ibfs__smp_dr_recv(&s, 1, 1, 0, &port),
			 IBFS_DR_LOCAL);
	ck_assert_uint_eq(s.hop_ptr, 4);
	ck_assert_uint_eq(s.return_path[3], 1);

	ibfs__smp_make_resp(&s, 0);
	ck_assert_uint_eq(s.method, IBFS_SMP_GETRESP);
	ck_assert_uint_eq(s.dir, 1);
	ck_assert_int_eq(ibfs__smp_dr_send(&s, &port), IBFS_DR_SEND);
	ck_assert_int_eq(port, 1);
	ck_assert_uint_eq(s.hop_ptr, 3);
	/* Y got it on 9, sends back on 2; X got it on 7, back on 4. */
	ck_assert_int_eq(ibfs__smp_dr_recv(&s, 9, 36, 1, &port), IBFS_DR_SEND);
	ck_assert_int_eq(port, 2);
	ck_assert_int_eq(ibfs__smp_dr_recv(&s, 7, 36, 1, &port), IBFS_DR_SEND);
	ck_assert_int_eq(port, 4);
	ck_assert_uint_eq(s.hop_ptr, 1);
	ck_assert_int_eq(ibfs__smp_dr_recv(&s, 1, 1, 0, &port),
			 IBFS_DR_LOCAL);
	ck_assert_uint_eq(s.hop_ptr, 0);
}
END_TEST

START_TEST(test_dr_discards)
{
	struct ibfs_smp s;
	int port;

	memset(&s, 0, sizeof(s));
	s.hop_cnt = 3;
	s.hop_ptr = 1;
	s.initial_path[2] = 7;
	/* Only switches relay. */
	ck_assert_int_eq(ibfs__smp_dr_recv(&s, 4, 36, 0, &port),
			 IBFS_DR_DISCARD);
	/* A next port the node does not have, or the input port. */
	s.hop_ptr = 1;
	ck_assert_int_eq(ibfs__smp_dr_recv(&s, 4, 6, 1, &port),
			 IBFS_DR_DISCARD);
	s.hop_ptr = 1;
	ck_assert_int_eq(ibfs__smp_dr_recv(&s, 7, 36, 1, &port),
			 IBFS_DR_DISCARD);
	/* Hop pointer 0 outbound: the sender did not advance it. */
	s.hop_ptr = 0;
	ck_assert_int_eq(ibfs__smp_dr_recv(&s, 4, 36, 1, &port),
			 IBFS_DR_DISCARD);
	/* Past the end. */
	s.hop_ptr = 5;
	ck_assert_int_eq(ibfs__smp_dr_recv(&s, 4, 36, 1, &port),
			 IBFS_DR_DISCARD);
	/* Returning at a CA in the middle. */
	s.dir = 1;
	s.hop_ptr = 3;
	ck_assert_int_eq(ibfs__smp_dr_recv(&s, 4, 1, 0, &port),
			 IBFS_DR_DISCARD);
	/* Returning with hop pointer 0: nobody's. */
	s.hop_ptr = 0;
	ck_assert_int_eq(ibfs__smp_dr_recv(&s, 4, 36, 1, &port),
			 IBFS_DR_DISCARD);
	/* A response whose hop pointer is not HopCount + 1 at the sender. */
	s.hop_ptr = 2;
	ck_assert_int_eq(ibfs__smp_dr_send(&s, &port), IBFS_DR_DISCARD);
	/* Zero hops: both ways stay on the node. */
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(ibfs__smp_dr_send(&s, &port), IBFS_DR_LOCAL);
	s.dir = 1;
	ck_assert_int_eq(ibfs__smp_dr_send(&s, &port), IBFS_DR_LOCAL);
}
END_TEST

/*
 * VL15 ahead of data on an HCA port: h0 starts an RC WRITE of three 4 KiB
 * packets at 0; at 1 ns an SMP is queued. It leaves when the first data
 * packet ends, ser(8 + 12 + 16 + 4096 + 4 + 2 = 4138 B) = 331,040 ps, and
 * h1 takes it at its tail: + 10 ns + ser(290) = 364,240 ps, before the
 * second data packet (which would otherwise end at 662,080 ps).
 */
static ibfs_time_t mgmt_at;
static int mgmt_n;

static void mgmt_rx(void *ctx, struct ibfs_hca *h, int port,
		    struct ibfs_packet *p)
{
	(void)h;
	(void)port;
	mgmt_at = ((struct ibfs_fabric *)ctx)->eq.now;
	mgmt_n++;
	ibfs__packet_free(ctx, p);
}

static void mgmt_send_ev(void *obj, uint64_t arg)
{
	struct ibfs_hca *h = obj;
	struct ibfs_smp s = smp_sample();

	(void)arg;
	ck_assert_int_eq(ibfs__hca_mgmt_send(h, 1,
					     ibfs__smp_packet(h->dev.fab, &s,
							      1, 2)), 0);
}

START_TEST(test_hca_vl15_first)
{
	struct ibfs_hca_pair x;
	struct ibfs_hca_end a, b;
	struct ibfs_diag d;
	struct ibfs_hca_pair_cfg cfg = { .profile = "ideal" };
	struct ibfs_qp_cap cap = { .max_send_wr = 8, .max_recv_wr = 8,
				   .max_send_sge = 1, .max_recv_sge = 1 };
	struct ibfs_hca_conn c = { .mtu = IBFS_MTU_4096, .timeout = 14,
				   .retry_cnt = 7, .rnr_retry = 7,
				   .rd_atomic = 4 };

	ck_assert_int_eq(ibfs__hca_pair_new(&x, &cfg, &d), 0);
	ck_assert_int_eq(ibfs__hca_end_open(&a, x.h[0], IBFS_QPT_RC, 16384,
					    &cap, 16), 0);
	ck_assert_int_eq(ibfs__hca_end_open(&b, x.h[1], IBFS_QPT_RC, 16384,
					    &cap, 16), 0);
	ck_assert_int_eq(ibfs__hca_end_connect(&a, 2, b.qp->qp_num, &c), 0);
	ck_assert_int_eq(ibfs__hca_end_connect(&b, 1, a.qp->qp_num, &c), 0);
	ck_assert_int_eq(ibfs__hca_mgmt_attach(x.h[0], mgmt_rx, x.f), 0);
	ck_assert_int_eq(ibfs__hca_mgmt_attach(x.h[1], mgmt_rx, x.f), 0);
	/* Bad port. */
	ck_assert_int_eq(ibfs__hca_mgmt_send(x.h[0], 2, NULL), -1);

	struct ibfs_sge sg = { (uint64_t)(uintptr_t)a.buf, 12288, a.mr->lkey };
	struct ibfs_send_wr wr = { .wr_id = 1, .sg_list = &sg, .num_sge = 1,
				   .opcode = IBFS_WR_RDMA_WRITE,
				   .send_flags = IBFS_SEND_SIGNALED };
	struct ibfs_send_wr *bad = NULL;

	wr.wr.rdma.remote_addr = (uint64_t)(uintptr_t)b.buf;
	wr.wr.rdma.rkey = b.mr->rkey;
	ibfs__eq_schedule(&x.f->eq, 1000, mgmt_send_ev, x.h[0], 0);
	ck_assert_int_eq(ibfs_post_send(a.qp, &wr, &bad), 0);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_int_eq(mgmt_n, 1);
	ck_assert_uint_eq(mgmt_at, 4138 * 80 + 10000 + 290 * 80);
	ck_assert_uint_eq(mgmt_at, 364240);
	struct ibfs_wc wc;
	ck_assert_int_eq(ibfs_poll_cq(a.scq, 1, &wc), 1);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ibfs__hca_end_close(&a);
	ibfs__hca_end_close(&b);
	ibfs__hca_pair_free(&x);
}
END_TEST

static Suite *sm_mad_suite(void)
{
	Suite *s = suite_create("sm_mad");
	TCase *tc = tcase_create("smp");

	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, test_encode_dr);
	tcase_add_test(tc, test_encode_lid_routed);
	tcase_add_test(tc, test_decode_errors);
	tcase_add_test(tc, test_attributes);
	tcase_add_test(tc, test_dr_walk);
	tcase_add_test(tc, test_dr_discards);
	tcase_add_test(tc, test_hca_vl15_first);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(sm_mad_suite)
