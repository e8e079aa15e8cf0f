/* SPDX-License-Identifier: MIT */
/*
 * The CSV tables of a run's results (--csv DIR, docs/results.md), one
 * file each: messages.csv (every message record), collectives.csv,
 * flows.csv, links.csv (bytes, busy time and PortXmitWait each way),
 * ports.csv (every linked port's counters; under roce its PFC counters
 * per priority too, results_eth.c) and packets.csv (results_packets.c).
 * Times in ps, as the simulator keeps them; fields as RFC 4180 quotes
 * them.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "scenario/results_int.h"

/*
 * A node id (":PORT" after it when port > 0) as a CSV field and a comma:
 * quoted, with its quotes doubled, when it holds a comma, a quote or a
 * line break (RFC 4180), which ids may.
 */
void ibfs__results_csv_id(FILE *o, const char *id, int port)
{
	int quote = id[strcspn(id, ",\"\r\n")] != 0;
	if (quote)
		fputc('"', o);
	for (const char *c = id; *c; c++) {
		if (*c == '"')
			fputc('"', o);
		fputc(*c, o);
	}
	if (port > 0)
		fprintf(o, ":%d", port);
	fputs(quote ? "\"," : ",", o);
}

static void csv_messages(const struct ibfs_results *r, FILE *o)
{
	fputs("src,dst,op,bytes,post_ps,done_ps,latency_ps,status,"
	      "arrived_ps\n", o);
	for (size_t i = 0; i < r->nmsgs; i++) {
		const struct ibfs_msg_record *m = &r->msgs[i];
		ibfs__results_csv_id(o, res_id(r, m->src), 0);
		ibfs__results_csv_id(o, res_id(r, m->dst), 0);
		fprintf(o, "%s,%llu,%llu,%llu,%llu,%d,%llu\n",
			ibfs__sc_op_str(m->op), (unsigned long long)m->bytes,
			(unsigned long long)m->post,
			(unsigned long long)m->done,
			(unsigned long long)(m->done - m->post), m->status,
			(unsigned long long)m->arrived);
	}
}

static void csv_flows(const struct ibfs_results *r, FILE *o)
{
	struct ibfs_flow *f;
	size_t nf = ibfs__results_flows(r, &f);
	fputs("src,dst,op,bytes,start_ps,end_ps,gbps,unfinished\n", o);
	for (size_t i = 0; i < nf; i++) {
		ibfs__results_csv_id(o, res_id(r, f[i].src), 0);
		ibfs__results_csv_id(o, res_id(r, f[i].dst), 0);
		fprintf(o, "%s,%llu,%llu,%llu,%.6f,%zu\n",
			ibfs__sc_op_str(f[i].op),
			(unsigned long long)f[i].bytes,
			(unsigned long long)f[i].start,
			(unsigned long long)f[i].end,
			ibfs__results_gbps(f[i].bytes, f[i].end - f[i].start),
			f[i].unfinished);
	}
	free(f);
}

/*
 * PortXmitData and PortRcvData as IBA 16.1.3.5 counts them: data octets
 * divided by 4, from the LRH to the ICRC, so without the 2-byte VCRC of
 * each packet (link packets excluded). The port keeps its counts in wire
 * bytes, VCRC included (the `*_data_bytes` columns), and the packets
 * counted with them, so the words follow exactly: every transport packet
 * is a whole number of words before its VCRC (IBA 9.2: pad to 4 bytes).
 */
static uint64_t iba_data_words(uint64_t wire_bytes, uint64_t pkts)
{
	return (wire_bytes - (uint64_t)IBFS_VCRC_BYTES * pkts) / 4;
}

