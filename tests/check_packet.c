/* SPDX-License-Identifier: MIT */
/*
 * Packet sizes on the wire and in credits, each expected value written out
 * from the IBA header sizes: LRH 8, GRH 40, BTH 12, DETH 8, RETH 16, AETH 4,
 * ImmDt/IETH 4, AtomicETH 28, AtomicAckETH 8, ICRC 4, VCRC 2 (IBA 7.7, 9.2,
 * 9.3), pad to 4 bytes, 64-byte credit blocks (IBA 7.9.4.1).
 */
#include "check_common.h"

#include <string.h>

#include "fabric/endpoint.h"
#include "fabric/fabric.h"
#include "fabric/packet.h"
#include "fabric/topology.h"

static struct ibfs_packet mk(uint8_t lnh, uint16_t xh, uint32_t len)
{
	struct ibfs_packet p;

	memset(&p, 0, sizeof(p));
	p.lnh = lnh;
	p.xh = xh;
	p.payload_len = len;
	ibfs__packet_finish(&p);
	return p;
}

START_TEST(ext_bytes_each_header)
{
	ck_assert_uint_eq(ibfs__packet_ext_bytes(0), 0);
	ck_assert_uint_eq(ibfs__packet_ext_bytes(IBFS_XH_GRH), 0);
	ck_assert_uint_eq(ibfs__packet_ext_bytes(IBFS_XH_DETH), 8);
	ck_assert_uint_eq(ibfs__packet_ext_bytes(IBFS_XH_RETH), 16);
	ck_assert_uint_eq(ibfs__packet_ext_bytes(IBFS_XH_AETH), 4);
	ck_assert_uint_eq(ibfs__packet_ext_bytes(IBFS_XH_IMM), 4);
	ck_assert_uint_eq(ibfs__packet_ext_bytes(IBFS_XH_IETH), 4);
	ck_assert_uint_eq(ibfs__packet_ext_bytes(IBFS_XH_ATOMIC), 28);
	ck_assert_uint_eq(ibfs__packet_ext_bytes(IBFS_XH_ATOMICACK), 8);
	/* RDMA WRITE Only with Immediate: RETH + ImmDt. */
	ck_assert_uint_eq(ibfs__packet_ext_bytes(IBFS_XH_RETH | IBFS_XH_IMM),
			  20);
	/* Atomic acknowledge: AETH + AtomicAckETH. */
	ck_assert_uint_eq(ibfs__packet_ext_bytes(IBFS_XH_AETH |
						 IBFS_XH_ATOMICACK), 12);
}
END_TEST

START_TEST(raw_packets)
{
	struct ibfs_packet p = mk(0, 0, 0);

	ck_assert_uint_eq(p.wire_bytes, 8 + 2);
	ck_assert_uint_eq(p.blocks, 1);
	p = mk(0, 0, 1000);
	ck_assert_uint_eq(p.wire_bytes, 1010);
	ck_assert_uint_eq(p.blocks, 16); /* 1010 / 64 = 15.8 */
	p = mk(0, 0, 1001);
	ck_assert_uint_eq(p.wire_bytes, 8 + 1001 + 3 + 2);
	ck_assert_uint_eq(p.pad, 0); /* no BTH to carry a pad count */
	/* Raw IPv6 (LNH 1) carries a GRH. */
	p = mk(1, 0, 100);
	ck_assert_uint_eq(p.wire_bytes, 8 + 40 + 100 + 2);
	ck_assert_uint_eq(p.xh & IBFS_XH_GRH, IBFS_XH_GRH);
}
END_TEST

START_TEST(transport_packets)
{
	/* RC SEND Only, 4096 bytes, local. */
	struct ibfs_packet p = mk(2, 0, 4096);

	ck_assert_uint_eq(p.wire_bytes, 8 + 12 + 4096 + 4 + 2);
	ck_assert_uint_eq(p.blocks, 65); /* 4122 / 64 = 64.4 */
	ck_assert_uint_eq(p.pad, 0);
	/* RDMA WRITE First with a GRH, 1 byte: pad 3. */
	p = mk(3, IBFS_XH_RETH, 1);
	ck_assert_uint_eq(p.wire_bytes, 8 + 40 + 12 + 16 + 1 + 3 + 4 + 2);
	ck_assert_uint_eq(p.pad, 3);
	/* UD SEND with a GRH flag on a local LNH: LNH becomes global. */
	p = mk(2, IBFS_XH_GRH | IBFS_XH_DETH, 2);
	ck_assert_uint_eq(p.lnh, 3);
	ck_assert_uint_eq(p.wire_bytes, 8 + 40 + 12 + 8 + 2 + 2 + 4 + 2);
	ck_assert_uint_eq(p.pad, 2);
	/* Compare-and-swap request and its acknowledge. */
	p = mk(2, IBFS_XH_ATOMIC, 0);
	ck_assert_uint_eq(p.wire_bytes, 8 + 12 + 28 + 4 + 2);
	ck_assert_uint_eq(p.blocks, 1);
	p = mk(2, IBFS_XH_AETH | IBFS_XH_ATOMICACK, 0);
	ck_assert_uint_eq(p.wire_bytes, 8 + 12 + 4 + 8 + 4 + 2);
	/* An SMP: BTH + DETH + 256-byte MAD = 290 bytes, 5 blocks. */
	p = mk(2, IBFS_XH_DETH, IBFS_MAD_BYTES);
	ck_assert_uint_eq(p.wire_bytes, 290);
	ck_assert_uint_eq(p.blocks, 5);
}
END_TEST

