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

enum { IBFS_MAD_HDR_BYTES = 24, IBFS_MAD_BASE_VERSION = 1 };

struct ibfs_mad_hdr {
	uint8_t mgmt_class, class_version, method;
	uint16_t status;         /* all 16 bits, as the class uses them */
	uint16_t class_specific;
	uint64_t tid;
	uint16_t attr_id;
	uint32_t attr_mod;
};

/* Writes h into mad[0..23], BaseVersion 1 and the reserved field 0. */
void ibfs__mad_hdr_put(uint8_t *mad, const struct ibfs_mad_hdr *h);
/* Reads mad[0..23] into h; -1 when BaseVersion is not 1. */
int ibfs__mad_hdr_get(const uint8_t *mad, struct ibfs_mad_hdr *h);

#endif
