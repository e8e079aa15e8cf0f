/* SPDX-License-Identifier: MIT */
/*
 * The SA client of an HCA (what libibumad and the kernel's ib_sa give an
 * application): it sends SA requests from QP1 of a port to QP1 at the
 * SM's LID, as the port's PortInfo MasterSMLID names it, and hands each
 * response, matched by its TransactionID, to the callback of its request.
 */
#ifndef IBFS_HCA_SA_CLIENT_H
#define IBFS_HCA_SA_CLIENT_H

#include "hca/hca.h"
#include "hca/sa_mad.h"

struct ibfs_sa_client;

/* A response to a request: its MAD status and the response, decoded. */
typedef void (*ibfs_sa_done_fn)(void *ctx, const struct ibfs_sa_mad *resp);

/* The client of HCA h (QP1's client side). NULL: out of memory. */
struct ibfs_sa_client *ibfs__sa_client_new(struct ibfs_hca *h);
/* Detaches it; requests without an answer are forgotten. */
void ibfs__sa_client_free(struct ibfs_sa_client *c);
/*
 * Sends req (its TID is the client's to set) out of `port` on SL 0, with
 * the default P_Key. Returns 0, or -1: the port has no LID or no SM LID
 * yet, or the pools or memory ran out.
 */
int ibfs__sa_client_send(struct ibfs_sa_client *c, int port,
			 struct ibfs_sa_mad *req, ibfs_sa_done_fn fn,
			 void *ctx);
/* Requests sent and responses received so far. */
void ibfs__sa_client_counts(const struct ibfs_sa_client *c, uint64_t *sent,
			    uint64_t *answered);

#endif
