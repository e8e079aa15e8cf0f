/* SPDX-License-Identifier: MIT */
/*
 * <ecn> in <transport> (docs/scenario-format.md): the thresholds and
 * maximum probability of the switches' RED-style ECN marking
 * (switch/eth_ecn.h), where the queue is looked at, and the priorities
 * marked. Read whatever the model, as <transport>'s Ethernet attributes
 * are; used under roce.
 */
#include <stdlib.h>
#include <string.h>

#include "fabric/units.h"
#include "fabric/xml_doc.h"
#include "scenario/scenario_xml_int.h"

/* pmax's decimals: parts of 10^9, a resolution no switch's table has. */
#define ECN_PMAX_DIGITS 9
#define ECN_PMAX_ONE 1000000000ull

/* "0", "1", "0.01": a decimal 0 to 1 as parts of 10^9; -1 if not one. */
static int ecn_parse_pmax(const char *v, uint64_t *ppb)
{
	uint64_t whole = 0, frac = 0;
	int nd = 0;
	const char *s = v;

	if (*s < '0' || *s > '9')
		return -1;
	while (*s >= '0' && *s <= '9' && whole <= 1)
		whole = whole * 10 + (uint64_t)(*s++ - '0');
	if (*s == '.') {
		s++;
		for (; *s >= '0' && *s <= '9'; s++, nd++)
			if (nd < ECN_PMAX_DIGITS)
				frac = frac * 10 + (uint64_t)(*s - '0');
			else if (*s != '0')
				return -1;
		if (!nd)
			return -1;
	}
	for (int i = nd; i < ECN_PMAX_DIGITS; i++)
		frac *= 10;
	if (*s || whole > 1 || whole * ECN_PMAX_ONE + frac > ECN_PMAX_ONE)
		return -1;
	*ppb = whole * ECN_PMAX_ONE + frac;
	return 0;
}

/* "3,4": priorities 0 to 7, a bit each; -1 if not such a list. */
static int ecn_parse_prios(const char *v, uint8_t *out)
{
	uint8_t m = 0;
	const char *s = v;

	for (;;) {
		if (*s < '0' || *s > '7' || (s[1] >= '0' && s[1] <= '9'))
			return -1;
		m |= (uint8_t)(1u << (*s - '0'));
		s++;
		if (!*s)
			break;
		if (*s++ != ',')
			return -1;
	}
	*out = m;
	return 0;
}

static int ecn_bad(struct sx *x, xmlNode *n, const char *name,
		   const char *v, const char *want)
{
	return ibfs__diag(x->d, x->file, ibfs__xml_line(n),
			  "<ecn> %s=\"%s\": %s", name, v, want);
}

/* pmax and priorities: the attributes without a unit. */
static int ecn_plain_attrs(struct sx *x, xmlNode *n, struct ibfs_sc_ecn *e)
{
	char *pm = (char *)xmlGetProp(n, (const xmlChar *)"pmax");
	char *pr = (char *)xmlGetProp(n, (const xmlChar *)"priorities");
	uint64_t ppb = 0;
	int rc = 0;

	e->prios = 0xFF;
	if (pm && ecn_parse_pmax(pm, &ppb) < 0)
		rc = ecn_bad(x, n, "pmax", pm, "a decimal from 0 to 1 (at most "
			     "9 decimals), the marking probability at kmax "
			     "(\"0.01\": 1%)");
	else if (pr && ecn_parse_prios(pr, &e->prios) < 0)
		rc = ecn_bad(x, n, "priorities", pr, "priorities 0 to 7 "
			     "separated by commas, e.g. \"3,4\"");
	e->pmax = (double)ppb / (double)ECN_PMAX_ONE;
	xmlFree(pm);
	xmlFree(pr);
	return rc;
}

/* One <ecn>: kmin, kmax and pmax needed (scenario_check.c). */
static int ecn_read(struct sx *x, xmlNode *n, struct ibfs_sc_ecn *e)
{
	static const char *const at[] = {"dequeue", "enqueue"};
	const struct ibfs_sx_attrs *a = &ibfs__sx_attrs;

	if (a->unit(x, n, "kmin", ibfs__parse_size, "size", 0, &e->kmin) < 0 ||
	    a->unit(x, n, "kmax", ibfs__parse_size, "size", 0, &e->kmax) < 0 ||
	    a->enumerated(x, n, "mark", at, 2, 0, &e->enqueue) < 0 ||
	    ecn_plain_attrs(x, n, e) < 0)
		return -1;
	if (e->kmin > e->kmax)
		return ibfs__diag(x->d, x->file, ibfs__xml_line(n),
				  "<ecn> kmin (%llu bytes) is above kmax "
				  "(%llu bytes): kmin <= kmax",
				  (unsigned long long)e->kmin,
				  (unsigned long long)e->kmax);
	e->line = ibfs__xml_line(n);
	return 0;
}

int ibfs__sx_read_ecn(struct sx *x, xmlNode *transport)
{
	struct ibfs_sc_ecn *e = &x->s->eth.ecn;

	for (xmlNode *n = transport->children; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE ||
		    strcmp((const char *)n->name, "ecn"))
			continue;
		if (e->line)
			return ibfs__diag(x->d, x->file, ibfs__xml_line(n),
					  "a second <ecn> (the first is at "
					  "line %ld): <transport> has one",
					  e->line);
		if (ecn_read(x, n, e) < 0)
			return -1;
	}
	return 0;
}
