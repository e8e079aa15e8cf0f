/* SPDX-License-Identifier: MIT */
/*
 * Reading scenario XML (docs/scenario-format.md) with libxml2. The document's
 * form is checked first, each fault at its line (scenario_check.c), then
 * it is validated against platforms/scenario.rng (which includes the fabric
 * grammar for inline fabrics), then each element is read and checked against
 * the fabric: names must be HCAs, sizes and times carry units, and every
 * error names the file and line. Nothing is returned half built. The
 * readers of <subnet-manager>, <collective> and the multicast elements
 * are in scenario_sm.c, scenario_collective.c and scenario_mcast.c.
 */
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/units.h"
#include "fabric/xml_fabric.h"
#include "hca/hca.h"
#include "host/host_profile.h"
#include "scenario/flow_cdf.h"
#include "scenario/scenario.h"
#include "scenario/scenario_check.h"
#include "scenario/scenario_xml_int.h"
#include "subnet_manager/partitions.h"

static const char *const op_names[IBFS_SC_OP_COUNT] = {
	"send", "send-imm", "write", "write-imm", "read", "cmp-swap",
	"fetch-add"};
static const char *const qp_names[] = {"rc", "uc", "ud"};
static const char *const pattern_names[IBFS_PAT_COUNT] = {
	"permutation", "uniform", "all-to-all", "incast", "shift",
	"bisection", "flows"};
static const char *const model_names[] = {"ib", "roce", "iwarp", "tcp"};

const char *ibfs__sc_op_str(enum ibfs_sc_op op)
{
	return op < IBFS_SC_OP_COUNT ? op_names[op] : "?";
}

const char *ibfs__sc_qp_str(enum ibfs_sc_qp qp)
{
	return qp <= IBFS_SC_UD ? qp_names[qp] : "?";
}

const char *ibfs__sc_pattern_str(enum ibfs_sc_pattern_kind k)
{
	return k < IBFS_PAT_COUNT ? pattern_names[k] : "?";
}

const char *ibfs__sc_model_str(enum ibfs_sc_model m)
{
	return m <= IBFS_MODEL_TCP ? model_names[m] : "?";
}

static int lookup(const char *const *names, int n, const char *v)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], v))
			return i;
	return -1;
}

/* The attribute's value (caller frees with xmlFree), or NULL. */
static char *attr(xmlNode *n, const char *name)
{
	return (char *)xmlGetProp(n, (const xmlChar *)name);
}

static long line_of(xmlNode *n)
{
	return ibfs__xml_line(n);
}

/* Parses attribute `name` with `parse`; absent -> *out = dflt. */
static int unit_attr(struct sx *x, xmlNode *n, const char *name,
		     int (*parse)(const char *, uint64_t *),
		     const char *quantity, uint64_t dflt, uint64_t *out)
{
	char *v = attr(n, name);
	if (!v) {
		*out = dflt;
		return 0;
	}
	int err = parse(v, out);
	if (err) {
		ibfs__diag(x->d, x->file, line_of(n), "%s=\"%s\": %s", name, v,
			   ibfs__unit_strerror(-err, quantity));
		xmlFree(v);
		return -1;
	}
	xmlFree(v);
	return 0;
}

/* Resolves attribute `name` to an HCA node index. */
static int hca_attr(struct sx *x, xmlNode *n, const char *name, int *out)
{
	char *v = attr(n, name);
	if (!v) {
		*out = -1;
		return 0;
	}
	int idx = ibfs__topo_find(x->s->topo, v);
	int rc = 0;
	if (idx < 0)
		rc = ibfs__diag(x->d, x->file, line_of(n),
				"%s=\"%s\": no such node in the fabric", name,
				v);
	else if (x->s->topo->nodes[idx].type != IBFS_NODE_HCA)
		rc = ibfs__diag(x->d, x->file, line_of(n),
				"%s=\"%s\" is a switch; %s", name, v,
				strcmp(name, "host") ?
					"traffic runs between HCAs" :
					"the subnet manager runs on an HCA's "
					"port here");
	xmlFree(v);
	*out = idx;
	return rc;
}

