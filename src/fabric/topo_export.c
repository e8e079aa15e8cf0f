/* SPDX-License-Identifier: MIT */
/*
 * Exporters of a topology (see topo_export.h). Links whose speed, width
 * or cable differ from the defaults carry them as attributes in XML, and
 * so do switches whose latency (when the source gave one), shared-buffer
 * or alpha (the roce model's settings) differ from the defaults'. The
 * .net writer lists each link at both ends, as ibnetdiscover does (ibsim
 * insists that both ends agree), and gives the width and speed as ibsim's
 * 'w=N s=N e=N' codes, so that the ports ibsim simulates run at the
 * link's speed (without them, 4x SDR) and ibnetdiscover reports it.
 */
#include <inttypes.h>
#include <string.h>

#include "fabric/topo_export.h"

/* Writes s with XML's five special characters escaped. */
static void exp_xml_str(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default: fputc(*s, f);
		}
	}
}

/* Lengths in the largest exact unit (mm, m or km). */
static void exp_length(FILE *f, uint64_t mm)
{
	if (mm % 1000)
		fprintf(f, "%" PRIu64 "mm", mm);
	else
		fprintf(f, "%" PRIu64 "m", mm / 1000);
}

/* Sizes in the largest exact unit (B, KiB, MiB or GiB). */
static void exp_size(FILE *f, uint64_t b)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB"};
	int u = 0;

	while (u < 3 && b && !(b % 1024)) {
		b /= 1024;
		u++;
	}
	fprintf(f, "%" PRIu64 "%s", b, unit[u]);
}

/* Times in the largest exact unit (ps, ns, us, ms or s). */
static void exp_time(FILE *f, uint64_t ps)
{
	static const char *const unit[] = {"ps", "ns", "us", "ms", "s"};
	int u = 0;

	while (u < 4 && ps && !(ps % 1000)) {
		ps /= 1000;
		u++;
	}
	fprintf(f, "%" PRIu64 "%s", ps, unit[u]);
}

/*
 * alpha = num / den as the decimal the reader takes: den divides 10^7
 * (xml_fabric.c reads at most 7 digits after the point), so the decimal
 * is exact; trailing zeros are left out.
 */
static void exp_alpha(FILE *f, uint32_t num, uint32_t den)
{
	uint64_t scaled = (uint64_t)num * (10000000 / den);
	uint64_t whole = scaled / 10000000, frac = scaled % 10000000;
	int digits = 7;

	fprintf(f, "%" PRIu64, whole);
	if (!frac)
		return;
	while (!(frac % 10)) {
		frac /= 10;
		digits--;
	}
	fprintf(f, ".%0*" PRIu64, digits, frac);
}

/*
 * The switch settings of the roce model (and latency, which it shares
 * with InfiniBand) that `n` has and `base` has not; base NULL: the
 * <defaults>' own, which n then is.
 */
static void exp_switch_eth(FILE *f, const struct ibfs_topo_defaults *n,
			   const struct ibfs_topo_defaults *base)
{
	if (n->latency_set && !(base && base->latency_set &&
				base->latency == n->latency)) {
		fputs(" latency=\"", f);
		exp_time(f, n->latency);
		fputc('"', f);
	}
	if (n->eth_buffer && !(base && base->eth_buffer == n->eth_buffer)) {
		fputs(" shared-buffer=\"", f);
		exp_size(f, n->eth_buffer);
		fputc('"', f);
	}
	if (n->alpha_den && !(base && base->alpha_num == n->alpha_num &&
			      base->alpha_den == n->alpha_den)) {
		fputs(" alpha=\"", f);
		exp_alpha(f, n->alpha_num, n->alpha_den);
		fputc('"', f);
	}
}

int ibfs__topo_write_xml(const struct ibfs_topology *t, FILE *f)
{
	const struct ibfs_topo_defaults *df = &t->def;
	fputs("<?xml version=\"1.0\"?>\n<fabric version=\"1\" name=\"", f);
	exp_xml_str(f, t->name && *t->name ? t->name : "fabric");
	fprintf(f, "\">\n  <defaults speed=\"%s\" width=\"%dx\" mtu=\"%d\" data-vls=\"%d\" cable=\"",
		ibfs__speed_str(df->speed), df->width, df->mtu, df->data_vls);
	exp_length(f, df->cable_mm);
	fputc('"', f);
	exp_switch_eth(f, df, NULL);
	fputs("/>\n", f);
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct ibfs_topo_node *n = &t->nodes[i];
		fprintf(f, "  <%s id=\"",
			n->type == IBFS_NODE_SWITCH ? "switch" : "hca");
		exp_xml_str(f, n->id);
		fprintf(f, "\" ports=\"%d\"", n->nports);
		if (t->guids_pinned)
			fprintf(f, " guid=\"0x%016llx\"",
				(unsigned long long)n->guid);
		if (n->desc && strcmp(n->desc, n->id)) {
			fputs(" desc=\"", f);
			exp_xml_str(f, n->desc);
			fputc('"', f);
		}
		if (n->type == IBFS_NODE_SWITCH) {
			struct ibfs_topo_defaults sw = {
				.latency = n->latency,
				.latency_set = n->latency_set,
				.eth_buffer = n->eth_buffer,
				.alpha_num = n->alpha_num,
				.alpha_den = n->alpha_den};

			exp_switch_eth(f, &sw, df);
		}
		fputs("/>\n", f);
	}
	for (size_t i = 0; i < t->nlinks; i++) {
		const struct ibfs_topo_link *l = &t->links[i];
		fputs("  <link a=\"", f);
		exp_xml_str(f, t->nodes[l->node_a].id);
		fprintf(f, ":%d\" b=\"", l->port_a);
		exp_xml_str(f, t->nodes[l->node_b].id);
		fprintf(f, ":%d\"", l->port_b);
		if (l->speed != df->speed)
			fprintf(f, " speed=\"%s\"", ibfs__speed_str(l->speed));
		if (l->width != df->width)
			fprintf(f, " width=\"%dx\"", l->width);
		if (l->cable_mm != df->cable_mm) {
			fputs(" cable=\"", f);
			exp_length(f, l->cable_mm);
			fputc('"', f);
		}
		fputs("/>\n", f);
	}
	fputs("</fabric>\n", f);
	return ferror(f) ? -1 : 0;
}

