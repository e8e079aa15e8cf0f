/* SPDX-License-Identifier: MIT */
/*
 * ibfsim run SCENARIO.xml: loads the scenario (a bad file runs nothing),
 * runs it, prints a short summary on stdout and writes the requested
 * result files.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "fabric/units.h"
#include "host/host_profile.h"
#include "scenario/runner.h"

static const char run_usage[] =
	"Usage: ibfsim run SCENARIO.xml [options]\n"
	"\n"
	"Runs a scenario and prints a summary of its results.\n"
	"\n"
	"Options:\n"
	"  --model ib|roce|iwarp|tcp  transport model (default: the scenario's;\n"
	"                  ib, roce and tcp are built)\n"
	"  --cc NAME[:SET] the RNICs' congestion control under roce (none,\n"
	"                  dcqcn, hpcc, timely) and its parameter set, in\n"
	"                  place of the scenario's (e.g. dcqcn:connectx)\n"
	"  --profile NAME  every HCA's timing profile (ideal, connectx-4-edr,\n"
	"                  connectx-6-hdr, connectx-7-ndr) instead of the\n"
	"                  fabric's\n"
	"  --host-profile NAME  the hosts' CPU under tcp (ideal, linux-xeon)\n"
	"                  instead of the scenario's\n"
	"  --seed N        seed of every random choice (default 1)\n"
	"  --json FILE     write the results as JSON\n"
	"  --csv DIR       write messages, flows, links and ports as CSV (and\n"
	"                  PFC per port and priority under roce and tcp)\n"
	"  --pcap FILE     capture packets (pcap: LINKTYPE_ERF records under\n"
	"                  ib, Ethernet frames with PFC under roce, TCP/IPv4\n"
	"                  under tcp): by default\n"
	"                  as they leave HCAs and the switch ports facing them\n"
	"  --pcap-ports LIST  capture what leaves these ports instead:\n"
	"                  NODE:PORT or NODE (all its ports), comma-separated,\n"
	"                  or 'all'\n"
	"  --pcap-snaplen N   keep the first N bytes of each packet (as\n"
	"                  tcpdump -s; the wire length is recorded)\n"
	"  --trace FILE    write a timeline (Chrome/Perfetto trace JSON)\n"
	"  --trace-ports LIST  the ports whose packets and credit stalls the\n"
	"                  timeline shows (as --pcap-ports; default: all)\n"
	"  --sample TIME   every TIME of simulated time, sample each port's\n"
	"                  queued bytes and PFC pauses and each QP's rate\n"
	"                  into samples_ports.csv and samples_qps.csv in the\n"
	"                  --csv DIR, and as counters in the --trace timeline\n"
	"  --until TIME    stop at this simulated time at the latest (e.g.\n"
	"                  10ms; the earlier of it and the scenario's <stop>)\n"
	"  --no-data       do not move real bytes (same timing)\n"
	"  --quiet         no progress line\n"
	"\n"
	"Exit status: 0 success, 1 the run failed (deadlock, failed messages),\n"
	"2 bad usage or invalid input.\n";

struct run_args {
	const char *scenario, *json, *csv, *model, *pcap_ports, *trace_ports;
	const char *profile, *cc, *host_profile;
	struct ibfs_run_opts o;
};

/* Takes the value of option argv[*i]; NULL (and a message) when missing. */
static const char *value(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc) {
		ibfs_cli_error("%s needs a value", argv[*i]);
		return NULL;
	}
	return argv[++*i];
}

