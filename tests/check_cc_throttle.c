/* SPDX-License-Identifier: MIT */
/*
 * Congestion control at the HCAs (hca/cc_throttle.c, IBA A10.3) on the
 * back-to-back pair with the ideal profile (hca_fixture.h: EDR 4x, 80 ps a
 * byte, 10 ns of cable, no processing time).
 *
 * - The CCTI of a flow rises by CCTI_Increase on each BECN, up to the
 *   table's last index, and falls by one at every multiple of CCTI_Timer
 *   (x 1.024 us) counted from when CC was set, not below CCTI_Min.
 * - The injection rate delay after a request packet of w wire bytes is
 *   (ser(w) x CCT_Multiplier) >> CCT_Shift of the entry at the CCTI: with
 *   the ideal profile the packets of a WRITE otherwise leave back to back,
 *   so packet i + 1 starts exactly ser(w_i) + delay(w_i) after packet i.
 * - A FECN-marked RC request is answered by a BECN in its ACK, which
 *   arrives when the ACK would anyway; a FECN-marked UD SEND by a CNP to
 *   its source QP. B's receive marks the packets here, as a switch would
 *   (a wrapper around its device operations).
 */
#include "check_common.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hca/hca_int.h"
#include "hca/pair.h"
#include "ibfsim/verbs.h"

#include "hca_fixture.h"

#define TICK 1024000ULL /* 1.024 us in ps */

static struct ibfs_hca_qp *hqp(struct side *s)
{
	return (struct ibfs_hca_qp *)s->qp;
}

/* A CA setting for SL 0 (and SL 1), with a table of n entries. */
static struct ibfs_ca_cc ca_setting(uint16_t timer, uint8_t inc, uint16_t min,
				    int n)
{
	struct ibfs_ca_cc c = {.control_map = 0x3, .ncct = n};

	for (int sl = 0; sl < 2; sl++)
		c.sl[sl] = (struct ibfs_ca_cc_sl){.ccti_timer = timer,
						  .ccti_increase = inc,
						  .ccti_min = min};
	/* Entry i: shift 2, multiplier 3i + 1 (entry 0: no delay). */
	for (int i = 1; i < n; i++)
		c.cct[i] = (uint16_t)(2 << 14 | (3 * i + 1));
	return c;
}

/* A CNP (BECN set) to side s's QP on SL sl, handed to its HCA now. */
static void becn_to(struct side *s, uint8_t sl)
{
	struct ibfs_hca *h = hqp(s)->hca;
	struct ibfs_packet *p = ibfs__hca_packet(h, 0);

	ck_assert_ptr_nonnull(p);
	p->opcode = IBFS_OP_CNP;
	p->becn = 1;
	p->dlid = h->hp[1].lid;
	p->pkey = 0xffff;
	p->sl = sl;
	p->dest_qp = s->qp->qp_num;
	ck_assert_int_eq(ibfs__cc_rx(&h->hp[1], p), 1);
	ibfs__packet_free(h->dev.fab, p);
}

/* Probes: the CCTI of A's QP at given times. */
#define NPROBE 16
static ibfs_time_t probe_at[NPROBE];
static uint16_t probe_ccti[NPROBE];

static void probe_ev(void *obj, uint64_t arg)
{
	(void)obj;
	probe_ccti[arg] = ibfs__hca_cc_ccti(hqp(&A), 0);
}

static void becn_ev(void *obj, uint64_t arg)
{
	(void)obj;
	becn_to(&A, (uint8_t)arg);
}

