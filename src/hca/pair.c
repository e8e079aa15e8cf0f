/* SPDX-License-Identifier: MIT */
/*
 * Two HCAs back to back (see pair.h). Defaults follow the reference setup
 * of DESIGN.md: 4x EDR, a 2 m cable, 4096-byte MTU.
 */
#include <string.h>

#include "hca/pair.h"

int ibfs__hca_pair_new(struct ibfs_hca_pair *x,
		       const struct ibfs_hca_pair_cfg *c, struct ibfs_diag *d)
{
	memset(x, 0, sizeof(*x));
	x->t = ibfs__topo_new("back-to-back");
	if (!x->t)
		return ibfs__diag(d, "back-to-back", 0, "out of memory");
	x->t->def.mtu = c->mtu ? (int)c->mtu : 4096;
	int a = ibfs__topo_add_node(x->t, "hca0", IBFS_NODE_HCA, 1, 0, d);
	int b = ibfs__topo_add_node(x->t, "hca1", IBFS_NODE_HCA, 1, 0, d);
	if (a < 0 || b < 0 ||
	    ibfs__topo_add_link(x->t, a, 1, b, 1,
				c->have_speed ? c->speed : IBFS_SPEED_EDR,
				c->width ? c->width : 4,
				c->cable_mm ? c->cable_mm : 2000, 0, d) < 0)
		goto fail;
	x->f = ibfs__fabric_new(x->t, 1, c->data_mode);
	if (!x->f) {
		ibfs__diag(d, "back-to-back", 0, "out of memory");
		goto fail;
	}
	struct ibfs_exec ex = ibfs__direct_exec(&x->dx, &x->f->eq);
	for (int i = 0; i < 2; i++) {
		x->h[i] = ibfs__hca_create(x->f, i, c->profile ? c->profile :
								"ideal",
					   ex, d);
		if (!x->h[i])
			goto fail;
		ibfs__hca_set_lid(x->h[i], 1, (uint16_t)(i + 1), 0);
	}
	return 0;
fail:
	ibfs__hca_pair_free(x);
	return -1;
}

void ibfs__hca_pair_free(struct ibfs_hca_pair *x)
{
	for (int i = 0; i < 2; i++)
		ibfs__hca_free(x->h[i]);
	ibfs__fabric_free(x->f);
	ibfs__topo_free(x->t);
	memset(x, 0, sizeof(*x));
}
