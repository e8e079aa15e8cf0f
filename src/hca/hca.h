/* SPDX-License-Identifier: MIT */
/*
 * The Host Channel Adapter as the layers above it see one: the subnet
 * manager, the scenario runner and the command line. An HCA is a device on
 * the fabric that runs the IBA transport (IBA chapter 9) for the queue
 * pairs of the verbs API (include/ibfsim/verbs.h). This header creates and
 * frees HCAs, names their timing profiles, sets and reads the port
 * attributes the SM programs (LID and LMC, MasterSMLID, SL-to-VL table, VL
 * arbitration, congestion control) and gives their counters. The HCA is
 * opaque here: its objects and the functions the files of src/hca share
 * are in hca_int.h, which only src/hca includes. The management QPs (QP0
 * and QP1) are in mgmt.h. Layers and what each may call:
 * docs/architecture.md.
 */
#ifndef IBFS_HCA_HCA_H
#define IBFS_HCA_HCA_H

#include <stdint.h>

#include "fabric/diag.h"
#include "fabric/exec.h"
#include "fabric/fabric.h"
#include "fabric/vl_arbiter.h"
#include "ibfsim/verbs.h"

struct ibfs_hca;

/*
 * HCA timing (profile.c). Every delay is a pipeline latency in ps; the two
 * PCIe rates are throughput limits (0 = unlimited).
 */
struct ibfs_hca_profile {
	const char *name;
	ibfs_time_t doorbell;   /* post_send until the HCA holds the WQE */
	ibfs_time_t dma_read;   /* PCIe read round trip (gather, READ data) */
	ibfs_time_t dma_write;  /* posted write until visible to the CPU */
	ibfs_time_t tx_pkt;     /* send pipeline, data ready to wire */
	ibfs_time_t rx_pkt;     /* receive pipeline, tail in to processed */
	ibfs_time_t mem_xlate;  /* rkey and address translation (RETH) */
	ibfs_time_t read_resp;  /* responder READ/atomic response setup */
	ibfs_time_t ack_gen;    /* ACK/NAK generation */
	ibfs_time_t cqe;        /* CQE formation and CPU poll pick-up */
	ibfs_time_t wqe_gap;    /* between two WQEs of one QP (message rate) */
	uint64_t pcie_bps;      /* PCIe payload rate, bit/s (0: unlimited) */
	uint32_t max_inline;    /* largest inline send, bytes */
	uint32_t ack_every;     /* AckReq at least every N packets */
	uint8_t max_rd_atomic;  /* initiator depth and responder resources */
	uint32_t part_id;       /* PCI device ID of the part (0: none) */
};

/* Looks a profile up by name; NULL if unknown. */
const struct ibfs_hca_profile *ibfs__hca_profile(const char *name);
/* The names, NULL-terminated, for messages and --help. */
extern const char *const ibfs__hca_profile_names[];
/*
 * Checks that every HCA of t names a known profile (its own or the
 * fabric's default): 0, or -1 with "FILE:LINE: unknown HCA profile ..."
 * at the first that does not, as ibfs__hca_create would say it.
 */
int ibfs__hca_check_profiles(const struct ibfs_topology *t,
			     struct ibfs_diag *d);

/*
 * P_Key table entries of an HCA port: 128, as a ConnectX (NodeInfo
 * PartitionCap; IBA 14.2.5.3).
 */
#define IBFS_HCA_PKEYS 128

/*
 * Creates the HCA of topology node `node` on f, with `profile` (NULL: the
 * node's, else the fabric's default), its verbs calls entering the
 * simulation through exec. NULL, with a sentence in d, for a node that is
 * not an HCA, an unknown profile or no memory.
 */
struct ibfs_hca *ibfs__hca_create(struct ibfs_fabric *f, int node,
				  const char *profile, struct ibfs_exec exec,
				  struct ibfs_diag *d);
void ibfs__hca_free(struct ibfs_hca *h);
/* The HCA attached as node `node` of f; NULL if that node is no HCA. */
struct ibfs_hca *ibfs__hca_of_node(struct ibfs_fabric *f, int node);
/* Its topology node, its fabric and its number of ports. */
int ibfs__hca_node(const struct ibfs_hca *h);
struct ibfs_fabric *ibfs__hca_fabric(const struct ibfs_hca *h);
int ibfs__hca_nports(const struct ibfs_hca *h);
/* The largest inline send of its profile, bytes (max_inline_data). */
uint32_t ibfs__hca_max_inline(const struct ibfs_hca *h);

/*
 * Port attributes, as PortInfo and SLtoVLMappingTable carry them (IBA
 * 14.2.5.6, 14.2.5.8). The setters return 0, or -1 for a port out of
 * 1..nports or a value out of range; the getters give 0 (NULL) for a port
 * out of range.
 */
