/* SPDX-License-Identifier: MIT */
/*
 * SL-to-VL mapping tables of a switch (IBA 7.6.6): one table of 16 entries
 * for each (input port, output port) pair, giving the VL a packet of each
 * SL takes on that output. The default maps SL s to VL (s mod data VLs):
 * the identity for the SLs below the number of data VLs, the other SLs
 * spread over the VLs. VL15 packets never go through the table.
 *
 * While all pairs share one table, lookups use a 16-byte copy of it
 * (sl2vl_one) so that forwarding a packet does not read the big array.
 */
#include "switch/switch_int.h"

#include <stdlib.h>
#include <string.h>

int ibfs__sw_sl2vl_init(struct ibfs_switch *sw)
{
	size_t np = (size_t)sw->n + 1;

	sw->sl2vl = malloc(np * np * 16);
	if (!sw->sl2vl)
		return -1;
	for (size_t i = 0; i < np * np; i++)
		for (int sl = 0; sl < 16; sl++)
			sw->sl2vl[i * 16 + (size_t)sl] =
				(uint8_t)(sl % sw->data_vls);
	for (int sl = 0; sl < 16; sl++)
		sw->sl2vl_one[sl] = (uint8_t)(sl % sw->data_vls);
	sw->sl2vl_uniform = 1;
	return 0;
}

int ibfs__switch_set_sl2vl(struct ibfs_switch *sw, int in, int out,
			   const uint8_t vls[16])
{
	if (in < -1 || in > sw->n || out < -1 || out > sw->n)
		return -1;
	/* A VL of 15 is legal in a table: it makes the switch discard. */
	for (int sl = 0; sl < 16; sl++)
		if (vls[sl] > 15)
			return -1;
	for (int i = in < 0 ? 0 : in; i <= (in < 0 ? sw->n : in); i++)
		for (int o = out < 0 ? 0 : out; o <= (out < 0 ? sw->n : out);
		     o++)
			for (int sl = 0; sl < 16; sl++)
				sw->sl2vl[((size_t)i * (size_t)(sw->n + 1) +
					   (size_t)o) * 16 + (size_t)sl] =
					vls[sl];
	if (in < 0 && out < 0) {
		/* Every pair now has this table. */
		memcpy(sw->sl2vl_one, vls, 16);
		sw->sl2vl_uniform = 1;
	} else if (memcmp(sw->sl2vl_one, vls, 16) != 0) {
		sw->sl2vl_uniform = 0;
	}
	return 0;
}
