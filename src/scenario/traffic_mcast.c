/* SPDX-License-Identifier: MIT */
/*
 * A scenario's multicast traffic, planned: each <multicast> becomes
 * `count` send records (one UD SEND each, posted at start + k x interval
 * as a message's), grouped by sender and group in the order the sender
 * posts them; each full member of a group (not SendOnly) gets one UD QP
 * attached to it and as many receives as the group's other senders send
 * (a port gets no copy of its own packet: a switch never sends one back
 * out of the port it came in on). At run time (traffic_app.c) a copy
 * arriving at a member is matched to its send by its immediate data with
 * op="send-imm" (the send's record), else by its source LID and its rank
 * among that sender's copies, which arrive in the order they were sent
 * (one path through the tree): exact while no copy to that member is
 * lost; after a loss (a link down) the later copies' latencies at that
 * member are overstated, which send-imm avoids for 4 bytes a packet. A
 * copy's latency runs from its send's post to its receive completion.
 */
#include <stdlib.h>
#include <string.h>

#include "hca/hca.h"
#include "hca/sa_mad.h"
#include "scenario/traffic_int.h"

/* The sender entry of (group, node), made when first asked for. */
static long mc_src(struct ibfs_traffic *t, int group, int node)
{
	for (size_t i = 0; i < t->nmc_srcs; i++)
		if (t->mc_srcs[i].group == group && t->mc_srcs[i].node == node)
			return (long)i;
	struct tr_mc_src *v =
		realloc(t->mc_srcs, (t->nmc_srcs + 1) * sizeof(*v));

	if (!v)
		return -1;
	t->mc_srcs = v;
	v[t->nmc_srcs] = (struct tr_mc_src){ .group = group, .node = node };
	return (long)t->nmc_srcs++;
}

static int mc_msgs(struct ibfs_traffic *t)
{
	const struct ibfs_scenario *sc = t->sc;

	t->mc_msgs = calloc(sc->nmcasts ? sc->nmcasts : 1,
			    sizeof(*t->mc_msgs));
	if (!t->mc_msgs)
		return -1;
	for (size_t i = 0; i < sc->nmcasts; i++) {
		const struct ibfs_sc_mcast *m = &sc->mcasts[i];
		long src = mc_src(t, m->group, m->src);
		ibfs_time_t gap = 0;

		if (src < 0)
			return -1;
		if (m->rate) {
			unsigned __int128 bits = (unsigned __int128)m->size * 8;

			gap = (ibfs_time_t)((bits * IBFS_S + m->rate - 1) /
					    m->rate);
		}
		t->mc_msgs[t->nmc_msgs++] = (struct tr_mc_msg){
			.group = m->group, .src = (size_t)src, .op = m->op,
			.sl = m->sl, .size = m->size, .count = m->count,
			.start = m->start, .interval = gap,
			.first = t->nmc_recs,
		};
		t->nmc_recs += m->count;
		struct tr_node *n = &t->nodes[m->src];
		uint64_t need = m->size < 8 ? 8 : m->size;

		n->mc = n->uses_ud = 1;
		n->expected += m->count;
		if (need > n->bufsize)
			n->bufsize = need;
	}
	return 0;
}

/* Records in the order their sender posts them (by time, then index). */
static const ibfs_time_t *g_mc_planned;

