/* SPDX-License-Identifier: MIT */
/*
 * A scenario (docs/scenario-format.md): the fabric, the subnet manager's
 * settings, the transport model, the traffic (explicit messages and seeded
 * patterns), faults and a stop time. Loading it checks everything before
 * anything runs: a bad file runs nothing.
 */
#ifndef IBFS_SCENARIO_SCENARIO_H
#define IBFS_SCENARIO_SCENARIO_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/diag.h"
#include "fabric/time.h"
#include "fabric/topology.h"
#include "hca/cc_roce.h"
#include "subnet_manager/cc_config.h"
#include "subnet_manager/mcast.h"
#include "subnet_manager/qos.h"

struct ibfs_flow_cdf;

/* Operations, by their names in docs/scenario-format.md (libibverbs'
 * IBV_WR_* in meaning). */
enum ibfs_sc_op {
	IBFS_SC_SEND,
	IBFS_SC_SEND_IMM,
	IBFS_SC_WRITE,
	IBFS_SC_WRITE_IMM,
	IBFS_SC_READ,
	IBFS_SC_CMP_SWAP,
	IBFS_SC_FETCH_ADD,
	IBFS_SC_OP_COUNT
};

enum ibfs_sc_qp { IBFS_SC_RC, IBFS_SC_UC, IBFS_SC_UD };

enum ibfs_sc_pattern_kind {
	IBFS_PAT_PERMUTATION,
	IBFS_PAT_UNIFORM,
	IBFS_PAT_ALL_TO_ALL,
	IBFS_PAT_INCAST,
	IBFS_PAT_SHIFT,
	IBFS_PAT_BISECTION,
	IBFS_PAT_FLOWS,         /* Poisson flows of a size CDF (traffic_flows.c) */
	IBFS_PAT_COUNT
};

enum ibfs_sc_model { IBFS_MODEL_IB, IBFS_MODEL_ROCE, IBFS_MODEL_IWARP,
		     IBFS_MODEL_TCP };

/*
 * <ecn> in <transport>: RED-style ECN marking at the Ethernet switches'
 * egress queues (switch/eth_ecn.h). line 0: no <ecn>, no marking.
 */
struct ibfs_sc_ecn {
	long line;
	uint64_t kmin, kmax;  /* bytes */
	double pmax;
	int enqueue;          /* 1: mark="enqueue"; 0: "dequeue" */
	uint8_t prios;        /* priorities="...", a bit each; all eight */
};

/*
 * <transport>'s Ethernet settings, read whatever the model and used under
 * roce (docs/scenario-format.md): PFC on every priority or none, the
 * priority carried in DSCP or in an 802.1Q tag's PCP, IPv4 or IPv6, the
 * switches' profile (switch/eth_switch.h) and how they pick among ECMP
 * next hops.
 */
struct ibfs_sc_eth {
	int pfc;              /* 1 (default): lossless priorities */
	int pcp;              /* 1: priority in the 802.1Q tag; 0: DSCP */
	int ipv6;
	char *switch_profile; /* NULL: generic-100g */
	int pick;             /* enum ibfs_eth_pick: hash, round-robin... */
	/*
	 * With pfc: the priorities the traffic uses (SL mod 8, the RNICs'
	 * default mapping), a bit each, which are the lossless ones: as a
	 * fabric gives PFC to the classes that carry RoCE, not to all eight
	 * (each lossless priority reserves headroom on every port). Set by
	 * the runner from the traffic.
	 */
	uint8_t lossless;
	/* loss-recovery: 0 the IBA's go-back-N, 1 IRN's selective repeat
	 * (src/hca/rc_irn.c); irn-rtt: IRN's base RTT for its BDP cap
	 * (0: no cap). */
	int irn;
	ibfs_time_t irn_rtt;
	/*
	 * The RNICs' congestion control (scenario_cc.c): cc="NAME" and
	 * cc-params="SET" of <transport> (NULL: none, the control's
	 * defaults), its <cc param= value=/> children over the set, and
	 * what they resolve to (cc.algo NULL: none). cc_line: <transport>'s.
	 */
	char *cc_name, *cc_set;
	struct ibfs_sc_cc_param {
		char *param, *value;
		long line;
	} *cc_params;
	int ncc_params;
	long cc_line;
	struct ibfs_cc_cfg cc;
	/* <ecn> (scenario_ecn.c): the switches' ECN marking. */
	struct ibfs_sc_ecn ecn;
	/* pfc="" was written (under tcp PFC is off unless it says on). */
	int pfc_given;
	long line;            /* <transport>'s, 0 without one */
	/* Under tcp: the congestion control (enum ibfs_sc_tcp_cc), the
	 * MTU (1500 or 9000) and the RTO's floor. */
	int tcp_cc;
	uint32_t tcp_mtu;
	ibfs_time_t tcp_rto_min;
	/* The hosts' CPU: an index in ibfs__host_profile_names, and its
	 * coalescing, ps and frames (UINT64_MAX: the profile's; read only
	 * when there is a <transport>, line). */
	int tcp_host_profile;
	uint64_t tcp_rx_usecs, tcp_rx_frames;
};