static int enum_attr(struct sx *x, xmlNode *n, const char *name,
		     const char *const *names, int count, int dflt, int *out)
{
	char *v = attr(n, name);
	if (!v) {
		*out = dflt;
		return 0;
	}
	*out = lookup(names, count, v);
	int rc = 0;
	if (*out < 0) {
		char list[256] = "";
		for (int i = 0; i < count; i++) {
			strncat(list, names[i], sizeof(list) - strlen(list) - 1);
			if (i + 1 < count)
				strncat(list, ", ",
					sizeof(list) - strlen(list) - 1);
		}
		rc = ibfs__diag(x->d, x->file, line_of(n),
				"%s=\"%s\" is not one of: %s", name, v, list);
	}
	xmlFree(v);
	return rc;
}

/* sl="N": a service level, 0 to 15 (IBA 7.6.5); VL15 has no SL. */
static int sl_attr(struct sx *x, xmlNode *n, uint8_t *out, uint8_t *given)
{
	uint64_t v;
	char *a = attr(n, "sl");
	*given = a != NULL;
	xmlFree(a);
	if (unit_attr(x, n, "sl", ibfs__parse_uint, "count", 0, &v) < 0)
		return -1;
	if (v > 15)
		return ibfs__diag(x->d, x->file, line_of(n),
				  "sl must be 0 to 15 (IBA 7.6.5)");
	*out = (uint8_t)v;
	return 0;
}

/* pkey="0x8001": the partition (0xffff, the default, when absent). */
static int pkey_attr(struct sx *x, xmlNode *n, uint16_t *out)
{
	char *v = attr(n, "pkey");
	int bad = v && ibfs__sc_parse_pkey(v, out) < 0;

	if (bad)
		ibfs__diag(x->d, x->file, line_of(n),
			   "pkey=\"%s\": a P_Key, 0x0001 to 0xffff but "
			   "0x8000 (IBA 10.9.1)", v);
	if (!v)
		*out = 0xffff;
	xmlFree(v);
	return bad ? -1 : 0;
}

/* qps="N" (1 to 1024 connections a pair) and rate="10Gbps". */
static int load_attrs(struct sx *x, xmlNode *n, uint32_t *qps, uint64_t *rate)
{
	uint64_t q;
	if (unit_attr(x, n, "qps", ibfs__parse_uint, "count", 1, &q) < 0 ||
	    unit_attr(x, n, "rate", ibfs__parse_rate, "rate", 0, rate) < 0)
		return -1;
	if (q < 1 || q > 1024)
		return ibfs__diag(x->d, x->file, line_of(n),
				  "qps must be 1 to 1024");
	*qps = (uint32_t)q;
	char *r = attr(n, "rate");
	int zero = r && *rate == 0;
	xmlFree(r);
	if (zero)
		return ibfs__diag(x->d, x->file, line_of(n),
				  "a rate must be above 0 bit/s");
	return 0;
}

static int count_attr(struct sx *x, xmlNode *n, uint32_t *out)
{
	uint64_t c;
	if (unit_attr(x, n, "count", ibfs__parse_uint, "count", 1, &c) < 0)
		return -1;
	if (c == 0 || c > UINT32_MAX)
		return ibfs__diag(x->d, x->file, line_of(n),
				  "count must be between 1 and %u", UINT32_MAX);
	*out = (uint32_t)c;
	return 0;
}

/* Checks that op, qp and size go together (IBA 9.4, 9.7, 10.2.3). */
static int check_op(struct sx *x, long line, enum ibfs_sc_op op,
		    enum ibfs_sc_qp qp, uint64_t *size, int size_given)
{
	int atomic = op == IBFS_SC_CMP_SWAP || op == IBFS_SC_FETCH_ADD;
	if (qp == IBFS_SC_UD && op != IBFS_SC_SEND && op != IBFS_SC_SEND_IMM)
		return ibfs__diag(x->d, x->file, line,
				  "qp=\"ud\" carries only send and send-imm, "
				  "not %s", ibfs__sc_op_str(op));
	if (qp == IBFS_SC_UC && (op == IBFS_SC_READ || atomic))
		return ibfs__diag(x->d, x->file, line,
				  "qp=\"uc\" has no %s (RDMA READ and atomics "
				  "need a reliable connection)",
				  ibfs__sc_op_str(op));
	if (atomic) {
		if (size_given && *size != 8)
			return ibfs__diag(x->d, x->file, line,
					  "%s operates on 8 bytes; size must "
					  "be 8B", ibfs__sc_op_str(op));
		*size = 8;
	}
	if (qp == IBFS_SC_UD && *size > (uint64_t)x->s->topo->def.mtu)
		return ibfs__diag(x->d, x->file, line,
				  "a UD message is at most one MTU (%d B), "
				  "not %llu B", x->s->topo->def.mtu,
				  (unsigned long long)*size);
	if (*size > ((uint64_t)1 << 31))
		return ibfs__diag(x->d, x->file, line,
				  "a message is at most 2 GiB (IBA 9.4.1: "
				  "DMA length is 31 bits)");
	return 0;
}

