/* SPDX-License-Identifier: MIT */
/*
 * The timeline writer (see trace.h): an observer of the fabric's
 * transmissions and PortXmitWait edges that streams trace-event JSON.
 *
 * Events are formatted by hand into a 64 KiB buffer that is flushed with
 * fwrite when nearly full: memory stays bounded and there is no printf per
 * field. Metadata records (process and thread names, sort indices) are
 * written the first time a node, port or QP appears, so a timeline of a
 * few ports of a large fabric stays small. A process id is the node index
 * plus one (viewers may treat pid 0 specially).
 *
 * A stall that starts and ends at the same picosecond is left out: it
 * has no length to show and PortXmitWait does not count it.
 *
 * The VL of a credit stall: the link layer reports that a port waits, not
 * for which packet. The stall is named after the data VLs whose credits
 * cannot cover a packet of the fabric's MTU with the largest headers
 * (LRH + GRH + BTH + RETH + ICRC + VCRC, IBA 7.7 and 9.2-9.4), counted in
 * 64-byte blocks (IBA 7.9.4.1); with one data VL this is exact.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabric/partfile.h"
#include "fabric/trace.h"

#define TR_BUF 65536
/* Flush when less than this is left: more than the longest event. */
#define TR_SLACK 2048

struct ibfs_trace {
	struct ibfs_fabric *fab;
	FILE *out;
	struct ibfs_partfile pf; /* out is pf.out */
	const struct ibfs_port_set *ports; /* NULL: every port */
	struct ibfs_observer obs;
	uint64_t count;
	uint64_t next_async;
	int error;
	int first;
	/* Bookkeeping by node and by port (port_base[node] + number). */
	size_t nnodes;
	uint8_t *proc_named;
	size_t *port_base;
	uint8_t *thread_named;  /* per port: 1 once its name is written */
	uint8_t *sm_named;      /* per node */
	ibfs_time_t *stall_since; /* per port; IBFS_TIME_NEVER when none */
	uint16_t *stall_vls;    /* per port: data VLs short of credits */
	uint32_t max_blocks;    /* credits of the largest packet */
	/* QPs whose thread is named: open addressing, key (node, qpn) + 1. */
	uint64_t *qp_keys;
	size_t qp_cap, qp_used;
	size_t len;
	char buf[TR_BUF];
};

/* Output primitives. */

static void tr_flush(struct ibfs_trace *t)
{
	if (t->len && !t->error && fwrite(t->buf, 1, t->len, t->out) != t->len)
		t->error = errno ? errno : EIO;
	t->len = 0;
}

static inline void tr_mem(struct ibfs_trace *t, const char *s, size_t n)
{
	if (n > TR_BUF - t->len) {
		tr_flush(t);
		if (n > TR_BUF) {
			if (!t->error && fwrite(s, 1, n, t->out) != n)
				t->error = errno ? errno : EIO;
			return;
		}
	}
	memcpy(t->buf + t->len, s, n);
	t->len += n;
}

static void tr_s(struct ibfs_trace *t, const char *s)
{
	tr_mem(t, s, strlen(s));
}

/* A string literal: its length is known when compiling. */
#define TR_LIT(t, lit) tr_mem((t), lit, sizeof(lit) - 1)

static void tr_c(struct ibfs_trace *t, char c)
{
	if (t->len == TR_BUF)
		tr_flush(t);
	t->buf[t->len++] = c;
}

/* Writes v in decimal ending just before `end`; returns its first digit. */
static char *tr_digits(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

static void tr_u64(struct ibfs_trace *t, uint64_t v)
{
	char d[24];
	char *b = tr_digits(d + sizeof(d), v);

	tr_mem(t, b, (size_t)(d + sizeof(d) - b));
}

/* Picoseconds as microseconds with six decimals: exact. */
static void tr_us(struct ibfs_trace *t, ibfs_time_t ps)
{
	char d[32];
	char *end = d + sizeof(d);
	uint64_t frac = ps % IBFS_US;

	for (int k = 0; k < 6; k++) {
		*--end = (char)('0' + frac % 10);
		frac /= 10;
	}
	*--end = '.';
	char *b = tr_digits(end, ps / IBFS_US);

	tr_mem(t, b, (size_t)(d + sizeof(d) - b));
}

/* A JSON string (RFC 8259 section 7): quotes, backslash and controls. */
static void tr_str(struct ibfs_trace *t, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	tr_c(t, '"');
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			tr_c(t, '\\');
			tr_c(t, (char)c);
		} else if (c < 0x20) {
			TR_LIT(t, "\\u00");
			tr_c(t, hex[c >> 4]);
			tr_c(t, hex[c & 15]);
		} else {
			tr_c(t, (char)c);
		}
	}
	tr_c(t, '"');
}

