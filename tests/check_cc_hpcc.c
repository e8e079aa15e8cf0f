/* SPDX-License-Identifier: MIT */
/*
 * HPCC (src/hca/cc_hpcc.c: Li et al., SIGCOMM 2019, Algorithm 1) on two
 * RoCEv2 RNICs back to back (roce_pair.h, 100 Gb/s: n bytes take 80n
 * ps): the telemetry field's 42 bytes on every request and ACK; the
 * window holding a QP to one packet in flight; U and W after ACKs whose
 * telemetry the test writes (delivered to the control as the receive
 * path would), each against its closed form; the settings refused.
 */
#include "roce_pair.h"

#include "hca/cc_hpcc.h"

/* The telemetry field (fabric/eth.h): 5 hops of 8 bytes and 2. */
#define INT_BYTES 42
/* T for the unit cases: 10 us. */
#define T_PS (10 * IBFS_US)

static void set_hpcc(struct ibfs_hca *h, ibfs_time_t t)
{
	struct ibfs_hpcc_cfg c;

	ibfs__hpcc_defaults(&c);
	c.base_rtt = t;
	ck_assert_int_eq(ibfs__hca_set_hpcc(h, &c), 0);
}

/*
 * The window counts what ACKs acknowledge: a READ (answered by its
 * responses) or an atomic (by its atomic ACK) counted in it would hold a
 * small window shut, no ACK coming to free it. T = 5 ns makes W = 10^11
 * x 5 x 10^-9 / 8 = 62.5 bytes, less than a READ request (82 + 16 + 42
 * = 140 bytes): a READ of 8 KiB, then a fetch-and-add, then a 4 KiB
 * WRITE, each posted once the one before completed, all complete.
 */
static void post_fadd(uint64_t id, uint32_t off, uint32_t roff)
{
	struct ibfs_sge sg = {.addr = raddr(&A, off), .length = 8,
			      .lkey = A.mr->lkey};
	struct ibfs_send_wr wr = {.wr_id = id, .sg_list = &sg, .num_sge = 1,
				  .opcode = IBFS_WR_ATOMIC_FETCH_AND_ADD,
				  .send_flags = IBFS_SEND_SIGNALED};
	struct ibfs_send_wr *bad = NULL;

	wr.wr.atomic.remote_addr = raddr(&B, roff);
	wr.wr.atomic.rkey = B.mr->rkey;
	wr.wr.atomic.compare_add = 1;
	ck_assert_int_eq(ibfs_post_send(A.qp, &wr, &bad), 0);
}

START_TEST(hpcc_read_and_atomic_leave_no_window)
{
	struct ibfs_wc wc;

	setup(0);
	set_hpcc(P.h[0], 5 * IBFS_NS);
	set_hpcc(P.h[1], 5 * IBFS_NS);
	post(&A, 1, IBFS_WR_RDMA_READ, 100000, 8192, &B, 0);
	wait1(A.scq, &wc);
	post_fadd(2, 120000, 16384);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(wc.wr_id, 2);
	post(&A, 3, IBFS_WR_RDMA_WRITE, 0, 4096, &B, 20000);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(wc.wr_id, 3);
	ck_assert_mem_eq(A.buf + 100000, B.buf, 8192);
	ck_assert_mem_eq(B.buf + 20000, A.buf, 4096);
	teardown();
}
END_TEST

/* The rate h's control reports for e's QP (its rate op). */
static uint64_t qp_rate(int h, struct ibfs_hca_end *e)
{
	return P.h[h]->cc->ops->rate((struct ibfs_hca_qp *)e->qp);
}

/*
 * A 1,000-byte WRITE under HPCC: the request is 82 + 16 (RETH) + 42 +
 * 1,000 = 1,140 bytes (91,200 ps), the ACK 86 + 42 = 128 (10,240 ps),
 * 10 ns of cable each way: the WRITE completes at 91,200 + 10,000 +
 * 10,240 + 10,000 = 121,440 ps.
 */
