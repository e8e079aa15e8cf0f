/* SPDX-License-Identifier: MIT */
/*
 * The fabric XML loader (docs/fabric-format.md). A file is parsed safely
 * (no network, no external entities) and validated against
 * platforms/fabric.rng (xml_doc.c), then read element by element into a
 * struct ibfs_topology, checking what a grammar cannot: unique ids, link
 * endpoints naming existing nodes and free ports in range, and values
 * that must parse exactly (units.h).
 *
 * The reader repeats the grammar's checks of names and values, so an inline
 * <fabric> inside a scenario gets the same messages, and when the schema
 * rejects a file the reader's sentence (which names the attribute and the
 * rule) is reported in place of libxml2's terser one when it finds the
 * fault; the schema's own message is kept for anything else.
 *
 * Every error leaves nothing behind: the half-built topology is freed and
 * the caller gets NULL and one "FILE:LINE: what is wrong" in the diag.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>

#include "fabric/topo_gen.h"
#include "fabric/units.h"
#include "fabric/xml_fabric.h"

/* At most this many attributes on one element (generate has the most). */
#define FX_MAX_ATTRS 32

/* The state of one read: the topology being built and where to complain. */
struct fx {
	struct ibfs_topology *t;
	const char *file;
	struct ibfs_diag *d;
};

/* The attributes of one element, copied out of the tree. */
struct fx_attrs {
	const xmlNode *el;
	int n;
	const char *name[FX_MAX_ATTRS];
	char *value[FX_MAX_ATTRS];
};

static void fx_attrs_free(struct fx_attrs *a)
{
	for (int i = 0; i < a->n; i++)
		xmlFree(a->value[i]);
	a->n = 0;
}

/*
 * Copies el's attributes into a, refusing names not in `allowed` (a NULL
 * terminated list; NULL allows any name). Returns 0 or -1 with diag.
 */
static int fx_attrs_get(struct fx *x, const xmlNode *el,
			const char *const *allowed, struct fx_attrs *a)
{
	long line = ibfs__xml_line(el);
	a->el = el;
	a->n = 0;
	for (const xmlAttr *at = el->properties; at; at = at->next) {
		const char *name = (const char *)at->name;
		int ok = !allowed;
		for (int i = 0; allowed && allowed[i] && !ok; i++)
			ok = !strcmp(allowed[i], name);
		/* The format has no namespaces: "x:name" is unknown too. */
		if (!ok || at->ns) {
			fx_attrs_free(a);
			return ibfs__diag(x->d, x->file, line,
					  "unknown attribute '%s' on <%s>",
					  name, (const char *)el->name);
		}
		if (a->n == FX_MAX_ATTRS) {
			fx_attrs_free(a);
			return ibfs__diag(x->d, x->file, line,
					  "more than %d attributes on <%s>",
					  FX_MAX_ATTRS,
					  (const char *)el->name);
		}
		xmlChar *v = xmlNodeListGetString(el->doc, at->children, 1);
		a->name[a->n] = name;
		a->value[a->n++] = v ? (char *)v : (char *)xmlStrdup(
							 BAD_CAST "");
	}
	return 0;
}

static const char *fx_get(const struct fx_attrs *a, const char *name)
{
	for (int i = 0; i < a->n; i++)
		if (!strcmp(a->name[i], name))
			return a->value[i];
	return NULL;
}

static int fx_need(struct fx *x, const struct fx_attrs *a, const char *name,
		   const char **out)
{
	*out = fx_get(a, name);
	if (*out)
		return 0;
	return ibfs__diag_needs(x->d, x->file, ibfs__xml_line(a->el),
				(const char *)a->el->name, name);
}

/* Reports a units.h parse error for attribute `name`. */
static int fx_unit_err(struct fx *x, const struct fx_attrs *a,
		       const char *name, const char *v, int err,
		       const char *quantity)
{
	return ibfs__diag(x->d, x->file, ibfs__xml_line(a->el),
			  "<%s> %s=\"%s\": %s", (const char *)a->el->name,
			  name, v, ibfs__unit_strerror(err, quantity));
}

/*
 * Each fx_opt_* reads an optional attribute into *out when present and
 * leaves *out alone otherwise. They return 0 or -1 with diag.
 */