/* Base LID (unicast, 0x0001-0xbfff) and LMC (0-7): the port answers to
 * the 2^LMC LIDs from the base (IBA 7.11.1). */
int ibfs__hca_set_lid(struct ibfs_hca *h, int port, uint16_t lid,
		      uint8_t lmc);
uint16_t ibfs__hca_port_lid(const struct ibfs_hca *h, int port);
uint8_t ibfs__hca_port_lmc(const struct ibfs_hca *h, int port);
/* MasterSMLID: where the port's SA requests go (the SM's agent sets it). */
int ibfs__hca_set_sm_lid(struct ibfs_hca *h, int port, uint16_t lid);
uint16_t ibfs__hca_port_sm_lid(const struct ibfs_hca *h, int port);
/* SL-to-VL table: the data VL of each of the 16 SLs (IBA 7.6.6); -1 for
 * a VL the port does not have. */
int ibfs__hca_set_sl2vl(struct ibfs_hca *h, int port, const uint8_t vls[16]);
const uint8_t *ibfs__hca_port_sl2vl(const struct ibfs_hca *h, int port);
/*
 * The link under the HCA's transport, chosen before it has a QP:
 * InfiniBand (the default: LRH, VLs, credits) or RoCEv2 (IBA Annex A17,
 * src/hca/roce_link.c: Ethernet, IP and UDP; vlan 1 adds an 802.1Q tag
 * whose PCP carries the priority, ipv6 1 takes IPv6 rather than IPv4).
 * Under RoCEv2 each port has the eight Ethernet priorities as its data
 * VLs (IEEE 802.1Qbb), the SL-to-VL table maps an SL to a priority (SL s
 * on s mod 8 until ibfs__hca_set_sl2vl changes it) and the port's LID is
 * its host id (ibfs__hca_set_host_id). Returns 0, or -1 for an unknown
 * kind or an HCA that already has a QP.
 */
enum ibfs_hca_link {
	IBFS_HCA_LINK_IB = 0,
	IBFS_HCA_LINK_ROCE = 1,
};
int ibfs__hca_set_link(struct ibfs_hca *h, enum ibfs_hca_link kind, int vlan,
		       int ipv6);
enum ibfs_hca_link ibfs__hca_link(const struct ibfs_hca *h);
/*
 * Loss recovery of the RC transport, chosen before the HCA has a QP:
 * IBA go-back-N (the default: IBA 9.7.5.1.3, the sequence error NAK, and
 * the exponential local ACK timeout of 9.7.6.1.3) or IRN, the selective
 * repeat of Mittal et al., "Revisiting Network Support for RDMA"
 * (SIGCOMM 2018) for lossy RoCE (src/hca/rc_irn.c): the responder keeps
 * out-of-order packets and answers each with a selective NACK, the
 * requester resends only the packets it lost, keeps at most a BDP of
 * packets unacknowledged (BDP-FC) and times out after rto_low while at
 * most rto_n packets are in flight, rto_high otherwise.
 */
enum ibfs_hca_recovery {
	IBFS_HCA_RECOVERY_GBN = 0,
	IBFS_HCA_RECOVERY_IRN = 1,
};
struct ibfs_hca_irn_cfg {
	ibfs_time_t rto_low, rto_high;
	uint32_t rto_n;
	/* The base round trip of the longest path, for the BDP cap: a QP
	 * keeps at most ceil(port rate x base_rtt / 8 / path MTU) packets
	 * unacknowledged; 0: no BDP cap (the bitmap's window only). */
	ibfs_time_t base_rtt;
};
/* The paper's values (section 4.1, its default set-up): RTO_low 100
 * us, RTO_high 320 us, N 3. */
#define IBFS_IRN_RTO_LOW (100 * IBFS_US)
#define IBFS_IRN_RTO_HIGH (320 * IBFS_US)
#define IBFS_IRN_RTO_N 3
/*
 * Sets the HCA's loss recovery (cfg NULL: the IRN defaults above with no
 * BDP cap; ignored for GBN). IRN needs a RoCEv2 link (ibfs__hca_set_link
 * first). Returns 0, or -1 for an unknown kind, an InfiniBand HCA, or an
 * HCA that already has a QP.
 */
int ibfs__hca_set_recovery(struct ibfs_hca *h, enum ibfs_hca_recovery r,
			   const struct ibfs_hca_irn_cfg *cfg);
enum ibfs_hca_recovery ibfs__hca_recovery(const struct ibfs_hca *h);
/*
 * A RoCEv2 port's host id (fabric/eth.h: its IP and MAC addresses follow
 * from it): the LID with an LMC of 0, within the unicast LID range
 * 0x0001-0xbfff (IBA 4.1.3) so that no host id reads as a multicast
 * DLID. Returns 0 or -1.
 */
