/* SPDX-License-Identifier: MIT */
/*
 * The fabric XML loader's fast path (xml_fabric.c): a quick proof that a
 * fabric matches fabric.rng, for the generated files of tens of thousands
 * of plain elements that libxml2's RELAX NG validator
 * takes about 29,000 instructions each to accept (1.4 G at 11,664 HCAs).
 * Under <fabric> the grammar is an optional <defaults> then any number of
 * <switch>, <hca>, <link> and <generate>, each judged on its own, so the
 * document is valid when the root with its attributes and the <defaults>
 * (a two-element copy, given to libxml2) is valid and every other element
 * is a <switch>, <hca> or <link> whose attributes plainly match their
 * patterns here (a switch's latency, shared-buffer and alpha included, so
 * that a large fabric tuned for the roce model keeps the fast path). The
 * checks are narrower than the grammar (no children, comments or leading
 * zeros, the common attributes only): anything else
 * answers "not proven" and the caller runs the full validation, so
 * diagnostics come from libxml2 exactly as before.
 */
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "fabric/xml_fabric.h"

static const char *xq_plain_value(const xmlAttr *a)
{
	if (a->ns || !a->children || a->children->next ||
	    a->children->type != XML_TEXT_NODE || !a->children->content)
		return NULL;
	return (const char *)a->children->content;
}

/* [^:\s]+ then, when `port`, :[0-9]+ (XSD patterns match the whole). */
static int xq_plain_name(const char *v, int port)
{
	const char *c = v;
	while (*c && !strchr(": \t\n\r", *c))
		c++;
	if (c == v)
		return 0;
	if (!port)
		return !*c;
	if (*c++ != ':' || !*c)
		return 0;
	return strspn(c, "0123456789") == strlen(c);
}

/*
 * [0-9]+(\.[0-9]{1,maxfrac})? then, when units is not NULL, an optional
 * space and one of units: fabric.rng's time, size and alpha patterns.
 */
static int xq_plain_quantity(const char *v, size_t maxfrac,
			     const char *const *units)
{
	size_t n = strspn(v, "0123456789");

	if (!n)
		return 0;
	v += n;
	if (*v == '.') {
		n = strspn(++v, "0123456789");
		if (!n || n > maxfrac)
			return 0;
		v += n;
	}
	if (!units)
		return !*v;
	if (*v == ' ')
		v++;
	for (int i = 0; units[i]; i++)
		if (!strcmp(v, units[i]))
			return 1;
	return 0;
}

static int xq_plain_switch_attr(const char *name, const char *v)
{
	static const char *const times[] = {"ps", "ns", "us", "ms", "s",
					    NULL};
	static const char *const sizes[] = {"B", "KiB", "MiB", "GiB", "KB",
					    "MB", "GB", NULL};

	if (!strcmp(name, "latency"))
		return xq_plain_quantity(v, (size_t)-1, times);
	if (!strcmp(name, "shared-buffer"))
		return xq_plain_quantity(v, (size_t)-1, sizes);
	if (!strcmp(name, "alpha"))
		return xq_plain_quantity(v, 7, NULL);
	return 0;
}

static int xq_plain_attr(const char *el, const char *name, const char *v)
{
	static const char *const speeds[] = {"SDR", "DDR", "QDR", "FDR10",
					     "FDR", "EDR", "HDR", "NDR",
					     "XDR", "1x", "2x", "4x",
					     "8x", "12x", NULL};
	int link = !strcmp(el, "link");
	if (!link && !strcmp(name, "id"))
		return xq_plain_name(v, 0);
	if (!link && !strcmp(name, "desc"))
		return 1;
	if (!link && !strcmp(name, "ports")) {
		size_t n = strspn(v, "0123456789");
		return n >= 1 && n <= 3 && !v[n] && v[0] != '0' &&
		       atoi(v) <= 254;
	}
	if (!link && !strcmp(name, "guid")) {
		if (strncmp(v, "0x", 2))
			return 0;
		size_t n = strspn(v + 2, "0123456789abcdefABCDEF");
		return n >= 1 && n <= 16 && !v[2 + n];
	}
	if (!strcmp(el, "switch") && xq_plain_switch_attr(name, v))
		return 1;
	if (link && (!strcmp(name, "a") || !strcmp(name, "b")))
		return xq_plain_name(v, 1);
	int width = link && !strcmp(name, "width");
	if (link && (width || !strcmp(name, "speed")))
		for (int i = width ? 9 : 0; speeds[i] && i < (width ? 14 : 9);
		     i++)
			if (!strcmp(v, speeds[i]))
				return 1;
	return 0;
}

static int xq_plain_element(const xmlNode *el)
{
	const char *name = (const char *)el->name;
	int need;
	if (el->ns || el->children)
		return 0;
	if (!strcmp(name, "switch"))
		need = 2; /* id, ports */
	else if (!strcmp(name, "hca"))
		need = 1; /* id */
	else if (!strcmp(name, "link"))
		need = 2; /* a, b */
	else
		return 0;
	for (const xmlAttr *a = el->properties; a; a = a->next) {
		const char *an = (const char *)a->name, *v = xq_plain_value(a);
		if (!v || !xq_plain_attr(name, an, v))
			return 0;
		need -= !strcmp(an, "id") || !strcmp(an, "a") ||
			!strcmp(an, "b") ||
			(!strcmp(name, "switch") && !strcmp(an, "ports"));
	}
	return need == 0;
}

int ibfs__fabric_xml_plainly_valid(xmlDoc *doc, xmlNode *root,
				   const char *file)
{
	xmlNode *defaults = NULL;
	int first = 1;
	for (const xmlNode *c = root->children; c; c = c->next) {
		if (c->type == XML_TEXT_NODE && c->content &&
		    strspn((const char *)c->content, " \t\n\r") ==
			    strlen((const char *)c->content))
			continue;
		if (c->type != XML_ELEMENT_NODE)
			return 0;
		if (first && !c->ns && !strcmp((const char *)c->name,
					       "defaults"))
			defaults = (xmlNode *)c;
		else if (!xq_plain_element(c))
			return 0;
		first = 0;
	}
	xmlDoc *mini = xmlNewDoc(doc->version);
	xmlNode *top = mini ? xmlDocCopyNode(root, mini, 2) : NULL;
	int ok = 0;
	if (top) {
		xmlDocSetRootElement(mini, top);
		xmlNode *dc = defaults ? xmlDocCopyNode(defaults, mini, 1)
				       : NULL;
		struct ibfs_diag ignored;
		if ((!defaults || (dc && xmlAddChild(top, dc))) &&
		    ibfs__xml_check_schema(mini, "fabric.rng", file,
					   &ignored) == 0)
			ok = 1;
	}
	xmlFreeDoc(mini);
	return ok;
}