static int fx_opt_time(struct fx *x, const struct fx_attrs *a,
		       const char *name, ibfs_time_t *out)
{
	const char *v = fx_get(a, name);
	uint64_t ps;
	int err;
	if (!v)
		return 0;
	if ((err = ibfs__parse_time(v, &ps)) < 0)
		return fx_unit_err(x, a, name, v, err, "time");
	*out = ps;
	return 0;
}

static int fx_opt_size(struct fx *x, const struct fx_attrs *a,
		       const char *name, uint64_t *out)
{
	const char *v = fx_get(a, name);
	uint64_t bytes;
	int err;
	if (!v)
		return 0;
	if ((err = ibfs__parse_size(v, &bytes)) < 0)
		return fx_unit_err(x, a, name, v, err, "size");
	if (bytes == 0)
		return ibfs__diag(x->d, x->file, ibfs__xml_line(a->el),
				  "<%s> %s=\"%s\": a buffer of 0 bytes holds "
				  "no credits", (const char *)a->el->name,
				  name, v);
	*out = bytes;
	return 0;
}

/*
 * A buffer the file gives must leave each data VL room for the largest
 * packet of the fabric's MTU (ibfs__topo_min_buffer, which says why): with
 * less, such a packet would wait for credits for ever, with nothing to
 * tell why. The <defaults> come first (fabric.rng), so the MTU and the
 * data VLs are known here.
 */
static int fx_opt_buffer(struct fx *x, const struct fx_attrs *a,
			 uint64_t *out)
{
	const char *v = fx_get(a, "buffer");
	const struct ibfs_topo_defaults *def = &x->t->def;
	uint64_t min = ibfs__topo_min_buffer(def->mtu, def->data_vls);

	if (!v)
		return 0;
	if (fx_opt_size(x, a, "buffer", out) < 0)
		return -1;
	if (*out >= min)
		return 0;
	uint64_t per_vl = min / (uint64_t)def->data_vls;

	return ibfs__diag(x->d, x->file, ibfs__xml_line(a->el),
			  "<%s> buffer=\"%s\": %d data VL%s x 1 packet of the "
			  "%d-byte MTU (%llu bytes in credits) need at least "
			  "%llu bytes; raise buffer, or lower mtu or data-vls",
			  (const char *)a->el->name, v, def->data_vls,
			  def->data_vls == 1 ? "" : "s", def->mtu,
			  (unsigned long long)per_vl,
			  (unsigned long long)min);
}

/*
 * The Ethernet switch's shared packet buffer under roce (shared-buffer),
 * which replaces its profile's (switch/eth_switch.h). The upper bound
 * keeps the dynamic threshold, alpha x the free pool, within 64 bits
 * (alpha's numerator is below 2^30, fx_opt_alpha); it is far above the
 * buffers of switch ASICs, tens of MiB. Whether the buffer holds the
 * reserves and the headroom depends on the links and the profile: the
 * switch itself checks that when it is built (ibfs__eth_switch_create).
 */
#define FX_ETH_BUFFER_MAX ((uint64_t)4 << 30)

static int fx_opt_shared_buffer(struct fx *x, const struct fx_attrs *a,
				uint64_t *out)
{
	const char *v = fx_get(a, "shared-buffer");
	uint64_t bytes;
	int err;

	if (!v)
		return 0;
	if ((err = ibfs__parse_size(v, &bytes)) < 0)
		return fx_unit_err(x, a, "shared-buffer", v, err, "size");
	if (bytes == 0 || bytes > FX_ETH_BUFFER_MAX)
		return ibfs__diag(x->d, x->file, ibfs__xml_line(a->el),
				  "<%s> shared-buffer=\"%s\": a shared packet "
				  "buffer is more than 0 bytes and at most "
				  "4 GiB", (const char *)a->el->name, v);
	*out = bytes;
	return 0;
}

static uint32_t fx_gcd(uint32_t a, uint32_t b)
{
	while (b) {
		uint32_t r = a % b;

		a = b;
		b = r;
	}
	return a;
}

/*
 * alpha: the dynamic threshold of an Ethernet switch's lossy egress
 * queues under roce (Choudhury and Hahne, "Dynamic Queue Length
 * Thresholds for Shared-Memory Packet Switches", IEEE/ACM ToN 6(2),
 * 1998): a queue may hold alpha x the free shared pool. Written as a
 * decimal, "1", "0.5", "0.0078125", with at most 7 digits after the
 * point so that the powers of two from 1/128 that switch ASICs offer are
 * exact; kept as the reduced fraction num / den. Above 64 the threshold
 * is no longer a limit in practice (a queue takes the whole pool long
 * before), and the bound keeps num below 2^30.
 */
