/* SPDX-License-Identifier: MIT */
/*
 * The fabric XML's attribute values (docs/fabric-format.md): each read
 * exactly with its unit (units.h) and checked against its rule, with a
 * "FILE:LINE: element attr=\"value\": rule" sentence when it breaks it,
 * the same whether the file passed the schema or not.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/units.h"
#include "fabric/xml_doc.h"
#include "fabric/xml_fabric_int.h"

void ibfs__fx_attrs_free(struct fx_attrs *a)
{
	for (int i = 0; i < a->n; i++)
		xmlFree(a->value[i]);
	a->n = 0;
}

/*
 * Copies el's attributes into a, refusing names not in `allowed` (a NULL
 * terminated list; NULL allows any name). Returns 0 or -1 with diag.
 */
int ibfs__fx_attrs_get(struct fx *x, const xmlNode *el,
			const char *const *allowed, struct fx_attrs *a)
{
	long line = ibfs__xml_line(el);
	a->el = el;
	a->n = 0;
	for (const xmlAttr *at = el->properties; at; at = at->next) {
		const char *name = (const char *)at->name;
		int ok = !allowed;
		for (int i = 0; allowed && allowed[i] && !ok; i++)
			ok = !strcmp(allowed[i], name);
		/* The format has no namespaces: "x:name" is unknown too. */
		if (!ok || at->ns) {
			ibfs__fx_attrs_free(a);
			return ibfs__diag(x->d, x->file, line,
					  "unknown attribute '%s' on <%s>",
					  name, (const char *)el->name);
		}
		if (a->n == FX_MAX_ATTRS) {
			ibfs__fx_attrs_free(a);
			return ibfs__diag(x->d, x->file, line,
					  "more than %d attributes on <%s>",
					  FX_MAX_ATTRS,
					  (const char *)el->name);
		}
		xmlChar *v = xmlNodeListGetString(el->doc, at->children, 1);
		a->name[a->n] = name;
		a->value[a->n++] = v ? (char *)v : (char *)xmlStrdup(
							 BAD_CAST "");
	}
	return 0;
}

const char *ibfs__fx_get(const struct fx_attrs *a, const char *name)
{
	for (int i = 0; i < a->n; i++)
		if (!strcmp(a->name[i], name))
			return a->value[i];
	return NULL;
}

int ibfs__fx_need(struct fx *x, const struct fx_attrs *a, const char *name,
		  const char **out)
{
	*out = ibfs__fx_get(a, name);
	if (*out)
		return 0;
	return ibfs__diag_needs(x->d, x->file, ibfs__xml_line(a->el),
				(const char *)a->el->name, name);
}

/* Reports a units.h parse error for attribute `name`. */
static int fx_unit_err(struct fx *x, const struct fx_attrs *a,
		       const char *name, const char *v, int err,
		       const char *quantity)
{
	return ibfs__diag(x->d, x->file, ibfs__xml_line(a->el),
			  "<%s> %s=\"%s\": %s", (const char *)a->el->name,
			  name, v, ibfs__unit_strerror(err, quantity));
}

/*
 * Each fx_opt_* reads an optional attribute into *out when present and
 * leaves *out alone otherwise. They return 0 or -1 with diag.
 */
static int fx_opt_time(struct fx *x, const struct fx_attrs *a,
		       const char *name, ibfs_time_t *out)
{
	const char *v = ibfs__fx_get(a, name);
	uint64_t ps;
	int err;
	if (!v)
		return 0;
	if ((err = ibfs__parse_time(v, &ps)) < 0)
		return fx_unit_err(x, a, name, v, err, "time");
	*out = ps;
	return 0;
}

static int fx_opt_size(struct fx *x, const struct fx_attrs *a,
		       const char *name, uint64_t *out)
{
	const char *v = ibfs__fx_get(a, name);
	uint64_t bytes;
	int err;
	if (!v)
		return 0;
	if ((err = ibfs__parse_size(v, &bytes)) < 0)
		return fx_unit_err(x, a, name, v, err, "size");
	if (bytes == 0)
		return ibfs__diag(x->d, x->file, ibfs__xml_line(a->el),
				  "<%s> %s=\"%s\": a buffer of 0 bytes holds "
				  "no credits", (const char *)a->el->name,
				  name, v);
	*out = bytes;
	return 0;
}

/*
 * A buffer the file gives must leave each data VL room for the largest
 * packet of the fabric's MTU (ibfs__topo_min_buffer, which says why): with
 * less, such a packet would wait for credits for ever, with nothing to
 * tell why. The <defaults> come first (fabric.rng), so the MTU and the
 * data VLs are known here.
 */
