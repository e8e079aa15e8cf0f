/* SPDX-License-Identifier: MIT */
/*
 * <transport>'s settings past its model (docs/scenario-format.md): the
 * Ethernet fabric's (PFC, where the priority travels, IPv4 or IPv6, the
 * switches' profile, ECMP's pick, loss recovery), the RNICs' congestion
 * control (cc, cc-params and <cc> children, resolved by scenario_cc.c)
 * or, under tcp, the hosts' (cc, mtu, rto-min, host-profile and the
 * interrupt coalescing). scenario_xml.c reads the model and calls here.
 */
#include <stdlib.h>
#include <string.h>

#include "fabric/units.h"
#include "fabric/xml_doc.h"
#include "host/host_profile.h"
#include "scenario/scenario_xml_int.h"

/* The attribute's value (caller frees with xmlFree), or NULL. */
static char *attr(xmlNode *n, const char *name)
{
	return (char *)xmlGetProp(n, (const xmlChar *)name);
}

static long line_of(xmlNode *n)
{
	return ibfs__xml_line(n);
}

/*
 * Under tcp: cc="cubic|newreno|dctcp" (the hosts' TCP; under the other
 * models cc names the RNICs' control, read_transport_cc), mtu="1500|9000",
 * rto-min="", host-profile="" (the hosts' CPU, host/host_profile.h) and
 * its interrupt coalescing, rx-usecs="" and rx-frames="" (ethtool -C).
 */
static int read_transport_tcp(struct sx *x, xmlNode *n)
{
	static const char *const ccs[] = {"cubic", "newreno", "dctcp"};
	static const char *const mtus[] = {"1500", "9000"};
	struct ibfs_sc_eth *e = &x->s->eth;
	int mtu;
	uint64_t rto, usecs, frames;

	if ((x->s->model == IBFS_MODEL_TCP &&
	     ibfs__sx_attrs.enumerated(x, n, "cc", ccs, 3, 0, &e->tcp_cc) < 0) ||
	    ibfs__sx_attrs.enumerated(x, n, "mtu", mtus, 2, 0, &mtu) < 0 ||
	    ibfs__sx_attrs.unit(x, n, "rto-min", ibfs__parse_time, "time",
		      200 * IBFS_MS, &rto) < 0 ||
	    ibfs__sx_attrs.enumerated(x, n, "host-profile", ibfs__host_profile_names,
		      IBFS_HOST_PROFILES, 0, &e->tcp_host_profile) < 0 ||
	    ibfs__sx_attrs.unit(x, n, "rx-usecs", ibfs__parse_time, "time", UINT64_MAX,
		      &usecs) < 0 ||
	    ibfs__sx_attrs.unit(x, n, "rx-frames", ibfs__parse_uint, "count",
		      UINT64_MAX, &frames) < 0)
		return -1;
	if (frames != UINT64_MAX && frames > 65535)
		return ibfs__diag(x->d, x->file, line_of(n),
				  "rx-frames=\"%llu\": 0 to 65535 frames "
				  "expected", (unsigned long long)frames);
	/* struct ethtool_coalesce: both 0 would never interrupt. */
	if (!usecs && !frames)
		return ibfs__diag(x->d, x->file, line_of(n),
				  "rx-usecs=\"0\" with rx-frames=\"0\" never "
				  "interrupts; rx-frames=\"1\" interrupts on "
				  "every frame");
	e->tcp_rx_usecs = usecs;
	e->tcp_rx_frames = frames;
	if (!rto)
		return ibfs__diag(x->d, x->file, line_of(n),
				  "rto-min must be above 0 (e.g. \"200ms\", "
				  "Linux's TCP_RTO_MIN)");
	e->tcp_mtu = mtu ? 9000 : 1500;
	e->tcp_rto_min = (ibfs_time_t)rto;
	return 0;
}

/*
 * <transport>'s Ethernet attributes (struct ibfs_sc_eth). loss-recovery
 * takes gbn, the IBA's go-back-N, or irn, the selective repeat of Mittal
 * et al. (SIGCOMM 2018), with PFC or without (the paper evaluates both);
 * irn-rtt, the base RTT its BDP cap is computed from, goes with irn only.
 */
