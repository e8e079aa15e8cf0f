/* SPDX-License-Identifier: MIT */
/*
 * HCA timing profiles. `ideal` has no HCA delays and unlimited PCIe, so a
 * test can predict every time in closed form from link rates and cable
 * lengths. The ConnectX profiles are calibrated so that `ibfsim perftest`
 * back to back (one EDR/HDR/NDR 4x link, 2 m cable) lands on published
 * perftest figures (docs/fidelity.md, "Reference figures"):
 *
 *   ConnectX-4 EDR: ib_send_lat 32 B RC 0.81-0.83 us, 1 KiB 1.55 us,
 *     4 KiB 2.26 us, UD 0.86 us [Potter, MSc thesis, RWTH 2018];
 *     ib_write_lat 32 B inline 0.93 us, not inline 1.32 us, ib_read_lat
 *     32 B 1.91 us [perftest GitHub issue 131]; ib_write_bw 64 KiB
 *     11,728 MB/s = 93.8 Gb/s [perftest GitHub issue 225]; one QP's
 *     2-byte ib_write_bw 2.64 M messages/s [perftest GitHub issue 132].
 *
 * How the ConnectX-4 delays follow from them (a one-way latency is the
 * sum of the pipeline stages a packet crosses; wire times are the EDR
 * 100 Gb/s serialization of the packet plus 10 ns of cable):
 *   send_lat  = doorbell + tx_pkt + wire + rx_pkt + dma_write + cqe
 *   write_lat = doorbell + tx_pkt + wire + rx_pkt + mem_xlate + dma_write
 *               (perftest polls the last byte in memory, not a CQ)
 *   write_lat not inline adds dma_read (the gather) = 1.32 - 0.93 us
 *   read_lat  = doorbell + tx_pkt + wire + rx_pkt + mem_xlate + read_resp
 *               + dma_read + tx_pkt + wire + rx_pkt + dma_write + cqe
 *   write_bw  = the PCIe payload rate, which is below the EDR wire rate
 *               of 4 KiB packets (99.4 Gb/s of payload).
 * The link adds its own small terms (serialization, the 10 ns cable, the
 * 6-byte flow-control packet a receiver sends before its ACK or answer),
 * and PCIe adds the transfer of each payload and 64-byte CQE at pcie_bps.
 * Splitting the doorbell/tx/rx/dma_write stages from each other is a
 * choice (perftest measures only their sum); the split follows the usual
 * figures of a PCIe Gen3 MMIO write (~200 ns) and posted write (~300 ns).
 * check_hca_perftest (connectx4_edr_calibration) holds the profile to
 * these figures within 10%.
 * The HDR and NDR profiles keep the same structure with the PCIe rate of
 * their generation; their latencies are estimates, not calibrations.
 */
#include <stddef.h>
#include <string.h>

#include "hca/hca.h"

