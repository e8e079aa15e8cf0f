/* SPDX-License-Identifier: MIT */
/*
 * ibfsim explain: one message's life, step by step, for teaching. The
 * steps are those of a run of the real model (docs/ibfsim.1): the HCAs
 * tell each stage of their pipelines as they compute it (the doorbell,
 * the DMA read, the send pipeline, the receive pipeline, the address
 * translation, the DMA write, the ACK, the completion: hca.h's steps),
 * and the fabric tells each packet it puts on a wire, from which come
 * the wire's steps (serialization and cable) and each switch's (from the
 * packet's head arriving to its leaving: cut-through, or the whole
 * packet first when store-and-forward). Nothing here is a written story:
 * change the profile, the fabric or the model and the steps change.
 *
 * RDMA's path spends no host CPU: the application posts a work request
 * and later polls a completion, which the model does not charge (the
 * CPU column says 0 for every step); kernel TCP/IP, when it is built,
 * charges its system calls, copies and interrupts there.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/commands.h"
#include "fabric/trace.h"
#include "fabric/xml_fabric.h"
#include "fabric/units.h"
#include "hca/hca.h"
#include "scenario/runner.h"

static const char explain_usage[] =
	"Usage: ibfsim explain [options]\n"
	"\n"
	"One message's life, step by step, from a run of the model: each\n"
	"step with its start, its duration, where it happens and the host\n"
	"CPU it uses.\n"
	"\n"
	"Options:\n"
	"  --model ib|roce  the transport model (default ib)\n"
	"  --models LIST   several, one after the other (e.g. ib,roce)\n"
	"  --op send|write|read  the operation (default write)\n"
	"  --size BYTES    the message's size (default 4KiB)\n"
	"  --fabric FILE   a fabric file: from its first HCA to its last\n"
	"                  (default: two hosts through one switch, EDR 4x,\n"
	"                  2 m cables)\n"
	"  --profile NAME  every HCA's timing profile (default\n"
	"                  connectx-4-edr; with --fabric, the fabric's)\n"
	"  --svg FILE      also a ladder diagram of the packets and steps,\n"
	"                  drawn by gnuplot\n"
	"\n"
	"Exit status: 0 success, 1 the run failed, 2 bad usage or input.\n";

/* The built-in fabric: two hosts through one switch. */
static const char explain_fabric[] =
	"  <fabric version=\"1\" name=\"explain\">\n"
	"    <defaults speed=\"EDR\" width=\"4x\" mtu=\"4096\" data-vls=\"1\""
	" cable=\"2m\"/>\n"
	"    <switch id=\"sw1\" ports=\"8\"/>\n"
	"    <hca id=\"host1\" ports=\"1\"/>\n"
	"    <hca id=\"host2\" ports=\"1\"/>\n"
	"    <link a=\"host1:1\" b=\"sw1:1\"/>\n"
	"    <link a=\"host2:1\" b=\"sw1:2\"/>\n"
	"  </fabric>\n";

struct ex_args {
	const char *model, *op, *fabric, *profile, *svg;
	uint64_t size;
};

/* A step: where (a node, or a wire from one node to another), when. */
struct ex_step {
	ibfs_time_t start, end;
	int node, to;           /* to >= 0: on the wire from node to to */
	char what[120];
};

/* A packet's head reached a switch at `at` (for its forwarding step). */
struct ex_head {
	uint64_t id;
	int node;
	ibfs_time_t at;
};

struct ex {
	const struct ibfs_topology *t;
	struct ibfs_observer obs;
	struct ex_step *steps;
	size_t n, cap;
	struct ex_head heads[64];
	size_t nheads;
	int failed;             /* out of memory */
};

static struct ex_step *ex_add(struct ex *x, int node, int to,
			      ibfs_time_t start, ibfs_time_t end)
{
	if (x->n == x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 64;
		struct ex_step *s = realloc(x->steps, cap * sizeof(*s));
		if (!s) {
			x->failed = 1;
			return NULL;
		}
		x->steps = s;
		x->cap = cap;
	}
	struct ex_step *s = &x->steps[x->n++];
	*s = (struct ex_step){start, end, node, to, ""};
	return s;
}

static const char *const ex_step_names[] = {
	[IBFS_STEP_DOORBELL] = "doorbell: the WQE reaches the HCA (MMIO)",
	[IBFS_STEP_DMA_READ] = "DMA read of the payload (PCIe)",
	[IBFS_STEP_TX_PIPE] = "send pipeline",
	[IBFS_STEP_RX_PIPE] = "receive pipeline",
	[IBFS_STEP_XLATE] = "rkey check and address translation",
	[IBFS_STEP_DMA_WRITE] = "DMA write of the payload (PCIe)",
	[IBFS_STEP_ACK_GEN] = "ACK built",
	[IBFS_STEP_READ_RESP] = "READ response set up, data read (PCIe)",
	[IBFS_STEP_CQE] = "completion written and polled (CQE)",
};

