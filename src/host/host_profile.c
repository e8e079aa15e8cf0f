/* SPDX-License-Identifier: MIT */
/*
 * The host CPU profiles (host_profile.h) and where their figures come
 * from. Figures marked "estimate" are ours, chosen to agree with the
 * measurements cited; the others are a driver's or the kernel's own.
 */
#include <string.h>

#include "host/host_profile.h"

static const struct ibfs_host_profile profiles[] = {
	{
		.name = "ideal",
		.ideal = 1,
		.cores = 2,
	},
	{
		/*
		 * A current Linux server (two-socket Xeon, 100 Gb/s NIC of
		 * the mlx5 family) with the kernel's defaults.
		 */
		.name = "linux-xeon",
		.cores = 2,
		/* A system call's entry and exit with the speculation
		 * mitigations on: ~100 ns (estimate). */
		.syscall = 100 * IBFS_NS,
		/*
		 * Copies. Cai et al., "Understanding Host Network Stack
		 * Overheads" (SIGCOMM 2021): one receiver core reaches
		 * about 42 Gb/s with every offload on, the copy to the
		 * application its largest cost, its source missing the
		 * cache: 200 ps a byte, 5 GB/s, kernel to user (estimate
		 * from those findings). The sender's source was just
		 * written by the application and is in the cache: 100 ps
		 * a byte, 10 GB/s, user to kernel (estimate).
		 */
		.copy_tx_ps = 200 / 2,
		.copy_rx_ps = 200,
		/* TCP/IP transmit of one segment (tcp_write_xmit down to
		 * the driver's doorbell), and of one TSO super-segment,
		 * whose per-segment work the NIC does (estimates, set with
		 * the receive's below so that the receiver's copy, not the
		 * per-packet work, bounds one flow, as Cai et al. find). */
		.tx_seg = 120 * IBFS_NS,
		.tx_tso = 250 * IBFS_NS,
		/* A hard interrupt to the softirq's start (estimate). */
		.irq = 500 * IBFS_NS,
		/*
		 * mlx5's defaults (drivers/net/ethernet/mellanox/mlx5/core/
		 * en.h: MLX5E_PARAMS_DEFAULT_RX_CQ_MODERATION_USEC_FROM_CQE
		 * 0x3, _PKTS 0x20): an interrupt 3 us after the first
		 * frame's completion or at the 32nd frame. The adaptive
		 * moderation (DIM) the driver turns on is not modelled.
		 */
		.rx_usecs = 3 * IBFS_US,
		.rx_frames = 32,
		/* GRO is on by default (netdev features); the softirq's
		 * receive processing, per packet or per GRO batch, from
		 * the driver's poll through tcp_v4_rcv (estimates). */
		.gro = 1,
		.rx_pkt = 120 * IBFS_NS,
		.rx_gro = 250 * IBFS_NS,
		/* try_to_wake_up and the context switch to the woken
		 * thread on an idle core (estimate). */
		.wakeup = 2000 * IBFS_NS,
		/* iperf3's default buffer for TCP (128 KiB) is what one
		 * recv() reads at most; tcp_sendmsg pushes after each
		 * 64 KiB, its largest size goal. */
		.recv_bytes = 128 * 1024,
		.send_chunk = 64 * 1024,
	},
};

#define NPROFILES (sizeof(profiles) / sizeof(profiles[0]))

const char *const ibfs__host_profile_names[] = {"ideal", "linux-xeon", NULL};

const struct ibfs_host_profile *ibfs__host_profile(const char *name)
{
	for (size_t i = 0; i < NPROFILES; i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

const char *ibfs__host_profile_list(void)
{
	return "ideal, linux-xeon";
}
