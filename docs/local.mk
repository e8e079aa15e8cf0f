# SPDX-License-Identifier: MIT
# The documentation: the man page, installed so that `man ibfsim` works,
# and the docs/ files, installed under $(docdir). tests/README.md is about
# the source tree's tests: distributed, not installed.
dist_man1_MANS = docs/ibfsim.1
dist_doc_DATA = docs/architecture.md docs/fabric-format.md \
	docs/scenario-format.md docs/results.md docs/subnet-manager.md \
	docs/fidelity.md docs/performance.md docs/sweep-format.md \
	docs/tcp.md docs/comparing.md docs/teaching.md
EXTRA_DIST += tests/README.md

# Every element and attribute of the schemas is in the format pages, whose
# whole examples validate; the man page lints clean and names every command
# and option of --help.
TESTS += tests/docs_formats.sh tests/man_page.sh
EXTRA_DIST += tests/docs_formats.sh tests/man_page.sh

# The tree speaks of itself alone and every document it cites is in it.
TESTS += tests/docs_check.sh
EXTRA_DIST += tests/docs_check.sh
# RoCEv2 congestion control: DCQCN's model, parameters and their sources.
dist_doc_DATA += docs/congestion-control.md
