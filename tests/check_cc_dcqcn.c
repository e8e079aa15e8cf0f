/* SPDX-License-Identifier: MIT */
/*
 * DCQCN (src/hca/cc_dcqcn.c; Zhu et al., SIGCOMM 2015, section 3) on two
 * RoCEv2 RNICs back to back (roce_pair.h: 100 Gb/s, n bytes take n x 80
 * ps, 10 ns of cable, no HCA delays), and the registry of RoCEv2 controls
 * it is chosen from (src/hca/cc_roce.h). A test flow ops marks chosen
 * frames CE as they reach a port (p->fecn, IP ECN = CE under Ethernet)
 * and records when frames leave each port; CNPs are also handed to the
 * reaction point directly, at chosen times, to walk its equations.
 *
 * Wire bytes (roce_pair.h): a WRITE First 82 + 16 (RETH) + 4096 = 4,194;
 * a WRITE Middle or Last 82 + 4096 = 4,178; a CNP 82 + 16 reserved bytes
 * = 98 (7,840 ps).
 */
#include "roce_pair.h"

#include "hca/cc_dcqcn.h"
#include "hca/cc_roce.h"

#define US IBFS_US
#define G 1000000000ull
#define LINE (100 * G)
#define CNP_WIRE (ROCE_OVER + 16)

/* What the flow ops mark and what they saw. */
static struct {
	int mark;            /* which arrivals at `at` get CE */
	int at;              /* the node whose arrivals are marked */
	uint32_t nth;        /* MARK_NTH: this arrival (from 1) */
	uint32_t arrived;    /* arrivals at `at` */
	ibfs_time_t tx[2][256]; /* data frames' starts, per node */
	uint32_t ntx[2];
	ibfs_time_t cnp[256];   /* CNPs' starts */
	uint32_t ncnp;
	uint8_t cnp_vl;
} M;

enum { MARK_NONE, MARK_NTH, MARK_ALL, MARK_READ_RESP };

static int dq_is_read_resp(uint8_t op)
{
	return op >= IBFS_OP_READ_RESP_FIRST && op <= IBFS_OP_READ_RESP_ONLY;
}

static void dq_on_send(struct ibfs_port *out, const struct ibfs_packet *p)
{
	int n = out == ibfs__fabric_port(P.f, 0, 1) ? 0 : 1;

	if (p->opcode == IBFS_OP_ROCE_CNP) {
		M.cnp_vl = p->vl;
		if (M.ncnp < 256)
			M.cnp[M.ncnp++] = now();
	} else if (p->payload_len && M.ntx[n] < 256) {
		M.tx[n][M.ntx[n]++] = now();
	}
}

static int dq_on_arrive(struct ibfs_port *in, const struct ibfs_packet *p)
{
	struct ibfs_packet *q = (struct ibfs_packet *)(uintptr_t)p;

	if (in != ibfs__fabric_port(P.f, M.at, 1))
		return 0;
	M.arrived++;
	if ((M.mark == MARK_NTH && M.arrived == M.nth) ||
	    (M.mark == MARK_ALL && p->payload_len &&
	     p->opcode != IBFS_OP_ROCE_CNP) ||
	    (M.mark == MARK_READ_RESP && dq_is_read_resp(p->opcode) &&
	     M.arrived == 1))
		q->fecn = 1; /* a switch set ECN = CE */
	return 0;
}

static const struct ibfs_flow_ops dq_flow = {
	.name = "test-ecn",
	.may_send = eth_may_send,
	.on_send = dq_on_send,
	.on_arrive = dq_on_arrive,
	.on_free = eth_on_free,
	.on_tx_idle = eth_on_tx_idle,
};

/* The pair with DCQCN's set `set` and then the "name=value" overrides
 * (NULL-terminated) on both RNICs. */
static void dq_setup(const char *set, const char *const *nv)
{
	struct ibfs_cc_cfg c;
	char err[256];

	setup(0);
	memset(&M, 0, sizeof(M));
	M.at = 1;
	ck_assert_msg(ibfs__cc_cfg_init(&c, "dcqcn", set, err,
					sizeof(err)) == 0, "%s", err);
	for (; nv && *nv; nv++)
		ck_assert_msg(ibfs__cc_cfg_parse(&c, *nv, err, sizeof(err)) ==
				      0, "%s", err);
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(ibfs__hca_cc_roce_install(P.h[i], &c), 0);
		ibfs__fabric_port(P.f, i, 1)->flow = &dq_flow;
	}
	ck_assert_str_eq(ibfs__hca_cc_name(P.h[0]), "dcqcn");
}

