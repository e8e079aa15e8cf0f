/* SPDX-License-Identifier: MIT */
/*
 * VL arbitration of a switch output (IBA 7.6.9). VL15 always goes first
 * and is not in the tables. Data VLs are served from two tables, high and
 * low priority, of up to 64 (VL, weight) entries; a weight counts 64-byte
 * units. The current entry of a table may send while its remaining weight
 * is above zero and its VL has a packet ready; a packet is sent whole even
 * if it is longer than what remains, and the remainder is then charged
 * below zero. When the remainder is used up, or the entry's VL has nothing
 * ready, the table moves on to its next entry with that entry's full
 * weight. A VL in neither table is never served (IBA 7.6.9).
 *
 * LimitOfHighPriority (IBA 7.6.9, VLArbitration in PortInfo) bounds, in
 * 4096-byte units, the high-priority bytes sent before one low-priority
 * packet that is ready gets to go; 0 means one high-priority packet, 255
 * means no bound. We count it in bytes of the packets sent and reset the
 * count only when a low-priority packet goes: high-priority bytes sent
 * while no low-priority packet was ready count too, so a low-priority
 * packet that becomes ready after a long high-priority run goes next.
 */
#include "switch/switch_int.h"

#include <string.h>

static int32_t arb_weight(const struct ibfs_vlarb_entry *e)
{
	return (int32_t)e->weight * 64;
}

void ibfs__sw_vlarb_default(struct sw_vlarb *a, int data_vls)
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

int ibfs__sw_vlarb_pick(struct sw_vlarb *a, uint32_t ready, int *high)
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

void ibfs__sw_vlarb_charge(struct sw_vlarb *a, int high, uint32_t bytes)
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

int ibfs__sw_vlarb_serves(const struct sw_vlarb *a, int vl)
{
	for (int i = 0; i < a->nhigh; i++)
		if (a->high[i].weight && a->high[i].vl == vl)
			return 1;
	for (int i = 0; i < a->nlow; i++)
		if (a->low[i].weight && a->low[i].vl == vl)
			return 1;
	return 0;
}

/*
 * With one data VL, `ready` is 0 or 1 and a pick returns VL 0 whenever it
 * is ready and some entry serves it: arb_table comes round to such an
 * entry within a turn of the table, whichever table the limit selects.
 * Only then may the crossbar skip the pick and the charge.
 */
void ibfs__sw_vlarb_one_update(struct ibfs_switch *sw, int o)
{
	struct sw_out *so = &sw->out[o];

	so->one = sw->data_vls == 1 && ibfs__sw_vlarb_serves(&so->arb, 0);
	/* xb_arbitrate_one's layout: 2 slots, both words in req_in. */
	so->fast = so->one && sw->nw <= 2 && !sw->xbar_general;
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

int ibfs__switch_set_vlarb(struct ibfs_switch *sw, int out,
			   const struct ibfs_vlarb_entry *high, int nhigh,
			   const struct ibfs_vlarb_entry *low, int nlow,
			   uint8_t limit_high)
{
	if (out < -1 || out > sw->n || arb_check(high, nhigh) < 0 ||
	    arb_check(low, nlow) < 0)
		return -1;
	for (int o = out < 0 ? 0 : out; o <= (out < 0 ? sw->n : out); o++) {
		struct sw_vlarb *a = &sw->out[o].arb;

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
		ibfs__sw_vlarb_one_update(sw, o);
	}
	return 0;
}
