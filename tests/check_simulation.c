/* SPDX-License-Identifier: MIT */
/*
 * The public simulation calls: a program builds the skeleton fabric (two
 * HCAs through one switch, routed by minhop), runs a writer and a target
 * written against the public verbs API, and sees the bytes arrive and the
 * completion at the closed-form picosecond.
 */
#include <stdio.h>
#include <string.h>

#include <ibfsim/ibfsim.h>

#include "check_common.h"

static char src_buf[1000], dst_buf[1000];
static uint64_t done_at;
static int status = -1;

struct peer {
	uint32_t qpn;
	uint16_t lid;
	uint64_t addr;
	uint32_t rkey;
};

/* Brings qp to RTS towards p (RC, PSNs 0, MTU 4096). */
static void connect_rc(struct ibfs_qp *qp, const struct peer *p)
{
	struct ibfs_qp_attr a = {.qp_state = IBFS_QPS_INIT, .port_num = 1,
				 .qp_access_flags = IBFS_ACCESS_REMOTE_WRITE |
						    IBFS_ACCESS_LOCAL_WRITE};
	ck_assert_int_eq(ibfs_modify_qp(qp, &a,
					IBFS_QP_STATE | IBFS_QP_PKEY_INDEX |
						IBFS_QP_PORT |
						IBFS_QP_ACCESS_FLAGS),
			 0);
	a = (struct ibfs_qp_attr){.qp_state = IBFS_QPS_RTR,
				  .path_mtu = IBFS_MTU_4096,
				  .dest_qp_num = p->qpn,
				  .ah_attr = {.dlid = p->lid, .port_num = 1},
				  .max_dest_rd_atomic = 1, .min_rnr_timer = 12};
	ck_assert_int_eq(ibfs_modify_qp(qp, &a,
					IBFS_QP_STATE | IBFS_QP_AV |
						IBFS_QP_PATH_MTU |
						IBFS_QP_DEST_QPN |
						IBFS_QP_RQ_PSN |
						IBFS_QP_MAX_DEST_RD_ATOMIC |
						IBFS_QP_MIN_RNR_TIMER),
			 0);
	a = (struct ibfs_qp_attr){.qp_state = IBFS_QPS_RTS, .timeout = 14,
				  .retry_cnt = 7, .rnr_retry = 7,
				  .max_rd_atomic = 1};
	ck_assert_int_eq(ibfs_modify_qp(qp, &a,
					IBFS_QP_STATE | IBFS_QP_TIMEOUT |
						IBFS_QP_RETRY_CNT |
						IBFS_QP_RNR_RETRY |
						IBFS_QP_SQ_PSN |
						IBFS_QP_MAX_QP_RD_ATOMIC),
			 0);
}

