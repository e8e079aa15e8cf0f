/* SPDX-License-Identifier: MIT */
/*
 * SMPs byte for byte (IBA 13.4.2, 14.2.1.2 and the attribute layouts of
 * 14.2.5), the directed-route steps of IBA 14.2.2 along a path through two
 * switches and their discard cases, the agents' error statuses, and the
 * HCA's management hook sending VL15 ahead of data.
 */
#include "check_common.h"

#include <stdio.h>
#include <string.h>

#include "fabric/pkey.h"
#include "hca/pair.h"
#include "subnet_manager/mad.h"
#include "subnet_manager/sma.h"
#include "switch/switch.h"

static struct ibfs_smp sample(void)
{
	struct ibfs_smp s;

	memset(&s, 0, sizeof(s));
	s.mgmt_class = IBFS_MCLASS_SUBN_DR;
	s.method = IBFS_SMP_SET;
	s.status = 0x1234;
	s.dir = 1;
	s.hop_ptr = 2;
	s.hop_cnt = 3;
	s.tid = 0x0102030405060708ULL;
	s.attr_id = IBFS_SMP_ATTR_PORT_INFO;
	s.attr_mod = 0xa1b2c3d4;
	s.mkey = 0x1122334455667788ULL;
	s.dr_slid = 0xffff;
	s.dr_dlid = 0xfffe;
	for (int i = 0; i < 64; i++) {
		s.data[i] = (uint8_t)(i + 1);
		s.initial_path[i] = (uint8_t)(100 + i);
		s.return_path[i] = (uint8_t)(200 - i);
	}
	return s;
}