/* `"key":value` preceded by a comma; key is a string literal. */
#define TR_KV(t, key, v)                               \
	do {                                           \
		TR_LIT((t), ",\"" key "\":");          \
		tr_u64((t), (v));                      \
	} while (0)

/* Starts a record: {"ph":"P","pid":N,"tid":N (and the separator). */
static void tr_open(struct ibfs_trace *t, const char *ph, int node,
		    uint64_t tid)
{
	if (TR_BUF - t->len < TR_SLACK)
		tr_flush(t);
	tr_s(t, t->first ? "\n" : ",\n");
	t->first = 0;
	TR_LIT(t, "{\"ph\":\"");
	tr_s(t, ph);
	TR_LIT(t, "\"");
	TR_KV(t, "pid", (uint64_t)node + 1);
	TR_KV(t, "tid", tid);
}

/* Metadata: {"ph":"M",...,"name":NAME,"args":{KEY:value}}. */
static void tr_meta_str(struct ibfs_trace *t, int node, uint64_t tid,
			const char *name, const char *key, const char *val)
{
	tr_open(t, "M", node, tid);
	TR_LIT(t, ",\"name\":");
	tr_str(t, name);
	TR_LIT(t, ",\"args\":{");
	tr_str(t, key);
	tr_c(t, ':');
	tr_str(t, val);
	TR_LIT(t, "}}");
}

static void tr_meta_sort(struct ibfs_trace *t, int node, uint64_t tid,
			 const char *name, uint64_t idx)
{
	tr_open(t, "M", node, tid);
	TR_LIT(t, ",\"name\":");
	tr_str(t, name);
	TR_LIT(t, ",\"args\":{\"sort_index\":");
	tr_u64(t, idx);
	TR_LIT(t, "}}");
}

/* Names the process of `node` the first time it appears. */
static void tr_process(struct ibfs_trace *t, int node)
{
	if (t->proc_named[node])
		return;
	t->proc_named[node] = 1;
	const struct ibfs_topo_node *tn = &t->fab->topo->nodes[node];

	tr_meta_str(t, node, 0, "process_name", "name", tn->id);
	tr_meta_str(t, node, 0, "process_labels", "labels",
		    tn->type == IBFS_NODE_SWITCH ? "switch" : "HCA");
	tr_meta_sort(t, node, 0, "process_sort_index", (uint64_t)node);
}

static void tr_port_thread(struct ibfs_trace *t, const struct ibfs_port *p)
{
	size_t i = t->port_base[p->node] + (size_t)p->num;

	tr_process(t, p->node);
	if (t->thread_named[i])
		return;
	t->thread_named[i] = 1;
	char name[32];

	snprintf(name, sizeof(name), "port %d", p->num);
	tr_meta_str(t, p->node, (uint64_t)p->num, "thread_name", "name", name);
	tr_meta_sort(t, p->node, (uint64_t)p->num, "thread_sort_index",
		     (uint64_t)p->num);
}

/* 1 if key was added to the set, 0 if present or if memory ran out. */
static int tr_qp_add(struct ibfs_trace *t, uint64_t key)
{
	if (2 * (t->qp_used + 1) > t->qp_cap) {
		size_t cap = t->qp_cap ? 2 * t->qp_cap : 64;
		uint64_t *k = calloc(cap, sizeof(*k));

		if (!k)
			return 0;
		for (size_t i = 0; i < t->qp_cap; i++) {
			if (!t->qp_keys[i])
				continue;
			size_t j = (t->qp_keys[i] * 0x9E3779B97F4A7C15ull) &
				   (cap - 1);
			while (k[j])
				j = (j + 1) & (cap - 1);
			k[j] = t->qp_keys[i];
		}
		free(t->qp_keys);
		t->qp_keys = k;
		t->qp_cap = cap;
	}
	size_t j = (key * 0x9E3779B97F4A7C15ull) & (t->qp_cap - 1);

	while (t->qp_keys[j]) {
		if (t->qp_keys[j] == key)
			return 0;
		j = (j + 1) & (t->qp_cap - 1);
	}
	t->qp_keys[j] = key;
	t->qp_used++;
	return 1;
}

