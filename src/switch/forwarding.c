/* SPDX-License-Identifier: MIT */
/*
 * Forwarding tables of a switch.
 *
 * The linear forwarding table (IBA 18.2.4.3.2) maps each unicast LID
 * (1-0xBFFF) to an output port; it grows in blocks of 64 entries, the unit
 * in which the subnet manager writes it (LinearForwardingTable SMP, IBA
 * 14.2.5.10). With LMC an end port owns 2^LMC consecutive LIDs and each has
 * its own entry, so multipath routing needs nothing more here. Entries not
 * written hold IBFS_LFT_NONE (255), as OpenSM's dumps show for unrouted
 * LIDs.
 *
 * The multicast forwarding table (IBA 18.2.4.3.3) maps each multicast LID
 * (0xC000-0xFFFE) to a set of ports, kept as a bit mask.
 */
#include "switch/switch_int.h"

#include <stdlib.h>
#include <string.h>

#define FWD_MAX_UCAST 0xBFFF

int ibfs__sw_fwd_init(struct ibfs_switch *sw)
{
	sw->lft = NULL;
	sw->lft_len = 0;
	sw->mft = NULL;
	sw->mft_len = 0;
	sw->lft_hint = calloc((size_t)sw->n + 1, sizeof(*sw->lft_hint));
	return sw->lft_hint ? 0 : -1;
}

/* The LFT changed: no input's last route holds any more. */
static void fwd_hints_clear(struct ibfs_switch *sw)
{
	memset(sw->lft_hint, 0, ((size_t)sw->n + 1) * sizeof(*sw->lft_hint));
}

void ibfs__sw_fwd_free(struct ibfs_switch *sw)
{
	free(sw->lft);
	free(sw->mft);
	free(sw->lft_hint);
	sw->lft = NULL;
	sw->mft = NULL;
	sw->lft_hint = NULL;
}

/* Makes room for `lid` in the LFT, in whole 64-entry blocks. */
static int fwd_lft_grow(struct ibfs_switch *sw, uint32_t lid)
{
	if (lid < sw->lft_len)
		return 0;
	uint32_t len = (lid / 64 + 1) * 64;
	uint8_t *t = realloc(sw->lft, len);

	if (!t)
		return -1;
	memset(t + sw->lft_len, IBFS_LFT_NONE, len - sw->lft_len);
	sw->lft = t;
	sw->lft_len = len;
	return 0;
}

int ibfs__switch_set_lft(struct ibfs_switch *sw, uint16_t lid, uint8_t port)
{
	if (lid == 0 || lid > FWD_MAX_UCAST)
		return -1;
	if (port != IBFS_LFT_NONE && port > sw->n)
		return -1;
	if (fwd_lft_grow(sw, lid) < 0)
		return -1;
	sw->lft[lid] = port;
	fwd_hints_clear(sw);
	return 0;
}

int ibfs__switch_set_lft_block(struct ibfs_switch *sw, unsigned block,
			       const uint8_t ports[64])
{
	if (block > FWD_MAX_UCAST / 64)
		return -1;
	for (int i = 0; i < 64; i++)
		if (ports[i] != IBFS_LFT_NONE && ports[i] > sw->n)
			return -1;
	if (fwd_lft_grow(sw, block * 64 + 63) < 0)
		return -1;
	memcpy(sw->lft + block * 64, ports, 64);
	/* LID 0 is reserved (IBA 4.1.2): its entry never routes. */
	if (block == 0)
		sw->lft[0] = IBFS_LFT_NONE;
	fwd_hints_clear(sw);
	return 0;
}

uint8_t ibfs__switch_get_lft(const struct ibfs_switch *sw, uint16_t lid)
{
	return lid < sw->lft_len ? sw->lft[lid] : IBFS_LFT_NONE;
}

/* The port mask of mlid, the table grown to hold it; NULL if it cannot. */
static uint64_t *fwd_mft_mask(struct ibfs_switch *sw, uint16_t mlid)
{
	if (mlid < IBFS_MCAST_LID_BASE || mlid == IBFS_PERMISSIVE_LID)
		return NULL;
	uint32_t idx = mlid - IBFS_MCAST_LID_BASE;
	size_t pw = (size_t)ibfs__sw_pw(sw);

	if (idx >= sw->mft_len) {
		uint32_t len = (idx / 64 + 1) * 64;
		uint64_t *t = realloc(sw->mft,
				      (size_t)len * pw * sizeof(uint64_t));

		if (!t)
			return NULL;
		memset(t + (size_t)sw->mft_len * pw, 0,
		       (size_t)(len - sw->mft_len) * pw * sizeof(uint64_t));
		sw->mft = t;
		sw->mft_len = len;
	}
	return sw->mft + (size_t)idx * pw;
}

int ibfs__switch_set_mft(struct ibfs_switch *sw, uint16_t mlid,
			 const uint8_t *ports, int n)
{
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++)
		if (ports[i] > sw->n)
			return -1;
	uint64_t *mask = fwd_mft_mask(sw, mlid);

	if (!mask)
		return -1;
	memset(mask, 0, (size_t)ibfs__sw_pw(sw) * sizeof(uint64_t));
	for (int i = 0; i < n; i++)
		mask[ports[i] / 64] |= 1ULL << (ports[i] % 64);
	return 0;
}

/*
 * The SMP's view (IBA 14.2.5.12): 16 ports of one MLID's mask at a time,
 * ports 16 * pos .. 16 * pos + 15, bit i for port 16 * pos + i.
 */
int ibfs__switch_set_mft16(struct ibfs_switch *sw, uint16_t mlid, int pos,
			   uint16_t bits)
{
	for (int i = 0; i < 16; i++)
		if (bits >> i & 1 && pos * 16 + i > sw->n)
			return -1;
	if (pos < 0 || pos * 16 > sw->n)
		return -1;
	uint64_t *mask = fwd_mft_mask(sw, mlid);

	if (!mask)
		return -1;
	int w = pos / 4, sh = pos % 4 * 16;

	mask[w] = (mask[w] & ~(0xffffULL << sh)) | (uint64_t)bits << sh;
	return 0;
}

uint16_t ibfs__switch_get_mft16(const struct ibfs_switch *sw, uint16_t mlid,
				int pos)
{
	if (mlid < IBFS_MCAST_LID_BASE || pos < 0 || pos * 16 > sw->n)
		return 0;
	uint32_t idx = mlid - IBFS_MCAST_LID_BASE;

	if (idx >= sw->mft_len)
		return 0;
	const uint64_t *mask = sw->mft + (size_t)idx * (size_t)ibfs__sw_pw(sw);

	return (uint16_t)(mask[pos / 4] >> (pos % 4 * 16));
}

const uint64_t *ibfs__sw_mft_get(const struct ibfs_switch *sw, uint16_t mlid)
{
	if (mlid < IBFS_MCAST_LID_BASE)
		return NULL;
	uint32_t idx = mlid - IBFS_MCAST_LID_BASE;

	if (idx >= sw->mft_len)
		return NULL;
	int pw = ibfs__sw_pw(sw);
	const uint64_t *mask = sw->mft + (size_t)idx * (size_t)pw;

	for (int w = 0; w < pw; w++)
		if (mask[w])
			return mask;
	return NULL;
}