#define FX_ALPHA_DIGITS 7
#define FX_ALPHA_MAX 64
#define FX_ALPHA_SCALE 10000000 /* 10^FX_ALPHA_DIGITS */

/* 0, -1 when v is not such a decimal, -2 when it is out of range. */
static int fx_parse_alpha(const char *v, uint32_t *num, uint32_t *den)
{
	size_t ni = strspn(v, "0123456789"), nf = 0;
	uint64_t n = 0, d = 1;

	if (v[ni] == '.') {
		nf = strspn(v + ni + 1, "0123456789");
		if (!nf || nf > FX_ALPHA_DIGITS)
			return -1;
	}
	if (!ni || v[ni + (nf ? nf + 1 : 0)])
		return -1;
	for (const char *c = v; c < v + ni + (nf ? nf + 1 : 0); c++) {
		if (*c == '.')
			continue;
		n = n * 10 + (uint64_t)(*c - '0');
		if (c > v + ni)
			d *= 10;
		/* d <= FX_ALPHA_SCALE: past this n is out of range. */
		if (n > FX_ALPHA_MAX * (uint64_t)FX_ALPHA_SCALE)
			return -2;
	}
	if (n == 0 || n > FX_ALPHA_MAX * d)
		return -2;
	uint32_t g = fx_gcd((uint32_t)n, (uint32_t)d);

	*num = (uint32_t)n / g;
	*den = (uint32_t)d / g;
	return 0;
}

static int fx_opt_alpha(struct fx *x, const struct fx_attrs *a,
			uint32_t *num, uint32_t *den)
{
	const char *v = fx_get(a, "alpha");
	int rc;

	if (!v || !(rc = fx_parse_alpha(v, num, den)))
		return 0;
	if (rc == -1)
		return ibfs__diag(x->d, x->file, ibfs__xml_line(a->el),
				  "<%s> alpha=\"%s\": alpha is a decimal "
				  "number such as 1, 0.5 or 0.0078125, with at "
				  "most %d digits after the point",
				  (const char *)a->el->name, v,
				  FX_ALPHA_DIGITS);
	return ibfs__diag(x->d, x->file, ibfs__xml_line(a->el),
			  "<%s> alpha=\"%s\": alpha is more than 0 and at "
			  "most %d", (const char *)a->el->name, v,
			  FX_ALPHA_MAX);
}

/*
 * A switch's settings that its Ethernet profile takes under roce:
 * latency (given here or in <defaults>) replaces the profile's port-to-
 * port latency, shared-buffer its buffer and alpha its lossy alpha. The
 * InfiniBand buffer, the input buffer of one port, plays no part there.
 */
static int fx_opt_eth(struct fx *x, const struct fx_attrs *a,
		      ibfs_time_t *latency, int *latency_set,
		      uint64_t *eth_buffer, uint32_t *num, uint32_t *den)
{
	if (fx_opt_time(x, a, "latency", latency) < 0 ||
	    fx_opt_shared_buffer(x, a, eth_buffer) < 0 ||
	    fx_opt_alpha(x, a, num, den) < 0)
		return -1;
	if (fx_get(a, "latency"))
		*latency_set = 1;
	return 0;
}

static int fx_opt_length(struct fx *x, const struct fx_attrs *a,
			 const char *name, uint64_t *out)
{
	const char *v = fx_get(a, name);
	uint64_t mm;
	int err;
	if (!v)
		return 0;
	if ((err = ibfs__parse_length(v, &mm)) < 0)
		return fx_unit_err(x, a, name, v, err, "length");
	*out = mm;
	return 0;
}

static int fx_opt_speed(struct fx *x, const struct fx_attrs *a,
			enum ibfs_speed *out)
{
	const char *v = fx_get(a, "speed");
	if (v && ibfs__speed_parse(v, out) < 0)
		return ibfs__diag(x->d, x->file, ibfs__xml_line(a->el),
				  "<%s> speed=\"%s\": unknown speed (SDR, DDR, "
				  "QDR, FDR10, FDR, EDR, HDR, NDR or XDR)",
				  (const char *)a->el->name, v);
	return 0;
}