int ibfs__hca_set_host_id(struct ibfs_hca *h, int port, uint16_t id);
/*
 * VL arbitration of port `port` (-1: every port), as
 * ibfs__switch_set_vlarb: high- and low-priority tables of up to 64
 * entries each (VL 0-14) and LimitOfHighPriority (4 KiB units; 255 =
 * unlimited). Both tables restart at their first entry. Returns 0 or -1.
 */
int ibfs__hca_set_vlarb(struct ibfs_hca *h, int port,
			const struct ibfs_vlarb_entry *high, int nhigh,
			const struct ibfs_vlarb_entry *low, int nlow,
			uint8_t limit_high);

/*
 * Congestion control at a CA (IBA A10.3, A10.4.3.4-5): a
 * CACongestionSetting and a CongestionControlTable (cc_throttle.c).
 */
#define IBFS_CCT_MAX 128
struct ibfs_ca_cc_sl {
	uint16_t ccti_timer;       /* 1.024 us units; 0: CCTI never falls */
	uint8_t ccti_increase;
	uint16_t trigger_threshold; /* kept, not modelled */
	uint16_t ccti_min;
};
struct ibfs_ca_cc {
	uint16_t port_control;   /* bit 0: 0 per QP, 1 per SL of a port */
	uint16_t control_map;    /* SLs whose entry below is valid */
	struct ibfs_ca_cc_sl sl[16];
	int ncct;                /* CCT entries; CCTI_Limit = ncct - 1 */
	uint16_t cct[IBFS_CCT_MAX]; /* CCT_Shift << 14 | CCT_Multiplier */
};
/*
 * The steps of the HCA's pipeline a message goes through (the profile's
 * stages, src/hca/profile.c), for `ibfsim explain`: each is told with
 * its start and end, and the packet it is for where there is one.
 */
enum ibfs_hca_step {
	IBFS_STEP_DOORBELL,   /* post_send until the HCA holds the WQE */
	IBFS_STEP_DMA_READ,   /* the payload read from host memory (PCIe) */
	IBFS_STEP_TX_PIPE,    /* the send pipeline, to the wire */
	IBFS_STEP_RX_PIPE,    /* the receive pipeline, from the last byte */
	IBFS_STEP_XLATE,      /* rkey check and address translation */
	IBFS_STEP_DMA_WRITE,  /* the payload written to host memory (PCIe) */
	IBFS_STEP_ACK_GEN,    /* the ACK built */
	IBFS_STEP_READ_RESP,  /* a READ's response set up and its data read */
	IBFS_STEP_CQE,        /* the completion written and polled */
};
struct ibfs_packet;
typedef void (*ibfs_hca_step_fn)(void *arg, int node, enum ibfs_hca_step step,
				 ibfs_time_t start, ibfs_time_t end,
				 const struct ibfs_packet *p);
/* Tells fn(arg, ...) of every step of h from now on (NULL: none). */
void ibfs__hca_set_steps(struct ibfs_hca *h, ibfs_hca_step_fn fn, void *arg);

/* Programs CC (cc NULL: off). 0, or -1 out of memory or a bad table. */
int ibfs__hca_set_cc(struct ibfs_hca *h, const struct ibfs_ca_cc *cc);

/* What an HCA counted over a run (docs/results.md). */
struct ibfs_hca_stats {
	uint64_t tx_pkts, rx_pkts, retransmits, timeouts, rnr_naks, seq_naks;
	uint64_t dropped;     /* bad LID, P_Key, Q_Key or QP */
	uint64_t duplicates;
	uint64_t acks;        /* ACK, RNR NAK and NAK packets sent */
	/* Congestion control (IBA A10): FECN-marked packets received,
	 * BECNs sent in ACKs, CNPs sent, BECNs received (ACKs and CNPs),
	 * CNPs received. */
	uint64_t fecn_rx, becn_tx, cnp_tx, becn_rx, cnp_rx;
	/*
	 * RC request packets sent again: those a go-back-N rewind puts
	 * back (IBA 9.7.5.1.3, 9.7.6.1.3; counted at the rewind, sq.c) and
	 * IRN's selective retransmissions (counted as they are built,
	 * rc_irn.c). retransmits above counts the events.
	 */
	uint64_t retransmitted;
};
const struct ibfs_hca_stats *ibfs__hca_stats(const struct ibfs_hca *h);

/* The verbs context of an HCA (what ibfs_open_device returns). */
struct ibfs_context *ibfs__hca_context(struct ibfs_hca *h);
/* ibfs_open_device asks this to find the calling actor's HCA. */
void ibfs__verbs_set_locator(struct ibfs_hca *(*fn)(void *arg), void *arg);
/* Takes up to num completions whatever the time, with the times a CPU
 * would see them (results read after a run). */
int ibfs__cq_take(struct ibfs_cq *cq, int num, struct ibfs_wc *wc,
		  ibfs_time_t *vis);

#endif
