/* SPDX-License-Identifier: MIT */
/*
 * OpenSM's congestion control options (opensm.conf, `opensm -c` writes
 * them with their defaults): their values parsed, checked against the
 * widths of the fields they fill (IBA A10.4.3.3-5), and applied.
 *
 * OpenSM programs switches and CAs with Congestion Control class GMPs
 * (class 0x21: SwitchCongestionSetting, CACongestionSetting,
 * CongestionControlTable) once the subnet is up. Those MADs are not
 * modelled: the settings are written into every switch and CA at time 0,
 * whether the SM runs in-band or not, so that they hold from the first
 * data packet on.
 */
#include "subnet_manager/cc_config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const ibfs__cc_opt_names[IBFS_CC_NOPTS] = {
	"congestion_control",
	"cc_sw_cong_setting_control_map",
	"cc_sw_cong_setting_victim_mask",
	"cc_sw_cong_setting_credit_mask",
	"cc_sw_cong_setting_threshold",
	"cc_sw_cong_setting_packet_size",
	"cc_sw_cong_setting_credit_starvation_threshold",
	"cc_sw_cong_setting_credit_starvation_return_delay",
	"cc_sw_cong_setting_marking_rate",
	"cc_ca_cong_setting_port_control",
	"cc_ca_cong_setting_control_map",
	"cc_ca_cong_setting_ccti_timer",
	"cc_ca_cong_setting_ccti_increase",
	"cc_ca_cong_setting_trigger_threshold",
	"cc_ca_cong_setting_ccti_min",
	"cc_cct",
};

void ibfs__cc_attr_name(const char *opt, char *name, size_t len)
{
	size_t k = 0;

	for (; opt[k] && k + 1 < len; k++)
		name[k] = opt[k] == '_' ? '-' : opt[k];
	name[k] = 0;
}

void ibfs__cc_default(struct ibfs_cc_config *c)
{
	memset(c, 0, sizeof(*c));
}

/*
 * An unsigned number, decimal or 0x-hexadecimal, at most max, from *s;
 * *s moves past it. Returns 0 or -1 with why in err.
 */
static int cc_num(const char **s, unsigned long max, unsigned long *out,
		  char *err, size_t errlen)
{
	const char *p = *s;
	char *end;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!isdigit((unsigned char)*p)) {
		snprintf(err, errlen, "expected a number at \"%s\"", p);
		return -1;
	}
	errno = 0;
	unsigned long v = strtoul(p, &end, 0);

	if (errno || v > max) {
		snprintf(err, errlen, "%.*s is above %lu", (int)(end - p), p,
			 max);
		return -1;
	}
	*out = v;
	*s = end;
	return 0;
}

/* Nothing but blanks left at s. */
static int cc_end(const char *s, char *err, size_t errlen)
{
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s) {
		snprintf(err, errlen, "unexpected \"%s\"", s);
		return -1;
	}
	return 0;
}

/* One whole number, at most max. */
static int cc_one(const char *s, unsigned long max, unsigned long *out,
		  char *err, size_t errlen)
{
	if (cc_num(&s, max, out, err, errlen) < 0)
		return -1;
	return cc_end(s, err, errlen);
}

/*
 * A 256-bit mask in hexadecimal (0x optional), bit 0 the lowest: bit p
 * for port p; bit 255 is reserved (opensm.conf).
 */
static int cc_mask(const char *s, uint64_t m[4], char *err, size_t errlen)
{
	while (*s == ' ')
		s++;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	size_t n = strlen(s);

	while (n && s[n - 1] == ' ')
		n--;
	if (!n || n > 64) {
		snprintf(err, errlen, "a mask is 1 to 64 hexadecimal digits");
		return -1;
	}
	memset(m, 0, 4 * sizeof(uint64_t));
	for (size_t i = 0; i < n; i++) {
		char ch = s[n - 1 - i];

		if (!isxdigit((unsigned char)ch)) {
			snprintf(err, errlen, "'%c' is not a hexadecimal digit",
				 ch);
			return -1;
		}
		uint64_t d = (uint64_t)(isdigit((unsigned char)ch) ?
						ch - '0' :
						tolower((unsigned char)ch) -
							'a' + 10);

		m[i / 16] |= d << (4 * (i % 16));
	}
	if (m[3] >> 63) {
		snprintf(err, errlen, "bit 255 is reserved");
		return -1;
	}
	return 0;
}

