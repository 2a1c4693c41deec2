#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A periodic load for tools/compare's --cmd (run under the configuration
# it selected): one rt-app task (the rt-app package, ARM's LISA uses it
# for exactly this) that does DUTY_PCT % of a 16 ms period's worth of work
# at the top frequency each period, for PERIODS periods; the work is fixed
# (rt-app's "run", calibrated at the top), so a slow CPU takes longer and
# misses its period rather than doing less.  Prints "periodic missed M of
# N" (periods whose slack went negative) and "total_trans T" (cpufreq's
# transitions of policy0 during the run).
#
# Usage: sh tools/react/periodic.sh DUTY_PCT [PERIODS (250)] [NS_PER_LOOP]
#   NS_PER_LOOP  rt-app's calibration (default 1550: its loop at the top
#                frequency of vcpufreq's epyc-7742 preset under QEMU's
#                -icount shift=3, measured with rt-app's own log)
duty=$1 periods=${2:-250} cal=${3:-1550}
T=/sys/devices/system/cpu/cpufreq/policy0/stats/total_trans
dir=$(mktemp -d)
cat > "$dir/p.json" <<J
{ "tasks": { "t": { "loop": $periods, "run": $((160 * duty)),
                    "timer": { "ref": "tick", "period": 16000 } } },
  "global": { "duration": -1, "calibration": $cal,
              "default_policy": "SCHED_OTHER", "logdir": "$dir",
              "log_basename": "p" } }
J
a=$(cat $T)
rt-app "$dir/p.json" > "$dir/out" 2>&1
rc=$?
echo "total_trans $(($(cat $T) - a))"
awk -v n="$periods" 'NR > 1 && $1 !~ /^#/ { if ($8 < 0) m++ } END { printf "periodic missed %d of %d\n", m, n }' "$dir"/p-t-*.log
rm -rf "$dir"
exit $rc
