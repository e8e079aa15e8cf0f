/* SPDX-License-Identifier: MIT */
/*
 * Multicast at the HCAs (hca/mcast.c) through one switch whose MFT is
 * written by hand: a star of four HCAs, ideal profile, 4x EDR (80 ps a
 * byte), 2 m cables (P = 10 ns), switch latency L = 100 ns.
 *
 * A UD SEND of 64 bytes to the group carries a GRH (IBA 8.3.1): LRH 8 +
 * GRH 40 + BTH 12 + DETH 8 + 64 + ICRC 4 + VCRC 2 = 138 bytes on the wire.
 * The switch cuts through on the LRH as for unicast (check_hca_switch.c):
 * the header is in ser(8) + P after the send starts, the copies leave L
 * later on every MFT port but the input, each output idle, so all at
 * once, and each tail arrives ser(138) + P after that:
 *   t = ser(8) + P + L + ser(138) + P = 640 + 10,000 + 100,000 + 11,040
 *       + 10,000 = 131,680 ps
 * at each of the three receivers (the ideal profile adds no receive time).
 */
#include "check_common.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fabric/pkey.h"
#include "hca/direct_exec.h"
#include "hca/hca_int.h"
#include "switch/switch.h"

#include "hca_star.h"

#define P (10 * IBFS_NS)
#define L (100 * IBFS_NS)
#define NH 4
#define MLID 0xC000
#define QKEY 0x1234u

static const union ibfs_gid MGID = { .raw = { 0xff, 0x12, 0x40, 0x1b, 0xff,
					      0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0,
					      1 } };

static ibfs_time_t ser(uint64_t bytes)
{
	return bytes * 80;
}

static struct hca_star S;

struct end {
	struct ibfs_context *ctx;
	struct ibfs_pd *pd;
	struct ibfs_cq *cq;
	struct ibfs_qp *qp;
	struct ibfs_mr *mr;
	uint8_t buf[8192];
};

static struct end E[NH + 1];

static void star_make(void)
{
	hca_star_make(&S, NH, L);
	/* Every HCA's port in the group's MFT entry. */
	uint8_t ports[NH];

	for (int i = 0; i < NH; i++)
		ports[i] = (uint8_t)(i + 1);
	ck_assert_int_eq(ibfs__switch_set_mft(S.sw, MLID, ports, NH), 0);
}

static void star_free(void)
{
	hca_star_free(&S);
}

static struct ibfs_qp *make_qp(struct end *e, enum ibfs_qp_type type,
			       uint32_t qkey)
{
	struct ibfs_qp_init_attr ia = {
		.send_cq = e->cq, .recv_cq = e->cq, .qp_type = type,
		.cap = {.max_send_wr = 16, .max_recv_wr = 16,
			.max_send_sge = 1, .max_recv_sge = 1},
	};
	struct ibfs_qp *qp = ibfs_create_qp(e->pd, &ia);

	ck_assert_ptr_nonnull(qp);
	if (type != IBFS_QPT_UD)
		return qp;
	struct ibfs_qp_attr a = {.qp_state = IBFS_QPS_INIT, .port_num = 1,
				 .qkey = qkey};

	ck_assert_int_eq(ibfs_modify_qp(qp, &a, IBFS_QP_STATE |
				IBFS_QP_PKEY_INDEX | IBFS_QP_PORT |
				IBFS_QP_QKEY), 0);
	a.qp_state = IBFS_QPS_RTR;
	ck_assert_int_eq(ibfs_modify_qp(qp, &a, IBFS_QP_STATE), 0);
	a.qp_state = IBFS_QPS_RTS;
	ck_assert_int_eq(ibfs_modify_qp(qp, &a, IBFS_QP_STATE |
				IBFS_QP_SQ_PSN), 0);
	return qp;
}

