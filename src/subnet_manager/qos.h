/* SPDX-License-Identifier: MIT */
/*
 * QoS settings the subnet manager programs into every port, as OpenSM's
 * qos_* options (opensm.conf, doc/QoS_management_in_OpenSM.txt section 7):
 * the SL-to-VL table (IBA 7.6.6), the VL arbitration tables of high and
 * low priority and LimitOfHighPriority (IBA 7.6.9). They apply to every
 * switch output and HCA port alike (OpenSM's qos_swe_* and qos_ca_*,
 * which ibfsim does not tell apart).
 */
#ifndef IBFS_SM_QOS_H
#define IBFS_SM_QOS_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/vl_arbiter.h"

#define IBFS_QOS_ENTRIES 64 /* VLArbitrationHighCap/LowCap (two blocks) */

struct ibfs_qos {
	int given;            /* 0: no QoS settings, the fabric's defaults */
	uint8_t sl2vl[16];
	int nhigh, nlow;
	struct ibfs_vlarb_entry high[IBFS_QOS_ENTRIES], low[IBFS_QOS_ENTRIES];
	uint8_t high_limit;   /* 4 KiB units; 255: no bound */
};

/*
 * What a port does without QoS settings, for data_vls data VLs: SL s on
 * VL s mod data_vls, the low-priority table one entry of weight 1 per data
 * VL (each VL sends one packet in turn), no high-priority entry, limit 255.
 */
void ibfs__qos_default(struct ibfs_qos *q, int data_vls);

/*
 * Parsers of OpenSM's option values; each returns 0, or -1 with why in
 * err (a phrase, e.g. "entry 3: weight 300 is above 255").
 *   vlarb: "VL:WEIGHT,VL:WEIGHT,...", up to 64 entries, VL 0-14, weight
 *          0-255 (64-byte units; 0 skips the entry);
 *   sl2vl: 16 VLs separated by commas, one for each SL from 0;
 *   high_limit: 0-255.
 * VLs are checked against data_vls: an entry for a VL the fabric does not
 * have is refused rather than skipped.
 */
int ibfs__qos_parse_vlarb(const char *s, int data_vls,
			  struct ibfs_vlarb_entry *t, int *n, char *err,
			  size_t errlen);
int ibfs__qos_parse_sl2vl(const char *s, int data_vls, uint8_t sl2vl[16],
			  char *err, size_t errlen);
int ibfs__qos_parse_limit(const char *s, uint8_t *limit, char *err,
			  size_t errlen);
/*
 * For the engines that put routes on SLs themselves (dfsssp's virtual
 * layers, lash's lanes: OpenSM's path_sl, which returns the layer as the
 * SL). They use SLs 0 to data_vls - 1, spreading routes over every VL
 * even when fewer would break the credit loops (dfsssp's balancing), and
 * count on SL i reaching VL i's buffers alone. OpenSM asks for QoS with
 * them (-Q, whose default qos_sl2vl is that identity) and then programs
 * qos_sl2vl as given. ibfsim takes the tables too, but refuses an
 * SL-to-VL table that puts two of those SLs on one VL, which would merge
 * their layers. 0, or -1 with the first such pair in err.
 */
int ibfs__qos_check_layers(const struct ibfs_qos *q, int data_vls,
			   const char *engine, char *err, size_t errlen);
/*
 * OpenSM's four QoS options as ibfsim names them (scenario attributes,
 * `ibfsim route` options without the dashes): qos-sl2vl, qos-vlarb-high,
 * qos-vlarb-low, qos-high-limit.
 */
#define IBFS_QOS_NOPTS 4
extern const char *const ibfs__qos_opt_names[IBFS_QOS_NOPTS];
/*
 * q from the option values v[i] (NULL: not given), in the order of
 * ibfs__qos_opt_names, for data_vls data VLs: the defaults, and QoS on
 * if any is given, with OpenSM's limit 0 unless qos-high-limit says
 * otherwise. Returns 0, or -1 with why in err and the option at fault in
 * *bad (-1: the tables together, ibfs__qos_check).
 */
int ibfs__qos_from_opts(struct ibfs_qos *q, int data_vls,
			const char *const v[IBFS_QOS_NOPTS], int *bad,
			char *err, size_t errlen);
/*
 * 0 if every VL some SL maps to has a weight in one of the tables; else
 * -1 with the first VL that has none in err (its packets would never be
 * sent: IBA 7.6.9).
 */
int ibfs__qos_check(const struct ibfs_qos *q, char *err, size_t errlen);

#endif