/* op (default dflt) and qp (default rc), by the names of
 * docs/scenario-format.md. */
static int op_qp_attrs(struct sx *x, xmlNode *n, enum ibfs_sc_op dflt,
		       enum ibfs_sc_op *op, enum ibfs_sc_qp *qp)
{
	int o, q;
	if (enum_attr(x, n, "op", op_names, IBFS_SC_OP_COUNT, (int)dflt,
		      &o) < 0 ||
	    enum_attr(x, n, "qp", qp_names, 3, IBFS_SC_RC, &q) < 0)
		return -1;
	*op = (enum ibfs_sc_op)o;
	*qp = (enum ibfs_sc_qp)q;
	return 0;
}

const struct ibfs_sx_attrs ibfs__sx_attrs = {
	.unit = unit_attr,
	.hca = hca_attr,
	.enumerated = enum_attr,
	.sl = sl_attr,
	.load = load_attrs,
	.count = count_attr,
	.op = check_op,
	.op_qp = op_qp_attrs,
};

static int read_message(struct sx *x, xmlNode *n)
{
	struct ibfs_sc_message m = {.line = line_of(n)};
	int op, qp;
	char *sz = attr(n, "size");
	int size_given = sz != NULL;
	xmlFree(sz);
	if (hca_attr(x, n, "src", &m.src) < 0 ||
	    hca_attr(x, n, "dst", &m.dst) < 0 ||
	    enum_attr(x, n, "op", op_names, IBFS_SC_OP_COUNT, IBFS_SC_WRITE,
		      &op) < 0 ||
	    enum_attr(x, n, "qp", qp_names, 3, IBFS_SC_RC, &qp) < 0 ||
	    unit_attr(x, n, "size", ibfs__parse_size, "size", 0, &m.size) < 0 ||
	    unit_attr(x, n, "start", ibfs__parse_time, "time", 0, &m.start) <
		    0 ||
	    sl_attr(x, n, &m.sl, &m.sl_given) < 0 || count_attr(x, n, &m.count) < 0 ||
	    load_attrs(x, n, &m.qps, &m.rate) < 0 || pkey_attr(x, n, &m.pkey) < 0)
		return -1;
	m.op = op;
	m.qp = qp;
	if (m.src < 0 || m.dst < 0)
		return ibfs__diag(x->d, x->file, m.line,
				  "<message> needs src and dst");
	if (m.src == m.dst)
		return ibfs__diag(x->d, x->file, m.line,
				  "src and dst are the same HCA");
	if (check_op(x, m.line, m.op, m.qp, &m.size, size_given) < 0)
		return -1;
	struct ibfs_sc_message *v =
		realloc(x->s->msgs, (x->s->nmsgs + 1) * sizeof(*v));
	if (!v)
		return ibfs__diag(x->d, x->file, m.line, "out of memory");
	x->s->msgs = v;
	v[x->s->nmsgs++] = m;
	return 0;
}