int ibfs__fx_opt_buffer(struct fx *x, const struct fx_attrs *a,
			uint64_t *out)
{
	const char *v = ibfs__fx_get(a, "buffer");
	const struct ibfs_topo_defaults *def = &x->t->def;
	uint64_t min = ibfs__topo_min_buffer(def->mtu, def->data_vls);

	if (!v)
		return 0;
	if (fx_opt_size(x, a, "buffer", out) < 0)
		return -1;
	if (*out >= min)
		return 0;
	uint64_t per_vl = min / (uint64_t)def->data_vls;

	return ibfs__diag(x->d, x->file, ibfs__xml_line(a->el),
			  "<%s> buffer=\"%s\": %d data VL%s x 1 packet of the "
			  "%d-byte MTU (%llu bytes in credits) need at least "
			  "%llu bytes; raise buffer, or lower mtu or data-vls",
			  (const char *)a->el->name, v, def->data_vls,
			  def->data_vls == 1 ? "" : "s", def->mtu,
			  (unsigned long long)per_vl,
			  (unsigned long long)min);
}

/*
 * The Ethernet switch's shared packet buffer under roce (shared-buffer),
 * which replaces its profile's (switch/eth_switch.h). The upper bound
 * keeps the dynamic threshold, alpha x the free pool, within 64 bits
 * (alpha's numerator is below 2^30, fx_opt_alpha); it is far above the
 * buffers of switch ASICs, tens of MiB. Whether the buffer holds the
 * reserves and the headroom depends on the links and the profile: the
 * switch itself checks that when it is built (ibfs__eth_switch_create).
 */
#define FX_ETH_BUFFER_MAX ((uint64_t)4 << 30)

static int fx_opt_shared_buffer(struct fx *x, const struct fx_attrs *a,
				uint64_t *out)
{
	const char *v = ibfs__fx_get(a, "shared-buffer");
	uint64_t bytes;
	int err;

	if (!v)
		return 0;
	if ((err = ibfs__parse_size(v, &bytes)) < 0)
		return fx_unit_err(x, a, "shared-buffer", v, err, "size");
	if (bytes == 0 || bytes > FX_ETH_BUFFER_MAX)
		return ibfs__diag(x->d, x->file, ibfs__xml_line(a->el),
				  "<%s> shared-buffer=\"%s\": a shared packet "
				  "buffer is more than 0 bytes and at most "
				  "4 GiB", (const char *)a->el->name, v);
	*out = bytes;
	return 0;
}

static uint32_t fx_gcd(uint32_t a, uint32_t b)
{
	while (b) {
		uint32_t r = a % b;

		a = b;
		b = r;
	}
	return a;
}

/*
 * alpha: the dynamic threshold of an Ethernet switch's lossy egress
 * queues under roce (Choudhury and Hahne, "Dynamic Queue Length
 * Thresholds for Shared-Memory Packet Switches", IEEE/ACM ToN 6(2),
 * 1998): a queue may hold alpha x the free shared pool. Written as a
 * decimal, "1", "0.5", "0.0078125", with at most 7 digits after the
 * point so that the powers of two from 1/128 that switch ASICs offer are
 * exact; kept as the reduced fraction num / den. Above 64 the threshold
 * is no longer a limit in practice (a queue takes the whole pool long
 * before), and the bound keeps num below 2^30.
 */
#define FX_ALPHA_DIGITS 7
#define FX_ALPHA_MAX 64
#define FX_ALPHA_SCALE 10000000 /* 10^FX_ALPHA_DIGITS */

/* 0, -1 when v is not such a decimal, -2 when it is out of range. */
static int fx_parse_alpha(const char *v, uint32_t *num, uint32_t *den)
{
	size_t ni = strspn(v, "0123456789"), nf = 0;
	uint64_t n = 0, d = 1;

	if (v[ni] == '.') {
		nf = strspn(v + ni + 1, "0123456789");
		if (!nf || nf > FX_ALPHA_DIGITS)
			return -1;
	}
	if (!ni || v[ni + (nf ? nf + 1 : 0)])
		return -1;
	for (const char *c = v; c < v + ni + (nf ? nf + 1 : 0); c++) {
		if (*c == '.')
			continue;
		n = n * 10 + (uint64_t)(*c - '0');
		if (c > v + ni)
			d *= 10;
		/* d <= FX_ALPHA_SCALE: past this n is out of range. */
		if (n > FX_ALPHA_MAX * (uint64_t)FX_ALPHA_SCALE)
			return -2;
	}
	if (n == 0 || n > FX_ALPHA_MAX * d)
		return -2;
	uint32_t g = fx_gcd((uint32_t)n, (uint32_t)d);

	*num = (uint32_t)n / g;
	*den = (uint32_t)d / g;
	return 0;
}

