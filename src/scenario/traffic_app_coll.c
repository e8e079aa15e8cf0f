/* SPDX-License-Identifier: MIT */
/*
 * The collective side of a scenario's application programs (the rest is
 * traffic_app.c): each HCA's collective posters, one for each stream its
 * collectives post in, post each message once what it waits for has
 * arrived at the HCA (the receiver sees it by the immediate data, which
 * names the record) or completed there, as the completer announces out
 * of band, and once the HCA has reduced what arrived at a reduce-rate.
 */
#include <stdio.h>
#include <stdlib.h>

#include <ibfsim/sim.h>

#include "scenario/traffic_int.h"

/* Announces what others wait for of record rec: "arr" its arrival at
 * its destination, "cmp" its completion at its source. */
void ibfs__tr_announce(const char *what, size_t rec)
{
	char key[64];
	snprintf(key, sizeof(key), "ibfsim/%s/%zu", what, rec);
	ibfs_oob_put(key, "", 1);
}

static void await(const char *what, size_t rec)
{
	char key[64], one;
	if (rec == TR_NONE)
		return;
	snprintf(key, sizeof(key), "ibfsim/%s/%zu", what, rec);
	ibfs_oob_get(key, &one, 1);
}

/* A receive with immediate data: a collective's message has arrived. */
void ibfs__tr_arrived(struct ibfs_traffic *t, const struct ibfs_wc *wc,
		      ibfs_time_ps now)
{
	size_t rec = wc->imm_data;
	if (!(wc->wc_flags & IBFS_WC_WITH_IMM) || rec >= t->nrecs ||
	    !t->msgs[t->rec_msg[rec]].coll || wc->status != IBFS_WC_SUCCESS)
		return;
	t->recs[rec].arrived = now;
	if (t->sig[rec] & TR_SIG_ARRIVAL)
		ibfs__tr_announce("arr", rec);
}

/* An actor's node (argv[1]), once its poster has set up its queues. */
struct tr_node *ibfs__tr_node_ready(struct ibfs_traffic *t, char **argv)
{
	char key[64], one;
	snprintf(key, sizeof(key), "ibfsim/ready/%s", argv[1]);
	ibfs_oob_get(key, &one, 1);
	return &t->nodes[atoi(argv[1])];
}

/* When record rec's arrival (or completion, cmp) was announced. */
static ibfs_time_ps waited(struct ibfs_traffic *t, size_t rec, int cmp)
{
	await(cmp ? "cmp" : "arr", rec);
	return cmp ? t->recs[rec].done : t->recs[rec].arrived;
}

/* Posts the node's collective messages of stream argv[2], in order. */
static void coll_poster(int argc, char **argv)
{
	struct ibfs_traffic *t = ibfs__tr_running();
	struct tr_node *n = ibfs__tr_node_ready(t, argv);
	const struct tr_cstream *cs = &n->cs[atoi(argv[2])];
	char key[64], one;
	for (size_t i = 0; i < cs->n; i++) {
		snprintf(key, sizeof(key), "ibfsim/rx/%d",
			 t->recs[t->msgs[cs->posts[i]].first].dst);
		ibfs_oob_get(key, &one, 1);
	}
	ibfs_time_ps last = 0;
	for (size_t i = 0; i < cs->n; i++) {
		const struct tr_msg *m = &t->msgs[cs->posts[i]];
		size_t rec = m->first;
		await("arr", m->dep_arr);
		await("arr", m->dep_arr2);
		await("cmp", m->dep_cmp);
		ibfs_time_ps at = t->base + t->planned[rec];
		/* The member reduces what dep_arr brought before it sends:
		 * its arrival time was set before it was announced. */
		if (m->reduce && t->recs[m->dep_arr].arrived + m->reduce > at)
			at = t->recs[m->dep_arr].arrived + m->reduce;
		/* A chain: each receive, then its reduction, in turn. */
		if (m->red_serial && last > at)
			at = last;
		for (uint32_t k = 0; k < m->red_n; k++) {
			const struct tr_red *r = &t->coll_red[m->red_first + k];
			ibfs_time_ps w = waited(t, r->rec, r->cmp);
			at = (w > at ? w : at) + r->ps;
		}
		ibfs_time_ps now = ibfs_now();
		if (at > now)
			ibfs_sleep(at - now);
		last = ibfs_now();
		if (ibfs__tr_post_one(t, n, m, rec))
			return;
	}
}

/* Node i's collective posters: one for each stream it posts in. */
int ibfs__tr_coll_spawn(struct ibfs_traffic *t, struct ibfs_bridge *b, size_t i,
			struct ibfs_diag *d)
{
	const char *id = t->sc->topo->nodes[i].id;
	for (int s = 0; s < TR_STREAMS; s++) {
		if (!t->nodes[i].cs[s].n)
			continue;
		char idx[24], str[8], name[300];
		snprintf(idx, sizeof(idx), "%zu", i);
		snprintf(str, sizeof(str), "%d", s);
		char *argv[] = {name, idx, str, NULL};
		if (s)
			snprintf(name, sizeof(name), "coll%d-%s", s, id);
		else
			snprintf(name, sizeof(name), "coll-%s", id);
		if (ibfs__bridge_spawn(b, id, name, coll_poster, 3, argv) < 0)
			return ibfs__diag(d, t->sc->file, 0,
					  "cannot start traffic on %s", id);
	}
	return 0;
}

size_t ibfs__traffic_host_actors(const struct ibfs_traffic *t)
{
	size_t most = 3;
	for (size_t i = 0; i < t->sc->topo->nnodes; i++) {
		size_t k = 2;
		for (int s = 0; s < TR_STREAMS; s++)
			k += t->nodes[i].cs[s].n > 0;
		if (k > most)
			most = k;
	}
	return most;
}
