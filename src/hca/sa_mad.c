/* SPDX-License-Identifier: MIT */
/*
 * The SA MAD codec and its packet (sa_mad.h has the layouts; the common
 * header is mad_hdr.c's). Fields a record does not carry are zero on the
 * wire, as the IBA's reserved bits.
 */
#include <string.h>

#include "fabric/bytes.h"
#include "fabric/fabric.h"
#include "hca/mad_hdr.h"
#include "hca/sa_mad.h"

void ibfs__sa_mad_encode(const struct ibfs_sa_mad *m,
			 uint8_t mad[IBFS_MAD_BYTES])
{
	struct ibfs_mad_hdr h = {
		.mgmt_class = IBFS_MCLASS_SUBN_ADM,
		.class_version = IBFS_SA_CLASS_VERSION,
		.method = m->method,
		.status = m->status,
		.tid = m->tid,
		.attr_id = m->attr_id,
		.attr_mod = m->attr_mod,
	};

	memset(mad, 0, IBFS_MAD_BYTES);
	ibfs__mad_hdr_put(mad, &h);
	mad[24] = m->rmpp_version;
	mad[25] = m->rmpp_type;
	mad[26] = (uint8_t)(m->rresp_time << 3 | (m->rmpp_flags & 7));
	mad[27] = m->rmpp_status;
	ibfs__put32(mad + 28, m->rmpp_data1);
	ibfs__put32(mad + 32, m->rmpp_data2);
	ibfs__put64(mad + 36, m->sm_key);
	ibfs__put16(mad + 44, m->attr_offset);
	ibfs__put64(mad + 48, m->comp_mask);
	memcpy(mad + IBFS_SA_HDR_BYTES, m->data, IBFS_SA_DATA_BYTES);
}

int ibfs__sa_mad_decode(const uint8_t mad[IBFS_MAD_BYTES],
			struct ibfs_sa_mad *m)
{
	struct ibfs_mad_hdr h;

	if (ibfs__mad_hdr_get(mad, &h) < 0 ||
	    h.mgmt_class != IBFS_MCLASS_SUBN_ADM ||
	    h.class_version != IBFS_SA_CLASS_VERSION)
		return -1;
	m->method = h.method;
	m->status = h.status;
	m->tid = h.tid;
	m->attr_id = h.attr_id;
	m->attr_mod = h.attr_mod;
	m->rmpp_version = mad[24];
	m->rmpp_type = mad[25];
	m->rresp_time = mad[26] >> 3;
	m->rmpp_flags = mad[26] & 7;
	m->rmpp_status = mad[27];
	m->rmpp_data1 = ibfs__get32(mad + 28);
	m->rmpp_data2 = ibfs__get32(mad + 32);
	m->sm_key = ibfs__get64(mad + 36);
	m->attr_offset = ibfs__get16(mad + 44);
	m->comp_mask = ibfs__get64(mad + 48);
	memcpy(m->data, mad + IBFS_SA_HDR_BYTES, IBFS_SA_DATA_BYTES);
	return 0;
}

/* A 2-bit selector over a 6-bit value, as MTU, rate and life time. */
static uint8_t sa_sel(uint8_t sel, uint8_t v)
{
	return (uint8_t)((sel & 3) << 6 | (v & 0x3f));
}

void ibfs__sa_put_mcmember(uint8_t *d, const struct ibfs_mcmember_rec *r)
{
	memset(d, 0, IBFS_MCMEMBER_BYTES);
	memcpy(d, r->mgid, 16);
	memcpy(d + 16, r->port_gid, 16);
	ibfs__put32(d + 32, r->qkey);
	ibfs__put16(d + 36, r->mlid);
	d[38] = sa_sel(r->mtu_sel, r->mtu);
	d[39] = r->tclass;
	ibfs__put16(d + 40, r->pkey);
	d[42] = sa_sel(r->rate_sel, r->rate);
	d[43] = sa_sel(r->life_sel, r->life);
	ibfs__put32(d + 44, (uint32_t)(r->sl & 0xf) << 28 |
				    (r->flow & 0xfffff) << 8 | r->hop_limit);
	d[48] = (uint8_t)((r->scope & 0xf) << 4 | (r->join_state & 0xf));
	d[49] = (uint8_t)(r->proxy ? 0x80 : 0);
}

