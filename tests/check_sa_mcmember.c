/* SPDX-License-Identifier: MIT */
/*
 * MCMemberRecord at the SA (src/subnet_manager/sa_mcmember.c) and the
 * MFT reprogramming a join or leave makes (sm_mcast.c), on the star of
 * sa_star.h (SM on h1; h2-h4 LIDs 3-5 on switch ports 2-4).
 *
 * A join sent at t0 reaches the SA at t0 + W and is answered S later, at
 * t1 = t0 + W + S; its GetResp is in at h2 at t1 + W. The SM then sends
 * the one MFT block that changes (MLIDs 0xC000-0xC01F, ports 0-15): the
 * SMP waits behind the GetResp on h1's link, leaving at t1 + ser(290),
 * reaches the switch's agent P + ser(8) + L later (its header plus the
 * switch latency), which answers after IBFS_SMA_PROC_TIME (A); the answer
 * is in at h1 P + ser(290) later. So the MFTs are programmed at
 * t1 + ser(290) + P + ser(8) + L + A + P + ser(290).
 */
#include "check_common.h"

#include <string.h>

#include "sa_star.h"
#include "subnet_manager/mcast.h"
#include "subnet_manager/sma.h"

#define MGID1 { 0xff, 0x12, 0x60, 0x1b, [15] = 1 }
#define QKEY 0x1234

/* What the SM's observer heard. */
struct heard {
	int joins, leaves, programmed;
	ibfs_time_t join_at, programmed_at;
	uint16_t mlid;
};

static void on_mc(void *ctx, const struct ibfs_sm_mc_event *e)
{
	struct heard *h = ctx;

	if (e->kind == IBFS_SM_MC_JOIN) {
		h->joins++;
		h->join_at = e->at;
		h->mlid = e->mlid;
	} else if (e->kind == IBFS_SM_MC_LEAVE) {
		h->leaves++;
	} else {
		h->programmed++;
		h->programmed_at = e->at;
	}
}

/* A client on h2, h3 and h4 (index 2-4). */
struct star {
	struct net n;
	struct ibfs_sa_client *c[5];
	struct heard h;
};

static void star_up(struct star *s)
{
	memset(s, 0, sizeof(*s));
	s->c[2] = sa_star(&s->n);
	for (int i = 3; i <= 4; i++) {
		s->c[i] = ibfs__sa_client_new(s->n.hca[i]);
		ck_assert_ptr_nonnull(s->c[i]);
	}
	ibfs__sm_set_mcast_observer(s->n.sm, on_mc, &s->h);
}

static void star_down(struct star *s)
{
	for (int i = 2; i <= 4; i++)
		ibfs__sa_client_free(s->c[i]);
	net_free(&s->n);
}

/* The record of a join of host i (full member unless `state`). */
static struct ibfs_sa_mad mcm(struct star *s, int method, int i,
			      const uint8_t mgid[16], uint8_t state,
			      uint64_t mask)
{
	struct ibfs_sa_mad m = { .method = (uint8_t)method,
				 .attr_id = IBFS_SA_ATTR_MCMEMBER_RECORD,
				 .comp_mask = mask };
	struct ibfs_mcmember_rec r = { .qkey = QKEY, .pkey = 0xffff,
				       .join_state = state };

	memcpy(r.mgid, mgid, 16);
	ibfs__sa_port_gid(s->n.t->nodes[i].ports[1].guid, r.port_gid);
	ibfs__sa_put_mcmember(m.data, &r);
	return m;
}

#define JOIN (IBFS_MCR_MGID | IBFS_MCR_PORT_GID | IBFS_MCR_JOIN_STATE)
#define CREATE                                                       \
	(JOIN | IBFS_MCR_QKEY | IBFS_MCR_TCLASS | IBFS_MCR_PKEY |    \
	 IBFS_MCR_FLOW | IBFS_MCR_SL)

/* Host i sends m; the answer's status, its record in *r. */
static uint16_t ask(struct star *s, int i, struct ibfs_sa_mad m,
		    struct answer *a, struct ibfs_mcmember_rec *r)
{
	sa_ask(&s->n, s->c[i], &m, a);
	ibfs__sa_get_mcmember(a->m.data, r);
	return a->m.status;
}

static uint16_t mft(struct star *s, uint16_t mlid)
{
	return ibfs__switch_get_mft16(s->n.sw[0], mlid, 0);
}

