/* SPDX-License-Identifier: MIT */
/*
 * The verbs API from SimGrid actors (the public simulation calls on
 * platforms/two-hca.xml, ConnectX-4 EDR back to back): two actors may
 * block on one CQ, and each wakes with one of the completions, at its
 * picosecond: the same times as the event-driven perftest measures.
 */
#include <stdio.h>
#include <string.h>

#include <ibfsim/ibfsim.h>

#include "check_common.h"
#include "hca/pair.h"

static struct ibfs_hca_end ends[2];
static int got[2];
static ibfs_time_ps woke_at[2];

static const struct ibfs_hca_conn CONN = {
	.mtu = IBFS_MTU_4096, .timeout = 14, .retry_cnt = 7, .rnr_retry = 7,
	.min_rnr_timer = 12, .rd_atomic = 1,
};

/* Both ends are set up by actors on their own hosts. */
static void setup_end(int i)
{
	struct ibfs_context *ctx = ibfs_open_device();
	ck_assert_ptr_nonnull(ctx);
	struct ibfs_qp_cap cap = {.max_send_wr = 8, .max_recv_wr = 8,
				  .max_send_sge = 1, .max_recv_sge = 1};
	ck_assert_int_eq(ibfs__hca_end_open(&ends[i], ctx->hca, IBFS_QPT_RC,
					    4096, &cap, 16), 0);
	uint32_t qpn = ends[i].qp->qp_num, peer;
	char mine[8], theirs[8];
	snprintf(mine, sizeof(mine), "qpn%d", i);
	snprintf(theirs, sizeof(theirs), "qpn%d", 1 - i);
	ck_assert_int_eq(ibfs_oob_put(mine, &qpn, sizeof(qpn)), 0);
	ck_assert_int_eq(ibfs_oob_get(theirs, &peer, sizeof(peer)), 0);
	/* two-hca.xml: node1 gets LID 1, node2 LID 2 (minhop, node order). */
	struct ibfs_port_attr pa;
	ck_assert_int_eq(ibfs_query_port(ctx, 1, &pa), 0);
	ck_assert_int_eq(ibfs__hca_end_connect(&ends[i], (uint16_t)(3 - pa.lid),
					       peer, &CONN), 0);
}

static void waiter(int argc, char **argv)
{
	int k = argv[argc - 1][0] - '0';
	char r;
	ck_assert_int_eq(ibfs_oob_get("ready", &r, 1), 0);
	struct ibfs_wc wc;
	if (ibfs_wait_cq(ends[0].scq, 1, &wc) == 1 &&
	    wc.status == IBFS_WC_SUCCESS) {
		got[k] = (int)wc.wr_id;
		woke_at[k] = ibfs_now();
	}
}

/* Posts a signalled 32-byte RDMA WRITE from the start of src's buffer to
 * the start of dst's; the actors and the direct run post the same one. */
static void post_write32(struct ibfs_hca_end *src,
			 const struct ibfs_hca_end *dst, uint64_t id)
{
	struct ibfs_sge sg = {.addr = (uint64_t)(uintptr_t)src->buf,
			      .length = 32, .lkey = src->mr->lkey};
	struct ibfs_send_wr wr = {.wr_id = id, .sg_list = &sg, .num_sge = 1,
				  .opcode = IBFS_WR_RDMA_WRITE,
				  .send_flags = IBFS_SEND_SIGNALED};
	wr.wr.rdma.remote_addr = (uint64_t)(uintptr_t)dst->buf;
	wr.wr.rdma.rkey = dst->mr->rkey;
	struct ibfs_send_wr *bad;
	ck_assert_int_eq(ibfs_post_send(src->qp, &wr, &bad), 0);
}

static void poster(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	setup_end(0);
	ck_assert_int_eq(ibfs_oob_put("ready", "r", 1), 0);
	/* Let both waiters block first. */
	ibfs_sleep(1 * IBFS_TIME_PS_PER_US);
	for (uint64_t id = 1; id <= 2; id++)
		post_write32(&ends[0], &ends[1], id);
}

static void target(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	setup_end(1);
}

/* The completion time of one 32-byte WRITE posted at 0, computed by the
 * same HCAs driven without SimGrid (the direct exec of the unit tests). */
static ibfs_time_ps expect_first(void)
{
	struct ibfs_hca_pair x;
	struct ibfs_diag d;
	struct ibfs_hca_pair_cfg cfg = {.profile = "connectx-4-edr",
					.data_mode = 1};
	ck_assert_int_eq(ibfs__hca_pair_new(&x, &cfg, &d), 0);
	struct ibfs_hca_end e[2];
	struct ibfs_qp_cap cap = {.max_send_wr = 8, .max_recv_wr = 8,
				  .max_send_sge = 1, .max_recv_sge = 1};
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(ibfs__hca_end_open(&e[i], x.h[i],
						    IBFS_QPT_RC, 4096, &cap,
						    16), 0);
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(ibfs__hca_end_connect(&e[i],
				(uint16_t)(2 - i), e[1 - i].qp->qp_num, &CONN),
				 0);
	post_write32(&e[0], &e[1], 0);
	struct ibfs_wc wc;
	ck_assert_int_eq(ibfs_wait_cq(e[0].scq, 1, &wc), 1);
	ibfs_time_ps t = x.f->eq.now;
	for (int i = 0; i < 2; i++)
		ibfs__hca_end_close(&e[i]);
	ibfs__hca_pair_free(&x);
	return t;
}

START_TEST(two_actors_share_a_cq)
{
	char err[512];
	char *argv[] = {"check_verbs_actors", NULL};
	int argc = 1;
	char path[1024];
	snprintf(path, sizeof(path), "%s/platforms/two-hca.xml",
		 IBFS_SRC("."));
	struct ibfs_simulation *s =
		ibfs_simulation_create(&argc, argv, path, NULL, err,
				       sizeof(err));
	ck_assert_msg(s != NULL, "%s", err);
	char *a0[] = {"0"}, *a1[] = {"1"};
	ck_assert_int_eq(ibfs_simulation_spawn(s, "node2", "target", target,
					       0, NULL), 0);
	ck_assert_int_eq(ibfs_simulation_spawn(s, "node1", "poster", poster,
					       0, NULL), 0);
	ck_assert_int_eq(ibfs_simulation_spawn(s, "node1", "w0", waiter, 1,
					       a0), 0);
	ck_assert_int_eq(ibfs_simulation_spawn(s, "node1", "w1", waiter, 1,
					       a1), 0);
	int rc = ibfs_simulation_run(s);
	ck_assert_int_eq(rc, 0);
	/* Each waiter got one of the two completions. */
	ck_assert_int_eq(got[0] + got[1], 3);
	ck_assert_int_ne(got[0], got[1]);
	/* The first completes exactly as long after its post (at 1 us) as
	 * the same WRITE takes on HCAs driven without SimGrid. */
	ibfs_time_ps first = woke_at[0] < woke_at[1] ? woke_at[0] : woke_at[1];
	ibfs_time_ps second = woke_at[0] < woke_at[1] ? woke_at[1] : woke_at[0];
	ck_assert_uint_eq(first - 1 * IBFS_TIME_PS_PER_US, expect_first());
	ck_assert_uint_gt(second, first);
	ibfs_simulation_destroy(s);
}
END_TEST

static Suite *verbs_actors_suite(void)
{
	Suite *s = suite_create("verbs_actors");
	TCase *tc = tcase_create("actors");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, two_actors_share_a_cq);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(verbs_actors_suite)
