/* SPDX-License-Identifier: MIT */
/*
 * ibfsim verbs: the API application programs (SimGrid actors) use to drive
 * a simulated Host Channel Adapter. Names and structure shapes follow
 * libibverbs with ibfs_ in place of ibv_, so a program written for verbs
 * ports by renaming: work requests are linked through `next` and carry a
 * scatter/gather list and a per-opcode union; completions carry wr_id,
 * status, opcode and byte_len; enums keep verbs' orders.
 *
 * Differences from libibverbs: ibfs_open_device() takes no device list (it
 * returns the HCA of the calling actor's host); a blocking ibfs_wait_cq()
 * replaces completion channels; memory registered with ibfs_reg_mr() is
 * the application's own memory, which the simulated HCA reads and writes.
 */
#ifndef IBFSIM_VERBS_H
#define IBFSIM_VERBS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ibfs_context;
struct ibfs_pd;
struct ibfs_cq;
struct ibfs_ah;

/* Completion status, in the order of enum ibv_wc_status. */
enum ibfs_wc_status {
	IBFS_WC_SUCCESS,
	IBFS_WC_LOC_LEN_ERR,
	IBFS_WC_LOC_QP_OP_ERR,
	IBFS_WC_LOC_EEC_OP_ERR,
	IBFS_WC_LOC_PROT_ERR,
	IBFS_WC_WR_FLUSH_ERR,
	IBFS_WC_MW_BIND_ERR,
	IBFS_WC_BAD_RESP_ERR,
	IBFS_WC_LOC_ACCESS_ERR,
	IBFS_WC_REM_INV_REQ_ERR,
	IBFS_WC_REM_ACCESS_ERR,
	IBFS_WC_REM_OP_ERR,
	IBFS_WC_RETRY_EXC_ERR,
	IBFS_WC_RNR_RETRY_EXC_ERR,
	IBFS_WC_LOC_RDD_VIOL_ERR,
	IBFS_WC_REM_INV_RD_REQ_ERR,
	IBFS_WC_REM_ABORT_ERR,
	IBFS_WC_INV_EECN_ERR,
	IBFS_WC_INV_EEC_STATE_ERR,
	IBFS_WC_FATAL_ERR,
	IBFS_WC_RESP_TIMEOUT_ERR,
	IBFS_WC_GENERAL_ERR,
	IBFS_WC_TM_ERR,
	IBFS_WC_TM_RNDV_INCOMPLETE,
};
const char *ibfs_wc_status_str(enum ibfs_wc_status status);

/* Completion opcodes, with verbs' values. */
enum ibfs_wc_opcode {
	IBFS_WC_SEND,
	IBFS_WC_RDMA_WRITE,
	IBFS_WC_RDMA_READ,
	IBFS_WC_COMP_SWAP,
	IBFS_WC_FETCH_ADD,
	IBFS_WC_BIND_MW,
	IBFS_WC_RECV = 1 << 7,
	IBFS_WC_RECV_RDMA_WITH_IMM,
};
const char *ibfs_wc_opcode_str(enum ibfs_wc_opcode op);

enum ibfs_wc_flags {
	IBFS_WC_GRH = 1 << 0,
	IBFS_WC_WITH_IMM = 1 << 1,
};

struct ibfs_wc {
	uint64_t wr_id;
	enum ibfs_wc_status status;
	enum ibfs_wc_opcode opcode;
	uint32_t vendor_err;
	uint32_t byte_len;
	uint32_t imm_data;      /* network order in verbs; host order here */
	uint32_t qp_num;
	uint32_t src_qp;
	unsigned int wc_flags;
	uint16_t pkey_index;
	uint16_t slid;
	uint8_t sl;
	uint8_t dlid_path_bits;
};

enum ibfs_access_flags {
	IBFS_ACCESS_LOCAL_WRITE = 1,
	IBFS_ACCESS_REMOTE_WRITE = 1 << 1,
	IBFS_ACCESS_REMOTE_READ = 1 << 2,
	IBFS_ACCESS_REMOTE_ATOMIC = 1 << 3,
};

struct ibfs_context {
	int node;               /* topology node of this HCA */
	void *hca;              /* the simulated device (opaque) */
};

/*
 * The device's attributes, as ibv_query_device reports them (the fields a
 * program reads to size its queues); each limit is one the simulated HCA
 * enforces.
 */
