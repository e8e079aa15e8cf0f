/* SPDX-License-Identifier: MIT */
/*
 * The SA client of an HCA (sa_client.h). A request leaves at once (no
 * processing time at the client: the HCA's profile times data QPs, not
 * the MAD layer) on SL 0, the VL the port's SLtoVLMappingTable gives SL 0,
 * with the default P_Key 0xFFFF; the SA answers on the SL it was asked
 * on. Not modelled: the client's timeouts and retries (a lost request or
 * response is never answered), RMPP reassembly, redirection
 * (ClassPortInfo), and a P_Key other than the default.
 */
#include <stdlib.h>
#include <string.h>

#include "hca/hca_int.h"
#include "hca/mgmt.h"
#include "hca/sa_client.h"

struct sa_pending {
	uint64_t tid;
	ibfs_sa_done_fn fn;
	void *ctx;
};

struct ibfs_sa_client {
	struct ibfs_hca *h;
	uint64_t next_tid;
	struct sa_pending *p;
	size_t np, cap;
	uint64_t sent, answered;
};

static void sa_client_rx(void *ctx, struct ibfs_hca *h, int port,
			 struct ibfs_packet *p)
{
	struct ibfs_sa_client *c = ctx;
	struct ibfs_sa_mad m;
	int ok = ibfs__sa_mad_decode(p->payload, &m) == 0;

	(void)port;
	ibfs__packet_free(h->dev.fab, p);
	for (size_t i = 0; ok && i < c->np; i++) {
		if (c->p[i].tid != m.tid)
			continue;
		struct sa_pending x = c->p[i];

		c->p[i] = c->p[--c->np];
		c->answered++;
		x.fn(x.ctx, &m);
		return;
	}
}

struct ibfs_sa_client *ibfs__sa_client_new(struct ibfs_hca *h)
{
	struct ibfs_sa_client *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->h = h;
	c->next_tid = 1;
	if (ibfs__hca_gsi_attach(h, IBFS_GSI_CLIENT, sa_client_rx, c) < 0) {
		free(c);
		return NULL;
	}
	return c;
}

void ibfs__sa_client_free(struct ibfs_sa_client *c)
{
	if (!c)
		return;
	ibfs__hca_gsi_detach(c->h, IBFS_GSI_CLIENT);
	free(c->p);
	free(c);
}

static int sa_client_pend(struct ibfs_sa_client *c, uint64_t tid,
			  ibfs_sa_done_fn fn, void *ctx)
{
	if (c->np == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 8;
		struct sa_pending *v = realloc(c->p, cap * sizeof(*v));

		if (!v)
			return -1;
		c->p = v;
		c->cap = cap;
	}
	c->p[c->np++] = (struct sa_pending){ tid, fn, ctx };
	return 0;
}

int ibfs__sa_client_send(struct ibfs_sa_client *c, int port,
			 struct ibfs_sa_mad *req, ibfs_sa_done_fn fn,
			 void *ctx)
{
	if (port < 1 || port > c->h->dev.nports)
		return -1;
	struct ibfs_hca_port *hp = &c->h->hp[port];

	if (!hp->lid || !hp->sm_lid)
		return -1;
	req->tid = c->next_tid++;
	struct ibfs_packet *p = ibfs__sa_packet(c->h->dev.fab, req, hp->sm_lid,
						hp->lid, 0, hp->sl2vl[0],
						0xffff);

	if (!p || sa_client_pend(c, req->tid, fn, ctx) < 0) {
		if (p)
			ibfs__packet_free(c->h->dev.fab, p);
		return -1;
	}
	if (ibfs__hca_gsi_send(c->h, port, p) < 0) {
		c->np--;
		return -1;
	}
	c->sent++;
	return 0;
}

void ibfs__sa_client_counts(const struct ibfs_sa_client *c, uint64_t *sent,
			    uint64_t *answered)
{
	*sent = c->sent;
	*answered = c->answered;
}
