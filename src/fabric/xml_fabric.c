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
#include "fabric/xml_fabric_int.h"

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
	if (ibfs__fx_attrs_get(x, el, allowed, &a) < 0)
		return -1;
	struct ibfs_topo_defaults *def = &x->t->def;
	int rc = ibfs__fx_opt_speed(x, &a, &def->speed);
	if (!rc)
		rc = ibfs__fx_opt_width(x, &a, &def->width);
	if (!rc)
		rc = ibfs__fx_opt_count(x, &a, "mtu", fx_mtus, 5, 0, 0,
				  "the MTU is 256, 512, 1024, 2048 or 4096",
				  &def->mtu);
	if (!rc)
		rc = ibfs__fx_opt_count(x, &a, "data-vls", fx_vls, 5, 0, 0,
				  "a port has 1, 2, 4, 8 or 15 data VLs",
				  &def->data_vls);
	if (!rc)
		rc = ibfs__fx_opt_length(x, &a, "cable", &def->cable_mm);
	if (!rc)
		rc = ibfs__fx_opt_eth(x, &a, &def->latency, &def->latency_set,
				&def->eth_buffer, &def->alpha_num,
				&def->alpha_den);
	if (!rc)
		rc = ibfs__fx_opt_buffer(x, &a, &def->buffer);
	/*
	 * Without a buffer of their own, nodes get the built-in 32 KiB, or
	 * one largest packet a data VL when that is more (8 data VLs at a
	 * 4096-byte MTU: 33 KiB).
	 */
	if (!rc && !ibfs__fx_get(&a, "buffer")) {
		uint64_t min = ibfs__topo_min_buffer(def->mtu, def->data_vls);

		if (def->buffer < min)
			def->buffer = min;
	}
	if (!rc)
		rc = ibfs__fx_opt_profile(x, &a, &def->profile);
	ibfs__fx_attrs_free(&a);
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
	const char *g = ibfs__fx_get(a, "guid"), *desc = ibfs__fx_get(a, "desc");
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
	if (ibfs__fx_attrs_get(x, el, allowed, &a) < 0)
		return -1;
	long line = ibfs__xml_line(el);
	const char *id, *ports_s, *sf;
	int ports = 0;
	int rc = ibfs__fx_need(x, &a, "id", &id);
	if (!rc)
		rc = fx_check_id(x, &a, id);
	if (!rc)
		rc = ibfs__fx_need(x, &a, "ports", &ports_s);
	if (!rc)
		rc = ibfs__fx_opt_count(x, &a, "ports", NULL, 0, 1,
				  IBFS_TOPO_MAX_PORTS, fx_ports_rule, &ports);
	const struct ibfs_topo_defaults *def = &x->t->def;
	struct ibfs_topo_node n = {.latency = def->latency,
				   .latency_set = def->latency_set,
				   .buffer = def->buffer,
				   .eth_buffer = def->eth_buffer,
				   .alpha_num = def->alpha_num,
				   .alpha_den = def->alpha_den};
	if (!rc)
		rc = ibfs__fx_opt_eth(x, &a, &n.latency, &n.latency_set,
				&n.eth_buffer, &n.alpha_num, &n.alpha_den);
	if (!rc)
		rc = ibfs__fx_opt_buffer(x, &a, &n.buffer);
	sf = ibfs__fx_get(&a, "store-and-forward");
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
	ibfs__fx_attrs_free(&a);
	return idx < 0 ? -1 : 0;
}

static int fx_hca(struct fx *x, const xmlNode *el)
{
	static const char *const allowed[] = {"id", "ports", "profile",
					      "buffer", "guid", "desc", NULL};
	struct fx_attrs a;
	if (ibfs__fx_attrs_get(x, el, allowed, &a) < 0)
		return -1;
	long line = ibfs__xml_line(el);
	const char *id;
	int ports = 1;
	uint64_t buffer = x->t->def.buffer;
	char *profile = NULL;
	int rc = ibfs__fx_need(x, &a, "id", &id);
	if (!rc)
		rc = fx_check_id(x, &a, id);
	if (!rc)
		rc = ibfs__fx_opt_count(x, &a, "ports", NULL, 0, 1,
				  IBFS_TOPO_MAX_PORTS, fx_ports_rule, &ports);
	if (!rc)
		rc = ibfs__fx_opt_buffer(x, &a, &buffer);
	if (!rc)
		rc = ibfs__fx_opt_profile(x, &a, &profile);
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
	ibfs__fx_attrs_free(&a);
	return idx < 0 ? -1 : 0;
}

static int fx_link(struct fx *x, const xmlNode *el)
{
	static const char *const allowed[] = {"a", "b", "speed", "width",
					      "cable", NULL};
	struct fx_attrs a;
	if (ibfs__fx_attrs_get(x, el, allowed, &a) < 0)
		return -1;
	long line = ibfs__xml_line(el);
	const char *ea, *eb;
	int na, pa, nb, pb;
	enum ibfs_speed speed = x->t->def.speed;
	int width = x->t->def.width;
	uint64_t cable = x->t->def.cable_mm;
	int rc = ibfs__fx_need(x, &a, "a", &ea);
	if (!rc)
		rc = ibfs__fx_need(x, &a, "b", &eb);
	if (!rc)
		rc = ibfs__topo_parse_endpoint(x->t, ea, &na, &pa, x->file,
					       line, x->d);
	if (!rc)
		rc = ibfs__topo_parse_endpoint(x->t, eb, &nb, &pb, x->file,
					       line, x->d);
	if (!rc)
		rc = ibfs__fx_opt_speed(x, &a, &speed);
	if (!rc)
		rc = ibfs__fx_opt_width(x, &a, &width);
	if (!rc)
		rc = ibfs__fx_opt_length(x, &a, "cable", &cable);
	if (!rc && ibfs__topo_add_link(x->t, na, pa, nb, pb, speed, width,
				       cable, line, x->d) < 0)
		rc = -1;
	ibfs__fx_attrs_free(&a);
	return rc;
}

static int fx_generate(struct fx *x, const xmlNode *el)
{
	struct fx_attrs a;
	if (ibfs__fx_attrs_get(x, el, NULL, &a) < 0)
		return -1;
	const char *kind;
	int rc = ibfs__fx_need(x, &a, "topology", &kind);
	const char *prefix = ibfs__fx_get(&a, "prefix");
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
	ibfs__fx_attrs_free(&a);
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
	if (ibfs__fx_attrs_get(x, fabric, allowed, &a) < 0)
		return -1;
	const char *version;
	int rc = ibfs__fx_need(x, &a, "version", &version);
	if (!rc && strcmp(version, "1"))
		rc = ibfs__diag(x->d, x->file, ibfs__xml_line(fabric),
				"fabric version \"%s\" is not supported (this "
				"ibfsim reads version 1)", version);
	const char *name = ibfs__fx_get(&a, "name");
	if (!rc && name) {
		char *copy = strdup(name);
		if (!copy)
			rc = ibfs__diag(x->d, x->file, 0, "out of memory");
		else {
			free(x->t->name);
			x->t->name = copy;
		}
	}
	ibfs__fx_attrs_free(&a);

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
