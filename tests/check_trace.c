/* SPDX-License-Identifier: MIT */
/*
 * The timeline writer: runs between two endpoints joined by one cable are
 * written as trace-event JSON, read back with a strict JSON reader, and
 * every event is checked against times computed here from first
 * principles: 4x EDR carries 4 x 25.78125 Gb/s x 64/66 = 100 Gb/s (IBA
 * 6.3), so n bytes take n x 80 ps; a cable takes 5 ns per metre; an FCP
 * is 6 bytes (IBA 7.9.4.2); credits are 64-byte blocks (IBA 7.9.4.1).
 * Also: metadata records, the calls the HCA and the subnet manager will
 * make, string escaping, .part and rename, abort and unwritable paths.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "link_pair.h"
#include "check_trace_json.h"
#include "fabric/trace.h"

/* The text a time must have: microseconds with exactly six decimals. */
static const char *us_text(char *buf, ibfs_time_t ps)
{
	snprintf(buf, 32, "%" PRIu64 ".%06" PRIu64, ps / IBFS_US,
		 ps % IBFS_US);
	return buf;
}

#define ck_time_eq(text, ps)                                           \
	do {                                                           \
		char ck_b[32];                                         \
		ck_assert_ptr_nonnull(text);                           \
		ck_assert_str_eq((text), us_text(ck_b, (ps)));         \
	} while (0)

#define ck_num_eq(ev, key, v)                                          \
	do {                                                           \
		const char *ck_n = jm_num((ev), (key));                \
		char ck_b[32];                                         \
		snprintf(ck_b, sizeof(ck_b), "%" PRIu64,               \
			 (uint64_t)(v));                               \
		ck_assert_ptr_nonnull(ck_n);                           \
		ck_assert_str_eq(ck_n, ck_b);                          \
	} while (0)

/* The pair of link_pair.h without payload bytes, node b named name_b. */
static void trace_pair(struct pair *x, const char *name_b, uint64_t cable_mm,
		       uint64_t buffer)
{
	pair_make_named(x, name_b, cable_mm, buffer, 1, 0);
}

static void grh_flow(struct ibfs_endpoint *ep, uint32_t payload,
		     uint64_t count)
{
	struct ibfs_diag d;
	struct ibfs_ep_flow_spec s = {.dlid = 2, .lnh = 2, .payload = payload,
				      .count = count};

	ck_assert_int_eq(ibfs__endpoint_add_flow(ep, &s, &d), 0);
}

/* A fresh path that does not exist yet. */
static void tmp_path(char *path)
{
	strcpy(path, "/tmp/ibfs_traceXXXXXX");
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	unlink(path);
}

/* Reads and parses the timeline at path, then removes the file. */
static struct jm *load(const char *path)
{
	FILE *in = fopen(path, "rb");

	ck_assert_ptr_nonnull(in);
	fseek(in, 0, SEEK_END);
	long n = ftell(in);

	rewind(in);
	char *text = malloc((size_t)n + 1);

	ck_assert_ptr_nonnull(text);
	ck_assert_int_eq(fread(text, 1, (size_t)n, in), n);
	fclose(in);
	unlink(path);
	struct jm *root = jm_parse(text, (size_t)n);

	free(text);
	ck_assert_ptr_nonnull(root);
	ck_assert_int_eq(root->type, JM_OBJ);
	ck_assert_str_eq(jm_str(root, "displayTimeUnit"), "ns");
	const struct jm *evs = jm_get(root, "traceEvents");

	ck_assert_ptr_nonnull(evs);
	ck_assert_int_eq(evs->type, JM_ARR);
	return root;
}

static const struct jm *events(const struct jm *root)
{
	return jm_get(root, "traceEvents");
}

/* Closes t and finds that the file it wrote holds no events at all. */
static void close_empty(struct ibfs_trace *t, const char *path)
{
	ck_assert_int_eq(ibfs__trace_close(t), 0);
	struct jm *root = load(path);

	ck_assert_uint_eq(events(root)->n, 0);
	jm_free(root);
}

/* The i-th event whose ph and cat match (cat NULL: any), or NULL. */
static const struct jm *nth(const struct jm *root, const char *ph,
			    const char *cat, size_t i)
{
	const struct jm *evs = events(root);

	for (size_t k = 0; k < evs->n; k++) {
		const struct jm *e = &evs->kid[k];
		const char *c = jm_str(e, "cat");

		if (strcmp(jm_str(e, "ph"), ph) ||
		    (cat && (!c || strcmp(c, cat))))
			continue;
		if (i-- == 0)
			return e;
	}
	return NULL;
}

