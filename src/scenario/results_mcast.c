/* SPDX-License-Identifier: MIT */
/*
 * Multicast results: for each group its MGID and MLID, its sends (UD
 * SENDs posted to it, and how many failed or never completed at their
 * sender) and, for each full member, the copies delivered to it against
 * those it should have had (every send from another port), with their
 * latency from the send's post to the copy's receive completion, in the
 * units of the messages' (ns, nearest-rank percentiles). Nothing is
 * written for a scenario without groups, so other results keep their
 * form.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/results_int.h"

/* One member's figures for group g. */
struct mc_member_stats {
	uint64_t expected, delivered, failed;
	struct ibfs_latency lat;
};

/* The port member m of group g sends from, 0 if it sends nothing. */
static int mc_sends_from(const struct ibfs_results *r, int g, int node)
{
	const struct ibfs_mcast_group *gr = &r->sc->groups[g];

	for (int k = 0; k < gr->nmembers; k++)
		if (gr->members[k].node == node && gr->members[k].send_only)
			return gr->members[k].port;
	for (size_t i = 0; i < r->sc->nmcasts; i++)
		if (r->sc->mcasts[i].group == g && r->sc->mcasts[i].src == node)
			for (int p = 1; p <= r->sc->topo->nodes[node].nports;
			     p++)
				if (r->sc->topo->nodes[node].ports[p]
					    .peer_node >= 0)
					return p;
	return 0;
}

static void mc_member(const struct ibfs_results *r, int g,
		      const struct ibfs_mcast_member *m,
		      struct mc_member_stats *st)
{
	ibfs_time_t *v = malloc((r->nmc_dels ? r->nmc_dels : 1) * sizeof(*v));
	size_t n = 0;
	double sum = 0;

	memset(st, 0, sizeof(*st));
	for (size_t i = 0; i < r->nmc_sends; i++)
		st->expected += r->mc_sends[i].group == g &&
				!(r->mc_sends[i].src == m->node &&
				  mc_sends_from(r, g, m->node) == m->port);
	for (size_t i = 0; v && i < r->nmc_dels; i++) {
		const struct ibfs_mc_delivery *d = &r->mc_dels[i];

		if (d->group != g || d->node != m->node)
			continue;
		if (d->status) {
			st->failed++;
			continue;
		}
		st->delivered++;
		v[n] = d->at - r->mc_sends[d->send].post;
		sum += (double)v[n++];
	}
	if (v)
		ibfs__latency_fill(&st->lat, v, n, sum);
	free(v);
}

/* Sends to group g: all, failed at the sender, never completed. */
static void mc_sends(const struct ibfs_results *r, int g, uint64_t c[3])
{
	c[0] = c[1] = c[2] = 0;
	for (size_t i = 0; i < r->nmc_sends; i++) {
		if (r->mc_sends[i].group != g)
			continue;
		c[0]++;
		c[1] += r->mc_sends[i].status > 0;
		c[2] += r->mc_sends[i].status < 0;
	}
}

void ibfs__results_print_mcast(const struct ibfs_results *r, FILE *out)
{
	for (size_t g = 0; g < r->sc->ngroups; g++) {
		const struct ibfs_mcast_group *gr = &r->sc->groups[g];
		uint64_t c[3];

		mc_sends(r, (int)g, c);
		fprintf(out, "multicast %s (MLID 0x%04x): %llu sends",
			gr->id, gr->mlid, (unsigned long long)c[0]);
		if (c[1] || c[2])
			fprintf(out, " (%llu failed, %llu not finished)",
				(unsigned long long)c[1],
				(unsigned long long)c[2]);
		fputc('\n', out);
		for (int k = 0; k < gr->nmembers; k++) {
			struct mc_member_stats st;

			if (gr->members[k].send_only)
				continue;
			mc_member(r, (int)g, &gr->members[k], &st);
			fprintf(out, "  %s: %llu of %llu delivered",
				res_id(r, gr->members[k].node),
				(unsigned long long)st.delivered,
				(unsigned long long)st.expected);
			if (st.lat.count)
				fprintf(out, ", latency (ns) min %.3f  p50 "
					"%.3f  max %.3f",
					res_ns(st.lat.min), res_ns(st.lat.p50),
					res_ns(st.lat.max));
			fputc('\n', out);
		}
		ibfs__results_print_mjoins(r, (int)g, out);
	}
}

static void json_group(const struct ibfs_results *r, int g, FILE *o)
{
	const struct ibfs_mcast_group *gr = &r->sc->groups[g];
	char mgid[INET6_ADDRSTRLEN] = "";
	uint64_t c[3];
	int first = 1;

	inet_ntop(AF_INET6, gr->mgid, mgid, sizeof(mgid));
	mc_sends(r, g, c);
	fputs("    {\"group\": ", o);
	ibfs__results_json_str(o, gr->id);
	fprintf(o,
		", \"mgid\": \"%s\", \"mlid\": %u, \"sends\": %llu, "
		"\"sends_failed\": %llu, \"sends_incomplete\": %llu,\n"
		"     \"members\": [",
		mgid, gr->mlid, (unsigned long long)c[0],
		(unsigned long long)c[1], (unsigned long long)c[2]);
	for (int k = 0; k < gr->nmembers; k++) {
		const struct ibfs_mcast_member *m = &gr->members[k];
		struct mc_member_stats st;

		if (m->send_only)
			continue;
		mc_member(r, g, m, &st);
		fprintf(o, "%s\n       {\"hca\": ", first ? "" : ",");
		ibfs__results_json_str(o, res_id(r, m->node));
		fprintf(o,
			", \"port\": %d, \"expected\": %llu, \"delivered\": "
			"%llu, \"failed\": %llu, \"latency_ns\": ",
			m->port, (unsigned long long)st.expected,
			(unsigned long long)st.delivered,
			(unsigned long long)st.failed);
		ibfs__results_json_latency(o, &st.lat);
		fputc('}', o);
		first = 0;
	}
	fputs(first ? "]" : "\n     ]", o);
	ibfs__results_json_mjoins(r, g, o);
	fputc('}', o);
}

void ibfs__results_json_mcast(const struct ibfs_results *r, FILE *o)
{
	if (!r->sc->ngroups)
		return;
	fputs("  \"multicast\": [\n", o);
	for (size_t g = 0; g < r->sc->ngroups; g++) {
		json_group(r, (int)g, o);
		fputs(g + 1 < r->sc->ngroups ? ",\n" : "\n", o);
	}
	fputs("  ],\n", o);
}