enum ibfs_sc_tcp_cc { IBFS_SC_TCP_CUBIC, IBFS_SC_TCP_NEWRENO,
		      IBFS_SC_TCP_DCTCP };

/* One <message>: `count` messages of `size` bytes from src to dst. */
struct ibfs_sc_message {
	int src, dst;          /* topology node indices (HCAs) */
	enum ibfs_sc_op op;
	enum ibfs_sc_qp qp;
	uint8_t sl;            /* service level of its packets (0-15) */
	uint8_t sl_given;      /* 0: the SM's path SL (as from the SA) */
	uint64_t size;
	uint32_t count;
	ibfs_time_t start;
	uint32_t qps;          /* connections (QP pairs) the count spreads over */
	uint64_t rate;         /* offered load in bit/s: one message every
				* size x 8 / rate; 0: all posted at start */
	uint16_t pkey;         /* the partition its QPs use (0xffff) */
	long line;
};

/* One <pattern>: expands into messages with the run's seed. */
struct ibfs_sc_pattern {
	enum ibfs_sc_pattern_kind kind;
	int dst;               /* incast target, -1 otherwise */
	uint64_t shift;        /* shift distance */
	enum ibfs_sc_op op;
	enum ibfs_sc_qp qp;
	uint8_t sl, sl_given;
	uint64_t size;
	uint32_t count;
	ibfs_time_t start;
	uint32_t qps;
	uint64_t rate;
	uint16_t pkey;
	long line;
	/* kind="flows" (scenario_flows.c): sizes drawn from cdf, arrivals
	 * Poisson at `load` of each sender's link rate for `duration` from
	 * start, to every other HCA or (incast) to dst. */
	struct ibfs_flow_cdf *cdf;
	double load;
	int incast;
	ibfs_time_t duration;
};

/* Collectives (<collective kind=>), as MPI and NCCL run them. */
enum ibfs_sc_coll_kind {
	IBFS_COLL_ALLREDUCE,      /* ring: reduce-scatter then allgather */
	IBFS_COLL_REDUCE_SCATTER, /* ring */
	IBFS_COLL_ALLGATHER,      /* ring */
	IBFS_COLL_BROADCAST,      /* binomial tree from root */
	IBFS_COLL_ALLTOALL,       /* pairwise exchange */
	IBFS_COLL_COUNT
};

/* How a collective runs (algorithm=; traffic_collective*.c). */
enum ibfs_sc_coll_algo {
	IBFS_ALGO_RING,               /* allreduce, reduce-scatter, allgather */
	IBFS_ALGO_BINOMIAL,           /* broadcast */
	IBFS_ALGO_PAIRWISE,           /* alltoall */
	IBFS_ALGO_RECURSIVE_DOUBLING, /* allreduce */
	IBFS_ALGO_RABENSEIFNER,       /* allreduce, power-of-two members */
	IBFS_ALGO_PIPELINE,           /* broadcast, in chunks */
	IBFS_ALGO_TREE,               /* allreduce: binomial reduce, bcast */
	IBFS_ALGO_DOUBLE_TREE,        /* allreduce: NCCL's two binary trees */
	IBFS_ALGO_COUNT
};

/*
 * One <collective>: its members exchange in steps, each message posted
 * when the one it waits for has arrived (traffic_collective.c); `count`
 * runs back to back.
 */
struct ibfs_sc_collective {
	enum ibfs_sc_coll_kind kind;
	int *members;          /* HCAs, in ring (or rank) order */
	size_t nmembers;
	size_t root;           /* broadcast: the root's rank in members */
	enum ibfs_sc_op op;    /* write-imm or send-imm: the receiver sees
				* each message's completion */
	enum ibfs_sc_qp qp;    /* rc or uc */
	uint8_t sl, sl_given;
	uint64_t size;         /* the whole buffer, as nccl-tests' size */
	uint32_t count;
	ibfs_time_t start;
	long line;
	enum ibfs_sc_coll_algo algo;
	uint32_t chunks;       /* pipeline, tree, double-tree: pieces of the
				* buffer (a double tree's: of each half) */
	uint64_t reduce_rate;  /* b/s a member reduces at; 0: no time */
};

/* One <multicast>: `count` UD SENDs of `size` bytes from src to a group. */
struct ibfs_sc_mcast {
	int group;             /* index in the scenario's groups */
	int src;               /* topology node index (an HCA) */
	enum ibfs_sc_op op;    /* send or send-imm */
	uint8_t sl, sl_given;
	uint64_t size;
	uint32_t count;
	ibfs_time_t start;
	uint64_t rate;         /* as a message's: 0, all posted at start */
	long line;
};

/* One <multicast-join> or <multicast-leave> (scenario_mjoin.c). */
struct ibfs_sc_mjoin {
	int leave;             /* 0: join (SubnAdmSet), 1: leave (Delete) */
	int group;             /* index in the scenario's groups */
	int node, port;        /* the HCA and its port */
	uint8_t state;         /* JoinState bits: IBFS_JOIN_FULL/_SENDONLY */
	ibfs_time_t at;        /* from when the fabric is up */
	long line;
};