static size_t count(const struct jm *root, const char *ph, const char *cat)
{
	size_t n = 0;

	while (nth(root, ph, cat, n))
		n++;
	return n;
}

/*
 * The metadata record `name` of (pid, tid) (tid < 0: process records):
 * checks there is exactly one and returns its args.
 */
static const struct jm *meta(const struct jm *root, int pid, int tid,
			     const char *name)
{
	const struct jm *found = NULL;
	char p[16], t[16];

	snprintf(p, sizeof(p), "%d", pid);
	snprintf(t, sizeof(t), "%d", tid < 0 ? 0 : tid);
	for (size_t k = 0; k < events(root)->n; k++) {
		const struct jm *e = &events(root)->kid[k];

		if (strcmp(jm_str(e, "ph"), "M") ||
		    strcmp(jm_str(e, "name"), name) ||
		    strcmp(jm_num(e, "pid"), p) || strcmp(jm_num(e, "tid"), t))
			continue;
		ck_assert_ptr_null(found);
		found = jm_get(e, "args");
	}
	ck_assert_ptr_nonnull(found);
	return found;
}

START_TEST(stream_is_traced_exactly)
{
	char path[64], part[80];
	struct pair x;

	tmp_path(path);
	snprintf(part, sizeof(part), "%s.part", path);
	trace_pair(&x, "b", 2000, 32 * 1024);
	grh_flow(x.a, 1000, 5);
	struct ibfs_trace *t = ibfs__trace_open(x.f, path, NULL);

	ck_assert_ptr_nonnull(t);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(ibfs__trace_count(t), 5);
	/* Until closed, only the .part file exists. */
	ck_assert_int_ne(access(path, F_OK), 0);
	ck_assert_int_eq(access(part, F_OK), 0);
	ck_assert_int_eq(ibfs__trace_close(t), 0);
	ck_assert_int_ne(access(part, F_OK), 0);
	ck_assert_ptr_null(x.f->observers);
	struct jm *root = load(path);

	/* LRH 8 + BTH 12 + 1000 + ICRC 4 + VCRC 2 = 1026 bytes, 82,080 ps. */
	const ibfs_time_t S = 1026 * 80;

	ck_assert_uint_eq(ser(1026), S);
	ck_assert_uint_eq(count(root, "X", NULL), 5);
	for (int k = 0; k < 5; k++) {
		const struct jm *e = nth(root, "X", "packet", (size_t)k);

		ck_assert_ptr_nonnull(e);
		ck_num_eq(e, "pid", 1);
		ck_num_eq(e, "tid", 1);
		ck_assert_str_eq(jm_str(e, "name"), "raw packet");
		ck_time_eq(jm_num(e, "ts"), (ibfs_time_t)k * S);
		ck_time_eq(jm_num(e, "dur"), S);
		const struct jm *a = jm_get(e, "args");

		ck_num_eq(a, "dlid", 2);
		ck_num_eq(a, "slid", 1);
		ck_num_eq(a, "sl", 0);
		ck_num_eq(a, "vl", 0);
		ck_num_eq(a, "psn", k);
		ck_num_eq(a, "qp", 0);
		ck_num_eq(a, "bytes", 1026);
		ck_num_eq(a, "payload", 1000);
		ck_assert_ptr_null(jm_get(a, "transport"));
	}
	/* Only a transmits packets: one process, one thread, named once. */
	ck_assert_str_eq(jm_str(meta(root, 1, -1, "process_name"), "name"),
			 "a");
	ck_assert_str_eq(jm_str(meta(root, 1, -1, "process_labels"),
				"labels"), "HCA");
	ck_num_eq(meta(root, 1, -1, "process_sort_index"), "sort_index", 0);
	ck_assert_str_eq(jm_str(meta(root, 1, 1, "thread_name"), "name"),
			 "port 1");
	ck_num_eq(meta(root, 1, 1, "thread_sort_index"), "sort_index", 1);
	ck_assert_uint_eq(count(root, "M", NULL), 5);
	ck_assert_uint_eq(events(root)->n, 10);
	jm_free(root);
	pair_free(&x);
}
END_TEST