/* The HCAs' listener: a step of a pipeline. */
static void ex_hca_step(void *arg, int node, enum ibfs_hca_step step,
			ibfs_time_t start, ibfs_time_t end,
			const struct ibfs_packet *p)
{
	struct ex *x = arg;
	struct ex_step *s = ex_add(x, node, -1, start, end);
	if (!s)
		return;
	if (p)
		snprintf(s->what, sizeof(s->what), "%s (%s)",
			 ex_step_names[step], ibfs__trace_opcode_name(p->opcode));
	else
		snprintf(s->what, sizeof(s->what), "%s", ex_step_names[step]);
}

/* Where packet p's head reached node, and forgets it; -1: not known. */
static ibfs_time_t ex_head_take(struct ex *x, uint64_t id, int node)
{
	for (size_t i = 0; i < x->nheads; i++)
		if (x->heads[i].id == id && x->heads[i].node == node) {
			ibfs_time_t at = x->heads[i].at;
			x->heads[i] = x->heads[--x->nheads];
			return at;
		}
	return (ibfs_time_t)-1;
}

/* The fabric's observer: a packet leaves a port at start. */
static void ex_tx(void *ctx, const struct ibfs_port *out,
		  const struct ibfs_packet *p, ibfs_time_t start)
{
	struct ex *x = ctx;
	if (p->kind != IBFS_PKT_DATA || !out->peer)
		return;
	const char *name = ibfs__trace_opcode_name(p->opcode);
	if (x->t->nodes[out->node].type == IBFS_NODE_SWITCH) {
		ibfs_time_t in = ex_head_take(x, p->id, out->node);
		struct ex_step *s = in == (ibfs_time_t)-1 ? NULL :
			ex_add(x, out->node, -1, in, start);
		if (s)
			snprintf(s->what, sizeof(s->what),
				 "switch: the %s's head in, out on port %u "
				 "(%s)", name, (unsigned)out->num,
				 x->t->nodes[out->node].store_forward ?
				 "store-and-forward" : "cut-through");
	}
	ibfs_time_t ser = ibfs__port_ser((struct ibfs_port *)out,
					 p->wire_bytes);
	int peer = out->peer->node;
	struct ex_step *s = ex_add(x, out->node, peer, start,
				   start + ser + out->prop);
	if (s)
		snprintf(s->what, sizeof(s->what),
			 "%s on the wire: %u bytes, %.3f ns serialization, "
			 "%.3f ns cable", name, (unsigned)p->wire_bytes,
			 (double)ser / 1000.0, (double)out->prop / 1000.0);
	if (x->t->nodes[peer].type == IBFS_NODE_SWITCH &&
	    x->nheads < sizeof(x->heads) / sizeof(x->heads[0]))
		x->heads[x->nheads++] = (struct ex_head){p->id, peer,
							 start + out->prop};
}

static void ex_assembled(void *arg, struct ibfs_fabric *f)
{
	struct ex *x = arg;
	x->obs = (struct ibfs_observer){.on_tx = ex_tx, .ctx = x};
	ibfs__fabric_observe(f, &x->obs);
	for (size_t n = 0; n < x->t->nnodes; n++) {
		struct ibfs_hca *h = ibfs__hca_of_node(f, (int)n);
		if (h)
			ibfs__hca_set_steps(h, ex_hca_step, x);
	}
}

