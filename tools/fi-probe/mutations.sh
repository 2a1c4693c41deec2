#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Mutation check of tools/fi-probe/test.sh: for each mutation below, copy
# the decoders and fi-probe into a scratch tree, break the decoder with one
# sed expression, rebuild fi-probe there and run that copy's test.sh.  A
# mutation is caught when test.sh fails.  The working tree is never
# touched.  Exit 1 if any mutation survives or fails to apply.
#
# Usage: tools/fi-probe/mutations.sh

src=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d) || exit 1
trap 'rm -rf "$scratch"' EXIT
bad=0

run_one() {
	local name=$1 file=$2 expr=$3
	local t=$scratch/tree out rc nf

	rm -rf "$t"
	mkdir -p "$t/tools"
	cp "$src"/amd_cppc_ratio.[ch] "$src"/intel_ratio.[ch] "$src"/compat.h "$t/"
	cp -r "$src/tools/fi-probe" "$t/tools/"
	rm -f "$t/tools/fi-probe/fi-probe"
	cp "$t/$file" "$t/$file.orig"
	sed -i "$expr" "$t/$file"
	if cmp -s "$t/$file" "$t/$file.orig"; then
		echo "NOT APPLIED: $name"; bad=1; return
	fi
	if ! make -s -C "$t/tools/fi-probe" >"$scratch/build.log" 2>&1; then
		echo "BUILD FAILED: $name"; bad=1; return
	fi
	out=$("$t/tools/fi-probe/test.sh" 2>&1); rc=$?
	nf=$(echo "$out" | grep -c '^not ok')
	if [ $rc -ne 0 ]; then
		echo "caught ($nf not ok): $name"
	else
		echo "SURVIVED: $name"; bad=1
	fi
}