/* Sends the packet in arg from a's port (an event handler). */
static void send_now(void *obj, uint64_t arg)
{
	struct pair *x = obj;
	struct ibfs_packet *p = (struct ibfs_packet *)(uintptr_t)arg;
	struct ibfs_port *out = ibfs__endpoint_port(x->a);

	ck_assert_int_eq(ibfs__port_can_send(out, p), 1);
	ibfs__fabric_inject(x->f, p);
	ibfs__port_send(out, p);
}

static struct ibfs_packet *mkpkt(struct pair *x, uint8_t kind,
				 uint8_t opcode, uint16_t xh, uint8_t vl,
				 uint32_t payload)
{
	struct ibfs_packet *p = ibfs__packet_new(x->f);

	ck_assert_ptr_nonnull(p);
	p->kind = kind;
	p->lnh = 2;
	p->opcode = opcode;
	p->xh = xh;
	p->vl = vl;
	p->sl = vl == IBFS_VL15 ? 0 : vl;
	p->dlid = 2;
	p->slid = 1;
	p->dest_qp = 0x123;
	p->psn = 77;
	p->payload_len = payload;
	ibfs__packet_finish(p);
	return p;
}

START_TEST(transport_packets_are_named)
{
	char path[64];
	struct pair x;

	tmp_path(path);
	trace_pair(&x, "b", 2000, 32 * 1024);
	struct ibfs_trace *t = ibfs__trace_open(x.f, path, NULL);
	/* RC RDMA WRITE First: LRH 8 + BTH 12 + RETH 16 + 1000 + 4 + 2. */
	struct ibfs_packet *w = mkpkt(&x, IBFS_PKT_DATA, 0x06, IBFS_XH_RETH,
				      0, 1000);
	/* UD SEND Only: LRH 8 + BTH 12 + DETH 8 + 256 + 4 + 2 = 290. */
	struct ibfs_packet *u = mkpkt(&x, IBFS_PKT_DATA, 0x64, IBFS_XH_DETH,
				      0, 256);
	struct ibfs_packet *m = mkpkt(&x, IBFS_PKT_MGMT, 0x64, IBFS_XH_DETH,
				      IBFS_VL15, 256);

	ck_assert_uint_eq(w->wire_bytes, 1042);
	ck_assert_uint_eq(u->wire_bytes, 290);
	/* Each starts 1 ns after the previous one ended. */
	const ibfs_time_t t1 = 1042 * 80 + IBFS_NS, t2 = t1 + 290 * 80 +
							 IBFS_NS;

	ibfs__eq_schedule(&x.f->eq, 0, send_now, &x, (uintptr_t)w);
	ibfs__eq_schedule(&x.f->eq, t1, send_now, &x, (uintptr_t)u);
	ibfs__eq_schedule(&x.f->eq, t2, send_now, &x, (uintptr_t)m);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_int_eq(ibfs__trace_close(t), 0);
	struct jm *root = load(path);
	static const char *const names[] = {"RDMA WRITE First", "SEND Only",
					    "SMP"};
	static const char *const tps[] = {"RC", "UD", NULL};
	const ibfs_time_t ts[] = {0, t1, t2};
	const uint32_t bytes[] = {1042, 290, 290};

	ck_assert_uint_eq(count(root, "X", "packet"), 3);
	for (int k = 0; k < 3; k++) {
		const struct jm *e = nth(root, "X", "packet", (size_t)k);
		const struct jm *a = jm_get(e, "args");

		ck_assert_str_eq(jm_str(e, "name"), names[k]);
		ck_time_eq(jm_num(e, "ts"), ts[k]);
		ck_time_eq(jm_num(e, "dur"), (ibfs_time_t)bytes[k] * 80);
		ck_num_eq(a, "qp", 0x123);
		ck_num_eq(a, "psn", 77);
		ck_num_eq(a, "vl", k == 2 ? 15 : 0);
		ck_num_eq(a, "bytes", bytes[k]);
		if (tps[k])
			ck_assert_str_eq(jm_str(a, "transport"), tps[k]);
		else
			ck_assert_ptr_null(jm_get(a, "transport"));
	}
	jm_free(root);
	pair_free(&x);
}
END_TEST

