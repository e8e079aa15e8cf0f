/* SPDX-License-Identifier: MIT */
/*
 * Deadlock detection. InfiniBand never drops for want of buffer, so a
 * cycle of input buffers each full of packets waiting for credits of the
 * next one (a credit loop) stops those packets for ever. The monitor
 * looks every `timeout` of simulated time: if packets sit in switch input
 * buffers and no packet has started on any link since the last look, the
 * run is stuck. It then builds the wait-for graph of the switch input
 * buffers: the buffer (switch, input port, VL) whose head packet lacks
 * credits on its output VL waits on the input buffer of the next switch
 * at the far end of that output, on that VL. Each buffer waits on at most
 * one other (its head decides), so the graph is a functional graph and a
 * cycle is found by following successors with visit stamps in O(buffers).
 * The verdict, with the cycle, is kept for the runner, which reports
 * `deadlock: true` and exits 1 (docs/results.md).
 */
#include "switch/switch_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ibfs_deadlock_monitor {
	struct ibfs_fabric *f;
	ibfs_time_t timeout;
	uint64_t last_sends;
	struct ibfs_event *ev;
	struct ibfs_deadlock v;
};

static void dl_check(void *obj, uint64_t arg);

static void dl_arm(struct ibfs_deadlock_monitor *m)
{
	m->ev = ibfs__eq_schedule(&m->f->eq, m->f->eq.now + m->timeout,
				  dl_check, m, 0);
}

/*
 * The buffer that buffer (sw, in, slot) waits on, as an index from `base`,
 * or -1 when its head can go (or waits on something else than credits of
 * another switch's buffer).
 */
static long dl_successor(const size_t *base, struct ibfs_switch *sw, int in,
			 int slot)
{
	struct ibfs_packet *p = ibfs__sw_queue(sw, in, slot)->head;

	if (!p)
		return -1;
	struct ibfs_port *op = &sw->dev.ports[p->out_port];
	struct ibfs_switch *nx = op->peer ? ibfs__switch_of(op->peer->dev) :
					    NULL;

	/*
	 * Credits that reach a busy transmitter are its own at once
	 * (credits.c), so may_send sees every credit that has arrived.
	 */
	if (!nx || op->flow->may_send(op, p))
		return -1;
	return (long)(base[op->peer->node] +
		      (size_t)(op->peer->num * nx->nslots +
			       ibfs__sw_slot(nx, p->vl)));
}

/* Fills m->v.cycle with a cycle of waiting buffers, if there is one. */
static void dl_find_cycle(struct ibfs_deadlock_monitor *m)
{
	struct ibfs_fabric *f = m->f;
	size_t nn = f->topo->nnodes;
	size_t *base = calloc(nn + 1, sizeof(*base));

	if (!base)
		return;
	for (size_t n = 0; n < nn; n++) {
		struct ibfs_switch *sw = ibfs__switch_of(f->devices[n]);
		size_t bufs = sw ? (size_t)(sw->n + 1) * (size_t)sw->nslots : 0;

		base[n + 1] = base[n] + bufs;
	}
	size_t total = base[nn];
	long *next = malloc(total * sizeof(*next));
	size_t *stamp = calloc(total, sizeof(*stamp));

	if (!next || !stamp)
		goto out;
	for (size_t n = 0; n < nn; n++) {
		struct ibfs_switch *sw = ibfs__switch_of(f->devices[n]);

		for (int in = 0; sw && in <= sw->n; in++)
			for (int s = 0; s < sw->nslots; s++)
				next[base[n] + (size_t)(in * sw->nslots + s)] =
					dl_successor(base, sw, in, s);
	}
	for (size_t start = 0; start < total; start++) {
		size_t id = start;

		while (next[id] >= 0 && !stamp[id]) {
			stamp[id] = start + 1;
			id = (size_t)next[id];
		}
		if (next[id] < 0 || stamp[id] != start + 1)
			continue;
		/* id is on a cycle: walk it once. */
		size_t c = id;
		int k = 0;

		do {
			size_t n = 0;

			while (base[n + 1] <= c)
				n++;
			struct ibfs_switch *sw = ibfs__switch_of(f->devices[n]);
			int off = (int)(c - base[n]);

			if (k < 64)
				m->v.cycle[k] = (struct ibfs_deadlock_elem){
					(int)n, off / sw->nslots,
					ibfs__sw_slot_vl(sw, off % sw->nslots)
				};
			k++;
			c = (size_t)next[c];
		} while (c != id);
		m->v.ncycle = k < 64 ? k : 64;
		break;
	}
out:
	free(next);
	free(stamp);
	free(base);
}

static void dl_check(void *obj, uint64_t arg)
{
	struct ibfs_deadlock_monitor *m = obj;
	struct ibfs_fabric *f = m->f;
	uint64_t held = 0;

	(void)arg;
	m->ev = NULL;
	uint64_t sends = ibfs__fabric_sends(f);

	/* The switches' buffers are summed only when nothing moved: a
	 * look at a live fabric is O(1) (a fat tree of 27,648 HCAs had
	 * 30,528 devices to look through every 50 us). */
	for (size_t n = 0; sends == m->last_sends && n < f->topo->nnodes; n++) {
		struct ibfs_switch *sw = ibfs__switch_of(f->devices[n]);

		if (sw)
			held += sw->buffered;
	}
	if (sends != m->last_sends || !held) {
		m->last_sends = sends;
		/* Keep watching while the run has anything left to do. */
		if (ibfs__fabric_busy(f))
			dl_arm(m);
		return;
	}
	m->v.deadlock = 1;
	m->v.at = f->eq.now;
	m->v.stuck = held;
	dl_find_cycle(m);
	ibfs__fabric_stop(f);
}

struct ibfs_deadlock_monitor *ibfs__deadlock_monitor_new(struct ibfs_fabric *f,
							 ibfs_time_t timeout)
{
	struct ibfs_deadlock_monitor *m = calloc(1, sizeof(*m));

	if (!m || !timeout) {
		free(m);
		return NULL;
	}
	m->f = f;
	m->timeout = timeout;
	m->last_sends = ibfs__fabric_sends(f);
	dl_arm(m);
	return m;
}

void ibfs__deadlock_monitor_free(struct ibfs_deadlock_monitor *m)
{
	if (!m)
		return;
	if (m->ev)
		ibfs__eq_cancel(&m->f->eq, m->ev);
	free(m);
}

const struct ibfs_deadlock *
ibfs__deadlock_verdict(const struct ibfs_deadlock_monitor *m)
{
	return &m->v;
}

char *ibfs__deadlock_format(const struct ibfs_fabric *f,
			    const struct ibfs_deadlock *v, char *buf,
			    size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (int i = 0; i <= v->ncycle && v->ncycle; i++) {
		const struct ibfs_deadlock_elem *e = &v->cycle[i % v->ncycle];
		int r = snprintf(buf + at, len - at, "%s%s:%d/VL%d",
				 i ? " -> " : "", f->topo->nodes[e->node].id,
				 e->port, e->vl);

		if (r < 0 || (size_t)r >= len - at)
			break;
		at += (size_t)r;
	}
	return buf;
}