START_TEST(ccti_rises_and_falls)
{
	setup_rc();
	/* Timer 3 x 1.024 us, increase 2, min 1, 8 entries (limit 7). */
	struct ibfs_ca_cc c = ca_setting(3, 2, 1, 8);
	const ibfs_time_t T = 3 * TICK;

	ck_assert_int_eq(ibfs__hca_set_cc(P.h[0], &c), 0);
	ck_assert_uint_eq(ibfs__hca_cc_ccti(hqp(&A), 0), 1); /* the min */
	struct ibfs_eq *q = &P.f->eq;
	/* BECNs at 1 and 2 us: 1 + 2 = 3, then 5 (no tick between). */
	ibfs__eq_schedule(q, 1000000, becn_ev, NULL, 0);
	ibfs__eq_schedule(q, 2000000, becn_ev, NULL, 0);
	ibfs_time_t times[] = {2000001, T - 1, T, 2 * T - 1, 2 * T, 3 * T,
			       4 * T, 5 * T, 7 * T};
	static const uint16_t want[] = {5, 5, 4, 4, 3, 2, 1, 1, 1};
	int n = (int)(sizeof(times) / sizeof(times[0]));

	for (int i = 0; i < n; i++) {
		probe_at[i] = times[i];
		ibfs__eq_schedule(q, times[i], probe_ev, NULL, (uint64_t)i);
	}
	/* Then four BECNs at 8T: capped at the last index, 7. */
	for (int i = 0; i < 4; i++)
		ibfs__eq_schedule(q, 8 * T, becn_ev, NULL, 0);
	probe_at[n] = 8 * T + 1;
	ibfs__eq_schedule(q, 8 * T + 1, probe_ev, NULL, (uint64_t)n);
	ibfs__eq_run(q, IBFS_TIME_NEVER);
	for (int i = 0; i < n; i++)
		ck_assert_msg(probe_ccti[i] == want[i],
			      "CCTI at %llu ps: %u, want %u",
			      (unsigned long long)probe_at[i], probe_ccti[i],
			      want[i]);
	ck_assert_uint_eq(probe_ccti[n], 7);
	ck_assert_uint_eq(P.h[0]->st.cnp_rx, 6);
	ck_assert_uint_eq(P.h[0]->st.becn_rx, 6);
	teardown();
}
END_TEST

/* Start times of the data packets leaving A's port. */
struct starts {
	struct ibfs_observer obs;
	const struct ibfs_port *port;
	ibfs_time_t t[8];
	uint32_t wire[8];
	int n;
};

static void starts_tx(void *ctx, const struct ibfs_port *out,
		      const struct ibfs_packet *p, ibfs_time_t start)
{
	struct starts *s = ctx;

	if (out != s->port || p->kind != IBFS_PKT_DATA || s->n == 8)
		return;
	s->t[s->n] = start;
	s->wire[s->n++] = p->wire_bytes;
}

/*
 * A WRITE of three 4 KiB packets from A with A's flow at CCTI c (c BECNs
 * of increase 1, no timer); sl_becn: the SL the BECNs come on. Returns
 * the starts.
 */
static void write3(struct starts *s, int cc, int per_sl, int c,
		   uint8_t sl_becn)
{
	setup_rc();
	memset(s, 0, sizeof(*s));
	s->obs = (struct ibfs_observer){.on_tx = starts_tx, .ctx = s};
	s->port = P.h[0]->hp[1].port;
	ibfs__fabric_observe(P.f, &s->obs);
	if (cc) {
		struct ibfs_ca_cc set = ca_setting(0, 1, 0, 16);

		set.port_control = (uint16_t)per_sl;
		ck_assert_int_eq(ibfs__hca_set_cc(P.h[0], &set), 0);
		for (int i = 0; i < c; i++)
			becn_to(&A, sl_becn);
	}
	post_send(&A, 1, IBFS_WR_RDMA_WRITE, 0, 3 * 4096, raddr(&B, 0),
		  B.mr->rkey, IBFS_SEND_SIGNALED);
	struct ibfs_wc wc;

	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_int_eq(s->n, 3);
	ck_assert_uint_eq(s->wire[0], wire(16, 4096));
	ck_assert_uint_eq(s->wire[1], wire(0, 4096));
	/* The ACK follows the last packet as without CC. */
	ck_assert_uint_eq(now(), s->t[2] + ser(wire(0, 4096)) + PROP +
					 ser(FCP) + ser(ACK_BYTES) + PROP);
}

/* The delay of entry c of ca_setting's table after w wire bytes. */
static ibfs_time_t ird(int c, uint64_t w)
{
	return c ? (ser(w) * (uint64_t)(3 * c + 1)) >> 2 : 0;
}