/* "SHIFT:MULTIPLIER" into a CCT entry's 16 bits (A10.4.3.5). */
static int cc_entry(const char **s, uint16_t *e, char *err, size_t errlen)
{
	unsigned long shift, mult;

	if (cc_num(s, 3, &shift, err, errlen) < 0)
		return -1;
	if (**s != ':') {
		snprintf(err, errlen, "expected SHIFT:MULTIPLIER");
		return -1;
	}
	(*s)++;
	if (cc_num(s, 0x3fff, &mult, err, errlen) < 0)
		return -1;
	*e = (uint16_t)(shift << 14 | mult);
	return 0;
}

static int cc_cct(struct ibfs_ca_cc *ca, const char *s, char *err,
		  size_t errlen)
{
	int n = 0;

	for (;;) {
		if (n == IBFS_CCT_MAX) {
			snprintf(err, errlen, "more than %d entries",
				 IBFS_CCT_MAX);
			return -1;
		}
		char sub[120];

		if (cc_entry(&s, &ca->cct[n], sub, sizeof(sub)) < 0) {
			snprintf(err, errlen, "entry %d: %s", n, sub);
			return -1;
		}
		n++;
		while (*s == ' ')
			s++;
		if (*s != ',')
			break;
		s++;
	}
	if (cc_end(s, err, errlen) < 0)
		return -1;
	ca->ncct = n;
	return 0;
}

/* "SL VALUE,SL VALUE,...": one per-SL field of the CA setting. */
static int cc_per_sl(struct ibfs_ca_cc *ca, enum ibfs_cc_opt opt,
		     const char *s, char *err, size_t errlen)
{
	unsigned long max = opt == IBFS_CC_CA_CCTI_TIMER ? 0xffff : 0xff;

	for (int k = 0;; k++) {
		unsigned long sl, v;
		char sub[120];

		if (cc_num(&s, 15, &sl, sub, sizeof(sub)) < 0 ||
		    (*s != ' ' && *s != '\t' ?
			     (snprintf(sub, sizeof(sub),
				       "expected \"SL VALUE\""),
			      1) :
			     cc_num(&s, max, &v, sub, sizeof(sub)) < 0)) {
			snprintf(err, errlen, "pair %d: %s", k, sub);
			return -1;
		}
		struct ibfs_ca_cc_sl *e = &ca->sl[sl];

		if (opt == IBFS_CC_CA_CCTI_TIMER)
			e->ccti_timer = (uint16_t)v;
		else if (opt == IBFS_CC_CA_CCTI_INCREASE)
			e->ccti_increase = (uint8_t)v;
		else if (opt == IBFS_CC_CA_TRIGGER_THRESHOLD)
			e->trigger_threshold = (uint16_t)v;
		else
			e->ccti_min = (uint16_t)v;
		while (*s == ' ')
			s++;
		if (*s != ',')
			break;
		s++;
	}
	return cc_end(s, err, errlen);
}

static int cc_bool(const char *s, int *out, char *err, size_t errlen)
{
	if (!strcasecmp(s, "true")) {
		*out = 1;
		return 0;
	}
	if (!strcasecmp(s, "false")) {
		*out = 0;
		return 0;
	}
	snprintf(err, errlen, "expected TRUE or FALSE");
	return -1;
}