/* The first join creates the group; the timing of the header comment. */
START_TEST(join_creates_group)
{
	struct star s;
	struct answer a;
	struct ibfs_mcmember_rec r;
	static const uint8_t g[16] = MGID1;

	star_up(&s);
	ibfs_time_t t0 = s.n.f->eq.now;
	ibfs_time_t t1 = t0 + W + S;

	ck_assert_uint_eq(ask(&s, 2, mcm(&s, IBFS_SA_SET, 2, g, 1, CREATE),
			      &a, &r), 0);
	ck_assert_uint_eq(a.m.method, IBFS_SA_GETRESP);
	ck_assert_uint_eq(a.m.attr_offset, 7);
	ck_assert_uint_eq(a.at, t1 + W);
	ck_assert_uint_eq(s.h.join_at, t1);
	ck_assert_int_eq(s.h.programmed, 1);
	ck_assert_uint_eq(s.h.programmed_at,
			  t1 + ser(SMP_WIRE) + P + ser(8) + L +
				  IBFS_SMA_PROC_TIME + P + ser(SMP_WIRE));
	ck_assert_int_eq(memcmp(r.mgid, g, 16), 0);
	ck_assert_uint_eq(ibfs__sa_gid_guid(r.port_gid),
			  s.n.t->nodes[2].ports[1].guid);
	ck_assert_uint_eq(r.mlid, 0xC000);
	ck_assert_uint_eq(r.qkey, QKEY);
	ck_assert_uint_eq(r.pkey, 0xffff);
	ck_assert_uint_eq(r.mtu_sel, 2);
	ck_assert_uint_eq(r.mtu, 5);     /* 4096 */
	ck_assert_uint_eq(r.rate, 16);   /* 4x EDR: 100 Gb/s */
	ck_assert_uint_eq(r.life, 18);
	ck_assert_uint_eq(r.join_state, 1);
	ck_assert_uint_eq(r.scope, 2);
	ck_assert_uint_eq(mft(&s, 0xC000), 1u << 2);
	struct ibfs_sa_stats st;

	ibfs__sm_sa_stats(s.n.sm, &st);
	ck_assert_uint_eq(st.mft_blocks, 1);
	star_down(&s);
}
END_TEST

/* A second member, then leaves: the tree follows, the group goes. */
START_TEST(join_get_leave)
{
	struct star s;
	struct answer a;
	struct ibfs_mcmember_rec r;
	static const uint8_t g[16] = MGID1;

	star_up(&s);
	ck_assert_uint_eq(ask(&s, 2, mcm(&s, IBFS_SA_SET, 2, g, 1, CREATE),
			      &a, &r), 0);
	ck_assert_uint_eq(ask(&s, 3, mcm(&s, IBFS_SA_SET, 3, g, 4, JOIN), &a,
			      &r), 0);
	ck_assert_uint_eq(r.mlid, 0xC000);
	ck_assert_uint_eq(r.join_state, 4);
	ck_assert_uint_eq(mft(&s, 0xC000), 1u << 2 | 1u << 3);
	/* Get: the member named, or too many without a PortGID. */
	ck_assert_uint_eq(ask(&s, 4, mcm(&s, IBFS_SA_GET, 3, g, 0,
					 IBFS_MCR_MGID | IBFS_MCR_PORT_GID),
			      &a, &r), 0);
	ck_assert_uint_eq(a.m.method, IBFS_SA_GETRESP);
	ck_assert_uint_eq(r.join_state, 4);
	ck_assert_uint_eq(r.qkey, QKEY);
	ck_assert_uint_eq(ask(&s, 4, mcm(&s, IBFS_SA_GET, 3, g, 0,
					 IBFS_MCR_MGID), &a, &r),
			  IBFS_SA_ERR_TOO_MANY_RECORDS);
	/* h2 leaves: h3 alone; h3 leaves: no group, no entry. */
	ck_assert_uint_eq(ask(&s, 2, mcm(&s, IBFS_SA_DELETE, 2, g, 1, JOIN),
			      &a, &r), 0);
	ck_assert_uint_eq(a.m.method, IBFS_SA_DELETERESP);
	ck_assert_uint_eq(mft(&s, 0xC000), 1u << 3);
	ck_assert_uint_eq(ask(&s, 3, mcm(&s, IBFS_SA_DELETE, 3, g, 4, JOIN),
			      &a, &r), 0);
	ck_assert_uint_eq(mft(&s, 0xC000), 0);
	int ng;

	ibfs__sm_groups(s.n.sm, &ng);
	ck_assert_int_eq(ng, 0);
	ck_assert_uint_eq(ask(&s, 4, mcm(&s, IBFS_SA_GET, 3, g, 0,
					 IBFS_MCR_MGID), &a, &r),
			  IBFS_SA_ERR_NO_RECORDS);
	ck_assert_int_eq(s.h.joins, 2);
	ck_assert_int_eq(s.h.leaves, 2);
	ck_assert_int_eq(s.h.programmed, 4);
	star_down(&s);
}
END_TEST

