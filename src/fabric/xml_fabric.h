/* SPDX-License-Identifier: MIT */
/*
 * Loading fabric XML (SPEC "Fabric XML") with libxml2. The file is first
 * validated against platforms/fabric.rng, then read element by element;
 * every error is reported as "FILE:LINE: what is wrong" through the diag.
 */
#ifndef IBFS_FABRIC_XML_FABRIC_H
#define IBFS_FABRIC_XML_FABRIC_H

#include <libxml/tree.h>

#include "fabric/topology.h"

/* Loads a fabric file. Returns NULL with d filled on any error. */
struct ibfs_topology *ibfs__fabric_xml_load(const char *path,
					    struct ibfs_diag *d);
/* Reads an already parsed <fabric> element (an inline fabric in a scenario). */
struct ibfs_topology *ibfs__fabric_xml_read(xmlNode *fabric, const char *file,
					    struct ibfs_diag *d);
/* Where the schemas live: $IBFSIM_PLATFORMS, else the build-time path. */
const char *ibfs__platforms_dir(void);

#endif