/* The row of ports.csv of port p of node n (a linked port). */
static void csv_port(const struct ibfs_results *r, FILE *o, size_t n, int p)
{
	const struct ibfs_topology *t = r->sc->topo;
	const struct ibfs_port *pt = &r->fab->ports[n][p];
	const struct ibfs_topo_port *tp = &t->nodes[n].ports[p];

	ibfs__results_csv_id(o, t->nodes[n].id, 0);
	fprintf(o, "%d,", p);
	ibfs__results_csv_id(o, t->nodes[tp->peer_node].id, tp->peer_port);
	fprintf(o,
		"%llu,%llu,%llu,%llu,%llu,%llu,%u,%llu,%llu,"
		"%llu,%llu,%llu,%llu",
		(unsigned long long)pt->cnt.xmit_data,
		(unsigned long long)pt->cnt.rcv_data,
		(unsigned long long)pt->cnt.xmit_pkts,
		(unsigned long long)pt->cnt.rcv_pkts,
		(unsigned long long)pt->cnt.xmit_wait,
		(unsigned long long)pt->cnt.busy,
		ibfs__results_port_peak(pt),
		(unsigned long long)iba_data_words(pt->cnt.xmit_data,
						   pt->cnt.xmit_pkts),
		(unsigned long long)iba_data_words(pt->cnt.rcv_data,
						   pt->cnt.rcv_pkts),
		(unsigned long long)ibfs__results_fecn_marks(r, (int)n, p),
		(unsigned long long)pt->pkey_violations,
		(unsigned long long)pt->rcv_constraint_errors,
		(unsigned long long)pt->xmit_constraint_errors);
	if (r->sc->model != IBFS_MODEL_IB) {
		ibfs__results_csv_port_pfc(r, o, n, p);
		/* The frames the port marked CE (results_ecn.c). */
		fprintf(o, ",%llu", (unsigned long long)
			ibfs__results_ecn_marks(r, (int)n, p));
	}
	fputc('\n', o);
}

static void csv_ports(const struct ibfs_results *r, FILE *o)
{
	const struct ibfs_topology *t = r->sc->topo;

	fputs("node,port,peer,xmit_data_bytes,rcv_data_bytes,xmit_pkts,"
	      "rcv_pkts,xmit_wait_ps,busy_ps,peak_buffer_blocks,"
	      "port_xmit_data,port_rcv_data,fecn_marks,pkey_violations,"
	      "rcv_constraint_errors,xmit_constraint_errors", o);
	if (r->sc->model != IBFS_MODEL_IB) {
		ibfs__results_csv_port_pfc_head(o);
		fputs(",ecn_marks", o);
	}
	fputc('\n', o);
	for (size_t n = 0; n < t->nnodes; n++)
		for (int p = 1; p <= t->nodes[n].nports; p++)
			if (t->nodes[n].ports[p].peer_node >= 0)
				csv_port(r, o, n, p);
}

static void csv_links(const struct ibfs_results *r, FILE *o)
{
	const struct ibfs_topology *t = r->sc->topo;
	fputs("a,b,tx_bytes_ab,tx_bytes_ba,busy_ps_ab,busy_ps_ba,"
	      "xmit_wait_ps_ab,xmit_wait_ps_ba\n", o);
	for (size_t i = 0; i < t->nlinks; i++) {
		const struct ibfs_topo_link *l = &t->links[i];
		const struct ibfs_port *a = &r->fab->ports[l->node_a][l->port_a];
		const struct ibfs_port *b = &r->fab->ports[l->node_b][l->port_b];
		ibfs__results_csv_id(o, res_id(r, l->node_a), l->port_a);
		ibfs__results_csv_id(o, res_id(r, l->node_b), l->port_b);
		fprintf(o, "%llu,%llu,%llu,%llu,%llu,%llu\n",
			(unsigned long long)a->cnt.xmit_data,
			(unsigned long long)b->cnt.xmit_data,
			(unsigned long long)a->cnt.busy,
			(unsigned long long)b->cnt.busy,
			(unsigned long long)a->cnt.xmit_wait,
			(unsigned long long)b->cnt.xmit_wait);
	}
}

int ibfs__results_write_csv(const struct ibfs_results *r, const char *dir)
{
	static const struct {
		const char *name;
		void (*body)(const struct ibfs_results *, FILE *);
	} tables[] = {{"messages.csv", csv_messages},
		      {"collectives.csv", ibfs__results_csv_colls},
		      {"flows.csv", csv_flows},
		      {"links.csv", csv_links},
		      {"ports.csv", csv_ports},
		      {"packets.csv", ibfs__results_csv_packets},
		      {"hosts.csv", ibfs__results_csv_hosts}};
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return -1;
	char path[4096];

	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, tables[i].name);
		if (ibfs__results_write_whole(path, tables[i].body, r) < 0)
			return -1;
	}
	snprintf(path, sizeof(path), "%s/fct.csv", dir);
	if (ibfs__results_has_fct(r) &&
	    ibfs__results_write_whole(path, ibfs__results_csv_fct, r) < 0)
		return -1;
	if (r->sc->model == IBFS_MODEL_IB)
		return 0;
	snprintf(path, sizeof(path), "%s/pfc.csv", dir);
	if (ibfs__results_write_whole(path, ibfs__results_csv_pfc, r) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/ecn.csv", dir);
	return ibfs__results_write_whole(path, ibfs__results_csv_ecn, r);
}