static int read_pattern(struct sx *x, xmlNode *n)
{
	struct ibfs_sc_pattern p = {.line = line_of(n)};
	int kind, op, qp;
	char *sz = attr(n, "size");
	int size_given = sz != NULL;
	xmlFree(sz);
	if (enum_attr(x, n, "kind", pattern_names, IBFS_PAT_COUNT, -1,
		      &kind) < 0 ||
	    hca_attr(x, n, "dst", &p.dst) < 0 ||
	    enum_attr(x, n, "op", op_names, IBFS_SC_OP_COUNT, IBFS_SC_WRITE,
		      &op) < 0 ||
	    enum_attr(x, n, "qp", qp_names, 3, IBFS_SC_RC, &qp) < 0 ||
	    unit_attr(x, n, "size", ibfs__parse_size, "size", 0, &p.size) < 0 ||
	    unit_attr(x, n, "start", ibfs__parse_time, "time", 0, &p.start) <
		    0 ||
	    unit_attr(x, n, "shift", ibfs__parse_uint, "count", 1, &p.shift) <
		    0 ||
	    sl_attr(x, n, &p.sl, &p.sl_given) < 0 || count_attr(x, n, &p.count) < 0 ||
	    load_attrs(x, n, &p.qps, &p.rate) < 0 || pkey_attr(x, n, &p.pkey) < 0)
		return -1;
	if (kind < 0)
		return ibfs__diag(x->d, x->file, p.line,
				  "<pattern> needs kind");
	p.kind = kind;
	p.op = op;
	p.qp = qp;
	const char *fa = ibfs__sx_flows_attr(n);

	if (p.kind != IBFS_PAT_FLOWS && fa)
		return ibfs__diag(x->d, x->file, p.line,
				  "%s applies only to kind=\"flows\"", fa);
	if (p.kind == IBFS_PAT_INCAST && p.dst < 0)
		return ibfs__diag(x->d, x->file, p.line,
				  "an incast pattern needs dst");
	if (p.kind != IBFS_PAT_INCAST && p.kind != IBFS_PAT_FLOWS &&
	    p.dst >= 0)
		return ibfs__diag(x->d, x->file, p.line,
				  "dst applies only to kind=\"incast\"");
	if (ibfs__topo_count(x->s->topo, IBFS_NODE_HCA) < 2)
		return ibfs__diag(x->d, x->file, p.line,
				  "a pattern needs at least two HCAs");
	if (check_op(x, p.line, p.op, p.qp, &p.size, size_given) < 0)
		return -1;
	/* Last: what fails after the CDF is read frees it. */
	if (p.kind == IBFS_PAT_FLOWS && ibfs__sx_read_flows(x, n, &p) < 0)
		return -1;
	struct ibfs_sc_pattern *v =
		realloc(x->s->pats, (x->s->npats + 1) * sizeof(*v));
	if (!v) {
		ibfs__flow_cdf_free(p.cdf);
		return ibfs__diag(x->d, x->file, p.line, "out of memory");
	}
	x->s->pats = v;
	v[x->s->npats++] = p;
	return 0;
}

static int read_fault(struct sx *x, xmlNode *n)
{
	struct ibfs_sc_fault f = {.line = line_of(n)};
	int action;
	static const char *const actions[] = {"down", "up"};
	if (unit_attr(x, n, "at", ibfs__parse_time, "time", 0, &f.at) < 0 ||
	    enum_attr(x, n, "action", actions, 2, 0, &action) < 0)
		return -1;
	f.up = action;
	char *link = attr(n, "link"), *sw = attr(n, "switch");
	int rc = 0;
	if (!!link == !!sw) {
		rc = ibfs__diag(x->d, x->file, f.line,
				"<fault> needs exactly one of link=\"node:port\" "
				"and switch=\"id\"");
	} else if (link) {
		rc = ibfs__topo_parse_endpoint(x->s->topo, link, &f.node,
					       &f.port, x->file, f.line, x->d);
		if (!rc && x->s->topo->nodes[f.node].ports[f.port].link < 0)
			rc = ibfs__diag(x->d, x->file, f.line,
					"link=\"%s\": that port has no link",
					link);
	} else {
		f.node = ibfs__topo_find(x->s->topo, sw);
		f.port = 0;
		if (f.node < 0 ||
		    x->s->topo->nodes[f.node].type != IBFS_NODE_SWITCH)
			rc = ibfs__diag(x->d, x->file, f.line,
					"switch=\"%s\": no such switch", sw);
	}
	xmlFree(link);
	xmlFree(sw);
	if (rc < 0)
		return -1;
	struct ibfs_sc_fault *v =
		realloc(x->s->faults, (x->s->nfaults + 1) * sizeof(*v));
	if (!v)
		return ibfs__diag(x->d, x->file, f.line, "out of memory");
	x->s->faults = v;
	v[x->s->nfaults++] = f;
	return 0;
}

static int hca_linked(const struct ibfs_topo_node *n)
{
	for (int p = 1; p <= n->nports; p++)
		if (n->ports[p].peer_node >= 0)
			return 1;
	return 0;
}