static int read_transport_eth(struct sx *x, xmlNode *n)
{
	static const char *const onoff[] = {"off", "on"};
	static const char *const source[] = {"dscp", "pcp"};
	static const char *const ip[] = {"v4", "v6"};
	static const char *const recovery[] = {"gbn", "irn"};
	static const char *const pick[] = {"hash", "round-robin", "random"};
	static const char *const profiles[] = {"generic-100g", "sn2700",
					       "tomahawk"};
	struct ibfs_sc_eth *e = &x->s->eth;
	int prof;
	uint64_t rtt;
	char *given = attr(n, "irn-rtt");
	char *pfc = attr(n, "pfc");

	e->pfc_given = pfc != NULL;
	e->line = line_of(n);
	xmlFree(pfc);
	if (read_transport_tcp(x, n) < 0) {
		xmlFree(given);
		return -1;
	}

	if (ibfs__sx_attrs.enumerated(x, n, "pfc", onoff, 2, 1, &e->pfc) < 0 ||
	    ibfs__sx_attrs.enumerated(x, n, "priority-source", source, 2, 0, &e->pcp) < 0 ||
	    ibfs__sx_attrs.enumerated(x, n, "ip", ip, 2, 0, &e->ipv6) < 0 ||
	    ibfs__sx_attrs.enumerated(x, n, "loss-recovery", recovery, 2, 0, &e->irn) < 0 ||
	    ibfs__sx_attrs.enumerated(x, n, "ecmp", pick, 3, 0, &e->pick) < 0 ||
	    ibfs__sx_attrs.enumerated(x, n, "switch-profile", profiles, 3, 0, &prof) < 0 ||
	    ibfs__sx_attrs.unit(x, n, "irn-rtt", ibfs__parse_time, "time", 0, &rtt) < 0) {
		xmlFree(given);
		return -1;
	}
	xmlFree(given);
	if (given && !e->irn)
		return ibfs__diag(x->d, x->file, line_of(n),
				  "irn-rtt needs loss-recovery=\"irn\"");
	e->irn_rtt = (ibfs_time_t)rtt;
	free(e->switch_profile);
	e->switch_profile = strdup(profiles[prof]);
	if (!e->switch_profile)
		return ibfs__diag(x->d, x->file, line_of(n), "out of memory");
	return 0;
}

/* Keeps a copy of attribute `name` of n in *out (NULL when absent). */
static int keep_attr(struct sx *x, xmlNode *n, const char *name, char **out)
{
	char *v = attr(n, name);

	free(*out);
	*out = v ? strdup(v) : NULL;
	xmlFree(v);
	if (v && !*out)
		return ibfs__diag(x->d, x->file, line_of(n), "out of memory");
	return 0;
}

/*
 * <transport>'s cc="NAME" and cc-params="SET", and its <cc param="P"
 * value="V"/> children, one parameter each (scenario_cc.c resolves
 * them); under model="ib" only cc="none".
 */
static int read_transport_cc(struct sx *x, xmlNode *n)
{
	struct ibfs_sc_eth *e = &x->s->eth;

	e->cc_line = line_of(n);
	if (keep_attr(x, n, "cc", &e->cc_name) < 0 ||
	    keep_attr(x, n, "cc-params", &e->cc_set) < 0)
		return -1;
	for (xmlNode *c = n->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE ||
		    strcmp((const char *)c->name, "cc"))
			continue;
		struct ibfs_sc_cc_param *p = realloc(
			e->cc_params, (size_t)(e->ncc_params + 1) * sizeof(*p));

		if (!p)
			return ibfs__diag(x->d, x->file, line_of(c),
					  "out of memory");
		e->cc_params = p;
		p = &p[e->ncc_params++];
		*p = (struct ibfs_sc_cc_param){NULL, NULL, line_of(c)};
		if (keep_attr(x, c, "param", &p->param) < 0 ||
		    keep_attr(x, c, "value", &p->value) < 0)
			return -1;
	}
	if (ibfs__sc_cc_resolve(x->s, x->d) < 0)
		return -1;
	return ibfs__sc_cc_check_model(x->s, NULL, x->d);
}

/* Under tcp the RNICs' cc-params and <cc> have nothing to set. */
static int no_rnic_cc(struct sx *x, xmlNode *n)
{
	char *set = attr(n, "cc-params");
	int given = set != NULL;

	xmlFree(set);
	for (xmlNode *c = n->children; c && !given; c = c->next)
		given = c->type == XML_ELEMENT_NODE &&
			!strcmp((const char *)c->name, "cc");
	if (given)
		return ibfs__diag(x->d, x->file, line_of(n), "cc-params and "
				  "<cc> set an RNIC's congestion control; "
				  "under model=\"tcp\" there is none (cc is "
				  "cubic, newreno or dctcp)");
	return 0;
}

int ibfs__sx_read_transport(struct sx *x, xmlNode *n)
{
	int rc = read_transport_eth(x, n);

	if (!rc)
		rc = ibfs__sx_read_ecn(x, n);
	if (!rc && x->s->model != IBFS_MODEL_TCP)
		rc = read_transport_cc(x, n);
	else if (!rc)
		rc = no_rnic_cc(x, n);
	return rc;
}
