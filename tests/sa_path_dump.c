/* SPDX-License-Identifier: MIT */
/*
 * A tool for tests/opensm_sa.sh, not a test: brings a fabric file up with
 * the in-band SM on its first HCA and, for each SRC:DST pair of HCA ids,
 * has SRC's SA client ask the SA for the PathRecord to DST (by DLID, as
 * saquery --src-to-dst does), over the simulated wire, then prints the
 * answer as saquery prints a "PathRecord dump", so that the two can be
 * compared line for line.
 *   sa_path_dump FABRIC.xml SRC:DST...
 * The work runs as a Check test (silent), since the network fixture
 * (sm_net.h) asserts with Check, which only runs within a test.
 */
#include "check_common.h"

#include <arpa/inet.h>
#include <stdio.h>

#include "fabric/xml_fabric.h"
#include "sa_star.h"

static int find_hca(const struct ibfs_topology *t, const char *id)
{
	int i = ibfs__topo_find(t, id);

	return i >= 0 && t->nodes[i].type == IBFS_NODE_HCA ? i : -1;
}

static void print_path(const struct ibfs_path_rec *r)
{
	char d[INET6_ADDRSTRLEN], s[INET6_ADDRSTRLEN];

	inet_ntop(AF_INET6, r->dgid, d, sizeof(d));
	inet_ntop(AF_INET6, r->sgid, s, sizeof(s));
	printf("PathRecord dump:\n");
	printf("\t\tdgid....................%s\n", d);
	printf("\t\tsgid....................%s\n", s);
	printf("\t\tdlid....................%u\n", r->dlid);
	printf("\t\tslid....................%u\n", r->slid);
	printf("\t\thop_flow_raw............0x%X\n",
	       (unsigned)r->raw << 31 | r->flow << 8 | r->hop_limit);
	printf("\t\ttclass..................0x%X\n", r->tclass);
	printf("\t\tnum_path_revers.........0x%X\n",
	       (unsigned)(r->reversible << 7 | r->numb_path));
	printf("\t\tpkey....................0x%04X\n", r->pkey);
	printf("\t\tqos_class...............0x%X\n", r->qos_class);
	printf("\t\tsl......................0x%X\n", r->sl);
	printf("\t\tmtu.....................0x%X\n",
	       (unsigned)(r->mtu_sel << 6 | r->mtu));
	printf("\t\trate....................0x%X\n",
	       (unsigned)(r->rate_sel << 6 | r->rate));
	printf("\t\tpkt_life................0x%X\n",
	       (unsigned)(r->life_sel << 6 | r->life));
	printf("\t\tpreference..............0x%X\n", r->preference);
}

static int g_argc;
static char **g_argv;

START_TEST(dump)
{
	struct ibfs_diag d;
	struct net n;
	int sm = -1;

	memset(&n, 0, sizeof(n));
	n.t = ibfs__fabric_xml_load(g_argv[1], &d);
	ck_assert_msg(n.t != NULL, "%s", d.msg);
	for (size_t i = 0; sm < 0 && i < n.t->nnodes; i++)
		if (n.t->nodes[i].type == IBFS_NODE_HCA)
			sm = (int)i;
	net_devices(&n);
	net_sweep(&n, sm, "minhop", 0, 0);
	for (int k = 2; k < g_argc; k++) {
		char src[64], dst[64];

		ck_assert_msg(sscanf(g_argv[k], "%63[^:]:%63s", src, dst) == 2,
			      "%s: not SRC:DST", g_argv[k]);
		int s = find_hca(n.t, src), t = find_hca(n.t, dst);

		ck_assert_msg(s >= 0 && t >= 0, "%s: not HCA ids", g_argv[k]);
		struct ibfs_sa_client *c = ibfs__sa_client_new(n.hca[s]);
		struct ibfs_path_rec r, q = {
			.dlid = ibfs__hca_port_lid(n.hca[t], 1),
		};
		struct ibfs_sa_mad req = { .method = IBFS_SA_GET,
					   .attr_id = IBFS_SA_ATTR_PATH_RECORD,
					   .comp_mask = IBFS_PR_DLID };
		struct answer a;

		ibfs__sa_put_path(req.data, &q);
		sa_ask(&n, c, &req, &a);
		ibfs__sa_get_path(a.m.data, &r);
		if (a.m.status)
			printf("status 0x%04x\n", a.m.status);
		else
			print_path(&r);
		fflush(stdout);
		ibfs__sa_client_free(c);
	}
	net_free(&n);
}
END_TEST

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s FABRIC.xml SRC:DST...\n", argv[0]);
		return 2;
	}
	g_argc = argc;
	g_argv = argv;
	Suite *s = suite_create("sa_path_dump");
	TCase *tc = tcase_create("dump");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, dump);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);

	srunner_run_all(sr, CK_SILENT);
	int failed = srunner_ntests_failed(sr);

	srunner_free(sr);
	return failed ? 1 : 0;
}
