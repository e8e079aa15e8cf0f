/* SPDX-License-Identifier: MIT */
/*
 * The in-band subnet manager on the event queue alone (no SimGrid): a
 * one-switch star and a two-level fat tree of 4-port switches, ideal HCAs.
 *
 * What is checked, each against a figure the test computes itself:
 * - every switch and HCA port holds the LID that ibfs__subnet_assign_lids
 *   gives the static topology, and every switch's LFT equals the routing
 *   engine's for every LID up to the top of its last block;
 * - every linked port is Active, an unlinked one Down;
 * - the SMPs sent and answered equal the count discovery and programming
 *   must send, from the topology's shape (see disc_count/cfg_count);
 * - the star's sweep duration, with one SMP outstanding, to the picosecond:
 *   the sum of the round trips of its SMPs, by hop count.
 *
 * Times (4x EDR: 80 ps a byte, 2 m of cable: P = 10 ns): an SMP is 290
 * bytes on the wire (LRH 8 + BTH 12 + DETH 8 + MAD 256 + ICRC 4 + VCRC 2).
 * A switch hands it to its agent once its header has arrived and the
 * routing latency L = 100 ns has passed, or when its tail is in, whichever
 * is later: P + max(ser(8) + L, ser(290)) after it left the previous
 * node. An HCA takes it when its tail is in (ideal profile: no receive
 * pipeline): P + ser(290). The agent answers after IBFS_SMA_PROC_TIME and a
 * switch relays after IBFS_SMA_RELAY_TIME.
 */
#include "check_common.h"

#include <stdio.h>
#include <string.h>

#include "fabric/topo_gen.h"
#include "hca/direct_exec.h"
#include "hca/hca_int.h"
#include "hca/mgmt.h"
#include "subnet_manager/qos.h"
#include "subnet_manager/routing.h"
#include "subnet_manager/sm.h"
#include "subnet_manager/sma.h"
#include "switch/switch.h"
#include "switch/switch_int.h"

#include "sm_net.h"

/*
 * The devices against the offline computation on the static topology:
 * LIDs, LFT entries for LIDs 0 .. the end of the last 64-LID block, and
 * port states.
 */
static void check_programmed(struct net *n, const char *engine, int lmc)
{
	struct ibfs_diag d;
	struct ibfs_subnet *sn = ibfs__subnet_from_topo(n->t, &d);
	struct ibfs_routing_opts o = { 0 };

	ck_assert_ptr_nonnull(sn);
	ck_assert_int_eq(ibfs__subnet_assign_lids(sn, lmc, &d), 0);
	ck_assert_int_eq(ibfs__routing_run(sn, engine, &o, &d), 0);
	unsigned top = (sn->max_lid / 64 + 1) * 64 - 1;

	for (int i = 0; i < sn->nnodes; i++) {
		const struct ibfs_sn_node *x = &sn->nodes[i];

		if (x->type == IBFS_NODE_HCA) {
			ck_assert_uint_eq(n->hca[i]->hp[1].lid,
					  x->ports[1].lid);
			ck_assert_uint_eq(n->hca[i]->hp[1].lmc, lmc);
		} else {
			ck_assert_uint_eq(ibfs__switch_get_lid(n->sw[i]),
					  x->ports[0].lid);
			for (unsigned lid = 0; lid <= top; lid++) {
				uint8_t want = lid && lid <= sn->max_lid ?
					*ibfs__subnet_lft(sn, x->sw, lid) :
					IBFS_LFT_NO_PATH;
				ck_assert_msg(ibfs__switch_get_lft(
					n->sw[i], (uint16_t)lid) == want,
					"%s LID %u: port %u, engine %u",
					x->name, lid,
					ibfs__switch_get_lft(n->sw[i],
							     (uint16_t)lid),
					want);
			}
		}
		for (int p = 1; p <= x->nports; p++)
			ck_assert_int_eq(ibfs__sm_port_state(n->sm, i, p),
					 x->ports[p].peer >= 0 ?
						 IBFS_PORT_ACTIVE :
						 IBFS_PORT_DOWN);
	}
	struct ibfs_sm_stats st;

	ibfs__sm_stats(n->sm, &st);
	ck_assert_uint_eq(st.max_lid, sn->max_lid);
	ck_assert_str_eq(st.engine, sn->engine);
	ibfs__subnet_free(sn);
}

/* P_KeyTable blocks a table: an HCA port's, a switch port's (its
 * NodeInfo PartitionCap, its SwitchInfo PartitionEnforcementCap). */
