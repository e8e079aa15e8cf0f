/* SPDX-License-Identifier: MIT */
/*
 * The RNICs' congestion control of a scenario (docs/scenario-format.md):
 * <transport cc="NAME" cc-params="SET"> with <cc param="P" value="V"/>
 * children, resolved against the registry of RoCEv2 controls
 * (hca/cc_roce.h) into the configuration assemble_eth.c installs on every
 * RNIC; and `ibfsim run --cc NAME[:SET]`, which takes the place of the
 * scenario's name and set. InfiniBand's congestion control is the subnet
 * manager's (cc_config.h), so under ib only cc="none" is taken.
 */
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"

int ibfs__sc_cc_resolve(struct ibfs_scenario *s, struct ibfs_diag *d)
{
	struct ibfs_sc_eth *e = &s->eth;
	const char *name = e->cc_name ? e->cc_name : "none";
	char err[768];

	/* Nothing named: no control, and nothing in the results. */
	if (!e->cc_name && !e->cc_set && !e->ncc_params) {
		e->cc = (struct ibfs_cc_cfg){0};
		return 0;
	}
	if (ibfs__cc_cfg_init(&e->cc, name, e->cc_set, err, sizeof(err)) < 0)
		return ibfs__diag(d, s->file, e->cc_line, "%s", err);
	for (int i = 0; i < e->ncc_params; i++) {
		const struct ibfs_sc_cc_param *p = &e->cc_params[i];

		if (ibfs__cc_cfg_set(&e->cc, p->param, p->value, err,
				     sizeof(err)) < 0)
			return ibfs__diag(d, s->file, p->line, "<cc>: %s",
					  err);
	}
	return 0;
}

int ibfs__sc_cc_override(struct ibfs_scenario *s, const char *arg,
			 struct ibfs_diag *d)
{
	struct ibfs_sc_eth *e = &s->eth;
	const char *colon = strchr(arg, ':');
	size_t n = colon ? (size_t)(colon - arg) : strlen(arg);
	char *name = strndup(arg, n);
	char *set = colon ? strdup(colon + 1) : NULL;
	char err[768];

	if (!name || (colon && !set)) {
		free(name);
		free(set);
		return ibfs__diag(d, "--cc", 0, "out of memory");
	}
	/* The scenario's <cc> parameters are its control's. */
	if (!e->cc_name || strcmp(e->cc_name, name)) {
		for (int i = 0; i < e->ncc_params; i++) {
			free(e->cc_params[i].param);
			free(e->cc_params[i].value);
		}
		e->ncc_params = 0;
	}
	free(e->cc_name);
	free(e->cc_set);
	e->cc_name = name;
	e->cc_set = set;
	if (ibfs__cc_cfg_init(&e->cc, name, set, err, sizeof(err)) < 0)
		return ibfs__diag(d, "--cc", 0, "%s: %s", arg, err);
	/* The kept parameters were checked against this control. */
	return ibfs__sc_cc_resolve(s, d);
}

int ibfs__sc_cc_check_model(const struct ibfs_scenario *s, const char *who,
			    struct ibfs_diag *d)
{
	const struct ibfs_cc_algo *a = s->eth.cc.algo;

	if (s->model != IBFS_MODEL_IB || !a || a == &ibfs__cc_none)
		return 0;
	return ibfs__diag(d, who ? who : s->file, who ? 0 : s->eth.cc_line,
			  "cc=\"%s\" is a RoCEv2 congestion control; under "
			  "model=\"ib\" cc must be none (InfiniBand's is the "
			  "subnet manager's congestion-control)", a->name);
}

void ibfs__sc_cc_free(struct ibfs_sc_eth *e)
{
	for (int i = 0; i < e->ncc_params; i++) {
		free(e->cc_params[i].param);
		free(e->cc_params[i].value);
	}
	free(e->cc_params);
	free(e->cc_name);
	free(e->cc_set);
	e->cc_params = NULL;
	e->ncc_params = 0;
	e->cc_name = e->cc_set = NULL;
}
