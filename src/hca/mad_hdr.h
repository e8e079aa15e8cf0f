/* SPDX-License-Identifier: MIT */
/*
 * The common MAD header (IBA 13.4.2), the first 24 bytes of every MAD,
 * big endian:
 *
 *    0  BaseVersion (1), MgmtClass, ClassVersion, R|Method
 *    4  Status (16 bits), ClassSpecific (16 bits)
 *    8  TransactionID (64 bits)
 *   16  AttributeID, Reserved (16 bits each)
 *   20  AttributeModifier (32 bits)
 *
 * One codec for the classes this model has: the SMPs of the subnet
 * manager and its agents (subnet_manager/mad.c), where a directed-route
 * SMP puts its D bit in Status bit 15 and HopPointer and HopCount in
 * ClassSpecific (IBA 14.2.1.2), and the SA's MADs (sa_mad.c).
 */
#ifndef IBFS_HCA_MAD_HDR_H
#define IBFS_HCA_MAD_HDR_H

#include <stdint.h>

#include "fabric/bytes.h"

enum { IBFS_MAD_HDR_BYTES = 24, IBFS_MAD_BASE_VERSION = 1 };

struct ibfs_mad_hdr {
	uint8_t mgmt_class, class_version, method;
	uint16_t status;         /* all 16 bits, as the class uses them */
	uint16_t class_specific;
	uint64_t tid;
	uint16_t attr_id;
	uint32_t attr_mod;
};

/*
 * Inline: every SMP of a sweep goes through these twice, and a call with
 * the header in memory costs more than the header's own bytes.
 */
/* Writes h into mad[0..23], BaseVersion 1 and the reserved field 0. */
static inline void ibfs__mad_hdr_put(uint8_t *mad,
				     const struct ibfs_mad_hdr *h)
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

/* Reads mad[0..23] into h; -1 when BaseVersion is not 1. */
static inline int ibfs__mad_hdr_get(const uint8_t *mad,
				    struct ibfs_mad_hdr *h)
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

#endif