static void end_open(struct end *e, struct ibfs_hca *h, uint32_t qkey)
{
	memset(e->buf, 0, sizeof(e->buf));
	e->ctx = ibfs__hca_context(h);
	e->pd = ibfs_alloc_pd(e->ctx);
	e->cq = ibfs_create_cq(e->ctx, 64, NULL, NULL, 0);
	e->mr = ibfs_reg_mr(e->pd, e->buf, sizeof(e->buf), 0xf);
	e->qp = make_qp(e, IBFS_QPT_UD, qkey);
}

static void post_recv(struct end *e, uint64_t id, uint32_t off)
{
	struct ibfs_sge sg = {.addr = (uint64_t)(uintptr_t)(e->buf + off),
			      .length = 2048, .lkey = e->mr->lkey};
	struct ibfs_recv_wr wr = {.wr_id = id, .sg_list = &sg, .num_sge = 1},
			    *bad;

	ck_assert_int_eq(ibfs_post_recv(e->qp, &wr, &bad), 0);
}

/* A UD SEND of len bytes from e's buffer at 4096 to the group. */
static void send_group(struct end *e, uint32_t len)
{
	struct ibfs_ah_attr aa = {.dlid = MLID, .is_global = 1, .port_num = 1};

	memcpy(aa.grh.dgid, MGID.raw, 16);
	struct ibfs_ah *ah = ibfs_create_ah(e->pd, &aa);

	ck_assert_ptr_nonnull(ah);
	struct ibfs_sge sg = {.addr = (uint64_t)(uintptr_t)(e->buf + 4096),
			      .length = len, .lkey = e->mr->lkey};
	struct ibfs_send_wr wr = {.wr_id = 77, .sg_list = &sg, .num_sge = 1,
				  .opcode = IBFS_WR_SEND,
				  .send_flags = IBFS_SEND_SIGNALED},
			    *bad;

	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = 0xFFFFFF; /* IBA 10.5: multicast QPN */
	wr.wr.ud.remote_qkey = QKEY;
	ck_assert_int_eq(ibfs_post_send(e->qp, &wr, &bad), 0);
	ibfs_destroy_ah(ah);
}

static void fabric_ok(void)
{
	char msg[256];

	ibfs__direct_exec_drain(&S.dx);
	ck_assert_msg(ibfs__fabric_check(S.f, msg, sizeof(msg)) == 0, "%s",
		      msg);
}

/* The closed form above, the bytes and the GRH at every receiver. */
START_TEST(three_receivers_closed_form)
{
	star_make();
	for (int i = 0; i < NH; i++) {
		end_open(&E[i], S.h[i], QKEY);
		ck_assert_int_eq(ibfs_attach_mcast(E[i].qp, &MGID, MLID), 0);
		post_recv(&E[i], 100 + i, 0);
	}
	for (int k = 0; k < 64; k++)
		E[0].buf[4096 + k] = (uint8_t)(7 * k + 3);
	send_group(&E[0], 64);
	ibfs_time_t t = ser(8) + P + L + ser(138) + P;

	ck_assert_uint_eq(t, 131680);
	struct ibfs_wc wc;

	for (int i = 1; i < NH; i++) {
		ck_assert_int_eq(ibfs_wait_cq(E[i].cq, 1, &wc), 1);
		ck_assert_uint_eq(S.f->eq.now, t);
		ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
		ck_assert_uint_eq(wc.wr_id, 100 + (uint64_t)i);
		ck_assert_int_eq(wc.opcode, IBFS_WC_RECV);
		ck_assert_uint_eq(wc.byte_len, 64 + 40);
		ck_assert_uint_eq(wc.wc_flags & IBFS_WC_GRH, IBFS_WC_GRH);
		ck_assert_uint_eq(wc.slid, 1);
		ck_assert_uint_eq(wc.src_qp, E[0].qp->qp_num);
		ck_assert_uint_eq(wc.dlid_path_bits, 0);
		/* The payload after 40 bytes of GRH, byte for byte. */
		ck_assert_mem_eq(E[i].buf + 40, E[0].buf + 4096, 64);
		/* The GRH (IBA 8.3): IPVer 6, PayLen BTH..ICRC (12 + 8 +
		 * 64 + 4), NxtHdr 0x1B, DGID the group's MGID. */
		ck_assert_uint_eq(E[i].buf[0] >> 4, 6);
		ck_assert_uint_eq(E[i].buf[4] << 8 | E[i].buf[5], 88);
		ck_assert_uint_eq(E[i].buf[6], 0x1B);
		ck_assert_mem_eq(E[i].buf + 24, MGID.raw, 16);
	}
	/* The sender's own completion, and no copy back to it. */
	ck_assert_int_eq(ibfs_wait_cq(E[0].cq, 1, &wc), 1);
	ck_assert_uint_eq(wc.wr_id, 77);
	fabric_ok();
	ck_assert_int_eq(ibfs_poll_cq(E[0].cq, 1, &wc), 0);
	/* One packet in, three copies out (fabric.h "Replicated"). */
	ck_assert_uint_eq(S.f->pkts_replicated, 3);
	star_free();
}
END_TEST

