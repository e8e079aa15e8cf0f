// SPDX-License-Identifier: MIT
/*
 * Fuzz harness: OpenSM's QoS option values (qos.c). The first byte picks
 * the data VLs (1, 2, 4, 8 or 15 as IBA's VLCap allows); the rest is split
 * at newlines into the four options of ibfs__qos_opt_names in order (an
 * empty line: not given), and each is also given alone to its own parser.
 */
#include <stdlib.h>
#include <string.h>

#include "subnet_manager/qos.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int vls[] = { 1, 2, 4, 8, 15 };
	const char *v[IBFS_QOS_NOPTS] = { NULL };
	struct ibfs_vlarb_entry tab[IBFS_QOS_ENTRIES];
	struct ibfs_qos q;
	uint8_t sl2vl[16], limit;
	char err[256];
	int n, bad;

	if (!size)
		return 0;
	int data_vls = vls[data[0] % 5];
	char *text = ibfs_fuzz_string(data + 1, size - 1);
	char *p = text;
	for (int i = 0; i < IBFS_QOS_NOPTS && p; i++) {
		char *nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		v[i] = *p ? p : NULL;
		p = nl ? nl + 1 : NULL;
	}
	if (!ibfs__qos_from_opts(&q, data_vls, v, &bad, err, sizeof(err))) {
		(void)ibfs__qos_check(&q, err, sizeof(err));
		(void)ibfs__qos_check_layers(&q, data_vls, "dfsssp", err,
					     sizeof(err));
	}
	if (v[0])
		(void)ibfs__qos_parse_sl2vl(v[0], data_vls, sl2vl, err,
					    sizeof(err));
	for (int i = 1; i <= 2; i++)
		if (v[i])
			(void)ibfs__qos_parse_vlarb(v[i], data_vls, tab, &n,
						    err, sizeof(err));
	if (v[3])
		(void)ibfs__qos_parse_limit(v[3], &limit, err, sizeof(err));
	free(text);
	return 0;
}
