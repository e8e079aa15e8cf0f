/* SPDX-License-Identifier: MIT */
/*
 * The partitions.conf reader (partitions.h). A small cursor parser over
 * the whole text: words are runs of characters other than blanks and the
 * delimiters '=', ',', ':', ';' and '#' (in a member list ':' belongs to
 * the word, for `node:port`); blanks and line breaks may stand between
 * any two tokens, and '#' starts a comment to the end of the line. Each
 * error names the line of the token at fault, or of the entry's start
 * when the file ends inside it. Members are checked against the fabric
 * as they are read; ALL, ALL_CAS, ALL_SWITCHES and SELF are resolved when
 * the tables are laid out (pkey_plan.c).
 */
#include "subnet_manager/partitions.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PRTN_WORD 128

struct pc {
	const char *s;
	size_t i;
	long line;
	const char *file;
	const struct ibfs_topology *t;
	struct ibfs_diag *d;
	struct ibfs_partitions *pp;
};

static void pc_skip(struct pc *c)
{
	for (;;) {
		char ch = c->s[c->i];

		if (ch == '\n') {
			c->line++;
			c->i++;
		} else if (ch == '#') {
			while (c->s[c->i] && c->s[c->i] != '\n')
				c->i++;
		} else if (ch && isspace((unsigned char)ch)) {
			c->i++;
		} else {
			return;
		}
	}
}

/* The next character after blanks and comments ('\0' at the end). */
static char pc_peek(struct pc *c)
{
	pc_skip(c);
	return c->s[c->i];
}

static int pc_delim(char ch, int colon)
{
	return ch == '=' || ch == ',' || ch == ';' || ch == '#' ||
	       (colon && ch == ':');
}

/* Reads a word into w (may be empty); -1 if it is too long. */
static int pc_word(struct pc *c, char *w, int colon)
{
	size_t n = 0;

	pc_skip(c);
	while (c->s[c->i] && !isspace((unsigned char)c->s[c->i]) &&
	       !pc_delim(c->s[c->i], colon)) {
		if (n + 1 >= PRTN_WORD)
			return ibfs__diag(c->d, c->file, c->line,
					  "'%.20s...' is too long", w);
		w[n++] = c->s[c->i++];
		w[n] = '\0';
	}
	w[n] = '\0';
	return 0;
}

static int pc_number(const char *w, uint64_t max, uint64_t *v)
{
	char *end;

	if (!isdigit((unsigned char)w[0]))
		return -1;
	errno = 0;
	unsigned long long x = strtoull(w, &end, 0);
	if (errno || *end || x > max)
		return -1;
	*v = x;
	return 0;
}

static struct ibfs_prtn *pc_partition(struct pc *c, uint16_t pkey,
				      const char *name, long line)
{
	struct ibfs_partitions *pp = c->pp;

	for (size_t k = 0; k < pp->n; k++)
		if (pp->p[k].pkey == pkey)
			return &pp->p[k]; /* merged, as OpenSM does */
	if (pp->n == pp->cap) {
		size_t cap = pp->cap ? 2 * pp->cap : 8;
		struct ibfs_prtn *v = realloc(pp->p, cap * sizeof(*v));

		if (!v)
			return NULL;
		pp->p = v;
		pp->cap = cap;
	}
	struct ibfs_prtn *p = &pp->p[pp->n++];

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->pkey = pkey;
	p->line = line;
	return p;
}

static int pc_add(struct ibfs_prtn *p, struct ibfs_prtn_member m)
{
	if (p->nm == p->mcap) {
		size_t cap = p->mcap ? 2 * p->mcap : 8;
		struct ibfs_prtn_member *v = realloc(p->m, cap * sizeof(*v));

		if (!v)
			return -1;
		p->m = v;
		p->mcap = cap;
	}
	p->m[p->nm++] = m;
	return 0;
}