static int parse_args(int argc, char **argv, struct run_args *a)
{
	a->o = (struct ibfs_run_opts){.seed = 1, .data = 1,
				      .until = IBFS_TIME_NEVER};
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *v = NULL;
		if (!strcmp(arg, "--no-data")) {
			a->o.data = 0;
		} else if (!strcmp(arg, "--quiet") || !strcmp(arg, "-q")) {
			a->o.quiet = 1;
		} else if (!strcmp(arg, "--seed")) {
			if (!(v = value(argc, argv, &i)))
				return -1;
			if (ibfs__parse_uint(v, &a->o.seed)) {
				ibfs_cli_error("--seed takes a whole number, "
					       "not '%s'", v);
				return -1;
			}
		} else if (!strcmp(arg, "--until")) {
			if (!(v = value(argc, argv, &i)))
				return -1;
			int err = ibfs__parse_time(v, &a->o.until);
			if (err) {
				ibfs_cli_error("--until %s: %s", v,
					       ibfs__unit_strerror(-err, "time"));
				return -1;
			}
		} else if (!strcmp(arg, "--sample")) {
			if (!(v = value(argc, argv, &i)))
				return -1;
			int err = ibfs__parse_time(v, &a->o.sample);
			if (err || !a->o.sample) {
				ibfs_cli_error("--sample %s: %s", v,
					       err ? ibfs__unit_strerror(-err,
									 "time")
						   : "the interval must be "
						     "above 0");
				return -1;
			}
		} else if (!strcmp(arg, "--pcap-snaplen")) {
			uint64_t n;
			if (!(v = value(argc, argv, &i)))
				return -1;
			if (ibfs__parse_uint(v, &n) || n < 8 || n > 65535) {
				ibfs_cli_error("--pcap-snaplen takes 8 to 65535 "
					       "bytes (8: the LRH), not '%s'", v);
				return -1;
			}
			a->o.pcap_opts.snaplen = (uint32_t)n;
		} else if (!strcmp(arg, "--pcap-ports")) {
			if (!(a->pcap_ports = value(argc, argv, &i)))
				return -1;
		} else if (!strcmp(arg, "--trace-ports")) {
			if (!(a->trace_ports = value(argc, argv, &i)))
				return -1;
		} else if (!strcmp(arg, "--json") || !strcmp(arg, "--csv") ||
			   !strcmp(arg, "--pcap") || !strcmp(arg, "--trace") ||
			   !strcmp(arg, "--model") ||
			   !strcmp(arg, "--profile") || !strcmp(arg, "--cc") ||
			   !strcmp(arg, "--host-profile")) {
			if (!(v = value(argc, argv, &i)))
				return -1;
			if (!strcmp(arg, "--json"))
				a->json = v;
			else if (!strcmp(arg, "--csv"))
				a->csv = v;
			else if (!strcmp(arg, "--pcap"))
				a->o.pcap = v;
			else if (!strcmp(arg, "--trace"))
				a->o.trace = v;
			else if (!strcmp(arg, "--profile"))
				a->profile = v;
			else if (!strcmp(arg, "--cc"))
				a->cc = v;
			else if (!strcmp(arg, "--host-profile"))
				a->host_profile = v;
			else
				a->model = v;
		} else if (arg[0] == '-' && arg[1]) {
			ibfs_cli_error("run: unknown option '%s'", arg);
			return -1;
		} else if (!a->scenario) {
			a->scenario = arg;
		} else {
			ibfs_cli_error("run: one scenario at a time ('%s')", arg);
			return -1;
		}
	}
	if (!a->scenario) {
		ibfs_cli_error("run: which scenario? (ibfsim run --help)");
		return -1;
	}
	if ((a->pcap_ports || a->o.pcap_opts.snaplen) && !a->o.pcap) {
		ibfs_cli_error("--pcap-ports and --pcap-snaplen go with --pcap "
			       "FILE");
		return -1;
	}
	if (a->trace_ports && !a->o.trace) {
		ibfs_cli_error("--trace-ports goes with --trace FILE");
		return -1;
	}
	if (a->o.sample && !a->csv && !a->o.trace) {
		ibfs_cli_error("--sample goes with --csv DIR (the files "
			       "samples_ports.csv and samples_qps.csv) or "
			       "--trace FILE (counters)");
		return -1;
	}
	a->o.sample_dir = a->csv;
	return 0;
}

/* --model overrides the scenario's; ib, roce and tcp are built so far. */
static int apply_model(struct ibfs_scenario *sc, const char *model)
{
	static const char *const names[] = {"ib", "roce", "iwarp", "tcp"};
	if (model) {
		int found = -1;
		for (int i = 0; i < 4; i++)
			if (!strcmp(model, names[i]))
				found = i;
		if (found < 0) {
			ibfs_cli_error("--model %s: not one of ib, roce, "
				       "iwarp, tcp", model);
			return -1;
		}
		sc->model = found;
	}
	if (sc->model == IBFS_MODEL_IWARP) {
		ibfs_cli_error("model %s is not built yet (only ib, roce and "
			       "tcp)",
			       ibfs__sc_model_str(sc->model));
		return -1;
	}
	return 0;
}

/* --host-profile overrides the scenario's host-profile="". */
static int apply_host_profile(struct ibfs_scenario *sc, const char *name)
{
	if (!name)
		return 0;
	for (int i = 0; ibfs__host_profile_names[i]; i++)
		if (!strcmp(name, ibfs__host_profile_names[i])) {
			sc->eth.tcp_host_profile = i;
			return 0;
		}
	ibfs_cli_error("--host-profile %s: not one of %s", name,
		       ibfs__host_profile_list());
	return -1;
}

