#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Mutation check of tools/fi-probe/test.sh: for each mutation below, copy
# the tree (tracked and new files) into a scratch directory, break one
# shared source -- a decoder, the caps resolver, the ratio math -- with
# one sed expression, rebuild fi-probe there and run that copy's test.sh.
# A mutation is caught when test.sh fails.  The working tree is never
# touched.  Exit 1 if any mutation survives or fails to apply.
# The KUnit suites list the mutations they were checked against (the
# resolver's, freq_inv_caps.c, are in kunit/freq_inv_caps_kunit.c).
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
	mkdir -p "$t"
	(cd "$src" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 cp --parents -t "$t")
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

A=amd_cppc_ratio.c I=intel_ratio.c C=freq_inv_caps.c R=freq_ratio.h
run_one "amd 6.1: forget the 166 rule (always 255)" $A '/case FREQ_RATIO_RULES_6_1:/,/case FREQ_RATIO_RULES_6_12:/ s/return AMD_CPPC_RATIO_HIGHEST_ZEN_RANKED;/return AMD_CPPC_RATIO_HIGHEST_OTHER;/'
run_one "amd: model range end exclusive (<= -> <)" $A 's/model <= m->last/model < m->last/'
run_one "amd: model range start exclusive (>= -> >)" $A 's/model >= m->first/model > m->first/'
run_one "amd 6.12: uniform highest_perf not the numerator (166)" $A 's/return raw->highest_perf;/return AMD_CPPC_RATIO_HIGHEST_ZEN_RANKED;/'
run_one "amd 6.12: 196 range ends at 7eh" $A 's/{ 0x19, 0x70, 0x7f, "Zen 4/{ 0x19, 0x70, 0x7e, "Zen 4/'
run_one "amd 6.12: 196 forgotten (always 166)" $A 's/return AMD_CPPC_RATIO_HIGHEST_ZEN4_PHOENIX;/return AMD_CPPC_RATIO_HIGHEST_ZEN_RANKED;/'
run_one "amd: uniform/ranked rule swapped" $A 's/if (raw->highest_perf_uniform) {/if (!raw->highest_perf_uniform) {/'
run_one "amd: kernel ratio without midpoint" $A 's/r.kernel_ratio = freq_ratio_amd_midpoint(r.kernel_boost_ratio);/r.kernel_ratio = r.kernel_boost_ratio;/'
run_one "amd: drop highest_perf zero check" $A '/if (!raw->highest_perf)$/,+2d'
run_one "amd: drop nominal_perf zero check" $A '/if (!raw->nominal_perf)$/,+2d'
run_one "amd: drop nominal_freq zero check" $A '/if (!raw->nominal_freq_mhz)$/,+2d'
run_one "amd: highest < nominal flipped to <=" $A 's/if (raw->highest_perf < raw->nominal_perf)/if (raw->highest_perf <= raw->nominal_perf)/'
run_one "amd: drop highest < nominal check" $A 's/if (raw->highest_perf < raw->nominal_perf)/if (0)/'
run_one "amd: accept numerator below nominal (ratio < 1024)" $A 's/if (r.kernel_highest_perf < raw->nominal_perf)/if (0)/'
run_one "amd: MHz->kHz overflow unchecked" $A 's/check_mul_overflow(raw->nominal_freq_mhz, 1000U, &r.max_p_khz)/(r.max_p_khz = raw->nominal_freq_mhz * 1000U, 0)/'
run_one "amd: max_boost from kernel numerator always" $A 's/r.max_boost_khz = r.cppc_max_boost_khz;/r.max_boost_khz = r.kernel_max_freq_khz;/'
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
# The caps resolver (shared with the module; kunit/freq_inv_caps_kunit.c)
run_one "caps: cpufreq fallback ignores the table's boost entries" $C 's/pol->max_boost_khz : pol->max_p_khz;/pol->max_p_khz : pol->max_p_khz;/'
run_one "caps: overrides on AMD get Intel's ratio rule" $C 's/return freq_ratio_amd_midpoint(boost_ratio);/return boost_ratio;/'
run_one "caps: overrides drop the hardware's ratio" $C 's/res->kernel_ratio = hw_err ? freq_inv_caps_override_ratio(in) :/res->kernel_ratio = 1 ? freq_inv_caps_override_ratio(in) :/'
run_one "caps: the boost switch's state inverted" $C 's/return !boost_enabled;/return boost_enabled;/'
run_one "caps: no bound on max_boost / max_P" $C 's/if (max_boost_khz \/ max_p_khz > FREQ_INV_MAX_BOOST_RATIO)/if (0)/'
run_one "caps: insane hardware answers believed" $C 's/hw->max_boost_khz <= FREQ_INV_MAX_KHZ \&\&/1 \&\&/'
# The ratio math
run_one "ratio: a frequency scaled rounds up" $R 's/u64 f = ((u64)khz \* ratio) >> FREQ_RATIO_SHIFT;/u64 f = ((u64)khz * ratio + FREQ_RATIO_SCALE - 1) >> FREQ_RATIO_SHIFT;/'
run_one "ratio: AMD midpoint rounds up" $R 's/return ((u64)boost_ratio + FREQ_RATIO_SCALE) >> 1;/return ((u64)boost_ratio + FREQ_RATIO_SCALE + 1) >> 1;/'
run_one "ratio: midpoint of two kHz loses the odd half" $R 's/ + (max_p_khz \& max_boost_khz \& 1);/;/'

exit $bad
