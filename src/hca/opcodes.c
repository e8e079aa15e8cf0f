/* SPDX-License-Identifier: MIT */
/*
 * The IBA transport opcodes (IBA 9.2, Table 38) and the extension headers
 * each one carries (IBA 9.3): RETH on the first packet of an RDMA WRITE and
 * on a READ request, ImmDt on the last packet of a message with immediate,
 * AETH on ACKs and on the first and last READ responses, AtomicETH on
 * atomic requests and AtomicAckETH on their acknowledgement. UD adds a
 * DETH to every packet (added by ud.c, not listed here).
 */
#include <stddef.h>

#include "hca/hca_int.h"

#define F IBFS_OPF_FIRST
#define L IBFS_OPF_LAST
#define D IBFS_OPF_DATA

/* Indexed by the low five bits of the opcode (the operation). */
static const struct ibfs_hca_opinfo op_table[32] = {
	[0x00] = {"SEND_FIRST", F | D | IBFS_OPF_SEND, 0},
	[0x01] = {"SEND_MIDDLE", D | IBFS_OPF_SEND, 0},
	[0x02] = {"SEND_LAST", L | D | IBFS_OPF_SEND, 0},
	[0x03] = {"SEND_LAST_IMM", L | D | IBFS_OPF_SEND | IBFS_OPF_IMM,
		  IBFS_XH_IMM},
	[0x04] = {"SEND_ONLY", F | L | D | IBFS_OPF_SEND, 0},
	[0x05] = {"SEND_ONLY_IMM", F | L | D | IBFS_OPF_SEND | IBFS_OPF_IMM,
		  IBFS_XH_IMM},
	[0x06] = {"WRITE_FIRST", F | D | IBFS_OPF_WRITE, IBFS_XH_RETH},
	[0x07] = {"WRITE_MIDDLE", D | IBFS_OPF_WRITE, 0},
	[0x08] = {"WRITE_LAST", L | D | IBFS_OPF_WRITE, 0},
	[0x09] = {"WRITE_LAST_IMM", L | D | IBFS_OPF_WRITE | IBFS_OPF_IMM,
		  IBFS_XH_IMM},
	[0x0a] = {"WRITE_ONLY", F | L | D | IBFS_OPF_WRITE, IBFS_XH_RETH},
	[0x0b] = {"WRITE_ONLY_IMM", F | L | D | IBFS_OPF_WRITE | IBFS_OPF_IMM,
		  IBFS_XH_RETH | IBFS_XH_IMM},
	[0x0c] = {"READ_REQUEST", F | L | IBFS_OPF_READ, IBFS_XH_RETH},
	[0x0d] = {"READ_RESPONSE_FIRST", F | D | IBFS_OPF_RESP, IBFS_XH_AETH},
	[0x0e] = {"READ_RESPONSE_MIDDLE", D | IBFS_OPF_RESP, 0},
	[0x0f] = {"READ_RESPONSE_LAST", L | D | IBFS_OPF_RESP, IBFS_XH_AETH},
	[0x10] = {"READ_RESPONSE_ONLY", F | L | D | IBFS_OPF_RESP,
		  IBFS_XH_AETH},
	[0x11] = {"ACKNOWLEDGE", F | L | IBFS_OPF_RESP, IBFS_XH_AETH},
	[0x12] = {"ATOMIC_ACKNOWLEDGE", F | L | IBFS_OPF_RESP,
		  IBFS_XH_AETH | IBFS_XH_ATOMICACK},
	[0x13] = {"CMP_SWAP", F | L | IBFS_OPF_ATOMIC, IBFS_XH_ATOMIC},
	[0x14] = {"FETCH_ADD", F | L | IBFS_OPF_ATOMIC, IBFS_XH_ATOMIC},
};

#undef F
#undef L
#undef D

const struct ibfs_hca_opinfo *ibfs__hca_opinfo(uint8_t opcode)
{
	uint8_t t = opcode & 0xe0, op = opcode & 0x1f;
	switch (t) {
	case IBFS_OP_RC:
		if (op > 0x14)
			return NULL;
		return &op_table[op];
	case IBFS_OP_UC:
		/* UC has SENDs and RDMA WRITEs only (Table 38). */
		if (op > 0x0b)
			return NULL;
		return &op_table[op];
	case IBFS_OP_UD:
		if (op != 0x04 && op != 0x05)
			return NULL;
		return &op_table[op];
	default:
		return NULL;
	}
}

uint8_t ibfs__hca_req_opcode(enum ibfs_qp_type t, enum ibfs_wr_opcode op,
			     int first, int last)
{
	uint8_t pfx = t == IBFS_QPT_UD ? IBFS_OP_UD :
		      t == IBFS_QPT_UC ? IBFS_OP_UC : IBFS_OP_RC;
	int imm = op == IBFS_WR_SEND_WITH_IMM ||
		  op == IBFS_WR_RDMA_WRITE_WITH_IMM;
	uint8_t code;
	switch (op) {
	case IBFS_WR_SEND:
	case IBFS_WR_SEND_WITH_IMM:
		if (first && last)
			code = imm ? IBFS_OP_SEND_ONLY_IMM : IBFS_OP_SEND_ONLY;
		else if (first)
			code = IBFS_OP_SEND_FIRST;
		else if (last)
			code = imm ? IBFS_OP_SEND_LAST_IMM : IBFS_OP_SEND_LAST;
		else
			code = IBFS_OP_SEND_MIDDLE;
		break;
	case IBFS_WR_RDMA_WRITE:
	case IBFS_WR_RDMA_WRITE_WITH_IMM:
		if (first && last)
			code = imm ? IBFS_OP_WRITE_ONLY_IMM :
				     IBFS_OP_WRITE_ONLY;
		else if (first)
			code = IBFS_OP_WRITE_FIRST;
		else if (last)
			code = imm ? IBFS_OP_WRITE_LAST_IMM :
				     IBFS_OP_WRITE_LAST;
		else
			code = IBFS_OP_WRITE_MIDDLE;
		break;
	case IBFS_WR_RDMA_READ:
		code = IBFS_OP_READ_REQ;
		break;
	case IBFS_WR_ATOMIC_CMP_AND_SWP:
		code = IBFS_OP_CMP_SWAP;
		break;
	default:
		code = IBFS_OP_FETCH_ADD;
		break;
	}
	return pfx | code;
}
