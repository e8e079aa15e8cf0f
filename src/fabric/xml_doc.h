/* SPDX-License-Identifier: MIT */
/*
 * Reading an XML input file with libxml2: safe parsing, lines, one-line
 * errors and schema validation (xml_doc.c), shared by the fabric and
 * scenario readers.
 */
#ifndef IBFS_FABRIC_XML_DOC_H
#define IBFS_FABRIC_XML_DOC_H

#include <libxml/tree.h>

#include "fabric/diag.h"

/* Where the schemas live: $IBFSIM_PLATFORMS, else the build-time path. */
const char *ibfs__platforms_dir(void);

/*
 * Parses an XML file safely and with line numbers: no network, no external
 * entities or DTDs loaded, lines past 65535 kept. Returns the document
 * (free it with xmlFreeDoc) or NULL with "FILE:LINE: what is wrong" in d
 * (the first error libxml2 reported).
 */
xmlDoc *ibfs__xml_parse_file(const char *path, struct ibfs_diag *d);
/* Source line of an element (libxml2's xmlGetLineNo). */
long ibfs__xml_line(const xmlNode *n);
/* Whether n is a comment, a processing instruction or blank text: what
 * may stand between elements without being content. */
int ibfs__xml_ignorable(const xmlNode *n);
/*
 * Validates doc against the RELAX NG schema platforms/NAME (e.g.
 * "fabric.rng"). Returns 0, or -1 with the schema's first complaint as
 * "FILE:LINE: ..." in d.
 */
int ibfs__xml_check_schema(xmlDoc *doc, const char *schema_name,
			   const char *file, struct ibfs_diag *d);

#endif