static int ex_parse(int argc, char **argv, struct ex_args *a)
{
	*a = (struct ex_args){.model = "ib", .op = "write", .size = 4096};
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];
		if (strcmp(o, "--model") && strcmp(o, "--op") &&
		    strcmp(o, "--size") && strcmp(o, "--fabric") &&
		    strcmp(o, "--profile") && strcmp(o, "--svg")) {
			ibfs_cli_error("explain: unknown argument '%s'", o);
			return -1;
		}
		if (i + 1 >= argc) {
			ibfs_cli_error("%s needs a value", o);
			return -1;
		}
		const char *v = argv[++i];
		if (!strcmp(o, "--size")) {
			/* Bytes, or a size with its unit. */
			if ((ibfs__parse_uint(v, &a->size) &&
			     ibfs__parse_size(v, &a->size)) || !a->size ||
			    a->size > (1ull << 30)) {
				ibfs_cli_error("--size takes 1 byte to 1GiB "
					       "(e.g. 64, 4KiB), not '%s'", v);
				return -1;
			}
		} else {
			const char **to = !strcmp(o, "--model") ? &a->model :
					  !strcmp(o, "--op") ? &a->op :
					  !strcmp(o, "--fabric") ? &a->fabric :
					  !strcmp(o, "--profile") ? &a->profile :
								    &a->svg;
			*to = v;
		}
	}
	if (strcmp(a->model, "ib") && strcmp(a->model, "roce")) {
		ibfs_cli_error("--model %s: expected ib or roce (iwarp and tcp "
			       "are not built yet)", a->model);
		return -1;
	}
	if (strcmp(a->op, "send") && strcmp(a->op, "write") &&
	    strcmp(a->op, "read")) {
		ibfs_cli_error("--op %s: expected send, write or read", a->op);
		return -1;
	}
	if (!a->fabric && !a->profile)
		a->profile = "connectx-4-edr";
	return 0;
}

/* The first and last HCAs of the fabric file, or -1 after a message. */
static int ex_ends(const char *fabric, char *src, char *dst, size_t len)
{
	struct ibfs_diag d;
	struct ibfs_topology *t = ibfs__fabric_xml_load(fabric, &d);
	if (!t) {
		ibfs_cli_error("%s", d.msg);
		return -1;
	}
	int first = -1, last = -1;
	for (size_t n = 0; n < t->nnodes; n++)
		if (t->nodes[n].type == IBFS_NODE_HCA) {
			if (first < 0)
				first = (int)n;
			last = (int)n;
		}
	if (first >= 0 && first != last) {
		snprintf(src, len, "%s", t->nodes[first].id);
		snprintf(dst, len, "%s", t->nodes[last].id);
	}
	ibfs__topo_free(t);
	if (first < 0 || first == last) {
		ibfs_cli_error("%s: explain needs two HCAs", fabric);
		return -1;
	}
	return 0;
}

/* The scenario of one message, written to a temporary file at path. */
static int ex_scenario(const struct ex_args *a, char *path, size_t len)
{
	char src[256] = "host1", dst[256] = "host2", abs[4096];
	if (a->fabric) {
		if (ex_ends(a->fabric, src, dst, sizeof(src)) < 0 ||
		    !realpath(a->fabric, abs))
			return -1;
	}
	const char *tmp = getenv("TMPDIR");
	snprintf(path, len, "%.200s/ibfsim-explain-XXXXXX.xml",
		 tmp && *tmp ? tmp : "/tmp");
	int fd = mkstemps(path, 4);
	FILE *o = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!o) {
		ibfs_cli_error("explain: cannot write %s: %s", path,
			       strerror(errno));
		return -1;
	}
	fprintf(o, "<?xml version=\"1.0\"?>\n<scenario version=\"1\" "
		   "name=\"explain\">\n");
	if (a->fabric)
		fprintf(o, "  <fabric file=\"%s\"/>\n", abs);
	else
		fputs(explain_fabric, o);
	fprintf(o, "  <subnet-manager mode=\"instant\"/>\n"
		   "  <transport model=\"%s\"/>\n"
		   "  <traffic>\n    <message src=\"%s\" dst=\"%s\" op=\"%s\" "
		   "size=\"%lluB\"/>\n  </traffic>\n</scenario>\n",
		a->model, src, dst, a->op, (unsigned long long)a->size);
	if (fclose(o) != 0) {
		unlink(path);
		return -1;
	}
	return 0;
}

static int ex_cmp(const void *pa, const void *pb)
{
	const struct ex_step *a = pa, *b = pb;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a < b ? -1 : a > b;
}

static void ex_where(const struct ex *x, const struct ex_step *s, char *buf,
		     size_t len)
{
	if (s->to >= 0)
		snprintf(buf, len, "%s -> %s", x->t->nodes[s->node].id,
			 x->t->nodes[s->to].id);
	else
		snprintf(buf, len, "%s", x->t->nodes[s->node].id);
}