#define CA_PKEY_GETS (IBFS_HCA_PKEYS / 32)
#define SW_PKEY_GETS (IBFS_SWITCH_PKEYS / 32)

/*
 * SMPs discovery must send, for HCAs of one port: 3 Gets to the SM's own
 * node (NodeInfo, NodeDescription, PortInfo), NodeInfo + NodeDescription +
 * SwitchInfo + PortInfo of ports 0..n for each switch, NodeInfo +
 * NodeDescription + PortInfo for each other HCA, and one NodeInfo for each
 * probe that finds a node already known: probes are the SM's one plus one
 * per linked switch port other than the one its switch was reached by.
 * In the first sweep the P_Key table of every port not Down is read too:
 * each HCA's, each switch's port 0 and linked ports.
 */
static uint64_t disc_count(const struct ibfs_topology *t)
{
	uint64_t c = 3, probes = 1;

	for (size_t i = 0; i < t->nnodes; i++) {
		const struct ibfs_topo_node *x = &t->nodes[i];

		if (x->type == IBFS_NODE_HCA) {
			c += 3 + CA_PKEY_GETS;
			continue;
		}
		c += 3 + (uint64_t)x->nports + 1 + SW_PKEY_GETS;
		for (int p = 1; p <= x->nports; p++) {
			probes += x->ports[p].peer_node >= 0;
			c += x->ports[p].peer_node >= 0 ? SW_PKEY_GETS : 0;
		}
		probes--;
	}
	c -= 3; /* the SM's own HCA was counted as an other HCA */
	return c + probes - (t->nnodes - 1);
}

/*
 * Sets: PortInfo (LID) of each switch port 0 and HCA port, SwitchInfo of
 * each switch twice (clearing the PortStateChange its ports' coming up
 * set, then the tops), PortInfo (partition enforcement) of each switch
 * port facing an HCA, its LFT blocks, then the link's parameters (no
 * change of state), Armed and Active of every linked port. No SL2VL or
 * VLArb: without QoS settings the power-up tables stay, as OpenSM leaves
 * them.
 */
static uint64_t cfg_count(const struct ibfs_topology *t, unsigned max_lid)
{
	uint64_t c = 0;

	for (size_t i = 0; i < t->nnodes; i++) {
		const struct ibfs_topo_node *x = &t->nodes[i];
		uint64_t linked = 0, cas = 0;

		for (int p = 1; p <= x->nports; p++) {
			int q = x->ports[p].peer_node;

			linked += q >= 0;
			cas += q >= 0 && t->nodes[q].type == IBFS_NODE_HCA;
		}
		if (x->type == IBFS_NODE_HCA) {
			c += 1 + 3 * linked;
			continue;
		}
		c += 1 + 1 + 1 + (max_lid / 64 + 1) + 3 * linked + cas;
	}
	return c;
}