static int fx_opt_width(struct fx *x, const struct fx_attrs *a, int *out)
{
	const char *v = fx_get(a, "width");
	if (!v)
		return 0;
	int lanes = ibfs__width_parse(v);
	if (lanes < 0)
		return ibfs__diag(x->d, x->file, ibfs__xml_line(a->el),
				  "<%s> width=\"%s\": unknown width (1x, 2x, "
				  "4x, 8x or 12x)", (const char *)a->el->name,
				  v);
	*out = lanes;
	return 0;
}

/*
 * A plain count that must be one of `set` (n values), or in [lo, hi] when
 * set is NULL. `rule` completes the sentence of the error.
 */
static int fx_opt_count(struct fx *x, const struct fx_attrs *a,
			const char *name, const int *set, int n, long lo,
			long hi, const char *rule, int *out)
{
	const char *v = fx_get(a, name);
	uint64_t u;
	int err;
	if (!v)
		return 0;
	if ((err = ibfs__parse_uint(v, &u)) < 0)
		return fx_unit_err(x, a, name, v, err, "number");
	int ok = 0;
	for (int i = 0; set && i < n; i++)
		ok |= u == (uint64_t)set[i];
	if (!set)
		ok = u >= (uint64_t)lo && u <= (uint64_t)hi;
	if (!ok)
		return ibfs__diag(x->d, x->file, ibfs__xml_line(a->el),
				  "<%s> %s=\"%s\": %s",
				  (const char *)a->el->name, name, v, rule);
	*out = (int)u;
	return 0;
}

static int fx_opt_profile(struct fx *x, const struct fx_attrs *a,
			  char **out)
{
	const char *v = fx_get(a, "profile");
	if (!v)
		return 0;
	if (!*v)
		return ibfs__diag(x->d, x->file, ibfs__xml_line(a->el),
				  "<%s> profile=\"\": a profile needs a name",
				  (const char *)a->el->name);
	char *p = strdup(v);
	if (!p)
		return ibfs__diag(x->d, x->file, ibfs__xml_line(a->el),
				  "out of memory");
	free(*out);
	*out = p;
	return 0;
}

/* MTUs of the IBA (PortInfo NeighborMTU, IBA 14.2.5.6). */
static const int fx_mtus[] = {256, 512, 1024, 2048, 4096};
/* Data VL counts the PortInfo VLCap encodings allow (IBA 14.2.5.6). */
static const int fx_vls[] = {1, 2, 4, 8, 15};

static int fx_defaults(struct fx *x, const xmlNode *el)
{
	static const char *const allowed[] = {
		"speed", "width", "mtu", "data-vls", "cable", "latency",
		"buffer", "profile", "shared-buffer", "alpha", NULL};
	struct fx_attrs a;
	if (fx_attrs_get(x, el, allowed, &a) < 0)
		return -1;
	struct ibfs_topo_defaults *def = &x->t->def;
	int rc = fx_opt_speed(x, &a, &def->speed);
	if (!rc)
		rc = fx_opt_width(x, &a, &def->width);
	if (!rc)
		rc = fx_opt_count(x, &a, "mtu", fx_mtus, 5, 0, 0,
				  "the MTU is 256, 512, 1024, 2048 or 4096",
				  &def->mtu);
	if (!rc)
		rc = fx_opt_count(x, &a, "data-vls", fx_vls, 5, 0, 0,
				  "a port has 1, 2, 4, 8 or 15 data VLs",
				  &def->data_vls);
	if (!rc)
		rc = fx_opt_length(x, &a, "cable", &def->cable_mm);
	if (!rc)
		rc = fx_opt_eth(x, &a, &def->latency, &def->latency_set,
				&def->eth_buffer, &def->alpha_num,
				&def->alpha_den);
	if (!rc)
		rc = fx_opt_buffer(x, &a, &def->buffer);
	/*
	 * Without a buffer of their own, nodes get the built-in 32 KiB, or
	 * one largest packet a data VL when that is more (8 data VLs at a
	 * 4096-byte MTU: 33 KiB).
	 */
	if (!rc && !fx_get(&a, "buffer")) {
		uint64_t min = ibfs__topo_min_buffer(def->mtu, def->data_vls);

		if (def->buffer < min)
			def->buffer = min;
	}
	if (!rc)
		rc = fx_opt_profile(x, &a, &def->profile);
	fx_attrs_free(&a);
	return rc;
}

static const char fx_ports_rule[] = "a node has 1 to 254 ports";

