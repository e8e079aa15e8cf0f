/* SPDX-License-Identifier: MIT */
/*
 * Reading an XML input file with libxml2, for the fabric and scenario
 * readers: safe parsing (no network, no external entities), the line of
 * a node as a reader sees it (past 65535 too), the first libxml2 error as
 * one "FILE:LINE: message", and validation against a RELAX NG schema of
 * platforms/. What the elements mean is the readers' (xml_fabric.c,
 * scenario/scenario_xml.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/globals.h>
#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <libxml/xmlerror.h>

#include "fabric/xml_doc.h"

/*
 * The build defines IBFS_PLATFORMS_DIR (the source tree's platforms/) and
 * may define IBFS_INSTALLED_PLATFORMS_DIR ($(pkgdatadir)/platforms).
 */
#ifndef IBFS_PLATFORMS_DIR
#define IBFS_PLATFORMS_DIR "platforms"
#endif

const char *ibfs__platforms_dir(void)
{
	const char *env = getenv("IBFSIM_PLATFORMS");
	if (env && *env)
		return env;
#ifdef IBFS_INSTALLED_PLATFORMS_DIR
	/* Once the source tree is gone, the installed copy serves. */
	if (access(IBFS_PLATFORMS_DIR "/fabric.rng", R_OK) != 0)
		return IBFS_INSTALLED_PLATFORMS_DIR;
#endif
	return IBFS_PLATFORMS_DIR;
}

/* libxml2 keeps node lines in 16 bits; 65535 means "that or later". */
#define XD_LINE_SATURATED 65535

/*
 * libxml2 gives a text node the line where the text ends, which for text
 * between elements is the next element's line: the line of its last
 * character that is not blank is where a reader sees it.
 */
static long xd_text_line(const xmlNode *n)
{
	long line = xmlGetLineNo(n);
	const xmlChar *c = n->content;
	size_t len = c ? strlen((const char *)c) : 0;

	while (len && (c[len - 1] == ' ' || c[len - 1] == '\t' ||
		       c[len - 1] == '\n' || c[len - 1] == '\r'))
		if (c[--len] == '\n' && line > 1)
			line--;
	return line;
}

long ibfs__xml_line(const xmlNode *n)
{
	if (!n)
		return 0;
	if (n->type == XML_TEXT_NODE)
		return xd_text_line(n);
	if (n->type != XML_ELEMENT_NODE || n->line != XD_LINE_SATURATED)
		return xmlGetLineNo(n);
	/*
	 * Past line 65535, XML_PARSE_BIG_LINES keeps the true line on text
	 * nodes only, taken where the text ends. The text just before an
	 * element ends where the element starts, so its line is the
	 * element's; xmlGetLineNo would take the text after it instead.
	 * Elements with no text between them (a few, at most) share a line.
	 */
	int steps = 0;
	for (const xmlNode *p = n->prev; p && steps < 64; p = p->prev, steps++)
		if (p->type == XML_TEXT_NODE)
			return xmlGetLineNo(p);
	return xmlGetLineNo(n);
}

/* Collects the first error libxml2 reports, as "FILE:LINE: message". */
struct xd_err {
	const char *file;
	struct ibfs_diag *d;
	int seen;
};

static void xd_on_error(void *ctx, xmlErrorPtr e)
{
	struct xd_err *xe = ctx;
	if (xe->seen || !e || e->level < XML_ERR_ERROR)
		return;
	xe->seen = 1;
	char msg[512];
	snprintf(msg, sizeof(msg), "%s", e->message ? e->message : "error");
	size_t len = strlen(msg);
	while (len && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
		msg[--len] = 0;
	/* Validity errors name a node; parse errors carry the true line. */
	long line = e->line;
	if (e->node && (line <= 0 || e->domain == XML_FROM_RELAXNGV))
		line = ibfs__xml_line(e->node);
	ibfs__diag(xe->d, xe->file, line, "%s", msg);
}

xmlDoc *ibfs__xml_parse_file(const char *path, struct ibfs_diag *d)
{
	FILE *probe = fopen(path, "r");
	if (!probe) {
		ibfs__diag(d, path, 0, "cannot open: %s", strerror(errno));
		return NULL;
	}
	fclose(probe);

	/*
	 * No XML_PARSE_NOENT or DTDLOAD: external entities are never fetched
	 * or expanded; NONET forbids the network outright. BIG_LINES keeps
	 * line numbers right past 65535 (generated fabrics are long).
	 */
	struct xd_err xe = {path, d, 0};
	xmlStructuredErrorFunc old = xmlStructuredError;
	void *old_ctx = xmlStructuredErrorContext;
	xmlSetStructuredErrorFunc(&xe, xd_on_error);
	xmlDoc *doc = xmlReadFile(path, NULL,
				  XML_PARSE_NONET | XML_PARSE_BIG_LINES);
	xmlSetStructuredErrorFunc(old_ctx, old);
	if (doc && !xe.seen && !xmlDocGetRootElement(doc))
		ibfs__diag(d, path, 0, "the document has no root element");
	else if (doc && !xe.seen)
		return doc;
	else if (!xe.seen)
		ibfs__diag(d, path, 0, "not well-formed XML");
	xmlFreeDoc(doc);
	return NULL;
}

int ibfs__xml_check_schema(xmlDoc *doc, const char *schema_name,
			   const char *file, struct ibfs_diag *d)
{
	char rng[4096];
	snprintf(rng, sizeof(rng), "%s/%s", ibfs__platforms_dir(),
		 schema_name);
	/* Problems with the schema itself are summed up in one sentence. */
	struct ibfs_diag ignored;
	struct xd_err pe = {rng, &ignored, 0};
	xmlStructuredErrorFunc old = xmlStructuredError;
	void *old_ctx = xmlStructuredErrorContext;
	xmlSetStructuredErrorFunc(&pe, xd_on_error);
	xmlRelaxNGParserCtxtPtr pc = xmlRelaxNGNewParserCtxt(rng);
	if (pc)
		xmlRelaxNGSetParserStructuredErrors(pc, xd_on_error, &pe);
	xmlRelaxNGPtr schema = pc ? xmlRelaxNGParse(pc) : NULL;
	xmlRelaxNGFreeParserCtxt(pc);
	xmlSetStructuredErrorFunc(old_ctx, old);
	if (!schema)
		return ibfs__diag(d, rng, 0,
				  "cannot load the schema (set "
				  "IBFSIM_PLATFORMS to the directory that "
				  "holds %s)",
				  schema_name);
	xmlRelaxNGValidCtxtPtr vc = xmlRelaxNGNewValidCtxt(schema);
	struct xd_err xe = {file, d, 0};
	int rc = -1;
	if (vc) {
		xmlRelaxNGSetValidStructuredErrors(vc, xd_on_error, &xe);
		rc = xmlRelaxNGValidateDoc(vc, doc);
		xmlRelaxNGFreeValidCtxt(vc);
	}
	xmlRelaxNGFree(schema);
	if (rc != 0 && !xe.seen)
		ibfs__diag(d, file, 0, "does not match the schema %s",
			   schema_name);
	return rc == 0 ? 0 : -1;
}

/* Text other than white space between elements is an error. */
static int xd_blank(const xmlNode *n)
{
	for (const xmlChar *c = n->content; c && *c; c++)
		if (*c != ' ' && *c != '\t' && *c != '\n' && *c != '\r')
			return 0;
	return 1;
}

int ibfs__xml_ignorable(const xmlNode *n)
{
	return n->type == XML_COMMENT_NODE || n->type == XML_PI_NODE ||
	       (n->type == XML_TEXT_NODE && xd_blank(n));
}
