/* SPDX-License-Identifier: MIT */
/*
 * ibfsim: the umbrella header of the public API. Application programs
 * (SimGrid actors using the verbs-shaped API) include this one header.
 */
#ifndef IBFSIM_IBFSIM_H
#define IBFSIM_IBFSIM_H

#define IBFSIM_VERSION_MAJOR 0
#define IBFSIM_VERSION_MINOR 1

#include <ibfsim/sim.h>
#include <ibfsim/verbs.h>
#include <ibfsim/simulation.h>

#endif