/*
 * 1 km of cable (P = 5 us), 8 KiB of buffer: 128 blocks, four packets of
 * 2046 wire bytes (32 blocks). The sender sends four back to back, then
 * waits for the credits of the first: its tail arrives at S + P, the
 * receiver frees it and sends an FCP at once, which arrives at
 * T = S + 2P + F. Packet i starts at (i / 4) T + (i % 4) S; the port
 * stalls from k T + 4 S to (k + 1) T after each group but the last.
 */
START_TEST(credit_stalls_exact)
{
	char path[64];
	struct pair x;
	const int groups = 3, n = 4 * groups;

	tmp_path(path);
	trace_pair(&x, "b", 1000 * 1000, 8 * 1024);
	grh_flow(x.a, 2020, (uint64_t)n); /* 8 + 12 + 2020 + 4 + 2 = 2046 */
	struct ibfs_trace *t = ibfs__trace_open(x.f, path, NULL);

	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_int_eq(ibfs__trace_close(t), 0);
	struct jm *root = load(path);
	const ibfs_time_t P = 5 * IBFS_US, S = ser(2046), F = ser(6);
	const ibfs_time_t T = S + 2 * P + F;

	ck_assert_uint_eq(count(root, "X", "packet"), (size_t)n);
	for (int i = 0; i < n; i++) {
		const struct jm *e = nth(root, "X", "packet", (size_t)i);

		ck_time_eq(jm_num(e, "ts"), (ibfs_time_t)(i / 4) * T +
						    (ibfs_time_t)(i % 4) * S);
		ck_num_eq(jm_get(e, "args"), "bytes", 2046);
	}
	ck_assert_uint_eq(count(root, "X", "stall"), (size_t)groups - 1);
	ibfs_time_t sum = 0;

	for (int k = 0; k < groups - 1; k++) {
		const struct jm *e = nth(root, "X", "stall", (size_t)k);

		ck_assert_str_eq(jm_str(e, "name"), "credit stall VL 0");
		ck_num_eq(e, "pid", 1);
		ck_num_eq(e, "tid", 1);
		ck_time_eq(jm_num(e, "ts"), (ibfs_time_t)k * T + 4 * S);
		ck_time_eq(jm_num(e, "dur"), T - 4 * S);
		ck_num_eq(jm_get(e, "args"), "vl_mask", 1);
		sum += T - 4 * S;
	}
	/* The stalls add up to PortXmitWait. */
	ck_assert_uint_eq(ibfs__port_xmit_wait(ibfs__endpoint_port(x.a)), sum);
	jm_free(root);
	pair_free(&x);
}
END_TEST

static void noop(void *obj, uint64_t arg)
{
	(void)obj;
	(void)arg;
}

/* A packet larger than the whole buffer waits for ever: the stall still
 * open at the end is closed at the time the run reached. */
START_TEST(open_stall_ends_at_close)
{
	char path[64];
	struct pair x;

	tmp_path(path);
	trace_pair(&x, "b", 2000, 128); /* 2 blocks; the packet needs 32 */
	grh_flow(x.a, 2020, 1);
	struct ibfs_trace *t = ibfs__trace_open(x.f, path, NULL);

	ibfs__eq_schedule(&x.f->eq, 1 * IBFS_US, noop, NULL, 0);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(x.f->eq.now, IBFS_US);
	ck_assert_int_eq(ibfs__trace_close(t), 0);
	struct jm *root = load(path);

	ck_assert_uint_eq(count(root, "X", "packet"), 0);
	ck_assert_uint_eq(count(root, "X", "stall"), 1);
	const struct jm *e = nth(root, "X", "stall", 0);

	ck_assert_str_eq(jm_str(e, "name"), "credit stall VL 0");
	ck_time_eq(jm_num(e, "ts"), 0);
	ck_time_eq(jm_num(e, "dur"), IBFS_US);
	ck_assert_str_eq(jm_str(meta(root, 1, 1, "thread_name"), "name"),
			 "port 1");
	jm_free(root);
	pair_free(&x);
}
END_TEST

/* The same stall closed at the picosecond it began has no length: none. */
START_TEST(empty_stall_is_left_out)
{
	char path[64];
	struct pair x;

	tmp_path(path);
	trace_pair(&x, "b", 2000, 128);
	grh_flow(x.a, 2020, 1);
	struct ibfs_trace *t = ibfs__trace_open(x.f, path, NULL);

	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(x.f->eq.now, 0);
	ck_assert_int_eq(x.f->ports[0][1].waiting, 1);
	close_empty(t, path);
	pair_free(&x);
}
END_TEST

