/* SPDX-License-Identifier: MIT */
/*
 * Loading fabric XML (docs/fabric-format.md) with libxml2. The file is first
 * validated against platforms/fabric.rng, then read element by element;
 * every error is reported as "FILE:LINE: what is wrong" through the diag.
 */
#ifndef IBFS_FABRIC_XML_FABRIC_H
#define IBFS_FABRIC_XML_FABRIC_H

#include <libxml/tree.h>

#include "fabric/topology.h"
#include "fabric/xml_doc.h"

/* Loads a fabric file. Returns NULL with d filled on any error. */
struct ibfs_topology *ibfs__fabric_xml_load(const char *path,
					    struct ibfs_diag *d);
/* Reads an already parsed <fabric> element (an inline fabric in a scenario). */
struct ibfs_topology *ibfs__fabric_xml_read(xmlNode *fabric, const char *file,
					    struct ibfs_diag *d);
/*
 * 1 when the fabric document is proven to match fabric.rng without
 * libxml2's validator (xml_fast.c: generated files of plain elements); 0
 * means "not proven", and the caller validates in full.
 */
int ibfs__fabric_xml_plainly_valid(xmlDoc *doc, xmlNode *root,
				   const char *file);
/*
 * Loads a parsed document whose root is <fabric>: schema, then semantics.
 * ibfs__fabric_xml_load is parse + this. doc stays the caller's.
 */
struct ibfs_topology *ibfs__fabric_xml_load_doc(xmlDoc *doc,
						const char *file,
						struct ibfs_diag *d);

#endif