static void side(int argc, char **argv)
{
	int writer = !strcmp(argv[0], "writer");
	struct ibfs_context *ctx = ibfs_open_device();
	ck_assert_ptr_nonnull(ctx);
	struct ibfs_pd *pd = ibfs_alloc_pd(ctx);
	char *buf = writer ? src_buf : dst_buf;
	struct ibfs_mr *mr = ibfs_reg_mr(pd, buf, 1000,
					 IBFS_ACCESS_LOCAL_WRITE |
						 IBFS_ACCESS_REMOTE_WRITE);
	struct ibfs_cq *cq = ibfs_create_cq(ctx, 4, NULL, NULL, 0);
	struct ibfs_qp_init_attr ia = {.send_cq = cq, .recv_cq = cq,
				       .qp_type = IBFS_QPT_RC,
				       .cap = {.max_send_wr = 1,
					       .max_recv_wr = 1,
					       .max_send_sge = 1,
					       .max_recv_sge = 1}};
	struct ibfs_qp *qp = ibfs_create_qp(pd, &ia);
	ck_assert_ptr_nonnull(qp);
	struct ibfs_port_attr pa;
	ck_assert_int_eq(ibfs_query_port(ctx, 1, &pa), 0);
	struct peer me = {qp->qp_num, pa.lid, (uintptr_t)buf, mr->rkey}, peer;
	ck_assert_int_eq(ibfs_oob_put(writer ? "w" : "t", &me, sizeof(me)), 0);
	ck_assert_int_eq(ibfs_oob_get(writer ? "t" : "w", &peer, sizeof(peer)),
			 0);
	connect_rc(qp, &peer);
	if (!writer) {
		char go;
		ibfs_oob_put("ready", "", 1);
		ibfs_oob_get("done", &go, 1);
		return;
	}
	char ready;
	ibfs_oob_get("ready", &ready, 1);
	uint64_t t0 = ibfs_now();
	struct ibfs_sge sge = {(uintptr_t)src_buf, 1000, mr->lkey};
	struct ibfs_send_wr wr = {.wr_id = 7, .sg_list = &sge, .num_sge = 1,
				  .opcode = IBFS_WR_RDMA_WRITE,
				  .send_flags = IBFS_SEND_SIGNALED,
				  .wr.rdma = {peer.addr, peer.rkey}},
			    *bad;
	ck_assert_int_eq(ibfs_post_send(qp, &wr, &bad), 0);
	struct ibfs_wc wc;
	ck_assert_int_eq(ibfs_wait_cq(cq, 1, &wc), 1);
	done_at = ibfs_now() - t0;
	status = wc.status;
	ck_assert_uint_eq(wc.wr_id, 7);
	ibfs_oob_put("done", "", 1);
}

/* The skeleton platform in the source tree. */
static void skeleton_path(char *path, size_t n)
{
	snprintf(path, n, "%s/platforms/skeleton.xml", IBFS_SRC(0));
}

/* ibfs_simulation_create with the argument vector of a program given no
 * arguments. */
static struct ibfs_simulation *
sim_create(const char *path, const struct ibfs_simulation_opts *o, char *err,
	   size_t n)
{
	static char a0[] = "check_simulation";
	char *argv[] = {a0, NULL};
	int argc = 1;
	return ibfs_simulation_create(&argc, argv, path, o, err, n);
}

START_TEST(write_through_the_skeleton)
{
	for (int i = 0; i < 1000; i++)
		src_buf[i] = (char)(i * 7 + 3);
	char path[4096], err[512];
	skeleton_path(path, sizeof(path));
	struct ibfs_simulation *s = sim_create(path, NULL, err, sizeof(err));
	ck_assert_msg(s != NULL, "%s", err);
	ck_assert_int_eq(ibfs_simulation_spawn(s, "node1", "writer", side, 0,
					       NULL),
			 0);
	ck_assert_int_eq(ibfs_simulation_spawn(s, "node2", "target", side, 0,
					       NULL),
			 0);
	ck_assert_int_eq(ibfs_simulation_run(s), 0);
	ibfs_simulation_destroy(s);
	ck_assert_int_eq(status, IBFS_WC_SUCCESS);
	ck_assert_mem_eq(src_buf, dst_buf, 1000);
	/* Closed form in tests/run_scenarios.sh: 327,520 ps. */
	ck_assert_uint_eq(done_at, 327520);
}
END_TEST

START_TEST(bad_fabric_names_the_file)
{
	char err[512];
	ck_assert_ptr_null(sim_create("/nonexistent/f.xml", NULL, err,
				      sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/f.xml"));
}
END_TEST

START_TEST(unknown_routing_engine_is_refused)
{
	char path[4096], err[512];
	skeleton_path(path, sizeof(path));
	struct ibfs_simulation_opts o = {.routing = "no-such-engine"};
	ck_assert_ptr_null(sim_create(path, &o, err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "no-such-engine"));
}
END_TEST

static Suite *simulation_suite(void)
{
	Suite *s = suite_create("simulation");
	TCase *tc = tcase_create("public");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, write_through_the_skeleton);
	tcase_add_test(tc, bad_fabric_names_the_file);
	tcase_add_test(tc, unknown_routing_engine_is_refused);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(simulation_suite)