START_TEST(test_star_exact)
{
	struct net n;
	const int nports = 4, nh = 3;

	star_make(&n, nports, nh);
	net_sweep(&n, 1, "minhop", 0, 1);
	check_programmed(&n, "minhop", 0);
	/* Each CA port's PortInfo MasterSMLID is the SM's port's LID, as
	 * ibv_query_port reports it. */
	for (int i = 1; i <= nh; i++) {
		struct ibfs_port_attr pa;
		ck_assert_int_eq(ibfs_query_port(ibfs__hca_context(n.hca[i]),
						 1, &pa), 0);
		ck_assert_uint_eq(pa.sm_lid, n.hca[1]->hp[1].lid);
		ck_assert_uint_ne(pa.sm_lid, 0);
	}

	/* Round trips by hop count, window 1: back to back, no queueing. */
	ibfs_time_t A = IBFS_SMA_PROC_TIME, R = IBFS_SMA_RELAY_TIME;
	ibfs_time_t dsw = P + (ser(8) + L > ser(SMP_WIRE) ? ser(8) + L :
							    ser(SMP_WIRE));
	ibfs_time_t dca = P + ser(SMP_WIRE);
	ibfs_time_t rtt0 = A, rtt1 = dsw + A + dca;
	ibfs_time_t rtt2 = dsw + R + dca + A + dsw + R + dca;
	/* max_lid: the switch and three HCAs, LMC 0: one LFT block. */
	uint64_t blocks = 1;
	/* Hop 0: NodeInfo, NodeDesc, PortInfo, P_KeyTable; LID, link
	 * parameters, Armed, Active. */
	uint64_t h0 = 3 + CA_PKEY_GETS + 4;
	/* Hop 1: NodeInfo, NodeDesc, SwitchInfo, PortInfo 0..4, P_KeyTable
	 * of port 0 and of each link; SwitchInfo (PortStateChange), LID of
	 * port 0, SwitchInfo, LFT, and PortInfo (partition enforcement),
	 * PortInfo (link), Armed, Active per link. */
	uint64_t h1 = 3 + (nports + 1) + SW_PKEY_GETS * (1 + nh) + 1 + 1 +
		      1 + blocks + 4 * nh;
	/* Hop 2, each other HCA: NodeInfo, NodeDesc, PortInfo, P_KeyTable;
	 * LID, link, Armed, Active. */
	uint64_t h2 = (7 + CA_PKEY_GETS) * (nh - 1);
	struct ibfs_sm_stats st;

	ibfs__sm_stats(n.sm, &st);
	ck_assert_uint_eq(st.sent, h0 + h1 + h2);
	ck_assert_uint_eq(st.received, h0 + h1 + h2);
	ck_assert_uint_eq(st.sent, disc_count(n.t) + cfg_count(n.t, 4));
	ck_assert_uint_eq(st.disc_sent, disc_count(n.t));
	ck_assert_uint_eq(st.cfg_sent, cfg_count(n.t, 4));
	ck_assert_uint_eq(st.lft_blocks, blocks);
	ck_assert_uint_eq(st.errors, 0);
	ck_assert_int_eq(st.switches, 1);
	ck_assert_int_eq(st.cas, nh);
	ck_assert_int_eq(st.links, nh);
	ck_assert_uint_eq(st.start, 0);
	ck_assert_uint_eq(st.sweep, h0 * rtt0 + h1 * rtt1 + h2 * rtt2);
	ck_assert_uint_eq(st.up, st.sweep);
	/* Worked by hand: dsw = 110.64 ns, dca = 33.2 ns, so rtt1 =
	 * 1,143,840 ps and rtt2 = 1,687,680 ps; 11 + 28 + 22 SMPs give
	 * 11 us + 32,027,520 ps + 37,128,960 ps. */
	ck_assert_uint_eq(h1, 28);
	ck_assert_uint_eq(st.sweep, 80 * IBFS_US + 156480);
	/* Agents answered every request; hop-2 SMPs were relayed twice. */
	ck_assert_uint_eq(st.agent_answered, st.sent);
	ck_assert_uint_eq(st.agent_relayed, 2 * h2);
	ck_assert_uint_eq(st.agent_discarded, 0);
	/* On the wire: 2 packets per hop-1 SMP, 4 per hop-2 one. */
	ck_assert_uint_eq(n.f->pkts_injected, 2 * h1 + 4 * h2);
	ck_assert_uint_eq(n.f->pkts_delivered, 2 * h1 + 4 * h2);
	ck_assert_uint_eq(n.f->pkts_dropped, 0);
	ck_assert_uint_eq(ibfs__fabric_in_flight(n.f), 0);
	net_free(&n);
}
END_TEST

/*
 * An HCA whose agent never answers (detached after the start): its
 * NodeInfo goes out 1 + IBFS_SM_TRANS_RETRIES times and each waits the
 * full timeout. With one SMP outstanding the sweep is the star's without
 * that HCA plus four timeouts, to the picosecond; the rest comes up.
 */