/* ibsim's w= code for a width: IBA LinkWidthEnabled (see topo_netfile.h). */
static int exp_width_code(int lanes)
{
	switch (lanes) {
	case 1: return 1;
	case 2: return 16;
	case 8: return 4;
	case 12: return 8;
	default: return 2; /* 4x */
	}
}

/*
 * ibsim's s= and e= codes for a speed: PortInfo LinkSpeedEnabled and
 * LinkSpeedExtEnabled (IBA 14.2.5.6), every speed up to the link's
 * enabled, as a port enables them; e= 0 is left out. Debian 12's ibsim
 * (0.10) takes e= up to 7, HDR: NDR and XDR links are enabled at HDR
 * there (the comment keeps their speed, which the import reads first),
 * and FDR10, which LinkSpeedEnabled cannot name, at QDR.
 */
static void exp_speed_codes(enum ibfs_speed sp, int *s, int *e)
{
	*s = sp == IBFS_SPEED_SDR ? 1 : sp == IBFS_SPEED_DDR ? 3 : 7;
	*e = sp == IBFS_SPEED_FDR ? 1 : sp == IBFS_SPEED_EDR ? 3
	     : sp >= IBFS_SPEED_HDR ? 7 : 0;
}

int ibfs__topo_netfile_check(const struct ibfs_topology *t,
			     struct ibfs_diag *d)
{
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct ibfs_topo_node *n = &t->nodes[i];
		const char *bad = strpbrk(n->id, "\"\n") ? n->id
				  : n->desc && strpbrk(n->desc, "\"\n") ? n->desc
									: NULL;
		if (bad)
			return ibfs__diag(d, t->file, n->line,
					  "'%s' holds a '\"' or a line break, "
					  "which the ibnetdiscover format "
					  "cannot quote", bad);
	}
	return 0;
}

int ibfs__topo_write_netfile(const struct ibfs_topology *t, FILE *f)
{
	fprintf(f, "# Written by ibfsim from fabric '%s'.\n",
		t->name ? t->name : "");
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct ibfs_topo_node *n = &t->nodes[i];
		int sw = n->type == IBFS_NODE_SWITCH;
		fprintf(f, "\n%s=0x%016" PRIx64 "\n%s\t%d \"%s\"\t\t# \"%s\"\n",
			sw ? "switchguid" : "caguid", n->guid,
			sw ? "Switch" : "Ca", n->nports, n->id,
			n->desc ? n->desc : n->id);
		for (int p = 1; p <= n->nports; p++) {
			const struct ibfs_topo_port *tp = &n->ports[p];
			if (tp->peer_node < 0)
				continue;
			const struct ibfs_topo_link *l = &t->links[tp->link];
			int s, e;
			exp_speed_codes(l->speed, &s, &e);
			fprintf(f, "[%d]\t\"%s\"[%d]\tw=%d s=%d", p,
				t->nodes[tp->peer_node].id, tp->peer_port,
				exp_width_code(l->width), s);
			if (e)
				fprintf(f, " e=%d", e);
			fprintf(f, "\t# %dx%s\n", l->width,
				ibfs__speed_str(l->speed));
		}
	}
	return ferror(f) ? -1 : 0;
}

/* A dot quoted string: backslash and double quote escaped. */
static void exp_dot_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

int ibfs__topo_write_dot(const struct ibfs_topology *t, FILE *f)
{
	fputs("graph ", f);
	exp_dot_str(f, t->name ? t->name : "");
	fputs(" {\n", f);
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct ibfs_topo_node *n = &t->nodes[i];
		fputc('\t', f);
		exp_dot_str(f, n->id);
		fprintf(f, " [shape=%s];\n",
			n->type == IBFS_NODE_SWITCH ? "box" : "ellipse");
	}
	for (size_t i = 0; i < t->nlinks; i++) {
		const struct ibfs_topo_link *l = &t->links[i];
		fputc('\t', f);
		exp_dot_str(f, t->nodes[l->node_a].id);
		fputs(" -- ", f);
		exp_dot_str(f, t->nodes[l->node_b].id);
		fprintf(f, " [taillabel=\"%d\", headlabel=\"%d\"];\n",
			l->port_a, l->port_b);
	}
	fputs("}\n", f);
	return ferror(f) ? -1 : 0;
}