static void tr_qp_thread(struct ibfs_trace *t, int node, uint32_t qpn)
{
	tr_process(t, node);
	if (!tr_qp_add(t, ((uint64_t)node << 32 | qpn) + 1))
		return;
	char name[32];
	uint64_t tid = IBFS_TRACE_TID_QP + (uint64_t)qpn;

	snprintf(name, sizeof(name), "QP %u", (unsigned)qpn);
	tr_meta_str(t, node, tid, "thread_name", "name", name);
	tr_meta_sort(t, node, tid, "thread_sort_index", tid);
}

static void tr_sm_thread(struct ibfs_trace *t, int node)
{
	tr_process(t, node);
	if (t->sm_named[node])
		return;
	t->sm_named[node] = 1;
	tr_meta_str(t, node, IBFS_TRACE_TID_SM, "thread_name", "name",
		    "subnet manager");
	tr_meta_sort(t, node, IBFS_TRACE_TID_SM, "thread_sort_index",
		     IBFS_TRACE_TID_SM);
}

/* Packet names. */

/*
 * BTH opcodes (IBA 9.2, table 38): the upper three bits give the transport
 * (RC 0, UC 1, RD 2, UD 3, CNP 4, XRC 5), the lower five the operation.
 */
static const char *const tr_ops[24] = {
	"SEND First", "SEND Middle", "SEND Last",
	"SEND Last with Immediate", "SEND Only", "SEND Only with Immediate",
	"RDMA WRITE First", "RDMA WRITE Middle", "RDMA WRITE Last",
	"RDMA WRITE Last with Immediate", "RDMA WRITE Only",
	"RDMA WRITE Only with Immediate", "RDMA READ Request",
	"RDMA READ response First", "RDMA READ response Middle",
	"RDMA READ response Last", "RDMA READ response Only", "Acknowledge",
	"ATOMIC Acknowledge", "CmpSwap", "FetchAdd", NULL,
	"SEND Last with Invalidate", "SEND Only with Invalidate",
};

static const char *const tr_transports[8] = {"RC", "UC", "RD", "UD",
					     "CNP", "XRC", NULL, NULL};

const char *ibfs__trace_opcode_name(uint8_t opcode)
{
	unsigned tp = opcode >> 5, op = opcode & 31;

	if (opcode == 0x80)
		return "CNP";
	if (opcode == 0x55)
		return "RESYNC"; /* RD only */
	if (op >= 24 || !tr_ops[op])
		return "reserved opcode";
	switch (tp) {
	case 0: /* RC */
	case 2: /* RD */
	case 5: /* XRC */
		return tr_ops[op];
	case 1: /* UC: SEND and RDMA WRITE only */
		return op <= 11 ? tr_ops[op] : "reserved opcode";
	case 3: /* UD: SEND Only, with or without immediate data */
		return op == 4 || op == 5 ? tr_ops[op] : "reserved opcode";
	default:
		return "reserved opcode";
	}
}

static const char *tr_packet_name(const struct ibfs_packet *p)
{
	if (p->kind == IBFS_PKT_MGMT)
		return p->vl == IBFS_VL15 ? "SMP" : "GMP";
	if (p->kind == IBFS_PKT_RAW)
		return "raw packet";
	return ibfs__trace_opcode_name(p->opcode);
}

/* Observer callbacks. */

static int tr_selected(const struct ibfs_trace *t, const struct ibfs_port *out)
{
	return !t->ports || ibfs__port_set_has(t->ports, out->node, out->num);
}

