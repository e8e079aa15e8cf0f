/* SPDX-License-Identifier: MIT */
/*
 * pcap + ERF capture writer (see capture.h). Formats:
 *  - pcap file header: magic 0xa1b23c4d (nanosecond timestamps), version
 *    2.4, snaplen 65535, link type 197 (LINKTYPE_ERF); records carry
 *    seconds, nanoseconds, captured and original lengths, host order.
 *  - ERF record header (16 bytes): timestamp as 64-bit little-endian
 *    fixed point (seconds in the upper 32 bits, binary fraction below),
 *    type 21 (TYPE_INFINIBAND), flags (bit 2: variable-length record; the
 *    low two bits: the interface, here the port number modulo 4), record
 *    length and wire length big-endian, loss counter 0.
 * A record's time is when the packet started on the wire at that port.
 * With a snap length, a record holds the packet's first snaplen bytes and
 * its wire length (pcap's caplen < len, ERF's rlen - 16 < wlen), which
 * tshark shows as "packet size limited during capture".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabric/capture.h"
#include "fabric/packet_encode.h"
#include "fabric/partfile.h"

#define ERF_TYPE_INFINIBAND 21
#define ERF_FLAG_VLEN 0x04
#define LINKTYPE_ERF 197

struct ibfs_capture {
	struct ibfs_fabric *fab;
	FILE *out;              /* pf.out */
	struct ibfs_partfile pf;
	uint8_t *sel;           /* [base[node] + port], NULL: default_select */
	size_t *base;
	uint32_t snaplen;       /* bytes kept of each packet */
	struct ibfs_observer obs;
	uint64_t count;
	int error;
	uint8_t buf[16 + IBFS_MAX_WIRE_BYTES];
};

static int is_hca(const struct ibfs_port *p)
{
	return p && p->dev && p->dev->fab &&
	       p->dev->fab->topo->nodes[p->dev->node].type == IBFS_NODE_HCA;
}

static int default_select(const struct ibfs_port *out)
{
	return is_hca(out) || is_hca(out->peer);
}

static void put_u32le(FILE *o, uint32_t v)
{
	uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
			(uint8_t)(v >> 24)};
	fwrite(b, 1, 4, o);
}

static void put_u16le(FILE *o, uint16_t v)
{
	uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
	fwrite(b, 1, 2, o);
}

static void write_file_header(FILE *o, uint32_t snaplen)
{
	put_u32le(o, 0xa1b23c4du);
	put_u16le(o, 2);
	put_u16le(o, 4);
	put_u32le(o, 0); /* thiszone */
	put_u32le(o, 0); /* sigfigs */
	put_u32le(o, snaplen);
	put_u32le(o, LINKTYPE_ERF);
}

static int selected(const struct ibfs_capture *c, const struct ibfs_port *out)
{
	if (!c->sel)
		return default_select(out);
	return c->sel[c->base[out->node] + (size_t)out->num];
}

/* ERF time: seconds << 32 | fraction of a second in units of 2^-32 s. */
static uint64_t erf_time(ibfs_time_t t)
{
	uint64_t sec = t / IBFS_S, ps = t % IBFS_S;
	uint64_t frac = (uint64_t)(((unsigned __int128)ps << 32) / IBFS_S);
	return (sec << 32) | frac;
}

static void on_tx(void *ctx, const struct ibfs_port *out,
		  const struct ibfs_packet *p, ibfs_time_t start)
{
	struct ibfs_capture *c = ctx;
	if (c->error || !selected(c, out))
		return;
	uint8_t *b = c->buf;
	size_t wire = ibfs__packet_encode(p, b + 16, IBFS_MAX_WIRE_BYTES);
	if (!wire)
		return;
	size_t n = wire < c->snaplen ? wire : c->snaplen;
	uint64_t ts = erf_time(start);
	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)(ts >> (8 * i));
	b[8] = ERF_TYPE_INFINIBAND;
	b[9] = (uint8_t)(ERF_FLAG_VLEN | (out->num & 3));
	size_t rlen = 16 + n;
	b[10] = (uint8_t)(rlen >> 8);
	b[11] = (uint8_t)rlen;
	b[12] = b[13] = 0;
	b[14] = (uint8_t)(wire >> 8);
	b[15] = (uint8_t)wire;
	put_u32le(c->out, (uint32_t)(start / IBFS_S));
	put_u32le(c->out, (uint32_t)((start % IBFS_S) / IBFS_NS));
	put_u32le(c->out, (uint32_t)rlen);
	put_u32le(c->out, (uint32_t)(16 + wire));
	if (fwrite(b, 1, rlen, c->out) != rlen)
		c->error = errno ? errno : EIO;
	c->count++;
}

