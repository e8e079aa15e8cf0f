/* SPDX-License-Identifier: MIT */
/* Sets of ports named on the command line (see port_set.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/port_set.h"

/* Adds one NODE or NODE:PORT (len bytes at s) to the set. */
static int ps_add(struct ibfs_port_set *set, const struct ibfs_topology *t,
		  const char *s, size_t len, char *err, size_t errlen)
{
	char id[256];
	const char *colon = memchr(s, ':', len);
	size_t idlen = colon ? (size_t)(colon - s) : len;
	if (!idlen || idlen >= sizeof(id)) {
		snprintf(err, errlen, "'%.*s' is not NODE or NODE:PORT",
			 (int)len, s);
		return -1;
	}
	memcpy(id, s, idlen);
	id[idlen] = 0;
	int node = ibfs__topo_find(t, id);
	if (node < 0) {
		snprintf(err, errlen, "no node '%s' in the fabric", id);
		return -1;
	}
	int np = t->nodes[node].nports, lo = 1, hi = np;
	if (colon) {
		char *e;
		long p = strtol(colon + 1, &e, 10);
		if (e == colon + 1 || e != s + len || p < 1 || p > np) {
			snprintf(err, errlen, "'%.*s': '%s' has ports 1 to %d",
				 (int)len, s, id, np);
			return -1;
		}
		lo = hi = (int)p;
	}
	for (int p = lo; p <= hi; p++)
		set->in[set->base[node] + (size_t)p] = 1;
	return 0;
}

int ibfs__port_set_parse(struct ibfs_port_set *s,
			 const struct ibfs_topology *t, const char *list,
			 char *err, size_t errlen)
{
	size_t total = 0;
	s->base = malloc((t->nnodes + 1) * sizeof(*s->base));
	if (!s->base)
		goto oom;
	for (size_t i = 0; i < t->nnodes; i++) {
		s->base[i] = total;
		total += (size_t)t->nodes[i].nports + 1;
	}
	s->in = calloc(total ? total : 1, 1);
	if (!s->in)
		goto oom;
	if (!strcmp(list, "all")) {
		memset(s->in, 1, total);
		return 0;
	}
	for (const char *p = list;;) {
		size_t len = strcspn(p, ",");
		if (ps_add(s, t, p, len, err, errlen) < 0) {
			ibfs__port_set_free(s);
			return -1;
		}
		if (!p[len])
			return 0;
		p += len + 1;
	}
oom:
	snprintf(err, errlen, "out of memory");
	ibfs__port_set_free(s);
	return -1;
}

void ibfs__port_set_free(struct ibfs_port_set *s)
{
	free(s->base);
	free(s->in);
	s->base = NULL;
	s->in = NULL;
}