START_TEST(hca_and_sm_calls)
{
	char path[64];
	struct pair x;

	tmp_path(path);
	trace_pair(&x, "b", 2000, 32 * 1024);
	struct ibfs_trace *t = ibfs__trace_open(x.f, path, NULL);
	const ibfs_time_t post = 1000, done = 5500250;
	const ibfs_time_t sweep = 3 * IBFS_MS;

	ibfs__trace_wr(t, 0, 7, 42, "RDMA_WRITE", 65536, post);
	ibfs__trace_wr(t, 0, 7, UINT64_MAX, "SEND", 8, 2000);
	ibfs__trace_cqe(t, 0, 7, 42, "RDMA_WRITE", "SUCCESS", 65536, post,
			done);
	ibfs__trace_sm_sweep(t, 1, "heavy sweep", 0, sweep);
	ibfs__trace_sm_mark(t, 1, "LFTs programmed", sweep - 1);
	/* Nodes out of range and a NULL trace are ignored. */
	ibfs__trace_wr(t, -1, 7, 1, "SEND", 8, 0);
	ibfs__trace_cqe(t, 2, 7, 1, "SEND", "SUCCESS", 8, 0, 1);
	ibfs__trace_sm_sweep(t, 5, "x", 0, 1);
	ibfs__trace_sm_sweep(t, 1, "backwards", 2, 1);
	ibfs__trace_wr(NULL, 0, 7, 1, "SEND", 8, 0);
	ibfs__trace_sm_mark(NULL, 0, "x", 0);
	ck_assert_uint_eq(ibfs__trace_count(t), 7);
	ck_assert_int_eq(ibfs__trace_close(t), 0);
	struct jm *root = load(path);
	const int qtid = IBFS_TRACE_TID_QP + 7;

	ck_assert_uint_eq(count(root, "i", "wr"), 2);
	const struct jm *e = nth(root, "i", "wr", 0);

	ck_assert_str_eq(jm_str(e, "name"), "post RDMA_WRITE");
	ck_assert_str_eq(jm_str(e, "s"), "t");
	ck_num_eq(e, "pid", 1);
	ck_num_eq(e, "tid", qtid);
	ck_time_eq(jm_num(e, "ts"), post);
	ck_num_eq(jm_get(e, "args"), "wr_id", 42);
	ck_num_eq(jm_get(e, "args"), "bytes", 65536);
	e = nth(root, "i", "wr", 1);
	ck_assert_str_eq(jm_num(jm_get(e, "args"), "wr_id"),
			 "18446744073709551615");
	e = nth(root, "i", "cqe", 0);
	ck_assert_str_eq(jm_str(e, "name"), "CQE RDMA_WRITE");
	ck_time_eq(jm_num(e, "ts"), done);
	ck_assert_str_eq(jm_str(jm_get(e, "args"), "status"), "SUCCESS");
	/* The async span from post to completion. */
	const struct jm *b = nth(root, "b", "wr", 0);
	const struct jm *en = nth(root, "e", "wr", 0);

	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_nonnull(en);
	ck_assert_str_eq(jm_str(b, "name"), "RDMA_WRITE");
	ck_assert_str_eq(jm_str(en, "name"), "RDMA_WRITE");
	ck_assert_str_eq(jm_num(b, "id"), jm_num(en, "id"));
	ck_time_eq(jm_num(b, "ts"), post);
	ck_time_eq(jm_num(en, "ts"), done);
	ck_num_eq(b, "tid", qtid);
	ck_assert_str_eq(jm_str(meta(root, 1, qtid, "thread_name"), "name"),
			 "QP 7");
	/* The sweep: a span on b's subnet manager thread. */
	e = nth(root, "X", "sm", 0);
	ck_assert_ptr_nonnull(e);
	ck_assert_str_eq(jm_str(e, "name"), "heavy sweep");
	ck_num_eq(e, "pid", 2);
	ck_num_eq(e, "tid", IBFS_TRACE_TID_SM);
	ck_time_eq(jm_num(e, "ts"), 0);
	ck_time_eq(jm_num(e, "dur"), sweep);
	ck_assert_str_eq(jm_num(e, "dur"), "3000.000000");
	e = nth(root, "i", "sm", 0);
	ck_assert_str_eq(jm_str(e, "name"), "LFTs programmed");
	ck_assert_str_eq(jm_num(e, "ts"), "2999.999999");
	ck_assert_str_eq(jm_str(meta(root, 2, IBFS_TRACE_TID_SM,
				     "thread_name"), "name"),
			 "subnet manager");
	ck_assert_str_eq(jm_str(meta(root, 2, -1, "process_name"), "name"),
			 "b");
	ck_assert_uint_eq(count(root, "M", NULL), 10);
	ck_assert_uint_eq(events(root)->n, 17);
	jm_free(root);
	pair_free(&x);
}
END_TEST

