/* SPDX-License-Identifier: MIT */
/*
 * The Ethernet switches' ECN marks (switch/eth_ecn.h) in the results:
 * the frames each egress port turned CE, per priority in ecn.csv, per
 * port in ports.csv's ecn_marks column, in total in the JSON's ecn.marked
 * (under roce, 0 without <ecn>) and on a line of the text summary with
 * the settings (when the scenario has <ecn>). Under ib the <ecn> is not
 * used, and the text summary says so.
 */
#include <stdio.h>

#include "scenario/results_int.h"
#include "switch/eth_ecn.h"

static const struct ibfs_eth_switch *ecn_sw(const struct ibfs_results *r,
					     size_t node)
{
	return ibfs__eth_switch_of(
		((struct ibfs_fabric *)(uintptr_t)r->fab)->devices[node]);
}

uint64_t ibfs__results_ecn_marks(const struct ibfs_results *r, int node,
				 int port)
{
	const struct ibfs_eth_switch *sw = ecn_sw(r, (size_t)node);
	uint64_t n = 0;

	for (int c = 0; sw && c < IBFS_ETH_PRIOS; c++)
		n += ibfs__eth_switch_ecn_marks(sw, port, c);
	return n;
}

static uint64_t ecn_total(const struct ibfs_results *r)
{
	const struct ibfs_topology *t = r->sc->topo;
	uint64_t n = 0;

	for (size_t i = 0; i < t->nnodes; i++)
		for (int p = 1; p <= t->nodes[i].nports; p++)
			n += ibfs__results_ecn_marks(r, (int)i, p);
	return n;
}

void ibfs__results_print_ecn(const struct ibfs_results *r, FILE *out)
{
	const struct ibfs_sc_ecn *e = &r->sc->eth.ecn;

	if (!e->line)
		return;
	if (r->sc->model == IBFS_MODEL_IB) {
		fprintf(out, "ignored under ib (Ethernet only): <ecn> at line "
			"%ld\n", e->line);
		return;
	}
	fprintf(out,
		"ecn: %llu frames marked CE (kmin %llu B, kmax %llu B, pmax "
		"%g, at %s)\n",
		(unsigned long long)ecn_total(r), (unsigned long long)e->kmin,
		(unsigned long long)e->kmax, e->pmax,
		e->enqueue ? "enqueue" : "dequeue");
}

void ibfs__results_json_ecn(const struct ibfs_results *r, FILE *o)
{
	if (r->sc->model == IBFS_MODEL_IB)
		return;
	fprintf(o, "  \"ecn\": {\"marked\": %llu},\n",
		(unsigned long long)ecn_total(r));
}

void ibfs__results_csv_ecn(const struct ibfs_results *r, FILE *o)
{
	const struct ibfs_topology *t = r->sc->topo;

	fputs("node,port,priority,ecn_marks\n", o);
	for (size_t n = 0; n < t->nnodes; n++) {
		const struct ibfs_eth_switch *sw = ecn_sw(r, n);

		for (int p = 1; sw && p <= t->nodes[n].nports; p++)
			for (int c = 0; c < IBFS_ETH_PRIOS; c++) {
				uint64_t k =
					ibfs__eth_switch_ecn_marks(sw, p, c);

				if (!k)
					continue;
				ibfs__results_csv_id(o, t->nodes[n].id, 0);
				fprintf(o, "%d,%d,%llu\n", p, c,
					(unsigned long long)k);
			}
	}
}
