/* SPDX-License-Identifier: MIT */
/*
 * VL arbitration of a port's transmitter (IBA 7.6.9), for switch outputs
 * and HCA ports alike. VL15 always goes first and is not in the tables.
 * Data VLs are served from two tables, high and low priority, of up to 64
 * (VL, weight) entries; a weight counts 64-byte units. The current entry
 * of a table may send while its remaining weight is above zero and its VL
 * has a packet ready; a packet is sent whole even if it is longer than
 * what remains, and the remainder is then charged below zero. When the
 * remainder is used up, or the entry's VL has nothing ready, the table
 * moves on to its next entry with that entry's full weight. A VL in
 * neither table is never served (IBA 7.6.9).
 *
 * LimitOfHighPriority (IBA 7.6.9, VLArbitration in PortInfo) bounds, in
 * 4096-byte units, the high-priority bytes sent before one low-priority
 * packet that is ready gets to go; 0 means one high-priority packet, 255
 * means no bound. We count it in bytes of the packets sent and reset the
 * count only when a low-priority packet goes: high-priority bytes sent
 * while no low-priority packet was ready count too, so a low-priority
 * packet that becomes ready after a long high-priority run goes next.
 *
 * A pick scans at most one turn of a table, O(entries); the default
 * tables have one entry per data VL.
 */
#include "fabric/vl_arbiter.h"

#include <string.h>

#include "fabric/packet.h"

static int32_t arb_weight(const struct ibfs_vlarb_entry *e)
{
	return (int32_t)e->weight * 64;
}

void ibfs__vlarb_default(struct ibfs_vlarb *a, int data_vls)
{
	/* One packet per data VL in turn: weight 1 is one 64-byte unit. */
	memset(a, 0, sizeof(*a));
	for (int vl = 0; vl < data_vls; vl++)
		a->low[vl] = (struct ibfs_vlarb_entry){ (uint8_t)vl, 1 };
	a->nlow = (uint8_t)data_vls;
	a->lo_left = arb_weight(&a->low[0]);
	a->limit = 255;
}

/* 1 if some entry of the table has weight and a ready VL. */
static int arb_any(const struct ibfs_vlarb_entry *t, int n, uint32_t ready)
{
	for (int i = 0; i < n; i++)
		if (t[i].weight && (ready >> t[i].vl & 1))
			return 1;
	return 0;
}

static int arb_table(const struct ibfs_vlarb_entry *t, int n, uint8_t *at,
		     int32_t *left, uint32_t ready)
{
	for (int k = 0; k <= n; k++) {
		const struct ibfs_vlarb_entry *e = &t[*at];

		if (e->weight && *left > 0 && (ready >> e->vl & 1))
			return e->vl;
		*at = (uint8_t)((*at + 1) % n);
		*left = arb_weight(&t[*at]);
	}
	return -1;
}

int ibfs__vlarb_pick(struct ibfs_vlarb *a, uint32_t ready, int *high)
{
	int hi_ok = arb_any(a->high, a->nhigh, ready);
	int lo_ok = arb_any(a->low, a->nlow, ready);
	uint64_t bound = (uint64_t)a->limit * 4096;

	if (hi_ok && (!lo_ok || a->limit == 255 || a->hi_sent == 0 ||
		      a->hi_sent < bound)) {
		*high = 1;
		return arb_table(a->high, a->nhigh, &a->hi_at, &a->hi_left,
				 ready);
	}
	if (lo_ok) {
		*high = 0;
		return arb_table(a->low, a->nlow, &a->lo_at, &a->lo_left,
				 ready);
	}
	return -1;
}

void ibfs__vlarb_charge(struct ibfs_vlarb *a, int high, uint32_t bytes)
{
	const struct ibfs_vlarb_entry *t = high ? a->high : a->low;
	int n = high ? a->nhigh : a->nlow;
	uint8_t *at = high ? &a->hi_at : &a->lo_at;
	int32_t *left = high ? &a->hi_left : &a->lo_left;

	if (!high)
		a->hi_sent = 0;
	else if (a->hi_sent > UINT32_MAX - bytes)
		a->hi_sent = UINT32_MAX;
	else
		a->hi_sent += bytes;
	*left -= (int32_t)bytes;
	if (*left <= 0) {
		*at = (uint8_t)((*at + 1) % n);
		*left = arb_weight(&t[*at]);
	}
}

int ibfs__vlarb_serves(const struct ibfs_vlarb *a, int vl)
{
	for (int i = 0; i < a->nhigh; i++)
		if (a->high[i].weight && a->high[i].vl == vl)
			return 1;
	for (int i = 0; i < a->nlow; i++)
		if (a->low[i].weight && a->low[i].vl == vl)
			return 1;
	return 0;
}

static int arb_check(const struct ibfs_vlarb_entry *t, int n)
{
	if (n < 0 || n > 64 || (n && !t))
		return -1;
	for (int i = 0; i < n; i++)
		if (t[i].vl >= IBFS_VL15)
			return -1;
	return 0;
}

int ibfs__vlarb_check(const struct ibfs_vlarb_entry *high, int nhigh,
		      const struct ibfs_vlarb_entry *low, int nlow)
{
	return arb_check(high, nhigh) < 0 || arb_check(low, nlow) < 0 ? -1 :
									0;
}

int ibfs__vlarb_set(struct ibfs_vlarb *a, const struct ibfs_vlarb_entry *high,
		    int nhigh, const struct ibfs_vlarb_entry *low, int nlow,
		    uint8_t limit_high)
{
	if (ibfs__vlarb_check(high, nhigh, low, nlow) < 0)
		return -1;
	memset(a, 0, sizeof(*a));
	if (nhigh)
		memcpy(a->high, high, (size_t)nhigh * sizeof(*high));
	if (nlow)
		memcpy(a->low, low, (size_t)nlow * sizeof(*low));
	a->nhigh = (uint8_t)nhigh;
	a->nlow = (uint8_t)nlow;
	a->limit = limit_high;
	a->hi_left = nhigh ? arb_weight(&a->high[0]) : 0;
	a->lo_left = nlow ? arb_weight(&a->low[0]) : 0;
	return 0;
}