struct ibfs_device_attr {
	char fw_ver[64];
	uint64_t node_guid;
	uint64_t sys_image_guid;
	uint32_t vendor_id;       /* 0x02c9 (Mellanox) for the ConnectX profiles */
	uint32_t vendor_part_id;  /* the PCI device ID of the profile's part */
	int max_qp;
	int max_qp_wr;
	int max_sge;
	int max_cqe;
	int max_qp_rd_atom;       /* READs and atomics a QP answers at once */
	int max_qp_init_rd_atom;  /* ... and has in flight */
	int max_srq_wr;
	int max_srq_sge;
	uint16_t max_pkeys;
	uint8_t phys_port_cnt;
};

struct ibfs_pd {
	struct ibfs_context *context;
	uint32_t handle;
};

struct ibfs_mr {
	struct ibfs_context *context;
	struct ibfs_pd *pd;
	void *addr;
	size_t length;
	uint32_t handle;
	uint32_t lkey;
	uint32_t rkey;
};

struct ibfs_cq {
	struct ibfs_context *context;
	void *cq_context;
	int cqe;
};

/* Port attributes (the subset the simulator models). */
enum ibfs_port_state {
	IBFS_PORT_NOP,
	IBFS_PORT_DOWN,
	IBFS_PORT_INIT,
	IBFS_PORT_ARMED,
	IBFS_PORT_ACTIVE,
	IBFS_PORT_ACTIVE_DEFER,
};

enum ibfs_mtu {
	IBFS_MTU_256 = 1,
	IBFS_MTU_512 = 2,
	IBFS_MTU_1024 = 3,
	IBFS_MTU_2048 = 4,
	IBFS_MTU_4096 = 5,
};
/* Bytes of an enum ibfs_mtu value, 0 if invalid. */
int ibfs_mtu_to_bytes(enum ibfs_mtu mtu);

struct ibfs_port_attr {
	enum ibfs_port_state state;
	enum ibfs_mtu max_mtu;
	enum ibfs_mtu active_mtu;
	uint16_t lid;
	uint8_t lmc;
	uint16_t sm_lid;
	uint8_t active_width;   /* lanes */
	uint8_t max_vl_num;     /* data VLs */
	uint16_t pkey_tbl_len;  /* P_Key table entries (IBA 14.2.5.7) */
};

/* Queue pairs. */
enum ibfs_qp_type {
	IBFS_QPT_RC = 2,
	IBFS_QPT_UC,
	IBFS_QPT_UD,
};

enum ibfs_qp_state {
	IBFS_QPS_RESET,
	IBFS_QPS_INIT,
	IBFS_QPS_RTR,
	IBFS_QPS_RTS,
	IBFS_QPS_SQD,
	IBFS_QPS_SQE,
	IBFS_QPS_ERR,
	IBFS_QPS_UNKNOWN,
};
const char *ibfs_qp_state_str(enum ibfs_qp_state state);

struct ibfs_qp {
	struct ibfs_context *context;
	void *qp_context;
	struct ibfs_pd *pd;
	struct ibfs_cq *send_cq;
	struct ibfs_cq *recv_cq;
	uint32_t handle;
	uint32_t qp_num;
	enum ibfs_qp_state state;
	enum ibfs_qp_type qp_type;
};

struct ibfs_qp_cap {
	uint32_t max_send_wr;
	uint32_t max_recv_wr;
	uint32_t max_send_sge;
	uint32_t max_recv_sge;
	uint32_t max_inline_data;
};

/*
 * A shared receive queue (IBA 10.2.9.5, ibv_create_srq): receive WQEs
 * that every QP created with it takes from, in order, instead of a
 * receive queue of its own. Its limit event (srq_limit) is not modelled.
 */
struct ibfs_srq {
	struct ibfs_context *context;
	void *srq_context;
	struct ibfs_pd *pd;
	uint32_t handle;
};

struct ibfs_srq_attr {
	uint32_t max_wr;
	uint32_t max_sge;
	uint32_t srq_limit;     /* kept and reported; no event */
};

struct ibfs_srq_init_attr {
	void *srq_context;
	struct ibfs_srq_attr attr;
};

struct ibfs_qp_init_attr {
	void *qp_context;
	struct ibfs_cq *send_cq;
	struct ibfs_cq *recv_cq;
	/* With a shared receive queue the QP has no receive queue: cap's
	 * max_recv_wr and max_recv_sge are ignored, post_recv is refused. */
	struct ibfs_srq *srq;
	struct ibfs_qp_cap cap;
	enum ibfs_qp_type qp_type;
	int sq_sig_all;
};

/* A GID (IBA 4.1.1), as union ibv_gid: 16 bytes in network order. */
union ibfs_gid {
	uint8_t raw[16];
	struct {
		uint64_t subnet_prefix;
		uint64_t interface_id;
	} global;
};

struct ibfs_global_route {
	uint8_t dgid[16];
	uint32_t flow_label;
	uint8_t sgid_index;
	uint8_t hop_limit;
	uint8_t traffic_class;
};