/* MGID zeros: the SA makes one; the next group takes the next MLID. */
START_TEST(sa_assigned_mgid)
{
	struct star s;
	struct answer a;
	struct ibfs_mcmember_rec r;
	static const uint8_t g[16] = MGID1, zero[16] = { 0 };
	static const uint8_t want[16] = { 0xff, 0x12, 0xa0, 0x1b, 0xfe, 0x80,
					  [15] = 1 };

	star_up(&s);
	ck_assert_uint_eq(ask(&s, 2, mcm(&s, IBFS_SA_SET, 2, g, 1, CREATE),
			      &a, &r), 0);
	ck_assert_uint_eq(ask(&s, 3, mcm(&s, IBFS_SA_SET, 3, zero, 1, CREATE),
			      &a, &r), 0);
	ck_assert_int_eq(memcmp(r.mgid, want, 16), 0);
	ck_assert_uint_eq(r.mlid, 0xC001);
	ck_assert_uint_eq(mft(&s, 0xC001), 1u << 3);
	star_down(&s);
}
END_TEST

/*
 * 33 groups: the 33rd takes MLID 0xC020, in the second MFT block, which
 * the SM must then hold and send too; its leave clears that entry.
 */
START_TEST(second_mft_block)
{
	struct star s;
	struct answer a;
	struct ibfs_mcmember_rec r;
	uint8_t g[16] = MGID1;

	star_up(&s);
	for (int i = 0; i < 33; i++) {
		g[15] = (uint8_t)(i + 1);
		ck_assert_uint_eq(ask(&s, 2 + i % 3,
				      mcm(&s, IBFS_SA_SET, 2 + i % 3, g, 1,
					  CREATE), &a, &r), 0);
		ck_assert_uint_eq(r.mlid, 0xC000 + i);
	}
	/* Group 33 (i = 32) is h4's, on switch port 4. */
	ck_assert_uint_eq(mft(&s, 0xC020), 1u << 4);
	ck_assert_uint_eq(mft(&s, 0xC01F), 1u << 3);
	ck_assert_uint_eq(ask(&s, 4, mcm(&s, IBFS_SA_DELETE, 4, g, 1, JOIN),
			      &a, &r), 0);
	ck_assert_uint_eq(mft(&s, 0xC020), 0);
	ck_assert_uint_eq(s.h.programmed, 34);
	star_down(&s);
}
END_TEST

/* What the SA refuses, with OpenSM's statuses. */
START_TEST(refusals)
{
	struct star s;
	struct answer a;
	struct ibfs_mcmember_rec r;
	static const uint8_t g[16] = MGID1;

	star_up(&s);
	/* A new group without Q_Key, P_Key, SL, TClass, FlowLabel. */
	ck_assert_uint_eq(ask(&s, 2, mcm(&s, IBFS_SA_SET, 2, g, 1, JOIN), &a,
			      &r), IBFS_SA_ERR_INSUFFICIENT_COMPONENTS);
	/* Another port's GID (no proxy joins), NonMember. */
	ck_assert_uint_eq(ask(&s, 2, mcm(&s, IBFS_SA_SET, 3, g, 1, CREATE),
			      &a, &r), IBFS_SA_ERR_REQ_INVALID);
	ck_assert_uint_eq(ask(&s, 2, mcm(&s, IBFS_SA_SET, 2, g, 2, CREATE),
			      &a, &r), IBFS_SA_ERR_REQ_INVALID);
	ck_assert_uint_eq(ask(&s, 2, mcm(&s, IBFS_SA_SET, 2, g, 1, CREATE),
			      &a, &r), 0);
	/* Another Q_Key than the group's; a leave of a non-member. */
	struct ibfs_sa_mad m = mcm(&s, IBFS_SA_SET, 3, g, 1, CREATE);

	m.data[35] ^= 1;
	ck_assert_uint_eq(ask(&s, 3, m, &a, &r), IBFS_SA_ERR_REQ_INVALID);
	ck_assert_uint_eq(ask(&s, 4, mcm(&s, IBFS_SA_DELETE, 4, g, 1, JOIN),
			      &a, &r), IBFS_SA_ERR_REQ_INVALID);
	/* A method the SA has not for it. */
	ck_assert_uint_eq(ask(&s, 4, mcm(&s, 0x14, 4, g, 1, JOIN), &a, &r),
			  IBFS_SA_STATUS_BAD_METHOD);
	ck_assert_int_eq(s.h.joins, 1);
	star_down(&s);
}
END_TEST

static Suite *sa_mcmember_suite(void)
{
	Suite *s = suite_create("sa_mcmember");
	TCase *tc = tcase_create("mcmember");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, join_creates_group);
	tcase_add_test(tc, join_get_leave);
	tcase_add_test(tc, sa_assigned_mgid);
	tcase_add_test(tc, second_mft_block);
	tcase_add_test(tc, refusals);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(sa_mcmember_suite)