/* Names are JSON strings: quotes, backslashes and controls are escaped. */
START_TEST(names_are_escaped)
{
	char path[64];
	struct pair x;
	const char *odd = "q\"b\\s\tz\x01";

	tmp_path(path);
	trace_pair(&x, odd, 2000, 32 * 1024);
	struct ibfs_trace *t = ibfs__trace_open(x.f, path, NULL);

	ibfs__trace_sm_mark(t, 1, "say \"hi\"\n", 5);
	ck_assert_int_eq(ibfs__trace_close(t), 0);
	struct jm *root = load(path);

	ck_assert_str_eq(jm_str(meta(root, 2, -1, "process_name"), "name"),
			 odd);
	ck_assert_str_eq(jm_str(nth(root, "i", "sm", 0), "name"),
			 "say \"hi\"\n");
	jm_free(root);
	pair_free(&x);
}
END_TEST

/* Enough events to flush the 64 KiB buffer many times over. */
START_TEST(long_stream_streams)
{
	char path[64];
	struct pair x;
	const int n = 3000;

	tmp_path(path);
	trace_pair(&x, "b", 2000, 32 * 1024);
	grh_flow(x.a, 100, (uint64_t)n);
	struct ibfs_trace *t = ibfs__trace_open(x.f, path, NULL);

	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_int_eq(ibfs__trace_close(t), 0);
	struct jm *root = load(path);
	/* LRH 8 + BTH 12 + 100 + ICRC 4 + VCRC 2 = 126 bytes. */
	const ibfs_time_t S = 126 * 80;

	ck_assert_uint_eq(count(root, "X", "packet"), (size_t)n);
	for (int k = 0; k < n; k++) {
		const struct jm *e = &events(root)->kid[5 + k];

		ck_assert_str_eq(jm_str(e, "ph"), "X");
		ck_time_eq(jm_num(e, "ts"), (ibfs_time_t)k * S);
		ck_num_eq(jm_get(e, "args"), "psn", k);
	}
	jm_free(root);
	pair_free(&x);
}
END_TEST

/* Only node b's port: a's packets, which leave port a:1, are left out. */
START_TEST(select_filters_ports)
{
	char path[64], err[128];
	struct pair x;
	struct ibfs_port_set only_b;

	tmp_path(path);
	trace_pair(&x, "b", 2000, 32 * 1024);
	ck_assert_int_eq(ibfs__port_set_parse(&only_b, x.f->topo, "b", err,
					      sizeof(err)), 0);
	grh_flow(x.a, 1000, 5);
	struct ibfs_trace *t = ibfs__trace_open(x.f, path, &only_b);

	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(ibfs__trace_count(t), 0);
	close_empty(t, path);
	ibfs__port_set_free(&only_b);
	pair_free(&x);
}
END_TEST

START_TEST(unwritable_and_abort)
{
	char path[64], part[80];
	struct pair x;

	trace_pair(&x, "b", 2000, 32 * 1024);
	errno = 0;
	ck_assert_ptr_null(ibfs__trace_open(x.f, "/nonexistent-dir/t.json",
					    NULL));
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_ptr_null(x.f->observers);
	tmp_path(path);
	snprintf(part, sizeof(part), "%s.part", path);
	grh_flow(x.a, 1000, 5);
	struct ibfs_trace *t = ibfs__trace_open(x.f, path, NULL);

	ck_assert_ptr_nonnull(t);
	ibfs__eq_run(&x.f->eq, 100 * IBFS_NS);
	ck_assert_uint_eq(ibfs__trace_count(t), 2); /* at 0 and 82.08 ns */
	ck_assert_int_eq(access(part, F_OK), 0);
	ibfs__trace_abort(t);
	ck_assert_int_ne(access(part, F_OK), 0);
	ck_assert_int_ne(access(path, F_OK), 0);
	ck_assert_ptr_null(x.f->observers);
	/* The run goes on without the observer. */
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.b)->rx_pkts, 5);
	pair_free(&x);
}
END_TEST

