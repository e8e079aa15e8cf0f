/* SPDX-License-Identifier: MIT */
/*
 * What the results' files share. The core of the results is split by
 * concern: the records (results.c), the statistics over them
 * (results_stats.c) and one writer per output: the text summary
 * (results_text.c), the JSON (results_json.c) and the CSV tables
 * (results_csv.c). The optional parts (collectives, multicast, joins at
 * run time, congestion control) each keep their statistics and their
 * three outputs in a file of their own, and hook into the writers through
 * the ibfs__results_{print,json,csv}_PART functions below.
 */
#ifndef IBFS_SCENARIO_RESULTS_INT_H
#define IBFS_SCENARIO_RESULTS_INT_H

#include "scenario/results.h"

/* A node's id in the topology, as every output names it. */
static inline const char *res_id(const struct ibfs_results *r, int node)
{
	return r->sc->topo->nodes[node].id;
}

/* Picoseconds to nanoseconds, the unit of the text and JSON. */
static inline double res_ns(ibfs_time_t ps)
{
	return (double)ps / 1000.0;
}

/* results_stats.c */

/* Latency statistics over successful messages, in ps (nearest rank). */
struct ibfs_latency {
	uint64_t count, failed, incomplete;
	ibfs_time_t min, p50, p99, max;
	double mean;
};
void ibfs__results_latency(const struct ibfs_results *r,
			   struct ibfs_latency *out);
/* The statistics of n latencies v (sorted here) that sum to sum. */
void ibfs__latency_fill(struct ibfs_latency *out, ibfs_time_t *v, size_t n,
			double sum);

/*
 * A flow, the messages of one (src, dst, op): bytes of those that
 * completed, from the first post to the last completion, or to the end of
 * the run when some never completed (`unfinished` of them: the flow was
 * still going).
 */
struct ibfs_flow {
	int src, dst;
	enum ibfs_sc_op op;
	uint64_t bytes;
	ibfs_time_t start, end;
	size_t unfinished;
};
/* The flows of r sorted by (src, dst, op), to free; returns the count. */
size_t ibfs__results_flows(const struct ibfs_results *r,
			   struct ibfs_flow **out);
/* bytes over span ps in Gb/s; 0 over an empty span. */
double ibfs__results_gbps(uint64_t bytes, ibfs_time_t span);
/* All completed bytes over first post to last completion, in Gb/s. */
double ibfs__results_aggregate_gbps(const struct ibfs_results *r);
/* P_KeyViolations, PortRcv- and PortXmitConstraintErrors of every port. */
void ibfs__results_pkey_sums(const struct ibfs_results *r, uint64_t s[3]);
/* The fullest any VL's input buffer of a port got, in 64-byte blocks. */
uint32_t ibfs__results_port_peak(const struct ibfs_port *pt);

/* results.c: writes a file through a temporary one renamed into place. */
int ibfs__results_write_whole(const char *path,
			      void (*body)(const struct ibfs_results *,
					   FILE *),
			      const struct ibfs_results *r);

/* results_json.c: a JSON string, quoted and escaped; a latency object. */
void ibfs__results_json_str(FILE *o, const char *s);
void ibfs__results_json_latency(FILE *o, const struct ibfs_latency *l);

/* results_collective.c: nccl-tests' figures and the three outputs. */
/* algbw = size / time of one run, busbw = algbw x 2(n-1)/n (allreduce),
 * (n-1)/n (reduce-scatter, allgather, alltoall) or 1 (broadcast), in GB/s
 * (10^9 bytes/s); 0 when it did not finish. */
double ibfs__coll_algbw(const struct ibfs_coll_result *c);
double ibfs__coll_busbw(const struct ibfs_coll_result *c);
void ibfs__results_print_colls(const struct ibfs_results *r, FILE *out);
void ibfs__results_json_colls(const struct ibfs_results *r, FILE *o);
void ibfs__results_csv_colls(const struct ibfs_results *r, FILE *o);

/* results_mcast.c: the groups' sends and deliveries (nothing without). */
void ibfs__results_print_mcast(const struct ibfs_results *r, FILE *out);
void ibfs__results_json_mcast(const struct ibfs_results *r, FILE *o);

/* results_mjoin.c: group g's joins and leaves at run time. */
void ibfs__results_print_mjoins(const struct ibfs_results *r, int g,
				FILE *out);
void ibfs__results_json_mjoins(const struct ibfs_results *r, int g, FILE *o);

/*
 * results_cc.c: congestion control counters, printed and in the JSON
 * only when the scenario turns CC on.
 */
