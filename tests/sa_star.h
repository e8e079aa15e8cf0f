/* SPDX-License-Identifier: MIT */
/*
 * The SA tests' star (check_sa*.c), on the in-band SM's star (sm_net.h):
 * switch "sw" (node 0, LID 1) with h1-h4 on its ports 1-4, the SM on h1
 * (LID 2), h2-h4 LIDs 3-5, an SA client on h2. Every GMP is a packet of
 * 290 bytes on VL0 (LRH 8 + BTH 12 + DETH 8 + MAD 256 + ICRC 4 + VCRC 2).
 *
 * One way, HCA to HCA through the switch (cut-through; the ideal profile
 * has no receive pipeline): the header is in at the switch P + ser(8)
 * after the packet left, the switch starts it on after L, and its tail is
 * in at the far HCA P + ser(290) later: W = 2P + ser(8) + L + ser(290).
 * The SA answers IBFS_SA_PROC_TIME (S) after the request's tail is in, so
 * a request sent at t0 is answered at t0 + 2W + S.
 */
#ifndef IBFS_TESTS_SA_STAR_H
#define IBFS_TESTS_SA_STAR_H

#include <stdio.h>
#include <stdlib.h>

#include "hca/sa_client.h"
#include "sm_net.h"
#include "subnet_manager/sa_int.h"

#define W (2 * P + ser(8) + L + ser(SMP_WIRE))
#define S IBFS_SA_PROC_TIME

struct answer {
	int got;
	ibfs_time_t at;
	struct ibfs_sa_mad m;
	struct ibfs_fabric *f;
};

static inline void on_answer(void *ctx, const struct ibfs_sa_mad *resp)
{
	struct answer *a = ctx;

	a->got++;
	a->at = a->f->eq.now;
	a->m = *resp;
}

/* The star up, with an SA client on h2. */
static inline struct ibfs_sa_client *sa_star(struct net *n)
{
	star_make(n, 8, 4);
	net_sweep(n, 1, "minhop", 0, 0);
	struct ibfs_sa_client *c = ibfs__sa_client_new(n->hca[2]);

	ck_assert_ptr_nonnull(c);
	return c;
}

/* Sends req from h2 and runs until the queue is empty. */
static inline void sa_ask(struct net *n, struct ibfs_sa_client *c,
		   struct ibfs_sa_mad *req, struct answer *a)
{
	memset(a, 0, sizeof(*a));
	a->f = n->f;
	ck_assert_int_eq(ibfs__sa_client_send(c, 1, req, on_answer, a), 0);
	ibfs__eq_run(&n->f->eq, IBFS_TIME_NEVER);
	ck_assert_int_eq(a->got, 1);
}

/* tshark's fields of the packets a display filter keeps, or "" when
 * tshark is not installed. */
static inline void tshark(const char *pcap, const char *filter,
			  const char *fields, char *out, size_t n)
{
	char cmd[1024];

	out[0] = 0;
	if (system("command -v tshark >/dev/null 2>&1") != 0)
		return;
	snprintf(cmd, sizeof(cmd),
		 "tshark -r %s -T fields -E separator=, %s -Y '%s' 2>/dev/null"
		 " | head -n 1",
		 pcap, fields, filter);
	FILE *p = popen(cmd, "r");

	ck_assert_ptr_nonnull(p);
	if (!fgets(out, (int)n, p))
		out[0] = 0;
	out[strcspn(out, "\n")] = 0;
	pclose(p);
}

static inline int have_tshark(void)
{
	if (system("command -v tshark >/dev/null 2>&1") == 0)
		return 1;
	/* Said in the test's log, so that a skip is seen, not passed. */
	fprintf(stderr, "tshark is missing: the dissected fields are not "
			"checked (scripts/setup.sh --tests installs it)\n");
	return 0;
}


#endif
