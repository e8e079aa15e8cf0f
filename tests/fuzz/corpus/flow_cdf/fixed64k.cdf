# SPDX-License-Identifier: MIT
# Every flow 64 KiB: one point, probability 1 (tests/flows_scenarios.sh).
65536 1
