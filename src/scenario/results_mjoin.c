/* SPDX-License-Identifier: MIT */
/*
 * Results of multicast joins and leaves at run time (mcast_joins.c), per
 * group: each one's HCA and port, JoinState, the time it was asked (from
 * when the fabric was up), how long its response took to come back
 * (`response_ns`, with the SA's status and the MLID it gave) and how long
 * until every MFT block the SM sent for the changes so far was
 * acknowledged (`mft_ns`; null when the SA made no change), and for a
 * full member's join the copies delivered to it between its join and its
 * next leave. Times in ns, as the messages'.
 */
#include <stdlib.h>

#include "scenario/results_int.h"

/* The end of join i's membership: its next leave's time, or never. */
static ibfs_time_t mj_until(const struct ibfs_results *r, size_t i)
{
	const struct ibfs_mc_join_rec *j = &r->mc_joins[i];
	ibfs_time_t end = IBFS_TIME_NEVER;

	for (size_t k = 0; k < r->nmc_joins; k++) {
		const struct ibfs_mc_join_rec *l = &r->mc_joins[k];

		if (l->leave && l->node == j->node && l->group == j->group &&
		    l->at > j->at && l->at < end)
			end = l->at;
	}
	return end;
}

/* Copies delivered to join i's member while it was one. */
static uint64_t mj_copies(const struct ibfs_results *r, size_t i)
{
	const struct ibfs_mc_join_rec *j = &r->mc_joins[i];
	ibfs_time_t end = mj_until(r, i);
	uint64_t n = 0;

	for (size_t k = 0; j->resp && !j->leave && k < r->nmc_dels; k++) {
		const struct ibfs_mc_delivery *d = &r->mc_dels[k];

		n += d->group == j->group && d->node == j->node && !d->status &&
		     d->at >= j->resp && d->at < end;
	}
	return n;
}

/* Time t from `from`, in ns. */
static double mj_ns(ibfs_time_t t, ibfs_time_t from)
{
	return res_ns(t - from);
}

static const char *mj_state(uint8_t st)
{
	return st & 1 ? "full" : "sendonly";
}

void ibfs__results_print_mjoins(const struct ibfs_results *r, int g,
				 FILE *out)
{
	for (size_t i = 0; i < r->nmc_joins; i++) {
		const struct ibfs_mc_join_rec *j = &r->mc_joins[i];

		if (j->group != g)
			continue;
		fprintf(out, "  %s %s (%s) at %.3f ns: ",
			j->leave ? "leave" : "join",
			res_id(r, j->node), mj_state(j->state),
			mj_ns(j->at, r->base));
		if (!j->answered) {
			fputs("no response\n", out);
			continue;
		}
		fprintf(out, "response %.3f ns (status 0x%04x, MLID 0x%04x)",
			mj_ns(j->resp, j->at), j->status, j->mlid);
		if (j->mft)
			fprintf(out, ", MFTs %.3f ns", mj_ns(j->mft, j->at));
		if (!j->leave && (j->state & 1))
			fprintf(out, ", %llu copies",
				(unsigned long long)mj_copies(r, i));
		fputc('\n', out);
	}
}

void ibfs__results_json_mjoins(const struct ibfs_results *r, int g, FILE *o)
{
	int first = 1;

	fputs(",\n     \"joins\": [", o);
	for (size_t i = 0; i < r->nmc_joins; i++) {
		const struct ibfs_mc_join_rec *j = &r->mc_joins[i];

		if (j->group != g)
			continue;
		fprintf(o, "%s\n       {\"op\": \"%s\", \"hca\": ",
			first ? "" : ",", j->leave ? "leave" : "join");
		ibfs__results_json_str(o, res_id(r, j->node));
		fprintf(o, ", \"port\": %d, \"state\": \"%s\", \"at_ns\": %.3f",
			j->port, mj_state(j->state), mj_ns(j->at, r->base));
		if (j->answered)
			fprintf(o, ", \"status\": %u, \"mlid\": %u, "
				   "\"response_ns\": %.3f",
				j->status, j->mlid, mj_ns(j->resp, j->at));
		else
			fputs(", \"status\": null, \"mlid\": null, "
			      "\"response_ns\": null", o);
		if (j->mft)
			fprintf(o, ", \"mft_ns\": %.3f", mj_ns(j->mft, j->at));
		else
			fputs(", \"mft_ns\": null", o);
		if (!j->leave && (j->state & 1))
			fprintf(o, ", \"delivered\": %llu",
				(unsigned long long)mj_copies(r, i));
		fputc('}', o);
		first = 0;
	}
	fputs(first ? "]" : "\n     ]", o);
}