START_TEST(block_boundaries)
{
	/* Raw: 8 + 52 + 2 = 62 bytes, one block; 8 + 56 + 2 = 66, two. */
	ck_assert_uint_eq(mk(0, 0, 52).blocks, 1);
	ck_assert_uint_eq(mk(0, 0, 56).blocks, 2);
	/* 8 + 2036 + 2 = 2046 bytes: 32 blocks; 8 + 2040 + 2: 33. */
	ck_assert_uint_eq(mk(0, 0, 2036).blocks, 32);
	ck_assert_uint_eq(mk(0, 0, 2040).blocks, 33);
}
END_TEST

/* Two endpoints joined by a 4x EDR cable of 2 m. */
static struct ibfs_fabric *pair(struct ibfs_topology **t,
				struct ibfs_endpoint **a,
				struct ibfs_endpoint **b)
{
	struct ibfs_diag d;

	*t = ibfs__topo_new("pair");
	int na = ibfs__topo_add_node(*t, "a", IBFS_NODE_HCA, 1, 0, &d);
	int nb = ibfs__topo_add_node(*t, "b", IBFS_NODE_HCA, 1, 0, &d);

	ck_assert_int_ge(ibfs__topo_add_link(*t, na, 1, nb, 1, IBFS_SPEED_EDR,
					     4, 2000, 0, &d), 0);
	struct ibfs_fabric *f = ibfs__fabric_new(*t, 1, 0);

	ck_assert_ptr_nonnull(f);
	*a = ibfs__endpoint_create(f, na);
	*b = ibfs__endpoint_create(f, nb);
	ck_assert_ptr_nonnull(*a);
	ck_assert_ptr_nonnull(*b);
	ibfs__endpoint_set_lid(*a, 1, 0);
	ibfs__endpoint_set_lid(*b, 2, 0);
	return f;
}

static void pair_free(struct ibfs_topology *t, struct ibfs_fabric *f,
		      struct ibfs_endpoint *a, struct ibfs_endpoint *b)
{
	ibfs__endpoint_destroy(a);
	ibfs__endpoint_destroy(b);
	ibfs__fabric_free(f);
	ibfs__topo_free(t);
}

/*
 * ibfs__packet_new clears the whole packet; ibfs__packet_new_raw lines 0
 * and 1 only (everything up to ImmDt), leaving the extension headers past
 * them as the pool had them, and both give fresh ids.
 */
START_TEST(new_raw_clears_two_lines)
{
	struct ibfs_topology *t;
	struct ibfs_endpoint *a, *b;
	struct ibfs_fabric *f = pair(&t, &a, &b);
	struct ibfs_packet *p = ibfs__packet_new(f);

	ck_assert_ptr_nonnull(p);
	memset(p, 0xA5, sizeof(*p));
	p->payload = NULL;
	ibfs__packet_free(f, p);
	struct ibfs_packet *r = ibfs__packet_new_raw(f);

	ck_assert_ptr_eq(r, p); /* the pool gives back the last one freed */
	ck_assert_uint_eq(r->id, 1);
	unsigned char *c = (unsigned char *)r;

	for (size_t i = 0; i < IBFS_PKT_HOT_BYTES; i++)
		if (i < offsetof(struct ibfs_packet, id) ||
		    i >= offsetof(struct ibfs_packet, id) + 8)
			ck_assert_msg(c[i] == 0, "byte %zu is %u", i, c[i]);
	ck_assert_uint_eq(r->reth.rkey, 0xA5A5A5A5u);
	ck_assert_uint_eq(r->atomic_ack, 0xA5A5A5A5A5A5A5A5ull);
	ck_assert_uint_eq(r->xh, 0);
	ck_assert_uint_eq(r->imm, 0);
	ibfs__packet_free(f, r);
	p = ibfs__packet_new(f);
	ck_assert_uint_eq(p->id, 2);
	ck_assert_uint_eq(p->reth.rkey, 0);
	ck_assert_uint_eq(p->atomic_ack, 0);
	ibfs__packet_free(f, p);
	pair_free(t, f, a, b);
}
END_TEST

