/* SPDX-License-Identifier: MIT */
/*
 * Writes a small timeline for tests/trace.sh, which reads it with an
 * independent JSON parser (Python's): two endpoints a and b joined by 1 km
 * of 4x EDR cable (100 Gb/s, so a byte takes 80 ps; 5 us of propagation)
 * and an 8 KiB input buffer (128 credits of 64 bytes, IBA 7.9.4.1); a
 * sends 8 packets of 2046 wire bytes (LRH 8 + BTH 12 + 2020 + ICRC 4 +
 * VCRC 2), four per credit round trip, so its port stalls once. Then the
 * calls the HCA and the subnet manager make: one work request on QP 3 of
 * a and its completion, and a sweep on b.
 * Usage: trace_demo FILE; exit status 0, 1 with a message on stderr when
 * the timeline cannot be made, 2 for a wrong command line.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fabric/endpoint.h"
#include "fabric/trace.h"

int main(int argc, char **argv)
{
	struct ibfs_diag d;

	if (argc != 2) {
		fprintf(stderr, "usage: trace_demo FILE\n");
		return 2;
	}
	struct ibfs_topology *t = ibfs__topo_new("demo");

	t->def.buffer = 8 * 1024;
	if (ibfs__topo_add_node(t, "a", IBFS_NODE_HCA, 1, 0, &d) != 0 ||
	    ibfs__topo_add_node(t, "b", IBFS_NODE_HCA, 1, 0, &d) != 1 ||
	    ibfs__topo_add_link(t, 0, 1, 1, 1, IBFS_SPEED_EDR, 4, 1000000, 0,
				&d) < 0) {
		fprintf(stderr, "trace_demo: %s\n", d.msg);
		return 1;
	}
	struct ibfs_fabric *f = ibfs__fabric_new(t, 1, 0);
	struct ibfs_endpoint *a = ibfs__endpoint_create(f, 0);
	struct ibfs_endpoint *b = ibfs__endpoint_create(f, 1);

	ibfs__endpoint_set_lid(a, 1, 0);
	ibfs__endpoint_set_lid(b, 2, 0);
	struct ibfs_ep_flow_spec s = {.dlid = 2, .lnh = 2, .payload = 2020,
				      .count = 8};

	if (ibfs__endpoint_add_flow(a, &s, &d) < 0) {
		fprintf(stderr, "trace_demo: %s\n", d.msg);
		return 1;
	}
	struct ibfs_trace *tr = ibfs__trace_open(f, argv[1], NULL);

	if (!tr) {
		fprintf(stderr, "trace_demo: %s: %s\n", argv[1],
			strerror(errno));
		return 1;
	}
	ibfs__eq_run(&f->eq, IBFS_TIME_NEVER);
	ibfs__trace_wr(tr, 0, 3, 11, "RDMA_WRITE", 4096, 2 * IBFS_US);
	ibfs__trace_cqe(tr, 0, 3, 11, "RDMA_WRITE", "SUCCESS", 4096,
			2 * IBFS_US, 13 * IBFS_US + 1);
	ibfs__trace_sm_sweep(tr, 1, "heavy sweep", 0, IBFS_US);
	int rc = ibfs__trace_close(tr);

	if (rc < 0)
		fprintf(stderr, "trace_demo: %s: %s\n", argv[1],
			strerror(errno));
	ibfs__endpoint_destroy(a);
	ibfs__endpoint_destroy(b);
	ibfs__fabric_free(f);
	ibfs__topo_free(t);
	return rc < 0 ? 1 : 0;
}
