/* SPDX-License-Identifier: MIT */
/*
 * The results of an Ethernet run (--model roce): PFC frames sent and
 * received and the time senders were paused, summed over every port and
 * priority (fabric/pfc.h); the switches' drops by cause (tail drops of
 * lossy priorities, headroom overflows of lossless ones, frames with no
 * route) and each switch's buffer peak (switch/eth_switch.h); and the
 * scenario's InfiniBand-only settings that the run left aside. Printed,
 * in the JSON, in pfc.csv (per port and priority) and in columns of
 * ports.csv only under roce, so InfiniBand results are unchanged.
 */
#include <stdio.h>

#include "fabric/pfc.h"
#include "scenario/results_int.h"
#include "switch/eth_int.h"
#include "switch/eth_switch.h"

struct eth_sums {
	uint64_t pfc_tx, pfc_rx;
	ibfs_time_t paused;
	uint64_t tail, headroom, no_route;
};

static const struct ibfs_eth_switch *eth_sw(const struct ibfs_results *r,
					     size_t node)
{
	return ibfs__eth_switch_of(
		((struct ibfs_fabric *)(uintptr_t)r->fab)->devices[node]);
}

static void eth_port_sum(const struct ibfs_port *port,
			 const struct ibfs_eth_switch *sw, struct eth_sums *s)
{
	const struct ibfs_pfc_port *pp = ibfs__pfc_of(port);

	for (int prio = 0; prio < IBFS_ETH_PRIOS; prio++) {
		if (pp) {
			s->pfc_tx += pp->st.tx_frames[prio];
			s->pfc_rx += pp->st.rx_frames[prio];
			s->paused += ibfs__pfc_paused_time(port, prio);
		}
		if (sw) {
			const struct ibfs_eth_prio_stats *st =
				ibfs__eth_switch_stats(sw, port->num, prio);
			s->tail += st->drops;
			s->headroom += st->hdrm_drops;
			s->no_route += st->no_route;
		}
	}
}

static void eth_sum(const struct ibfs_results *r, struct eth_sums *s)
{
	const struct ibfs_topology *t = r->sc->topo;

	*s = (struct eth_sums){0};
	for (size_t n = 0; n < t->nnodes; n++)
		for (int p = 1; p <= t->nodes[n].nports; p++)
			eth_port_sum(&r->fab->ports[n][p], eth_sw(r, n), s);
}

int ibfs__results_eth_peak(const struct ibfs_results *r, size_t node,
			   uint64_t *peak)
{
	const struct ibfs_eth_switch *sw = eth_sw(r, node);

	if (sw)
		*peak = ibfs__eth_switch_peak(sw);
	return sw != NULL;
}

void ibfs__results_eth_int(const struct ibfs_results *r, size_t node,
			   FILE *o)
{
	const struct ibfs_eth_switch *sw = eth_sw(r, node);
	uint64_t n = 0, q = sw ? ibfs__eth_switch_int_queue(sw, &n) : 0;

	if (n)
		fprintf(o, ", \"int_queue_mean_bytes\": %.1f",
			(double)q / (double)n);
}

static int eth_on(const struct ibfs_results *r)
{
	return r->sc->model != IBFS_MODEL_IB; /* roce, tcp: Ethernet */
}

void ibfs__results_print_eth(const struct ibfs_results *r, FILE *out)
{
	struct eth_sums s;
	const struct ibfs_topology *t = r->sc->topo;
	uint64_t peak = 0;
	size_t at = 0;

	if (!eth_on(r)) {
		ibfs__results_print_ecn(r, out);
		return;
	}
	eth_sum(r, &s);
	for (size_t n = 0; n < t->nnodes; n++)
		if (eth_sw(r, n) && ibfs__eth_switch_peak(eth_sw(r, n)) > peak) {
			peak = ibfs__eth_switch_peak(eth_sw(r, n));
			at = n;
		}
	fprintf(out,
		"pfc: %llu pause frames sent, %llu received, %.3f us paused "
		"(all ports and priorities)\n",
		(unsigned long long)s.pfc_tx, (unsigned long long)s.pfc_rx,
		res_ns(s.paused) / 1000.0);
	fprintf(out,
		"switch drops: %llu tail, %llu headroom, %llu no route; "
		"buffer peak %llu B (%s)\n",
		(unsigned long long)s.tail, (unsigned long long)s.headroom,
		(unsigned long long)s.no_route, (unsigned long long)peak,
		peak ? res_id(r, (int)at) : "-");
	ibfs__results_print_ecn(r, out);
	if (r->tcp)
		fprintf(out, "tcp: %llu timeouts, %llu fast retransmits, %llu "
			"segments retransmitted\n",
			(unsigned long long)r->tcp_timeouts,
			(unsigned long long)r->tcp_fast_retransmits,
			(unsigned long long)r->tcp_retransmits);
	if (r->eth_ignored[0])
		fprintf(out, "ignored under %s (InfiniBand only): %s\n",
			r->tcp ? "tcp" : "roce", r->eth_ignored);
}