void ibfs__sa_get_mcmember(const uint8_t *d, struct ibfs_mcmember_rec *r)
{
	uint32_t sfh = ibfs__get32(d + 44);

	memcpy(r->mgid, d, 16);
	memcpy(r->port_gid, d + 16, 16);
	r->qkey = ibfs__get32(d + 32);
	r->mlid = ibfs__get16(d + 36);
	r->mtu_sel = d[38] >> 6;
	r->mtu = d[38] & 0x3f;
	r->tclass = d[39];
	r->pkey = ibfs__get16(d + 40);
	r->rate_sel = d[42] >> 6;
	r->rate = d[42] & 0x3f;
	r->life_sel = d[43] >> 6;
	r->life = d[43] & 0x3f;
	r->sl = (uint8_t)(sfh >> 28);
	r->flow = sfh >> 8 & 0xfffff;
	r->hop_limit = (uint8_t)sfh;
	r->scope = d[48] >> 4;
	r->join_state = d[48] & 0xf;
	r->proxy = d[49] >> 7;
}

void ibfs__sa_put_path(uint8_t *d, const struct ibfs_path_rec *r)
{
	memset(d, 0, IBFS_PATH_RECORD_BYTES);
	memcpy(d + 8, r->dgid, 16);
	memcpy(d + 24, r->sgid, 16);
	ibfs__put16(d + 40, r->dlid);
	ibfs__put16(d + 42, r->slid);
	ibfs__put32(d + 44, (uint32_t)(r->raw & 1) << 31 |
				    (r->flow & 0xfffff) << 8 | r->hop_limit);
	d[48] = r->tclass;
	d[49] = (uint8_t)((r->reversible & 1) << 7 | (r->numb_path & 0x7f));
	ibfs__put16(d + 50, r->pkey);
	ibfs__put16(d + 52, (uint16_t)((r->qos_class & 0xfff) << 4 |
				       (r->sl & 0xf)));
	d[54] = sa_sel(r->mtu_sel, r->mtu);
	d[55] = sa_sel(r->rate_sel, r->rate);
	d[56] = sa_sel(r->life_sel, r->life);
	d[57] = r->preference;
}

void ibfs__sa_get_path(const uint8_t *d, struct ibfs_path_rec *r)
{
	uint32_t rfh = ibfs__get32(d + 44);
	uint16_t qs = ibfs__get16(d + 52);

	memcpy(r->dgid, d + 8, 16);
	memcpy(r->sgid, d + 24, 16);
	r->dlid = ibfs__get16(d + 40);
	r->slid = ibfs__get16(d + 42);
	r->raw = (uint8_t)(rfh >> 31);
	r->flow = rfh >> 8 & 0xfffff;
	r->hop_limit = (uint8_t)rfh;
	r->tclass = d[48];
	r->reversible = d[49] >> 7;
	r->numb_path = d[49] & 0x7f;
	r->pkey = ibfs__get16(d + 50);
	r->qos_class = qs >> 4;
	r->sl = qs & 0xf;
	r->mtu_sel = d[54] >> 6;
	r->mtu = d[54] & 0x3f;
	r->rate_sel = d[55] >> 6;
	r->rate = d[55] & 0x3f;
	r->life_sel = d[56] >> 6;
	r->life = d[56] & 0x3f;
	r->preference = d[57];
}

void ibfs__sa_port_gid(uint64_t port_guid, uint8_t gid[16])
{
	memset(gid, 0, 16);
	gid[0] = 0xfe;
	gid[1] = 0x80;
	ibfs__put64(gid + 8, port_guid);
}

uint64_t ibfs__sa_gid_guid(const uint8_t gid[16])
{
	return ibfs__get64(gid + 8);
}

struct ibfs_packet *ibfs__sa_packet(struct ibfs_fabric *f,
				    const struct ibfs_sa_mad *m, uint16_t dlid,
				    uint16_t slid, uint8_t sl, uint8_t vl,
				    uint16_t pkey)
{
	struct ibfs_packet *p = ibfs__mad_packet_new(
		f, dlid, slid, sl, vl, pkey, IBFS_GSI_QP, IBFS_GSI_QKEY);

	if (!p)
		return NULL;
	ibfs__sa_mad_encode(m, p->payload);
	ibfs__packet_finish(p);
	return p;
}
