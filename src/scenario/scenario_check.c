/* SPDX-License-Identifier: MIT */
/*
 * The form of a scenario file, checked before the grammar
 * (platforms/scenario.rng): its version and an inline fabric's, what each
 * element may hold, the attributes each may carry and needs, and the
 * elements a scenario has once. libxml2's RELAX NG validator reports such
 * faults in its own words and often without a line ("Element message
 * failed to validate attributes", "Extra element traffic in
 * interleave"); here each gets "FILE:LINE: what is wrong". What the values
 * mean is scenario_xml.c's.
 */
#include <string.h>

#include <libxml/tree.h>

#include "fabric/xml_doc.h"
#include "scenario/scenario_check.h"

/*
 * The attributes each scenario element may carry (platforms/scenario.rng).
 * libxml2's RELAX NG validator reports an attribute it does not know with
 * no line ("Element message failed to validate attributes"), so they are
 * checked here first, with the line. An inline <fabric> is left to the
 * fabric grammar and reader; anything else the grammar rejects is still
 * reported by it.
 */
/* OpenSM's congestion control options, '_' as '-' (cc_config.h). */
#define SX_CC                                                              \
	"congestion-control", "cc-sw-cong-setting-control-map",            \
		"cc-sw-cong-setting-victim-mask",                          \
		"cc-sw-cong-setting-credit-mask",                          \
		"cc-sw-cong-setting-threshold",                            \
		"cc-sw-cong-setting-packet-size",                          \
		"cc-sw-cong-setting-credit-starvation-threshold",          \
		"cc-sw-cong-setting-credit-starvation-return-delay",       \
		"cc-sw-cong-setting-marking-rate",                         \
		"cc-ca-cong-setting-port-control",                         \
		"cc-ca-cong-setting-control-map",                          \
		"cc-ca-cong-setting-ccti-timer",                           \
		"cc-ca-cong-setting-ccti-increase",                        \
		"cc-ca-cong-setting-trigger-threshold",                    \
		"cc-ca-cong-setting-ccti-min", "cc-cct"
#define SX_COMMON \
	"op", "qp", "size", "count", "start", "sl", "qps", "rate", "pkey"
static const struct {
	const char *element;
	const char *const attrs[32];
} sx_allowed[] = {
	{"scenario", {"version", "name"}},
	{"subnet-manager", {"routing", "host", "lmc", "lfts", "mode",
			    "qos-sl2vl", "qos-vlarb-high", "qos-vlarb-low",
			    "qos-high-limit", "partitions", SX_CC}},
	{"transport", {"model", "pfc", "priority-source", "ip",
		       "loss-recovery", "ecmp", "switch-profile", "irn-rtt",
		       "cc", "cc-params", "mtu", "rto-min",
		       "host-profile", "rx-usecs", "rx-frames"}},
	{"cc", {"param", "value"}},
	{"ecn", {"kmin", "kmax", "pmax", "mark", "priorities"}},
	{"traffic", {NULL}},
	{"message", {"src", "dst", SX_COMMON}},
	{"pattern", {"kind", "dst", "shift", SX_COMMON, "sizes", "load",
		     "placement", "duration"}},
	{"collective", {"kind", "hcas", "root", "op", "qp", "size", "count",
			"start", "sl", "algorithm", "chunks", "reduce-rate"}},
	{"fault", {"at", "link", "switch", "action"}},
	{"stop", {"at"}},
	{"sample", {"interval"}},
	{"multicast-group", {"id", "mgid", "members"}},
	{"multicast", {"group", "src", "op", "size", "count", "start", "sl",
		       "rate"}},
	{"multicast-join", {"at", "node", "group", "state"}},
	{"multicast-leave", {"at", "node", "group"}},
};

/*
 * The attributes each element needs (scenario.rng), which the grammar
 * reports as the unknown ones, without a line; <fault> needs one of link
 * and switch as well (sx_check_fault).
 */