struct ibfs_sc_fault {
	ibfs_time_t at;
	int node, port;        /* port 0: the whole switch */
	int up;                /* 1: action="up", 0: "down" */
	long line;
};

struct ibfs_scenario {
	char *name;
	char *file;
	struct ibfs_topology *topo;
	/* <subnet-manager> */
	char *routing;         /* OpenSM engine name, default "minhop" */
	char *lfts;            /* routing="file": opensm-lfts.dump to load */
	int instant;           /* mode="instant": tables written at time 0,
				* no in-band sweep (mode="inband", default) */
	int sm_node;           /* default: the first HCA */
	int lmc;
	struct ibfs_qos qos;   /* qos-* attributes; qos.given 0 without */
	struct ibfs_cc_config cc; /* cc-* attributes; cc.enabled 0 without */
	/* partitions="FILE" (partitions.h); NULL: OpenSM's default. */
	struct ibfs_partitions *partitions;
	enum ibfs_sc_model model;
	struct ibfs_sc_eth eth;
	char *hca_profile;     /* run --profile: every HCA's; else NULL */
	struct ibfs_sc_message *msgs;
	size_t nmsgs;
	struct ibfs_sc_pattern *pats;
	size_t npats;
	struct ibfs_sc_collective *colls;
	size_t ncolls;
	struct ibfs_sc_fault *faults;
	size_t nfaults;
	ibfs_time_t stop_at;   /* IBFS_TIME_NEVER when absent */
	ibfs_time_t sample_interval; /* <sample interval>: 0 when absent */
	/*
	 * <multicast-group>s in file order, MLIDs from 0xC000 in that order
	 * (scenario_mcast.c): the members written, then each sender that is
	 * not one as a SendOnly member; and the <multicast> sends.
	 */
	struct ibfs_mcast_group *groups;
	long *group_lines;
	size_t ngroups;
	struct ibfs_sc_mcast *mcasts;
	size_t nmcasts;
	/* Joins and leaves at run time, in file order. */
	struct ibfs_sc_mjoin *mjoins;
	size_t nmjoins;
};

/*
 * scenario_pkeys.c: the partitions file is read against the fabric, laid
 * out, and every pair of the traffic checked to be able to talk in its
 * partition (both ends members, not both limited), as the SA would give
 * no path otherwise. 0, or -1 with "FILE:LINE: ..." in d.
 */
int ibfs__scenario_check_pkeys(struct ibfs_scenario *s, struct ibfs_diag *d);
/* A P_Key in C notation (0x8001): 0, or -1 for 0/0x8000 or no number. */
int ibfs__sc_parse_pkey(const char *v, uint16_t *out);

/* Loads and checks a scenario file; NULL with d filled on any error. */
struct ibfs_scenario *ibfs__scenario_load(const char *path,
					  struct ibfs_diag *d);
/*
 * The same from a parsed document (libxml2's, which the caller keeps and
 * may have edited: a sweep's point); path names it in messages and is
 * where its relative file names start from.
 */
struct _xmlDoc;
struct ibfs_scenario *ibfs__scenario_load_doc(struct _xmlDoc *doc,
					      const char *path,
					      struct ibfs_diag *d);
void ibfs__scenario_free(struct ibfs_scenario *s);
/* Gives every HCA of s the timing profile name (run --profile); -1 with d
 * filled when there is no such profile. */
int ibfs__scenario_set_profile(struct ibfs_scenario *s, const char *name,
			       struct ibfs_diag *d);

const char *ibfs__sc_op_str(enum ibfs_sc_op op);
const char *ibfs__sc_qp_str(enum ibfs_sc_qp qp);
const char *ibfs__sc_pattern_str(enum ibfs_sc_pattern_kind k);
const char *ibfs__sc_coll_str(enum ibfs_sc_coll_kind k);
/* The algorithm a collective kind runs by default. */
enum ibfs_sc_coll_algo ibfs__sc_coll_algo(enum ibfs_sc_coll_kind k);
/* An algorithm's name as algorithm= takes it ("ring", ...). */
const char *ibfs__sc_algo_str(enum ibfs_sc_coll_algo a);
const char *ibfs__sc_model_str(enum ibfs_sc_model m);
/*
 * The RNICs' congestion control (scenario_cc.c). resolve: e->cc from the
 * name, set and parameters the scenario gave (errors FILE:LINE, a
 * parameter's at its <cc>'s line). override: --cc NAME[:SET] in place of
 * the scenario's name and set (its <cc> parameters kept for the same
 * control, dropped for another). check_model: under ib, only none.
 */
int ibfs__sc_cc_resolve(struct ibfs_scenario *s, struct ibfs_diag *d);
int ibfs__sc_cc_override(struct ibfs_scenario *s, const char *arg,
			 struct ibfs_diag *d);
int ibfs__sc_cc_check_model(const struct ibfs_scenario *s, const char *who,
			    struct ibfs_diag *d);
void ibfs__sc_cc_free(struct ibfs_sc_eth *e);

#endif
