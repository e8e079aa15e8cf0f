/* SPDX-License-Identifier: MIT */
/*
 * Two HCAs joined back to back by one cable, with LIDs 1 and 2 and a
 * direct (SimGrid-free) exec: the setup of perftest's default runs and of
 * the transport's unit tests.
 */
#ifndef IBFS_HCA_PAIR_H
#define IBFS_HCA_PAIR_H

#include "fabric/link_rate.h"
#include "fabric/topology.h"
#include "hca/direct_exec.h"
#include "hca/hca.h"

struct ibfs_hca_pair {
	struct ibfs_topology *t;
	struct ibfs_fabric *f;
	struct ibfs_hca *h[2];
	struct ibfs_direct_exec dx;
};

struct ibfs_hca_pair_cfg {
	const char *profile;    /* NULL: ideal */
	enum ibfs_speed speed;  /* EDR unless set with have_speed */
	int have_speed;
	int width;              /* 0: 4x */
	uint64_t cable_mm;      /* 0: 2 m */
	uint32_t mtu;           /* 0: 4096 */
	int data_mode;
	int data_vls;           /* 0: 1 */
};

/* Returns 0, or -1 with a sentence in d. */
int ibfs__hca_pair_new(struct ibfs_hca_pair *x,
		       const struct ibfs_hca_pair_cfg *c, struct ibfs_diag *d);
void ibfs__hca_pair_free(struct ibfs_hca_pair *x);

/*
 * One end of a connection, as a verbs program sets it up: a PD, a send
 * and a receive CQ, a zeroed buffer registered with every access right,
 * and a QP. For perftest and the tests.
 */
struct ibfs_hca_end {
	struct ibfs_context *ctx;
	struct ibfs_pd *pd;
	struct ibfs_cq *scq, *rcq;
	struct ibfs_qp *qp;
	struct ibfs_mr *mr;
	uint8_t *buf;
	size_t len;
	uint8_t port;    /* the HCA port its QP uses; 0: port 1 */
	uint16_t pkey_index; /* its QP's P_Key (fabric/pkey.h); 0 default */
};

/* Connection attributes (RC, UC); both PSNs start at psn. */
struct ibfs_hca_conn {
	enum ibfs_mtu mtu;
	uint8_t timeout, retry_cnt, rnr_retry, min_rnr_timer, rd_atomic;
	uint32_t psn;
	uint8_t src_path_bits; /* which of the port's LIDs is the SLID */
	uint8_t sl;            /* the path's service level */
};

/* Returns 0, or -1 (errno set) with nothing left allocated. */
int ibfs__hca_end_open(struct ibfs_hca_end *e, struct ibfs_hca *h,
		       enum ibfs_qp_type type, size_t len,
		       const struct ibfs_qp_cap *cap, int cqe);
/* RC/UC: RESET to RTS towards QP dqpn at dlid. Returns 0 or an errno. */
int ibfs__hca_end_connect(struct ibfs_hca_end *e, uint16_t dlid,
			  uint32_t dqpn, const struct ibfs_hca_conn *c);
/* UD: RESET to RTS with Q_Key qkey. Returns 0 or an errno. */
int ibfs__hca_end_connect_ud(struct ibfs_hca_end *e, uint32_t qkey);
void ibfs__hca_end_close(struct ibfs_hca_end *e);

#endif
