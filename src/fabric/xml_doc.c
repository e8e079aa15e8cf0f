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

/*
 * libxml2's parse errors in ibfsim's words: what is wrong, what is
 * expected (the rules are XML 1.0, fifth edition, and Namespaces in XML
 * 1.0). libxml2's own message follows in parentheses: it names the tag or
 * attribute, and it is what a search for the error finds.
 */
static const struct {
	int code;
	const char *says; /* NULL, or words of libxml2's message */
	const char *words;
} xd_words[] = {
	/* libxml2 gives these codes to more than one fault. */
	{ XML_ERR_DOCUMENT_EMPTY, "Start tag expected", "text before the root "
	  "element: expected '<' opening it" },
	{ XML_ERR_INVALID_CHAR, "not proper UTF-8", "bytes that are not "
	  "UTF-8: expected UTF-8 text, or the encoding declared in "
	  "<?xml ... encoding=\"...\"?>" },
	{ XML_ERR_INVALID_CHAR, "CharRef", "a character reference to no XML "
	  "character: expected &#N; of an allowed character" },
	{ XML_ERR_NAME_REQUIRED, "EntityRef", "'&' that starts no entity: "
	  "expected a literal '&' written &amp;" },
	{ XML_ERR_DOCUMENT_EMPTY, NULL,
	  "the file holds no element: expected an "
	  "XML document, one root element such as <fabric version=\"1\">" },
	{ XML_ERR_DOCUMENT_START, NULL,
	  "text before the root element: expected "
	  "'<' opening it" },
	{ XML_ERR_DOCUMENT_END, NULL,
	  "more after the root element's end: expected "
	  "only comments and white space after it" },
	{ XML_ERR_EXTRA_CONTENT, NULL,
	  "more after the root element's end: "
	  "expected only comments and white space after it" },
	{ XML_ERR_TAG_NAME_MISMATCH, NULL,
	  "an end tag that does not close the "
	  "element open here: expected the end tag of the innermost open "
	  "element" },
	{ XML_ERR_TAG_NOT_FINISHED, NULL,
	  "the file ends inside an element: "
	  "expected its end tag" },
	{ XML_ERR_LTSLASH_REQUIRED, NULL,
	  "an end tag cut short: expected '</' and "
	  "the element's name" },
	{ XML_ERR_GT_REQUIRED, NULL,
	  "a tag that is not closed: expected '>' or "
	  "'/>'" },
	{ XML_ERR_SPACE_REQUIRED, NULL,
	  "names run together, or a tag is not "
	  "closed: expected white space between a tag's name=\"value\" "
	  "pairs, then '>' or '/>'" },
	{ XML_ERR_ATTRIBUTE_REDEFINED, NULL,
	  "an attribute given twice on one "
	  "element: expected each once" },
	{ XML_ERR_ATTRIBUTE_WITHOUT_VALUE, NULL,
	  "an attribute without a value: "
	  "expected name=\"value\"" },
	{ XML_ERR_ATTRIBUTE_NOT_STARTED, NULL,
	  "an attribute value without quotes: "
	  "expected name=\"value\"" },
	{ XML_ERR_ATTRIBUTE_NOT_FINISHED, NULL,
	  "an attribute value that is not "
	  "closed: expected its closing quote" },
	{ XML_ERR_STRING_NOT_CLOSED, NULL,
	  "an attribute value that is not "
	  "closed: expected its closing quote" },
	{ XML_ERR_LT_IN_ATTRIBUTE, NULL,
	  "'<' in an attribute value: expected it "
	  "written &lt;" },
	{ XML_ERR_NAME_REQUIRED, NULL,
	  "'<' not followed by an element name: "
	  "expected a name, or a literal '<' written &lt;" },
	{ XML_ERR_HYPHEN_IN_COMMENT, NULL,
	  "'--' inside a comment: expected it only "
	  "in the closing '-->'" },
	{ XML_ERR_COMMENT_NOT_FINISHED, NULL,
	  "a comment that is not closed: "
	  "expected '-->'" },
	{ XML_ERR_CDATA_NOT_FINISHED, NULL,
	  "a CDATA section that is not closed: "
	  "expected ']]>'" },
	{ XML_ERR_MISPLACED_CDATA_END, NULL,
	  "']]>' in text: expected it written "
	  "]]&gt;" },
	{ XML_ERR_PI_NOT_STARTED, NULL,
	  "'<?' not followed by a name: expected a "
	  "processing instruction <?name ...?>" },
	{ XML_ERR_PI_NOT_FINISHED, NULL,
	  "a processing instruction that is not "
	  "closed: expected '?>'" },
	{ XML_ERR_RESERVED_XML_NAME, NULL,
	  "an XML declaration <?xml ...?> after "
	  "the start: expected it first in the file, or none" },
	{ XML_ERR_XMLDECL_NOT_FINISHED, NULL,
	  "an XML declaration that is not "
	  "closed: expected '?>'" },
	{ XML_ERR_INVALID_CHAR, NULL,
	  "a character XML does not allow (a control "
	  "character): expected text without it" },
	{ XML_ERR_INVALID_ENCODING, NULL,
	  "bytes that are not UTF-8: expected UTF-8 "
	  "text, or the encoding declared in <?xml ... encoding=\"...\"?>" },
	{ XML_ERR_UNSUPPORTED_ENCODING, NULL,
	  "an encoding libxml2 cannot read: "
	  "expected UTF-8 (or ASCII, ISO-8859-1, UTF-16)" },
	{ XML_ERR_ENTITYREF_SEMICOL_MISSING, NULL,
	  "'&' that starts no entity: "
	  "expected a literal '&' written &amp;" },
	{ XML_ERR_UNDECLARED_ENTITY, NULL,
	  "an unknown entity: expected &lt; &gt; "
	  "&amp; &quot; &apos; or a character reference &#N;" },
	{ XML_ERR_INVALID_DEC_CHARREF, NULL,
	  "a character reference to no XML "
	  "character: expected &#N; of an allowed character" },
	{ XML_ERR_INVALID_HEX_CHARREF, NULL,
	  "a character reference to no XML "
	  "character: expected &#xN; of an allowed character" },
	{ XML_ERR_INVALID_CHARREF, NULL,
	  "a character reference to no XML "
	  "character: expected &#N; of an allowed character" },
	{ XML_ERR_ENTITY_IS_EXTERNAL, NULL,
	  "an entity that stands for another file, which ibfsim never "
	  "reads: expected the value written out" },
	{ XML_ERR_STRING_NOT_STARTED, NULL,
	  "a value without quotes: expected it between \" or '" },
	{ XML_ERR_LITERAL_NOT_STARTED, NULL,
	  "a value without quotes: expected it between \" or '" },
	{ XML_ERR_VERSION_MISSING, NULL,
	  "an XML declaration without its version: expected "
	  "<?xml version=\"1.0\"?>" },
	{ XML_I18N_CONV_FAILED, NULL,
	  "bytes that are not in the file's encoding: expected UTF-8 "
	  "text, or the encoding declared in <?xml ... encoding=\"...\"?>" },
	{ XML_NS_ERR_QNAME, NULL,
	  "a name with ':' in a place XML namespaces do not allow: "
	  "expected ibfsim's names, which have no ':'" },
	/* The schema's, for what the readers do not check first. */
	{ XML_RELAXNG_ERR_INVALIDATTR, NULL,
	  "an attribute the element does not take: expected only those "
	  "docs/fabric-format.md and docs/scenario-format.md list for it" },
	{ XML_RELAXNG_ERR_NOELEM, NULL,
	  "an element is missing: expected the one named in parentheses" },
	{ XML_RELAXNG_ERR_EXTRACONTENT, NULL,
	  "content the element does not take: expected only the elements "
	  "the format lists for it" },
	{ XML_NS_ERR_UNDEFINED_NAMESPACE, NULL,
	  "a name with an undeclared prefix "
	  "('p:'): expected ibfsim's names, which have none" },
};

static const char *xd_words_of(const xmlError *e)
{
	if (e->domain != XML_FROM_PARSER && e->domain != XML_FROM_NAMESPACE &&
	    e->domain != XML_FROM_I18N && e->domain != XML_FROM_RELAXNGV)
		return NULL;
	for (size_t i = 0; i < sizeof(xd_words) / sizeof(xd_words[0]); i++)
		if (xd_words[i].code == e->code &&
		    (!xd_words[i].says ||
		     (e->message && strstr(e->message, xd_words[i].says))))
			return xd_words[i].words;
	return NULL;
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
	const char *words = xd_words_of(e);
	if (words)
		ibfs__diag(xe->d, xe->file, line, "%s (%s)", words, msg);
	else
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