static struct ibfs_dcqcn_state dq_st(struct ibfs_hca_end *e)
{
	struct ibfs_dcqcn_state s;

	ck_assert_int_eq(ibfs__cc_dcqcn_state((struct ibfs_hca_qp *)e->qp,
					      &s),
			 0);
	return s;
}

/* The registry: names, sets, parameters and every error's words. */
START_TEST(registry_parse)
{
	struct ibfs_cc_cfg c;
	char err[512];

	ck_assert_str_eq(ibfs__cc_algo_names(), "none, dcqcn, hpcc, timely");
	ck_assert_ptr_eq(ibfs__cc_algo_at(0), &ibfs__cc_none);
	ck_assert_ptr_null(ibfs__cc_algo_at(4));
	ck_assert_int_eq(ibfs__cc_cfg_init(&c, "none", NULL, err, 512), 0);
	ck_assert_int_eq(ibfs__cc_cfg_init(&c, "dcqcn", NULL, err, 512), 0);
	ck_assert_str_eq(c.set, "paper");
	/* The paper's set: N = 50 us, g = 1/256, R_AI = 40 Mb/s. */
	ck_assert_double_eq(ibfs__cc_cfg_get(&c, "cnp-interval"), 50e6);
	ck_assert_double_eq(ibfs__cc_cfg_get(&c, "g"), 1.0 / 256);
	ck_assert_double_eq(ibfs__cc_cfg_get(&c, "rate-ai"), 40e6);
	ck_assert_double_eq(ibfs__cc_cfg_get(&c, "clamp-target"), 1);
	/* A set over the defaults: connectx's RPG_TIME_RESET 300 us. */
	ck_assert_int_eq(ibfs__cc_cfg_init(&c, "dcqcn", "connectx", err, 512),
			 0);
	ck_assert_double_eq(ibfs__cc_cfg_get(&c, "rate-timer"), 300e6);
	ck_assert_double_eq(ibfs__cc_cfg_get(&c, "cnp-prio"), 6);
	ck_assert_int_eq(ibfs__cc_cfg_parse(&c, "rate-ai=1.5Gbps", err, 512),
			 0);
	ck_assert_double_eq(ibfs__cc_cfg_get(&c, "rate-ai"), 1.5e9);
	ck_assert_int_eq(ibfs__cc_cfg_parse(&c, "g=0.25", err, 512), 0);
	ck_assert_double_eq(ibfs__cc_cfg_get(&c, "g"), 0.25);
	ck_assert_int_eq(ibfs__cc_cfg_parse(&c, "clamp-target=on", err, 512),
			 0);
	ck_assert_double_eq(ibfs__cc_cfg_get(&c, "clamp-target"), 1);

	ck_assert_int_eq(ibfs__cc_cfg_init(&c, "reno", NULL, err, 512), -1);
	ck_assert_str_eq(err, "no congestion control 'reno'; expected one "
			      "of none, dcqcn, hpcc, timely");
	/* hpcc and timely are built (check_cc_hpcc, check_cc_timely). */
	ck_assert_int_eq(ibfs__cc_cfg_init(&c, "hpcc", NULL, err, 512), 0);
	ck_assert_int_eq(ibfs__cc_cfg_init(&c, "timely", NULL, err, 512), 0);
	ck_assert_int_eq(ibfs__cc_cfg_init(&c, "dcqcn", "x", err, 512), -1);
	ck_assert_str_eq(err, "dcqcn has no parameter set 'x'; expected one "
			      "of paper, hpcc-ns3, connectx");
	ck_assert_int_eq(ibfs__cc_cfg_init(&c, "none", "x", err, 512), -1);
	ck_assert_str_eq(err, "none has no parameter sets; expected none");
	ck_assert_int_eq(ibfs__cc_cfg_init(&c, "dcqcn", NULL, err, 512), 0);
	ck_assert_int_eq(ibfs__cc_cfg_parse(&c, "g", err, 512), -1);
	ck_assert_str_eq(err, "\"g\": expected name=value");
	ck_assert_int_eq(ibfs__cc_cfg_parse(&c, "rate-ai=40", err, 512), -1);
	ck_assert_str_eq(err, "rate-ai=\"40\": expected a rate such as "
			      "40Mbps");
	ck_assert_int_eq(ibfs__cc_cfg_parse(&c, "g=1/0", err, 512), -1);
	ck_assert_str_eq(err, "g=\"1/0\": expected a fraction such as 0.5 or "
			      "1/256");
	ck_assert_int_eq(ibfs__cc_cfg_parse(&c, "g=3/2", err, 512), -1);
	ck_assert_str_eq(err, "g=\"3/2\" is out of range: expected 0 to 1");
	ck_assert_int_eq(ibfs__cc_cfg_parse(&c, "cnp-prio=8", err, 512), -1);
	ck_assert_str_eq(err, "cnp-prio=\"8\" is out of range: expected 0 "
			      "to 7");
	ck_assert_int_eq(ibfs__cc_cfg_parse(&c, "clamp-target=1", err, 512),
			 -1);
	ck_assert_str_eq(err, "clamp-target=\"1\": expected on or off");
	ck_assert_int_eq(ibfs__cc_cfg_parse(&c, "rate-timer=0ps", err, 512),
			 -1);
	ck_assert_str_eq(err, "rate-timer=\"0ps\" is out of range: expected "
			      "1 ns to 1 s");
	ck_assert_int_eq(ibfs__cc_cfg_set(&c, "k", "1", err, 512), -1);
	ck_assert_str_eq(err, "dcqcn has no parameter 'k'; expected one of "
			      "cnp-interval, cnp-prio, g, alpha-init, "
			      "alpha-timer, rate-timer, byte-counter, "
			      "fr-steps, rate-ai, rate-hai, min-rate, "
			      "min-dec-fac, rate-dec-interval, "
			      "clamp-target");
}
END_TEST

