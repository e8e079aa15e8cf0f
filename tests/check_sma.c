/* SPDX-License-Identifier: MIT */
/*
 * The subnet management agents (sma.c, sma_attrs.c) of a star of one
 * 4-port switch and two HCAs, asked over directed routes: the statuses of
 * bad requests, the MulticastForwardingTable, an HCA port's VL
 * arbitration tables, the P_KeyTable and partition enforcement, and
 * paths that lead nowhere (IBA 14.2.5, 13.4.7); and an SMP as the packet
 * the fabric carries on VL15.
 */
#include "check_common.h"

#include <stdio.h>
#include <string.h>

#include "fabric/pkey.h"
#include "fabric/rng.h"
#include "hca/hca_int.h"
#include "hca/pair.h"
#include "subnet_manager/mad.h"
#include "subnet_manager/sma.h"
#include "switch/switch.h"

#include "smp_sample.h"

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
			      5u << 16 | 1, NULL), IBFS_MAD_STATUS_BAD_FIELD);
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
	ck_assert_uint_eq(ask(&x, 2, IBFS_SMP_SET, IBFS_SMP_ATTR_VLARB, 3u << 16,
			      d), IBFS_MAD_STATUS_OK);
	ck_assert_int_eq(a->nhigh, 1);
	ck_assert_int_eq(a->high[0].weight, 64);
	ck_assert_int_eq(a->nlow, 1);
	ck_assert_uint_eq(ask(&x, 2, IBFS_SMP_GET, IBFS_SMP_ATTR_VLARB,
			      3u << 16 | 1, NULL), IBFS_MAD_STATUS_OK);
	ck_assert_mem_eq(x.resp[x.nresp - 1].data, d, 64);
	/* VL15 is not arbitrated; the HCA has one port. */
	vl[1] = 15;
	w[1] = 1;
	ibfs__smp_put_vlarb(d, vl, w);
	ck_assert_uint_eq(ask(&x, 2, IBFS_SMP_SET, IBFS_SMP_ATTR_VLARB, 1u << 16,
			      d), IBFS_MAD_STATUS_BAD_FIELD);
	ck_assert_int_eq(a->nlow, 1);
	ck_assert_uint_eq(ask(&x, 2, IBFS_SMP_GET, IBFS_SMP_ATTR_VLARB,
			      1u << 16 | 2, NULL), IBFS_MAD_STATUS_BAD_FIELD);
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

/* The PortInfo an agent answers for `port` of the node `hops` away. */
static struct ibfs_smp_port_info port_info(struct star *x, int hops,
					   uint32_t mod)
{
	struct ibfs_smp_port_info pi;

	ck_assert_uint_eq(ask(x, hops, IBFS_SMP_GET, IBFS_SMP_ATTR_PORT_INFO,
			      mod, NULL), IBFS_MAD_STATUS_OK);
	ibfs__smp_get_port_info(x->resp[x->nresp - 1].data, &pi);
	return pi;
}

/* The status of a PortInfo Set of pi to `port` of the node `hops` away. */
static uint16_t set_port_info(struct star *x, int hops, uint32_t port,
			      const struct ibfs_smp_port_info *pi)
{
	uint8_t d[64];

	ibfs__smp_put_port_info(d, pi);
	return ask(x, hops, IBFS_SMP_SET, IBFS_SMP_ATTR_PORT_INFO, port, d);
}

/*
 * PortInfo's link and capability fields (IBA 14.2.5.6) over the star's
 * 4x EDR links, as sma_attrs.c models them: LinkWidthSupported and
 * Enabled 1x|4x, Active 4x; LinkSpeedSupported and Enabled SDR-QDR,
 * Active QDR, and EDR in the Ext fields (Active 2, Supported and Enabled
 * FDR|EDR), whether or not the modifier has SMSupportExtendedSpeeds (a
 * Set's bit, mad.h); MTUCap and NeighborMTU 4096 (5); the link-local
 * GidPrefix and a CapabilityMask (IsSM on the SM's port) on CA ports and
 * switch port 0 only.
 */
