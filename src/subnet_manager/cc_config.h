/* SPDX-License-Identifier: MIT */
/*
 * Congestion control settings as OpenSM's options give them (opensm.conf:
 * congestion_control, cc_sw_cong_setting_*, cc_ca_cong_setting_*,
 * cc_cct), parsed from their text, and applied to every switch
 * (SwitchCongestionSetting, IBA A10.4.3.3) and every CA port
 * (CACongestionSetting and CongestionControlTable, A10.4.3.4-5).
 *
 * OpenSM sends these as Congestion Control class MADs (class 0x21);
 * ibfsim writes them into the devices at time 0 instead, in both SM
 * modes (cc_config.c).
 */
#ifndef IBFS_SM_CC_CONFIG_H
#define IBFS_SM_CC_CONFIG_H

#include <stddef.h>

#include "fabric/fabric.h"
#include "hca/hca.h"
#include "switch/switch.h"

struct ibfs_cc_config {
	int enabled;           /* congestion_control TRUE */
	struct ibfs_sw_cc sw;
	struct ibfs_ca_cc ca;
};

/* OpenSM's option names, in the order of enum ibfs_cc_opt. */
enum ibfs_cc_opt {
	IBFS_CC_ENABLE,
	IBFS_CC_SW_CONTROL_MAP,
	IBFS_CC_SW_VICTIM_MASK,
	IBFS_CC_SW_CREDIT_MASK,
	IBFS_CC_SW_THRESHOLD,
	IBFS_CC_SW_PACKET_SIZE,
	IBFS_CC_SW_CS_THRESHOLD,
	IBFS_CC_SW_CS_RETURN_DELAY,
	IBFS_CC_SW_MARKING_RATE,
	IBFS_CC_CA_PORT_CONTROL,
	IBFS_CC_CA_CONTROL_MAP,
	IBFS_CC_CA_CCTI_TIMER,
	IBFS_CC_CA_CCTI_INCREASE,
	IBFS_CC_CA_TRIGGER_THRESHOLD,
	IBFS_CC_CA_CCTI_MIN,
	IBFS_CC_CCT,
	IBFS_CC_NOPTS
};
extern const char *const ibfs__cc_opt_names[IBFS_CC_NOPTS];

/* An option's name as a scenario attribute: '-' for '_'. */
void ibfs__cc_attr_name(const char *opt, char *name, size_t len);

/* OpenSM's defaults: off, every value 0, no table. */
void ibfs__cc_default(struct ibfs_cc_config *c);

/*
 * Parses the value of option `opt` in OpenSM's syntax into c: 0, or -1
 * with why in err (a phrase). Numbers are decimal or 0x-hexadecimal;
 * masks up to 256 bits in hexadecimal; the per-SL CA options are "SL
 * VALUE" pairs separated by commas ("0 150,1 150": OpenSM's option
 * repeated); the return delay and the table's entries "SHIFT:MULTIPLIER"
 * (shift 0-3, multiplier 0-16383), the table up to IBFS_CCT_MAX of them
 * separated by commas; congestion_control TRUE or FALSE (any case). A
 * refused value leaves c as it was.
 */
int ibfs__cc_parse(struct ibfs_cc_config *c, enum ibfs_cc_opt opt,
		   const char *v, char *err, size_t errlen);

/*
 * Checks what no single option shows: each valid SL's CCTI_Min within the
 * table (CCTI_Limit). 0, or -1 with why in err.
 */
int ibfs__cc_check(const struct ibfs_cc_config *c, char *err, size_t errlen);

/*
 * Programs every switch and HCA of f with c (nothing when c is NULL or
 * not enabled). 0, or -1 out of memory (in d).
 */
int ibfs__cc_apply(struct ibfs_fabric *f, const struct ibfs_cc_config *c,
		   struct ibfs_diag *d);

#endif