static struct ibfs_packet seen;
static int nseen;

static void on_tx(void *ctx, const struct ibfs_port *out,
		  const struct ibfs_packet *p, ibfs_time_t start)
{
	(void)ctx;
	(void)out;
	(void)start;
	seen = *p;
	nseen++;
}

/*
 * An endpoint computes a flow's sizes once (ibfs__packet_finish when the
 * flow is added): every packet it sends has the LNH, extension flags,
 * pad, wire bytes and blocks that ibfs__packet_finish gives that packet.
 */
START_TEST(endpoint_sizes_per_flow)
{
	static const struct {
		uint8_t lnh;
		uint32_t payload;
	} cases[] = { { 0, 0 }, { 0, 1001 }, { 1, 100 }, { 2, 1 },
		      { 2, 4096 }, { 3, 2 }, { 3, 2037 } };
	struct ibfs_topology *t;
	struct ibfs_endpoint *a, *b;
	struct ibfs_fabric *f = pair(&t, &a, &b);
	struct ibfs_observer o = { .on_tx = on_tx };
	struct ibfs_diag d;

	ibfs__fabric_observe(f, &o);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ibfs_ep_flow_spec s = { .dlid = 2, .sl = 0,
					       .lnh = cases[i].lnh,
					       .payload = cases[i].payload,
					       .count = 2 };
		struct ibfs_packet want = { .lnh = cases[i].lnh,
					    .payload_len = cases[i].payload };

		ibfs__packet_finish(&want);
		ck_assert_int_eq(ibfs__endpoint_add_flow(a, &s, &d), 0);
		nseen = 0;
		ibfs__eq_run(&f->eq, IBFS_TIME_NEVER);
		ck_assert_int_eq(nseen, 2);
		ck_assert_uint_eq(seen.kind, IBFS_PKT_RAW);
		ck_assert_uint_eq(seen.lnh, want.lnh);
		ck_assert_uint_eq(seen.xh, want.xh);
		ck_assert_uint_eq(seen.pad, want.pad);
		ck_assert_uint_eq(seen.wire_bytes, want.wire_bytes);
		ck_assert_uint_eq(seen.blocks, want.blocks);
		ck_assert_uint_eq(seen.payload_len, cases[i].payload);
		ck_assert_uint_eq(seen.psn, 1);
	}
	ck_assert_uint_eq(ibfs__endpoint_stats(b)->rx_pkts, 14);
	pair_free(t, f, a, b);
}
END_TEST

/*
 * An endpoint counts a packet as misrouted when its DLID is not one of the
 * 2^LMC LIDs from its base LID; with LID 0 (none given) nothing is.
 */
START_TEST(endpoint_misrouted_by_lid)
{
	static const struct {
		uint16_t lid;
		uint8_t lmc;
		uint16_t dlid;
		uint64_t misrouted;
	} cases[] = { { 0, 0, 2, 0 },  { 0, 3, 9, 0 },  { 8, 3, 2, 1 },
		      { 8, 3, 15, 0 }, { 8, 3, 16, 1 }, { 2, 0, 2, 0 },
		      { 2, 0, 3, 1 } };
	struct ibfs_topology *t;
	struct ibfs_endpoint *a, *b;
	struct ibfs_fabric *f = pair(&t, &a, &b);
	struct ibfs_diag d;
	uint64_t before = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ibfs_ep_flow_spec s = { .dlid = cases[i].dlid,
					       .payload = 64, .count = 1 };

		ibfs__endpoint_set_lid(b, cases[i].lid, cases[i].lmc);
		ck_assert_int_eq(ibfs__endpoint_add_flow(a, &s, &d), 0);
		ibfs__eq_run(&f->eq, IBFS_TIME_NEVER);
		const struct ibfs_ep_stats *st = ibfs__endpoint_stats(b);

		ck_assert_uint_eq(st->rx_pkts, i + 1);
		ck_assert_uint_eq(st->misrouted - before, cases[i].misrouted);
		before = st->misrouted;
	}
	pair_free(t, f, a, b);
}
END_TEST

static Suite *packet_suite(void)
{
	Suite *s = suite_create("packet");
	TCase *tc = tcase_create("sizes");

	tcase_set_timeout(tc, 5);
	tcase_add_test(tc, ext_bytes_each_header);
	tcase_add_test(tc, raw_packets);
	tcase_add_test(tc, transport_packets);
	tcase_add_test(tc, block_boundaries);
	tcase_add_test(tc, new_raw_clears_two_lines);
	tcase_add_test(tc, endpoint_sizes_per_flow);
	tcase_add_test(tc, endpoint_misrouted_by_lid);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(packet_suite)
