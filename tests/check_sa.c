/* SPDX-License-Identifier: MIT */
/*
 * The Subnet Administrator on the SM's port (src/subnet_manager/sa.c) and
 * the SA client of an HCA (src/hca/sa_client.c): GMPs on QP1, over the
 * star of sa_star.h. The bytes are checked twice: decoded by our codec,
 * and dissected by tshark from a capture (skipped when tshark is
 * missing).
 */
#include "check_common.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fabric/capture.h"
#include "fabric/rng.h"
#include "hca/mgmt.h"
#include "sa_star.h"

/*
 * A request for an attribute the SA does not model (NodeRecord, 0x0011)
 * is answered "method/attribute not supported": the GMP's trip to the SA
 * and back, its framing and its MAD header, to the picosecond and byte.
 */
START_TEST(gmp_round_trip)
{
	struct net n;
	struct ibfs_sa_client *c = sa_star(&n);
	char pcap[] = "/tmp/check_sa_XXXXXX";
	int fd = mkstemp(pcap);

	ck_assert_int_ge(fd, 0);
	close(fd);
	struct ibfs_capture *cap = ibfs__capture_open(n.f, pcap, NULL);

	ck_assert_ptr_nonnull(cap);
	struct ibfs_sa_mad req = { .method = IBFS_SA_GET, .attr_id = 0x0011,
				   .comp_mask = 0x5, .attr_offset = 14 };
	struct answer a;
	ibfs_time_t t0 = n.f->eq.now;

	sa_ask(&n, c, &req, &a);
	ck_assert_int_eq(ibfs__capture_close(cap), 0);
	ck_assert_uint_eq(a.at, t0 + 2 * W + S);
	ck_assert_uint_eq(a.m.method, IBFS_SA_GETRESP);
	ck_assert_uint_eq(a.m.status, IBFS_SA_STATUS_BAD_ATTR);
	ck_assert_uint_eq(a.m.tid, req.tid);
	ck_assert_uint_eq(a.m.attr_id, 0x0011);
	ck_assert_uint_eq(a.m.sm_key, 0);
	struct ibfs_sa_stats st;

	ibfs__sm_sa_stats(n.sm, &st);
	ck_assert_uint_eq(st.requests, 1);
	ck_assert_uint_eq(st.answered, 1);
	ck_assert_uint_eq(st.errors, 1);
	if (have_tshark()) {
		char got[512];

		/* The request as it left h2 (LID 3) for the SM on h1 (LID 2;
		 * the switch has 1): VL0, PktLen 72 words (288 bytes to the
		 * ICRC), UD SEND Only (0x64), QP1 to QP1, the GSI's P_Key and
		 * Q_Key, base version 1, class 3, class version 2. */
		tshark(pcap, "infiniband.mad.method == 0x01",
		       "-e infiniband.lrh.vl -e infiniband.lrh.slid "
		       "-e infiniband.lrh.dlid -e infiniband.lrh.pktlen "
		       "-e infiniband.bth.opcode -e infiniband.bth.destqp "
		       "-e infiniband.bth.p_key -e infiniband.deth.q_key "
		       "-e infiniband.deth.srcqp -e infiniband.mad.baseversion "
		       "-e infiniband.mad.mgmtclass "
		       "-e infiniband.mad.classversion "
		       "-e infiniband.mad.transactionid "
		       "-e infiniband.mad.attributeid "
		       "-e infiniband.sa.attributeoffset "
		       "-e infiniband.sa.componentmask",
		       got, sizeof(got));
		ck_assert_str_eq(got, "0x00,3,2,72,100,0x000001,65535,"
				      "0x0000000080010000,0x00000001,0x01,"
				      "0x03,0x02,0x0000000000000001,0x0011,"
				      "0x000e,0x0000000000000005");
		tshark(pcap, "infiniband.mad.method == 0x81",
		       "-e infiniband.lrh.slid -e infiniband.lrh.dlid "
		       "-e infiniband.mad.status -e infiniband.sa.smkey",
		       got, sizeof(got));
		ck_assert_str_eq(got, "2,3,0x000c,0x0000000000000000");
	}
	unlink(pcap);
	ibfs__sa_client_free(c);
	net_free(&n);
}
END_TEST