static int pc_membership(struct pc *c, const char *w, uint8_t *full)
{
	if (!strcmp(w, "full") || !strcmp(w, "both"))
		*full = IBFS_PRTN_FULL;
	else if (!strcmp(w, "limited"))
		*full = IBFS_PRTN_LIMITED;
	else
		return ibfs__diag(c->d, c->file, c->line,
				  "membership '%s': full, limited or both", w);
	return 0;
}

/* One flag of a definition: `name` and, after '=', `val` (or NULL). */
static int pc_flag(struct pc *c, struct ibfs_prtn *p, const char *name,
		   const char *val, uint8_t *defmember)
{
	static const struct {
		const char *name;
		uint64_t min, max;
	} nums[] = {{"mtu", 1, 5}, {"rate", 2, 22}, {"sl", 0, 15},
		    {"scope", 1, 15}};
	uint64_t v;

	if (!strcmp(name, "ipoib") && !val) {
		p->ipoib = 1;
		return 0;
	}
	if (!strcmp(name, "defmember") && val)
		return pc_membership(c, val, defmember);
	if (!strcmp(name, "indx0"))
		return ibfs__diag(c->d, c->file, c->line,
				  "indx0 is not modelled: P_Keys take the "
				  "free entries in order");
	for (size_t k = 0; k < sizeof(nums) / sizeof(*nums); k++) {
		if (strcmp(name, nums[k].name))
			continue;
		if (!val || pc_number(val, nums[k].max, &v) < 0 ||
		    v < nums[k].min)
			return ibfs__diag(c->d, c->file, c->line,
					  "%s needs a value from %llu to %llu "
					  "(IBA codes), not '%s'", name,
					  (unsigned long long)nums[k].min,
					  (unsigned long long)nums[k].max,
					  val ? val : "");
		if (k == 0)
			p->mtu = (uint8_t)v;
		else if (k == 1)
			p->rate = (uint8_t)v;
		else if (k == 2)
			p->sl = (uint8_t)v;
		return 0;
	}
	return ibfs__diag(c->d, c->file, c->line,
			  "unknown partition flag '%s' (ipoib, mtu=, rate=, "
			  "sl=, scope=, defmember=)", name);
}

/* The end port a GUID names: a CA port, or a switch's port 0. */
static int pc_guid(struct pc *c, const char *w, struct ibfs_prtn_member *m)
{
	uint64_t g;

	if (pc_number(w, UINT64_MAX, &g) < 0)
		return ibfs__diag(c->d, c->file, c->line,
				  "'%s' is not a GUID", w);
	for (size_t n = 0; n < c->t->nnodes; n++) {
		const struct ibfs_topo_node *tn = &c->t->nodes[n];

		if (tn->type == IBFS_NODE_SWITCH && tn->guid == g) {
			m->node = (int)n;
			m->port = 0;
			return 0;
		}
		for (int p = 1; tn->type != IBFS_NODE_SWITCH &&
				p <= tn->nports; p++)
			if (tn->ports[p].guid == g) {
				m->node = (int)n;
				m->port = p;
				return 0;
			}
	}
	return ibfs__diag(c->d, c->file, c->line,
			  "no end port of the fabric has GUID 0x%016llx",
			  (unsigned long long)g);
}

/* ibfsim's members: `node` (its end ports) or `node:port`. */
static int pc_node(struct pc *c, const char *w, struct ibfs_prtn_member *m)
{
	char id[PRTN_WORD];
	const char *colon = strrchr(w, ':');

	snprintf(id, sizeof(id), "%.*s",
		 (int)(colon ? (size_t)(colon - w) : strlen(w)), w);
	int n = ibfs__topo_find(c->t, id);

	if (n < 0)
		return ibfs__diag(c->d, c->file, c->line,
				  "unknown member '%s' (ALL, ALL_CAS, "
				  "ALL_SWITCHES, SELF, a port GUID, a node id "
				  "or node:port)", w);
	const struct ibfs_topo_node *tn = &c->t->nodes[n];
	uint64_t port;

	m->node = n;
	m->who = IBFS_PRTN_NODE;
	if (!colon)
		return 0;
	if (pc_number(colon + 1, 255, &port) < 0 ||
	    (int)port > tn->nports ||
	    (tn->type == IBFS_NODE_SWITCH ? port != 0 : port == 0))
		return ibfs__diag(c->d, c->file, c->line,
				  "'%s': %s", w,
				  tn->type == IBFS_NODE_SWITCH ?
					  "a switch's end port is port 0" :
					  "no such port");
	m->who = IBFS_PRTN_PORT;
	m->port = (int)port;
	return 0;
}