static void gaps_are(const struct starts *s, int c)
{
	for (int i = 0; i < 2; i++)
		ck_assert_msg(s->t[i + 1] - s->t[i] ==
				      ser(s->wire[i]) + ird(c, s->wire[i]),
			      "gap %d: %llu ps, want %llu + %llu", i,
			      (unsigned long long)(s->t[i + 1] - s->t[i]),
			      (unsigned long long)ser(s->wire[i]),
			      (unsigned long long)ird(c, s->wire[i]));
}

START_TEST(gap_without_cc)
{
	struct starts s;

	write3(&s, 0, 0, 0, 0);
	gaps_are(&s, 0);
	teardown();
}
END_TEST

static const int cctis[] = {0, 1, 2, 5, 15};

/* Per QP: entry c = shift 2, multiplier 3c + 1, exact to the ps. */
START_TEST(gap_per_qp_exact)
{
	struct starts s;
	int c = cctis[_i];

	write3(&s, 1, 0, c, 0);
	ck_assert_uint_eq(ibfs__hca_cc_ccti(hqp(&A), 0), c);
	gaps_are(&s, c);
	/* e.g. c = 2: (331,040 x 7) >> 2 = 579,320 ps after the First. */
	if (c == 2)
		ck_assert_uint_eq(s.t[1] - s.t[0], 331040 + 579320);
	teardown();
}
END_TEST

/*
 * On FDR 4x a byte takes 440/3 ps, so a packet's time is rounded up to
 * the ps and the delay's shift drops a fraction: the First of 4,138 bytes
 * takes ceil(4,138 x 440 / 3) = 606,907 ps, and entry 1 (shift 3,
 * multiplier 5 here) delays the next by (606,907 x 5) >> 3 = 379,316 ps,
 * not the 379,315 of (606,907 >> 3) x 5.
 */
START_TEST(gap_fdr_rounding)
{
	struct ibfs_diag d;
	struct ibfs_hca_pair_cfg cfg = {.profile = "ideal", .mtu = 4096,
					.speed = IBFS_SPEED_FDR,
					.have_speed = 1};
	struct starts s = {0};
	struct ibfs_ca_cc c = ca_setting(0, 1, 0, 2);

	c.cct[1] = 3 << 14 | 5;
	ck_assert_int_eq(ibfs__hca_pair_new(&P, &cfg, &d), 0);
	side_open(&A, P.h[0], IBFS_QPT_RC);
	side_open(&B, P.h[1], IBFS_QPT_RC);
	qp_connect(&A, 2, B.qp->qp_num, &CONN_DEFAULT);
	qp_connect(&B, 1, A.qp->qp_num, &CONN_DEFAULT);
	s.obs = (struct ibfs_observer){.on_tx = starts_tx, .ctx = &s};
	s.port = P.h[0]->hp[1].port;
	ibfs__fabric_observe(P.f, &s.obs);
	ck_assert_int_eq(ibfs__hca_set_cc(P.h[0], &c), 0);
	becn_to(&A, 0);
	post_send(&A, 1, IBFS_WR_RDMA_WRITE, 0, 3 * 4096, raddr(&B, 0),
		  B.mr->rkey, IBFS_SEND_SIGNALED);
	struct ibfs_wc wc;

	wait1(A.scq, &wc);
	ck_assert_int_eq(s.n, 3);
	ck_assert_uint_eq(s.t[1] - s.t[0], 606907 + 379316);
	/* A Middle: 4,122 bytes, 604,560 ps, then 377,850 ps. */
	ck_assert_uint_eq(s.t[2] - s.t[1], 604560 + 377850);
	teardown();
}
END_TEST

/* Per SL (Port_Control bit 0): the port's SL 0 flow; SL 1's BECNs do not
 * slow SL 0. */
START_TEST(gap_per_sl)
{
	struct starts s;

	write3(&s, 1, 1, 3, 0);
	ck_assert_uint_eq(ibfs__hca_cc_ccti(hqp(&A), 0), 3);
	gaps_are(&s, 3);
	teardown();
	write3(&s, 1, 1, 3, 1);
	ck_assert_uint_eq(ibfs__hca_cc_ccti(hqp(&A), 0), 0);
	ck_assert_uint_eq(ibfs__hca_cc_ccti(hqp(&A), 1), 3);
	gaps_are(&s, 0);
	teardown();
}
END_TEST

