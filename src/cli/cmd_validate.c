/* SPDX-License-Identifier: MIT */
/*
 * ibfsim validate FILE.xml: checks a fabric file (schema, then semantics:
 * unique ids, links between existing nodes on free ports in range, exact
 * units) and says what it holds, or prints the first problem as
 * "ibfsim: FILE:LINE: what is wrong" and exits 2 (docs/ibfsim.1,
 * docs/results.md).
 * Scenario files are recognised by their root element and loaded as
 * `ibfsim run` loads them, running nothing.
 */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "fabric/topology.h"
#include "fabric/xml_fabric.h"
#include "hca/hca.h"
#include "scenario/scenario.h"

static const char validate_usage[] =
	"Usage: ibfsim validate FILE.xml\n"
	"\n"
	"A scenario file is loaded as 'ibfsim run' loads it (schema\n"
	"platforms/scenario.rng, its fabric, node names, units, operations,\n"
	"routing engine), running nothing: \"FILE: valid scenario: ...\" and\n"
	"exit 0.\n"
	"\n"
	"Checks a fabric file against platforms/fabric.rng and for what a\n"
	"schema cannot see (duplicate ids, links to missing nodes, ports out\n"
	"of range or used twice, unknown speeds, widths, units and HCA\n"
	"profiles). Prints\n"
	"\"FILE: valid fabric: N switches, M HCAs, L links\" and exits 0, or\n"
	"prints the first problem as \"ibfsim: FILE:LINE: what is wrong\" on\n"
	"stderr and exits 2.\n"
	"\n"
	"The schema is looked up in $IBFSIM_PLATFORMS when set.\n";

static int validate_fabric(xmlDoc *doc, const char *path)
{
	struct ibfs_diag d;
	struct ibfs_topology *t = ibfs__fabric_xml_load_doc(doc, path, &d);
	if (!t || ibfs__hca_check_profiles(t, &d) < 0) {
		ibfs_cli_error("%s", d.msg);
		ibfs__topo_free(t);
		return IBFS_EXIT_USAGE;
	}
	printf("%s: valid fabric: %zu switches, %zu HCAs, %zu links\n", path,
	       ibfs__topo_count(t, IBFS_NODE_SWITCH),
	       ibfs__topo_count(t, IBFS_NODE_HCA), t->nlinks);
	ibfs__topo_free(t);
	return IBFS_EXIT_OK;
}

/* Loads the scenario as `ibfsim run` would, running nothing. */
static int validate_scenario(xmlDoc *doc, const char *path)
{
	(void)doc;
	struct ibfs_diag d;
	struct ibfs_scenario *sc = ibfs__scenario_load(path, &d);
	if (!sc) {
		ibfs_cli_error("%s", d.msg);
		return IBFS_EXIT_USAGE;
	}
	printf("%s: valid scenario: %zu HCAs, %zu switches, %zu messages, "
	       "%zu patterns, %zu faults",
	       path, ibfs__topo_count(sc->topo, IBFS_NODE_HCA),
	       ibfs__topo_count(sc->topo, IBFS_NODE_SWITCH), sc->nmsgs,
	       sc->npats, sc->nfaults);
	if (sc->ngroups)
		printf(", %zu multicast groups, %zu multicast sends",
		       sc->ngroups, sc->nmcasts);
	putchar('\n');
	ibfs__scenario_free(sc);
	return IBFS_EXIT_OK;
}

int ibfs_cmd_validate(int argc, char **argv)
{
	const char *path = NULL;
	for (int i = 1; i < argc; i++) {
		if (ibfs_cli_is_help(argv[i])) {
			fputs(validate_usage, stdout);
			return IBFS_EXIT_OK;
		}
		if (argv[i][0] == '-' && argv[i][1]) {
			ibfs_cli_error("validate: unknown option '%s' (try "
				       "'ibfsim validate --help')", argv[i]);
			return IBFS_EXIT_USAGE;
		}
		if (path) {
			ibfs_cli_error("validate: one file at a time ('%s' "
				       "and '%s')", path, argv[i]);
			return IBFS_EXIT_USAGE;
		}
		path = argv[i];
	}
	if (!path) {
		fputs(validate_usage, stderr);
		return IBFS_EXIT_USAGE;
	}

	struct ibfs_diag d;
	xmlDoc *doc = ibfs__xml_parse_file(path, &d);
	if (!doc) {
		ibfs_cli_error("%s", d.msg);
		return IBFS_EXIT_USAGE;
	}
	xmlNode *root = xmlDocGetRootElement(doc);
	const char *name = (const char *)root->name;
	int rc;
	if (!strcmp(name, "fabric")) {
		rc = validate_fabric(doc, path);
	} else if (!strcmp(name, "scenario")) {
		rc = validate_scenario(doc, path);
	} else {
		ibfs_cli_error("%s:%ld: the root element <%s> is neither "
			       "<fabric> nor <scenario>", path,
			       ibfs__xml_line(root), name);
		rc = IBFS_EXIT_USAGE;
	}
	xmlFreeDoc(doc);
	return rc;
}