struct ibfs_ah_attr {
	struct ibfs_global_route grh;
	uint16_t dlid;
	uint8_t sl;
	uint8_t src_path_bits;
	uint8_t static_rate;
	uint8_t is_global;
	uint8_t port_num;
};

enum ibfs_qp_attr_mask {
	IBFS_QP_STATE = 1 << 0,
	IBFS_QP_CUR_STATE = 1 << 1,
	IBFS_QP_EN_SQD_ASYNC_NOTIFY = 1 << 2,
	IBFS_QP_ACCESS_FLAGS = 1 << 3,
	IBFS_QP_PKEY_INDEX = 1 << 4,
	IBFS_QP_PORT = 1 << 5,
	IBFS_QP_QKEY = 1 << 6,
	IBFS_QP_AV = 1 << 7,
	IBFS_QP_PATH_MTU = 1 << 8,
	IBFS_QP_TIMEOUT = 1 << 9,
	IBFS_QP_RETRY_CNT = 1 << 10,
	IBFS_QP_RNR_RETRY = 1 << 11,
	IBFS_QP_RQ_PSN = 1 << 12,
	IBFS_QP_MAX_QP_RD_ATOMIC = 1 << 13,
	IBFS_QP_ALT_PATH = 1 << 14,
	IBFS_QP_MIN_RNR_TIMER = 1 << 15,
	IBFS_QP_SQ_PSN = 1 << 16,
	IBFS_QP_MAX_DEST_RD_ATOMIC = 1 << 17,
	IBFS_QP_PATH_MIG_STATE = 1 << 18,
	IBFS_QP_CAP = 1 << 19,
	IBFS_QP_DEST_QPN = 1 << 20,
};

struct ibfs_qp_attr {
	enum ibfs_qp_state qp_state;
	enum ibfs_qp_state cur_qp_state;
	enum ibfs_mtu path_mtu;
	uint32_t qkey;
	uint32_t rq_psn;
	uint32_t sq_psn;
	uint32_t dest_qp_num;
	unsigned int qp_access_flags;
	struct ibfs_qp_cap cap;
	struct ibfs_ah_attr ah_attr;
	uint16_t pkey_index;
	uint8_t sq_draining;
	uint8_t max_rd_atomic;
	uint8_t max_dest_rd_atomic;
	uint8_t min_rnr_timer;
	uint8_t port_num;
	uint8_t timeout;
	uint8_t retry_cnt;
	uint8_t rnr_retry;
};

/* Work requests. */
enum ibfs_wr_opcode {
	IBFS_WR_RDMA_WRITE,
	IBFS_WR_RDMA_WRITE_WITH_IMM,
	IBFS_WR_SEND,
	IBFS_WR_SEND_WITH_IMM,
	IBFS_WR_RDMA_READ,
	IBFS_WR_ATOMIC_CMP_AND_SWP,
	IBFS_WR_ATOMIC_FETCH_AND_ADD,
};
const char *ibfs_wr_opcode_str(enum ibfs_wr_opcode op);

enum ibfs_send_flags {
	IBFS_SEND_FENCE = 1 << 0,
	IBFS_SEND_SIGNALED = 1 << 1,
	IBFS_SEND_SOLICITED = 1 << 2,
	IBFS_SEND_INLINE = 1 << 3,
};

struct ibfs_sge {
	uint64_t addr;
	uint32_t length;
	uint32_t lkey;
};

struct ibfs_send_wr {
	uint64_t wr_id;
	struct ibfs_send_wr *next;
	struct ibfs_sge *sg_list;
	int num_sge;
	enum ibfs_wr_opcode opcode;
	unsigned int send_flags;
	uint32_t imm_data;      /* host order */
	union {
		struct {
			uint64_t remote_addr;
			uint32_t rkey;
		} rdma;
		struct {
			uint64_t remote_addr;
			uint64_t compare_add;
			uint64_t swap;
			uint32_t rkey;
		} atomic;
		struct {
			struct ibfs_ah *ah;
			uint32_t remote_qpn;
			uint32_t remote_qkey;
		} ud;
	} wr;
};

struct ibfs_recv_wr {
	uint64_t wr_id;
	struct ibfs_recv_wr *next;
	struct ibfs_sge *sg_list;
	int num_sge;
};

/* The HCA of the calling actor's host; NULL (errno set) if it has none. */
struct ibfs_context *ibfs_open_device(void);
int ibfs_close_device(struct ibfs_context *ctx);
int ibfs_query_port(struct ibfs_context *ctx, uint8_t port_num,
		    struct ibfs_port_attr *attr);
int ibfs_query_device(struct ibfs_context *ctx,
		      struct ibfs_device_attr *attr);