START_TEST(hpcc_int_bytes_on_the_wire)
{
	struct ibfs_wc wc;

	setup(0);
	set_hpcc(P.h[0], T_PS);
	set_hpcc(P.h[1], T_PS);
	post(&A, 1, IBFS_WR_RDMA_WRITE, 0, 1000, &B, 0);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(now(), ser(rwire(16 + INT_BYTES, 1000)) + PROP +
					 ser(ACK_WIRE + INT_BYTES) + PROP);
	ck_assert_uint_eq(now(), 121440);
	ck_assert_mem_eq(B.buf, A.buf, 1000);
	teardown();
}
END_TEST

/*
 * T = 200 ns makes the window B T = 10^11 x 2 x 10^-7 / 8 = 2,500 bytes,
 * less than one 4 KiB frame: a 64 KiB WRITE goes one packet at a time,
 * each after the ACK of the one before (no switch, so no telemetry, and
 * W stays). The first frame is 82 + 16 + 42 + 4,096 = 4,236 bytes
 * (338,880 ps), the 15 others 4,220 (337,600 ps); each waits 10,000 +
 * 10,240 + 10,000 = 30,240 ps for its ACK: 338,880 + 15 x 337,600 + 16 x
 * 30,240 = 5,886,720 ps. At R = W / T (line rate) pacing adds nothing.
 * Every packet asks for its ACK (16 ACKs, where the HCA's coalescing
 * would ask every 16th: the window would then wait for the timeout).
 */
START_TEST(hpcc_window_one_packet)
{
	struct ibfs_wc wc;

	setup(0);
	set_hpcc(P.h[0], 200 * IBFS_NS);
	set_hpcc(P.h[1], 200 * IBFS_NS);
	post(&A, 2, IBFS_WR_RDMA_WRITE, 1000, 65536, &B, 3000);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(now(),
			  ser(rwire(16 + INT_BYTES, 4096)) +
				  15 * ser(rwire(INT_BYTES, 4096)) +
				  16 * (2 * PROP + ser(ACK_WIRE + INT_BYTES)));
	ck_assert_uint_eq(now(), 5886720);
	ck_assert_uint_eq(eth.inflight_max, 1);
	ck_assert_uint_eq(P.h[1]->st.acks, 16);
	ck_assert_double_eq(ibfs__hpcc_window((struct ibfs_hca_qp *)A.qp),
			    2500);
	ck_assert_uint_eq(qp_rate(0, &A), 100000000000ull);
	ck_assert_mem_eq(B.buf + 3000, A.buf + 1000, 65536);
	teardown();
}
END_TEST

/* Delivers to A's control an ACK of PSN psn with telemetry of n hops. */
static void ack_int(uint32_t psn, int n, const struct ibfs_int_hop *hop)
{
	struct ibfs_hca *h = P.h[0];
	struct ibfs_packet *p = ibfs__hca_packet(h, 0);

	ck_assert_ptr_nonnull(p);
	p->kind = IBFS_PKT_DATA;
	p->dlid = 1;
	p->dest_qp = A.qp->qp_num;
	p->opcode = IBFS_OP_ACK;
	p->aeth.syndrome = IBFS_AETH_ACK | 0x1f;
	p->psn = psn;
	p->xh = IBFS_XH_AETH | IBFS_XH_INT;
	p->intr.nhop = (uint8_t)(n | IBFS_INT_ECHO);
	for (int i = 0; i < n; i++)
		p->intr.hop[i] = hop[i];
	ck_assert_int_eq(h->cc->ops->rx(&h->hp[1], p), 0);
	ibfs__packet_free(P.f, p);
}

