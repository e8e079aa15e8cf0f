/* SPDX-License-Identifier: MIT */
/*
 * Life cycle of the SimGrid bridge: SimGrid's initialisation, the hosts
 * derived from the fabric's HCAs, application actors, the run.
 *
 * SimGrid platforms cannot describe switches, ports or forwarding tables,
 * so users write only the fabric file and the bridge derives one SimGrid
 * host per HCA from it. SimGrid 3.32's C API has no call that creates a
 * host, but it loads platform files: the bridge writes a tiny platform (one
 * zone, one host per HCA, no links) into a private temporary file, loads
 * it and deletes it. This keeps the bridge in C, with no C++ shim.
 *
 * The zone has no routing (routing="None"): hosts never exchange SimGrid
 * messages, the fabric carries every packet. "Full" routing would keep a
 * route table of hosts x hosts entries, which SimGrid clears when it seals
 * the zone: 11,664 HCAs cost about 1 GB and 2 s of page faults for a table
 * nobody reads.
 */
#define _DEFAULT_SOURCE /* mkstemps */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/semaphore.h>
#include <xbt/config.h>

#include "bridge/bridge_int.h"

/*
 * SimGrid bumps any wait shorter than surf/precision (default 1e-9 s) to
 * that length, so a 1 ps completion would be seen at 1 ns. A precision of
 * 1e-15 s keeps waits of 1 ps to 1 s + 1 ps exact (docs/architecture.md,
 * "The SimGrid bridge"); it is a thousandth of the picosecond the fabric
 * counts in.
 */
#define BRG_TIMING_PRECISION 1e-15

/*
 * CPU speed of the derived hosts. The packet-level models charge HCA and
 * host processing in their own timing profiles, so this speed only matters
 * to applications that compute through SimGrid; 1 Gflop/s makes one flop
 * one nanosecond, easy to reason about.
 */
#define BRG_HOST_SPEED "1Gf"

struct ibfs_bridge *ibfs__bridge_the;

static int brg_initialised;
static int brg_platform_loaded;

void ibfs__bridge_init(int *argc, char **argv)
{
	if (brg_initialised)
		return;
	brg_initialised = 1;
	simgrid_init(argc, argv);
	sg_cfg_set_double("surf/precision", BRG_TIMING_PRECISION);
}

/* Writes s with the five XML special characters escaped. */
static void brg_xml_escaped(FILE *f, const char *s)
{
	static const char special[] = "&<>\"'";
	static const char *const entity[] = { "&amp;", "&lt;", "&gt;",
					      "&quot;", "&apos;" };

	for (; *s; s++) {
		const char *c = strchr(special, *s);

		if (c)
			fputs(entity[c - special], f);
		else
			fputc(*s, f);
	}
}

/* Writes and loads the derived platform; returns 0 or -1 with diag. */
static int brg_load_hosts(struct ibfs_bridge *b, struct ibfs_diag *d)
{
	const struct ibfs_topology *t = b->topo;
	const char *dir = getenv("TMPDIR");
	char path[4096];

	if (!dir || !*dir)
		dir = "/tmp";
	/* SimGrid picks its parser by the extension: keep ".xml". */
	if (snprintf(path, sizeof(path), "%s/ibfsim-hosts-XXXXXX.xml", dir) >=
	    (int)sizeof(path))
		return ibfs__diag(d, NULL, 0, "TMPDIR is too long");
	int fd = mkstemps(path, 4);

	if (fd < 0)
		return ibfs__diag(d, NULL, 0,
				  "cannot create a temporary file in %s", dir);
	FILE *f = fdopen(fd, "w");

	if (!f) {
		close(fd);
		unlink(path);
		return ibfs__diag(d, NULL, 0, "cannot write %s", path);
	}
	fputs("<?xml version='1.0'?>\n"
	      "<!DOCTYPE platform SYSTEM "
	      "\"https://simgrid.org/simgrid.dtd\">\n"
	      "<platform version=\"4.1\">\n"
	      "<zone id=\"ibfsim\" routing=\"None\">\n", f);
	for (size_t i = 0; i < t->nnodes; i++) {
		if (t->nodes[i].type != IBFS_NODE_HCA)
			continue;
		fputs("<host id=\"", f);
		brg_xml_escaped(f, t->nodes[i].id);
		fputs("\" speed=\"" BRG_HOST_SPEED "\"/>\n", f);
	}
	fputs("</zone>\n</platform>\n", f);
	int bad = ferror(f);

	if (fclose(f) != 0 || bad) {
		unlink(path);
		return ibfs__diag(d, NULL, 0, "cannot write %s", path);
	}
	simgrid_load_platform(path);
	unlink(path);
	brg_platform_loaded = 1;

	size_t k = 0;

	for (size_t i = 0; i < t->nnodes; i++) {
		if (t->nodes[i].type != IBFS_NODE_HCA)
			continue;
		b->host_node[k] = (int)i;
		sg_host_set_data(sg_host_by_name(t->nodes[i].id),
				 &b->host_node[k]);
		k++;
	}
	return 0;
}

struct ibfs_bridge *ibfs__bridge_new(struct ibfs_eq *eq,
				     const struct ibfs_topology *t,
				     struct ibfs_diag *d)
{
	if (!brg_initialised) {
		ibfs__diag(d, NULL, 0,
			   "SimGrid is not initialised (ibfs__bridge_init)");
		return NULL;
	}
	if (ibfs__bridge_the || brg_platform_loaded) {
		ibfs__diag(d, NULL, 0, "one SimGrid simulation per process: "
			   "a bridge was created already");
		return NULL;
	}
	size_t nhca = 0;