/* Ids are single words: no white space, no ':' (it ends the node part). */
static int fx_check_id(struct fx *x, const struct fx_attrs *a, const char *id)
{
	if (*id && !strpbrk(id, " \t\r\n:"))
		return 0;
	return ibfs__diag(x->d, x->file, ibfs__xml_line(a->el),
			  "<%s> id=\"%s\": an id is one word, without spaces "
			  "or ':'", (const char *)a->el->name, id);
}

/*
 * guid="0x..." pins a node's GUID (as a .net file's switchguid/caguid
 * lines do; the others are assigned as ibsim assigns them) and desc sets
 * its NodeDescription (default: the id).
 */
static int fx_guid_desc(struct fx *x, const struct fx_attrs *a,
			struct ibfs_topo_node *tn)
{
	const char *g = fx_get(a, "guid"), *desc = fx_get(a, "desc");
	if (g) {
		char *end;
		errno = 0;
		unsigned long long v = strtoull(g, &end, 16);
		if (strncmp(g, "0x", 2) || !g[2] || *end || errno || !v)
			return ibfs__diag(x->d, x->file, tn->line,
					  "guid=\"%s\": a GUID is 0x and 1 to 16 "
					  "hex digits, not zero", g);
		tn->guid = v;
	}
	if (desc) {
		char *copy = strdup(desc);
		if (!copy)
			return ibfs__diag(x->d, x->file, tn->line,
					  "out of memory");
		free(tn->desc);
		tn->desc = copy;
	}
	return 0;
}

static int fx_switch(struct fx *x, const xmlNode *el)
{
	static const char *const allowed[] = {
		"id", "ports", "latency", "buffer", "store-and-forward", "guid",
		"desc", "shared-buffer", "alpha", NULL};
	struct fx_attrs a;
	if (fx_attrs_get(x, el, allowed, &a) < 0)
		return -1;
	long line = ibfs__xml_line(el);
	const char *id, *ports_s, *sf;
	int ports = 0;
	int rc = fx_need(x, &a, "id", &id);
	if (!rc)
		rc = fx_check_id(x, &a, id);
	if (!rc)
		rc = fx_need(x, &a, "ports", &ports_s);
	if (!rc)
		rc = fx_opt_count(x, &a, "ports", NULL, 0, 1,
				  IBFS_TOPO_MAX_PORTS, fx_ports_rule, &ports);
	const struct ibfs_topo_defaults *def = &x->t->def;
	struct ibfs_topo_node n = {.latency = def->latency,
				   .latency_set = def->latency_set,
				   .buffer = def->buffer,
				   .eth_buffer = def->eth_buffer,
				   .alpha_num = def->alpha_num,
				   .alpha_den = def->alpha_den};
	if (!rc)
		rc = fx_opt_eth(x, &a, &n.latency, &n.latency_set,
				&n.eth_buffer, &n.alpha_num, &n.alpha_den);
	if (!rc)
		rc = fx_opt_buffer(x, &a, &n.buffer);
	sf = fx_get(&a, "store-and-forward");
	if (!rc && sf) {
		if (!strcmp(sf, "true") || !strcmp(sf, "1"))
			n.store_forward = 1;
		else if (strcmp(sf, "false") && strcmp(sf, "0"))
			rc = ibfs__diag(x->d, x->file, line,
					"<switch> store-and-forward=\"%s\": "
					"neither true nor false", sf);
	}
	int idx = -1;
	if (!rc)
		idx = ibfs__topo_add_node(x->t, id, IBFS_NODE_SWITCH, ports,
					  line, x->d);
	if (idx >= 0) {
		struct ibfs_topo_node *tn = &x->t->nodes[idx];
		tn->latency = n.latency;
		tn->latency_set = n.latency_set;
		tn->buffer = n.buffer;
		tn->eth_buffer = n.eth_buffer;
		tn->alpha_num = n.alpha_num;
		tn->alpha_den = n.alpha_den;
		tn->store_forward = n.store_forward;
		if (fx_guid_desc(x, &a, tn) < 0)
			idx = -1;
	}
	fx_attrs_free(&a);
	return idx < 0 ? -1 : 0;
}

