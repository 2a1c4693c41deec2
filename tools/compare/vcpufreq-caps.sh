# SPDX-License-Identifier: GPL-2.0-only
#
# Sourced by the guest scripts that load freq_invariance on vcpufreq's
# emulated machine (tools/compare/guest.sh, tools/compare/chain-guest.sh,
# tools/react/guest.sh), once vcpufreq is loaded.
#
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
