/* SPDX-License-Identifier: MIT */
/*
 * The timeline of a run as Chrome/Perfetto trace-event JSON (the object
 * form {"traceEvents": [...]}, which ui.perfetto.dev and chrome://tracing
 * open). Each node (HCA or switch) is a process named after the node; each
 * port is a thread "port N" of it. Every packet transmission is a complete
 * event ("ph":"X") on the sending port's thread, named by its BTH opcode
 * (IBA 9.2, table 38: "RDMA WRITE First", "Acknowledge", ...), lasting its
 * serialization time. A credit stall (data waiting without credits, the
 * PortXmitWait of IBA 16.1.3.5) is a complete event "credit stall VL n" on
 * the same thread. Work requests and completions, reported by the HCA, are
 * instant events on a thread "QP n" of the HCA's process, and each
 * completed work request is also an async span from post to completion.
 * Subnet manager sweeps are spans on a thread "subnet manager" of the node
 * running it.
 *
 * Times are written in microseconds with six decimals, i.e. exactly to the
 * picosecond, from the integer simulated time. The file is streamed
 * through a buffer (memory stays bounded however long the run), written to
 * FILE.part and renamed to FILE on close, so no half-written timeline is
 * ever left under FILE.
 */
#ifndef IBFS_FABRIC_TRACE_H
#define IBFS_FABRIC_TRACE_H

#include <stdint.h>

#include "fabric/fabric.h"
#include "fabric/port_set.h"

struct ibfs_trace;

/*
 * Thread ids inside a node's process: a port's thread is its number
 * (0..255); the subnet manager's is IBFS_TRACE_TID_SM; QP n's is
 * IBFS_TRACE_TID_QP + n (QP numbers have 24 bits, IBA 9.2).
 */
#define IBFS_TRACE_TID_SM 256
#define IBFS_TRACE_TID_QP 512

/*
 * Opens a timeline of f's traffic into path (via path.part). `ports`
 * chooses the transmitting ports whose packets and stalls are written
 * (port_set.h); NULL selects every port. Returns NULL with errno set on
 * failure.
 */
struct ibfs_trace *ibfs__trace_open(struct ibfs_fabric *f, const char *path,
				    const struct ibfs_port_set *ports);
/*
 * Ends credit stalls still open at the current time, closes the JSON,
 * renames path.part to path. Returns 0, or -1 with errno (an I/O error at
 * any point of the run); on failure nothing is left under either name.
 */
int ibfs__trace_close(struct ibfs_trace *t);
/* Drops the timeline without leaving a file. */
void ibfs__trace_abort(struct ibfs_trace *t);
/* Events written so far (metadata records not counted). */
uint64_t ibfs__trace_count(const struct ibfs_trace *t);

/*
 * Calls for the upper layers; each does nothing when t is NULL, so callers
 * may keep a trace pointer that is usually NULL and call unconditionally.
 * `opcode` and `status` are names the caller owns (e.g. the verbs _str
 * functions: "RDMA_WRITE", "SUCCESS"); they are copied out at once.
 *
 * ibfs__trace_wr: node `node` posted work request wr_id on QP qpn at
 * t_post (an instant event "post OPCODE" on the thread "QP qpn").
 */
void ibfs__trace_wr(struct ibfs_trace *t, int node, uint32_t qpn,
		    uint64_t wr_id, const char *opcode, uint64_t bytes,
		    ibfs_time_t t_post);
/*
 * ibfs__trace_cqe: the completion of wr_id, posted at t_post, was
 * delivered at t_done with `status`: an instant event "CQE OPCODE" at
 * t_done and an async span OPCODE from t_post to t_done, on "QP qpn".
 */
void ibfs__trace_cqe(struct ibfs_trace *t, int node, uint32_t qpn,
		     uint64_t wr_id, const char *opcode, const char *status,
		     uint64_t bytes, ibfs_time_t t_post, ibfs_time_t t_done);
/*
 * ibfs__trace_sm_sweep: the subnet manager on `node` ran a sweep (`what`,
 * e.g. "heavy sweep") from start to end: a span on its "subnet manager"
 * thread. ibfs__trace_sm_mark: a single moment of it (an instant event,
 * e.g. "LFTs programmed").
 */
void ibfs__trace_sm_sweep(struct ibfs_trace *t, int node, const char *what,
			  ibfs_time_t start, ibfs_time_t end);
void ibfs__trace_sm_mark(struct ibfs_trace *t, int node, const char *what,
			 ibfs_time_t at);

/*
 * ibfs__trace_counter: a counter event ("ph":"C") named `name` of node's
 * process at `at`, with n series keys[i] = vals[i], which the viewers
 * draw as a chart that holds each value until the next event of that
 * name (sampled state: src/scenario/sampler.c).
 */
void ibfs__trace_counter(struct ibfs_trace *t, int node, const char *name,
			 ibfs_time_t at, const char *const *keys,
			 const uint64_t *vals, int n);

/* The name of a transport packet's BTH opcode (IBA 9.2, table 38). */
const char *ibfs__trace_opcode_name(uint8_t opcode);

#endif