/*
 * T = 10 us at 100 Gb/s: W starts at B T = 125,000 bytes, W_AI = R_AI T
 * with R_AI = 10^11 / 2,500 = 4 x 10^7 b/s: 4 x 10^7 x 10^-5 / 8 = 50
 * bytes. No packet has been sent: the next PSN is 100 (CONN.psn).
 *
 * ACK 1 (PSN 100) sets the reference: hop 0 at ts 1 us, busy 0, 2 us of
 * queue; hop 1 at ts 1.5 us, busy 0, no queue. W and U do not move.
 *
 * ACK 2 (PSN 100, which covers lastUpdateSeq 100: Wc moves), 2 us later:
 *   hop 0: busy +1.9 us, queue 1 us: u = min(2, 1) / 10 + 1.9 / 2
 *          = 0.1 + 0.95 = 1.05;
 *   hop 1: busy +1 us, queue 0: u = 0.5;
 *   u = 1.05, tau = 2 us; U = (1 - 0.2) x 1 + 0.2 x 1.05 = 1.01 >= 0.95:
 *   W = Wc / (U / eta) + W_AI = 125,000 x 0.95 / 1.01 + 50
 *     = 117,574.257425... + 50 = 117,624.257425...; Wc = W, stage 0.
 *
 * ACK 3 (PSN 99, before lastUpdateSeq: Wc stays), 2 us later, hop 0
 * busy +1 us and no queue (u = 0 + 0.5), hop 1 the same: U = 0.8 x 1.01
 * + 0.2 x 0.5 = 0.908 < 0.95: W = Wc + W_AI = 117,674.257425...
 *
 * ACK 4 (PSN 100: Wc moves), 1 us later, hop 0 busy +0.5 us: u = 0.5,
 * tau = 1 us: U = 0.9 x 0.908 + 0.1 x 0.5 = 0.8672: W = 117,674.257...
 * again, now Wc too, stage 1.
 */
START_TEST(hpcc_u_and_w_closed_form)
{
	struct ibfs_hop_case {
		uint32_t psn;
		struct ibfs_int_hop h[2];
	} const c[4] = {
		{100, {{1000000, 0, 2000000}, {1500000, 0, 0}}},
		{100, {{3000000, 1900000, 1000000}, {3500000, 1000000, 0}}},
		{99, {{5000000, 2900000, 0}, {5500000, 2000000, 0}}},
		{100, {{6000000, 3400000, 0}, {6500000, 2500000, 0}}},
	};
	const struct ibfs_hca_qp *qp;
	double wc2 = 125000.0 * 0.95 / 1.01 + 50;

	setup(0);
	set_hpcc(P.h[0], T_PS);
	qp = (const struct ibfs_hca_qp *)A.qp;
	ck_assert_double_eq(ibfs__hpcc_window(qp), 125000);
	ck_assert_double_eq_tol(ibfs__hpcc_wai(qp), 50, 1e-9);
	ck_assert_double_eq(ibfs__hpcc_util(qp), 1);
	ack_int(c[0].psn, 2, c[0].h);
	ck_assert_double_eq(ibfs__hpcc_window(qp), 125000);
	ck_assert_double_eq(ibfs__hpcc_util(qp), 1);
	ack_int(c[1].psn, 2, c[1].h);
	ck_assert_double_eq_tol(ibfs__hpcc_util(qp), 1.01, 1e-12);
	ck_assert_double_eq_tol(ibfs__hpcc_window(qp), wc2, 1e-6);
	ck_assert_double_eq_tol(wc2, 117624.257425742, 1e-6);
	ack_int(c[2].psn, 2, c[2].h);
	ck_assert_double_eq_tol(ibfs__hpcc_util(qp), 0.908, 1e-12);
	ck_assert_double_eq_tol(ibfs__hpcc_window(qp), wc2 + 50, 1e-6);
	ack_int(c[3].psn, 2, c[3].h);
	ck_assert_double_eq_tol(ibfs__hpcc_util(qp), 0.8672, 1e-12);
	ck_assert_double_eq_tol(ibfs__hpcc_window(qp), wc2 + 50, 1e-6);
	/* The rate reported: W / T = 117,674.257... x 8 / 10^-5 b/s. */
	ck_assert_uint_eq(qp_rate(0, &A),
			  (uint64_t)((wc2 + 50) * 8 * 1e12 / T_PS));
	teardown();
}
END_TEST