/*
 * One CE mark on the first WRITE packet (alpha-init 1/2, so that the
 * cut is not a plain halving). The first decrease (paper 3.1, with the
 * R_C = R_T = 100 Gb/s of a QP at line rate): R_C = 100 G x (1 - 1/4) =
 * 75,000,000,000 bit/s; R_T = 100 G; alpha = (1 - 1/256) / 2 + 1/256 =
 * 257/512.
 *
 * Times from A's first packet's start t0: it arrives whole at B at t0 +
 * 4,194 x 80 + 10,000 = t0 + 345,520, where the CNP leaves at once (B's
 * port is idle) and reaches A 98 x 80 + 10,000 = 17,840 ps later, t0 +
 * 363,360, while A's packet 1 (t0 + 335,520 to t0 + 669,760) is on the
 * wire. Packet 2 goes when the link frees, t0 + 669,760; from it on, the
 * rate limiter spaces the 4,178-byte packets ceil(4,178 x 8 / 75 G s) =
 * ceil(445,653.33 ps) = 445,654 ps start to start: packet k (k >= 2) at
 * t0 + 669,760 + (k - 2) x 445,654; the last (k = 15) at t0 + 6,463,262.
 */
START_TEST(first_decrease_and_rate_limiter)
{
	static const char *const nv[] = {"alpha-init=1/2", NULL};
	struct ibfs_wc wc;

	dq_setup("paper", nv);
	M.mark = MARK_NTH;
	M.nth = 1;
	post(&A, 1, IBFS_WR_RDMA_WRITE, 0, 65536, &B, 0);
	wait1(A.scq, &wc);
	ck_assert_mem_eq(B.buf, A.buf, 65536);
	ck_assert_uint_eq(M.ntx[0], 16);
	ibfs_time_t t0 = M.tx[0][0];

	ck_assert_uint_eq(M.ncnp, 1);
	ck_assert_uint_eq(M.cnp[0], t0 + 345520);
	/* The CNP on the ConnectX default priority 6 (DSCP 48). */
	ck_assert_uint_eq(M.cnp_vl, 6);
	ck_assert_uint_eq(M.tx[0][1], t0 + 335520);
	for (uint32_t k = 2; k < 16; k++)
		ck_assert_uint_eq(M.tx[0][k], t0 + 669760 + (k - 2) * 445654);
	ck_assert_uint_eq(M.tx[0][15], t0 + 6463262);

	struct ibfs_dcqcn_state s = dq_st(&A);
	ck_assert_int_eq(s.active, 1);
	ck_assert_uint_eq(s.rc, 75 * G);
	ck_assert_uint_eq(s.rt, LINE);
	ck_assert_double_eq(s.alpha, 257.0 / 512);
	ck_assert_uint_eq(P.h[0]->cc->ops->rate((struct ibfs_hca_qp *)A.qp),
			  75 * G);
	ck_assert_uint_eq(ibfs__hca_stats(P.h[1])->cnp_tx, 1);
	ck_assert_uint_eq(ibfs__hca_stats(P.h[1])->fecn_rx, 1);
	ck_assert_uint_eq(ibfs__hca_stats(P.h[0])->cnp_rx, 1);
	teardown();
}
END_TEST