START_TEST(test_star_timeout)
{
	struct net n;
	struct ibfs_diag d;
	struct ibfs_sm_stats st;

	star_make(&n, 4, 3);
	n.sm = ibfs__sm_start(n.f, 1, "minhop", 0, on_up, &n, &d);
	ck_assert_ptr_nonnull(n.sm);
	ibfs__sm_set_max_wire(n.sm, 1);
	ibfs__hca_mgmt_detach(n.hca[3]);
	ibfs__eq_run(&n.f->eq, IBFS_TIME_NEVER);
	ibfs__sm_stats(n.sm, &st);
	ck_assert_int_eq(st.state, 1);
	ck_assert_int_eq(n.up_calls, 1);

	ibfs_time_t A = IBFS_SMA_PROC_TIME, R = IBFS_SMA_RELAY_TIME;
	ibfs_time_t dsw = P + ser(8) + L, dca = P + ser(SMP_WIRE);
	ibfs_time_t rtt1 = dsw + A + dca;
	ibfs_time_t rtt2 = dsw + R + dca + A + dsw + R + dca;
	/* Hop 1: 3 + PortInfo 0..4, P_KeyTable of port 0 and of the three
	 * ports in Init (the dead HCA's too), SwitchInfo (PortStateChange),
	 * LID, SwitchInfo, one LFT block, and PortInfo (partition
	 * enforcement), link, Armed, Active for the two links found. Hops 0
	 * and 2: 3 Gets, the table, LID, link, Armed, Active. */
	uint64_t h0 = 7 + CA_PKEY_GETS;
	uint64_t h1 = 3 + 5 + 4 * SW_PKEY_GETS + 1 + 1 + 1 + 1 + 4 * 2;
	uint64_t h2 = 7 + CA_PKEY_GETS, lost = 4;

	ck_assert_uint_eq(st.retries, IBFS_SM_TRANS_RETRIES);
	ck_assert_uint_eq(st.timeouts, 1);
	ck_assert_uint_eq(st.errors, 0);
	ck_assert_uint_eq(st.sent, h0 + h1 + h2 + lost);
	ck_assert_uint_eq(st.received, h0 + h1 + h2);
	ck_assert_uint_eq(st.disc_sent, 3 + 8 + 3 + lost + 2 * CA_PKEY_GETS +
					4 * SW_PKEY_GETS);
	ck_assert_uint_eq(st.sweep, h0 * A + h1 * rtt1 + h2 * rtt2 +
					    lost * IBFS_SM_TRANS_TIMEOUT);
	ck_assert_int_eq(st.cas, 2);
	ck_assert_int_eq(st.links, 2);
	ck_assert_uint_eq(n.f->pkts_dropped, lost);
	ck_assert_uint_eq(n.hca[3]->hp[1].lid, 0);
	ck_assert_uint_ne(n.hca[2]->hp[1].lid, 0);
	ck_assert_int_eq(ibfs__sm_port_state(n.sm, 0, 3), IBFS_PORT_INIT);
	ck_assert_int_eq(ibfs__sm_port_state(n.sm, 0, 2), IBFS_PORT_ACTIVE);
	net_free(&n);
}
END_TEST

/* More SMPs on the wire: same counts and tables, a shorter sweep. */
START_TEST(test_star_window)
{
	struct net a, b;
	struct ibfs_sm_stats sa, sb;

	star_make(&a, 4, 3);
	net_sweep(&a, 1, "minhop", 0, 1);
	ibfs__sm_stats(a.sm, &sa);
	star_make(&b, 4, 3);
	net_sweep(&b, 1, "minhop", 0, 0);
	check_programmed(&b, "minhop", 0);
	ibfs__sm_stats(b.sm, &sb);
	ck_assert_uint_eq(sb.sent, sa.sent);
	ck_assert_uint_eq(sb.received, sa.received);
	ck_assert_uint_lt(sb.sweep, sa.sweep);
	net_free(&a);
	net_free(&b);
}
END_TEST

static void fat_tree_case(const char *engine, int lmc)
{
	struct net n;

	fat_tree_make(&n, 4);
	ck_assert_uint_eq(ibfs__topo_count(n.t, IBFS_NODE_SWITCH), 6);
	ck_assert_uint_eq(ibfs__topo_count(n.t, IBFS_NODE_HCA), 8);
	/* The SM on the last HCA: the sweep must not depend on node 0. */
	int smn = -1;

	for (size_t i = 0; i < n.t->nnodes; i++)
		if (n.t->nodes[i].type == IBFS_NODE_HCA)
			smn = (int)i;
	net_sweep(&n, smn, engine, lmc, 0);
	check_programmed(&n, engine, lmc);
	struct ibfs_sm_stats st;

	ibfs__sm_stats(n.sm, &st);
	/* 6 switches with 4 ports: 3 + 6 x 8 + 7 x 3 + 6 known = 78, and
	 * P_KeyTable: 8 HCAs x 4 blocks + 6 switches x 5 ports = 62. */
	ck_assert_uint_eq(disc_count(n.t), 78 + 62);
	ck_assert_uint_eq(st.disc_sent, 78 + 62);
	ck_assert_uint_eq(st.cfg_sent, cfg_count(n.t, st.max_lid));
	ck_assert_uint_eq(st.received, st.sent);
	ck_assert_int_eq(st.links, 16);
	ck_assert_int_eq(st.nodes, 14);
	ck_assert_uint_eq(st.errors, 0);
	ck_assert_uint_eq(n.f->pkts_dropped, 0);
	ck_assert_uint_eq(ibfs__fabric_in_flight(n.f), 0);
	net_free(&n);
}

