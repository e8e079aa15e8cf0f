/* SPDX-License-Identifier: MIT */
/*
 * The common MAD header's codec (mad_hdr.h has the layout, IBA 13.4.2).
 */
#include "hca/mad_hdr.h"

#include "fabric/bytes.h"

void ibfs__mad_hdr_put(uint8_t *mad, const struct ibfs_mad_hdr *h)
{
	mad[0] = IBFS_MAD_BASE_VERSION;
	mad[1] = h->mgmt_class;
	mad[2] = h->class_version;
	mad[3] = h->method;
	ibfs__put16(mad + 4, h->status);
	ibfs__put16(mad + 6, h->class_specific);
	ibfs__put64(mad + 8, h->tid);
	ibfs__put16(mad + 16, h->attr_id);
	ibfs__put16(mad + 18, 0);
	ibfs__put32(mad + 20, h->attr_mod);
}

int ibfs__mad_hdr_get(const uint8_t *mad, struct ibfs_mad_hdr *h)
{
	if (mad[0] != IBFS_MAD_BASE_VERSION)
		return -1;
	h->mgmt_class = mad[1];
	h->class_version = mad[2];
	h->method = mad[3];
	h->status = ibfs__get16(mad + 4);
	h->class_specific = ibfs__get16(mad + 6);
	h->tid = ibfs__get64(mad + 8);
	h->attr_id = ibfs__get16(mad + 16);
	h->attr_mod = ibfs__get32(mad + 20);
	return 0;
}