/*
 * Every WRITE packet reaching B is CE-marked, cnp-interval 2 us: B sends
 * a CNP for the first, then for the first marked packet at least 2 us
 * after the last CNP, never two closer than 2 us; every mark counted.
 * (alpha-init 1/16 keeps each cut near 1/32, so that A stays fast.)
 */
START_TEST(cnp_spacing_per_qp)
{
	static const char *const nv[] = {"cnp-interval=2us", "alpha-init=1/16",
					 NULL};
	struct ibfs_wc wc;

	dq_setup("paper", nv);
	M.mark = MARK_ALL;
	post(&A, 1, IBFS_WR_RDMA_WRITE, 0, 200000, &B, 0);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(M.ntx[0], 49); /* ceil(200,000 / 4,096) */
	ck_assert_uint_eq(ibfs__hca_stats(P.h[1])->fecn_rx, 49);
	ck_assert_uint_gt(M.ncnp, 3);
	ck_assert_uint_eq(ibfs__hca_stats(P.h[1])->cnp_tx, M.ncnp);
	ck_assert_uint_eq(ibfs__hca_stats(P.h[0])->cnp_rx, M.ncnp);
	/* The first answers A's first packet: t0 + 345,520 (above). */
	ck_assert_uint_eq(M.cnp[0], M.tx[0][0] + 345520);
	for (uint32_t i = 1; i < M.ncnp; i++)
		ck_assert_uint_ge(M.cnp[i] - M.cnp[i - 1], 2 * US);
	teardown();
}
END_TEST

/* A CNP for A's QP handed to A's control at the event's time. */
static void dq_inject(void *obj, uint64_t arg)
{
	struct ibfs_hca *h = obj;
	struct ibfs_packet *c = ibfs__hca_packet(h, 0);

	(void)arg;
	c->opcode = IBFS_OP_ROCE_CNP;
	c->becn = 1;
	c->dest_qp = A.qp->qp_num;
	c->dlid = 1; /* A's host id */
	ck_assert_int_eq(h->cc->ops->rx(&h->hp[1], c), 1);
	ibfs__packet_free(h->dev.fab, c);
}

static struct ibfs_dcqcn_state S[16];
static unsigned NS;

static void dq_sample(void *obj, uint64_t arg)
{
	(void)obj;
	(void)arg;
	S[NS++] = dq_st(&A);
}

static void dq_at(ibfs_time_t t, ibfs_event_fn fn)
{
	ibfs__eq_schedule(&P.f->eq, t, fn, P.h[0], 0);
}

/*
 * The reaction point's equations step by step (paper 3.1), with g =
 * 1/16, alpha-init 1, K (alpha-timer) 7 us, T (rate-timer) 10 us, no
 * byte counter, F = 1, R_AI 1 Gb/s, R_HAI 4 Gb/s, clamp-target on; CNPs
 * at 1, 2 and 35 us; the state sampled half a microsecond after each
 * step (rates in bit/s, G = 10^9):
 *   1 us   CNP: R_T = 100 G, R_C = 100 G x (1 - 1/2) = 50 G,
 *          alpha = 15/16 x 1 + 1/16 = 1; alpha timer 8 us, rate 11 us.
 *   2 us   CNP: R_T = 50 G, R_C = 25 G, alpha = 1; timers 9 and 12 us.
 *   9 us   alpha timer, no CNP for 7 us: alpha = 15/16.
 *   12 us  rate event 1, t = 0 < F: fast recovery, R_C = (50 + 25) / 2
 *          = 37.5 G.
 *   16 us  alpha = (15/16)^2 = 225/256.
 *   22 us  rate event 2, t = 1 = F: additive, R_T = 51 G, R_C = (51 +
 *          37.5) / 2 = 44.25 G.
 *   23 us  alpha = 3,375/4,096;  30 us: alpha = 50,625/65,536.
 *   32 us  rate event 3, t = 2 > F: hyper, R_T = 55 G, R_C = (55 +
 *          44.25) / 2 = 49.625 G.
 *   35 us  CNP: R_T = 49.625 G; R_C = floor(49.625 G x (1 - 50,625 /
 *          131,072)) = floor(30,457,934,379.58) = 30,457,934,379;
 *          alpha = 15/16 x 50,625/65,536 + 1/16 = 824,911/1,048,576.
 */