START_TEST(opcode_names)
{
	static const struct {
		uint8_t op;
		const char *name;
	} tab[] = {
		{0x00, "SEND First"}, {0x04, "SEND Only"},
		{0x05, "SEND Only with Immediate"}, {0x06, "RDMA WRITE First"},
		{0x07, "RDMA WRITE Middle"}, {0x08, "RDMA WRITE Last"},
		{0x09, "RDMA WRITE Last with Immediate"},
		{0x0A, "RDMA WRITE Only"}, {0x0C, "RDMA READ Request"},
		{0x0D, "RDMA READ response First"},
		{0x10, "RDMA READ response Only"}, {0x11, "Acknowledge"},
		{0x12, "ATOMIC Acknowledge"}, {0x13, "CmpSwap"},
		{0x14, "FetchAdd"}, {0x15, "reserved opcode"},
		{0x16, "SEND Last with Invalidate"},
		{0x17, "SEND Only with Invalidate"},
		{0x18, "reserved opcode"}, {0x1F, "reserved opcode"},
		/* UC: SEND and RDMA WRITE only. */
		{0x26, "RDMA WRITE First"},
		{0x2B, "RDMA WRITE Only with Immediate"},
		{0x2C, "reserved opcode"}, {0x31, "reserved opcode"},
		/* RD: as RC, plus RESYNC. */
		{0x4C, "RDMA READ Request"}, {0x55, "RESYNC"},
		/* UD: SEND Only and SEND Only with Immediate. */
		{0x64, "SEND Only"}, {0x65, "SEND Only with Immediate"},
		{0x60, "reserved opcode"}, {0x66, "reserved opcode"},
		{0x80, "CNP"}, {0x81, "reserved opcode"},
		{0xA6, "RDMA WRITE First"}, {0xC0, "reserved opcode"},
		{0xFF, "reserved opcode"},
	};

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		ck_assert_str_eq(ibfs__trace_opcode_name(tab[i].op),
				 tab[i].name);
}
END_TEST

/* The reader the tests rely on is strict: it must reject broken JSON. */
START_TEST(reader_is_strict)
{
	static const char *const bad[] = {
		"{\"a\":1,}", "[1 2]", "{\"a\":01}", "\"a\x01\"", "[1] x",
		"{\"a\" 1}", "[.5]", "[1.]", "\"\\q\"", "{1:2}", "[", "",
		"[nul]", "\"\\u12\"",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(!jm_parse(bad[i], strlen(bad[i])), "accepted %s",
			      bad[i]);
	const char *ok = " {\"a\":[-1.5e3,true,null,\"\\u0041\\n\"],\"b\":{}} ";
	struct jm *v = jm_parse(ok, strlen(ok));

	ck_assert_ptr_nonnull(v);
	const struct jm *a = jm_get(v, "a");

	ck_assert_uint_eq(a->n, 4);
	ck_assert_str_eq(a->kid[0].s, "-1.5e3");
	ck_assert_int_eq(a->kid[1].type, JM_BOOL);
	ck_assert_int_eq(a->kid[2].type, JM_NULL);
	ck_assert_str_eq(a->kid[3].s, "A\n");
	ck_assert_int_eq(jm_get(v, "b")->type, JM_OBJ);
	jm_free(v);
}
END_TEST

static Suite *trace_suite(void)
{
	Suite *s = suite_create("trace");
	TCase *tc = tcase_create("timeline");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, stream_is_traced_exactly);
	tcase_add_test(tc, transport_packets_are_named);
	tcase_add_test(tc, credit_stalls_exact);
	tcase_add_test(tc, open_stall_ends_at_close);
	tcase_add_test(tc, empty_stall_is_left_out);
	tcase_add_test(tc, hca_and_sm_calls);
	tcase_add_test(tc, names_are_escaped);
	tcase_add_test(tc, long_stream_streams);
	tcase_add_test(tc, select_filters_ports);
	tcase_add_test(tc, unwritable_and_abort);
	tcase_add_test(tc, opcode_names);
	tcase_add_test(tc, reader_is_strict);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(trace_suite)
