/* SPDX-License-Identifier: MIT */
/*
 * The form of a scenario file, checked before its grammar (scenario_check.c)
 * so that each fault gets its line: used by the scenario reader.
 */
#ifndef IBFS_SCENARIO_SCENARIO_CHECK_H
#define IBFS_SCENARIO_SCENARIO_CHECK_H

#include <libxml/tree.h>

#include "fabric/diag.h"

/*
 * Checks the <scenario> root: versions, what each element holds, its
 * attributes, the elements it has once. Returns 0, or -1 with
 * "FILE:LINE: what is wrong" in d at the first fault.
 */
int ibfs__scenario_check_form(xmlNode *root, const char *path,
			      struct ibfs_diag *d);

#endif
