/* SPDX-License-Identifier: MIT */
/*
 * Internals of the Subnet Administrator (sa.c) shared with the handlers
 * of its attributes: MCMemberRecord (sa_mcmember.c) and PathRecord
 * (sa_path.c).
 */
#ifndef IBFS_SM_SA_INT_H
#define IBFS_SM_SA_INT_H

#include "fabric/link_rate.h"
#include "hca/sa_mad.h"
#include "subnet_manager/sm_int.h"

/*
 * Time the SA takes to answer a request, from the arrival of its last
 * byte to the response leaving: 1 us, as an agent's SMP (sma.h). A guess
 * of the order of a software SA's handling of one MAD, not a measured
 * figure; the MFT SMPs a join needs leave after it.
 */
#define IBFS_SA_PROC_TIME (1 * IBFS_US)

struct ibfs_sa {
	struct ibfs_sm *sm;
	struct ibfs_hca *hca;
	int port;
	struct ibfs_sa_stats st;
	uint32_t mgid_seq;     /* SA-assigned MGIDs so far */
	/* The request being answered changed group `changed_gi` (-1: the
	 * set of groups): the SM reprograms once the response is sent. */
	int changed, changed_gi;
};

/* Notes a change of the groups for the SM (see changed above). */
static inline void ibfs__sa_changed(struct ibfs_sa *sa, int gi)
{
	sa->changed_gi = sa->changed && sa->changed_gi != gi ? -1 : gi;
	sa->changed = 1;
}

/* A request, with what the SA knows of its sender. */
struct sa_req {
	const struct ibfs_sa_mad *m;
	uint16_t slid;
	int node, port;        /* the sender's topology node and port */
	uint64_t port_guid;
};

/*
 * Handlers: fill resp's data and AttributeOffset (its header is the
 * request's, as a response), return the MAD status.
 */
uint16_t ibfs__sa_mcmember(struct ibfs_sa *sa, const struct sa_req *rq,
			   struct ibfs_sa_mad *resp);
uint16_t ibfs__sa_path(struct ibfs_sa *sa, const struct sa_req *rq,
		       struct ibfs_sa_mad *resp);

/*
 * IBA codes (sa.c): the rate enum of path records (IBA 15.2.5.16, as
 * OpenSM's ib_types.h: 2 = 2.5 Gb/s ... 16 = 100, 17 = 200, 21 = 400),
 * by the nominal rate of the link (lanes x lane rate: EDR 4x is 100).
 * The MTU enum is mad.h's ibfs__mad_mtu_code.
 */
uint8_t ibfs__sa_rate_code(enum ibfs_speed speed, int width);

/* The topology node and port that own `lid` (0: found), with its GUID. */
int ibfs__sa_lid_port(const struct ibfs_sa *sa, uint16_t lid, int *node,
		      int *port, uint64_t *port_guid);
/* The port whose GUID is `guid` (0: found), among the subnet's CAs. */
int ibfs__sa_guid_port(const struct ibfs_sa *sa, uint64_t guid, int *node,
		       int *port);
/* The base LID the SM gave a topology node's port, 0 if none. */
uint16_t ibfs__sa_port_lid(const struct ibfs_sa *sa, int node, int port);

#endif