	for (size_t i = 0; i < t->nnodes; i++)
		nhca += t->nodes[i].type == IBFS_NODE_HCA;
	if (nhca == 0) {
		ibfs__diag(d, t->file, 0,
			   "the fabric has no HCA to run applications on");
		return NULL;
	}
	struct ibfs_bridge *b = calloc(1, sizeof(*b));

	if (!b || !(b->host_node = calloc(nhca, sizeof(int)))) {
		free(b);
		ibfs__diag(d, NULL, 0, "out of memory");
		return NULL;
	}
	b->eq = eq;
	b->topo = t;
	b->diag = d;
	b->nhosts = nhca;
	b->sleep_until = IBFS_TIME_NEVER;
	if (brg_load_hosts(b, d) < 0) {
		free(b->host_node);
		free(b);
		return NULL;
	}
	b->doorbell = sg_sem_init(0);
	ibfs__brg_stacks_init(b);
	b->map_clock = simgrid_get_clock();
	b->map_ps = eq->now;
	ibfs__bridge_the = b;
	return b;
}

struct ibfs_waiter *ibfs__bridge_self(void)
{
	struct ibfs_bridge *b = ibfs__bridge_the;

	if (!b)
		return NULL;
	sg_actor_t self = sg_actor_self();

	if (!self)
		return NULL;
	aid_t pid = sg_actor_get_pid(self);

	if (pid < 0 || (size_t)pid >= b->by_pid_cap)
		return NULL;
	return b->by_pid[pid];
}

int ibfs__bridge_current_node(void)
{
	struct ibfs_waiter *w = ibfs__bridge_self();

	return w ? w->node : -1;
}

/* Every application actor runs through here. */
static void brg_app_main(int argc, char **argv)
{
	struct ibfs_waiter *w = ibfs__bridge_self();

	w->fn(argc, argv);
	ibfs__bridge_block(w, BRG_DONE);
	if (--w->b->live == 0 && w->b->on_done)
		w->b->on_done(w->b->on_done_ctx);
	ibfs__bridge_notify(w->b);
}

/* Makes room for pid in the pid map. */
static int brg_map_pid(struct ibfs_bridge *b, aid_t pid,
		       struct ibfs_waiter *w)
{
	if ((size_t)pid >= b->by_pid_cap) {
		size_t cap = b->by_pid_cap ? b->by_pid_cap : 64;

		while (cap <= (size_t)pid)
			cap *= 2;
		struct ibfs_waiter **m = realloc(b->by_pid, cap * sizeof(*m));

		if (!m)
			return -1;
		memset(m + b->by_pid_cap, 0,
		       (cap - b->by_pid_cap) * sizeof(*m));
		b->by_pid = m;
		b->by_pid_cap = cap;
	}
	b->by_pid[pid] = w;
	return 0;
}

int ibfs__bridge_spawn(struct ibfs_bridge *b, const char *hca_id,
		       const char *name, void (*fn)(int, char **), int argc,
		       char **argv)
{
	sg_host_t host = hca_id ? sg_host_by_name(hca_id) : NULL;
	const int *node = host ? sg_host_get_data(host) : NULL;

	if (!node)
		return ibfs__diag(b->diag, b->topo->file, 0,
				  "no HCA named '%s' to run '%s' on",
				  hca_id ? hca_id : "(null)", name);
	if (b->nactors == b->actors_cap) {
		size_t cap = b->actors_cap ? 2 * b->actors_cap : 16;
		struct ibfs_waiter **a = realloc(b->actors, cap * sizeof(*a));

		if (!a)
			return ibfs__diag(b->diag, NULL, 0, "out of memory");
		b->actors = a;
		b->actors_cap = cap;
	}
	struct ibfs_waiter *w = calloc(1, sizeof(*w));

	if (!w)
		return ibfs__diag(b->diag, NULL, 0, "out of memory");
	w->b = b;
	w->node = *node;
	w->fn = fn;
	w->state = BRG_RUNNING;
	/* Map the pid before the actor can run and look itself up. */
	ibfs__brg_stacks_before_actor(b);
	w->actor = sg_actor_init(name, host);
	if (brg_map_pid(b, sg_actor_get_pid(w->actor), w) < 0) {
		free(w);
		return ibfs__diag(b->diag, NULL, 0, "out of memory");
	}
	w->sem = sg_sem_init(0);
	b->actors[b->nactors++] = w;
	b->running++;
	b->live++;
	sg_actor_start(w->actor, brg_app_main, argc, argv);
	return 0;
}

int ibfs__bridge_run(struct ibfs_bridge *b)
{
	b->fabric_done = 0;
	ibfs__brg_stacks_before_actor(b);
	b->fabric = sg_actor_create("ibfs-fabric",
				    sg_host_by_name(b->topo->nodes
						    [b->host_node[0]].id),
				    ibfs__bridge_fabric_main, 0, NULL);
	simgrid_run();
	if (b->deadlock)
		return -1;
	if (b->stopped)
		return 1;
	if (b->live)
		return ibfs__diag(b->diag, NULL, 0,
				  "%zu application actor(s) never ended",
				  b->live);
	return 0;
}

void ibfs__bridge_stats(const struct ibfs_bridge *b,
			struct ibfs_bridge_stats *s)
{
	*s = b->st;
}

void ibfs__bridge_free(struct ibfs_bridge *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nactors; i++) {
		sg_sem_destroy(b->actors[i]->sem);
		free(b->actors[i]);
	}
	free(b->actors);
	free(b->by_pid);
	free(b->deliveries.v);
	free(b->sleepers.v);
	ibfs__bridge_oob_free(b);
	sg_sem_destroy(b->doorbell);
	free(b->host_node);
	if (ibfs__bridge_the == b)
		ibfs__bridge_the = NULL;
	free(b);
}
