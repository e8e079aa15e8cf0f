/* SPDX-License-Identifier: MIT */
/*
 * Internals of the subnet manager shared by sm.c (discovery, the request
 * window, the API), sm_config.c (routing the discovered subnet and the
 * SubnSet stages), sm_mcast.c, sm_pkey.c and the SA (sa*.c). Not for use
 * outside the subnet manager.
 */
#ifndef IBFS_SM_SM_INT_H
#define IBFS_SM_SM_INT_H

#include "subnet_manager/mad.h"
#include "subnet_manager/pkey_plan.h"
#include "subnet_manager/mcast.h"
#include "subnet_manager/qos.h"
#include "subnet_manager/sm.h"
#include "subnet_manager/sma.h"

enum sm_phase {
	PH_DISCOVER, PH_PSC, PH_PKEY, PH_SM_LID, PH_LID, PH_SWINFO, PH_LFT,
	PH_QOS, PH_MFT, PH_LINK, PH_ARM, PH_ACTIVE, PH_DONE,
};

struct sm_port {
	int peer, peer_port; /* the link found in this sweep, or -1 */
	uint8_t up;          /* PortPhysicalState LinkUp */
	uint8_t state;       /* PortState read in this sweep (0: not read) */
	uint8_t enf;         /* PartitionEnforcement bits read */
	uint8_t arb_low_cap, arb_high_cap; /* VLArbitration caps read */
	uint16_t lid, sm_lid; /* LID and MasterSMLID read */
	uint8_t lmc;          /* LMC read */
	/* MTUCap and VLCap read: the link manager's Set takes NeighborMTU
	 * and OperationalVLs from both ends' caps; LinkWidthEnabled and
	 * LinkSpeedEnabled read, which it writes back. */
	uint8_t mtu_cap, vl_cap, width_en, speed_en;
	/* CapabilityMask IsExtendedSpeedsSupported read (a CA port's, a
	 * switch's port 0's: its other ports have no CapabilityMask). */
	uint8_t ext;
	/* The link last found in any sweep: LIDs are assigned on these so
	 * that a link going down does not renumber anything. */
	int epeer, eport;
};

struct sm_dnode {
	uint64_t guid, port_guid;
	uint8_t type, nports, hops, vl_cap;
	int entry;           /* port the node was reached by */
	/* Read at discovery: NodeInfo PartitionCap, and of a switch its
	 * SwitchInfo (PartitionEnforcementCap, PortStateChange, tops). */
	uint16_t pkey_cap;
	struct ibfs_smp_switch_info si;
	uint8_t path[64];    /* InitialPath[1..hops] */
	char desc[IBFS_SMP_DATA_BYTES + 1];
	long topo;           /* index in the topology, or a large key */
	unsigned seen;       /* sweep that last found it */
	int sn;              /* index in the subnet */
	struct sm_port *ports;  /* [nports + 1] */
	uint8_t *lft;        /* switch: LFT blocks as last set */
	uint8_t *lft_ok;     /* [lft_blocks]: block known to be set */
	size_t lft_blocks;
	/* [(nports + 1) x table size]: the P_Key tables as the SM believes
	 * the ports hold them (power-up, then what it set; sm_pkey.c). */
	uint16_t *pkeys;
	/* switch: MFT entries as last set, [block][position][32], for
	 * mft_nb blocks of 32 MLIDs from 0xC000 (grown as groups come) */
	uint16_t *mft;
	int mft_nb;
};

/* Request flags: SM_PROBE, the path is the node's path + port;
 * SM_MC_UPDATE, an MFT block a run-time membership change needs. */
enum { SM_PROBE = 1, SM_MC_UPDATE = 2 };

struct sm_req {
	uint8_t method, flags;
	uint8_t tries;       /* sends so far that timed out */
	uint16_t attr;
	uint32_t mod;
	int node, port;
	uint8_t data[IBFS_SMP_DATA_BYTES];
};

enum { SM_SLOTS = 64 };

struct ibfs_sm {
	struct ibfs_fabric *f;
	struct ibfs_sma *sma;
	int sm_node, sm_port;
	int root;            /* the SM's node among the records */
	struct ibfs_event *kick;
	char engine[16];
	int lmc, max_wire;
	struct ibfs_qos qos;  /* given: programmed into every port */
	/* Partitions (borrowed; NULL: OpenSM's default) and the tables
	 * they give, laid out at the first sweep (sm_pkey.c). */
	const struct ibfs_partitions *pp;
	struct ibfs_partitions *pp_default;
	struct ibfs_pkey_plan plan;
	int resweep_pending; /* a trap came during a sweep */
	uint64_t traps;
	struct ibfs_routing_opts opts;
	void (*up)(void *ctx, ibfs_time_t t);
	void *ctx;
	enum sm_phase phase;
	unsigned sweep_no;