START_TEST(test_fat_tree_minhop)
{
	fat_tree_case("minhop", 0);
}
END_TEST

START_TEST(test_fat_tree_ftree_lmc)
{
	fat_tree_case("ftree", 1);
}
END_TEST

START_TEST(test_fat_tree_updn)
{
	fat_tree_case("updn", 0);
}
END_TEST

/* Runs the SM on HCA 1 of a star (4 ports, 3 HCAs, 2 data VLs), with q
 * if not NULL; returns the SMPs it sent. */
static uint64_t star_qos_sweep(struct net *n, const struct ibfs_qos *q)
{
	struct ibfs_diag d;
	struct ibfs_sm_stats st;

	star_make_vls(n, 4, 3, 2);
	n->sm = ibfs__sm_start(n->f, 1, "minhop", 0, on_up, n, &d);
	ck_assert_msg(n->sm != NULL, "%s", d.msg);
	if (q)
		ibfs__sm_set_qos(n->sm, q);
	ibfs__eq_run(&n->f->eq, IBFS_TIME_NEVER);
	ibfs__sm_stats(n->sm, &st);
	ck_assert_msg(st.state == 1, "sweep failed: %s", st.error);
	return st.sent;
}

/*
 * QoS settings reach every linked switch output and every HCA port alike
 * (SL-to-VL, both VL arbitration tables, LimitOfHighPriority in PortInfo),
 * as OpenSM sends them: per linked switch output (3) the four VLArb blocks
 * its caps (64 entries each way) hold and one SL2VL SMP per input port
 * 0..4, per HCA port (3) the four VLArb blocks and one SL2VL: 3 x (4 + 5)
 * + 3 x (4 + 1) = 42 SMPs more than without QoS settings, where none is
 * sent (as OpenSM). The limit rides on the PortInfo Sets the SM sends
 * anyway.
 */
START_TEST(test_star_qos)
{
	struct ibfs_qos q = { .given = 1, .nhigh = 1, .nlow = 2,
			      .high_limit = 7 };
	struct net n;

	for (int sl = 0; sl < 16; sl++)
		q.sl2vl[sl] = (uint8_t)(1 - sl % 2);
	q.high[0] = (struct ibfs_vlarb_entry){ 1, 255 };
	q.low[0] = (struct ibfs_vlarb_entry){ 0, 64 };
	q.low[1] = (struct ibfs_vlarb_entry){ 1, 32 };
	uint64_t plain = star_qos_sweep(&n, NULL);
	struct ibfs_switch *sw = n.sw[0];

	ck_assert_int_eq(sw->out[1].arb.limit, 255);
	ck_assert_int_eq(sw->out[1].arb.nhigh, 0);
	ck_assert_int_eq(n.hca[1]->hp[1].sl2vl[1], 1);
	for (int h = 1; h <= 3; h++) {
		const struct ibfs_vlarb *a = &n.hca[h]->hp[1].arb;

		ck_assert_int_eq(a->limit, 255);
		ck_assert_int_eq(a->nhigh, 0);
		ck_assert_int_eq(a->nlow, 2);
	}
	net_free(&n);

	ck_assert_uint_eq(star_qos_sweep(&n, &q),
			  plain + 3 * (4 + 5) + 3 * (4 + 1));
	sw = n.sw[0];
	for (int o = 1; o <= 3; o++) {
		/* Switch output o, then the HCA port at its far end. */
		for (int k = 0; k < 2; k++) {
			const struct ibfs_vlarb *a = k ? &n.hca[o]->hp[1].arb :
							 &sw->out[o].arb;

			ck_assert_int_eq(a->limit, 7);
			ck_assert_int_eq(a->nhigh, 1);
			ck_assert_int_eq(a->high[0].vl, 1);
			ck_assert_int_eq(a->high[0].weight, 255);
			ck_assert_int_eq(a->nlow, 2);
			ck_assert_int_eq(a->low[0].weight, 64);
			ck_assert_int_eq(a->low[1].vl, 1);
			ck_assert_int_eq(a->low[1].weight, 32);
		}
		for (int sl = 0; sl < 16; sl++) {
			ck_assert_int_eq(ibfs__sw_sl2vl(sw, 1 + o % 3, o, sl),
					 q.sl2vl[sl]);
			ck_assert_int_eq(n.hca[o]->hp[1].sl2vl[sl],
					 q.sl2vl[sl]);
		}
	}
	/* Port 4 has no link: the SM leaves it as it was. */
	ck_assert_int_eq(sw->out[4].arb.limit, 255);
	ck_assert_int_eq(sw->out[4].arb.nhigh, 0);
	net_free(&n);
}
END_TEST

