/* SPDX-License-Identifier: MIT */
/*
 * The registry of RoCEv2 congestion controls (cc_roce.h): the table of
 * controls, and the parse of their parameters from "name=value" strings
 * with the units of fabric/units.h, checked against each parameter's
 * range. Errors say what is wrong and what is expected.
 */
#include "hca/cc_roce.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/units.h"
#include "hca/hca_int.h"

const struct ibfs_cc_algo ibfs__cc_none = {
	.name = "none",
	.what = "no congestion control: PFC alone, or loss",
};

/* The controls; adding one is one entry (cc_roce.h). */
static const struct ibfs_cc_algo *const cc_algos[] = {
	&ibfs__cc_none,
	&ibfs__cc_dcqcn,
	&ibfs__cc_hpcc,
	&ibfs__cc_timely,
};

#define CC_NALGOS ((int)(sizeof(cc_algos) / sizeof(cc_algos[0])))

const struct ibfs_cc_algo *ibfs__cc_algo_at(int i)
{
	return i >= 0 && i < CC_NALGOS ? cc_algos[i] : NULL;
}

const struct ibfs_cc_algo *ibfs__cc_algo(const char *name)
{
	for (int i = 0; name && i < CC_NALGOS; i++)
		if (!strcmp(cc_algos[i]->name, name))
			return cc_algos[i];
	return NULL;
}

const char *ibfs__cc_algo_names(void)
{
	static char names[128];

	if (!names[0])
		for (int i = 0; i < CC_NALGOS; i++) {
			size_t n = strlen(names);

			snprintf(names + n, sizeof(names) - n, "%s%s",
				 i ? ", " : "", cc_algos[i]->name);
		}
	return names;
}

int ibfs__cc_algo_built(const struct ibfs_cc_algo *a)
{
	return a == &ibfs__cc_none || a->create != NULL;
}

int ibfs__cc_param_index(const struct ibfs_cc_algo *a, const char *name)
{
	for (int i = 0; i < a->nparams; i++)
		if (!strcmp(a->params[i].name, name))
			return i;
	return -1;
}

/* A value of parameter p, in its unit's words, for messages. */
static void cc_fmt(const struct ibfs_cc_param *p, double v, char *b,
		   size_t n)
{
	char t[48];

	switch (p->unit) {
	case IBFS_CC_TIME:
		snprintf(b, n, "%s", ibfs__format_time((uint64_t)v, t,
						       sizeof(t)));
		break;
	case IBFS_CC_RATE:
		snprintf(b, n, "%.0f bit/s", v);
		break;
	case IBFS_CC_BYTES:
		snprintf(b, n, "%.0f bytes", v);
		break;
	case IBFS_CC_BOOL:
		snprintf(b, n, "%s", v ? "on" : "off");
		break;
	case IBFS_CC_FRACTION:
		snprintf(b, n, "%g", v);
		break;
	default:
		snprintf(b, n, "%.0f", v);
		break;
	}
}

/* What a value of p looks like, for messages. */
static const char *cc_expect(const struct ibfs_cc_param *p)
{
	switch (p->unit) {
	case IBFS_CC_TIME:
		return "a time such as 50us";
	case IBFS_CC_RATE:
		return "a rate such as 40Mbps";
	case IBFS_CC_BYTES:
		return "a size such as 10MB or 64KiB";
	case IBFS_CC_FRACTION:
		return "a fraction such as 0.5 or 1/256";
	case IBFS_CC_BOOL:
		return "on or off";
	default:
		return "a whole number";
	}
}

/* "a/b" or a plain decimal, nothing after it. */
static int cc_parse_fraction(const char *s, double *out)
{
	char *end;
	double a, b = 1;

	if (!*s || strchr(s, 'e') || strchr(s, 'E') || *s == '-' ||
	    *s == '+')
		return -1;
	a = strtod(s, &end);
	if (end == s)
		return -1;
	if (*end == '/') {
		const char *d = end + 1;

		if (!*d || *d == '-' || *d == '+')
			return -1;
		b = strtod(d, &end);
		if (end == d || b <= 0)
			return -1;
	}
	if (*end)
		return -1;
	*out = a / b;
	return 0;
}

static int cc_parse_value(const struct ibfs_cc_param *p, const char *s,
			  double *out)
{
	uint64_t u = 0;
	int rc;

	switch (p->unit) {
	case IBFS_CC_TIME:
		rc = ibfs__parse_time(s, &u);
		break;
	case IBFS_CC_RATE:
		rc = ibfs__parse_rate(s, &u);
		break;
	case IBFS_CC_BYTES:
		rc = ibfs__parse_size(s, &u);
		break;
	case IBFS_CC_FRACTION:
		return cc_parse_fraction(s, out);
	case IBFS_CC_BOOL:
		if (strcmp(s, "on") && strcmp(s, "off"))
			return -1;
		*out = !strcmp(s, "on");
		return 0;
	default:
		rc = ibfs__parse_uint(s, &u);
		break;
	}
	if (rc < 0)
		return -1;
	*out = (double)u;
	return 0;
}