static void tr_on_tx(void *ctx, const struct ibfs_port *out,
		     const struct ibfs_packet *p, ibfs_time_t start)
{
	struct ibfs_trace *t = ctx;

	if (t->error || !tr_selected(t, out))
		return;
	tr_port_thread(t, out);
	tr_open(t, "X", out->node, (uint64_t)out->num);
	TR_LIT(t, ",\"ts\":");
	tr_us(t, start);
	TR_LIT(t, ",\"dur\":");
	tr_us(t, ibfs__rate_ser_time(out->rate, p->wire_bytes));
	TR_LIT(t, ",\"cat\":\"packet\",\"name\":");
	tr_str(t, tr_packet_name(p));
	TR_LIT(t, ",\"args\":{\"dlid\":");
	tr_u64(t, p->dlid);
	TR_KV(t, "slid", p->slid);
	TR_KV(t, "sl", p->sl);
	TR_KV(t, "vl", p->vl);
	TR_KV(t, "psn", p->psn);
	TR_KV(t, "qp", p->dest_qp);
	TR_KV(t, "bytes", p->wire_bytes);
	TR_KV(t, "payload", p->payload_len);
	TR_KV(t, "pkt", p->id);
	if (p->kind == IBFS_PKT_DATA && tr_transports[p->opcode >> 5]) {
		TR_LIT(t, ",\"transport\":");
		tr_str(t, tr_transports[p->opcode >> 5]);
	}
	TR_LIT(t, "}}");
	t->count++;
}

static void tr_stall_event(struct ibfs_trace *t, const struct ibfs_port *out,
			   size_t i, ibfs_time_t end)
{
	char name[80];
	int n = snprintf(name, sizeof(name), "credit stall");
	uint16_t vls = t->stall_vls[i];
	const char *sep = " VL ";

	for (int vl = 0; vl < IBFS_MAX_VLS; vl++) {
		if (!(vls >> vl & 1))
			continue;
		n += snprintf(name + n, sizeof(name) - (size_t)n, "%s%d", sep,
			      vl);
		sep = ",";
	}
	tr_port_thread(t, out);
	tr_open(t, "X", out->node, (uint64_t)out->num);
	TR_LIT(t, ",\"ts\":");
	tr_us(t, t->stall_since[i]);
	TR_LIT(t, ",\"dur\":");
	tr_us(t, end - t->stall_since[i]);
	TR_LIT(t, ",\"cat\":\"stall\",\"name\":");
	tr_str(t, name);
	TR_LIT(t, ",\"args\":{\"vl_mask\":");
	tr_u64(t, vls);
	TR_LIT(t, "}}");
	t->count++;
}

static void tr_on_wait(void *ctx, const struct ibfs_port *out, int waiting)
{
	struct ibfs_trace *t = ctx;
	size_t i = t->port_base[out->node] + (size_t)out->num;
	ibfs_time_t now = t->fab->eq.now;

	if (t->error || !tr_selected(t, out))
		return;
	if (waiting) {
		uint16_t vls = 0;

		for (int vl = 0; vl < out->data_vls && vl < IBFS_VL15; vl++)
			if (out->vls[vl].credits < (int32_t)t->max_blocks)
				vls |= (uint16_t)(1u << vl);
		t->stall_since[i] = now;
		t->stall_vls[i] = vls;
	} else if (t->stall_since[i] != IBFS_TIME_NEVER) {
		if (now > t->stall_since[i])
			tr_stall_event(t, out, i, now);
		t->stall_since[i] = IBFS_TIME_NEVER;
	}
}

/* Opening and closing. */

static void trace_free(struct ibfs_trace *t)
{
	if (t->fab)
		for (struct ibfs_observer **o = &t->fab->observers; *o;
		     o = &(*o)->next)
			if (*o == &t->obs) {
				*o = t->obs.next;
				break;
			}
	free(t->proc_named);
	free(t->port_base);
	free(t->thread_named);
	free(t->sm_named);
	free(t->stall_since);
	free(t->stall_vls);
	free(t->qp_keys);
	free(t);
}

