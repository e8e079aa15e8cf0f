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

static Suite *sa_suite(void)
{
	Suite *s = suite_create("sa");
	TCase *tc = tcase_create("gmp");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, gmp_round_trip);
	tcase_add_test(tc, gsi_drops_wrong_qkey);
	tcase_add_test(tc, path_record);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(sa_suite)
