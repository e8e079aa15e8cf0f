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
 * An Ethernet capture's file header names LINKTYPE_ETHERNET (1) and its
 * records hold the frame itself, destination MAC to FCS (the pcap
 * record's original length counts the FCS, as a capture taken with the
 * FCS kept does); a record's time is when the frame's preamble starts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabric/capture.h"
#include "fabric/eth.h"
#include "fabric/packet_encode.h"
#include "fabric/tcp_frame.h"
#include "fabric/partfile.h"

#define ERF_TYPE_INFINIBAND 21
#define ERF_FLAG_VLEN 0x04
#define LINKTYPE_ERF 197
#define LINKTYPE_ETHERNET 1
/* The largest of an ERF record and an Ethernet frame, RoCE's or TCP's. */
#define CAPTURE_MAX2(a, b) ((a) > (b) ? (a) : (b))
#define CAPTURE_BUF                                                     \
	CAPTURE_MAX2(CAPTURE_MAX2(16 + IBFS_MAX_WIRE_BYTES,             \
				  IBFS_MAX_ETH_FRAME),                  \
		     IBFS_MAX_TCP_FRAME)

struct ibfs_capture {
	struct ibfs_fabric *fab;
	FILE *out;              /* pf.out */
	struct ibfs_partfile pf;
	const struct ibfs_port_set *ports; /* NULL: default_select */
	uint32_t snaplen;       /* bytes kept of each packet */
	enum ibfs_capture_link link;
	uint8_t vlan, ipv6;     /* Ethernet framing */
	struct ibfs_observer obs;
	uint64_t count;
	int error;
	uint8_t buf[CAPTURE_BUF];
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

static void write_file_header(FILE *o, uint32_t snaplen, uint32_t link)
{
	put_u32le(o, 0xa1b23c4du);
	put_u16le(o, 2);
	put_u16le(o, 4);
	put_u32le(o, 0); /* thiszone */
	put_u32le(o, 0); /* sigfigs */
	put_u32le(o, snaplen);
	put_u32le(o, link);
}

static int selected(const struct ibfs_capture *c, const struct ibfs_port *out)
{
	if (!c->ports)
		return default_select(out);
	return ibfs__port_set_has(c->ports, out->node, out->num);
}

/* ERF time: seconds << 32 | fraction of a second in units of 2^-32 s. */
static uint64_t erf_time(ibfs_time_t t)
{
	uint64_t sec = t / IBFS_S, ps = t % IBFS_S;
	uint64_t frac = (uint64_t)(((unsigned __int128)ps << 32) / IBFS_S);
	return (sec << 32) | frac;
}

/* A pcap record of the frame of `len` bytes in c->buf, sent at start. */
static void write_frame(struct ibfs_capture *c, size_t len, ibfs_time_t start)
{
	size_t n = len < c->snaplen ? len : c->snaplen;

	put_u32le(c->out, (uint32_t)(start / IBFS_S));
	put_u32le(c->out, (uint32_t)((start % IBFS_S) / IBFS_NS));
	put_u32le(c->out, (uint32_t)n);
	put_u32le(c->out, (uint32_t)len);
	if (fwrite(c->buf, 1, n, c->out) != n)
		c->error = errno ? errno : EIO;
	c->count++;
}

static void on_tx_eth(struct ibfs_capture *c, const struct ibfs_packet *p,
		      ibfs_time_t start)
{
	size_t len = ibfs__is_tcp_frame(p) ?
			     ibfs__tcp_encode(p, c->vlan, c->buf,
					      sizeof(c->buf)) :
			     ibfs__roce_encode(p, c->vlan, c->ipv6, c->buf,
					       sizeof(c->buf));

	if (len)
		write_frame(c, len, start);
}

static void on_tx(void *ctx, const struct ibfs_port *out,
		  const struct ibfs_packet *p, ibfs_time_t start)
{
	struct ibfs_capture *c = ctx;
	if (c->error || !selected(c, out))
		return;
	if (c->link == IBFS_CAPTURE_ETH) {
		on_tx_eth(c, p, start);
		return;
	}
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

struct ibfs_capture *ibfs__capture_open(struct ibfs_fabric *f,
					const char *path,
					const struct ibfs_capture_opts *o)
{
	struct ibfs_capture *c = calloc(1, sizeof(*c));
	if (!c) {
		errno = ENOMEM;
		return NULL;
	}
	c->ports = o ? o->ports : NULL;
	c->link = o ? o->link : IBFS_CAPTURE_IB;
	c->vlan = o ? o->vlan : 0;
	c->ipv6 = o ? o->ipv6 : 0;
	c->snaplen = o && o->snaplen && o->snaplen < 65535 ? o->snaplen
							  : 65535;
	if (ibfs__partfile_open(&c->pf, path) < 0) {
		int e = errno;
		free(c);
		errno = e;
		return NULL;
	}
	c->out = c->pf.out;
	write_file_header(c->out, c->snaplen,
			  c->link == IBFS_CAPTURE_ETH ? LINKTYPE_ETHERNET
						      : LINKTYPE_ERF);
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
	free(c);
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

/* The MAC of port `num` of node `node`: its host's on an HCA (host ids
 * count the HCA ports from 1 in topology order, fabric/eth.h). */
static void port_mac(const struct ibfs_topology *t, int node, int num,
		     uint8_t mac[6])
{
	uint32_t host = 0;

	if (t->nodes[node].type != IBFS_NODE_HCA) {
		mac[0] = 0x02; /* locally administered, unicast */
		mac[1] = 0x01;
		mac[2] = (uint8_t)(node >> 16);
		mac[3] = (uint8_t)(node >> 8);
		mac[4] = (uint8_t)node;
		mac[5] = (uint8_t)num;
		return;
	}
	for (int i = 0; i < node; i++)
		if (t->nodes[i].type == IBFS_NODE_HCA)
			host += (uint32_t)t->nodes[i].nports;
	ibfs__eth_mac(host + (uint32_t)num, mac);
}

int ibfs__capture_pfc(struct ibfs_capture *c, const struct ibfs_port *out,
		      ibfs_time_t start, uint8_t enable,
		      const uint16_t quanta[8])
{
	uint8_t mac[6];

	if (c->link != IBFS_CAPTURE_ETH || c->error || !selected(c, out))
		return c->error ? -1 : 0;
	port_mac(c->fab->topo, out->node, out->num, mac);
	size_t len = ibfs__pfc_encode(mac, enable, quanta, c->buf,
				      sizeof(c->buf));
	write_frame(c, len, start);
	return c->error ? -1 : 0;
}
