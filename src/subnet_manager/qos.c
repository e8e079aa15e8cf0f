/* SPDX-License-Identifier: MIT */
/*
 * OpenSM's QoS option values (see qos.h): parsed, checked against the
 * fabric's data VLs, and the defaults of a fabric without them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "subnet_manager/qos.h"

void ibfs__qos_default(struct ibfs_qos *q, int data_vls)
{
	memset(q, 0, sizeof(*q));
	for (int sl = 0; sl < 16; sl++)
		q->sl2vl[sl] = (uint8_t)(sl % data_vls);
	for (int vl = 0; vl < data_vls; vl++)
		q->low[vl] = (struct ibfs_vlarb_entry){ (uint8_t)vl, 1 };
	q->nlow = data_vls;
	q->high_limit = 255;
}

static const char *qos_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* A decimal number from lo to hi at *s, blanks around it skipped. */
static int qos_num(const char **s, long lo, long hi, long *v)
{
	char *e;

	*s = qos_blank(*s);
	if (**s < '0' || **s > '9')
		return -1;
	*v = strtol(*s, &e, 10);
	if (*v < lo || *v > hi)
		return -1;
	*s = qos_blank(e);
	return 0;
}

int ibfs__qos_parse_vlarb(const char *s, int data_vls,
			  struct ibfs_vlarb_entry *t, int *n, char *err,
			  size_t errlen)
{
	*n = 0;
	s = qos_blank(s);
	while (*s) {
		long vl, w;

		if (*n == IBFS_QOS_ENTRIES) {
			snprintf(err, errlen, "more than %d entries",
				 IBFS_QOS_ENTRIES);
			return -1;
		}
		if (qos_num(&s, 0, 14, &vl) < 0 || *s++ != ':' ||
		    qos_num(&s, 0, 255, &w) < 0 || (*s && *s != ',')) {
			snprintf(err, errlen,
				 "entry %d is not VL:WEIGHT (VL 0-14, weight "
				 "0-255 in 64-byte units)", *n + 1);
			return -1;
		}
		if (vl >= data_vls) {
			snprintf(err, errlen,
				 "entry %d names VL %ld, but the fabric has "
				 "%d data VL%s", *n + 1, vl, data_vls,
				 data_vls == 1 ? "" : "s");
			return -1;
		}
		t[(*n)++] = (struct ibfs_vlarb_entry){ (uint8_t)vl,
						       (uint8_t)w };
		if (*s == ',' && !*qos_blank(++s)) {
			snprintf(err, errlen, "a comma ends the list");
			return -1;
		}
	}
	return 0;
}

int ibfs__qos_parse_sl2vl(const char *s, int data_vls, uint8_t sl2vl[16],
			  char *err, size_t errlen)
{
	for (int sl = 0; sl < 16; sl++) {
		long vl;

		if (qos_num(&s, 0, 15, &vl) < 0 ||
		    (*s != (sl < 15 ? ',' : '\0'))) {
			snprintf(err, errlen,
				 "expected 16 VLs separated by commas, one "
				 "for each SL (at SL %d)", sl);
			return -1;
		}
		if (vl >= data_vls) {
			snprintf(err, errlen,
				 vl == 15 ? "SL %d on VL 15 (discard) is not "
					    "modelled"
					  : "SL %d on VL %ld, but the fabric "
					    "has %d data VL%s",
				 sl, vl, data_vls, data_vls == 1 ? "" : "s");
			return -1;
		}
		sl2vl[sl] = (uint8_t)vl;
		if (*s)
			s++;
	}
	return 0;
}

int ibfs__qos_parse_limit(const char *s, uint8_t *limit, char *err,
			  size_t errlen)
{
	long v;

	if (qos_num(&s, 0, 255, &v) < 0 || *s) {
		snprintf(err, errlen,
			 "a limit is 0 to 255 (4 KiB units; 255: none)");
		return -1;
	}
	*limit = (uint8_t)v;
	return 0;
}

int ibfs__qos_check(const struct ibfs_qos *q, char *err, size_t errlen)
{
	for (int sl = 0; sl < 16; sl++) {
		int vl = q->sl2vl[sl], ok = 0;

		for (int i = 0; i < q->nhigh; i++)
			ok |= q->high[i].vl == vl && q->high[i].weight;
		for (int i = 0; i < q->nlow; i++)
			ok |= q->low[i].vl == vl && q->low[i].weight;
		if (!ok) {
			snprintf(err, errlen,
				 "SL %d is on VL %d, which has no weight in "
				 "either VL arbitration table: its packets "
				 "would never be sent", sl, vl);
			return -1;
		}
	}
	return 0;
}

int ibfs__qos_check_layers(const struct ibfs_qos *q, int data_vls,
			   const char *engine, char *err, size_t errlen)
{
	int n = data_vls < 1 ? 1 : data_vls > 15 ? 15 : data_vls;

	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++)
			if (q->sl2vl[a] == q->sl2vl[b]) {
				snprintf(err, errlen,
					 "qos-sl2vl puts SLs %d and %d on VL "
					 "%d, but %s routes on SLs 0 to %d "
					 "as layers that each need a VL of "
					 "their own (or credit loops come "
					 "back)",
					 a, b, q->sl2vl[a], engine, n - 1);
				return -1;
			}
	return 0;
}

const char *const ibfs__qos_opt_names[IBFS_QOS_NOPTS] = {
	"qos-sl2vl", "qos-vlarb-high", "qos-vlarb-low", "qos-high-limit"
};

int ibfs__qos_from_opts(struct ibfs_qos *q, int data_vls,
			const char *const v[IBFS_QOS_NOPTS], int *bad,
			char *err, size_t errlen)
{
	int rc = 0;

	ibfs__qos_default(q, data_vls);
	for (int i = 0; i < IBFS_QOS_NOPTS && !rc; i++) {
		if (!v[i])
			continue;
		if (!q->given)
			q->high_limit = 0;
		q->given = 1;
		*bad = i;
		rc = i == 0   ? ibfs__qos_parse_sl2vl(v[i], data_vls, q->sl2vl,
							err, errlen)
		     : i == 1 ? ibfs__qos_parse_vlarb(v[i], data_vls, q->high,
							&q->nhigh, err, errlen)
		     : i == 2 ? ibfs__qos_parse_vlarb(v[i], data_vls, q->low,
							&q->nlow, err, errlen)
			      : ibfs__qos_parse_limit(v[i], &q->high_limit,
							err, errlen);
	}
	if (rc)
		return -1;
	*bad = -1;
	return q->given ? ibfs__qos_check(q, err, errlen) : 0;
}