/*
 * maxStage: after 5 additive rounds the next is multiplicative although
 * U < eta (the increase grows). ACKs 10 us = T apart, so tau = T and U
 * is each ACK's u; each covers lastUpdateSeq (PSN 100, nothing sent), so
 * each moves Wc. ACK 1 sets the reference (10 us of queue).
 *   ACK 2: busy +10 us, queue 10 us: u = 1 + 1 = 2: W = 125,000 x 0.95
 *          / 2 + 50 = 59,425 (stage 0).
 *   ACKs 3-7: busy +5 us, no queue: u = 0.5 < 0.95: W = Wc + 50:
 *          59,475, 59,525, 59,575, 59,625, 59,675 (stages 1-5).
 *   ACK 8: stage 5 = maxStage: W = 59,675 x 0.95 / 0.5 + 50 = 113,432.5
 *          (stage 0).
 *   ACK 9: additive again: 113,482.5.
 */
START_TEST(hpcc_max_stage)
{
	const struct ibfs_hca_qp *qp;
	struct ibfs_int_hop h = {0, 0, 10000000};
	static const double w[8] = {59425, 59475, 59525, 59575, 59625,
				    59675, 113432.5, 113482.5};

	setup(0);
	set_hpcc(P.h[0], T_PS);
	qp = (const struct ibfs_hca_qp *)A.qp;
	ack_int(100, 1, &h);
	for (int i = 0; i < 8; i++) {
		h.ts += 10000000;
		h.busy += i ? 5000000 : 10000000;
		h.qdrain = i ? 0 : 10000000;
		ack_int(100, 1, &h);
		ck_assert_double_eq_tol(ibfs__hpcc_util(qp), i ? 0.5 : 2,
					1e-12);
		ck_assert_double_eq_tol(ibfs__hpcc_window(qp), w[i], 1e-6);
	}
	teardown();
}
END_TEST

START_TEST(hpcc_settings_refused)
{
	struct ibfs_hpcc_cfg c;

	setup(0);
	ibfs__hpcc_defaults(&c);
	ck_assert_double_eq(c.eta, 0.95);
	ck_assert_uint_eq(c.max_stage, 5);
	/* No base RTT, eta outside (0, 1], a negative W_AI. */
	ck_assert_int_eq(ibfs__hca_set_hpcc(P.h[0], &c), -1);
	c.base_rtt = T_PS;
	c.eta = 0;
	ck_assert_int_eq(ibfs__hca_set_hpcc(P.h[0], &c), -1);
	c.eta = 1.5;
	ck_assert_int_eq(ibfs__hca_set_hpcc(P.h[0], &c), -1);
	c.eta = 0.95;
	c.wai = -1;
	ck_assert_int_eq(ibfs__hca_set_hpcc(P.h[0], &c), -1);
	ck_assert_ptr_null(P.h[0]->cc);
	/* Not HPCC's: -1 from its readers. */
	ck_assert_double_eq(ibfs__hpcc_window((struct ibfs_hca_qp *)A.qp),
			    -1);
	teardown();
}
END_TEST

static Suite *cc_hpcc_suite(void)
{
	Suite *s = suite_create("cc_hpcc");
	TCase *tc = tcase_create("cc_hpcc");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, hpcc_int_bytes_on_the_wire);
	tcase_add_test(tc, hpcc_window_one_packet);
	tcase_add_test(tc, hpcc_read_and_atomic_leave_no_window);
	tcase_add_test(tc, hpcc_u_and_w_closed_form);
	tcase_add_test(tc, hpcc_max_stage);
	tcase_add_test(tc, hpcc_settings_refused);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(cc_hpcc_suite)