/* A second sweep over an unchanged fabric sends no LFT block. */
START_TEST(test_resweep_no_change)
{
	struct net n;
	struct ibfs_sm_stats a, b;

	fat_tree_make(&n, 4);
	net_sweep(&n, 6, "minhop", 0, 0);
	ibfs__sm_stats(n.sm, &a);
	/* 6 switches (4 leaves, 2 spines), LIDs 1-14 all in block 0. */
	ck_assert_uint_eq(a.lft_blocks, 6);
	ck_assert_int_eq(ibfs__sm_resweep(n.sm), 0);
	ck_assert_int_eq(ibfs__sm_resweep(n.sm), -1); /* one at a time */
	ibfs__eq_run(&n.f->eq, IBFS_TIME_NEVER);
	ibfs__sm_stats(n.sm, &b);
	ck_assert_int_eq(b.state, 1);
	ck_assert_uint_eq(b.lft_blocks, 0);
	/* No P_Key table is read again: every port is Active (OpenSM reads
	 * them in its first sweep and for ports found in Init). */
	ck_assert_uint_eq(b.disc_sent, a.disc_sent - 62);
	/* Nothing to set: no LFT block, no link/Armed/Active for the 2 x 16
	 * Active ends, no SwitchInfo (no PortStateChange to clear, the tops
	 * unchanged), no partition enforcement, no LID (each port holds its
	 * LID, LMC and MasterSMLID): OpenSM's later sweeps set only what
	 * differs from what they read. */
	ck_assert_uint_eq(b.cfg_sent, 0);
	ck_assert_uint_eq(a.cfg_sent,
			  a.lft_blocks + 3 * 32 + 2 * 6 + 8 + 14);
	ck_assert_uint_eq(b.errors, 0);
	ck_assert_int_eq(n.up_calls, 2);
	check_programmed(&n, "minhop", 0);
	net_free(&n);
}
END_TEST

/*
 * Another engine on the next sweep: the SM sends exactly the LFT blocks
 * where the new engine's offline tables differ from the old one's.
 */
START_TEST(test_resweep_new_engine)
{
	struct net n;
	struct ibfs_sm_stats a, b;
	struct ibfs_diag d;
	struct ibfs_routing_opts o = { 0 };

	fat_tree_make(&n, 4);
	net_sweep(&n, 6, "minhop", 0, 0);
	ibfs__sm_stats(n.sm, &a);
	struct ibfs_subnet *x = ibfs__subnet_from_topo(n.t, &d);
	struct ibfs_subnet *y = ibfs__subnet_from_topo(n.t, &d);

	ck_assert_int_eq(ibfs__subnet_assign_lids(x, 0, &d), 0);
	ck_assert_int_eq(ibfs__subnet_assign_lids(y, 0, &d), 0);
	ck_assert_int_eq(ibfs__routing_run(x, "minhop", &o, &d), 0);
	ck_assert_int_eq(ibfs__routing_run(y, "dfsssp", &o, &d), 0);
	uint64_t changed = 0;

	for (int s = 0; s < x->nsw; s++)
		for (unsigned b0 = 0; b0 <= x->max_lid; b0 += 64) {
			int diff = 0;

			for (unsigned l = b0; l < b0 + 64 && l <= x->max_lid;
			     l++)
				diff |= *ibfs__subnet_lft(x, s, l) !=
					*ibfs__subnet_lft(y, s, l);
			changed += diff;
		}
	ibfs__subnet_free(x);
	ibfs__subnet_free(y);
	ck_assert_int_eq(ibfs__sm_set_engine(n.sm, "nosuch"), -1);
	ck_assert_int_eq(ibfs__sm_set_engine(n.sm, "dfsssp"), 0);
	ck_assert_int_eq(ibfs__sm_resweep(n.sm), 0);
	ibfs__eq_run(&n.f->eq, IBFS_TIME_NEVER);
	ibfs__sm_stats(n.sm, &b);
	ck_assert_int_eq(b.state, 1);
	ck_assert_str_eq(b.engine, "dfsssp");
	ck_assert_uint_gt(changed, 0);
	ck_assert_uint_eq(b.lft_blocks, changed);
	ck_assert_uint_eq(b.cfg_sent, changed); /* the LFT blocks alone */
	ck_assert_uint_eq(b.errors, 0);
	check_programmed(&n, "dfsssp", 0);
	net_free(&n);
}
END_TEST

