/* SPDX-License-Identifier: MIT */
/*
 * An HCA's management QPs (mgmt.c): QP0, whose SMPs travel on VL15 to and
 * from the subnet management agent or the SM, and QP1, the GSI, whose GMPs
 * travel on a data VL to and from class agents (the SA). Layers above the
 * HCA (the subnet manager, the SA client) attach to them here; the HCA's
 * transmitter sends what they queue ahead of its data QPs.
 */
#ifndef IBFS_HCA_MGMT_H
#define IBFS_HCA_MGMT_H

#include "hca/hca.h"

struct ibfs_hca;
struct ibfs_packet;

struct ibfs_hca_mgmt;
typedef void (*ibfs_hca_mgmt_rx_fn)(void *ctx, struct ibfs_hca *h, int port,
				    struct ibfs_packet *p);
/* Attaches (or replaces) the receiver. Returns 0 or -1 (out of memory). */
int ibfs__hca_mgmt_attach(struct ibfs_hca *h, ibfs_hca_mgmt_rx_fn rx,
			  void *ctx);
/* Detaches it (what QP1 has stays; the last detach frees the queues). */
void ibfs__hca_mgmt_detach(struct ibfs_hca *h);
/*
 * Sends p, framed by the caller (LRH fields, VL15, wire size), out of
 * `port`: now if its transmitter is idle, else ahead of data packets once
 * it is. The HCA owns p. Returns 0, or -1 (bad port, nothing attached).
 */
int ibfs__hca_mgmt_send(struct ibfs_hca *h, int port, struct ibfs_packet *p);
/*
 * QP1, the GSI (IBA 13.5.1): a class agent attached as IBFS_GSI_SERVER
 * receives the GMPs that are requests (the SA on the SM's port), one
 * attached as IBFS_GSI_CLIENT the responses; each owns and frees what it
 * receives. ibfs__hca_gsi_send sends a GMP framed by the caller (sa_mad.h)
 * on its data VL, ahead of data packets. 0, or -1 (bad role or port, out
 * of memory).
 */
enum { IBFS_GSI_SERVER = 0, IBFS_GSI_CLIENT = 1 };
int ibfs__hca_gsi_attach(struct ibfs_hca *h, int role, ibfs_hca_mgmt_rx_fn fn,
			 void *ctx);
void ibfs__hca_gsi_detach(struct ibfs_hca *h, int role);
int ibfs__hca_gsi_send(struct ibfs_hca *h, int port, struct ibfs_packet *p);

#endif