static int pc_member(struct pc *c, struct ibfs_prtn *p, const char *w,
		     uint8_t defmember)
{
	static const char *const kw[] = {"ALL", "ALL_CAS", "ALL_SWITCHES",
					 "SELF"};
	struct ibfs_prtn_member m = {.full = defmember, .line = c->line};
	char v[PRTN_WORD];
	size_t k = 0;

	while (k < 4 && strcmp(w, kw[k]))
		k++;
	if (!strcmp(w, "mgid"))
		return ibfs__diag(c->d, c->file, c->line,
				  "multicast groups (mgid=) are not modelled");
	if (!strcmp(w, "ALL_ROUTERS"))
		return ibfs__diag(c->d, c->file, c->line,
				  "ALL_ROUTERS: the model has no routers");
	if (k < 4)
		m.who = (enum ibfs_prtn_who)k;
	else if (isdigit((unsigned char)w[0]) ? pc_guid(c, w, &m) < 0 :
						pc_node(c, w, &m) < 0)
		return -1;
	if (k >= 4 && isdigit((unsigned char)w[0]))
		m.who = IBFS_PRTN_PORT;
	if (pc_peek(c) == '=') {
		c->i++;
		if (pc_word(c, v, 0) < 0 || pc_membership(c, v, &m.full) < 0)
			return -1;
	}
	if (pc_add(p, m) < 0)
		return ibfs__diag(c->d, c->file, c->line, "out of memory");
	return 0;
}

/* Name=PKey[,flag[=value]]... up to the ':'. */
static struct ibfs_prtn *pc_definition(struct pc *c, uint8_t *defmember)
{
	char name[PRTN_WORD], w[PRTN_WORD], v[PRTN_WORD];
	long line = c->line;
	uint64_t pkey;

	if (pc_word(c, name, 1) < 0)
		return NULL;
	if (pc_peek(c) != '=') {
		ibfs__diag(c->d, c->file, c->line,
			   "partition '%s' needs '=P_Key' (ibfsim does not "
			   "make P_Keys up)", name);
		return NULL;
	}
	c->i++;
	if (pc_word(c, w, 1) < 0)
		return NULL;
	if (pc_number(w, 0xffff, &pkey) < 0 || !(pkey & 0x7fff)) {
		ibfs__diag(c->d, c->file, c->line,
			   "P_Key '%s': a number from 0x0001 to 0x7fff (bit "
			   "15 is ignored; 0 is the invalid P_Key)", w);
		return NULL;
	}
	struct ibfs_prtn *p = pc_partition(c, (uint16_t)(pkey & 0x7fff), name,
					   line);
	if (!p) {
		ibfs__diag(c->d, c->file, line, "out of memory");
		return NULL;
	}
	*defmember = IBFS_PRTN_LIMITED;
	while (pc_peek(c) == ',') {
		c->i++;
		if (pc_word(c, w, 1) < 0)
			return NULL;
		int has = pc_peek(c) == '=';

		if (has) {
			c->i++;
			if (pc_word(c, v, 1) < 0)
				return NULL;
		}
		if (pc_flag(c, p, w, has ? v : NULL, defmember) < 0)
			return NULL;
	}
	if (pc_peek(c) != ':') {
		if (!c->s[c->i])
			ibfs__diag(c->d, c->file, line,
				   "the entry has no ':' before the end of "
				   "the file");
		else
			ibfs__diag(c->d, c->file, c->line,
				   "'%c' where the definition ends with ':'",
				   c->s[c->i]);
		return NULL;
	}
	c->i++;
	return p;
}

