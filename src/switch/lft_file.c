/* SPDX-License-Identifier: MIT */
/*
 * Reading OpenSM's opensm-lfts.dump (lft_file.h has the format): the
 * reader, which accepts what OpenSM and dump_lfts.sh write and reports the
 * first bad line as "FILE:LINE: ...", and its use by the switches of a
 * fabric, found by node GUID (as OpenSM's file engine does), else by the
 * quoted description or node id. There the header's LID becomes the
 * switch's own LID. The subnet manager's file engine reads the same files
 * into its subnet (subnet_manager/lft_dump.c).
 */
#include "switch/lft_file.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "switch/switch_int.h"

/* A header line: its GUID (required), LID and description. */
static int lft_header(char *s, const struct ibfs_lft_file_ops *ops,
		      void *arg, const char *file, long line,
		      struct ibfs_diag *d)
{
	char *g = strstr(s, " guid ");
	char *l = strstr(s, " Lid ");
	char *end = NULL;
	struct ibfs_lft_block b = {0};

	b.guid = g ? strtoull(g + 6, &end, 16) : 0;
	if (!g || end == g + 6)
		return ibfs__diag(d, file, line,
				  "a 'Unicast lids' line without 'guid 0x...'");
	b.lid = l ? strtoul(l + 5, NULL, 10) : 0;
	char *q = strchr(end, '\'');
	char *e = q ? strrchr(q + 1, '\'') : NULL;

	if (e && e > q + 1) {
		*e = 0;
		b.desc = q + 1;
	}
	return ops->block(arg, &b, file, line, d);
}

/* An entry line, "LID PORT" and an optional comment. */
static int lft_entry(const char *s, int in_block,
		     const struct ibfs_lft_file_ops *ops, void *arg,
		     const char *file, long line, struct ibfs_diag *d)
{
	char *e1, *e2 = NULL;
	unsigned long lid = strtoul(s, &e1, 16);
	unsigned long port = e1 != s ? strtoul(e1, &e2, 10) : 0;

	if (e1 == s || e2 == e1 || (*e2 && !strchr(" \t#", *e2)))
		return ibfs__diag(d, file, line,
				  "expected 'LID PORT' as in '0x0001 001 # ...'");
	if (!in_block)
		return ibfs__diag(d, file, line,
				  "an LFT entry outside a 'Unicast lids' block");
	return ops->entry(arg, lid, port, file, line, d);
}

/* One line, its end of line removed; in_block: a header opened a block. */
static int lft_line(char *buf, int *in_block,
		    const struct ibfs_lft_file_ops *ops, void *arg,
		    const char *file, long line, struct ibfs_diag *d)
{
	size_t len = strlen(buf);

	while (len && strchr("\r\n \t", buf[len - 1]))
		buf[--len] = 0;
	char *s = buf + strspn(buf, " \t");

	if (!*s || *s == '#')
		return 0;
	if (!strncmp(s, "Unicast lids", 12)) {
		*in_block = 1;
		return lft_header(s, ops, arg, file, line, d);
	}
	if (strstr(s, "lids dumped")) {
		*in_block = 0;
		return 0;
	}
	return lft_entry(s, *in_block, ops, arg, file, line, d);
}

int ibfs__lft_file_read(const char *path, const struct ibfs_lft_file_ops *ops,
			void *arg, struct ibfs_diag *d)
{
	FILE *f = fopen(path, "r");
	char buf[1024];
	long line = 0;
	int rc = 0, in_block = 0;

	if (!f)
		return ibfs__diag(d, path, 0, "cannot open: %s",
				  strerror(errno));
	while (!rc && fgets(buf, sizeof(buf), f)) {
		line++;
		if (!strchr(buf, '\n') && !feof(f))
			rc = ibfs__diag(d, path, line, "line too long");
		else
			rc = lft_line(buf, &in_block, ops, arg, path, line, d);
	}
	fclose(f);
	return rc;
}

/* The switches of a fabric as the reader fills them. */
struct sw_load {
	struct ibfs_fabric *f;
	struct ibfs_switch *sw; /* the current block's */
};

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

static int sw_block(void *arg, const struct ibfs_lft_block *b,
		    const char *file, long line, struct ibfs_diag *d)
{
	struct sw_load *x = arg;

	x->sw = lft_find(x->f, b->guid, b->desc);
	if (!x->sw)
		return ibfs__diag(d, file, line,
				  "no switch with GUID 0x%016" PRIx64
				  " ('%s') in the fabric", b->guid,
				  b->desc ? b->desc : "");
	if (b->lid > 0xBFFF)
		return ibfs__diag(d, file, line,
				  "switch LID %lu is not a unicast LID", b->lid);
	if (b->lid)
		ibfs__switch_set_lid(x->sw, (uint16_t)b->lid);
	return 0;
}

static int sw_entry(void *arg, unsigned long lid, unsigned long port,
		    const char *file, long line, struct ibfs_diag *d)
{
	struct ibfs_switch *sw = ((struct sw_load *)arg)->sw;

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
	static const struct ibfs_lft_file_ops ops = {sw_block, sw_entry};
	struct sw_load x = {f, NULL};

	return ibfs__lft_file_read(path, &ops, &x, d);
}