static int fx_hca(struct fx *x, const xmlNode *el)
{
	static const char *const allowed[] = {"id", "ports", "profile",
					      "buffer", "guid", "desc", NULL};
	struct fx_attrs a;
	if (fx_attrs_get(x, el, allowed, &a) < 0)
		return -1;
	long line = ibfs__xml_line(el);
	const char *id;
	int ports = 1;
	uint64_t buffer = x->t->def.buffer;
	char *profile = NULL;
	int rc = fx_need(x, &a, "id", &id);
	if (!rc)
		rc = fx_check_id(x, &a, id);
	if (!rc)
		rc = fx_opt_count(x, &a, "ports", NULL, 0, 1,
				  IBFS_TOPO_MAX_PORTS, fx_ports_rule, &ports);
	if (!rc)
		rc = fx_opt_buffer(x, &a, &buffer);
	if (!rc)
		rc = fx_opt_profile(x, &a, &profile);
	int idx = -1;
	if (!rc)
		idx = ibfs__topo_add_node(x->t, id, IBFS_NODE_HCA, ports,
					  line, x->d);
	if (idx >= 0) {
		struct ibfs_topo_node *tn = &x->t->nodes[idx];
		tn->buffer = buffer;
		if (fx_guid_desc(x, &a, tn) < 0)
			idx = -1;
		if (profile) {
			free(tn->profile);
			tn->profile = profile;
			profile = NULL;
		}
	}
	free(profile);
	fx_attrs_free(&a);
	return idx < 0 ? -1 : 0;
}

static int fx_link(struct fx *x, const xmlNode *el)
{
	static const char *const allowed[] = {"a", "b", "speed", "width",
					      "cable", NULL};
	struct fx_attrs a;
	if (fx_attrs_get(x, el, allowed, &a) < 0)
		return -1;
	long line = ibfs__xml_line(el);
	const char *ea, *eb;
	int na, pa, nb, pb;
	enum ibfs_speed speed = x->t->def.speed;
	int width = x->t->def.width;
	uint64_t cable = x->t->def.cable_mm;
	int rc = fx_need(x, &a, "a", &ea);
	if (!rc)
		rc = fx_need(x, &a, "b", &eb);
	if (!rc)
		rc = ibfs__topo_parse_endpoint(x->t, ea, &na, &pa, x->file,
					       line, x->d);
	if (!rc)
		rc = ibfs__topo_parse_endpoint(x->t, eb, &nb, &pb, x->file,
					       line, x->d);
	if (!rc)
		rc = fx_opt_speed(x, &a, &speed);
	if (!rc)
		rc = fx_opt_width(x, &a, &width);
	if (!rc)
		rc = fx_opt_length(x, &a, "cable", &cable);
	if (!rc && ibfs__topo_add_link(x->t, na, pa, nb, pb, speed, width,
				       cable, line, x->d) < 0)
		rc = -1;
	fx_attrs_free(&a);
	return rc;
}

static int fx_generate(struct fx *x, const xmlNode *el)
{
	struct fx_attrs a;
	if (fx_attrs_get(x, el, NULL, &a) < 0)
		return -1;
	const char *kind;
	int rc = fx_need(x, &a, "topology", &kind);
	const char *prefix = fx_get(&a, "prefix");
	struct ibfs_gen_param params[FX_MAX_ATTRS];
	int n = 0;
	for (int i = 0; i < a.n; i++)
		if (strcmp(a.name[i], "topology") &&
		    strcmp(a.name[i], "prefix"))
			params[n++] = (struct ibfs_gen_param){a.name[i],
							      a.value[i]};
	if (!rc)
		rc = ibfs__topo_generate(x->t, kind, params, n,
					 prefix ? prefix : "", x->file,
					 ibfs__xml_line(el), x->d);
	fx_attrs_free(&a);
	return rc < 0 ? -1 : 0;
}

static int fx_children_empty(struct fx *x, const xmlNode *el)
{
	for (const xmlNode *c = el->children; c; c = c->next) {
		if (ibfs__xml_ignorable(c))
			continue;
		return ibfs__diag(x->d, x->file,
				  ibfs__xml_line(c->type == XML_ELEMENT_NODE
							 ? c : el),
				  "<%s> has no content, found %s%s%s",
				  (const char *)el->name,
				  c->type == XML_ELEMENT_NODE ? "<" : "text",
				  c->type == XML_ELEMENT_NODE
					  ? (const char *)c->name : "",
				  c->type == XML_ELEMENT_NODE ? ">" : "");
	}
	return 0;
}

