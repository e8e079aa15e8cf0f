/* SPDX-License-Identifier: MIT */
/*
 * In-band telemetry at the Ethernet switch (src/switch/eth_int.c) on a
 * star of three hosts (eth_star.h: 100 Gb/s, 80 ps a byte, 2 m cables):
 * h1 and h2 each send three 1,000-byte frames that carry a telemetry
 * field to h3 at once, cut-through. Every expectation is in closed form:
 * P = 10,000 ps of cable, H = 4,320 ps of header, L = 400,000 ps of the
 * generic profile's latency, S = ser(1,020) = 81,600 ps a frame on the
 * wire (preamble and gap included).
 *
 * The hosts' frames reach the switch together, two every S, and port 3
 * sends one every S from P + H + L = 414,320 ps: frame k (0-5) of port
 * 3 leaves at 414,320 + k S, after k S of serialization (busy). Behind
 * it wait the frames enqueued by then, 2 min(k + 1, 3), less the k + 1
 * sent: 1, 2, 3, 2, 1, 0 frames of 1,000 buffer bytes, 80,000 ps each
 * at B (qdrain).
 */
#include "eth_star.h"

#include "switch/eth_int.h"

#define P 10000ULL
#define H 4320ULL
#define L 400000ULL
#define S 81600ULL

/* The records h3 received, in arrival order. */
static struct ibfs_int got[8];
static int ngot;
static int echo_sent; /* 1: the hosts send echoed copies (ACKs) */

static void int_receive(struct ibfs_device *dev, struct ibfs_port *in,
			struct ibfs_packet *p)
{
	if (ngot < 8 && (p->xh & IBFS_XH_INT))
		got[ngot++] = p->intr;
	es_receive(dev, in, p);
}

/* es_pump's frames, each with an empty telemetry field (or an echo). */
static void int_pump(struct es_host *h)
{
	struct ibfs_port *out = es_port(h);
	struct es_flow *fl = &h->flows[0];

	if (!ibfs__port_idle_up(out) || fl->sent == fl->count)
		return;
	struct ibfs_packet *p = ibfs__packet_new_raw(h->dev.fab);

	ck_assert_ptr_nonnull(p);
	p->kind = IBFS_PKT_DATA;
	p->dlid = fl->dlid;
	p->slid = h->id;
	p->dest_qp = fl->qp;
	p->xh = IBFS_XH_INT;
	p->intr.nhop = echo_sent ? IBFS_INT_ECHO : 0;
	p->wire_bytes = ibfs__eth_wire_bytes(fl->frame);
	p->blocks = (uint16_t)((fl->frame + 63) / 64);
	fl->sent++;
	ibfs__fabric_inject(h->dev.fab, p);
	ibfs__port_send(out, p);
}

static void int_tx_ready(struct ibfs_device *dev, struct ibfs_port *out)
{
	(void)out;
	int_pump((struct es_host *)dev);
}

static void int_start_ev(void *obj, uint64_t arg)
{
	(void)arg;
	int_pump(obj);
}

static const struct ibfs_device_ops int_host_ops = {
	.kind = "hca",
	.receive = int_receive,
	.tx_ready = int_tx_ready,
};

/* The incast of the file's comment; telemetry on (1) or not. */
static void int_run(struct es_star *x, int on)
{
	struct ibfs_eth_profile prof = es_profile(1500);

	ngot = 0;
	memset(got, 0, sizeof(got));
	es_star_make(x, 3, 3, 2000);
	x->f = ibfs__fabric_new(x->t, 1, 0);
	ck_assert_ptr_nonnull(x->f);
	for (int i = 1; i <= 3; i++) {
		struct es_host *h = calloc(1, sizeof(*h));

		ck_assert_ptr_nonnull(h);
		h->id = (uint16_t)i;
		h->dev.ops = &int_host_ops;
		x->h[i] = h;
		ck_assert_int_eq(ibfs__pfc_attach(ibfs__fabric_port(x->f, i, 1),
						  0, 0),
				 0);
		ibfs__port_set_rx(ibfs__fabric_port(x->f, i, 1), 0, 1);
		ibfs__fabric_attach(x->f, i, &h->dev);
	}
	struct ibfs_diag d;

	x->sw = ibfs__eth_switch_create(x->f, 0, &prof, &x->routes, &d);
	ck_assert_msg(x->sw != NULL, "%s", d.msg);
	ck_assert_int_eq(ibfs__eth_switch_set_int(x->sw, on), 0);
	for (int i = 1; i <= 2; i++) {
		es_flow_add(x->h[i], 3, 0, 1000, 3, (uint32_t)i);
		ck_assert_ptr_nonnull(ibfs__eq_schedule(&x->f->eq, 0,
							int_start_ev, x->h[i],
							0));
	}
	ibfs__eq_run(&x->f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(x->h[3]->rx_frames, 6);
	es_conserved(x->f);
}

START_TEST(int_records_closed_form)
{
	static const uint32_t behind[6] = {0, 2, 3, 2, 1, 0};
	struct es_star x;

	echo_sent = 0;
	int_run(&x, 1);
	ck_assert_int_eq(ngot, 6);
	for (int k = 0; k < 6; k++) {
		ck_assert_uint_eq(got[k].nhop, 1);
		ck_assert_uint_eq(got[k].hop[0].ts, P + H + L + k * S);
		ck_assert_uint_eq(got[k].hop[0].busy, k * S);
		ck_assert_uint_eq(got[k].hop[0].qdrain,
				  behind[k] * es_ser(1000));
	}
	/* The frames take the same time as without telemetry: 414,320 +
	 * 6 S + P = 913,920 ps for the last tail. */
	ck_assert_uint_eq(x.h[3]->last_tail, P + H + L + 6 * S + P);
	es_star_free(&x);
}
END_TEST

/* Off, or an echoed copy: nothing is stamped. */
START_TEST(int_off_and_echo_unstamped)
{
	struct es_star x;

	echo_sent = 0;
	int_run(&x, 0);
	ck_assert_int_eq(ngot, 6);
	for (int k = 0; k < 6; k++)
		ck_assert_uint_eq(got[k].nhop, 0);
	es_star_free(&x);
	echo_sent = 1;
	int_run(&x, 1);
	ck_assert_int_eq(ngot, 6);
	for (int k = 0; k < 6; k++)
		ck_assert_uint_eq(got[k].nhop, IBFS_INT_ECHO);
	es_star_free(&x);
	echo_sent = 0;
}
END_TEST

static Suite *eth_int_suite(void)
{
	Suite *s = suite_create("eth_int");
	TCase *tc = tcase_create("eth_int");

	tcase_add_test(tc, int_records_closed_form);
	tcase_add_test(tc, int_off_and_echo_unstamped);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(eth_int_suite)
