/* SPDX-License-Identifier: MIT */
/*
 * The Subnet Administrator on the SM's port (src/subnet_manager/sa.c) and
 * the SA client of an HCA (src/hca/sa_client.c), over the in-band SM's
 * star (sm_net.h): switch "sw" (node 0) with h1-h4 on its ports 1-4, the
 * SM on h1. Every GMP is a packet of 290 bytes on VL0 (LRH 8 + BTH 12 +
 * DETH 8 + MAD 256 + ICRC 4 + VCRC 2).
 *
 * One way, HCA to HCA through the switch (cut-through; the ideal profile
 * has no receive pipeline): the header is in at the switch P + ser(8)
 * after the packet left, the switch starts it on after L, and its tail is
 * in at the far HCA P + ser(290) later: W = 2P + ser(8) + L + ser(290).
 * The SA answers IBFS_SA_PROC_TIME (S) after the request's tail is in, so
 * a request sent at t0 is answered at t0 + 2W + S.
 *
 * The bytes are checked twice: decoded by our codec, and dissected by
 * tshark from a capture (skipped when tshark is missing).
 */
#include "check_common.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fabric/capture.h"
#include "hca/sa_client.h"
#include "sm_net.h"
#include "subnet_manager/sa_int.h"

#define W (2 * P + ser(8) + L + ser(SMP_WIRE))
#define S IBFS_SA_PROC_TIME

struct answer {
	int got;
	ibfs_time_t at;
	struct ibfs_sa_mad m;
	struct ibfs_fabric *f;
};

static void on_answer(void *ctx, const struct ibfs_sa_mad *resp)
{
	struct answer *a = ctx;

	a->got++;
	a->at = a->f->eq.now;
	a->m = *resp;
}

/* The star up, with an SA client on h2. */
static struct ibfs_sa_client *sa_star(struct net *n)
{
	star_make(n, 8, 4);
	net_sweep(n, 1, "minhop", 0, 0);
	struct ibfs_sa_client *c = ibfs__sa_client_new(n->hca[2]);

	ck_assert_ptr_nonnull(c);
	return c;
}

/* Sends req from h2 and runs until the queue is empty. */
static void sa_ask(struct net *n, struct ibfs_sa_client *c,
		   struct ibfs_sa_mad *req, struct answer *a)
{
	memset(a, 0, sizeof(*a));
	a->f = n->f;
	ck_assert_int_eq(ibfs__sa_client_send(c, 1, req, on_answer, a), 0);
	ibfs__eq_run(&n->f->eq, IBFS_TIME_NEVER);
	ck_assert_int_eq(a->got, 1);
}

/* tshark's fields of the packets a display filter keeps, or "" when
 * tshark is not installed. */
static void tshark(const char *pcap, const char *filter, const char *fields,
		   char *out, size_t n)
{
	char cmd[1024];

	out[0] = 0;
	if (system("command -v tshark >/dev/null 2>&1") != 0)
		return;
	snprintf(cmd, sizeof(cmd),
		 "tshark -r %s -T fields -E separator=, %s -Y '%s' 2>/dev/null"
		 " | head -n 1",
		 pcap, fields, filter);
	FILE *p = popen(cmd, "r");

	ck_assert_ptr_nonnull(p);
	if (!fgets(out, (int)n, p))
		out[0] = 0;
	out[strcspn(out, "\n")] = 0;
	pclose(p);
}

static int have_tshark(void)
{
	return system("command -v tshark >/dev/null 2>&1") == 0;
}

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

static Suite *sa_suite(void)
{
	Suite *s = suite_create("sa");
	TCase *tc = tcase_create("gmp");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, gmp_round_trip);
	tcase_add_test(tc, gsi_drops_wrong_qkey);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(sa_suite)