static int mc_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (g_mc_planned[x] != g_mc_planned[y])
		return g_mc_planned[x] < g_mc_planned[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int mc_records(struct ibfs_traffic *t)
{
	size_t nr = t->nmc_recs ? t->nmc_recs : 1;

	t->mc_recs = calloc(nr, sizeof(*t->mc_recs));
	t->mc_planned = calloc(nr, sizeof(*t->mc_planned));
	t->mc_rec_msg = calloc(nr, sizeof(*t->mc_rec_msg));
	if (!t->mc_recs || !t->mc_planned || !t->mc_rec_msg)
		return -1;
	for (size_t i = 0; i < t->nmc_msgs; i++) {
		const struct tr_mc_msg *m = &t->mc_msgs[i];
		struct tr_mc_src *s = &t->mc_srcs[m->src];

		for (uint32_t k = 0; k < m->count; k++) {
			size_t r = m->first + k;

			t->mc_rec_msg[r] = i;
			t->mc_planned[r] = m->start + k * m->interval;
			t->mc_recs[r] = (struct ibfs_mc_send_rec){
				.group = m->group, .src = s->node,
				.bytes = m->size, .status = -1,
			};
		}
		s->nrecs += m->count;
		t->nodes[s->node].nmc_posts += m->count;
	}
	g_mc_planned = t->mc_planned;
	for (size_t i = 0; i < t->nmc_srcs; i++) {
		struct tr_mc_src *s = &t->mc_srcs[i];

		s->recs = malloc(s->nrecs * sizeof(*s->recs));
		if (!s->recs)
			return -1;
		s->nrecs = 0;
	}
	for (size_t n = 0; n < t->sc->topo->nnodes; n++) {
		struct tr_node *node = &t->nodes[n];

		if (!node->nmc_posts)
			continue;
		node->mc_posts = malloc(node->nmc_posts *
					sizeof(*node->mc_posts));
		if (!node->mc_posts)
			return -1;
		node->nmc_posts = 0;
	}
	for (size_t r = 0; r < t->nmc_recs; r++) {
		struct tr_mc_src *s = &t->mc_srcs[t->mc_msgs[t->mc_rec_msg[r]]
							  .src];
		struct tr_node *node = &t->nodes[s->node];

		s->recs[s->nrecs++] = r;
		node->mc_posts[node->nmc_posts++] = r;
	}
	for (size_t i = 0; i < t->nmc_srcs; i++)
		qsort(t->mc_srcs[i].recs, t->mc_srcs[i].nrecs, sizeof(size_t),
		      mc_cmp);
	for (size_t n = 0; n < t->sc->topo->nnodes; n++)
		if (t->nodes[n].nmc_posts)
			qsort(t->nodes[n].mc_posts, t->nodes[n].nmc_posts,
			      sizeof(size_t), mc_cmp);
	return 0;
}

/* The port a sender sends from: its first linked one (as its traffic). */
static int mc_src_port(const struct ibfs_topology *topo, int node)
{
	for (int p = 1; p <= topo->nodes[node].nports; p++)
		if (topo->nodes[node].ports[p].peer_node >= 0)
			return p;
	return 0;
}

/* The receive side of (node, port) in group g, if it has copies to get. */
static int mc_add_member(struct ibfs_traffic *t, int g, int node, int port,
			 int dynamic)
{
	struct tr_mc_member m = { .group = g, .node = node, .port = port,
				  .dynamic = dynamic };
	uint64_t size = 0;

	for (size_t i = 0; i < t->nmc_members; i++)
		if (t->mc_members[i].group == g &&
		    t->mc_members[i].node == node &&
		    t->mc_members[i].port == port)
			return 0;
	for (size_t i = 0; i < t->nmc_msgs; i++) {
		const struct tr_mc_msg *mm = &t->mc_msgs[i];
		const struct tr_mc_src *s = &t->mc_srcs[mm->src];

		if (mm->group != g ||
		    (s->node == node &&
		     mc_src_port(t->sc->topo, s->node) == port))
			continue;
		m.recvs += mm->count;
		if (mm->size > size)
			size = mm->size;
	}
	if (!m.recvs)
		return 0;
	m.got = calloc(t->nmc_srcs, sizeof(*m.got));
	struct tr_mc_member *v =
		realloc(t->mc_members, (t->nmc_members + 1) * sizeof(*v));

	if (!m.got || !v) {
		free(m.got);
		return -1;
	}
	t->mc_members = v;
	v[t->nmc_members++] = m;
	struct tr_node *n = &t->nodes[node];

	n->mc = 1;
	/* A dynamic member's copies depend on when its join took effect:
	 * nobody waits for them (see struct tr_mc_member). */
	if (!dynamic)
		n->expected += m.recvs;
	if (size > n->bufsize)
		n->bufsize = size;
	return 0;
}

/* Each full member of a group with senders: its QP and receives. */
static int mc_members(struct ibfs_traffic *t)
{
	const struct ibfs_scenario *sc = t->sc;

	for (size_t g = 0; g < sc->ngroups; g++) {
		const struct ibfs_mcast_group *gr = &sc->groups[g];

		for (int k = 0; k < gr->nmembers; k++)
			if (!gr->members[k].send_only &&
			    mc_add_member(t, (int)g, gr->members[k].node,
					  gr->members[k].port, 0) < 0)
				return -1;
	}
	for (size_t i = 0; i < sc->nmjoins; i++) {
		const struct ibfs_sc_mjoin *j = &sc->mjoins[i];

		if (!j->leave && j->state == IBFS_JOIN_FULL &&
		    mc_add_member(t, j->group, j->node, j->port, 1) < 0)
			return -1;
	}
	return 0;
}

int ibfs__tr_mc_plan(struct ibfs_traffic *t)
{
	if (!t->sc->nmcasts)
		return 0;
	return mc_msgs(t) < 0 || mc_records(t) < 0 || mc_members(t) < 0 ? -1
									   : 0;
}

/* Appends a delivery of send record `send` to member m. */
static int mc_add_delivery(struct ibfs_traffic *t,
			   const struct tr_mc_member *m, size_t send,
			   int status, ibfs_time_t at)
{
	if (t->nmc_dels == t->mc_dels_cap) {
		size_t cap = t->mc_dels_cap ? 2 * t->mc_dels_cap : 64;
		void *v = realloc(t->mc_dels, cap * sizeof(*t->mc_dels));

		if (!v)
			return -1;
		t->mc_dels = v;
		t->mc_dels_cap = cap;
	}
	t->mc_dels[t->nmc_dels++] = (struct ibfs_mc_delivery){
		.group = m->group, .node = m->node, .send = send, .at = at,
		.status = status,
	};
	return 0;
}

int ibfs__tr_mc_delivered(struct ibfs_traffic *t, struct tr_mc_member *m,
			  uint16_t slid, const uint32_t *imm, int status,
			  ibfs_time_t at)
{
	/* send-imm: the immediate data names the send record. */
	if (imm && *imm < t->nmc_recs && t->mc_recs[*imm].group == m->group)
		return mc_add_delivery(t, m, *imm, status, at);
	for (size_t i = 0; i < t->nmc_srcs; i++) {
		struct tr_mc_src *s = &t->mc_srcs[i];
		const struct tr_node *n = &t->nodes[s->node];

		if (s->group != m->group || slid < n->lid ||
		    slid >= n->lid + (1u << n->lmc) ||
		    m->got[i] >= s->nrecs)
			continue;
		return mc_add_delivery(t, m, s->recs[m->got[i]++], status, at);
	}
	return 0;
}

static void *mc_dup(const void *p, size_t n, size_t size)
{
	void *v = malloc(n ? n * size : 1);

	if (v && n)
		memcpy(v, p, n * size);
	return v;
}

int ibfs__tr_mc_collect(const struct ibfs_traffic *t, struct ibfs_results *r)
{
	free(r->mc_sends);
	free(r->mc_dels);
	r->mc_sends = mc_dup(t->mc_recs, t->nmc_recs, sizeof(*t->mc_recs));
	r->mc_dels = mc_dup(t->mc_dels, t->nmc_dels, sizeof(*t->mc_dels));
	r->nmc_sends = t->nmc_recs;
	r->nmc_dels = t->nmc_dels;
	return r->mc_sends && r->mc_dels ? 0 : -1;
}

void ibfs__tr_mc_free(struct ibfs_traffic *t)
{
	for (size_t i = 0; i < t->nmc_srcs; i++)
		free(t->mc_srcs[i].recs);
	for (size_t i = 0; i < t->nmc_members; i++)
		free(t->mc_members[i].got);
	if (t->nodes && t->sc)
		for (size_t i = 0; i < t->sc->topo->nnodes; i++)
			free(t->nodes[i].mc_posts);
	free(t->mc_msgs);
	free(t->mc_srcs);
	free(t->mc_members);
	free(t->mc_recs);
	free(t->mc_planned);
	free(t->mc_rec_msg);
	free(t->mc_dels);
}

struct ibfs_qp *ibfs__traffic_mc_qp(const struct ibfs_traffic *t, int group,
				    int node)
{
	for (size_t i = 0; i < t->nmc_members; i++)
		if (t->mc_members[i].dynamic &&
		    t->mc_members[i].group == group &&
		    t->mc_members[i].node == node)
			return t->mc_members[i].qp;
	return NULL;
}

int ibfs__traffic_mc_drain(struct ibfs_traffic *t)
{
	struct ibfs_wc wc[16];
	ibfs_time_t vis[16];

	for (size_t i = 0; i < t->nmc_members; i++) {
		struct tr_mc_member *m = &t->mc_members[i];
		int n;

		while (m->cq && (n = ibfs__cq_take(m->cq, 16, wc, vis)) > 0)
			for (int k = 0; k < n; k++)
				if (ibfs__tr_mc_delivered(
					    t, m, wc[k].slid,
					    wc[k].wc_flags & IBFS_WC_WITH_IMM
						    ? &wc[k].imm_data
						    : NULL,
					    (int)wc[k].status, vis[k]) < 0)
					return -1;
	}
	return 0;
}