static void ex_print(const struct ex *x, const struct ex_args *a,
		     const struct ibfs_results *r)
{
	const struct ibfs_msg_record *m = &r->msgs[0];
	printf("explain: %s of %llu bytes from %s to %s under %s\n",
	       !strcmp(a->op, "write") ? "RDMA WRITE" :
	       !strcmp(a->op, "read") ? "RDMA READ" : "SEND",
	       (unsigned long long)m->bytes, x->t->nodes[m->src].id,
	       x->t->nodes[m->dst].id, a->model);
	printf("%12s %14s %8s  %-16s %s\n", "start (ns)", "duration (ns)",
	       "CPU (ns)", "where", "step");
	for (size_t i = 0; i < x->n; i++) {
		const struct ex_step *s = &x->steps[i];
		char where[160];
		ex_where(x, s, where, sizeof(where));
		printf("%12.3f %14.3f %8d  %-16s %s\n",
		       (double)(s->start - m->post) / 1000.0,
		       (double)(s->end - s->start) / 1000.0, 0, where,
		       s->what);
	}
	if (m->status == 0)
		printf("posted at %.3f ns, completion polled at %.3f ns: "
		       "%.3f ns; host CPU on the path: 0 ns (RDMA: the "
		       "HCAs do the work)\n", 0.0,
		       (double)(m->done - m->post) / 1000.0,
		       (double)(m->done - m->post) / 1000.0);
	else
		printf("the message did not complete (status %d)\n",
		       m->status);
}

/* The x of node: its order of first appearance among the steps. */
static int ex_col(int *cols, int *ncols, int node)
{
	for (int i = 0; i < *ncols; i++)
		if (cols[i] == node)
			return i;
	cols[*ncols] = node;
	return (*ncols)++;
}

/*
 * --svg: a ladder diagram by gnuplot: a column per node, time going
 * down, each packet an arrow from the node it leaves to the one its
 * last byte reaches, each step at a node a bar with its name.
 */
static int ex_svg(const struct ex *x, const struct ex_args *a,
		  ibfs_time_t t0)
{
	char dat[4200], gp[4200];
	snprintf(dat, sizeof(dat), "%.4000s.dat", a->svg);
	snprintf(gp, sizeof(gp), "%.4000s.gp", a->svg);
	int *cols = calloc(x->t->nnodes, sizeof(int)), ncols = 0;
	FILE *o = cols ? fopen(dat, "w") : NULL;
	if (!o) {
		free(cols);
		return -1;
	}
	for (size_t i = 0; i < x->n; i++) {
		const struct ex_step *s = &x->steps[i];
		double y0 = (double)(s->start - t0) / 1000.0;
		double y1 = (double)(s->end - t0) / 1000.0;
		int c0 = ex_col(cols, &ncols, s->node);
		int c1 = s->to >= 0 ? ex_col(cols, &ncols, s->to) : c0;
		fprintf(o, "%d %d %.3f %.3f \"", s->to >= 0, c0, y0, y1);
		for (const char *c = s->what; *c && *c != ':'; c++)
			fputc(*c == '"' ? '\'' : *c, o);
		fprintf(o, "\" %d\n", c1);
	}
	fclose(o);
	FILE *g = fopen(gp, "w");
	if (!g) {
		free(cols);
		return -1;
	}
	fprintf(g, "set terminal svg size 900,1000 font 'sans,10' "
		   "noenhanced\nset output '%s'\nset yrange [*:*] reverse\n"
		   "set xrange [-0.3:%d.9]\nset ylabel 'time (ns)'\n"
		   "set title 'ibfsim explain: %s, %llu bytes, %s'\n"
		   "set grid ytics\nset key bottom right\nset xtics (",
		a->svg, ncols - 1, a->op, (unsigned long long)a->size,
		a->model);
	for (int i = 0; i < ncols; i++)
		fprintf(g, "%s'%s' %d", i ? ", " : "",
			x->t->nodes[cols[i]].id, i);
	fprintf(g, ")\nplot '%s' using ($1 > 0 ? $2 : NaN):3:($6 - $2):($4 - "
		   "$3) with vectors head filled lw 1.5 title 'packets on "
		   "the wire', \\\n  '' using ($1 > 0 ? NaN : $2):3:(0):($4 - $3) "
		   "with vectors nohead lw 8 title 'steps at a node', \\\n"
		   "  '' using ($1 > 0 ? NaN : $2 + 0.04):(($3 + $4) / 2):5 with "
		   "labels left font ',8' notitle\n", dat);
	fclose(g);
	free(cols);
	char cmd[9000];
	snprintf(cmd, sizeof(cmd), "gnuplot '%s' 2>/dev/null", gp);
	int rc = system(cmd);
	unlink(dat);
	unlink(gp);
	return rc == 0 ? 0 : -1;
}