START_TEST(reaction_point_step_by_step)
{
	static const char *const nv[] = {
		"g=1/16", "alpha-init=1", "alpha-timer=7us",
		"rate-timer=10us", "byte-counter=0B", "fr-steps=1",
		"rate-ai=1Gbps", "rate-hai=4Gbps", "clamp-target=on", NULL};
	static const ibfs_time_t at[] = {1500000, 2500000, 9500000,
					 12500000, 16500000, 22500000,
					 23500000, 30500000, 32500000,
					 35500000};
	static const struct {
		uint64_t rc, rt;
		double alpha;
		uint32_t t;
	} want[] = {
		{50 * G, LINE, 1, 0},
		{25 * G, 50 * G, 1, 0},
		{25 * G, 50 * G, 15.0 / 16, 0},
		{37500000000ull, 50 * G, 15.0 / 16, 1},
		{37500000000ull, 50 * G, 225.0 / 256, 1},
		{44250000000ull, 51 * G, 225.0 / 256, 2},
		{44250000000ull, 51 * G, 3375.0 / 4096, 2},
		{44250000000ull, 51 * G, 50625.0 / 65536, 2},
		{49625000000ull, 55 * G, 50625.0 / 65536, 3},
		{30457934379ull, 49625000000ull, 824911.0 / 1048576, 0},
	};

	dq_setup("paper", nv);
	NS = 0;
	dq_at(1 * US, dq_inject);
	dq_at(2 * US, dq_inject);
	dq_at(35 * US, dq_inject);
	for (unsigned i = 0; i < 10; i++)
		dq_at(at[i], dq_sample);
	ibfs__eq_run(&P.f->eq, 36 * US);
	ck_assert_uint_eq(NS, 10);
	for (unsigned i = 0; i < 10; i++) {
		ck_assert_msg(S[i].rc == want[i].rc && S[i].rt == want[i].rt &&
				      S[i].alpha == want[i].alpha &&
				      S[i].t_cnt == want[i].t,
			      "step %u: R_C %llu R_T %llu alpha %.17g t %u", i,
			      (unsigned long long)S[i].rc,
			      (unsigned long long)S[i].rt, S[i].alpha,
			      S[i].t_cnt);
		ck_assert_int_eq(S[i].active, 1);
	}
	teardown();
}
END_TEST

/*
 * min-rate: CNPs every microsecond with alpha held at 1 (g = 1/2:
 * 1/2 x 1 + 1/2 = 1) halve R_C, 100 G / 2^k rounded down, until it
 * would fall below 1 Mb/s: 100 G / 2^16 = 1,525,878 bit/s, 2^17 would
 * be 762,939, so the 17th CNP and after leave R_C = 1,000,000.
 */
START_TEST(min_rate)
{
	static const char *const nv[] = {"g=1/2", "min-rate=1Mbps", NULL};

	dq_setup("paper", nv);
	NS = 0;
	for (int i = 1; i <= 20; i++)
		dq_at((ibfs_time_t)i * US, dq_inject);
	dq_at(16 * US + 500000, dq_sample);
	dq_at(20 * US + 500000, dq_sample);
	ibfs__eq_run(&P.f->eq, 21 * US);
	ck_assert_uint_eq(S[0].rc, 1525878);
	ck_assert_uint_eq(S[1].rc, 1000000);
	teardown();
}
END_TEST

/*
 * rate-dec-interval 4 us: CNPs at 1, 2 and 3 us; the first cuts at once
 * (R_C = 50 G, alpha = 1 with g = 1/2), the other two wait for the
 * interval's end and make one cut at 5 us (R_C = 25 G); at 4.5 us R_C is
 * still 50 G. A CNP at 10 us, past the interval, cuts at once (12.5 G).
 */
