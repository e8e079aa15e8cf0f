/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the generator tests (check_topo_gen.c, check_topo_gen_direct.c):
 * generate from name/value pairs, check that every port is linked both
 * ways, expect a parameter error with its message.
 */
#ifndef IBFS_TESTS_TOPO_GEN_TEST_H
#define IBFS_TESTS_TOPO_GEN_TEST_H

#include <string.h>

#include "check_common.h"
#include "fabric/topo_gen.h"

/* Generates `kind` from n name/value pairs kv, in "f.xml" line 7. */
static struct ibfs_topology *gen(const char *kind, const char *const *kv,
				 int n, struct ibfs_diag *d, int *rc)
{
	struct ibfs_gen_param p[8];
	for (int i = 0; i < n; i++)
		p[i] = (struct ibfs_gen_param){kv[2 * i], kv[2 * i + 1]};
	struct ibfs_topology *t = ibfs__topo_new("t");
	memset(d, 0, sizeof(*d));
	*rc = ibfs__topo_generate(t, kind, p, n, "", "f.xml", 7, d);
	return t;
}

/* Every port of every node is connected, and links are symmetric. */
static void all_ports_used(const struct ibfs_topology *t)
{
	for (size_t i = 0; i < t->nnodes; i++)
		for (int p = 1; p <= t->nodes[i].nports; p++) {
			const struct ibfs_topo_port *tp = &t->nodes[i].ports[p];
			ck_assert_msg(tp->peer_node >= 0, "%s:%d unconnected",
				      t->nodes[i].id, p);
			const struct ibfs_topo_port *back =
				&t->nodes[tp->peer_node].ports[tp->peer_port];
			ck_assert_int_eq(back->peer_node, (int)i);
			ck_assert_int_eq(back->peer_port, p);
		}
}

static void expect_error(const char *kind, const char *const *kv, int n,
			 const char *msg)
{
	struct ibfs_diag d;
	int rc;
	struct ibfs_topology *t = gen(kind, kv, n, &d, &rc);
	ck_assert_int_eq(rc, -1);
	ck_assert_msg(strstr(d.msg, msg) != NULL, "'%s' lacks '%s'", d.msg,
		      msg);
	ck_assert_msg(strncmp(d.msg, "f.xml:7: ", 9) == 0, "'%s'", d.msg);
	ibfs__topo_free(t);
}

#endif