/* B marks the packets it receives with FECN, as a switch would. */
static struct ibfs_device_ops marking_ops;
static const struct ibfs_device_ops *plain_ops;
static int to_mark;

static void marking_receive(struct ibfs_device *dev, struct ibfs_port *in,
			    struct ibfs_packet *p)
{
	if (to_mark > 0 && p->kind == IBFS_PKT_DATA) {
		to_mark--;
		p->fecn = 1;
	}
	plain_ops->receive(dev, in, p);
}

static void mark_at_b(int n)
{
	plain_ops = P.h[1]->dev.ops;
	marking_ops = *plain_ops;
	marking_ops.receive = marking_receive;
	P.h[1]->dev.ops = &marking_ops;
	to_mark = n;
}

static void unmark_b(void)
{
	P.h[1]->dev.ops = plain_ops;
}

START_TEST(becn_in_ack)
{
	setup_rc();
	struct ibfs_ca_cc c = ca_setting(0, 3, 0, 8);

	ck_assert_int_eq(ibfs__hca_set_cc(P.h[0], &c), 0);
	mark_at_b(1);
	post_send(&A, 1, IBFS_WR_RDMA_WRITE, 0, 32, raddr(&B, 100),
		  B.mr->rkey, IBFS_SEND_SIGNALED);
	struct ibfs_wc wc;

	wait1(A.scq, &wc);
	/* The ACK's time is unchanged (write_one_packet_closed_form). */
	ck_assert_uint_eq(now(), ser(wire(16, 32)) + PROP + ser(FCP) +
					 ser(ACK_BYTES) + PROP);
	ck_assert_uint_eq(P.h[1]->st.fecn_rx, 1);
	ck_assert_uint_eq(P.h[1]->st.becn_tx, 1);
	ck_assert_uint_eq(P.h[1]->st.cnp_tx, 0);
	ck_assert_uint_eq(P.h[0]->st.becn_rx, 1);
	ck_assert_uint_eq(P.h[0]->st.cnp_rx, 0);
	ck_assert_uint_eq(ibfs__hca_cc_ccti(hqp(&A), 0), 3);
	/* The next ACK carries none. */
	post_send(&A, 2, IBFS_WR_RDMA_WRITE, 0, 32, raddr(&B, 100),
		  B.mr->rkey, IBFS_SEND_SIGNALED);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(P.h[1]->st.becn_tx, 1);
	ck_assert_uint_eq(P.h[0]->st.becn_rx, 1);
	unmark_b();
	teardown();
}
END_TEST

/* Without CC set at the source, the BECN is counted and changes nothing. */
START_TEST(becn_without_cc_at_source)
{
	setup_rc();
	mark_at_b(1);
	post_send(&A, 1, IBFS_WR_RDMA_WRITE, 0, 32, raddr(&B, 100),
		  B.mr->rkey, IBFS_SEND_SIGNALED);
	struct ibfs_wc wc;

	wait1(A.scq, &wc);
	ck_assert_uint_eq(P.h[0]->st.becn_rx, 1);
	ck_assert_uint_eq(ibfs__hca_cc_ccti(hqp(&A), 0), 0);
	ck_assert_uint_eq(ibfs__cc_until(hqp(&A)), 0);
	unmark_b();
	teardown();
}
END_TEST

/* The CNP leaving B: its start and header. */
static ibfs_time_t cnp_start;
static struct ibfs_packet cnp_seen;

static void cnp_tx(void *ctx, const struct ibfs_port *out,
		   const struct ibfs_packet *p, ibfs_time_t start)
{
	(void)ctx;
	(void)out;
	if (p->opcode == IBFS_OP_CNP) {
		cnp_start = start;
		cnp_seen = *p;
	}
}