/* A request with a bad Q_Key is dropped at QP1 (IBA 13.5.3.2). */
START_TEST(gsi_drops_wrong_qkey)
{
	struct net n;
	struct ibfs_sa_client *c = sa_star(&n);
	struct ibfs_sa_mad req = { .method = IBFS_SA_GET, .attr_id = 0x0011 };
	struct ibfs_packet *p = ibfs__sa_packet(n.f, &req, 2, 3, 0, 0, 0xffff);

	ck_assert_ptr_nonnull(p);
	p->deth.qkey = 0x80010001;
	ck_assert_int_eq(ibfs__hca_gsi_send(n.hca[2], 1, p), 0);
	ibfs__eq_run(&n.f->eq, IBFS_TIME_NEVER);
	struct ibfs_sa_stats st;

	ibfs__sm_sa_stats(n.sm, &st);
	ck_assert_uint_eq(st.requests, 0);
	/* The same with the GSI's Q_Key reaches the SA. */
	p = ibfs__sa_packet(n.f, &req, 2, 3, 0, 0, 0xffff);
	ck_assert_int_eq(ibfs__hca_gsi_send(n.hca[2], 1, p), 0);
	ibfs__eq_run(&n.f->eq, IBFS_TIME_NEVER);
	ibfs__sm_sa_stats(n.sm, &st);
	ck_assert_uint_eq(st.requests, 1);
	ibfs__sa_client_free(c);
	net_free(&n);
}
END_TEST

/* A PathRecord Get from h2 (LID 3) for the path to `dlid`. */
static uint16_t path(struct net *n, struct ibfs_sa_client *c, uint64_t mask,
		     const struct ibfs_path_rec *q, struct ibfs_path_rec *r,
		     struct answer *a)
{
	struct ibfs_sa_mad req = { .method = IBFS_SA_GET,
				   .attr_id = IBFS_SA_ATTR_PATH_RECORD,
				   .comp_mask = mask };

	ibfs__sa_put_path(req.data, q);
	sa_ask(n, c, &req, a);
	ibfs__sa_get_path(a->m.data, r);
	return a->m.status;
}

/*
 * PathRecord as OpenSM's SA answers it (saquery on OpenSM over ibsim
 * shows the same fields: tests/opensm_sa.sh): GIDs, LIDs, Reversible with
 * NumbPath 0 (0x80), P_Key 0xFFFF, the engine's SL, MTU and rate with the
 * selector "exactly", PacketLifeTime 18 (0x92).
 */
START_TEST(path_record)
{
	struct net n;
	struct ibfs_sa_client *c = sa_star(&n);
	struct ibfs_path_rec q = { .dlid = 4 }, r;
	struct answer a;
	ibfs_time_t t0 = n.f->eq.now;

	ck_assert_uint_eq(path(&n, c, IBFS_PR_DLID, &q, &r, &a), 0);
	ck_assert_uint_eq(a.at, t0 + 2 * W + S);
	ck_assert_uint_eq(a.m.method, IBFS_SA_GETRESP);
	ck_assert_uint_eq(a.m.attr_offset, 8);
	ck_assert_uint_eq(r.slid, 3);
	ck_assert_uint_eq(r.dlid, 4);
	ck_assert_uint_eq(ibfs__sa_gid_guid(r.sgid),
			  n.t->nodes[2].ports[1].guid);
	ck_assert_uint_eq(ibfs__sa_gid_guid(r.dgid),
			  n.t->nodes[3].ports[1].guid);
	ck_assert_uint_eq(r.sgid[0], 0xfe);
	ck_assert_uint_eq(r.reversible, 1);
	ck_assert_uint_eq(r.numb_path, 0);
	ck_assert_uint_eq(r.pkey, 0xffff);
	ck_assert_uint_eq(r.sl, 0);
	ck_assert_uint_eq(r.mtu_sel << 6 | r.mtu, 0x85);
	ck_assert_uint_eq(r.rate_sel << 6 | r.rate, 0x90);
	ck_assert_uint_eq(r.life_sel << 6 | r.life, 0x92);
	/* By GIDs, from another source. */
	struct ibfs_path_rec g = { 0 };

	ibfs__sa_port_gid(n.t->nodes[4].ports[1].guid, g.sgid);
	ibfs__sa_port_gid(n.t->nodes[1].ports[1].guid, g.dgid);
	ck_assert_uint_eq(path(&n, c, IBFS_PR_SGID | IBFS_PR_DGID, &g, &r,
			       &a), 0);
	ck_assert_uint_eq(r.slid, 5);
	ck_assert_uint_eq(r.dlid, 2);
	/* The SL the routing engine gives the path (dfsssp's layer, lash's
	 * lane), here set by hand in the SM's subnet. */
	n.sm->sn->dst_sl[4] = 3;
	ck_assert_uint_eq(path(&n, c, IBFS_PR_DLID, &q, &r, &a), 0);
	ck_assert_uint_eq(r.sl, 3);
	/* No destination; one that is a switch; an SL that is not the
	 * path's. */
	ck_assert_uint_eq(path(&n, c, IBFS_PR_SLID, &q, &r, &a),
			  IBFS_SA_ERR_INSUFFICIENT_COMPONENTS);
	q.dlid = 1;
	ck_assert_uint_eq(path(&n, c, IBFS_PR_DLID, &q, &r, &a),
			  IBFS_SA_ERR_NO_RECORDS);
	q.dlid = 4;
	q.sl = 2;
	ck_assert_uint_eq(path(&n, c, IBFS_PR_DLID | IBFS_PR_SL, &q, &r, &a),
			  IBFS_SA_ERR_NO_RECORDS);
	ibfs__sa_client_free(c);
	net_free(&n);
}
END_TEST