/* The per-port flags of an explicit selection. */
static int capture_select(struct ibfs_capture *c, struct ibfs_fabric *f,
			  const struct ibfs_capture_opts *o)
{
	const struct ibfs_topology *t = f->topo;
	size_t total = 0;
	c->base = malloc((t->nnodes + 1) * sizeof(*c->base));
	if (!c->base)
		return -1;
	for (size_t i = 0; i < t->nnodes; i++) {
		c->base[i] = total;
		total += (size_t)t->nodes[i].nports + 1;
	}
	c->sel = calloc(total ? total : 1, 1);
	if (!c->sel)
		return -1;
	for (size_t k = 0; k < o->nports; k++) {
		const struct ibfs_capture_port *cp = &o->ports[k];
		int np = t->nodes[cp->node].nports;
		for (int p = cp->port ? cp->port : 1;
		     p <= (cp->port ? cp->port : np); p++)
			c->sel[c->base[cp->node] + (size_t)p] = 1;
	}
	return 0;
}

static void capture_release(struct ibfs_capture *c)
{
	free(c->sel);
	free(c->base);
	free(c);
}

struct ibfs_capture *ibfs__capture_open(struct ibfs_fabric *f,
					const char *path,
					const struct ibfs_capture_opts *o)
{
	struct ibfs_capture *c = calloc(1, sizeof(*c));
	if (!c || (o && o->nports && capture_select(c, f, o) < 0)) {
		if (c)
			capture_release(c);
		errno = ENOMEM;
		return NULL;
	}
	c->snaplen = o && o->snaplen && o->snaplen < 65535 ? o->snaplen
							  : 65535;
	if (ibfs__partfile_open(&c->pf, path) < 0) {
		int e = errno;
		capture_release(c);
		errno = e;
		return NULL;
	}
	c->out = c->pf.out;
	write_file_header(c->out, c->snaplen);
	c->fab = f;
	c->obs = (struct ibfs_observer){.on_tx = on_tx, .ctx = c};
	ibfs__fabric_observe(f, &c->obs);
	return c;
}

static void capture_free(struct ibfs_capture *c)
{
	/* Unlink the observer from the fabric's list. */
	for (struct ibfs_observer **o = &c->fab->observers; *o;
	     o = &(*o)->next)
		if (*o == &c->obs) {
			*o = c->obs.next;
			break;
		}
	capture_release(c);
}

int ibfs__capture_close(struct ibfs_capture *c)
{
	int rc = ibfs__partfile_commit(&c->pf, c->error);
	int e = errno;
	capture_free(c);
	errno = e;
	return rc;
}

void ibfs__capture_abort(struct ibfs_capture *c)
{
	ibfs__partfile_abort(&c->pf);
	capture_free(c);
}

uint64_t ibfs__capture_count(const struct ibfs_capture *c)
{
	return c->count;
}

/* One NODE or NODE:PORT of a --pcap-ports list, into *cp. */
static int parse_one(const struct ibfs_topology *t, const char *s, size_t len,
		     struct ibfs_capture_port *cp, char *err, size_t errlen)
{
	char id[256];
	const char *colon = memchr(s, ':', len);
	size_t idlen = colon ? (size_t)(colon - s) : len;
	if (!idlen || idlen >= sizeof(id)) {
		snprintf(err, errlen, "'%.*s' is not NODE or NODE:PORT",
			 (int)len, s);
		return -1;
	}
	memcpy(id, s, idlen);
	id[idlen] = 0;
	cp->node = ibfs__topo_find(t, id);
	cp->port = 0;
	if (cp->node < 0) {
		snprintf(err, errlen, "no node '%s' in the fabric", id);
		return -1;
	}
	if (!colon)
		return 0;
	char *e;
	long p = strtol(colon + 1, &e, 10);
	int np = t->nodes[cp->node].nports;
	if (e == colon + 1 || e != s + len || p < 1 || p > np) {
		snprintf(err, errlen, "'%.*s': '%s' has ports 1 to %d",
			 (int)len, s, id, np);
		return -1;
	}
	cp->port = (int)p;
	return 0;
}

struct ibfs_capture_port *ibfs__capture_parse_ports(
	const struct ibfs_topology *t, const char *list, size_t *n, char *err,
	size_t errlen)
{
	size_t cap = !strcmp(list, "all") ? t->nnodes : 1;
	for (const char *s = list; *s; s++)
		cap += *s == ',';
	struct ibfs_capture_port *v = malloc((cap ? cap : 1) * sizeof(*v));
	*n = 0;
	if (!v) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (!strcmp(list, "all")) {
		for (size_t i = 0; i < t->nnodes; i++)
			v[(*n)++] = (struct ibfs_capture_port){(int)i, 0};
		return v;
	}
	for (const char *s = list;; ) {
		size_t len = strcspn(s, ",");
		if (parse_one(t, s, len, &v[*n], err, errlen) < 0) {
			free(v);
			return NULL;
		}
		(*n)++;
		if (!s[len])
			return v;
		s += len + 1;
	}
}