START_TEST(cnp_for_ud)
{
	setup_ud(0x1111);
	struct ibfs_ca_cc c = ca_setting(0, 2, 0, 8);
	struct ibfs_observer obs = {.on_tx = cnp_tx};

	ibfs__fabric_observe(P.f, &obs);
	cnp_start = 0;
	ck_assert_int_eq(ibfs__hca_set_cc(P.h[0], &c), 0);
	mark_at_b(1);
	struct ibfs_ah_attr aa = {.dlid = 2, .sl = 1, .port_num = 1};
	struct ibfs_ah *ah = ibfs_create_ah(A.pd, &aa);

	ck_assert_ptr_nonnull(ah);
	post_recv(&B, 40, 0, 2048 + 40);
	struct ibfs_sge sg = {.addr = raddr(&A, 0), .length = 2048,
			      .lkey = A.mr->lkey};
	struct ibfs_send_wr wr = {.wr_id = 3, .sg_list = &sg, .num_sge = 1,
				  .opcode = IBFS_WR_SEND,
				  .send_flags = IBFS_SEND_SIGNALED};
	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = B.qp->qp_num;
	wr.wr.ud.remote_qkey = 0x1111;
	struct ibfs_send_wr *bad = NULL;

	ck_assert_int_eq(ibfs_post_send(A.qp, &wr, &bad), 0);
	struct ibfs_wc wc;

	wait1(B.rcq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ibfs__direct_exec_drain(&P.dx);
	ck_assert_uint_eq(P.h[1]->st.fecn_rx, 1);
	ck_assert_uint_eq(P.h[1]->st.cnp_tx, 1);
	ck_assert_uint_eq(P.h[1]->st.becn_tx, 0);
	ck_assert_uint_eq(P.h[0]->st.cnp_rx, 1);
	ck_assert_uint_eq(P.h[0]->st.becn_rx, 1);
	/* The CNP: to A's QP and LID, on the SEND's SL, 24 bytes + VCRC,
	 * leaving B when B has the SEND's tail (after its FCP). */
	ck_assert_uint_eq(cnp_seen.dest_qp, A.qp->qp_num);
	ck_assert_uint_eq(cnp_seen.dlid, 1);
	ck_assert_uint_eq(cnp_seen.slid, 2);
	ck_assert_uint_eq(cnp_seen.sl, 1);
	ck_assert_uint_eq(cnp_seen.becn, 1);
	ck_assert_uint_eq(cnp_seen.fecn, 0);
	ck_assert_uint_eq(cnp_seen.wire_bytes, 8 + 12 + 4 + 2);
	ck_assert_uint_eq(cnp_start, ser(wire(8, 2048)) + PROP + ser(FCP));
	/* A's QP (per QP, SL 1's setting) went up by 2. */
	ck_assert_uint_eq(ibfs__hca_cc_ccti(hqp(&A), 1), 2);
	unmark_b();
	ibfs_destroy_ah(ah);
	teardown();
}
END_TEST

/* Bad tables are refused; NULL turns CC off. */
START_TEST(set_cc_errors)
{
	setup_rc();
	struct ibfs_ca_cc c = ca_setting(1, 1, 0, 8);

	c.ncct = IBFS_CCT_MAX + 1;
	ck_assert_int_eq(ibfs__hca_set_cc(P.h[0], &c), -1);
	c.ncct = -1;
	ck_assert_int_eq(ibfs__hca_set_cc(P.h[0], &c), -1);
	ck_assert_ptr_null(P.h[0]->cc);
	c.ncct = 8;
	ck_assert_int_eq(ibfs__hca_set_cc(P.h[0], &c), 0);
	ck_assert_ptr_nonnull(P.h[0]->cc);
	ck_assert_int_eq(ibfs__hca_set_cc(P.h[0], NULL), 0);
	ck_assert_ptr_null(P.h[0]->cc);
	teardown();
}
END_TEST

static Suite *cc_throttle_suite(void)
{
	Suite *s = suite_create("cc_throttle");
	TCase *tc = tcase_create("throttle");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, ccti_rises_and_falls);
	tcase_add_test(tc, gap_without_cc);
	tcase_add_loop_test(tc, gap_per_qp_exact, 0,
			    sizeof(cctis) / sizeof(cctis[0]));
	tcase_add_test(tc, gap_fdr_rounding);
	tcase_add_test(tc, gap_per_sl);
	tcase_add_test(tc, becn_in_ack);
	tcase_add_test(tc, becn_without_cc_at_source);
	tcase_add_test(tc, cnp_for_ud);
	tcase_add_test(tc, set_cc_errors);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(cc_throttle_suite)