struct ibfs_trace *ibfs__trace_open(struct ibfs_fabric *f, const char *path,
				    const struct ibfs_port_set *ports)
{
	struct ibfs_trace *t = calloc(1, sizeof(*t));

	if (!t) {
		errno = ENOMEM;
		return NULL;
	}
	const struct ibfs_topology *topo = f->topo;
	size_t nn = topo->nnodes ? topo->nnodes : 1, np = 0;

	t->nnodes = topo->nnodes;
	t->port_base = calloc(nn, sizeof(*t->port_base));
	for (size_t n = 0; t->port_base && n < topo->nnodes; n++) {
		t->port_base[n] = np;
		np += (size_t)topo->nodes[n].nports + 1;
	}
	np = np ? np : 1;
	t->proc_named = calloc(nn, 1);
	t->sm_named = calloc(nn, 1);
	t->thread_named = calloc(np, 1);
	t->stall_since = malloc(np * sizeof(*t->stall_since));
	t->stall_vls = calloc(np, sizeof(*t->stall_vls));
	if (!t->port_base || !t->proc_named || !t->sm_named ||
	    !t->thread_named || !t->stall_since || !t->stall_vls) {
		trace_free(t);
		errno = ENOMEM;
		return NULL;
	}
	for (size_t i = 0; i < np; i++)
		t->stall_since[i] = IBFS_TIME_NEVER;
	if (ibfs__partfile_open(&t->pf, path) == 0)
		t->out = t->pf.out;
	if (!t->out) {
		int e = errno;

		trace_free(t);
		errno = e;
		return NULL;
	}
	/* The largest packet: MTU payload + 8 + 40 + 12 + 16 + 4 + 2 bytes. */
	t->max_blocks = (f->mtu + IBFS_LRH_BYTES + IBFS_GRH_BYTES +
			 IBFS_BTH_BYTES + IBFS_RETH_BYTES + IBFS_ICRC_BYTES +
			 IBFS_VCRC_BYTES + IBFS_CREDIT_BLOCK - 1) /
			IBFS_CREDIT_BLOCK;
	t->first = 1;
	TR_LIT(t, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
	t->fab = f;
	t->ports = ports;
	t->obs = (struct ibfs_observer){.on_tx = tr_on_tx,
					.on_wait = tr_on_wait, .ctx = t};
	ibfs__fabric_observe(f, &t->obs);
	return t;
}

int ibfs__trace_close(struct ibfs_trace *t)
{
	struct ibfs_fabric *f = t->fab;

	/* Stalls still open end now: the end of what was simulated. */
	for (size_t n = 0; n < t->nnodes; n++)
		for (int k = 0; k <= f->topo->nodes[n].nports; k++) {
			size_t i = t->port_base[n] + (size_t)k;

			if (t->stall_since[i] < f->eq.now)
				tr_stall_event(t, &f->ports[n][k], i,
					       f->eq.now);
		}
	TR_LIT(t, "\n]}\n");
	tr_flush(t);
	int rc = ibfs__partfile_commit(&t->pf, t->error);
	int e = errno;

	trace_free(t);
	errno = e;
	return rc;
}

void ibfs__trace_abort(struct ibfs_trace *t)
{
	ibfs__partfile_abort(&t->pf);
	trace_free(t);
}

uint64_t ibfs__trace_count(const struct ibfs_trace *t)
{
	return t->count;
}

/* Calls of the upper layers. */

static int tr_node_ok(const struct ibfs_trace *t, int node)
{
	return t && !t->error && node >= 0 && (size_t)node < t->nnodes;
}

/*
 * Opens the instant event "<what> <op>" of category `cat` at `ts` on the
 * thread of QP qpn (the low 24 bits), with wr_id and bytes in its args:
 * the caller adds any other args and closes it with "}}".
 */
static void tr_qp_instant(struct ibfs_trace *t, int node, uint32_t qpn,
			  ibfs_time_t ts, const char *cat, const char *what,
			  const char *op, uint64_t wr_id, uint64_t bytes)
{
	char name[80];

	snprintf(name, sizeof(name), "%s %s", what, op);
	tr_qp_thread(t, node, qpn & 0xFFFFFF);
	tr_open(t, "i", node, IBFS_TRACE_TID_QP + (uint64_t)(qpn & 0xFFFFFF));
	TR_LIT(t, ",\"s\":\"t\",\"ts\":");
	tr_us(t, ts);
	TR_LIT(t, ",\"cat\":\"");
	tr_s(t, cat);
	TR_LIT(t, "\",\"name\":");
	tr_str(t, name);
	TR_LIT(t, ",\"args\":{\"wr_id\":");
	tr_u64(t, wr_id);
	TR_KV(t, "bytes", bytes);
}

void ibfs__trace_wr(struct ibfs_trace *t, int node, uint32_t qpn,
		    uint64_t wr_id, const char *opcode, uint64_t bytes,
		    ibfs_time_t t_post)
{
	if (!tr_node_ok(t, node))
		return;
	tr_qp_instant(t, node, qpn, t_post, "wr", "post",
		      opcode ? opcode : "?", wr_id, bytes);
	TR_LIT(t, "}}");
	t->count++;
}

void ibfs__trace_cqe(struct ibfs_trace *t, int node, uint32_t qpn,
		     uint64_t wr_id, const char *opcode, const char *status,
		     uint64_t bytes, ibfs_time_t t_post, ibfs_time_t t_done)
{
	if (!tr_node_ok(t, node))
		return;
	uint64_t tid = IBFS_TRACE_TID_QP + (uint64_t)(qpn & 0xFFFFFF);
	const char *op = opcode ? opcode : "?";

	tr_qp_instant(t, node, qpn, t_done, "cqe", "CQE", op, wr_id, bytes);
	TR_LIT(t, ",\"status\":");
	tr_str(t, status ? status : "?");
	TR_LIT(t, "}}");
	t->count++;
	if (t_post > t_done)
		return; /* not a span: the instant event stands alone */
	/* The async span: "b" at the post, "e" at the completion. */
	uint64_t id = ++t->next_async;

	for (int e = 0; e < 2; e++) {
		tr_open(t, e ? "e" : "b", node, tid);
		TR_LIT(t, ",\"ts\":");
		tr_us(t, e ? t_done : t_post);
		TR_LIT(t, ",\"cat\":\"wr\",\"name\":");
		tr_str(t, op);
		TR_KV(t, "id", id);
		if (!e) {
			TR_LIT(t, ",\"args\":{\"wr_id\":");
			tr_u64(t, wr_id);
			TR_KV(t, "qp", qpn);
			TR_KV(t, "bytes", bytes);
			TR_LIT(t, "}");
		}
		tr_c(t, '}');
		t->count++;
	}
}

void ibfs__trace_sm_sweep(struct ibfs_trace *t, int node, const char *what,
			  ibfs_time_t start, ibfs_time_t end)
{
	if (!tr_node_ok(t, node) || end < start)
		return;
	tr_sm_thread(t, node);
	tr_open(t, "X", node, IBFS_TRACE_TID_SM);
	TR_LIT(t, ",\"ts\":");
	tr_us(t, start);
	TR_LIT(t, ",\"dur\":");
	tr_us(t, end - start);
	TR_LIT(t, ",\"cat\":\"sm\",\"name\":");
	tr_str(t, what ? what : "sweep");
	TR_LIT(t, "}");
	t->count++;
}

void ibfs__trace_sm_mark(struct ibfs_trace *t, int node, const char *what,
			 ibfs_time_t at)
{
	if (!tr_node_ok(t, node))
		return;
	tr_sm_thread(t, node);
	tr_open(t, "i", node, IBFS_TRACE_TID_SM);
	TR_LIT(t, ",\"s\":\"t\",\"ts\":");
	tr_us(t, at);
	TR_LIT(t, ",\"cat\":\"sm\",\"name\":");
	tr_str(t, what ? what : "mark");
	TR_LIT(t, "}");
	t->count++;
}

void ibfs__trace_counter(struct ibfs_trace *t, int node, const char *name,
			 ibfs_time_t at, const char *const *keys,
			 const uint64_t *vals, int n)
{
	if (!tr_node_ok(t, node))
		return;
	tr_process(t, node);
	tr_open(t, "C", node, 0);
	TR_LIT(t, ",\"ts\":");
	tr_us(t, at);
	TR_LIT(t, ",\"name\":");
	tr_str(t, name);
	TR_LIT(t, ",\"args\":{");
	for (int i = 0; i < n; i++) {
		if (i)
			tr_c(t, ',');
		tr_str(t, keys[i]);
		tr_c(t, ':');
		tr_u64(t, vals[i]);
	}
	TR_LIT(t, "}}");
	t->count++;
}