	struct sm_dnode *dn;
	int ndn, dn_cap;
	int *hash;           /* open addressing on GUID, -1 empty */
	size_t hcap;
	uint64_t *topo_guid; /* sorted (guid << 0) keys with indices */
	long *topo_idx;

	struct sm_req *q;    /* requests of the stage, FIFO */
	size_t nq, qcap, qhead;
	struct sm_req out[SM_SLOTS];
	uint64_t out_tid[SM_SLOTS];
	uint8_t out_used[SM_SLOTS];
	struct ibfs_event *out_ev[SM_SLOTS]; /* its timeout */
	uint64_t retries, timeouts;
	int outstanding;
	uint64_t next_tid;

	struct ibfs_subnet *sn;
	struct ibfs_sm_stats st;
	/*
	 * Per LID: the last time a re-sweep changed a switch's entry for it
	 * (the answer to the Set of the block that holds it), 0 if never.
	 */
	ibfs_time_t *rerouted;
	unsigned rerouted_len;
	/* Multicast groups (the SM's own: those given at bring-up, copied,
	 * then as the SA's joins and leaves change them) and their trees:
	 * nsw x ngroups port masks of the subnet as routed (mcast.h), laid
	 * out for mft_ngroups groups. */
	struct ibfs_mcast_group *groups;
	int ngroups, gcap, mft_ngroups;
	uint64_t *mft;
	/* Run-time changes (sm_mcast.c): one came during a sweep; MFT Sets
	 * sent for changes and not yet answered; who is told. */
	int mc_dirty;
	uint64_t mc_pending, mc_blocks;
	ibfs_sm_mcast_fn mc_obs;
	void *mc_obs_ctx;
	struct ibfs_sa *sa;  /* the SA on the SM's port (sa.c) */
};

/* sm.c */
void ibfs__sm_fail(struct ibfs_sm *sm, const char *msg);
/* Sends what is queued, as far as the window allows. */
void ibfs__sm_pump(struct ibfs_sm *sm);
/* Queues a request of the current stage; NULL (and failed) on no memory. */
struct sm_req *ibfs__sm_push(struct ibfs_sm *sm, uint8_t method,
			     uint16_t attr, uint32_t mod, int node, int port);

/* sm_mcast.c */
/* The groups' trees on the routed subnet; -1 (and failed) on no memory. */
int ibfs__sm_mcast_route(struct ibfs_sm *sm);
/* Queues the MFT blocks of switch record i that differ from its own. */
void ibfs__sm_mft_blocks(struct ibfs_sm *sm, int i);
/* A Set of MFT block r was answered: the switch now holds it. */
void ibfs__sm_mft_acked(struct ibfs_sm *sm, const struct sm_req *r);
/* MulticastFDBTop: the highest MLID in use, 0 without groups. */
uint16_t ibfs__sm_mft_top(const struct ibfs_sm *sm);
/*
 * The members of group gi (or, gi -1, the set of groups) changed at run
 * time: rebuilds the trees and sends the MFT blocks that differ (after
 * the sweep in progress, if one is). The observer hears
 * IBFS_SM_MC_PROGRAMMED once every block so far is answered.
 */
void ibfs__sm_mcast_changed(struct ibfs_sm *sm, int gi);
/* An MFT Set of a run-time change was answered or given up. */
void ibfs__sm_mc_update_done(struct ibfs_sm *sm);
/* Tells the observer, if any. */
void ibfs__sm_mc_notify(struct ibfs_sm *sm, const struct ibfs_sm_mc_event *e);
void ibfs__sm_mcast_free(struct ibfs_sm *sm);

/* sa.c: the SA on the SM's port; NULL (and failed) on no memory. */
struct ibfs_sa *ibfs__sa_new(struct ibfs_sm *sm);
void ibfs__sa_free(struct ibfs_sa *sa);

/* sm_config.c */
/* The current stage has all its answers: start the next one. */
void ibfs__sm_next_phase(struct ibfs_sm *sm);

/* sm_pkey.c */
/* Lays the P_Key tables out once; -1 (the SM failed) on error. */
int ibfs__sm_pkey_plan(struct ibfs_sm *sm);
/* Queues the P_KeyTable blocks record i's ports lack. */
void ibfs__sm_pkey_node(struct ibfs_sm *sm, int i);
/*
 * Queues the P_KeyTable Gets of record i's port p, if discovery reads its
 * table; stores a block such a Get returned.
 */
void ibfs__sm_pkey_get(struct ibfs_sm *sm, int i, int p);
void ibfs__sm_pkey_read(struct ibfs_sm *sm, const struct sm_req *r,
			const uint8_t *data);
/* PortInfo's enforcement bits for record i's port p. */
uint8_t ibfs__sm_pkey_enf(const struct ibfs_sm *sm, int i, int p);
void ibfs__sm_pkey_free(struct ibfs_sm *sm);

#endif