int ibfs__cc_cfg_set(struct ibfs_cc_cfg *c, const char *name,
		     const char *value, char *err, size_t errlen)
{
	const struct ibfs_cc_algo *a = c->algo;
	int i = ibfs__cc_param_index(a, name);
	double v;

	if (i < 0) {
		size_t n = (size_t)snprintf(err, errlen, "%s has no parameter "
					    "'%s'; expected one of", a->name,
					    name);

		if (!a->nparams && n < errlen)
			snprintf(err + n, errlen - n, " none (it has no "
				 "parameters)");
		for (int k = 0; k < a->nparams && n < errlen; k++)
			n += (size_t)snprintf(err + n, errlen - n, "%s %s",
					      k ? "," : "", a->params[k].name);
		return -1;
	}
	const struct ibfs_cc_param *p = &a->params[i];

	if (cc_parse_value(p, value, &v) < 0) {
		snprintf(err, errlen, "%s=\"%s\": expected %s", name, value,
			 cc_expect(p));
		return -1;
	}
	if (v < p->min || v > p->max) {
		char lo[48], hi[48];

		cc_fmt(p, p->min, lo, sizeof(lo));
		cc_fmt(p, p->max, hi, sizeof(hi));
		snprintf(err, errlen, "%s=\"%s\" is out of range: expected "
			 "%s to %s", name, value, lo, hi);
		return -1;
	}
	c->v[i] = v;
	return 0;
}

int ibfs__cc_cfg_parse(struct ibfs_cc_cfg *c, const char *nv, char *err,
		       size_t errlen)
{
	const char *eq = strchr(nv, '=');
	char name[64];

	if (!eq || eq == nv || (size_t)(eq - nv) >= sizeof(name)) {
		snprintf(err, errlen, "\"%s\": expected name=value", nv);
		return -1;
	}
	memcpy(name, nv, (size_t)(eq - nv));
	name[eq - nv] = 0;
	return ibfs__cc_cfg_set(c, name, eq + 1, err, errlen);
}

/* Applies the space-separated "name=value" pairs of a set. */
static int cc_apply(struct ibfs_cc_cfg *c, const char *values, char *err,
		    size_t errlen)
{
	char w[128];

	while (values && *values) {
		size_t n = strcspn(values, " \t\n");

		if (n >= sizeof(w)) {
			snprintf(err, errlen, "a set's value is too long");
			return -1;
		}
		if (n) {
			memcpy(w, values, n);
			w[n] = 0;
			if (ibfs__cc_cfg_parse(c, w, err, errlen) < 0)
				return -1;
		}
		values += n;
		values += strspn(values, " \t\n");
	}
	return 0;
}

static const struct ibfs_cc_set *cc_set(const struct ibfs_cc_algo *a,
					const char *name)
{
	for (int i = 0; i < a->nsets; i++)
		if (!strcmp(a->sets[i].name, name))
			return &a->sets[i];
	return NULL;
}

int ibfs__cc_cfg_init(struct ibfs_cc_cfg *c, const char *name,
		      const char *set, char *err, size_t errlen)
{
	const struct ibfs_cc_algo *a = ibfs__cc_algo(name);

	memset(c, 0, sizeof(*c));
	if (!a) {
		snprintf(err, errlen, "no congestion control '%s'; expected "
			 "one of %s", name, ibfs__cc_algo_names());
		return -1;
	}
	if (!ibfs__cc_algo_built(a)) {
		size_t n = (size_t)snprintf(err, errlen, "congestion control "
					    "'%s' is not built in this "
					    "simulator yet; expected one of",
					    name);

		for (int i = 0, k = 0; i < CC_NALGOS && n < errlen; i++)
			if (ibfs__cc_algo_built(cc_algos[i]))
				n += (size_t)snprintf(err + n, errlen - n,
						      "%s %s", k++ ? "," : "",
						      cc_algos[i]->name);
		return -1;
	}
	c->algo = a;
	if (!a->nsets) {
		if (set) {
			snprintf(err, errlen, "%s has no parameter sets; "
				 "expected none", name);
			return -1;
		}
		return 0;
	}
	const struct ibfs_cc_set *s = set ? cc_set(a, set) : &a->sets[0];

	if (!s) {
		size_t n = (size_t)snprintf(err, errlen, "%s has no parameter "
					    "set '%s'; expected one of", name,
					    set);

		for (int k = 0; k < a->nsets && n < errlen; k++)
			n += (size_t)snprintf(err + n, errlen - n, "%s %s",
					      k ? "," : "", a->sets[k].name);
		return -1;
	}
	c->set = s->name;
	if (cc_apply(c, a->sets[0].values, err, errlen) < 0)
		return -1;
	return s == &a->sets[0] ? 0 : cc_apply(c, s->values, err, errlen);
}

double ibfs__cc_cfg_get(const struct ibfs_cc_cfg *c, const char *name)
{
	int i = c->algo ? ibfs__cc_param_index(c->algo, name) : -1;

	return i < 0 ? 0 : c->v[i];
}

int ibfs__hca_cc_roce_install(struct ibfs_hca *h, const struct ibfs_cc_cfg *c)
{
	if (!c || !c->algo || c->algo == &ibfs__cc_none) {
		ibfs__hca_cc_install(h, NULL);
		return 0;
	}
	if (!c->algo->create)
		return -1;
	struct ibfs_hca_cc *cc = c->algo->create(h, c->v);

	if (!cc)
		return -1;
	ibfs__hca_cc_install(h, cc);
	return 0;
}

uint64_t ibfs__hca_cc_rate_min(const struct ibfs_hca *h)
{
	if (!h->cc || !h->cc->ops->rate_min)
		return 0;
	return h->cc->ops->rate_min(h);
}

const char *ibfs__hca_cc_name(const struct ibfs_hca *h)
{
	return h->cc ? h->cc->ops->name : "none";
}