/*
 * A spine-leaf link fails (ibfs__fabric_link_set, as a fault). Both
 * agents are told and send trap 128 towards the SM: the leaf's route to
 * the SM takes the failed link here, so its trap is lost; the spine's,
 * whose route is intact (the SM's leaf is another one), arrives, and the
 * SM sweeps again. LIDs stay; the LFTs become those of the engine on the
 * topology without that link (computed offline here), and exactly the
 * LFT blocks that differ are sent.
 */
START_TEST(test_trap_link_down)
{
	struct net n;
	struct ibfs_sm_stats a, b;
	struct ibfs_diag d;
	struct ibfs_routing_opts o = { 0 };
	int smn = 6;

	fat_tree_make(&n, 4);
	ck_assert_int_eq(n.t->nodes[smn].type, IBFS_NODE_HCA);
	net_sweep(&n, smn, "minhop", 0, 0);
	ibfs__sm_stats(n.sm, &a);
	ck_assert_uint_eq(a.traps, 0);
	int smleaf = n.t->nodes[smn].ports[1].peer_node;
	int spine = -1, sp = 0, leaf = -1, lp = 0;

	/* A spine: a switch with no HCA; its first port to another leaf. */
	for (size_t i = 0; i < n.t->nnodes && spine < 0; i++) {
		const struct ibfs_topo_node *x = &n.t->nodes[i];
		int hcas = 0;

		if (x->type != IBFS_NODE_SWITCH)
			continue;
		for (int p = 1; p <= x->nports; p++)
			hcas += x->ports[p].peer_node >= 0 &&
				n.t->nodes[x->ports[p].peer_node].type ==
					IBFS_NODE_HCA;
		for (int p = 1; !hcas && p <= x->nports && spine < 0; p++)
			if (x->ports[p].peer_node != smleaf) {
				spine = (int)i;
				sp = p;
				leaf = x->ports[p].peer_node;
				lp = x->ports[p].peer_port;
			}
	}
	ck_assert_int_ge(spine, 0);
	ck_assert_int_eq(ibfs__fabric_link_set(n.f, spine, sp, 0), 1);
	ck_assert_int_eq(ibfs__sm_port_state(n.sm, spine, sp),
			 IBFS_PORT_DOWN);
	ibfs__eq_run(&n.f->eq, IBFS_TIME_NEVER);
	ibfs__sm_stats(n.sm, &b);
	ck_assert_uint_eq(b.traps, 1);
	ck_assert_int_eq(b.state, 1);
	ck_assert_uint_eq(b.errors, 0);
	ck_assert_int_eq(n.up_calls, 2);
	ck_assert_int_eq(b.links, a.links - 1);
	ck_assert_uint_eq(b.max_lid, a.max_lid);

	/* Offline: the same LIDs, routed without the link. */
	struct ibfs_subnet *x = ibfs__subnet_from_topo(n.t, &d);
	struct ibfs_subnet *y = ibfs__subnet_from_topo(n.t, &d);

	ck_assert_int_eq(ibfs__subnet_assign_lids(x, 0, &d), 0);
	ck_assert_int_eq(ibfs__subnet_assign_lids(y, 0, &d), 0);
	y->nodes[spine].ports[sp].peer = -1;
	y->nodes[leaf].ports[lp].peer = -1;
	ck_assert_int_eq(ibfs__routing_run(x, "minhop", &o, &d), 0);
	ck_assert_int_eq(ibfs__routing_run(y, "minhop", &o, &d), 0);
	uint64_t changed = 0;

	/* All LIDs in LFT block 0: a switch whose table changed gets one. */
	ck_assert_uint_lt(y->max_lid, 64);
	for (int s = 0; s < y->nsw; s++) {
		int node = y->sw_node[s];
		int diff = 0;

		for (unsigned lid = 1; lid <= y->max_lid; lid++) {
			uint8_t want = *ibfs__subnet_lft(y, s, lid);

			ck_assert_uint_eq(ibfs__switch_get_lft(n.sw[node],
							       (uint16_t)lid),
					  want);
			ck_assert(!(node == spine && want == sp));
			ck_assert(!(node == leaf && want == lp));
			diff |= want != *ibfs__subnet_lft(x, s, lid);
		}
		ck_assert_uint_eq(ibfs__switch_get_lid(n.sw[node]),
				  y->nodes[node].ports[0].lid);
		changed += diff;
	}
	for (int i = 0; i < y->nnodes; i++)
		if (n.hca[i])
			ck_assert_uint_eq(n.hca[i]->hp[1].lid,
					  y->nodes[i].ports[1].lid);
	ck_assert_uint_gt(changed, 0);
	ck_assert_uint_eq(b.lft_blocks, changed);
	/* The fault told both agents: both ports are Down, and the SM,
	 * which heard one trap (the spine's), left them alone. */
	ck_assert_int_eq(ibfs__sm_port_state(n.sm, leaf, lp), IBFS_PORT_DOWN);
	ck_assert_int_eq(ibfs__sm_port_state(n.sm, spine, sp), IBFS_PORT_DOWN);
	/* Both switches report PortStateChange: one SwitchInfo Set clears
	 * each (the first sweep cleared the power-up ones); the tops did
	 * not move, so no other SwitchInfo is set. */
	ck_assert_uint_eq(a.by_attr[1][IBFS_SMP_ATTR_SWITCH_INFO -
				       IBFS_SM_ATTR_BASE], 2 * 6);
	ck_assert_uint_eq(b.by_attr[1][IBFS_SMP_ATTR_SWITCH_INFO -
				       IBFS_SM_ATTR_BASE], 2);
	ibfs__subnet_free(x);
	ibfs__subnet_free(y);
	net_free(&n);
}
END_TEST