/* Answers to random requests: how many, and how many were not well formed. */
struct fuzz {
	struct ibfs_fabric *f;
	uint64_t got, bad;
};

static void on_fuzz(void *ctx, const struct ibfs_sa_mad *m)
{
	static const uint16_t ok[] = {
		0, IBFS_SA_STATUS_BUSY, IBFS_SA_STATUS_BAD_METHOD,
		IBFS_SA_STATUS_BAD_ATTR, IBFS_SA_ERR_NO_RESOURCES,
		IBFS_SA_ERR_REQ_INVALID, IBFS_SA_ERR_NO_RECORDS,
		IBFS_SA_ERR_TOO_MANY_RECORDS,
		IBFS_SA_ERR_INSUFFICIENT_COMPONENTS,
	};
	struct fuzz *z = ctx;
	int known = 0;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		known |= m->status == ok[i];
	z->got++;
	z->bad += !known || (m->method != IBFS_SA_GETRESP &&
			     m->method != IBFS_SA_DELETERESP);
}

/*
 * A record of random fields, with GIDs the SA can know: one of the
 * star's ports' (the requester's, h2's, half the time, or a random one)
 * and, for a group, a multicast MGID of few values, with the component
 * mask of a join or of a group's creation most of the time.
 */
static void fuzz_record(struct net *n, struct ibfs_rng *r,
			struct ibfs_sa_mad *m)
{
	uint64_t v = ibfs__rng_next(r);
	uint8_t gid[16];

	for (int b = 0; b < IBFS_SA_DATA_BYTES - 8; b += 8) {
		uint64_t d = ibfs__rng_next(r);

		memcpy(m->data + b, &d, 8);
	}
	if (v & 1)
		ibfs__sa_port_gid(n->t->nodes[v & 2 ? 2 : 1 + v % 4].ports[1]
					  .guid, gid);
	else
		memcpy(gid, m->data + 100, 16);
	if (m->attr_id == IBFS_SA_ATTR_MCMEMBER_RECORD) {
		struct ibfs_mcmember_rec c;

		ibfs__sa_get_mcmember(m->data, &c);
		c.mgid[0] = v >> 8 & 3 ? 0xff : 0;
		c.mgid[1] = v >> 10 & 1 ? 0x12 : c.mgid[1];
		if (v >> 11 & 1) {
			memset(c.mgid + 2, 0, 13);
			c.mgid[15] &= 3;
		}
		memcpy(c.port_gid, gid, 16);
		c.pkey = v >> 12 & 1 ? 0xffff : c.pkey;
		c.join_state &= v >> 13 & 1 ? 0x1 : 0xf;
		c.qkey &= v >> 14 & 1 ? 0xf : 0xffffffff;
		c.sl &= v >> 15 & 1 ? 0 : 0xf;
		c.tclass &= v >> 15 & 1 ? 0 : 0xff;
		c.flow &= v >> 15 & 1 ? 0 : 0xfffff;
		ibfs__sa_put_mcmember(m->data, &c);
		if (v >> 24 & 3)
			m->comp_mask |= IBFS_MCR_MGID | IBFS_MCR_PORT_GID |
					IBFS_MCR_JOIN_STATE;
		if (!(v >> 26 & 3))
			m->comp_mask |= IBFS_MCR_QKEY | IBFS_MCR_TCLASS |
					IBFS_MCR_PKEY | IBFS_MCR_FLOW |
					IBFS_MCR_SL;
	} else if (m->attr_id == IBFS_SA_ATTR_PATH_RECORD) {
		struct ibfs_path_rec p;

		ibfs__sa_get_path(m->data, &p);
		p.dlid = (uint16_t)(v >> 16 & 7);
		p.slid = (uint16_t)(v >> 19 & 7);
		memcpy(v >> 22 & 1 ? p.dgid : p.sgid, gid, 16);
		ibfs__sa_put_path(m->data, &p);
	}
}

