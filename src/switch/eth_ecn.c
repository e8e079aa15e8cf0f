/* SPDX-License-Identifier: MIT */
/*
 * ECN marking at the Ethernet switch's egress (the model: eth_ecn.h).
 * A frame already CE stays CE (RFC 3168 section 5) and draws nothing: a
 * port counts the frames it turned CE.
 */
#include "switch/eth_switch_int.h"

/* Streams of the run's seed for marking: apart from the HCAs' and the
 * traffic's (numbered from 0), one a switch node. */
#define ETH_ECN_STREAM (1ull << 40)

double ibfs__eth_ecn_prob(const struct ibfs_eth_ecn *e, uint64_t q)
{
	if (q <= e->kmin)
		return 0;
	if (q > e->kmax)
		return 1;
	/* kmin < q <= kmax: kmax > kmin. */
	return e->pmax * (double)(q - e->kmin) / (double)(e->kmax - e->kmin);
}

void ibfs__eth_ecn_mark(struct ibfs_eth_switch *sw, int out,
			struct ibfs_packet *p, uint64_t q)
{
	if (p->kind != IBFS_PKT_DATA || p->fecn)
		return;
	double pr = ibfs__eth_ecn_prob(&sw->ecn, q);

	if (pr <= 0 || (pr < 1 && ibfs__rng_double(&sw->ecn_rng) >= pr))
		return;
	p->fecn = 1;
	sw->port[out].ecn_marks[p->vl & (IBFS_ETH_PRIOS - 1)]++;
}

void ibfs__eth_switch_set_ecn(struct ibfs_eth_switch *sw,
			      const struct ibfs_eth_ecn *e, uint64_t seed)
{
	sw->ecn = *e;
	ibfs__rng_seed(&sw->ecn_rng, seed,
		       ETH_ECN_STREAM | (uint64_t)sw->dev.node);
}

uint64_t ibfs__eth_switch_ecn_marks(const struct ibfs_eth_switch *sw,
				    int port, int prio)
{
	return sw->port[port].ecn_marks[prio & (IBFS_ETH_PRIOS - 1)];
}