START_TEST(test_encode_dr)
{
	struct ibfs_smp s = sample(), t;
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
	struct ibfs_smp s = sample(), t;
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
	struct ibfs_smp s = sample(), t;
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
	memset(&p2, 0, sizeof(p2));
	ibfs__smp_get_port_info(d, &p2);
	ck_assert_uint_eq(p2.lid, pi.lid);
	ck_assert_uint_eq(p2.sm_lid, pi.sm_lid);
	ck_assert_uint_eq(p2.local_port, pi.local_port);
	ck_assert_uint_eq(p2.width_active, pi.width_active);
	ck_assert_uint_eq(p2.state, pi.state);
	ck_assert_uint_eq(p2.phys_state, pi.phys_state);
	ck_assert_uint_eq(p2.lmc, pi.lmc);
	ck_assert_uint_eq(p2.vl_cap, pi.vl_cap);
	ck_assert_uint_eq(p2.op_vls, pi.op_vls);
	ck_assert_uint_eq(p2.vlarb_high_cap, pi.vlarb_high_cap);
	ck_assert_uint_eq(p2.vlarb_low_cap, pi.vlarb_low_cap);

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

/* The agents of a star of one 4-port switch and two HCAs. */
struct star {
	struct ibfs_topology *t;
	struct ibfs_fabric *f;
	struct ibfs_switch *sw;
	struct ibfs_hca *h[2];
	struct ibfs_direct_exec dx;
	struct ibfs_sma *a;
	struct ibfs_smp resp[16];
	int nresp;
};

static void on_resp(void *ctx, const struct ibfs_smp *s)
{
	struct star *x = ctx;

	ck_assert_int_lt(x->nresp, 16);
	x->resp[x->nresp++] = *s;
}

static void star_make(struct star *x)
{
	struct ibfs_diag d;

	memset(x, 0, sizeof(*x));
	x->t = ibfs__topo_new("star");
	int s = ibfs__topo_add_node(x->t, "sw", IBFS_NODE_SWITCH, 4, 0, &d);
	for (int i = 0; i < 2; i++) {
		char id[8];

		snprintf(id, sizeof(id), "h%d", i);
		int h = ibfs__topo_add_node(x->t, id, IBFS_NODE_HCA, 1, 0, &d);
		ibfs__topo_add_link(x->t, h, 1, s, i + 1, IBFS_SPEED_EDR, 4,
				    2000, 0, &d);
	}
	ibfs__topo_assign_guids(x->t, IBFS_TOPO_SWITCH_GUID_BASE,
				IBFS_TOPO_CA_GUID_BASE);
	x->f = ibfs__fabric_new(x->t, 1, 0);
	x->sw = ibfs__switch_create(x->f, 0, &d);
	struct ibfs_exec ex = ibfs__direct_exec(&x->dx, &x->f->eq);

	for (int i = 0; i < 2; i++)
		x->h[i] = ibfs__hca_create(x->f, i + 1, "ideal", ex, &d);
	x->a = ibfs__sma_new(x->f, &d);
	ck_assert_ptr_nonnull(x->a);
	ibfs__sma_set_sm(x->a, 1, 1, on_resp, x);
}

static void star_free(struct star *x)
{
	ibfs__sma_free(x->a);
	ibfs__hca_free(x->h[0]);
	ibfs__hca_free(x->h[1]);
	ibfs__switch_destroy(x->sw);
	ibfs__fabric_free(x->f);
	ibfs__topo_free(x->t);
}

/* An SMP from the SM on h0 (node 1) to the switch (1 hop) or h1 (2). */
static uint16_t ask(struct star *x, int hops, uint8_t method,
		    uint16_t attr, uint32_t mod, const uint8_t *data)
{
	struct ibfs_smp s;

	memset(&s, 0, sizeof(s));
	s.mgmt_class = IBFS_MCLASS_SUBN_DR;
	s.method = method;
	s.attr_id = attr;
	s.attr_mod = mod;
	s.tid = (uint64_t)x->nresp + 1000;
	s.hop_cnt = (uint8_t)hops;
	s.initial_path[1] = 1;
	s.initial_path[2] = 2;
	if (data)
		memcpy(s.data, data, 64);
	int before = x->nresp;

	ck_assert_int_eq(ibfs__sma_send(x->a, 1, &s), 0);
	ibfs__eq_run(&x->f->eq, IBFS_TIME_NEVER);
	ck_assert_int_eq(x->nresp, before + 1);
	ck_assert_uint_eq(x->resp[before].tid, s.tid);
	ck_assert_uint_eq(x->resp[before].method, IBFS_SMP_GETRESP);
	return x->resp[before].status;
}

START_TEST(test_agent_statuses)
{
	struct star x;
	uint8_t d[64] = { 0 };
	struct ibfs_smp_port_info pi = { .state = IBFS_PORT_ACTIVE };

	star_make(&x);
	ck_assert_uint_eq(ask(&x, 1, IBFS_SMP_GET, IBFS_SMP_ATTR_NODE_INFO, 0,
			      NULL), IBFS_MAD_STATUS_OK);
	struct ibfs_smp_node_info ni;
	ibfs__smp_get_node_info(x.resp[0].data, &ni);
	ck_assert_uint_eq(ni.node_type, IBFS_NODE_SWITCH);
	ck_assert_uint_eq(ni.nports, 4);
	ck_assert_uint_eq(ni.node_guid, IBFS_TOPO_SWITCH_GUID_BASE);
	ck_assert_uint_eq(ni.local_port, 1);

	ck_assert_uint_eq(ask(&x, 1, 0x03, IBFS_SMP_ATTR_NODE_INFO, 0, NULL),
			  IBFS_MAD_STATUS_BAD_METHOD);
	ck_assert_uint_eq(ask(&x, 1, IBFS_SMP_SET, IBFS_SMP_ATTR_NODE_INFO, 0,
			      d), IBFS_MAD_STATUS_BAD_ATTR);
	ck_assert_uint_eq(ask(&x, 1, IBFS_SMP_GET, 0x00ee, 0, NULL),
			  IBFS_MAD_STATUS_BAD_ATTR);
	ck_assert_uint_eq(ask(&x, 1, IBFS_SMP_GET, IBFS_SMP_ATTR_PORT_INFO, 5,
			      NULL), IBFS_MAD_STATUS_BAD_FIELD);
	/* Active straight from Init is not a legal transition. */
	ibfs__smp_put_port_info(d, &pi);
	ck_assert_uint_eq(ask(&x, 1, IBFS_SMP_SET, IBFS_SMP_ATTR_PORT_INFO, 2,
			      d), IBFS_MAD_STATUS_BAD_FIELD);
	ck_assert_uint_eq(ask(&x, 1, IBFS_SMP_GET, IBFS_SMP_ATTR_LFT, 768,
			      NULL), IBFS_MAD_STATUS_BAD_FIELD);
	ck_assert_uint_eq(ask(&x, 1, IBFS_SMP_GET, IBFS_SMP_ATTR_VLARB,
			      1u << 16 | 5, NULL), IBFS_MAD_STATUS_BAD_FIELD);
	/* A port beyond the switch's in an LFT block is refused. */
	memset(d, 255, 64);
	d[5] = 9;
	ck_assert_uint_eq(ask(&x, 1, IBFS_SMP_SET, IBFS_SMP_ATTR_LFT, 1, d),
			  IBFS_MAD_STATUS_BAD_FIELD);
	/* A good block is set, and read back by Get. */
	d[5] = 2;
	ck_assert_uint_eq(ask(&x, 1, IBFS_SMP_SET, IBFS_SMP_ATTR_LFT, 1, d),
			  IBFS_MAD_STATUS_OK);
	ck_assert_uint_eq(ibfs__switch_get_lft(x.sw, 69), 2);
	ck_assert_uint_eq(ask(&x, 1, IBFS_SMP_GET, IBFS_SMP_ATTR_LFT, 1, NULL),
			  IBFS_MAD_STATUS_OK);
	ck_assert_mem_eq(x.resp[x.nresp - 1].data, d, 64);
	/* Switch-only attributes at an HCA. */
	ck_assert_uint_eq(ask(&x, 2, IBFS_SMP_GET, IBFS_SMP_ATTR_SWITCH_INFO,
			      0, NULL), IBFS_MAD_STATUS_BAD_ATTR);
	ck_assert_uint_eq(ask(&x, 2, IBFS_SMP_GET, IBFS_SMP_ATTR_LFT, 0,
			      NULL), IBFS_MAD_STATUS_BAD_ATTR);
	/* An HCA has no port 2; its NodeDescription is its id. */
	ck_assert_uint_eq(ask(&x, 2, IBFS_SMP_GET, IBFS_SMP_ATTR_PORT_INFO, 2,
			      NULL), IBFS_MAD_STATUS_BAD_FIELD);
	ck_assert_uint_eq(ask(&x, 2, IBFS_SMP_GET, IBFS_SMP_ATTR_NODE_DESC, 0,
			      NULL), IBFS_MAD_STATUS_OK);
	ck_assert_str_eq((const char *)x.resp[x.nresp - 1].data, "h1");

	struct ibfs_sma_stats st;
	ibfs__sma_stats(x.a, &st);
	ck_assert_uint_eq(st.answered, (uint64_t)x.nresp);
	ck_assert_uint_eq(st.errors, 11);
	ck_assert_uint_eq(st.discarded, 0);
	star_free(&x);
}
END_TEST

/*
 * MulticastForwardingTable (IBA 14.2.5.12) at the 4-port switch: the
 * modifier's position (bits 31-28) and block of 32 MLIDs (bits 8-0), the
 * data 32 big-endian 16-bit masks; a Set is read back by Get and by the
 * switch's table; a port beyond 4, a position beyond port 15 and a block
 * beyond 0xFFFF are refused; an HCA has no MFT; SwitchInfo gives its cap
 * (0x3FFF MLIDs) and keeps MulticastFDBTop as set.
 */
START_TEST(test_agent_mft)
{
	struct star x;
	uint8_t d[64] = { 0 };

	star_make(&x);
	/* Block 1 (MLIDs 0xC020-0xC03F): 0xC021 to ports 1 and 2. */
	d[2] = 0x00;
	d[3] = 0x06;
	ck_assert_uint_eq(ask(&x, 1, IBFS_SMP_SET, IBFS_SMP_ATTR_MFT, 1, d),
			  IBFS_MAD_STATUS_OK);
	ck_assert_uint_eq(ibfs__switch_get_mft16(x.sw, 0xC021, 0), 0x0006);
	ck_assert_uint_eq(ibfs__switch_get_mft16(x.sw, 0xC020, 0), 0);
	ck_assert_uint_eq(ask(&x, 1, IBFS_SMP_GET, IBFS_SMP_ATTR_MFT, 1, NULL),
			  IBFS_MAD_STATUS_OK);
	ck_assert_mem_eq(x.resp[x.nresp - 1].data, d, 64);
	/* Port 5 (bit 5) on a 4-port switch: refused, nothing changed. */
	d[3] = 0x26;
	ck_assert_uint_eq(ask(&x, 1, IBFS_SMP_SET, IBFS_SMP_ATTR_MFT, 1, d),
			  IBFS_MAD_STATUS_BAD_FIELD);
	ck_assert_uint_eq(ibfs__switch_get_mft16(x.sw, 0xC021, 0), 0x0006);
	/* Position 1 (ports 16-31) does not exist; nor block 512. */
	ck_assert_uint_eq(ask(&x, 1, IBFS_SMP_GET, IBFS_SMP_ATTR_MFT,
			      1u << 28, NULL), IBFS_MAD_STATUS_BAD_FIELD);
	ck_assert_uint_eq(ask(&x, 1, IBFS_SMP_GET, IBFS_SMP_ATTR_MFT, 512,
			      NULL), IBFS_MAD_STATUS_BAD_FIELD);
	ck_assert_uint_eq(ask(&x, 2, IBFS_SMP_GET, IBFS_SMP_ATTR_MFT, 0,
			      NULL), IBFS_MAD_STATUS_BAD_ATTR);
	/* SwitchInfo: the MFT cap, and MulticastFDBTop as set. */
	struct ibfs_smp_switch_info w = { .mft_top = 0xC021 };

	ibfs__smp_put_switch_info(d, &w);
	ck_assert_uint_eq(ask(&x, 1, IBFS_SMP_SET, IBFS_SMP_ATTR_SWITCH_INFO,
			      0, d), IBFS_MAD_STATUS_OK);
	ibfs__smp_get_switch_info(x.resp[x.nresp - 1].data, &w);
	ck_assert_uint_eq(w.mft_cap, 0x3FFF);
	ck_assert_uint_eq(w.mft_top, 0xC021);
	star_free(&x);
}
END_TEST

/* A path naming a port the switch does not have is dropped there. */
/*
 * An HCA's agent answers VLArb Get and Set for its port (IBA 14.2.5.9;
 * modifier port 0: the port the SMP came in on) and applies PortInfo
 * VLHighLimit, programming the port's VL arbiter as a switch output's.
 */
START_TEST(test_agent_hca_vlarb)
{
	struct star x;
	uint8_t d[64] = { 0 }, vl[32] = { 0 }, w[32] = { 0 };
	struct ibfs_smp_port_info pi = { .vl_high_limit = 9 };

	star_make(&x);
	const struct ibfs_vlarb *a = &x.h[1]->hp[1].arb;

	ck_assert_int_eq(a->nlow, 1);
	ck_assert_int_eq(a->limit, 255);
	w[0] = 64;
	ibfs__smp_put_vlarb(d, vl, w);
	ck_assert_uint_eq(ask(&x, 2, IBFS_SMP_SET, IBFS_SMP_ATTR_VLARB, 3, d),
			  IBFS_MAD_STATUS_OK);
	ck_assert_int_eq(a->nhigh, 1);
	ck_assert_int_eq(a->high[0].weight, 64);
	ck_assert_int_eq(a->nlow, 1);
	ck_assert_uint_eq(ask(&x, 2, IBFS_SMP_GET, IBFS_SMP_ATTR_VLARB,
			      1u << 16 | 3, NULL), IBFS_MAD_STATUS_OK);
	ck_assert_mem_eq(x.resp[x.nresp - 1].data, d, 64);
	/* VL15 is not arbitrated; the HCA has one port. */
	vl[1] = 15;
	w[1] = 1;
	ibfs__smp_put_vlarb(d, vl, w);
	ck_assert_uint_eq(ask(&x, 2, IBFS_SMP_SET, IBFS_SMP_ATTR_VLARB, 1, d),
			  IBFS_MAD_STATUS_BAD_FIELD);
	ck_assert_int_eq(a->nlow, 1);
	ck_assert_uint_eq(ask(&x, 2, IBFS_SMP_GET, IBFS_SMP_ATTR_VLARB,
			      2u << 16 | 1, NULL), IBFS_MAD_STATUS_BAD_FIELD);
	ibfs__smp_put_port_info(d, &pi);
	ck_assert_uint_eq(ask(&x, 2, IBFS_SMP_SET, IBFS_SMP_ATTR_PORT_INFO, 1,
			      d), IBFS_MAD_STATUS_OK);
	ck_assert_int_eq(a->limit, 9);
	ck_assert_int_eq(a->nhigh, 1);
	ibfs__smp_get_port_info(x.resp[x.nresp - 1].data, &pi);
	ck_assert_uint_eq(pi.vl_high_limit, 9);
	ck_assert_uint_eq(pi.vlarb_high_cap, 64);
	star_free(&x);
}
END_TEST

/*
 * The P_Key table (IBA 14.2.5.7) and partition enforcement: PartitionCap
 * is the table's size (a ConnectX's 128; a switch's 32, its
 * PartitionEnforcementCap); Get and Set of 32-entry blocks (a switch's
 * modifier names the port in bits 31-16, an HCA's the block only);
 * PortInfo's enforcement bits (byte 43, bits 3 and 2) set a switch
 * port's enforcement, and P_KeyViolations (bytes 46-47) saturates.
 */
START_TEST(test_agent_pkeys)
{
	struct star x;
	uint8_t d[64];
	uint16_t k[32], got[32];
	struct ibfs_smp_node_info ni;
	struct ibfs_smp_switch_info si;
	struct ibfs_smp_port_info pi = { .part_enf = IBFS_PKEY_ENF_IN |
						     IBFS_PKEY_ENF_OUT };

	star_make(&x);
	ck_assert_uint_eq(ask(&x, 1, IBFS_SMP_GET, IBFS_SMP_ATTR_NODE_INFO, 0,
			      NULL), IBFS_MAD_STATUS_OK);
	ibfs__smp_get_node_info(x.resp[x.nresp - 1].data, &ni);
	ck_assert_uint_eq(ni.partition_cap, 32);
	ck_assert_uint_eq(ask(&x, 1, IBFS_SMP_GET, IBFS_SMP_ATTR_SWITCH_INFO, 0,
			      NULL), IBFS_MAD_STATUS_OK);
	ibfs__smp_get_switch_info(x.resp[x.nresp - 1].data, &si);
	ck_assert_uint_eq(si.enforce_cap, 32);
	ck_assert_uint_eq(x.resp[x.nresp - 1].data[15], 32);
	ck_assert_uint_eq(ask(&x, 2, IBFS_SMP_GET, IBFS_SMP_ATTR_NODE_INFO, 0,
			      NULL), IBFS_MAD_STATUS_OK);
	ibfs__smp_get_node_info(x.resp[x.nresp - 1].data, &ni);
	ck_assert_uint_eq(ni.partition_cap, 128);

	/* Power-up: 0xFFFF at index 0, big endian on the wire. */
	ck_assert_uint_eq(ask(&x, 2, IBFS_SMP_GET, IBFS_SMP_ATTR_PKEY_TABLE, 0,
			      NULL), IBFS_MAD_STATUS_OK);
	memset(d, 0, sizeof(d));
	d[0] = d[1] = 0xff;
	ck_assert_mem_eq(x.resp[x.nresp - 1].data, d, 64);
	for (int i = 0; i < 32; i++)
		k[i] = (uint16_t)(i ? 0x8000 | (i * 3) : 0x1234);
	ibfs__smp_put_pkeys(d, k);
	ck_assert_uint_eq(d[0], 0x12);
	ck_assert_uint_eq(d[1], 0x34);
	ck_assert_uint_eq(ask(&x, 2, IBFS_SMP_SET, IBFS_SMP_ATTR_PKEY_TABLE, 3,
			      d), IBFS_MAD_STATUS_OK);
	for (int i = 0; i < 32; i++)
		ck_assert_uint_eq(ibfs__port_pkey(x.h[1]->hp[1].port,
						  96 + (unsigned)i), k[i]);
	ck_assert_uint_eq(ibfs__port_pkey(x.h[1]->hp[1].port, 0), 0xffff);
	ck_assert_uint_eq(ask(&x, 2, IBFS_SMP_GET, IBFS_SMP_ATTR_PKEY_TABLE, 3,
			      NULL), IBFS_MAD_STATUS_OK);
	ibfs__smp_get_pkeys(x.resp[x.nresp - 1].data, got);
	ck_assert_mem_eq(got, k, sizeof(k));
	/* Past the table, a port field at an HCA, a port the switch lacks. */
	ck_assert_uint_eq(ask(&x, 2, IBFS_SMP_SET, IBFS_SMP_ATTR_PKEY_TABLE, 4,
			      d), IBFS_MAD_STATUS_BAD_FIELD);
	ck_assert_uint_eq(ask(&x, 2, IBFS_SMP_GET, IBFS_SMP_ATTR_PKEY_TABLE,
			      1u << 16, NULL), IBFS_MAD_STATUS_BAD_FIELD);
	ck_assert_uint_eq(ask(&x, 1, IBFS_SMP_GET, IBFS_SMP_ATTR_PKEY_TABLE,
			      5u << 16, NULL), IBFS_MAD_STATUS_BAD_FIELD);
	ck_assert_uint_eq(ask(&x, 1, IBFS_SMP_SET, IBFS_SMP_ATTR_PKEY_TABLE,
			      2u << 16 | 1, d), IBFS_MAD_STATUS_BAD_FIELD);
	/* A switch port's block: port 2 in the modifier's high half. */
	ck_assert_uint_eq(ask(&x, 1, IBFS_SMP_SET, IBFS_SMP_ATTR_PKEY_TABLE,
			      2u << 16, d), IBFS_MAD_STATUS_OK);
	const struct ibfs_port *sp = ibfs__fabric_port(x.f, 0, 2);

	ck_assert_uint_eq(ibfs__port_pkey(sp, 0), 0x1234);
	ck_assert_uint_eq(ibfs__port_pkey(sp, 31), 0x8000 | 93);
	ck_assert_uint_eq(ibfs__port_pkey(ibfs__fabric_port(x.f, 0, 1), 0),
			  0xffff);

	/* Enforcement through PortInfo, and the violations counter. */
	ck_assert_uint_eq(sp->pkey_enf, 0);
	ibfs__smp_put_port_info(d, &pi);
	ck_assert_uint_eq(d[43] & 0x0f, 0x0c);
	ck_assert_uint_eq(ask(&x, 1, IBFS_SMP_SET, IBFS_SMP_ATTR_PORT_INFO, 2,
			      d), IBFS_MAD_STATUS_OK);
	ck_assert_uint_eq(sp->pkey_enf, IBFS_PKEY_ENF_IN | IBFS_PKEY_ENF_OUT);
	ck_assert_uint_eq(x.resp[x.nresp - 1].data[43] & 0x0f, 0x0c);
	pi.part_enf = IBFS_PKEY_ENF_OUT;
	ibfs__smp_put_port_info(d, &pi);
	ck_assert_uint_eq(ask(&x, 1, IBFS_SMP_SET, IBFS_SMP_ATTR_PORT_INFO, 2,
			      d), IBFS_MAD_STATUS_OK);
	ck_assert_uint_eq(sp->pkey_enf, IBFS_PKEY_ENF_OUT);
	x.h[1]->hp[1].port->pkey_violations = 70000;
	ck_assert_uint_eq(ask(&x, 2, IBFS_SMP_GET, IBFS_SMP_ATTR_PORT_INFO, 1,
			      NULL), IBFS_MAD_STATUS_OK);
	ibfs__smp_get_port_info(x.resp[x.nresp - 1].data, &pi);
	ck_assert_uint_eq(pi.pkey_violations, 0xffff);
	ck_assert_uint_eq(pi.part_enf, 0);
	star_free(&x);
}
END_TEST

START_TEST(test_agent_bad_path)
{
	struct star x;
	struct ibfs_smp s;
	struct ibfs_sma_stats st;

	star_make(&x);
	memset(&s, 0, sizeof(s));
	s.mgmt_class = IBFS_MCLASS_SUBN_DR;
	s.method = IBFS_SMP_GET;
	s.attr_id = IBFS_SMP_ATTR_NODE_INFO;
	s.hop_cnt = 2;
	s.initial_path[1] = 1;
	s.initial_path[2] = 9;
	ck_assert_int_eq(ibfs__sma_send(x.a, 1, &s), 0);
	/* The SM's own port must exist too. */
	s.initial_path[1] = 3;
	ck_assert_int_eq(ibfs__sma_send(x.a, 1, &s), -1);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_int_eq(x.nresp, 0);
	ibfs__sma_stats(x.a, &st);
	ck_assert_uint_eq(st.discarded, 1);
	ck_assert_uint_eq(st.answered, 0);
	ck_assert_int_eq(ibfs__sma_port_state(x.a, 0, 3), IBFS_PORT_DOWN);
	ck_assert_int_eq(ibfs__sma_port_state(x.a, 0, 1), IBFS_PORT_INIT);
	ck_assert_int_eq(ibfs__sma_port_state(x.a, 0, 5), -1);
	star_free(&x);
}
END_TEST

START_TEST(test_smp_packet)
{
	struct star x;
	struct ibfs_smp s = sample(), t;

	star_make(&x);
	struct ibfs_packet *p = ibfs__smp_packet(x.f, &s, 0xffff, 0xffff);

	ck_assert_ptr_nonnull(p);
	/* LRH 8 + BTH 12 + DETH 8 + MAD 256 + ICRC 4 + VCRC 2. */
	ck_assert_uint_eq(p->wire_bytes, 290);
	ck_assert_uint_eq(p->blocks, 5);
	ck_assert_uint_eq(p->vl, 15);
	ck_assert_uint_eq(p->kind, IBFS_PKT_MGMT);
	ck_assert_uint_eq(p->dest_qp, 0);
	ck_assert_uint_eq(p->deth.src_qp, 0);
	ck_assert_int_eq(ibfs__smp_decode(p->payload, &t), 0);
	ck_assert_mem_eq(&s, &t, sizeof(s));
	ibfs__packet_free(x.f, p);
	star_free(&x);
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
	struct ibfs_smp s = sample();

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
	tcase_add_test(tc, test_agent_statuses);
	tcase_add_test(tc, test_agent_mft);
	tcase_add_test(tc, test_agent_hca_vlarb);
	tcase_add_test(tc, test_agent_pkeys);
	tcase_add_test(tc, test_agent_bad_path);
	tcase_add_test(tc, test_smp_packet);
	tcase_add_test(tc, test_hca_vl15_first);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(sm_mad_suite)