/* The default host of the subnet manager: the first HCA with a link. */
static int first_linked_hca(const struct ibfs_topology *t)
{
	int first = -1;
	for (size_t i = 0; i < t->nnodes; i++)
		if (t->nodes[i].type == IBFS_NODE_HCA) {
			if (hca_linked(&t->nodes[i]))
				return (int)i;
			if (first < 0)
				first = (int)i;
		}
	return first;
}

/*
 * Traffic runs between HCAs the subnet manager can reach: one with no
 * link, or in a part of the fabric not joined to the SM's host, gets no
 * LID and no route. Refused at the element naming it (a pattern covers
 * every HCA), so that nothing runs to fail later.
 */
static int check_reach(struct sx *x)
{
	const struct ibfs_topology *t = x->s->topo;
	if (x->s->sm_node < 0)
		return 0;
	char *seen = calloc(t->nnodes ? t->nnodes : 1, 1);
	int *queue = malloc((t->nnodes ? t->nnodes : 1) * sizeof(*queue));
	if (!seen || !queue) {
		free(seen);
		free(queue);
		return ibfs__diag(x->d, x->file, 0, "out of memory");
	}
	size_t qn = 0;
	queue[qn++] = x->s->sm_node;
	seen[x->s->sm_node] = 1;
	for (size_t i = 0; i < qn; i++) {
		const struct ibfs_topo_node *n = &t->nodes[queue[i]];
		for (int p = 1; p <= n->nports; p++) {
			int peer = n->ports[p].peer_node;
			if (peer >= 0 && !seen[peer]) {
				seen[peer] = 1;
				queue[qn++] = peer;
			}
		}
	}
	free(queue);
	const char *sm = t->nodes[x->s->sm_node].id;
	int rc = 0;
	for (size_t i = 0; i < x->s->nmsgs && !rc; i++) {
		const struct ibfs_sc_message *m = &x->s->msgs[i];
		int away = !seen[m->src] ? m->src : !seen[m->dst] ? m->dst : -1;
		if (away >= 0)
			rc = ibfs__diag(x->d, x->file, m->line,
					"'%s' is not linked to the subnet "
					"manager's fabric (on '%s'): it gets no "
					"LID and no route", t->nodes[away].id,
					sm);
	}
	for (size_t i = 0; i < x->s->ngroups && !rc; i++)
		for (int k = 0; k < x->s->groups[i].nmembers && !rc; k++)
			if (!seen[x->s->groups[i].members[k].node])
				rc = ibfs__diag(
					x->d, x->file, x->s->group_lines[i],
					"member '%s' is not linked to the "
					"subnet manager's fabric (on '%s')",
					t->nodes[x->s->groups[i].members[k]
							 .node].id, sm);
	for (size_t i = 0; i < x->s->npats && !rc; i++)
		for (size_t h = 0; h < t->nnodes && !rc; h++)
			if (t->nodes[h].type == IBFS_NODE_HCA && !seen[h])
				rc = ibfs__diag(x->d, x->file,
						x->s->pats[i].line,
						"the pattern covers every HCA, "
						"and '%s' is not linked to the "
						"subnet manager's fabric (on "
						"'%s')", t->nodes[h].id, sm);
	for (size_t i = 0; i < x->s->ncolls && !rc; i++) {
		const struct ibfs_sc_collective *c = &x->s->colls[i];
		for (size_t k = 0; k < c->nmembers && !rc; k++)
			if (!seen[c->members[k]])
				rc = ibfs__diag(x->d, x->file, c->line,
						"'%s' is not linked to the "
						"subnet manager's fabric (on "
						"'%s'): it gets no LID and no "
						"route",
						t->nodes[c->members[k]].id, sm);
	}
	free(seen);
	return rc;
}

/* The <fabric> of a scenario: a file (relative to the scenario) or inline. */
static int read_fabric(struct sx *x, xmlNode *n)
{
	if (x->s->topo)
		return ibfs__diag(x->d, x->file, line_of(n),
				  "a scenario has one <fabric>");
	char *ref = attr(n, "file");
	if (!ref) {
		x->s->topo = ibfs__fabric_xml_read(n, x->file, x->d);
		return x->s->topo ? 0 : -1;
	}
	char path[4096];
	ibfs__sx_resolve(x->file, ref, path, sizeof(path));
	xmlFree(ref);
	struct ibfs_diag inner;
	x->s->topo = ibfs__fabric_xml_load(path, &inner);
	if (!x->s->topo)
		return ibfs__diag(x->d, x->file, line_of(n), "in fabric: %s",
				  inner.msg);
	return 0;
}