static int fx_opt_alpha(struct fx *x, const struct fx_attrs *a,
			uint32_t *num, uint32_t *den)
{
	const char *v = ibfs__fx_get(a, "alpha");
	int rc;

	if (!v || !(rc = fx_parse_alpha(v, num, den)))
		return 0;
	if (rc == -1)
		return ibfs__diag(x->d, x->file, ibfs__xml_line(a->el),
				  "<%s> alpha=\"%s\": alpha is a decimal "
				  "number such as 1, 0.5 or 0.0078125, with at "
				  "most %d digits after the point",
				  (const char *)a->el->name, v,
				  FX_ALPHA_DIGITS);
	return ibfs__diag(x->d, x->file, ibfs__xml_line(a->el),
			  "<%s> alpha=\"%s\": alpha is more than 0 and at "
			  "most %d", (const char *)a->el->name, v,
			  FX_ALPHA_MAX);
}

/*
 * A switch's settings that its Ethernet profile takes under roce:
 * latency (given here or in <defaults>) replaces the profile's port-to-
 * port latency, shared-buffer its buffer and alpha its lossy alpha. The
 * InfiniBand buffer, the input buffer of one port, plays no part there.
 */
int ibfs__fx_opt_eth(struct fx *x, const struct fx_attrs *a,
		     ibfs_time_t *latency, int *latency_set,
		     uint64_t *eth_buffer, uint32_t *num, uint32_t *den)
{
	if (fx_opt_time(x, a, "latency", latency) < 0 ||
	    fx_opt_shared_buffer(x, a, eth_buffer) < 0 ||
	    fx_opt_alpha(x, a, num, den) < 0)
		return -1;
	if (ibfs__fx_get(a, "latency"))
		*latency_set = 1;
	return 0;
}

int ibfs__fx_opt_length(struct fx *x, const struct fx_attrs *a,
			const char *name, uint64_t *out)
{
	const char *v = ibfs__fx_get(a, name);
	uint64_t mm;
	int err;
	if (!v)
		return 0;
	if ((err = ibfs__parse_length(v, &mm)) < 0)
		return fx_unit_err(x, a, name, v, err, "length");
	*out = mm;
	return 0;
}

int ibfs__fx_opt_speed(struct fx *x, const struct fx_attrs *a,
			enum ibfs_speed *out)
{
	const char *v = ibfs__fx_get(a, "speed");
	if (v && ibfs__speed_parse(v, out) < 0)
		return ibfs__diag(x->d, x->file, ibfs__xml_line(a->el),
				  "<%s> speed=\"%s\": unknown speed (SDR, DDR, "
				  "QDR, FDR10, FDR, EDR, HDR, NDR or XDR)",
				  (const char *)a->el->name, v);
	return 0;
}

int ibfs__fx_opt_width(struct fx *x, const struct fx_attrs *a, int *out)
{
	const char *v = ibfs__fx_get(a, "width");
	if (!v)
		return 0;
	int lanes = ibfs__width_parse(v);
	if (lanes < 0)
		return ibfs__diag(x->d, x->file, ibfs__xml_line(a->el),
				  "<%s> width=\"%s\": unknown width (1x, 2x, "
				  "4x, 8x or 12x)", (const char *)a->el->name,
				  v);
	*out = lanes;
	return 0;
}

/*
 * A plain count that must be one of `set` (n values), or in [lo, hi] when
 * set is NULL. `rule` completes the sentence of the error.
 */
int ibfs__fx_opt_count(struct fx *x, const struct fx_attrs *a,
			const char *name, const int *set, int n, long lo,
			long hi, const char *rule, int *out)
{
	const char *v = ibfs__fx_get(a, name);
	uint64_t u;
	int err;
	if (!v)
		return 0;
	if ((err = ibfs__parse_uint(v, &u)) < 0)
		return fx_unit_err(x, a, name, v, err, "number");
	int ok = 0;
	for (int i = 0; set && i < n; i++)
		ok |= u == (uint64_t)set[i];
	if (!set)
		ok = u >= (uint64_t)lo && u <= (uint64_t)hi;
	if (!ok)
		return ibfs__diag(x->d, x->file, ibfs__xml_line(a->el),
				  "<%s> %s=\"%s\": %s",
				  (const char *)a->el->name, name, v, rule);
	*out = (int)u;
	return 0;
}

int ibfs__fx_opt_profile(struct fx *x, const struct fx_attrs *a,
			 char **out)
{
	const char *v = ibfs__fx_get(a, "profile");
	if (!v)
		return 0;
	if (!*v)
		return ibfs__diag(x->d, x->file, ibfs__xml_line(a->el),
				  "<%s> profile=\"\": a profile needs a name",
				  (const char *)a->el->name);
	char *p = strdup(v);
	if (!p)
		return ibfs__diag(x->d, x->file, ibfs__xml_line(a->el),
				  "out of memory");
	free(*out);
	*out = p;
	return 0;
}

