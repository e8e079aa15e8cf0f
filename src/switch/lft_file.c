/* SPDX-License-Identifier: MIT */
/*
 * Linear forwarding tables from a file in the format OpenSM writes to
 * opensm-lfts.dump and reads back with `-R file -U FILE` (its `file`
 * routing engine), and that dump_fts prints. Each switch has a block:
 *
 *   Unicast lids [0-MAX] of switch Lid L guid 0xGUID ('description'):
 *   0xLID PORT # optional comment
 *   ...
 *   N lids dumped
 *
 * LID and GUID in hexadecimal, PORT in decimal. Switches are found by node
 * GUID (as OpenSM's file engine does), else by the quoted description or
 * node id. The header's LID becomes the switch's own LID. Until the subnet
 * manager computes routes, this is how a fabric gets them from OpenSM or
 * from a real cluster.
 */
#include "switch/switch_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The switch named by a header's GUID or description, or NULL. */
static struct ibfs_switch *lft_find(struct ibfs_fabric *f, uint64_t guid,
				    const char *desc)
{
	const struct ibfs_topology *t = f->topo;

	for (size_t n = 0; n < t->nnodes; n++)
		if (t->nodes[n].type == IBFS_NODE_SWITCH && guid &&
		    t->nodes[n].guid == guid)
			return ibfs__switch_of(f->devices[n]);
	for (size_t n = 0; desc && n < t->nnodes; n++) {
		const struct ibfs_topo_node *tn = &t->nodes[n];

		if (tn->type == IBFS_NODE_SWITCH &&
		    (!strcmp(tn->id, desc) || (tn->desc && !strcmp(tn->desc,
								  desc))))
			return ibfs__switch_of(f->devices[n]);
	}
	return NULL;
}

/* Parses a block header; returns 0 or -1 with the diag filled. */
static int lft_header(struct ibfs_fabric *f, const char *s, const char *file,
		      long line, struct ibfs_switch **sw, struct ibfs_diag *d)
{
	unsigned lid;
	uint64_t guid;
	int used = 0;

	if (sscanf(s, "Unicast lids [%*[^]]] of switch Lid %u guid 0x%" SCNx64
		      " %n", &lid, &guid, &used) != 2 || !used)
		return ibfs__diag(d, file, line,
				  "malformed switch header (expected "
				  "\"Unicast lids [0-N] of switch Lid L guid "
				  "0xGUID ('name'):\")");
	char desc[256] = "";
	const char *q = strchr(s + used, '\'');
	const char *e = q ? strrchr(q + 1, '\'') : NULL;

	if (q && e && (size_t)(e - q - 1) < sizeof(desc))
		memcpy(desc, q + 1, (size_t)(e - q - 1));
	*sw = lft_find(f, guid, desc[0] ? desc : NULL);
	if (!*sw)
		return ibfs__diag(d, file, line,
				  "no switch with GUID 0x%016" PRIx64
				  " ('%s') in the fabric", guid, desc);
	if (lid > 0xBFFF)
		return ibfs__diag(d, file, line,
				  "switch LID %u is not a unicast LID", lid);
	if (lid)
		ibfs__switch_set_lid(*sw, (uint16_t)lid);
	return 0;
}

static int lft_entry(struct ibfs_switch *sw, const char *s, const char *file,
		     long line, struct ibfs_diag *d)
{
	char *end;
	unsigned long lid, port;

	errno = 0;
	lid = strtoul(s, &end, 16);
	if (end == s || errno || (*end != ' ' && *end != '\t'))
		return ibfs__diag(d, file, line, "malformed LFT entry '%s'",
				  s);
	const char *ps = end;

	port = strtoul(ps, &end, 10);
	if (end == ps || errno || (*end && *end != ' ' && *end != '\t' &&
				   *end != '#'))
		return ibfs__diag(d, file, line, "malformed LFT entry '%s'",
				  s);
	if (!sw)
		return ibfs__diag(d, file, line,
				  "LFT entry before any switch header");
	if (lid == 0 || lid > 0xBFFF)
		return ibfs__diag(d, file, line,
				  "LID 0x%lx is not a unicast LID (1-0xbfff)",
				  lid);
	if (port > (unsigned long)sw->n)
		return ibfs__diag(d, file, line,
				  "port %lu out of range for switch '%s' "
				  "(0-%d)", port,
				  sw->dev.fab->topo->nodes[sw->dev.node].id,
				  sw->n);
	/* The LID and port are checked above: only growing the LFT fails. */
	if (ibfs__switch_set_lft(sw, (uint16_t)lid, (uint8_t)port) < 0)
		return ibfs__diag(d, file, line,
				  "out of memory for the LFT of LID 0x%lx",
				  lid);
	return 0;
}

int ibfs__switch_load_lfts(struct ibfs_fabric *f, const char *path,
			   struct ibfs_diag *d)
{
	FILE *fp = fopen(path, "r");

	if (!fp)
		return ibfs__diag(d, path, 0, "cannot open: %s",
				  strerror(errno));
	char buf[1024];
	long line = 0;
	struct ibfs_switch *sw = NULL;
	int rc = 0;

	while (!rc && fgets(buf, sizeof(buf), fp)) {
		line++;
		size_t len = strlen(buf);

		if (len == sizeof(buf) - 1 && buf[len - 1] != '\n') {
			rc = ibfs__diag(d, path, line, "line too long");
			break;
		}
		while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r' ||
			       buf[len - 1] == ' '))
			buf[--len] = 0;
		const char *s = buf + strspn(buf, " \t");
		unsigned n;
		int used = 0;

		if (!*s || *s == '#')
			continue;
		if (!strncmp(s, "Unicast lids", 12))
			rc = lft_header(f, s, path, line, &sw, d);
		else if (!strncmp(s, "0x", 2))
			rc = lft_entry(sw, s, path, line, d);
		else if (sscanf(s, "%u lids dumped%n", &n, &used) == 1 &&
			 used && !s[used])
			sw = NULL;
		else
			rc = ibfs__diag(d, path, line,
					"unrecognised line '%.60s'", s);
	}
	fclose(fp);
	return rc;
}