A=amd_cppc_ratio.c; I=intel_ratio.c
run_one "amd: forget the 166 rule (always 255)" $A 's/return AMD_CPPC_RATIO_HIGHEST_ZEN_RANKED;/return AMD_CPPC_RATIO_HIGHEST_OTHER;/'
run_one "amd: 166 range end exclusive (<= -> <)" $A 's/model <= m->last/model < m->last/'
run_one "amd: 166 range start exclusive (>= -> >)" $A 's/model >= m->first/model > m->first/'
run_one "amd: uniform/ranked rule swapped" $A 's/if (raw->highest_perf_uniform) {/if (!raw->highest_perf_uniform) {/'
run_one "amd: kernel ratio without midpoint" $A 's/r.kernel_ratio = ((u64)r.kernel_boost_ratio + AMD_CPPC_RATIO_SCALE) >> 1;/r.kernel_ratio = r.kernel_boost_ratio;/'
run_one "amd: drop highest_perf zero check" $A '/if (!raw->highest_perf)$/,+2d'
run_one "amd: drop nominal_perf zero check" $A '/if (!raw->nominal_perf)$/,+2d'
run_one "amd: drop nominal_freq zero check" $A '/if (!raw->nominal_freq_mhz)$/,+2d'
run_one "amd: highest < nominal flipped to <=" $A 's/if (raw->highest_perf < raw->nominal_perf)/if (raw->highest_perf <= raw->nominal_perf)/'
run_one "amd: drop highest < nominal check" $A 's/if (raw->highest_perf < raw->nominal_perf)/if (0)/'
run_one "amd: accept numerator below nominal (ratio < 1024)" $A 's/if (r.kernel_highest_perf < raw->nominal_perf)/if (0)/'
run_one "amd: MHz->kHz overflow unchecked" $A 's/check_mul_overflow(raw->nominal_freq_mhz, 1000U, &r.max_p_khz)/(r.max_p_khz = raw->nominal_freq_mhz * 1000U, 0)/'
run_one "amd: max_boost from kernel numerator always" $A 's/r.max_boost_khz = r.cppc_max_boost_khz;/r.max_boost_khz = r.kernel_max_freq_khz;/'
run_one "amd: midpoint of ratios uses max_boost kHz / 2" $A 's/r.midpoint_khz = amd_cppc_ratio_midpoint_khz(r.max_p_khz,/r.midpoint_khz = amd_cppc_ratio_midpoint_khz(0,/'
run_one "intel: 1C where 4C belongs" $I 's/r->kernel_turbo = intel_ratio_byte(trl, 3);/r->kernel_turbo = intel_ratio_byte(trl, 0);/'
run_one "intel: 4C read from byte 2 (3C)" $I 's/r->kernel_turbo = intel_ratio_byte(trl, 3);/r->kernel_turbo = intel_ratio_byte(trl, 2);/'
run_one "intel: no 1C fallback when 4C byte is 0" $I 's/if (!r->kernel_turbo) {/if (0) {/'
run_one "intel: SKX group size 4 -> 1" $I 's/intel_ratio_group(raw, 4, &r->kernel_turbo)/intel_ratio_group(raw, 1, \&r->kernel_turbo)/'
run_one "intel: group >= flipped to >" $I 's/i) >= size) {/i) > size) {/'
run_one "intel: KNL delta in byte 7 used (i < 7 -> i < 8)" $I 's/for (i = 2; i < 7; i++) {/for (i = 2; i < 8; i++) {/'
run_one "intel: KNL delta bits 7:5 -> 6:4" $I 's/intel_ratio_byte(raw->turbo_ratio_limit, i) >> 5;/(intel_ratio_byte(raw->turbo_ratio_limit, i) >> 4) \& 7;/'
run_one "intel: KNL top ratio from byte 0" $I 's/int fratio = intel_ratio_byte(raw->turbo_ratio_limit, 1);/int fratio = intel_ratio_byte(raw->turbo_ratio_limit, 0);/'
run_one "intel: turbo-disable bit ignored" $I 's/(raw->misc_enable \& INTEL_RATIO_MISC_TURBO_DISABLE);/0;/'
run_one "intel: turbo-disable bit 38 -> 37" $I 's/BIT_ULL(38)/BIT_ULL(37)/'
run_one "intel: max_boost stays 1C with turbo disabled" $I 's/intel_ratio_khz(r.turbo_disabled ? r.base : r.turbo_1c, r.bus_khz,/intel_ratio_khz(r.turbo_1c, r.bus_khz,/'
run_one "intel: drop base zero check" $I '/if (!r.base)$/,+1d'
run_one "intel: drop kernel turbo zero check" $I '/if (!r.kernel_turbo)$/,+2d'
run_one "intel: accept ratio below 1024" $I 's/if (r.kernel_turbo < r.base)/if (0)/'
run_one "intel: bus clock ignored (always 100 MHz)" $I 's/r.bus_khz = raw->bus_khz ? raw->bus_khz : INTEL_RATIO_BUS_KHZ_DEFAULT;/r.bus_khz = INTEL_RATIO_BUS_KHZ_DEFAULT;/'
run_one "intel: Westmere bus not 133 MHz" $I 's/INTEL_RATIO_BUS_KHZ_NEHALEM :/INTEL_RATIO_BUS_KHZ_DEFAULT :/'
run_one "intel: Atom rule not tried on non-Atom models" $I 's/if (intel_ratio_has(raw, INTEL_RATIO_HAVE_ATOM_CORE_RATIOS |/if (raw->model != 0x2a \&\& intel_ratio_has(raw, INTEL_RATIO_HAVE_ATOM_CORE_RATIOS |/'
run_one "intel: Silvermont base bits 21:16 -> 15:8" $I 's/r->base = (raw->atom_core_ratios >> 16) \& 0x3f;/r->base = (raw->atom_core_ratios >> 8) \& 0x3f;/'
run_one "intel: Silvermont FSB table bound off by one" $I 's/if (idx >= n)/if (idx > n)/'
run_one "intel: platform_info base from byte 0" $I 's/r->base = intel_ratio_byte(raw->platform_info, 1);/r->base = intel_ratio_byte(raw->platform_info, 0);/'

exit $bad