START_TEST(test_start_errors)
{
	struct net n;
	struct ibfs_diag d;

	star_make(&n, 4, 2);
	ck_assert_ptr_null(ibfs__sm_start(n.f, 0, "minhop", 0, NULL, NULL,
					  &d));
	ck_assert_ptr_nonnull(strstr(d.msg, "must run on an HCA"));
	ck_assert_ptr_null(ibfs__sm_start(n.f, 99, "minhop", 0, NULL, NULL,
					  &d));
	ck_assert_ptr_nonnull(strstr(d.msg, "node 99"));
	ck_assert_ptr_null(ibfs__sm_start(n.f, 1, "nosuch", 0, NULL, NULL,
					  &d));
	ck_assert_ptr_nonnull(strstr(d.msg, "unknown routing engine 'nosuch'"));
	ck_assert_ptr_null(ibfs__sm_start(n.f, 1, "minhop", 8, NULL, NULL,
					  &d));
	ck_assert_ptr_nonnull(strstr(d.msg, "LMC 8"));
	net_free(&n);

	/* An HCA without a link. */
	memset(&n, 0, sizeof(n));
	n.t = ibfs__topo_new("lone");
	ibfs__topo_add_node(n.t, "alone", IBFS_NODE_HCA, 1, 7, &d);
	net_devices(&n);
	ck_assert_ptr_null(ibfs__sm_start(n.f, 0, NULL, 0, NULL, NULL, &d));
	ck_assert_ptr_nonnull(strstr(d.msg, "'alone' has no linked port"));
	net_free(&n);
}
END_TEST

/*
 * An engine that fails on the discovered subnet (file, given no file)
 * falls back to minhop as OpenSM does, and the tables are minhop's.
 */
START_TEST(test_engine_fallback)
{
	struct net n;
	struct ibfs_sm_stats st;

	star_make(&n, 4, 3);
	net_sweep(&n, 2, "file", 0, 0);
	ibfs__sm_stats(n.sm, &st);
	ck_assert_str_eq(st.engine, "minhop");
	check_programmed(&n, "minhop", 0);
	net_free(&n);
}
END_TEST

static Suite *sm_suite(void)
{
	Suite *s = suite_create("sm");
	TCase *tc = tcase_create("sweep");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_star_exact);
	tcase_add_test(tc, test_star_window);
	tcase_add_test(tc, test_star_timeout);
	tcase_add_test(tc, test_star_qos);
	tcase_add_test(tc, test_fat_tree_minhop);
	tcase_add_test(tc, test_fat_tree_ftree_lmc);
	tcase_add_test(tc, test_fat_tree_updn);
	tcase_add_test(tc, test_resweep_no_change);
	tcase_add_test(tc, test_resweep_new_engine);
	tcase_add_test(tc, test_trap_link_down);
	tcase_add_test(tc, test_start_errors);
	tcase_add_test(tc, test_engine_fallback);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(sm_suite)
