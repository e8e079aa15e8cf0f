/* SPDX-License-Identifier: MIT */
/*
 * RC ping-pong, as ibv_rc_pingpong: the client sends SIZE bytes, the
 * server answers each message with the same bytes, ITERS times. Prints the
 * mean half round trip. Usage: rc_pingpong [--fabric FILE] [ITERS] [SIZE]
 */
#include "common.h"
#include "launch.h"

static unsigned iters = 1000, size = 32;

static void args(int argc, char **argv)
{
	if (argc > 1)
		iters = (unsigned)strtoul(argv[1], NULL, 10);
	if (argc > 2)
		size = (unsigned)strtoul(argv[2], NULL, 10);
	if (!iters || !size || size > (1u << 20))
		iters = 0;
}

/* Sends buf[0, size) inline when it fits, as perftest does. */
static int pp_send(struct ex_conn *c)
{
	unsigned flags = IBFS_SEND_SIGNALED;
	if (size <= 128)
		flags |= IBFS_SEND_INLINE;
	return ex_post(c, IBFS_WR_SEND, 0, size, 0, flags);
}

static void client(int argc, char **argv)
{
	args(argc, argv);
	struct ex_conn c;
	if (!iters || ex_connect(&c, 2 * (size_t)size, "client", "server")) {
		ex_fail("client: set-up failed");
		return;
	}
	char ready;
	ibfs_oob_get("server.ready", &ready, 1);
	for (unsigned i = 0; i < size; i++)
		c.buf[i] = (uint8_t)(i * 31 + 7);
	ibfs_time_ps t0 = ibfs_now();
	for (unsigned k = 0; k < iters; k++) {
		if (ex_post_recv(&c, size, size) || pp_send(&c) ||
		    ex_wait(c.rcq) || ex_wait(c.scq)) {
			ex_fail("client: ping-pong failed");
			return;
		}
	}
	ibfs_time_ps t1 = ibfs_now();
	if (memcmp(c.buf, c.buf + size, size)) {
		ex_fail("client: the echo differs from what was sent");
		return;
	}
	printf("rc_pingpong: %u iterations of %u bytes: %.3f us half round "
	       "trip\n",
	       iters, size, (double)(t1 - t0) / iters / 2 / 1e6);
	ex_close(&c);
}

static void server(int argc, char **argv)
{
	args(argc, argv);
	struct ex_conn c;
	if (!iters || ex_connect(&c, 2 * (size_t)size, "server", "client") ||
	    ex_post_recv(&c, size, size)) {
		ex_fail("server: set-up failed");
		return;
	}
	ibfs_oob_put("server.ready", "r", 1);
	for (unsigned k = 0; k < iters; k++) {
		if (ex_wait(c.rcq)) {
			ex_fail("server: receive failed");
			return;
		}
		memcpy(c.buf, c.buf + size, size);
		if ((k + 1 < iters && ex_post_recv(&c, size, size)) ||
		    pp_send(&c) || ex_wait(c.scq)) {
			ex_fail("server: answer failed");
			return;
		}
	}
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
