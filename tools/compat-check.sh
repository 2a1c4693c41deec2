#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Fail when a kernel API that changed between 6.1 and the newest LTS is
# used raw outside compat.h: EXPORT_SYMBOL_NS*() and MODULE_IMPORT_NS()
# (a bare token before 6.13, a string from then on) and rdmsrl*() (renamed
# rdmsrq*() in 6.16).  The kernels compiled here, 6.1 and 6.12, both
# predate these changes, so a build cannot catch a raw use; this check
# can.  Run by make (modules) and by tools/lint.sh.
#
# Usage: tools/compat-check.sh [SOURCE_DIR]   (default: the project)
# Prints FILE:LINE: TEXT for each use; exit 1 when there is one.
set -uo pipefail

dir=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$dir" || exit 2
hits=$(find . \( -path ./build -o -path ./.git \) -prune -o \
	\( -name '*.[ch]' ! -name '*.mod.c' ! -name compat.h -print0 \) |
	xargs -0 -r grep -nHwE 'EXPORT_SYMBOL_NS(_GPL)?|MODULE_IMPORT_NS|rdmsrl[a-z_]*' |
	sed 's|^\./||')
if [ -n "$hits" ]; then
	echo "$hits"
	echo "compat-check: raw EXPORT_SYMBOL_NS*/MODULE_IMPORT_NS/rdmsrl* outside compat.h (use EXPORT_SYMBOL_FREQ_INV, FREQ_INV_IMPORT_NS, rdmsrq*)" >&2
	exit 1
fi
exit 0