/*
 * --cc overrides the scenario's congestion control; either way a RoCEv2
 * control under ib is refused (the check the scenario's own model had).
 */
static int apply_cc(struct ibfs_scenario *sc, const struct run_args *a)
{
	struct ibfs_diag d;

	if ((a->cc && ibfs__sc_cc_override(sc, a->cc, &d) < 0) ||
	    ibfs__sc_cc_check_model(sc, a->cc ? "--cc" : a->model ? "--model"
								 : NULL,
				    &d) < 0) {
		ibfs_cli_error("%s", d.msg);
		return -1;
	}
	return 0;
}

/*
 * Every output is checked before anything runs (the files are written at
 * the end, the capture and the timeline from the start).
 */
static int outputs_writable(const struct run_args *a)
{
	const struct ibfs_cli_output out[] = { { a->json, 0 }, { a->csv, 1 },
					       { a->o.pcap, 0 },
					       { a->o.trace, 0 } };

	return ibfs_cli_outputs_ok(out, sizeof(out) / sizeof(out[0]));
}

static int write_outputs(const struct run_args *a, struct ibfs_results *r)
{
	if (a->json && ibfs__results_write_json(r, a->json) < 0) {
		ibfs_cli_error("%s: %s", a->json, strerror(errno));
		return -1;
	}
	if (a->csv && ibfs__results_write_csv(r, a->csv) < 0) {
		ibfs_cli_error("%s: %s", a->csv, strerror(errno));
		return -1;
	}
	return 0;
}

/* --pcap-ports and --trace-ports against the scenario's fabric. */
static int port_sets(struct run_args *a, const struct ibfs_topology *t,
		     struct ibfs_port_set *pcap, struct ibfs_port_set *trace)
{
	char err[300];
	if (a->pcap_ports) {
		if (ibfs__port_set_parse(pcap, t, a->pcap_ports, err,
					 sizeof(err)) < 0) {
			ibfs_cli_error("--pcap-ports: %s", err);
			return -1;
		}
		a->o.pcap_opts.ports = pcap;
	}
	if (a->trace_ports) {
		if (ibfs__port_set_parse(trace, t, a->trace_ports, err,
					 sizeof(err)) < 0) {
			ibfs_cli_error("--trace-ports: %s", err);
			ibfs__port_set_free(pcap);
			return -1;
		}
		a->o.trace_ports = trace;
	}
	return 0;
}

int ibfs_cmd_run(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (ibfs_cli_is_help(argv[i])) {
			fputs(run_usage, stdout);
			return IBFS_EXIT_OK;
		}
	struct run_args a = {0};
	if (parse_args(argc, argv, &a) < 0 || outputs_writable(&a) < 0)
		return IBFS_EXIT_USAGE;
	struct ibfs_diag d;
	struct ibfs_scenario *sc = ibfs__scenario_load(a.scenario, &d);
	if (!sc) {
		ibfs_cli_error("%s", d.msg);
		return IBFS_EXIT_USAGE;
	}
	if (a.profile && ibfs__scenario_set_profile(sc, a.profile, &d) < 0) {
		ibfs_cli_error("%s", d.msg);
		ibfs__scenario_free(sc);
		return IBFS_EXIT_USAGE;
	}
	if (apply_model(sc, a.model) < 0) {
		ibfs__scenario_free(sc);
		return IBFS_EXIT_USAGE;
	}
	if (apply_host_profile(sc, a.host_profile) < 0 ||
	    apply_cc(sc, &a) < 0) {
		ibfs__scenario_free(sc);
		return IBFS_EXIT_USAGE;
	}
	struct ibfs_port_set pcap_ports = {0}, trace_ports = {0};
	if (port_sets(&a, sc->topo, &pcap_ports, &trace_ports) < 0) {
		ibfs__scenario_free(sc);
		return IBFS_EXIT_USAGE;
	}
	struct ibfs_results r = {0};
	int rc = ibfs__scenario_run(sc, &a.o, &r, &d);
	int status = IBFS_EXIT_OK;
	if (rc < 0) {
		ibfs_cli_error("%s", d.msg);
		status = IBFS_EXIT_USAGE;
	} else {
		ibfs__results_print(&r, stdout);
		if (write_outputs(&a, &r) < 0)
			status = IBFS_EXIT_FAIL;
		else if (rc > 0)
			status = IBFS_EXIT_FAIL;
	}
	ibfs__results_free(&r);
	ibfs__scenario_free(sc);
	ibfs__port_set_free(&pcap_ports);
	ibfs__port_set_free(&trace_ports);
	return status;
}