/* Runs the scenario at path with the listeners; its results in r. */
static int ex_run(const struct ex_args *a, const char *path, struct ex *x,
		  struct ibfs_results *r, struct ibfs_scenario **out)
{
	struct ibfs_diag d;
	struct ibfs_scenario *sc = ibfs__scenario_load(path, &d);
	if (sc && a->profile &&
	    ibfs__scenario_set_profile(sc, a->profile, &d) < 0) {
		ibfs__scenario_free(sc);
		sc = NULL;
	}
	if (!sc) {
		ibfs_cli_error("%s", d.msg);
		return -1;
	}
	x->t = sc->topo;
	struct ibfs_run_opts o = {.seed = 1, .data = 0, .quiet = 1,
				  .until = IBFS_TIME_NEVER,
				  .assembled = ex_assembled,
				  .assembled_arg = x};
	int rc = ibfs__scenario_run(sc, &o, r, &d);
	if (rc < 0)
		ibfs_cli_error("%s", d.msg);
	*out = sc;
	return rc;
}

/* One model's explanation: its status. */
static int ex_one(struct ex_args a)
{
	char path[300];
	if (a.svg) {
		const struct ibfs_cli_output out[] = { { a.svg, 0 } };
		if (ibfs_cli_outputs_ok(out, 1) < 0)
			return IBFS_EXIT_USAGE;
		if (system("gnuplot -V >/dev/null 2>&1") != 0) {
			ibfs_cli_error("--svg draws with gnuplot, which is not "
				       "installed (Debian package gnuplot-nox)");
			return IBFS_EXIT_USAGE;
		}
	}
	if (ex_scenario(&a, path, sizeof(path)) < 0)
		return IBFS_EXIT_USAGE;
	struct ex x = {0};
	struct ibfs_results r = {0};
	struct ibfs_scenario *sc = NULL;
	int rc = ex_run(&a, path, &x, &r, &sc);
	unlink(path);
	int status = rc < 0 ? IBFS_EXIT_USAGE : rc ? IBFS_EXIT_FAIL :
						   IBFS_EXIT_OK;
	if (rc >= 0 && (x.failed || r.nmsgs != 1)) {
		ibfs_cli_error("explain: out of memory");
		status = IBFS_EXIT_FAIL;
	} else if (rc >= 0) {
		qsort(x.steps, x.n, sizeof(*x.steps), ex_cmp);
		ex_print(&x, &a, &r);
		fflush(stdout);
		if (a.svg && ex_svg(&x, &a, r.msgs[0].post) < 0) {
			ibfs_cli_error("--svg: gnuplot could not draw %s",
				       a.svg);
			status = IBFS_EXIT_FAIL;
		}
	}
	ibfs__results_free(&r);
	if (sc)
		ibfs__scenario_free(sc);
	free(x.steps);
	return status;
}

/*
 * --models A,B: one run per model, each in a process of its own (a
 * simulation owns its process), printed one after the other.
 */
static int ex_models(struct ex_args *a, const char *list)
{
	char buf[64];
	int status = IBFS_EXIT_OK;
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *m = strtok(buf, ","); m; m = strtok(NULL, ",")) {
		if (strcmp(m, "ib") && strcmp(m, "roce")) {
			ibfs_cli_error("--models: %s: expected ib or roce (iwarp "
				       "and tcp are not explained yet)", m);
			return IBFS_EXIT_USAGE;
		}
	}
	snprintf(buf, sizeof(buf), "%s", list);
	int first = 1;
	for (char *m = strtok(buf, ","); m; m = strtok(NULL, ",")) {
		a->model = m;
		if (!first)
			putchar('\n');
		first = 0;
		fflush(NULL);
		pid_t pid = fork();
		if (pid == 0)
			_exit(ex_one(*a));
		int st = 0;
		if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
			return IBFS_EXIT_FAIL;
		if (WEXITSTATUS(st) > status)
			status = WEXITSTATUS(st);
	}
	return status;
}

int ibfs_cmd_explain(int argc, char **argv)
{
	const char *models = NULL;
	char *args[64];
	int n = 0;
	for (int i = 0; i < argc && n < 64; i++) {
		if (i && ibfs_cli_is_help(argv[i])) {
			fputs(explain_usage, stdout);
			return IBFS_EXIT_OK;
		}
		if (i && !strcmp(argv[i], "--models") && i + 1 < argc) {
			models = argv[++i];
			continue;
		}
		args[n++] = argv[i];
	}
	struct ex_args a;
	if (ex_parse(n, args, &a) < 0)
		return IBFS_EXIT_USAGE;
	if (models && a.svg) {
		ibfs_cli_error("explain: --svg draws one model (not with "
			       "--models)");
		return IBFS_EXIT_USAGE;
	}
	return models ? ex_models(&a, models) : ex_one(a);
}
