# SPDX-License-Identifier: GPL-2.0-only
#
# Sourced by the guest scripts that load freq_invariance on vcpufreq's
# emulated machine (tools/compare/guest.sh, tools/compare/chain-guest.sh,
# tools/react/guest.sh).
#
# vcpufreq_one_thread: print the vcpufreq parameter for a guest whose
# vCPUs one host thread runs in turn (tools/vm/run puts
# sugov_vm_tcg=single in the command line), when it has more than one
# CPU: emulate_one_thread=1 (Documentation/bench.rst, "Several CPUs under
# instruction counting").  Before vcpufreq is loaded.
vcpufreq_one_thread() {
	grep -qw sugov_vm_tcg=single /proc/cmdline || return 0
	[ "$(cat /sys/devices/system/cpu/possible)" = 0 ] && return 0
	echo emulate_one_thread=1
}


# vcpufreq_caps: set max_p and boost, kHz, to what freq_invariance is to
# be told (its max_p_khz= and max_boost_khz=): the emulated machine's
# max_P and its boost, the one the emulation hides from cpufreq when it
# hides one (emulate_boost=1), else the one cpufreq lists.
vcpufreq_caps() {
	_cfg=/sys/kernel/debug/vcpufreq/config
	max_p=$(sed -n 's/^max_p_khz //p' $_cfg)
	boost=$(sed -n 's/^hidden_boost_khz //p' $_cfg)
	[ "${boost:-0}" = 0 ] && boost=$(sed -n 's/^max_boost_khz //p' $_cfg)
	return 0
}