START_TEST(test_agent_port_info_read)
{
	struct star x;
	struct ibfs_smp_port_info pi;
	const uint32_t ext = IBFS_SMP_PI_EXT_SPEEDS;
	const uint32_t caps = IBFS_PORT_CAP_SL_MAP | IBFS_PORT_CAP_EXT_SPEEDS;

	star_make(&x);
	pi = port_info(&x, 2, 1);
	ck_assert_uint_eq(pi.width_supported, 3);
	ck_assert_uint_eq(pi.width_enabled, 3);
	ck_assert_uint_eq(pi.width_active, 2);
	ck_assert_uint_eq(pi.speed_supported, 7);
	ck_assert_uint_eq(pi.speed_enabled, 7);
	ck_assert_uint_eq(pi.speed_active, 4);
	ck_assert_uint_eq(pi.speed_ext_active, 2);
	ck_assert_uint_eq(pi.speed_ext_supported, 3);
	ck_assert_uint_eq(pi.speed_ext_enabled, 3);
	ck_assert_uint_eq(pi.mtu_cap, 5);
	ck_assert_uint_eq(pi.neighbor_mtu, 5);
	ck_assert_uint_eq(pi.vl_cap, 1);
	ck_assert_uint_eq(pi.subnet_timeout, 0);
	ck_assert_uint_eq(pi.gid_prefix, IBFS_GID_PREFIX_LINK_LOCAL);
	ck_assert_uint_eq(pi.cap_mask, caps);
	pi = port_info(&x, 2, ext | 1);
	ck_assert_uint_eq(pi.speed_ext_active, 2);
	ck_assert_uint_eq(pi.speed_ext_supported, 3);
	/* The SM's own port (no hop). */
	pi = port_info(&x, 0, ext | 1);
	ck_assert_uint_eq(pi.cap_mask, caps | IBFS_PORT_CAP_IS_SM);
	/* The switch: port 0 has no link fields, an external port (2) no
	 * prefix or capabilities, a free port (3) no link. */
	static const struct {
		uint32_t port, cap;
		uint64_t prefix;
		uint8_t wsup, wact, ext, mtu_cap;
	} sw[] = {
		{ 0, caps, IBFS_GID_PREFIX_LINK_LOCAL, 0, 0, 0, 0 },
		{ 2, 0, 0, 3, 2, 2, 5 },
		{ 3, 0, 0, 0, 0, 0, 5 },
	};
	for (size_t i = 0; i < sizeof(sw) / sizeof(sw[0]); i++) {
		pi = port_info(&x, 1, ext | sw[i].port);
		ck_assert_uint_eq(pi.cap_mask, sw[i].cap);
		ck_assert_uint_eq(pi.gid_prefix, sw[i].prefix);
		ck_assert_uint_eq(pi.width_supported, sw[i].wsup);
		ck_assert_uint_eq(pi.width_active, sw[i].wact);
		ck_assert_uint_eq(pi.speed_ext_active, sw[i].ext);
		ck_assert_uint_eq(pi.speed_active, sw[i].wact ? 4 : 0);
		ck_assert_uint_eq(pi.mtu_cap, sw[i].mtu_cap);
	}
	/* Bits 30-8 of the modifier are reserved. */
	ck_assert_uint_eq(ask(&x, 1, IBFS_SMP_GET, IBFS_SMP_ATTR_PORT_INFO,
			      0x100 | 2, NULL), IBFS_MAD_STATUS_BAD_FIELD);
	star_free(&x);
}
END_TEST

/*
 * A PortInfo Set stores NeighborMTU, SubnetTimeOut and GidPrefix, and
 * takes LinkSpeedExtEnabled with SMSupportExtendedSpeeds without acting
 * on it; one with a NeighborMTU above MTUCap, or OperationalVLs other
 * than the port's (above VLCap; below it, not modelled), is an invalid
 * field and changes nothing it carries, its LID included.
 */
START_TEST(test_agent_port_info_set)
{
	struct star x;
	struct ibfs_smp_port_info pi = {
		.gid_prefix = 0xfec0000000000001ull, .neighbor_mtu = 3,
		.op_vls = 1, .subnet_timeout = 18, .speed_ext_enabled = 31,
	};

	star_make(&x);
	ck_assert_uint_eq(set_port_info(&x, 2, IBFS_SMP_PI_EXT_SPEEDS | 1, &pi),
			  IBFS_MAD_STATUS_OK);
	pi = port_info(&x, 2, 1);
	ck_assert_uint_eq(pi.speed_ext_enabled, 3);
	ck_assert_uint_eq(pi.neighbor_mtu, 3);
	ck_assert_uint_eq(pi.subnet_timeout, 18);
	ck_assert_uint_eq(pi.gid_prefix, 0xfec0000000000001ull);
	ck_assert_uint_eq(pi.op_vls, 1);

	struct ibfs_smp_port_info bad[3] = {
		{ .lid = 0x55, .neighbor_mtu = 6 },
		{ .lid = 0x55, .op_vls = 2 },
		{ .lid = 0x55, .neighbor_mtu = 4, .op_vls = 15 },
	};
	for (int i = 0; i < 3; i++) {
		ck_assert_uint_eq(set_port_info(&x, 2, 1, &bad[i]),
				  IBFS_MAD_STATUS_BAD_FIELD);
		pi = port_info(&x, 2, 1);
		ck_assert_uint_eq(pi.lid, 0);
		ck_assert_uint_eq(pi.neighbor_mtu, 3);
		ck_assert_uint_eq(pi.subnet_timeout, 18);
	}
	/* A switch's external port takes a NeighborMTU; its prefix and
	 * timeout are port 0's. */
	pi = (struct ibfs_smp_port_info){ .neighbor_mtu = 4,
					  .subnet_timeout = 9 };
	ck_assert_uint_eq(set_port_info(&x, 1, 2, &pi), IBFS_MAD_STATUS_OK);
	pi = port_info(&x, 1, 2);
	ck_assert_uint_eq(pi.neighbor_mtu, 4);
	ck_assert_uint_eq(pi.subnet_timeout, 0);
	pi = port_info(&x, 1, 0);
	ck_assert_uint_eq(pi.subnet_timeout, 0);
	ck_assert_uint_eq(pi.gid_prefix, IBFS_GID_PREFIX_LINK_LOCAL);
	star_free(&x);
}
END_TEST

