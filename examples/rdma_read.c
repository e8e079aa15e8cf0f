/* SPDX-License-Identifier: MIT */
/*
 * RDMA READ: the server fills its buffer and publishes its address and
 * rkey; the client reads it whole and checks every byte, then measures the
 * round trip of ITERS small READs, as ib_read_lat.
 * Usage: rdma_read [--fabric FILE] [SIZE] [ITERS]
 */
#include "common.h"
#include "launch.h"

static unsigned size = 1 << 20, iters = 100;

static void args(int argc, char **argv)
{
	if (argc > 1)
		size = (unsigned)strtoul(argv[1], NULL, 10);
	if (argc > 2)
		iters = (unsigned)strtoul(argv[2], NULL, 10);
	if (size < 32 || size > (64u << 20) || !iters)
		size = 0;
}

static uint8_t pattern(unsigned i)
{
	return (uint8_t)(i * 17 + (i >> 10));
}

static void client(int argc, char **argv)
{
	args(argc, argv);
	struct ex_conn c;
	if (!size || ex_connect(&c, size, "client", "server")) {
		ex_fail("client: set-up failed");
		return;
	}
	char ready;
	ibfs_oob_get("server.filled", &ready, 1);
	ibfs_time_ps t0 = ibfs_now();
	if (ex_post(&c, IBFS_WR_RDMA_READ, 0, size, c.remote.addr,
		    IBFS_SEND_SIGNALED) || ex_wait(c.scq)) {
		ex_fail("client: read failed");
		return;
	}
	ibfs_time_ps t1 = ibfs_now();
	for (unsigned i = 0; i < size; i++)
		if (c.buf[i] != pattern(i)) {
			ex_fail("client: the bytes read differ");
			return;
		}
	ibfs_time_ps t2 = ibfs_now();
	for (unsigned k = 0; k < iters; k++)
		if (ex_post(&c, IBFS_WR_RDMA_READ, 0, 32, c.remote.addr,
			    IBFS_SEND_SIGNALED) || ex_wait(c.scq)) {
			ex_fail("client: small read failed");
			return;
		}
	ibfs_time_ps t3 = ibfs_now();
	printf("rdma_read: %u bytes checked in %.3f us (%.2f Gb/s); 32-byte "
	       "READ round trip %.3f us\n",
	       size, (double)(t1 - t0) / 1e6,
	       (double)size * 8 / ((double)(t1 - t0) * 1e-12) / 1e9,
	       (double)(t3 - t2) / iters / 1e6);
	ibfs_oob_put("client.done", "d", 1);
	ex_close(&c);
}

static void server(int argc, char **argv)
{
	args(argc, argv);
	struct ex_conn c;
	if (!size || ex_connect(&c, size, "server", "client")) {
		ex_fail("server: set-up failed");
		return;
	}
	for (unsigned i = 0; i < size; i++)
		c.buf[i] = pattern(i);
	ibfs_oob_put("server.filled", "f", 1);
	/* The memory must stay registered while the client reads it. */
	char done;
	ibfs_oob_get("client.done", &done, 1);
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
