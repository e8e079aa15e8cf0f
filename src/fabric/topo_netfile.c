/* SPDX-License-Identifier: MIT */
/*
 * Parser of ibnetdiscover / ibsim .net topology files (see topo_netfile.h).
 * Records are a header line
 *     Switch 36 "name"   # "description" ...
 *     Ca|Hca 2 "name"    # "description"
 * followed by one line per connected port
 *     [1](guid)  "remote"[3](guid)  # ... 4xEDR      (ibnetdiscover)
 *     [1]  "remote"[3]  w=4 s=7 e=3                  (ibsim)
 * Each link appears at both ends; the two must agree. Two passes: nodes
 * first (a port line may name a node defined further down), then links.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/topo_netfile.h"

struct nf_port {
	int node;          /* local node index */
	int port, rport;
	char *rname;
	int width;         /* lanes, 0 = default */
	int speed;         /* enum ibfs_speed, -1 = default */
	long line;
};

struct nf {
	const char *file;
	struct ibfs_diag *d;
	struct ibfs_topology *t;
	struct nf_port *ports;
	size_t np, cap;
};

static char *nf_skip(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Reads a quoted string at s into out; returns the char after it. */
static char *nf_quoted(char *s, char *out, size_t len)
{
	if (*s != '"')
		return NULL;
	char *e = strchr(s + 1, '"');
	if (!e || (size_t)(e - s - 1) >= len)
		return NULL;
	memcpy(out, s + 1, (size_t)(e - s - 1));
	out[e - s - 1] = 0;
	return e + 1;
}

/* "[N]" possibly followed by "(hexguid)" or "[ext N]". */
static char *nf_portnum(char *s, int *port)
{
	if (*s != '[')
		return NULL;
	char *e;
	long v = strtol(s + 1, &e, 10);
	if (e == s + 1 || *e != ']' || v < 1 || v > IBFS_TOPO_MAX_PORTS)
		return NULL;
	*port = (int)v;
	s = e + 1;
	if (*s == '(') {
		char *c = strchr(s, ')');
		if (!c)
			return NULL;
		s = c + 1;
	}
	if (!strncmp(s, "[ext ", 5)) {
		char *c = strchr(s, ']');
		if (!c)
			return NULL;
		s = c + 1;
	}
	return s;
}

/*
 * ibsim's "w=N" is the IBA PortInfo LinkWidthEnabled code (IBA 14.2.5.6):
 * 1 = 1x, 2 = 4x, 4 = 8x, 8 = 12x, 16 = 2x (checked with ibsim 0.12 and
 * ibnetdiscover). Returns the lanes, or -1.
 */
static int nf_width_code(const char *s)
{
	static const struct { const char *code; int lanes; } w[] = {
		{"1", 1}, {"2", 4}, {"4", 8}, {"8", 12}, {"16", 2},
	};
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (!strcmp(s, w[i].code))
			return w[i].lanes;
	return -1;
}

/*
 * ibsim's "s=N" and "e=N" are PortInfo LinkSpeedEnabled (1 SDR, 2 DDR,
 * 4 QDR; 0 QDR for ibsim) and LinkSpeedExtEnabled (1 FDR, 2 EDR, 4 HDR,
 * 8 NDR) (IBA 14.2.5.6): the port runs at the fastest speed enabled.
 * Returns that speed, or -1 for a code out of range.
 */
static int nf_speed_code(const char *s, int ext)
{
	char *e;
	long v = strtol(s, &e, 0);
	if (e == s || *e || v < 0 || v > (ext ? 15 : 7))
		return -1;
	static const int fast[] = {IBFS_SPEED_NDR, IBFS_SPEED_HDR,
				   IBFS_SPEED_EDR, IBFS_SPEED_FDR};
	if (ext) {
		for (int b = 3; b >= 0; b--)
			if (v & (1 << b))
				return fast[3 - b];
		return IBFS_SPEED_COUNT; /* none: s= decides */
	}
	return v & 4 || !v ? IBFS_SPEED_QDR
	       : v & 2   ? IBFS_SPEED_DDR
			 : IBFS_SPEED_SDR;
}

/*
 * Picks "NxSPEED" (e.g. 4xEDR, ibnetdiscover's active speed) and ibsim's
 * "w=N", "s=N" and "e=N" out of the rest of a line; NxSPEED wins over the
 * codes, e= over s=. Returns 0, or -1, -2, -3 for a w=, s= or e= value
 * that is not such a code.
 */
static int nf_link_attrs(char *s, int *width, int *speed)
{
	*width = 0;
	*speed = -1;
	int named = 0, s_code = -1, e_code = IBFS_SPEED_COUNT;
	char *tok = strtok(s, " \t\n#\"");
	while (tok) {
		if (!strncmp(tok, "w=", 2)) {
			*width = nf_width_code(tok + 2);
			if (*width < 0)
				return -1;
		} else if (!strncmp(tok, "s=", 2)) {
			if ((s_code = nf_speed_code(tok + 2, 0)) < 0)
				return -2;
		} else if (!strncmp(tok, "e=", 2)) {
			if ((e_code = nf_speed_code(tok + 2, 1)) < 0)
				return -3;
		} else if (isdigit((unsigned char)tok[0])) {
			char *x = strchr(tok, 'x');
			enum ibfs_speed sp;
			if (x && x[1] && !ibfs__speed_parse(x + 1, &sp)) {
				*speed = (int)sp;
				*width = atoi(tok);
				named = 1;
			}
		}
		tok = strtok(NULL, " \t\n#\"");
	}
	if (!named)
		*speed = e_code != IBFS_SPEED_COUNT ? e_code : s_code;
	return 0;
}

static int nf_add_port(struct nf *p, const struct nf_port *pt)
{
	if (p->np == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 64;
		void *n = realloc(p->ports, cap * sizeof(*p->ports));
		if (!n)
			return ibfs__diag(p->d, p->file, pt->line,
					  "out of memory");
		p->ports = n;
		p->cap = cap;
	}
	p->ports[p->np++] = *pt;
	return 0;
}

static int nf_parse(struct nf *p, FILE *f)
{
	char line[4096];
	long ln = 0;
	int cur = -1;
	uint64_t next_sw = IBFS_TOPO_SWITCH_GUID_BASE;
	uint64_t next_ca = IBFS_TOPO_CA_GUID_BASE;
	while (fgets(line, sizeof(line), f)) {
		ln++;
		if (!strchr(line, '\n') && !feof(f))
			return ibfs__diag(p->d, p->file, ln,
					  "line longer than %zu characters",
					  sizeof(line) - 2);
		char *s = nf_skip(line);
		if (*s == '#')
			continue;
		if (*s == '\n' || *s == '\r' || !*s) {
			cur = -1;
			continue;
		}
		if (!strncmp(s, "switchguid=", 11) ||
		    !strncmp(s, "caguid=", 7)) {
			int sw = s[0] == 's';
			char *v = s + (sw ? 11 : 7), *e;
			errno = 0;
			unsigned long long g = strtoull(v, &e, 16);
			if (e == v || errno || !g)
				return ibfs__diag(p->d, p->file, ln,
						  "bad GUID after '%s'",
						  sw ? "switchguid=" : "caguid=");
			if (sw)
				next_sw = g;
			else
				next_ca = g;
			continue;
		}
		if (!strncmp(s, "vendid=", 7) || !strncmp(s, "devid=", 6) ||
		    !strncmp(s, "sysimgguid=", 11))
			continue;
		if (*s == '[') {
			struct nf_port pt = {.node = cur, .line = ln};
			if (cur < 0)
				return ibfs__diag(p->d, p->file, ln,
						  "a port line outside a node record");
			char name[256];
			char *r = nf_portnum(s, &pt.port);
			if (r)
				r = nf_quoted(nf_skip(r), name, sizeof(name));
			r = r ? nf_portnum(r, &pt.rport) : NULL;
			if (!r)
				return ibfs__diag(p->d, p->file, ln,
						  "expected '[port] \"remote\"[port]'");
			if (pt.port > p->t->nodes[cur].nports)
				return ibfs__diag(p->d, p->file, ln,
						  "port %d of '%s', which has %d ports",
						  pt.port, p->t->nodes[cur].id,
						  p->t->nodes[cur].nports);
			static const char *const bad_code[] = {
				"a 'w=' width must be ibsim's code 1, 2, 4, 8 or 16 (1x, 4x, 8x, 12x, 2x)",
				"an 's=' speed must be ibsim's code 0 to 7 (LinkSpeedEnabled bits: 1 SDR, 2 DDR, 4 QDR)",
				"an 'e=' speed must be ibsim's code 0 to 15 (LinkSpeedExtEnabled bits: 1 FDR, 2 EDR, 4 HDR, 8 NDR)",
			};
			int bad = nf_link_attrs(r, &pt.width, &pt.speed);
			if (bad)
				return ibfs__diag(p->d, p->file, ln, "%s",
						  bad_code[-bad - 1]);
			pt.rname = strdup(name);
			if (!pt.rname || nf_add_port(p, &pt)) {
				free(pt.rname);
				return ibfs__diag(p->d, p->file, ln,
						  "out of memory");
			}
			continue;
		}
		/* A node header. */
		enum ibfs_node_type ty;
		size_t wl = strcspn(s, " \t");
		if (wl == 6 && !strncmp(s, "Switch", 6))
			ty = IBFS_NODE_SWITCH;
		else if ((wl == 3 && !strncmp(s, "Hca", 3)) ||
			 (wl == 2 && !strncmp(s, "Ca", 2)))
			ty = IBFS_NODE_HCA;
		else if (wl == 2 && !strncmp(s, "Rt", 2))
			return ibfs__diag(p->d, p->file, ln,
					  "routers (Rt) are not modelled");
		else
			return ibfs__diag(p->d, p->file, ln,
					  "expected a 'Switch', 'Ca' or 'Hca' record, a port line or a GUID line, not '%.*s'",
					  (int)strcspn(s, "\r\n"), s);
		char *e;
		long np = strtol(s + wl, &e, 10);
		char name[256], desc[256];
		char *r = e != s + wl ? nf_quoted(nf_skip(e), name,
						  sizeof(name))
				      : NULL;
		if (!r)
			return ibfs__diag(p->d, p->file, ln,
					  "expected 'TYPE PORTS \"name\"'");
		/*
		 * A count past 255 is refused here, as written: cast to int
		 * it could wrap into range (4294967297 ports read as 1).
		 */
		if (np < 0 || np > 255) {
			const char *digits = nf_skip(s + wl);

			return ibfs__diag(p->d, p->file, ln,
					  "'%s' has %.*s ports; a node has 1 to 254 (IBA NodeInfo NumPorts, port 255 reserved)",
					  name, (int)(e - digits), digits);
		}
		cur = ibfs__topo_add_node(p->t, name, ty, (int)np, ln, p->d);
		if (cur < 0)
			return -1;
		struct ibfs_topo_node *n = &p->t->nodes[cur];
		char *c = strchr(r, '#');
		if (c && nf_quoted(nf_skip(c + 1), desc, sizeof(desc)) &&
		    desc[0]) {
			char *dd = strdup(desc);
			if (dd) {
				free(n->desc);
				n->desc = dd;
			}
		}
		if (ty == IBFS_NODE_SWITCH) {
			n->guid = next_sw++;
		} else {
			n->guid = next_ca;
			next_ca += (uint64_t)np + 1;
		}
	}
	if (ferror(f))
		return ibfs__diag(p->d, p->file, ln, "read error");
	return 0;
}

static int nf_links(struct nf *p)
{
	struct ibfs_topology *t = p->t;
	for (size_t i = 0; i < p->np; i++) {
		struct nf_port *pt = &p->ports[i];
		int b = ibfs__topo_find(t, pt->rname);
		if (b < 0)
			return ibfs__diag(p->d, p->file, pt->line,
					  "'%s' is not defined in this file",
					  pt->rname);
		if (pt->rport > t->nodes[b].nports)
			return ibfs__diag(p->d, p->file, pt->line,
					  "port %d of '%s', which has %d ports",
					  pt->rport, pt->rname,
					  t->nodes[b].nports);
		const struct ibfs_topo_port *la, *lb;
		la = &t->nodes[pt->node].ports[pt->port];
		lb = &t->nodes[b].ports[pt->rport];
		if (la->peer_node == b && la->peer_port == pt->rport)
			continue; /* the other end listed it already */
		if (la->peer_node >= 0 || lb->peer_node >= 0) {
			const struct ibfs_topo_port *u =
				la->peer_node >= 0 ? la : lb;
			return ibfs__diag(p->d, p->file, pt->line,
					  "%s:%d - %s:%d contradicts the link to %s:%d given before",
					  t->nodes[pt->node].id, pt->port,
					  pt->rname, pt->rport,
					  t->nodes[u->peer_node].id,
					  u->peer_port);
		}
		int w = pt->width > 0 ? pt->width : t->def.width;
		enum ibfs_speed sp = pt->speed >= 0 ? (enum ibfs_speed)pt->speed
						    : t->def.speed;
		if (ibfs__topo_add_link(t, pt->node, pt->port, b, pt->rport, sp,
					w, t->def.cable_mm, pt->line,
					p->d) < 0)
			return -1;
	}
	return 0;
}

struct ibfs_topology *ibfs__netfile_read(FILE *f, const char *name,
					 struct ibfs_diag *d)
{
	struct nf p = {.file = name, .d = d};
	const char *base = strrchr(name, '/');
	p.t = ibfs__topo_new(base ? base + 1 : name);
	if (!p.t) {
		ibfs__diag(d, name, 0, "out of memory");
		return NULL;
	}
	free(p.t->file);
	p.t->file = strdup(name);
	int rc = nf_parse(&p, f);
	if (!rc)
		rc = nf_links(&p);
	if (!rc && !p.t->nnodes)
		rc = ibfs__diag(d, name, 0, "no Switch or Ca record");
	for (size_t i = 0; i < p.np; i++)
		free(p.ports[i].rname);
	free(p.ports);
	if (!rc) {
		/* Port GUIDs as ibsim derives them from the node GUIDs. */
		p.t->guids_pinned = 1;
		ibfs__topo_assign_guids(p.t, IBFS_TOPO_SWITCH_GUID_BASE,
					IBFS_TOPO_CA_GUID_BASE);
		return p.t;
	}
	ibfs__topo_free(p.t);
	return NULL;
}

struct ibfs_topology *ibfs__netfile_load(const char *path,
					 struct ibfs_diag *d)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		ibfs__diag(d, path, 0, "cannot open: %s", strerror(errno));
		return NULL;
	}
	struct ibfs_topology *t = ibfs__netfile_read(f, path, d);
	fclose(f);
	return t;
}