/* Not attached, detached, another Q_Key: nothing; two QPs: two copies. */
START_TEST(who_gets_a_copy)
{
	star_make();
	for (int i = 0; i < NH; i++)
		end_open(&E[i], S.h[i], i == 3 ? QKEY + 1 : QKEY);
	/* h1 attached twice (one copy) and a second QP on h1 attached. */
	ck_assert_int_eq(ibfs_attach_mcast(E[1].qp, &MGID, MLID), 0);
	ck_assert_int_eq(ibfs_attach_mcast(E[1].qp, &MGID, MLID), 0);
	E[4] = E[1];
	E[4].qp = make_qp(&E[1], IBFS_QPT_UD, QKEY);
	ck_assert_int_eq(ibfs_attach_mcast(E[4].qp, &MGID, MLID), 0);
	/* h2 attached then detached; h3 attached with another Q_Key. */
	ck_assert_int_eq(ibfs_attach_mcast(E[2].qp, &MGID, MLID), 0);
	ck_assert_int_eq(ibfs_detach_mcast(E[2].qp, &MGID, MLID), 0);
	ck_assert_int_eq(ibfs_attach_mcast(E[3].qp, &MGID, MLID), 0);
	for (int i = 1; i < NH; i++) {
		post_recv(&E[i], 10 * i, 0);
		post_recv(&E[i], 10 * i + 1, 2048);
	}
	post_recv(&E[4], 40, 6144);
	uint64_t drop2 = S.h[2]->st.dropped, drop3 = S.h[3]->st.dropped;

	send_group(&E[0], 32);
	fabric_ok();
	struct ibfs_wc wc[4];

	/* h1: one completion on each QP, the second receive untouched. */
	ck_assert_int_eq(ibfs_poll_cq(E[1].cq, 4, wc), 2);
	ck_assert_uint_eq(wc[0].wr_id + wc[1].wr_id, 10 + 40);
	ck_assert_uint_ne(wc[0].qp_num, wc[1].qp_num);
	/* h2 (detached) and h3 (wrong Q_Key): nothing, one drop each. */
	ck_assert_int_eq(ibfs_poll_cq(E[2].cq, 4, wc), 0);
	ck_assert_int_eq(ibfs_poll_cq(E[3].cq, 4, wc), 0);
	ck_assert_uint_eq(S.h[2]->st.dropped, drop2 + 1);
	ck_assert_uint_eq(S.h[3]->st.dropped, drop3 + 1);
	/* A destroyed QP leaves its groups: the next send reaches only
	 * h1's first QP. */
	ck_assert_int_eq(ibfs_destroy_qp(E[4].qp), 0);
	send_group(&E[0], 32);
	fabric_ok();
	ck_assert_int_eq(ibfs_poll_cq(E[1].cq, 4, wc), 1);
	ck_assert_uint_eq(wc[0].wr_id, 11);
	star_free();
}
END_TEST