/*
 * Entry `index` of port_num's P_Key table, as ibv_query_pkey, in host
 * order (libibverbs gives it big endian): 0, or EINVAL for a port or an
 * index out of range. An entry of 0 is unused (the SM wrote none there).
 */
int ibfs_query_pkey(struct ibfs_context *ctx, uint8_t port_num, int index,
		    uint16_t *pkey);
/* The index of P_Key `pkey` (all 16 bits) in the table, as
 * ibv_get_pkey_index; -1 if the table does not hold it. */
int ibfs_get_pkey_index(struct ibfs_context *ctx, uint8_t port_num,
			uint16_t pkey);

struct ibfs_pd *ibfs_alloc_pd(struct ibfs_context *ctx);
int ibfs_dealloc_pd(struct ibfs_pd *pd);

/* Registers [addr, addr + length): the HCA will read and write it. */
struct ibfs_mr *ibfs_reg_mr(struct ibfs_pd *pd, void *addr, size_t length,
			    int access);
int ibfs_dereg_mr(struct ibfs_mr *mr);

struct ibfs_ah *ibfs_create_ah(struct ibfs_pd *pd, struct ibfs_ah_attr *attr);
int ibfs_destroy_ah(struct ibfs_ah *ah);

/* channel and comp_vector are accepted for verbs' shape and ignored. */
struct ibfs_cq *ibfs_create_cq(struct ibfs_context *ctx, int cqe,
			       void *cq_context, void *channel,
			       int comp_vector);
int ibfs_destroy_cq(struct ibfs_cq *cq);
/* Returns the number of completions written to wc (0..num), or -1. */
int ibfs_poll_cq(struct ibfs_cq *cq, int num, struct ibfs_wc *wc);
/*
 * Blocks the calling actor until cq holds at least one completion, then
 * polls up to num of them. Returns the number polled (>= 1), or -1 with
 * errno ETIMEDOUT when the simulation can never produce one (EBUSY when
 * more than 8 actors already wait on cq).
 */
int ibfs_wait_cq(struct ibfs_cq *cq, int num, struct ibfs_wc *wc);

struct ibfs_qp *ibfs_create_qp(struct ibfs_pd *pd,
			       struct ibfs_qp_init_attr *attr);
/* Returns 0 or an errno value (EINVAL for a bad transition or attribute). */
int ibfs_modify_qp(struct ibfs_qp *qp, struct ibfs_qp_attr *attr,
		   int attr_mask);
int ibfs_query_qp(struct ibfs_qp *qp, struct ibfs_qp_attr *attr,
		  int attr_mask, struct ibfs_qp_init_attr *init_attr);
int ibfs_destroy_qp(struct ibfs_qp *qp);

/* Return 0 or an errno value, with *bad_wr at the first rejected request. */
int ibfs_post_send(struct ibfs_qp *qp, struct ibfs_send_wr *wr,
		   struct ibfs_send_wr **bad_wr);
int ibfs_post_recv(struct ibfs_qp *qp, struct ibfs_recv_wr *wr,
		   struct ibfs_recv_wr **bad_wr);

/* max_wr 1 to 32768, max_sge 1 to the HCA's; NULL with errno EINVAL. */
struct ibfs_srq *ibfs_create_srq(struct ibfs_pd *pd,
				 struct ibfs_srq_init_attr *attr);
int ibfs_query_srq(struct ibfs_srq *srq, struct ibfs_srq_attr *attr);
/* EBUSY while a QP uses it. */
int ibfs_destroy_srq(struct ibfs_srq *srq);
int ibfs_post_srq_recv(struct ibfs_srq *srq, struct ibfs_recv_wr *wr,
		       struct ibfs_recv_wr **bad_wr);
/*
 * Multicast (IBA 10.5, as ibv_attach_mcast): a UD QP receives the packets
 * sent to the group with MGID gid (first byte 0xFF) and MLID lid
 * (0xC000-0xFFFE) on its port, a copy each, as long as it is attached.
 * Return 0 or an errno value: EINVAL for a QP that is not UD, a GID that
 * is not multicast or a LID outside the range; detaching a group the QP
 * is not attached to is EINVAL too. Attaching twice keeps one copy.
 * Sending to a group takes an address handle with the MLID as DLID and
 * is_global set with the MGID as DGID: multicast packets carry a GRH.
 */
int ibfs_attach_mcast(struct ibfs_qp *qp, const union ibfs_gid *gid,
		      uint16_t lid);
int ibfs_detach_mcast(struct ibfs_qp *qp, const union ibfs_gid *gid,
		      uint16_t lid);

#ifdef __cplusplus
}
#endif

#endif
