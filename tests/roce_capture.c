/* SPDX-License-Identifier: MIT */
/*
 * Writes the Ethernet capture that tests/roce_tshark.sh dissects: two
 * RoCEv2 RNICs back to back (src/hca/roce_link.c, the `ideal` profile,
 * 100 Gb/s, 2 m) under a flow ops that never pauses nor drops, one RC
 * connection (PSNs from 100, path MTU 4096), and in order: an RDMA WRITE
 * of 6,000 bytes (First with RETH, Last), a SEND of 100 bytes, an RDMA
 * READ of 5,000 bytes (Request with RETH; Response First and Last with
 * AETH), each acknowledged; then one PFC frame from host 1's port
 * (priorities 0 and 3 paused for 0xFFFF and 0x1234 quanta). With cnp,
 * both RNICs run DCQCN (src/hca/cc_dcqcn.c, the paper's set) and the
 * WRITE's first packet reaches host 2 CE-marked, which answers with a
 * RoCEv2 CNP (opcode 0x81) to host 1's QP on priority 6.
 *
 *   roce_capture FILE [vlan] [ipv6] [cnp]
 *
 * Exit status 0, or 1 with a message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/capture.h"
#include "hca/cc_roce.h"
#include "hca/pair.h"
#include "ibfsim/verbs.h"

static int may_send(const struct ibfs_port *out, const struct ibfs_packet *p)
{
	(void)out;
	(void)p;
	return 1;
}

static void on_send(struct ibfs_port *out, const struct ibfs_packet *p)
{
	(void)out;
	(void)p;
}

/* cnp: the port whose first arrival is CE-marked (NULL: none). */
static struct ibfs_port *mark_at;

static int on_arrive(struct ibfs_port *in, const struct ibfs_packet *p)
{
	if (in == mark_at) {
		((struct ibfs_packet *)(uintptr_t)p)->fecn = 1;
		mark_at = NULL;
	}
	return 0;
}

static void on_free(struct ibfs_port *in, int vl, uint32_t blocks)
{
	(void)in;
	(void)vl;
	(void)blocks;
}

static int on_tx_idle(struct ibfs_port *out)
{
	(void)out;
	return 0;
}

static const struct ibfs_flow_ops lossless = {
	.name = "test-ethernet",
	.may_send = may_send,
	.on_send = on_send,
	.on_arrive = on_arrive,
	.on_free = on_free,
	.on_tx_idle = on_tx_idle,
};

static int fail(const char *what)
{
	fprintf(stderr, "roce_capture: %s\n", what);
	return 1;
}

static int post(struct ibfs_hca_end *e, enum ibfs_wr_opcode op, uint32_t off,
		uint32_t len, struct ibfs_hca_end *r, uint32_t roff)
{
	struct ibfs_sge sg = {.addr = (uint64_t)(uintptr_t)(e->buf + off),
			      .length = len, .lkey = e->mr->lkey};
	struct ibfs_send_wr wr = {.sg_list = &sg, .num_sge = 1, .opcode = op,
				  .send_flags = IBFS_SEND_SIGNALED};
	struct ibfs_send_wr *bad;
	struct ibfs_wc wc;

	if (r) {
		wr.wr.rdma.remote_addr = (uint64_t)(uintptr_t)(r->buf + roff);
		wr.wr.rdma.rkey = r->mr->rkey;
	}
	if (ibfs_post_send(e->qp, &wr, &bad) ||
	    ibfs_wait_cq(e->scq, 1, &wc) != 1 || wc.status != IBFS_WC_SUCCESS)
		return -1;
	return 0;
}