static const struct {
	const char *element;
	const char *const attrs[3];
} sx_required[] = {
	{"transport", {"model"}},
	{"cc", {"param", "value"}},
	{"ecn", {"kmin", "kmax", "pmax"}},
	{"message", {"src", "dst"}},
	{"pattern", {"kind"}},
	{"collective", {"kind", "size"}},
	{"fault", {"at", "action"}},
	{"stop", {"at"}},
	{"sample", {"interval"}},
	{"multicast-group", {"id", "mgid", "members"}},
	{"multicast", {"group", "src"}},
	{"multicast-join", {"at", "node", "group"}},
	{"multicast-leave", {"at", "node", "group"}},
};

static int sx_check_required(xmlNode *n, const char *path,
			     struct ibfs_diag *d)
{
	const char *el = (const char *)n->name;

	for (size_t i = 0; i < sizeof(sx_required) / sizeof(*sx_required); i++)
		for (int k = 0; strcmp(el, sx_required[i].element) == 0 &&
				k < 3 && sx_required[i].attrs[k];
		     k++)
			if (!xmlHasProp(n, (const xmlChar *)sx_required[i]
						   .attrs[k]))
				return ibfs__diag_needs(
					d, path, ibfs__xml_line(n), el,
					sx_required[i].attrs[k]);
	if (strcmp(el, "fault"))
		return 0;
	int link = xmlHasProp(n, (const xmlChar *)"link") != NULL;
	int sw = xmlHasProp(n, (const xmlChar *)"switch") != NULL;

	if (link == sw)
		return ibfs__diag(d, path, ibfs__xml_line(n),
				  "<fault> names a link=\"NODE:PORT\" or a "
				  "switch=\"ID\": %s",
				  link ? "not both" : "neither is given");
	return 0;
}

/*
 * What el holds besides comments and blank text: only elements named in
 * `allowed` (NULL: nothing). The grammar reports anything else with no
 * line ("Extra element traffic in interleave" for a <fault> inside
 * <traffic>, or for words there).
 */
static int sx_check_content(xmlNode *el, const char *const *allowed,
			    const char *path, struct ibfs_diag *d)
{
	for (xmlNode *c = el->children; c; c = c->next) {
		if (ibfs__xml_ignorable(c))
			continue;
		if (c->type != XML_ELEMENT_NODE)
			return ibfs__diag(d, path, ibfs__xml_line(c),
					  "unexpected text in <%s>",
					  (const char *)el->name);
		int known = 0;

		for (const char *const *a = allowed; a && *a; a++)
			known |= !strcmp(*a, (const char *)c->name);
		if (known)
			continue;
		return ibfs__diag(d, path, ibfs__xml_line(c),
				  allowed ? "unknown element <%s> in <%s>"
					  : "<%s> inside <%s>, which has no "
					    "content",
				  (const char *)c->name,
				  (const char *)el->name);
	}
	return 0;
}

/* The structure under <scenario>; an inline <fabric> is its reader's. */
static int sx_check_structure(xmlNode *root, const char *path,
			      struct ibfs_diag *d)
{
	static const char *const top[] = {"fabric", "subnet-manager",
					  "transport", "traffic", "fault",
					  "stop", "multicast-group",
					  "multicast-join", "multicast-leave",
					  "sample", NULL};
	static const char *const traffic[] = {"message", "pattern",
					      "collective", "multicast", NULL};
	static const char *const transport[] = {"cc", "ecn", NULL};

	if (sx_check_content(root, top, path, d) < 0)
		return -1;
	for (xmlNode *n = root->children; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE ||
		    (!strcmp((const char *)n->name, "fabric") &&
		     !xmlHasProp(n, (const xmlChar *)"file")))
			continue;
		int tr = !strcmp((const char *)n->name, "traffic");
		int tp = !strcmp((const char *)n->name, "transport");

		if (sx_check_content(n, tr ? traffic : tp ? transport : NULL,
				     path, d) < 0)
			return -1;
		for (xmlNode *m = tr || tp ? n->children : NULL; m;
		     m = m->next)
			if (m->type == XML_ELEMENT_NODE &&
			    sx_check_content(m, NULL, path, d) < 0)
				return -1;
	}
	return 0;
}