/* One entry, definition to ';'. */
static int pc_entry(struct pc *c)
{
	long line = c->line;
	uint8_t defmember;
	struct ibfs_prtn *p = pc_definition(c, &defmember);
	char w[PRTN_WORD];

	if (!p)
		return -1;
	size_t pi = (size_t)(p - c->pp->p);

	for (;;) {
		char ch = pc_peek(c);

		if (ch == ';') {
			c->i++;
			return 0;
		}
		if (!ch)
			return ibfs__diag(c->d, c->file, line,
					  "the entry does not end with ';'");
		if (pc_word(c, w, 0) < 0)
			return -1;
		if (!w[0])
			return ibfs__diag(c->d, c->file, c->line,
					  "'%c' where a member should be", ch);
		if (pc_member(c, &c->pp->p[pi], w, defmember) < 0)
			return -1;
		ch = pc_peek(c);
		if (ch == ',')
			c->i++;
		else if (ch != ';' && ch)
			return ibfs__diag(c->d, c->file, c->line,
					  "'%c' after member '%s': ',' or ';' "
					  "should follow it", ch, w);
	}
}

struct ibfs_partitions *ibfs__partitions_parse(const char *text,
					       const char *file,
					       const struct ibfs_topology *t,
					       struct ibfs_diag *d)
{
	struct ibfs_partitions *pp = calloc(1, sizeof(*pp));
	struct pc c = {.s = text, .line = 1, .file = file, .t = t, .d = d,
		       .pp = pp};

	if (!pp || !(pp->file = strdup(file))) {
		ibfs__partitions_free(pp);
		ibfs__diag(d, file, 0, "out of memory");
		return NULL;
	}
	pp->from_file = 1;
	while (pc_peek(&c))
		if (pc_entry(&c) < 0) {
			ibfs__partitions_free(pp);
			return NULL;
		}
	return pp;
}

struct ibfs_partitions *ibfs__partitions_load(const char *path,
					      const struct ibfs_topology *t,
					      struct ibfs_diag *d)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0;

	if (!fp) {
		ibfs__diag(d, path, 0, "cannot read: %s", strerror(errno));
		return NULL;
	}
	for (;;) {
		if (len + 4096 + 1 > cap) {
			cap = cap ? 2 * cap : 8192;
			char *b = realloc(buf, cap);

			if (!b)
				break;
			buf = b;
		}
		size_t r = fread(buf + len, 1, cap - len - 1, fp);

		len += r;
		if (r == 0)
			break;
	}
	int bad = ferror(fp) || !buf;

	fclose(fp);
	if (bad) {
		free(buf);
		ibfs__diag(d, path, 0, "cannot read it");
		return NULL;
	}
	buf[len] = '\0';
	if (strlen(buf) != len) {
		free(buf);
		ibfs__diag(d, path, 0, "holds a NUL byte: not a text file");
		return NULL;
	}
	struct ibfs_partitions *pp = ibfs__partitions_parse(buf, path, t, d);

	free(buf);
	return pp;
}

struct ibfs_partitions *ibfs__partitions_default(void)
{
	struct ibfs_partitions *pp = calloc(1, sizeof(*pp));
	struct pc c = {.pp = pp};
	struct ibfs_prtn *p = pp ? pc_partition(&c, 0x7fff, "Default", 0) :
				   NULL;
	struct ibfs_prtn_member all = {.who = IBFS_PRTN_ALL,
				       .full = IBFS_PRTN_FULL};

	if (!p || pc_add(p, all) < 0) {
		ibfs__partitions_free(pp);
		return NULL;
	}
	return pp;
}

void ibfs__partitions_free(struct ibfs_partitions *pp)
{
	if (!pp)
		return;
	for (size_t k = 0; k < pp->n; k++)
		free(pp->p[k].m);
	free(pp->p);
	free(pp->file);
	free(pp);
}

const struct ibfs_prtn *
ibfs__partitions_find(const struct ibfs_partitions *pp, uint16_t pkey)
{
	for (size_t k = 0; pp && k < pp->n; k++)
		if (pp->p[k].pkey == (pkey & 0x7fff))
			return &pp->p[k];
	return NULL;
}