/* ibfs__cc_parse on c itself, which a refused value may leave half set. */
static int cc_parse_into(struct ibfs_cc_config *c, enum ibfs_cc_opt opt,
			 const char *v, char *err, size_t errlen)
{
	struct ibfs_sw_cc *sw = &c->sw;
	unsigned long n = 0;
	int rc;

	switch (opt) {
	case IBFS_CC_ENABLE:
		return cc_bool(v, &c->enabled, err, errlen);
	case IBFS_CC_SW_VICTIM_MASK:
		return cc_mask(v, sw->victim_mask, err, errlen);
	case IBFS_CC_SW_CREDIT_MASK:
		return cc_mask(v, sw->credit_mask, err, errlen);
	case IBFS_CC_SW_CS_RETURN_DELAY: {
		const char *s = v;

		if (cc_entry(&s, &sw->cs_return_delay, err, errlen) < 0)
			return -1;
		return cc_end(s, err, errlen);
	}
	case IBFS_CC_CA_CCTI_TIMER:
	case IBFS_CC_CA_CCTI_INCREASE:
	case IBFS_CC_CA_TRIGGER_THRESHOLD:
	case IBFS_CC_CA_CCTI_MIN:
		return cc_per_sl(&c->ca, opt, v, err, errlen);
	case IBFS_CC_CCT:
		return cc_cct(&c->ca, v, err, errlen);
	default:
		break;
	}
	/* The single numbers, each as wide as its field. */
	static const unsigned long max[IBFS_CC_NOPTS] = {
		[IBFS_CC_SW_CONTROL_MAP] = 0x1f,
		[IBFS_CC_SW_THRESHOLD] = 15,
		[IBFS_CC_SW_PACKET_SIZE] = 0xff,
		[IBFS_CC_SW_CS_THRESHOLD] = 15,
		[IBFS_CC_SW_MARKING_RATE] = 0xffff,
		[IBFS_CC_CA_PORT_CONTROL] = 0xffff,
		[IBFS_CC_CA_CONTROL_MAP] = 0xffff,
	};
	if (opt < 0 || opt >= IBFS_CC_NOPTS || !max[opt]) {
		snprintf(err, errlen, "unknown option");
		return -1;
	}
	rc = cc_one(v, max[opt], &n, err, errlen);
	if (rc < 0)
		return -1;
	if (opt == IBFS_CC_SW_CONTROL_MAP)
		sw->control_map = (uint8_t)n;
	else if (opt == IBFS_CC_SW_THRESHOLD)
		sw->threshold = (uint8_t)n;
	else if (opt == IBFS_CC_SW_PACKET_SIZE)
		sw->packet_size = (uint8_t)n;
	else if (opt == IBFS_CC_SW_CS_THRESHOLD)
		sw->cs_threshold = (uint8_t)n;
	else if (opt == IBFS_CC_SW_MARKING_RATE)
		sw->marking_rate = (uint16_t)n;
	else if (opt == IBFS_CC_CA_PORT_CONTROL)
		c->ca.port_control = (uint16_t)n;
	else
		c->ca.control_map = (uint16_t)n;
	return 0;
}

int ibfs__cc_parse(struct ibfs_cc_config *c, enum ibfs_cc_opt opt,
		   const char *v, char *err, size_t errlen)
{
	struct ibfs_cc_config tmp = *c;

	if (cc_parse_into(&tmp, opt, v, err, errlen) < 0)
		return -1;
	*c = tmp;
	return 0;
}

int ibfs__cc_check(const struct ibfs_cc_config *c, char *err, size_t errlen)
{
	int limit = c->ca.ncct ? c->ca.ncct - 1 : 0;

	for (int sl = 0; sl < 16; sl++) {
		if (!(c->ca.control_map >> sl & 1))
			continue;
		if (c->ca.sl[sl].ccti_min > limit) {
			snprintf(err, errlen,
				 "SL %d: ccti_min %u is beyond the last index "
				 "of cc_cct (CCTI_Limit %d)",
				 sl, c->ca.sl[sl].ccti_min, limit);
			return -1;
		}
	}
	return 0;
}

int ibfs__cc_apply(struct ibfs_fabric *f, const struct ibfs_cc_config *c,
		   struct ibfs_diag *d)
{
	if (!c || !c->enabled)
		return 0;
	for (size_t n = 0; n < f->topo->nnodes; n++) {
		struct ibfs_device *dev = f->devices[n];
		struct ibfs_switch *sw = ibfs__switch_of(dev);
		struct ibfs_hca *h = sw || !dev ? NULL :
						  ibfs__hca_of_node(f, (int)n);
		int rc = sw  ? ibfs__switch_set_cc(sw, &c->sw) :
			 h   ? ibfs__hca_set_cc(h, &c->ca) :
			       0;

		if (rc < 0)
			return ibfs__diag(d, f->topo->file, 0,
					  "out of memory setting congestion "
					  "control on '%s'",
					  f->topo->nodes[n].id);
	}
	return 0;
}
