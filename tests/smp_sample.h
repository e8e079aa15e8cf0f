/* SPDX-License-Identifier: MIT */
/*
 * An SMP with every field set to a distinct value, for the tests that
 * encode and decode SMPs (check_sm_mad.c, check_sma.c).
 */
#ifndef IBFS_TESTS_SMP_SAMPLE_H
#define IBFS_TESTS_SMP_SAMPLE_H

#include <string.h>

#include "subnet_manager/mad.h"

static inline struct ibfs_smp smp_sample(void)
{
	struct ibfs_smp s;

	memset(&s, 0, sizeof(s));
	s.mgmt_class = IBFS_MCLASS_SUBN_DR;
	s.method = IBFS_SMP_SET;
	s.status = 0x1234;
	s.dir = 1;
	s.hop_ptr = 2;
	s.hop_cnt = 3;
	s.tid = 0x0102030405060708ULL;
	s.attr_id = IBFS_SMP_ATTR_PORT_INFO;
	s.attr_mod = 0xa1b2c3d4;
	s.mkey = 0x1122334455667788ULL;
	s.dr_slid = 0xffff;
	s.dr_dlid = 0xfffe;
	for (int i = 0; i < 64; i++) {
		s.data[i] = (uint8_t)(i + 1);
		s.initial_path[i] = (uint8_t)(100 + i);
		s.return_path[i] = (uint8_t)(200 - i);
	}
	return s;
}

#endif