static int fx_read(struct fx *x, const xmlNode *fabric)
{
	static const char *const allowed[] = {"version", "name", NULL};
	struct fx_attrs a;
	if (fx_attrs_get(x, fabric, allowed, &a) < 0)
		return -1;
	const char *version;
	int rc = fx_need(x, &a, "version", &version);
	if (!rc && strcmp(version, "1"))
		rc = ibfs__diag(x->d, x->file, ibfs__xml_line(fabric),
				"fabric version \"%s\" is not supported (this "
				"ibfsim reads version 1)", version);
	const char *name = fx_get(&a, "name");
	if (!rc && name) {
		char *copy = strdup(name);
		if (!copy)
			rc = ibfs__diag(x->d, x->file, 0, "out of memory");
		else {
			free(x->t->name);
			x->t->name = copy;
		}
	}
	fx_attrs_free(&a);

	int others = 0;
	for (const xmlNode *c = fabric->children; c && !rc; c = c->next) {
		if (ibfs__xml_ignorable(c))
			continue;
		long line = ibfs__xml_line(c);
		if (c->type != XML_ELEMENT_NODE) {
			rc = ibfs__diag(x->d, x->file, line ? line
						  : ibfs__xml_line(fabric),
					"unexpected text in <fabric>");
			break;
		}
		const char *el = (const char *)c->name;
		rc = fx_children_empty(x, c);
		if (rc)
			break;
		if (!strcmp(el, "defaults")) {
			if (others)
				rc = ibfs__diag(x->d, x->file, line,
						"<defaults> must come first in "
						"<fabric>, once");
			else
				rc = fx_defaults(x, c);
			others = 1;
			continue;
		}
		others = 1;
		if (!strcmp(el, "switch"))
			rc = fx_switch(x, c);
		else if (!strcmp(el, "hca"))
			rc = fx_hca(x, c);
		else if (!strcmp(el, "link"))
			rc = fx_link(x, c);
		else if (!strcmp(el, "generate"))
			rc = fx_generate(x, c);
		else
			rc = ibfs__diag(x->d, x->file, line,
					"unknown element <%s> in <fabric>",
					el);
	}
	if (rc)
		return -1;
	ibfs__topo_assign_guids(x->t, IBFS_TOPO_SWITCH_GUID_BASE,
				IBFS_TOPO_CA_GUID_BASE);
	return 0;
}

struct ibfs_topology *ibfs__fabric_xml_read(xmlNode *fabric, const char *file,
					    struct ibfs_diag *d)
{
	if (!fabric || fabric->type != XML_ELEMENT_NODE ||
	    strcmp((const char *)fabric->name, "fabric")) {
		ibfs__diag(d, file, ibfs__xml_line(fabric),
			   "expected a <fabric> element, found <%s>",
			   fabric ? (const char *)fabric->name : "");
		return NULL;
	}
	struct ibfs_topology *t = ibfs__topo_new(NULL);
	if (t && file)
		t->file = strdup(file);
	if (!t || (file && !t->file)) {
		ibfs__topo_free(t);
		ibfs__diag(d, file, 0, "out of memory");
		return NULL;
	}
	struct fx x = {t, file, d};
	if (fx_read(&x, fabric) < 0) {
		ibfs__topo_free(t);
		return NULL;
	}
	return t;
}

struct ibfs_topology *ibfs__fabric_xml_load_doc(xmlDoc *doc,
						const char *file,
						struct ibfs_diag *d)
{
	xmlNode *root = xmlDocGetRootElement(doc);
	if (!root || strcmp((const char *)root->name, "fabric")) {
		ibfs__diag(d, file, ibfs__xml_line(root),
			   "the root element is <%s>, not <fabric>",
			   root ? (const char *)root->name : "");
		return NULL;
	}
	struct ibfs_diag schema_diag;
	int valid = ibfs__fabric_xml_plainly_valid(doc, root, file) ||
		    ibfs__xml_check_schema(doc, "fabric.rng", file,
					   &schema_diag) == 0;
	struct ibfs_topology *t = ibfs__fabric_xml_read(root, file, d);
	if (valid || !t)
		return t;
	/* The reader found nothing wrong: the schema's words stand. */
	ibfs__topo_free(t);
	*d = schema_diag;
	return NULL;
}

struct ibfs_topology *ibfs__fabric_xml_load(const char *path,
					    struct ibfs_diag *d)
{
	xmlDoc *doc = ibfs__xml_parse_file(path, d);
	if (!doc)
		return NULL;
	struct ibfs_topology *t = ibfs__fabric_xml_load_doc(doc, path, d);
	xmlFreeDoc(doc);
	return t;
}
