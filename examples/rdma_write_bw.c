/* SPDX-License-Identifier: MIT */
/*
 * RDMA WRITE bandwidth, as ib_write_bw: the client writes COUNT messages
 * of SIZE bytes into the server's buffer, keeping DEPTH writes in flight,
 * then tells the server with a SEND; the server checks the bytes. Prints
 * the payload rate in Gb/s (10^9 bit/s).
 * Usage: rdma_write_bw [--fabric FILE] [COUNT] [SIZE]
 */
#include "common.h"
#include "launch.h"

enum { DEPTH = 64 };
static unsigned count = 1000, size = 65536;

static void args(int argc, char **argv)
{
	if (argc > 1)
		count = (unsigned)strtoul(argv[1], NULL, 10);
	if (argc > 2)
		size = (unsigned)strtoul(argv[2], NULL, 10);
	if (!count || !size || size > (64u << 20))
		count = 0;
}

static void client(int argc, char **argv)
{
	args(argc, argv);
	struct ex_conn c;
	if (!count || ex_connect(&c, size, "client", "server")) {
		ex_fail("client: set-up failed");
		return;
	}
	for (unsigned i = 0; i < size; i++)
		c.buf[i] = (uint8_t)(i ^ (i >> 8) ^ 0x3c);
	char ready;
	ibfs_oob_get("server.ready", &ready, 1);
	ibfs_time_ps t0 = ibfs_now();
	unsigned posted = 0, done = 0;
	while (done < count) {
		while (posted < count && posted - done < DEPTH) {
			if (ex_post(&c, IBFS_WR_RDMA_WRITE, 0, size,
				    c.remote.addr, IBFS_SEND_SIGNALED)) {
				ex_fail("client: post failed");
				return;
			}
			posted++;
		}
		if (ex_wait(c.scq)) {
			ex_fail("client: write failed");
			return;
		}
		done++;
	}
	ibfs_time_ps t1 = ibfs_now();
	if (ex_post(&c, IBFS_WR_SEND, 0, 4, 0, IBFS_SEND_SIGNALED) ||
	    ex_wait(c.scq)) {
		ex_fail("client: final send failed");
		return;
	}
	double gbps = (double)count * size * 8 / ((double)(t1 - t0) * 1e-12) /
		      1e9;
	printf("rdma_write_bw: %u writes of %u bytes: %.2f Gb/s\n", count,
	       size, gbps);
	ex_close(&c);
}

static void server(int argc, char **argv)
{
	args(argc, argv);
	struct ex_conn c;
	if (!count || ex_connect(&c, size, "server", "client")) {
		ex_fail("server: set-up failed");
		return;
	}
	uint8_t *note = calloc(1, 4);
	struct ibfs_mr *nmr = ibfs_reg_mr(c.pd, note, 4,
					  IBFS_ACCESS_LOCAL_WRITE);
	struct ibfs_sge sg = {.addr = (uint64_t)(uintptr_t)note, .length = 4,
			      .lkey = nmr->lkey};
	struct ibfs_recv_wr wr = {.sg_list = &sg, .num_sge = 1};
	struct ibfs_recv_wr *bad;
	ibfs_post_recv(c.qp, &wr, &bad);
	ibfs_oob_put("server.ready", "r", 1);
	if (ex_wait(c.rcq)) {
		ex_fail("server: no final message");
		return;
	}
	for (unsigned i = 0; i < size; i++)
		if (c.buf[i] != (uint8_t)(i ^ (i >> 8) ^ 0x3c)) {
			ex_fail("server: the written bytes differ");
			return;
		}
	printf("rdma_write_bw: server checked %u bytes\n", size);
	ibfs_dereg_mr(nmr);
	free(note);
	ex_close(&c);
}

int main(int argc, char **argv)
{
	static const struct ex_actor actors[] = {
		{"node2", "server", server},
		{"node1", "client", client},
	};
	return ex_launch(argc, argv, actors, 2);
}