/*
 * The children of <scenario> that may appear once: the grammar reports a
 * second one without a line ("Extra element ... in interleave").
 */
static int sx_check_once(xmlNode *root, const char *path,
			 struct ibfs_diag *d)
{
	static const char *const once[] = {"fabric", "subnet-manager",
					   "transport", "traffic", "stop",
					   "sample"};
	long first[6] = {0};

	for (xmlNode *n = root->children; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		for (int i = 0; i < 6; i++) {
			if (strcmp((const char *)n->name, once[i]))
				continue;
			if (first[i])
				return ibfs__diag(d, path, ibfs__xml_line(n),
						  "a second <%s> (the first "
						  "is at line %ld): a scenario "
						  "has one",
						  once[i], first[i]);
			first[i] = ibfs__xml_line(n);
		}
	}
	return 0;
}

static int sx_known_attr(int e, const char *name)
{
	for (int i = 0; i < 32 && sx_allowed[e].attrs[i]; i++)
		if (!strcmp(sx_allowed[e].attrs[i], name))
			return 1;
	return 0;
}

/* -1 with FILE:LINE in d at the first attribute no element may carry. */
static int sx_check_attrs(xmlNode *n, const char *path, struct ibfs_diag *d)
{
	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		int e = -1;
		for (size_t i = 0; i < sizeof(sx_allowed) / sizeof(*sx_allowed);
		     i++)
			if (!strcmp((const char *)n->name, sx_allowed[i].element))
				e = (int)i;
		if (e < 0)
			continue; /* <fabric>, or an element the grammar refuses */
		for (const xmlAttr *a = n->properties; a; a = a->next)
			if (a->ns || !sx_known_attr(e, (const char *)a->name))
				return ibfs__diag(d, path, ibfs__xml_line(n),
						  "<%s> has no attribute '%s'",
						  (const char *)n->name,
						  (const char *)a->name);
		if (sx_check_required(n, path, d) < 0)
			return -1;
		if (sx_check_attrs(n->children, path, d) < 0)
			return -1;
	}
	return 0;
}

/*
 * The format versions, of the scenario and of a fabric written inline,
 * checked before the grammar, which would only say that the element
 * "failed to validate attributes" (with no line) or that the fabric's
 * first child was not expected.
 */
static int sx_check_version(xmlNode *n, const char *what, const char *path,
			    struct ibfs_diag *d)
{
	char *v = (char *)xmlGetProp(n, (const xmlChar *)"version");
	int rc = 0;

	if (!v)
		rc = ibfs__diag(d, path, ibfs__xml_line(n),
				"<%s> needs a 'version' attribute", what);
	else if (strcmp(v, "1"))
		rc = ibfs__diag(d, path, ibfs__xml_line(n),
				"%s version \"%s\" is not supported (this "
				"ibfsim reads version 1)", what, v);
	xmlFree(v);
	return rc;
}

static int sx_check_versions(xmlNode *root, const char *path,
			     struct ibfs_diag *d)
{
	if (sx_check_version(root, "scenario", path, d) < 0)
		return -1;
	for (xmlNode *n = root->children; n; n = n->next)
		if (n->type == XML_ELEMENT_NODE &&
		    !strcmp((const char *)n->name, "fabric") &&
		    !xmlHasProp(n, (const xmlChar *)"file") &&
		    sx_check_version(n, "fabric", path, d) < 0)
			return -1;
	return 0;
}

int ibfs__scenario_check_form(xmlNode *root, const char *path,
			      struct ibfs_diag *d)
{
	if (sx_check_versions(root, path, d) < 0 ||
	    sx_check_structure(root, path, d) < 0 ||
	    sx_check_attrs(root, path, d) < 0 ||
	    sx_check_once(root, path, d) < 0)
		return -1;
	return 0;
}