void ibfs__results_json_eth(const struct ibfs_results *r, FILE *o)
{
	struct eth_sums s;

	if (!eth_on(r))
		return;
	eth_sum(r, &s);
	fprintf(o,
		"  \"pfc\": {\"pause_frames_sent\": %llu, "
		"\"pause_frames_received\": %llu, \"paused_ns\": %.3f},\n",
		(unsigned long long)s.pfc_tx, (unsigned long long)s.pfc_rx,
		res_ns(s.paused));
	fprintf(o,
		"  \"switch_drops\": {\"tail\": %llu, \"headroom\": %llu, "
		"\"no_route\": %llu},\n",
		(unsigned long long)s.tail, (unsigned long long)s.headroom,
		(unsigned long long)s.no_route);
	ibfs__results_json_ecn(r, o);
	if (r->tcp)
		fprintf(o,
			"  \"tcp\": {\"timeouts\": %llu, "
			"\"fast_retransmits\": %llu, \"retransmitted\": "
			"%llu},\n",
			(unsigned long long)r->tcp_timeouts,
			(unsigned long long)r->tcp_fast_retransmits,
			(unsigned long long)r->tcp_retransmits);
	if (r->eth_ignored[0]) {
		fputs("  \"ignored\": ", o);
		ibfs__results_json_str(o, r->eth_ignored);
		fputs(",\n", o);
	}
}

/* One port and priority of pfc.csv, when any of its counters is not 0. */
static void csv_pfc_row(const struct ibfs_results *r, FILE *o, size_t n,
			int p, int prio)
{
	const struct ibfs_port *port = &r->fab->ports[n][p];
	const struct ibfs_pfc_port *pp = ibfs__pfc_of(port);
	const struct ibfs_eth_switch *sw = eth_sw(r, n);
	const struct ibfs_eth_prio_stats zero = {0};
	const struct ibfs_eth_prio_stats *st =
		sw ? ibfs__eth_switch_stats(sw, p, prio) : &zero;
	ibfs_time_t paused = ibfs__pfc_paused_time(port, prio);

	if (!pp->st.tx_frames[prio] && !pp->st.rx_frames[prio] && !paused &&
	    !st->drops && !st->hdrm_drops && !st->no_route)
		return;
	ibfs__results_csv_id(o, r->sc->topo->nodes[n].id, 0);
	fprintf(o, "%d,%d,%llu,%llu,%llu,%llu,%llu,%llu,%llu\n", p, prio,
		(unsigned long long)pp->st.tx_frames[prio],
		(unsigned long long)pp->st.tx_xoff[prio],
		(unsigned long long)pp->st.rx_frames[prio],
		(unsigned long long)paused, (unsigned long long)st->drops,
		(unsigned long long)st->hdrm_drops,
		(unsigned long long)st->no_route);
}

void ibfs__results_csv_pfc(const struct ibfs_results *r, FILE *o)
{
	const struct ibfs_topology *t = r->sc->topo;

	fputs("node,port,priority,pause_frames_sent,xoff_sent,"
	      "pause_frames_received,paused_ps,tail_drops,headroom_drops,"
	      "no_route\n",
	      o);
	for (size_t n = 0; n < t->nnodes; n++)
		for (int p = 1; p <= t->nodes[n].nports; p++)
			for (int prio = 0; ibfs__pfc_of(&r->fab->ports[n][p]) &&
					   prio < IBFS_ETH_PRIOS;
			     prio++)
				csv_pfc_row(r, o, n, p, prio);
}

/*
 * ports.csv under roce: per priority, the pause frames the port sent and
 * received and the time its transmitter was paused (pfc.csv's figures
 * of the port, every priority, 0 on a port without PFC).
 */
void ibfs__results_csv_port_pfc_head(FILE *o)
{
	static const char *const col[] = {"pause_frames_sent",
					  "pause_frames_received", "paused_ps"};

	for (size_t k = 0; k < sizeof(col) / sizeof(col[0]); k++)
		for (int prio = 0; prio < IBFS_ETH_PRIOS; prio++)
			fprintf(o, ",%s_p%d", col[k], prio);
}

void ibfs__results_csv_port_pfc(const struct ibfs_results *r, FILE *o,
				size_t node, int port)
{
	const struct ibfs_port *pt = &r->fab->ports[node][port];
	const struct ibfs_pfc_port *pp = ibfs__pfc_of(pt);

	for (int prio = 0; prio < IBFS_ETH_PRIOS; prio++)
		fprintf(o, ",%llu",
			pp ? (unsigned long long)pp->st.tx_frames[prio] : 0ULL);
	for (int prio = 0; prio < IBFS_ETH_PRIOS; prio++)
		fprintf(o, ",%llu",
			pp ? (unsigned long long)pp->st.rx_frames[prio] : 0ULL);
	for (int prio = 0; prio < IBFS_ETH_PRIOS; prio++) {
		ibfs_time_t t = pp ? ibfs__pfc_paused_time(pt, prio) : 0;

		fprintf(o, ",%llu", (unsigned long long)t);
	}
}