START_TEST(decrease_interval)
{
	static const char *const nv[] = {"g=1/2", "rate-dec-interval=4us",
					 NULL};

	dq_setup("paper", nv);
	NS = 0;
	dq_at(1 * US, dq_inject);
	dq_at(2 * US, dq_inject);
	dq_at(3 * US, dq_inject);
	dq_at(10 * US, dq_inject);
	dq_at(4 * US + 500000, dq_sample);
	dq_at(5 * US + 500000, dq_sample);
	dq_at(10 * US + 500000, dq_sample);
	ibfs__eq_run(&P.f->eq, 11 * US);
	ck_assert_uint_eq(NS, 3);
	ck_assert_uint_eq(S[0].rc, 50 * G);
	ck_assert_uint_eq(S[1].rc, 25 * G);
	ck_assert_uint_eq(S[2].rc, 12500000000ull);
	teardown();
}
END_TEST

/*
 * Back at line rate the timers stop: one CNP at 1 us (R_C = 50 G, R_T =
 * 100 G), rate-timer 10 us; each event leaves R_T - R_C halved, rounded
 * down (R_C rounds up): 50 G needs 36 halvings to reach 0 (2^35 < 5 x
 * 10^10 < 2^36), so the 36th event, at 1 + 36 x 10 = 361 us, brings R_C
 * to 100 G and is the last event of the run: the alpha timer (due at
 * 365 us) is cancelled and nothing more is queued.
 */