static const struct ibfs_hca_profile prof_table[] = {
	{
		.name = "ideal",
		/* Every stage takes no time and PCIe is unlimited. */
		.max_inline = 256,
		.ack_every = 16,
		.max_rd_atomic = 16,
	},
	{
		.name = "connectx-4-edr",
		/* MMIO doorbell with the WQE (BlueFlame) across PCIe Gen3. */
		.doorbell = 200 * IBFS_NS,
		/* Gather read round trip: ib_write_lat not inline minus
		 * inline, 1.32 - 0.93 us (perftest issue 131). It stands for
		 * fetching what is not in the doorbell: with BlueFlame the
		 * WQE comes with the doorbell, its data does not. */
		.dma_read = 390 * IBFS_NS,
		/* Posted write into host memory until a poller sees it. */
		.dma_write = 300 * IBFS_NS,
		/* Send and receive pipelines, from send_lat = 0.82 us. */
		.tx_pkt = 120 * IBFS_NS,
		.rx_pkt = 120 * IBFS_NS,
		/* write_lat 0.93 us minus send_lat's path without the CQE. */
		.mem_xlate = 174 * IBFS_NS,
		/* Rest of ib_read_lat 1.91 us after the stages above. */
		.read_resp = 255 * IBFS_NS,
		/* ACKs come from the receive pipeline at once. */
		.ack_gen = 0,
		/* CQE formation and pick-up by the polling CPU. */
		.cqe = 65 * IBFS_NS,
		/* ib_write_bw 64 KiB: 11,728 MB/s = 93.8 Gb/s (perftest
		 * issue 225), below the 99.4 Gb/s of payload that EDR
		 * carries in 4 KiB packets: PCIe Gen3 x16 is the limit. */
		.pcie_bps = 93800000000ull,
		/* perftest's default inline size for RC (236 B fits). */
		.max_inline = 256,
		/* AckReq at least every 16 packets (64 KiB at a 4 KiB MTU):
		 * a choice, as vendors do not publish theirs; it only sets
		 * how much an ACK loss costs, not the bandwidth. */
		.ack_every = 16,
		/* ConnectX-4 reports max_qp_rd_atom 16 (ibv_devinfo). */
		.max_rd_atomic = 16,
		/* PCI device ID of the ConnectX-4 (its user manual;
		 * ibv_devinfo's vendor_part_id). */
		.part_id = 4115,
		/* One QP processes a WQE every 385 ns: ~2.6 M messages/s
		 * of 2-byte ib_write_bw (perftest issue 132: 2.64 M/s),
		 * whatever the link. */
		.wqe_gap = 385 * IBFS_NS,
	},
	{
		.name = "connectx-6-hdr",
		/* Same pipeline as ConnectX-4 on PCIe Gen4; HDR ib_write_bw
		 * ~194 Gb/s (docs/fidelity.md, "Reference figures"; no
		 * published source is named for it) sets the PCIe payload
		 * rate, below HDR's 198.7 Gb/s of payload in 4 KiB packets. */
		.doorbell = 190 * IBFS_NS,
		.dma_read = 370 * IBFS_NS,
		.dma_write = 280 * IBFS_NS,
		.tx_pkt = 110 * IBFS_NS,
		.rx_pkt = 110 * IBFS_NS,
		.mem_xlate = 160 * IBFS_NS,
		.read_resp = 240 * IBFS_NS,
		.cqe = 60 * IBFS_NS,
		.pcie_bps = 194000000000ull,
		.max_inline = 256,
		.ack_every = 16,
		.max_rd_atomic = 16,
		/* PCI device ID of the ConnectX-6 (perftest's device table;
		 * ibv_devinfo's vendor_part_id). */
		.part_id = 4123,
		/* ConnectX-4's per-QP message rate: no published one. */
		.wqe_gap = 385 * IBFS_NS,
	},
	{
		.name = "connectx-7-ndr",
		/* PCIe Gen5 x16 (~400 Gb/s class NDR); latencies scaled from
		 * ConnectX-6, as no published back-to-back figures are at
		 * hand: treat these as estimates. */
		.doorbell = 180 * IBFS_NS,
		.dma_read = 350 * IBFS_NS,
		.dma_write = 260 * IBFS_NS,
		.tx_pkt = 100 * IBFS_NS,
		.rx_pkt = 100 * IBFS_NS,
		.mem_xlate = 150 * IBFS_NS,
		.read_resp = 225 * IBFS_NS,
		.cqe = 55 * IBFS_NS,
		.pcie_bps = 390000000000ull,
		.max_inline = 256,
		.ack_every = 16,
		.max_rd_atomic = 16,
		/* PCI device ID of the ConnectX-7 (perftest's device table;
		 * ibv_devinfo's vendor_part_id). */
		.part_id = 4129,
		.wqe_gap = 385 * IBFS_NS,
	},
};

const char *const ibfs__hca_profile_names[] = {
	"ideal", "connectx-4-edr", "connectx-6-hdr", "connectx-7-ndr", NULL,
};

const struct ibfs_hca_profile *ibfs__hca_profile(const char *name)
{
	if (!name)
		return &prof_table[0];
	for (size_t i = 0; i < sizeof(prof_table) / sizeof(prof_table[0]); i++)
		if (!strcmp(prof_table[i].name, name))
			return &prof_table[i];
	return NULL;
}