static int read_children(struct sx *x, xmlNode *parent)
{
	for (xmlNode *n = parent->children; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		const char *name = (const char *)n->name;
		int rc = 0;
		if (!strcmp(name, "message"))
			rc = read_message(x, n);
		else if (!strcmp(name, "pattern"))
			rc = read_pattern(x, n);
		else if (!strcmp(name, "collective"))
			rc = ibfs__sx_read_collective(x, n);
		else if (!strcmp(name, "multicast"))
			rc = ibfs__sx_read_mcast(x, n);
		else
			rc = ibfs__diag(x->d, x->file, line_of(n),
					"unexpected <%s> in <traffic>", name);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* <sample interval>: the run's samples (scenario/sampler.h), above 0. */
static int read_sample(struct sx *x, xmlNode *n)
{
	uint64_t v;

	if (unit_attr(x, n, "interval", ibfs__parse_time, "time", 0, &v) < 0)
		return -1;
	if (!v)
		return ibfs__diag(x->d, x->file, line_of(n),
				  "<sample> interval must be above 0");
	x->s->sample_interval = v;
	return 0;
}

static int read_scenario(struct sx *x, xmlNode *root)
{
	/* The fabric first: every other element refers to its nodes. */
	for (xmlNode *n = root->children; n; n = n->next)
		if (n->type == XML_ELEMENT_NODE &&
		    !strcmp((const char *)n->name, "fabric") &&
		    read_fabric(x, n) < 0)
			return -1;
	if (!x->s->topo)
		return ibfs__diag(x->d, x->file, line_of(root),
				  "a scenario needs a <fabric>");
	if (ibfs__hca_check_profiles(x->s->topo, x->d) < 0)
		return -1;
	/* The groups next: traffic names them wherever they are. */
	for (xmlNode *n = root->children; n; n = n->next)
		if (n->type == XML_ELEMENT_NODE &&
		    !strcmp((const char *)n->name, "multicast-group") &&
		    ibfs__sx_read_group(x, n) < 0)
			return -1;
	x->s->sm_node = -1;
	for (xmlNode *n = root->children; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		const char *name = (const char *)n->name;
		int rc = 0, model;
		if (!strcmp(name, "fabric") ||
		    !strcmp(name, "multicast-group"))
			continue;
		if (!strcmp(name, "subnet-manager")) {
			rc = ibfs__sx_read_sm(x, n);
		} else if (!strcmp(name, "transport")) {
			rc = enum_attr(x, n, "model", model_names, 4, 0, &model);
			x->s->model = model;
			if (!rc)
				rc = ibfs__sx_read_transport(x, n);
		} else if (!strcmp(name, "traffic")) {
			rc = read_children(x, n);
		} else if (!strcmp(name, "fault")) {
			rc = read_fault(x, n);
		} else if (!strcmp(name, "multicast-join") ||
			   !strcmp(name, "multicast-leave")) {
			rc = ibfs__sx_read_mjoin(x, n,
						 !strcmp(name, "multicast-leave"));
		} else if (!strcmp(name, "stop")) {
			rc = unit_attr(x, n, "at", ibfs__parse_time, "time",
				       IBFS_TIME_NEVER, &x->s->stop_at);
		} else if (!strcmp(name, "sample")) {
			rc = read_sample(x, n);
		} else {
			rc = ibfs__diag(x->d, x->file, line_of(n),
					"unknown element <%s>", name);
		}
		if (rc < 0)
			return -1;
	}
	if (x->s->sm_node < 0)
		x->s->sm_node = first_linked_hca(x->s->topo);
	if (ibfs__sx_mcast_finish(x) < 0 || ibfs__sx_mjoin_finish(x) < 0 ||
	    check_reach(x) < 0)
		return -1;
	return ibfs__scenario_check_pkeys(x->s, x->d);
}

int ibfs__scenario_set_profile(struct ibfs_scenario *s, const char *name,
			       struct ibfs_diag *d)
{
	if (!ibfs__hca_profile(name))
		return ibfs__diag(d, "--profile", 0, "no profile '%s' (ideal, "
				  "connectx-4-edr, connectx-6-hdr, "
				  "connectx-7-ndr)", name);
	char *own = strdup(name);
	for (size_t i = 0; own && i < s->topo->nnodes; i++) {
		struct ibfs_topo_node *n = &s->topo->nodes[i];
		char *p = n->type == IBFS_NODE_HCA ? strdup(name) : NULL;
		if (n->type == IBFS_NODE_HCA && !p) {
			free(own);
			own = NULL;
			break;
		}
		if (p) {
			free(n->profile);
			n->profile = p;
		}
	}
	if (!own)
		return ibfs__diag(d, "--profile", 0, "out of memory");
	free(s->hca_profile);
	s->hca_profile = own;
	return 0;
}

void ibfs__scenario_free(struct ibfs_scenario *s)
{
	if (!s)
		return;
	ibfs__topo_free(s->topo);
	free(s->name);
	free(s->file);
	free(s->routing);
	free(s->eth.switch_profile);
	ibfs__sc_cc_free(&s->eth);
	free(s->lfts);
	free(s->hca_profile);
	ibfs__partitions_free(s->partitions);
	free(s->msgs);
	for (size_t i = 0; i < s->npats; i++)
		ibfs__flow_cdf_free(s->pats[i].cdf);
	free(s->pats);
	for (size_t i = 0; i < s->ncolls; i++)
		free(s->colls[i].members);
	free(s->colls);
	free(s->faults);
	ibfs__sx_mcast_free(s);
	free(s->mjoins);
	free(s);
}

/*
 * The grammar refused the scenario: when a fabric written inline is at
 * fault, its reader names the attribute and the line (as for a fabric
 * file, xml_fabric.c), where the grammar only says that an element was
 * not expected there. Returns -1 with d filled either way.
 */
static int sx_schema_words(xmlNode *root, const char *path,
			   const struct ibfs_diag *schema, struct ibfs_diag *d)
{
	for (xmlNode *n = root->children; n; n = n->next)
		if (n->type == XML_ELEMENT_NODE &&
		    !strcmp((const char *)n->name, "fabric") &&
		    !xmlHasProp(n, (const xmlChar *)"file")) {
			struct ibfs_topology *t =
				ibfs__fabric_xml_read(n, path, d);

			if (!t)
				return -1;
			ibfs__topo_free(t);
		}
	*d = *schema;
	return -1;
}

struct ibfs_scenario *ibfs__scenario_load(const char *path,
					  struct ibfs_diag *d)
{
	xmlDoc *doc = ibfs__xml_parse_file(path, d);
	if (!doc)
		return NULL;
	struct ibfs_scenario *s = ibfs__scenario_load_doc(doc, path, d);
	xmlFreeDoc(doc);
	return s;
}

struct ibfs_scenario *ibfs__scenario_load_doc(struct _xmlDoc *doc,
					      const char *path,
					      struct ibfs_diag *d)
{
	xmlNode *root = xmlDocGetRootElement(doc);
	struct ibfs_scenario *s = NULL;
	if (!root || strcmp((const char *)root->name, "scenario")) {
		ibfs__diag(d, path, root ? line_of(root) : 0,
			   "the root element must be <scenario>");
		goto out;
	}
	struct ibfs_diag schema;

	if (ibfs__scenario_check_form(root, path, d) < 0)
		goto out;
	if (ibfs__xml_check_schema(doc, "scenario.rng", path, &schema) < 0) {
		sx_schema_words(root, path, &schema, d);
		goto out;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		ibfs__diag(d, path, 0, "out of memory");
		goto out;
	}
	s->file = strdup(path);
	char *name = attr(root, "name");
	s->name = strdup(name ? name : "scenario");
	xmlFree(name);
	s->routing = strdup("minhop");
	s->stop_at = IBFS_TIME_NEVER;
	s->eth.pfc = 1;
	struct sx x = {path, d, s};
	if (!s->file || !s->name || !s->routing || read_scenario(&x, root) < 0) {
		if (!s->file || !s->name || !s->routing)
			ibfs__diag(d, path, 0, "out of memory");
		ibfs__scenario_free(s);
		s = NULL;
	}
out:
	return s;
}