/*
 * IBA 10.9.3 at each attached QP: with the default partition's limited
 * P_Key (0x7FFF) in the sender's and h1's tables, h1's copy is dropped
 * and counted in its port's P_KeyViolations; h2 and h3, full members
 * (0xFFFF), get theirs.
 */
START_TEST(limited_members_get_no_copy)
{
	star_make();
	for (int i = 0; i < NH; i++) {
		end_open(&E[i], S.h[i], QKEY);
		ck_assert_int_eq(ibfs_attach_mcast(E[i].qp, &MGID, MLID), 0);
		post_recv(&E[i], 100 + i, 0);
	}
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(ibfs__port_pkey_set(&S.f->ports[i + 1][1], 0,
						     0x7FFF), 0);
	send_group(&E[0], 64);
	fabric_ok();
	struct ibfs_wc wc;

	ck_assert_int_eq(ibfs_poll_cq(E[1].cq, 1, &wc), 0);
	ck_assert_uint_eq(S.f->ports[2][1].pkey_violations, 1);
	for (int i = 2; i < NH; i++) {
		ck_assert_int_eq(ibfs_poll_cq(E[i].cq, 1, &wc), 1);
		ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
		ck_assert_uint_eq(S.f->ports[i + 1][1].pkey_violations, 0);
	}
	star_free();
}
END_TEST

START_TEST(attach_errors)
{
	star_make();
	end_open(&E[0], S.h[0], QKEY);
	struct ibfs_qp *rc = make_qp(&E[0], IBFS_QPT_RC, 0);
	struct ibfs_qp *uc = make_qp(&E[0], IBFS_QPT_UC, 0);
	union ibfs_gid uni = MGID;

	uni.raw[0] = 0xfe;
	/* Only UD QPs (IBA 10.5), multicast GIDs and MLIDs. */
	ck_assert_int_eq(ibfs_attach_mcast(rc, &MGID, MLID), EINVAL);
	ck_assert_int_eq(ibfs_attach_mcast(uc, &MGID, MLID), EINVAL);
	ck_assert_int_eq(ibfs_attach_mcast(E[0].qp, &uni, MLID), EINVAL);
	ck_assert_int_eq(ibfs_attach_mcast(E[0].qp, &MGID, 0xBFFF), EINVAL);
	ck_assert_int_eq(ibfs_attach_mcast(E[0].qp, &MGID, 0xFFFF), EINVAL);
	ck_assert_int_eq(ibfs_attach_mcast(E[0].qp, NULL, MLID), EINVAL);
	ck_assert_int_eq(ibfs_attach_mcast(NULL, &MGID, MLID), EINVAL);
	ck_assert_int_eq(ibfs_detach_mcast(rc, &MGID, MLID), EINVAL);
	/* Detaching what is not attached. */
	ck_assert_int_eq(ibfs_detach_mcast(E[0].qp, &MGID, MLID), EINVAL);
	ck_assert_int_eq(ibfs_attach_mcast(E[0].qp, &MGID, MLID), 0);
	ck_assert_int_eq(ibfs_detach_mcast(E[0].qp, &MGID, MLID + 1), EINVAL);
	ck_assert_int_eq(ibfs_detach_mcast(E[0].qp, &MGID, MLID), 0);
	ck_assert_int_eq(ibfs_detach_mcast(E[0].qp, &MGID, MLID), EINVAL);
	/* An address handle to an MLID must be global (a GRH). */
	struct ibfs_ah_attr aa = {.dlid = MLID, .port_num = 1};

	errno = 0;
	ck_assert_ptr_null(ibfs_create_ah(E[0].pd, &aa));
	ck_assert_int_eq(errno, EINVAL);
	star_free();
}
END_TEST

static Suite *mcast_hca_suite(void)
{
	Suite *s = suite_create("mcast_hca");
	TCase *tc = tcase_create("mcast");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, three_receivers_closed_form);
	tcase_add_test(tc, who_gets_a_copy);
	tcase_add_test(tc, limited_members_get_no_copy);
	tcase_add_test(tc, attach_errors);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(mcast_hca_suite)