static int run(struct ibfs_hca_pair *x, struct ibfs_hca_end *a,
	       struct ibfs_hca_end *b)
{
	static const struct ibfs_hca_conn conn = {
		.mtu = IBFS_MTU_4096, .timeout = 14, .retry_cnt = 7,
		.rnr_retry = 7, .rd_atomic = 4, .psn = 100,
	};
	struct ibfs_qp_cap cap = {.max_send_wr = 16, .max_recv_wr = 16,
				  .max_send_sge = 1, .max_recv_sge = 1};
	struct ibfs_sge sg;
	struct ibfs_recv_wr rw = {.sg_list = &sg, .num_sge = 1};
	struct ibfs_recv_wr *bad;

	if (ibfs__hca_end_open(a, x->h[0], IBFS_QPT_RC, 16384, &cap, 16) ||
	    ibfs__hca_end_open(b, x->h[1], IBFS_QPT_RC, 16384, &cap, 16) ||
	    ibfs__hca_end_connect(a, 2, b->qp->qp_num, &conn) ||
	    ibfs__hca_end_connect(b, 1, a->qp->qp_num, &conn))
		return -1;
	sg = (struct ibfs_sge){.addr = (uint64_t)(uintptr_t)b->buf,
			       .length = 1000, .lkey = b->mr->lkey};
	if (ibfs_post_recv(b->qp, &rw, &bad))
		return -1;
	for (int i = 0; i < 16384; i++)
		a->buf[i] = (uint8_t)(i * 7 + 3);
	if (post(a, IBFS_WR_RDMA_WRITE, 0, 6000, b, 8000) ||
	    post(a, IBFS_WR_SEND, 0, 100, NULL, 0) ||
	    post(a, IBFS_WR_RDMA_READ, 6000, 5000, b, 8000))
		return -1;
	return memcmp(a->buf + 6000, a->buf, 5000) ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct ibfs_capture_opts o = {.link = IBFS_CAPTURE_ETH};
	struct ibfs_hca_pair_cfg cfg = {.profile = "ideal", .data_mode = 1};
	static const uint16_t quanta[8] = {0xFFFF, 0, 0, 0x1234};
	struct ibfs_hca_end a, b;
	struct ibfs_hca_pair x;
	struct ibfs_capture *c;
	struct ibfs_diag d;
	struct ibfs_cc_cfg cc = {0};
	char err[256];
	int cnp = 0;

	if (argc < 2)
		return fail("usage: roce_capture FILE [vlan] [ipv6] [cnp]");
	for (int i = 2; i < argc; i++) {
		o.vlan |= !strcmp(argv[i], "vlan");
		o.ipv6 |= !strcmp(argv[i], "ipv6");
		cnp |= !strcmp(argv[i], "cnp");
	}
	if (cnp && ibfs__cc_cfg_init(&cc, "dcqcn", NULL, err, sizeof(err)))
		return fail(err);
	if (ibfs__hca_pair_new(&x, &cfg, &d))
		return fail("no pair");
	for (int i = 0; i < 2; i++) {
		if (ibfs__hca_set_link(x.h[i], IBFS_HCA_LINK_ROCE, o.vlan,
				       o.ipv6) ||
		    ibfs__hca_set_host_id(x.h[i], 1, (uint16_t)(i + 1)))
			return fail("set_link");
		ibfs__fabric_port(x.f, i, 1)->flow = &lossless;
		if (cnp && ibfs__hca_cc_roce_install(x.h[i], &cc))
			return fail("cannot install DCQCN");
	}
	if (cnp)
		mark_at = ibfs__fabric_port(x.f, 1, 1);
	c = ibfs__capture_open(x.f, argv[1], &o);
	if (!c)
		return fail("cannot open the capture");
	if (run(&x, &a, &b))
		return fail("the run failed");
	if (ibfs__capture_pfc(c, ibfs__fabric_port(x.f, 0, 1), x.f->eq.now,
			      0x09, quanta) ||
	    ibfs__capture_close(c))
		return fail("cannot write the capture");
	ibfs__hca_end_close(&a);
	ibfs__hca_end_close(&b);
	ibfs__hca_pair_free(&x);
	return 0;
}