START_TEST(idle_at_line_rate)
{
	static const char *const nv[] = {"rate-timer=10us", "alpha-timer=7us",
					 NULL};

	dq_setup("paper", nv);
	dq_at(1 * US, dq_inject);
	ibfs__eq_run(&P.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(now(), 361 * US);
	struct ibfs_dcqcn_state s = dq_st(&A);

	ck_assert_int_eq(s.active, 0);
	ck_assert_uint_eq(s.rc, LINE);
	ck_assert_uint_eq(P.h[0]->cc->ops->rate((struct ibfs_hca_qp *)A.qp),
			  0);
	ck_assert_uint_eq(P.h[0]->cc->ops->until((struct ibfs_hca_qp *)A.qp),
			  0);
	teardown();
}
END_TEST

/*
 * The limiter's wait follows R_C: g = 1/2 holds alpha at 1, so CNPs at
 * 1, 2, ..., 20 ns halve R_C down to min-rate, 1 Mb/s (from the 17th);
 * clamp-target off with no increase between them leaves R_T at 100 G.
 * A's 3-packet WRITE: packet 0 at 0 (before the first CNP, unpaced);
 * packet 1 when the link frees, 4,194 x 80 = 335,520, sets the wait to
 * 335,520 + 4,178 x 8 / 1 Mb/s = 33,424,335,520 ps. The rate timer
 * (10 us after the last cut, at 10,020,000) brings R_C to (100 G + 1 M)
 * / 2 = 50,000,500,000: the wait becomes 335,520 + ceil(4,178 x 8 /
 * 50,000,500,000 s) = 335,520 + 668,474 = 1,003,994, already past, and
 * packet 2 leaves at once, 10,020,000.
 */
START_TEST(limiter_follows_rate)
{
	static const char *const nv[] = {
		"g=1/2", "alpha-init=1", "clamp-target=off", "rate-timer=10us",
		"alpha-timer=100us", "min-rate=1Mbps", "byte-counter=0B",
		"fr-steps=5", NULL};
	struct ibfs_wc wc;

	dq_setup("paper", nv);
	for (int i = 1; i <= 20; i++)
		dq_at((ibfs_time_t)i * 1000, dq_inject);
	post(&A, 1, IBFS_WR_RDMA_WRITE, 0, 12288, &B, 0);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(M.ntx[0], 3);
	ck_assert_uint_eq(M.tx[0][0], 0);
	ck_assert_uint_eq(M.tx[0][1], 335520);
	ck_assert_uint_eq(M.tx[0][2], 10020000);
	teardown();
}
END_TEST

/*
 * The byte counter: B = 8,356 bytes, two 4,178-byte packets. After the
 * first cut (alpha-init 1: R_C = 50 G, R_T = 100 G; the CNP reaches A
 * during packet 1, as above) the paced packets 2 to 15 count, and every
 * second one (3, 5, ..., 15) is an increase event: events 1-5 fast
 * recovery (t = 0 timer events, so max(t, b) < F = 5 until b = 5), 6 and
 * 7 additive (min(t, b) = 0 is not > F), R_T held at the line rate, so
 * after event j R_C = 100 G - 50 G / 2^j. The gap after a packet is
 * ceil(4,178 x 8 / R_C): 668,480 ps at 50 G, then 445,654 (75 G),
 * 381,989 (87.5 G), 356,523 (93.75 G), 345,022 (96.875 G), 339,546
 * (98.4375 G) and 336,872 (99.21875 G), the rate changing with the
 * packet that makes the event: packets 2 to 15 leave at 669,760,
 * 1,338,240, 1,783,894, 2,229,548, 2,611,537, 2,993,526, 3,350,049,
 * 3,706,572, 4,051,594, 4,396,616, 4,736,162, 5,075,708, 5,412,580,
 * 5,749,452; at the end b = 7 and R_C = 99,609,375,000.
 */
START_TEST(byte_counter_increases)
{
	static const char *const nv[] = {"byte-counter=8356B", "fr-steps=5",
					 NULL};
	static const ibfs_time_t want[16] = {
		0, 335520, 669760, 1338240, 1783894, 2229548, 2611537,
		2993526, 3350049, 3706572, 4051594, 4396616, 4736162,
		5075708, 5412580, 5749452};
	struct ibfs_wc wc;

	dq_setup("paper", nv);
	M.mark = MARK_NTH;
	M.nth = 1;
	post(&A, 1, IBFS_WR_RDMA_WRITE, 0, 65536, &B, 0);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(M.ntx[0], 16);
	for (int k = 0; k < 16; k++)
		ck_assert_uint_eq(M.tx[0][k] - M.tx[0][0], want[k]);
	struct ibfs_dcqcn_state st = dq_st(&A);

	ck_assert_uint_eq(st.b_cnt, 7);
	ck_assert_uint_eq(st.t_cnt, 0);
	ck_assert_uint_eq(st.rt, LINE);
	ck_assert_uint_eq(st.rc, 99609375000ull);
	teardown();
}
END_TEST

/*
 * READ responses are paced at the responder: A reads 64 KiB from B; the
 * first READ response reaching A is CE-marked, A's CNP goes to B's QP,
 * whose rate falls to 75 G (alpha-init 1/2). B's 4,178-byte Middle
 * responses then leave 445,654 ps apart, start to start (as above).
 */
START_TEST(read_responses_paced)
{
	static const char *const nv[] = {"alpha-init=1/2", NULL};
	struct ibfs_wc wc;

	dq_setup("paper", nv);
	M.mark = MARK_READ_RESP;
	M.at = 0;
	post(&A, 1, IBFS_WR_RDMA_READ, 0, 65536, &B, 0);
	wait1(A.scq, &wc);
	ck_assert_mem_eq(A.buf, B.buf, 65536);
	ck_assert_uint_eq(M.ntx[1], 16);
	ck_assert_uint_eq(M.ncnp, 1);
	ck_assert_uint_eq(dq_st(&B).rc, 75 * G);
	/* Response k (k >= 3, each after a Middle) 445,654 ps after k-1. */
	for (uint32_t k = 3; k < 16; k++)
		ck_assert_uint_eq(M.tx[1][k] - M.tx[1][k - 1], 445654);
	teardown();
}
END_TEST

static Suite *cc_dcqcn_suite(void)
{
	Suite *s = suite_create("cc_dcqcn");
	TCase *tc = tcase_create("cc_dcqcn");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, registry_parse);
	tcase_add_test(tc, first_decrease_and_rate_limiter);
	tcase_add_test(tc, cnp_spacing_per_qp);
	tcase_add_test(tc, reaction_point_step_by_step);
	tcase_add_test(tc, min_rate);
	tcase_add_test(tc, decrease_interval);
	tcase_add_test(tc, idle_at_line_rate);
	tcase_add_test(tc, limiter_follows_rate);
	tcase_add_test(tc, byte_counter_increases);
	tcase_add_test(tc, read_responses_paced);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(cc_dcqcn_suite)