/* FECN marks of a switch port (0 for other nodes, or without CC). */
uint64_t ibfs__results_fecn_marks(const struct ibfs_results *r, int node,
				  int port);
/* A line of totals in the text summary. */
void ibfs__results_print_cc(const struct ibfs_results *r, FILE *out);
/* ", fecn_marks_ab, fecn_marks_ba" in a JSON link. */
void ibfs__results_json_cc_link(const struct ibfs_results *r, FILE *o,
				const struct ibfs_topo_link *l);
/* The JSON's "congestion_control" member, with its trailing comma. */
void ibfs__results_json_cc(const struct ibfs_results *r, FILE *o);

/*
 * results_eth.c: PFC, the Ethernet switches' drops and buffer peaks, and
 * what the run left aside, only under roce; the JSON's members with
 * their trailing commas.
 */
void ibfs__results_print_eth(const struct ibfs_results *r, FILE *out);
/* results_cpu.c: the hosts' CPU (0 under ib and roce). */
double ibfs__results_cpu_seconds(const struct ibfs_results *r);
void ibfs__results_print_cpu(const struct ibfs_results *r, FILE *out);
void ibfs__results_json_cpu(const struct ibfs_results *r, FILE *o);
void ibfs__results_csv_hosts(const struct ibfs_results *r, FILE *o);
void ibfs__results_json_eth(const struct ibfs_results *r, FILE *o);
/* 1 and the shared buffer's peak in bytes when node is an Ethernet
 * switch; 0 otherwise. */
/* Under HPCC, a switch's mean queue behind the frames it stamped (JSON:
 * int_queue_mean_bytes); nothing when it stamped none. */
void ibfs__results_eth_int(const struct ibfs_results *r, size_t node,
			   FILE *o);
int ibfs__results_eth_peak(const struct ibfs_results *r, size_t node,
			   uint64_t *peak);
/* pfc.csv: a row per port and priority whose counters are not all 0. */
void ibfs__results_csv_pfc(const struct ibfs_results *r, FILE *o);
/* ports.csv's PFC columns under roce: their names and a port's values,
 * each with the comma before it. */
void ibfs__results_csv_port_pfc_head(FILE *o);
void ibfs__results_csv_port_pfc(const struct ibfs_results *r, FILE *o,
				size_t node, int port);

/*
 * results_packets.c: sent, dropped (and by cause), retransmitted: the
 * text's `packets:` line, the JSON's "packets" member with its trailing
 * comma, packets.csv.
 */
void ibfs__results_print_packets(const struct ibfs_results *r, FILE *out);
void ibfs__results_json_packets(const struct ibfs_results *r, FILE *o);
void ibfs__results_csv_packets(const struct ibfs_results *r, FILE *o);
/* Request packets the HCAs sent again, summed. */
uint64_t ibfs__results_retransmitted(const struct ibfs_results *r);

/*
 * fct_ideal.c: a WRITE of `bytes` from src to dst alone on the idle
 * fabric, from its post to its completion at src, in ps (0 when no path
 * joins them).
 */
ibfs_time_t ibfs__fct_ideal(const struct ibfs_results *r, int src, int dst,
			    uint64_t bytes);
/*
 * results_flows.c: the flows of kind="flows" patterns, printed, in the
 * JSON (its "fct" member with its trailing comma) and fct.csv; nothing
 * when the scenario has no such pattern.
 */
int ibfs__results_has_fct(const struct ibfs_results *r);
void ibfs__results_print_fct(const struct ibfs_results *r, FILE *out);
void ibfs__results_json_fct(const struct ibfs_results *r, FILE *o);
void ibfs__results_csv_fct(const struct ibfs_results *r, FILE *o);
/* The finished flows' slowdown p50 and p99: how many (0: none, p50 and
 * p99 untouched). */
size_t ibfs__results_fct_slowdown(const struct ibfs_results *r, double *p50,
				  double *p99);
/*
 * results_ecn.c: the switches' ECN marks; the text line when the scenario
 * has <ecn>, the JSON member (with its comma) and ecn.csv under roce.
 */
uint64_t ibfs__results_ecn_marks(const struct ibfs_results *r, int node,
				 int port);
void ibfs__results_print_ecn(const struct ibfs_results *r, FILE *out);
void ibfs__results_json_ecn(const struct ibfs_results *r, FILE *o);
void ibfs__results_csv_ecn(const struct ibfs_results *r, FILE *o);

/* A node id (":PORT" after it when port > 0) as a CSV field and a comma
 * (results_csv.c). */
void ibfs__results_csv_id(FILE *o, const char *id, int port);

#endif