/*
 * 3,000 seeded random requests from h2: methods, attributes, component
 * masks and records, half of them joins and paths with GIDs and LIDs of
 * the star. Every answer is a GetResp or DeleteResp with a status of IBA
 * 13.4.7 or 15.2.1.1 that this SA uses, none comes back twice, and the
 * SA answers what reaches it (the client's count of answers equals the
 * SA's).
 */
START_TEST(random_requests)
{
	static const uint8_t methods[] = {
		IBFS_SA_GET, IBFS_SA_SET, IBFS_SA_DELETE, IBFS_SA_GET,
		IBFS_SA_SET, IBFS_SA_GETTABLE, 0x03, IBFS_SA_GETRESP,
	};
	static const uint16_t attrs[] = {
		IBFS_SA_ATTR_MCMEMBER_RECORD, IBFS_SA_ATTR_PATH_RECORD,
		IBFS_SA_ATTR_MCMEMBER_RECORD, IBFS_SA_ATTR_PATH_RECORD,
		0x0011, 0x0012, 0x0000, 0xffff,
	};
	struct net n;
	struct ibfs_sa_client *c = sa_star(&n);
	struct fuzz z = { .f = n.f };
	struct ibfs_rng r;
	uint64_t sent = 0, csent, cgot;
	struct ibfs_sa_stats st;

	ibfs__rng_seed(&r, 11, 0);
	for (int i = 0; i < 3000; i++) {
		uint64_t v = ibfs__rng_next(&r);
		struct ibfs_sa_mad m = {
			.method = methods[v % 8],
			.attr_id = attrs[v >> 3 & 7],
			.attr_mod = v >> 6 & 7 ? 0 : (uint32_t)(v >> 32),
			.attr_offset = (uint16_t)(v >> 9 & 15),
			.comp_mask = v >> 13 & 1 ? ibfs__rng_next(&r) :
				     ibfs__rng_next(&r) & 0x1ffff,
		};
		fuzz_record(&n, &r, &m);
		if (ibfs__sa_client_send(c, 1, &m, on_fuzz, &z) == 0)
			sent++;
		if (i % 8 == 7)
			ibfs__eq_run(&n.f->eq, IBFS_TIME_NEVER);
	}
	ibfs__eq_run(&n.f->eq, IBFS_TIME_NEVER);
	ibfs__sa_client_counts(c, &csent, &cgot);
	ibfs__sm_sa_stats(n.sm, &st);
	ck_assert_uint_eq(z.bad, 0);
	ck_assert_uint_eq(csent, sent);
	ck_assert_uint_eq(cgot, z.got);
	ck_assert_uint_eq(st.answered, z.got);
	ck_assert_uint_gt(z.got, sent / 2);
	ibfs__sa_client_free(c);
	net_free(&n);
}
END_TEST

static Suite *sa_suite(void)
{
	Suite *s = suite_create("sa");
	TCase *tc = tcase_create("gmp");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, gmp_round_trip);
	tcase_add_test(tc, gsi_drops_wrong_qkey);
	tcase_add_test(tc, path_record);
	tcase_add_test(tc, random_requests);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(sa_suite)
