/* SPDX-License-Identifier: MIT */
/*
 * VL arbitration of the switch's outputs: each output has the shared
 * arbiter of src/fabric/vl_arbiter.c (IBA 7.6.9), which crossbar.c asks
 * for the VL to serve next and charges with the bytes sent. Here: the
 * setter, and the flags that let an output with one data VL skip the
 * arbiter.
 */
#include "switch/switch_int.h"

/*
 * With one data VL, `ready` is 0 or 1 and a pick returns VL 0 whenever it
 * is ready and some entry serves it: the arbiter comes round to such an
 * entry within a turn of the table, whichever table the limit selects.
 * Only then may the crossbar skip the pick and the charge.
 */
void ibfs__sw_vlarb_one_update(struct ibfs_switch *sw, int o)
{
	struct sw_out *so = &sw->out[o];

	so->one = sw->data_vls == 1 && ibfs__vlarb_serves(&so->arb, 0);
	/* xb_arbitrate_one's layout: 2 slots, both words in req_in. */
	so->fast = so->one && sw->nw <= 2 && !sw->xbar_general;
}

int ibfs__switch_set_vlarb(struct ibfs_switch *sw, int out,
			   const struct ibfs_vlarb_entry *high, int nhigh,
			   const struct ibfs_vlarb_entry *low, int nlow,
			   uint8_t limit_high)
{
	if (out < -1 || out > sw->n ||
	    ibfs__vlarb_check(high, nhigh, low, nlow) < 0)
		return -1;
	for (int o = out < 0 ? 0 : out; o <= (out < 0 ? sw->n : out); o++) {
		ibfs__vlarb_set(&sw->out[o].arb, high, nhigh, low, nlow,
				limit_high);
		ibfs__sw_vlarb_one_update(sw, o);
	}
	return 0;
}
