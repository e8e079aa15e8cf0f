/* SPDX-License-Identifier: MIT */
/*
 * What the example programs share: building the simulated world from a
 * fabric file (platforms/two-hca.xml, two ConnectX-4 EDR HCAs back to
 * back, unless --fabric FILE is given) and running application actors on
 * its hosts, through the public ibfsim/simulation.h calls.
 */
#ifndef IBFSIM_EXAMPLES_LAUNCH_H
#define IBFSIM_EXAMPLES_LAUNCH_H

struct ex_actor {
	const char *host;   /* HCA id in the fabric file */
	const char *name;
	void (*fn)(int argc, char **argv);
};

/*
 * argv: PROGRAM [--fabric FILE] [ARGS...]; ARGS go to every actor (as
 * argv[1..]). Returns the process exit status: 0, 1 (the run failed) or
 * 2 (bad input).
 */
int ex_launch(int argc, char **argv, const struct ex_actor *actors, int n);

/* Set by an actor when something went wrong: ex_launch then returns 1. */
void ex_fail(const char *why);

#endif
