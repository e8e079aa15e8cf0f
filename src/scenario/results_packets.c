/* SPDX-License-Identifier: MIT */
/*
 * The packets of a run in the results (docs/results.md): how many the
 * end nodes and agents injected, how many the fabric dropped, by cause
 * (enum ibfs_drop_cause, fabric/fabric.h: every drop has one, and the
 * causes sum to the total), and how many RC request packets were sent
 * again, summed over the HCAs (struct ibfs_hca_stats' retransmitted:
 * go-back-N's rewinds, IBA 9.7.5.1.3 and 9.7.6.1.3, and IRN's selective
 * retransmissions), or under tcp the segments the hosts' TCP connections
 * sent again. The text summary's `packets:` line, the JSON's
 * "packets" object and packets.csv say the same.
 */
#include "scenario/results_int.h"

#include "hca/hca.h"

uint64_t ibfs__results_retransmitted(const struct ibfs_results *r)
{
	struct ibfs_fabric *f = (struct ibfs_fabric *)(uintptr_t)r->fab;
	uint64_t n = r->tcp_retransmits;

	for (size_t i = 0; i < r->sc->topo->nnodes; i++) {
		const struct ibfs_hca *h = ibfs__hca_of_node(f, (int)i);

		if (h)
			n += ibfs__hca_stats(h)->retransmitted;
	}
	return n;
}

void ibfs__results_print_packets(const struct ibfs_results *r, FILE *out)
{
	const struct ibfs_fabric *f = r->fab;
	const char *sep = " (";

	fprintf(out, "packets: %llu sent, %llu dropped",
		(unsigned long long)f->pkts_injected,
		(unsigned long long)f->pkts_dropped);
	for (int c = 0; c < IBFS_DROP_CAUSES; c++) {
		if (!f->drops[c])
			continue;
		fprintf(out, "%s%llu %s", sep, (unsigned long long)f->drops[c],
			ibfs__drop_cause_str((enum ibfs_drop_cause)c));
		sep = ", ";
	}
	fprintf(out, "%s, %llu retransmitted\n", f->pkts_dropped ? ")" : "",
		(unsigned long long)ibfs__results_retransmitted(r));
}

void ibfs__results_json_packets(const struct ibfs_results *r, FILE *o)
{
	const struct ibfs_fabric *f = r->fab;

	fprintf(o,
		"  \"packets\": {\"sent\": %llu, \"dropped\": %llu, "
		"\"retransmitted\": %llu, \"dropped_by_cause\": {",
		(unsigned long long)f->pkts_injected,
		(unsigned long long)f->pkts_dropped,
		(unsigned long long)ibfs__results_retransmitted(r));
	for (int c = 0; c < IBFS_DROP_CAUSES; c++)
		fprintf(o, "%s\"%s\": %llu", c ? ", " : "",
			ibfs__drop_cause_str((enum ibfs_drop_cause)c),
			(unsigned long long)f->drops[c]);
	fputs("}},\n", o);
}

void ibfs__results_csv_packets(const struct ibfs_results *r, FILE *o)
{
	const struct ibfs_fabric *f = r->fab;

	fputs("sent,dropped,retransmitted", o);
	for (int c = 0; c < IBFS_DROP_CAUSES; c++)
		fprintf(o, ",dropped_%s",
			ibfs__drop_cause_str((enum ibfs_drop_cause)c));
	fprintf(o, "\n%llu,%llu,%llu", (unsigned long long)f->pkts_injected,
		(unsigned long long)f->pkts_dropped,
		(unsigned long long)ibfs__results_retransmitted(r));
	for (int c = 0; c < IBFS_DROP_CAUSES; c++)
		fprintf(o, ",%llu", (unsigned long long)f->drops[c]);
	fputc('\n', o);
}