/* Responses to random SMPs: how many, and each one's method and status. */
struct fuzz {
	uint64_t resp, bad;
};

static void on_fuzz_resp(void *ctx, const struct ibfs_smp *s)
{
	struct fuzz *z = ctx;
	uint16_t st = s->status;

	z->resp++;
	z->bad += s->method != IBFS_SMP_GETRESP ||
		  (st != IBFS_MAD_STATUS_OK && st != IBFS_MAD_STATUS_BAD_METHOD &&
		   st != IBFS_MAD_STATUS_BAD_ATTR &&
		   st != IBFS_MAD_STATUS_BAD_FIELD);
}

/*
 * 20,000 random directed-route SMPs (methods, attributes, modifiers, data
 * and paths of 0 to 3 hops, seeded) into the star's agents: none crashes
 * them (the sanitizer build runs this too), every answer is a GetResp
 * with one of the statuses of IBA 13.4.7 this model uses, and no more
 * answers come back than were sent.
 */
START_TEST(test_agent_random_smps)
{
	static const uint16_t attrs[] = {
		IBFS_SMP_ATTR_NODE_DESC, IBFS_SMP_ATTR_NODE_INFO,
		IBFS_SMP_ATTR_SWITCH_INFO, IBFS_SMP_ATTR_PORT_INFO,
		IBFS_SMP_ATTR_PKEY_TABLE, IBFS_SMP_ATTR_SL2VL,
		IBFS_SMP_ATTR_VLARB, IBFS_SMP_ATTR_LFT, IBFS_SMP_ATTR_MFT,
		IBFS_SMP_ATTR_NOTICE,
	};
	static const uint8_t methods[] = {
		IBFS_SMP_GET, IBFS_SMP_SET, IBFS_SMP_GET, IBFS_SMP_SET, 0x03,
		IBFS_SMP_GETRESP,
	};
	struct star x;
	struct fuzz z = { 0, 0 };
	struct ibfs_rng r;
	uint64_t sent = 0;

	star_make(&x);
	ibfs__sma_set_sm(x.a, 1, 1, on_fuzz_resp, &z);
	ibfs__rng_seed(&r, 7, 0);
	for (int i = 0; i < 20000; i++) {
		struct ibfs_smp s;
		uint64_t v = ibfs__rng_next(&r);

		memset(&s, 0, sizeof(s));
		s.mgmt_class = IBFS_MCLASS_SUBN_DR;
		s.method = methods[v % 6];
		s.attr_id = v >> 8 & 15 ? attrs[(v >> 12) % 10] :
					  (uint16_t)(v >> 16);
		/* Half small modifiers (ports, blocks), half any. */
		s.attr_mod = v >> 32 & 1 ? (uint32_t)(v >> 33) % 40 |
						   (uint32_t)(v >> 40 & 3) << 16 |
						   (uint32_t)(v >> 42 & 1) << 31 :
					   (uint32_t)(v >> 32);
		s.tid = (uint64_t)i + 1;
		s.hop_cnt = (uint8_t)(v >> 44 & 3);
		/* Ports 0-5 at each hop; mostly out by the SM's one port. */
		for (int h = 1; h <= s.hop_cnt; h++)
			s.initial_path[h] = (uint8_t)(ibfs__rng_next(&r) % 6);
		if (v >> 46 & 7)
			s.initial_path[1] = 1;
		for (int b = 0; b < 64; b += 8) {
			uint64_t d = ibfs__rng_next(&r);

			memcpy(s.data + b, &d, 8);
		}
		if (ibfs__sma_send(x.a, 1, &s) == 0)
			sent++;
		if (i % 16 == 15)
			ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	}
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(z.bad, 0);
	ck_assert_uint_le(z.resp, sent);
	/* Most paths lead somewhere: the star has few ports to get wrong. */
	ck_assert_uint_gt(z.resp, sent / 4);
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
	struct ibfs_smp s = smp_sample(), t;

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

static Suite *sma_suite(void)
{
	Suite *s = suite_create("sma");
	TCase *tc = tcase_create("agents");

	tcase_add_test(tc, test_agent_statuses);
	tcase_add_test(tc, test_agent_mft);
	tcase_add_test(tc, test_agent_hca_vlarb);
	tcase_add_test(tc, test_agent_pkeys);
	tcase_add_test(tc, test_agent_port_info_read);
	tcase_add_test(tc, test_agent_port_info_set);
	tcase_add_test(tc, test_agent_random_smps);
	tcase_add_test(tc, test_agent_bad_path);
	tcase_add_test(tc, test_smp_packet);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(sma_suite)
