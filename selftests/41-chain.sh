#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The chain rule end to end (Documentation/design.rst, "Chains of CPUs"),
# on 4 or more vCPUs, with rt-app's token loads of tools/compare/rt-app:
#
#   1. a ring of three tasks on CPUs 0-2 (ring-1.json): no two CPUs
#      hand off to each other, so no pair links; each of the three CPUs
#      is in group 0x7 (sugov_inv/chain's last column);
#   2. and the rule raises those three CPUs' util (the debugfs summary's
#      "chained" column grows);
#   3. two ping-pongs at once, on CPUs 0-1 and 2-3 (pingpong.json and a
#      copy moved to CPUs 2 and 3): two groups, 0x3 and 0xc, not one;
#   4. two CPUs each half busy with a task of its own (stress-ng): the
#      rule raises next to nothing (chain-results.txt section 11): at
#      most 5 % of the evaluations.  Not none: a CPU whose few wake-ups
#      of other CPUs' tasks (stress-ng's, this shell's, kworkers') come
#      just before its idle entries is a member for a while, and its
#      group raises it (0 of about 1000 evaluations in four runs alone,
#      5 of about 1000 in another, 15 of 867 in a make check beside other
#      guests, where the pair rule alone raised none: section 11).
#
# rt-app's calibration is fixed (the work's length does not matter here)
# and the turns are many, so the loads run past every check; each is
# stopped after its checks.  Every wait polls sugov_inv/chain for at most
# CHAIN_WAIT_S seconds and shows the last snapshot when it gives up.
# Runtime about 30 s under TCG with 4 vCPUs.
. "$(dirname "$0")/ktap.sh"
. "$(dirname "$0")/sugov-lib.sh"

RTAPP_DIR=$SUGOV/tools/compare/rt-app
CHAIN_WAIT_S=${CHAIN_WAIT_S:-15}
NCASES=4

ktap_plan $NCASES
skip_all() {
	_i=0
	while [ $_i -lt $NCASES ]; do
		ktap_skip "chain rule case $((_i + 1))" "$1"
		_i=$((_i + 1))
	done
	ktap_finish
}
[ "$(nproc)" -ge 4 ] || skip_all "$(nproc) CPUs online, the cases need 4"
command -v rt-app > /dev/null || skip_all "no rt-app in the guest"
command -v stress-ng > /dev/null || skip_all "no stress-ng in the guest"
load_stack preset=epyc-7742 || skip_all "the module stack did not load"
[ -r $SGCHAIN ] || skip_all "no $SGCHAIN (debugfs not mounted?)"
window=$(cat $CPUFREQ/sugov_inv/chain_window_us)
[ "$window" -gt 0 ] || skip_all "chain_window_us is 0: the rule is off"
ktap_diag "chain_window_us $window"

# profile NAME [SED-EXPR]: rt-app's profile NAME with a fixed calibration,
# 20000 turns and the logs in /tmp, as /tmp/chain-NAME.json
profile() {
	sed -e 's/"calibration" : "CPU0"/"calibration" : 1000/' \
	    -e 's/"loop" : 200,$/"loop" : 20000,/' \
	    -e 's/"loop" : 250,$/"loop" : 20000,/' \
	    -e "${2:-s/^//}" "$RTAPP_DIR/$1.json" > "/tmp/chain-$1$3.json"
}

# groups: "cpu group" for every CPU (sugov_inv/chain's first and last
# columns)
groups() { awk '$1 ~ /^[0-9]+$/ { print $1, $NF }' $SGCHAIN; }

# wait_groups WANT: poll until every "cpu group" pair of WANT (words
# "cpu:group") is in sugov_inv/chain, CHAIN_WAIT_S at most; 1 and the
# last snapshot as diagnostics when it never is
wait_groups() {
	_t=0
	while [ $_t -lt $((CHAIN_WAIT_S * 5)) ]; do
		_g=$(groups)
		_miss=0
		for _w in $1; do
			echo "$_g" | grep -qx "${_w%%:*} ${_w#*:}" || _miss=1
		done
		[ $_miss = 0 ] && return 0
		sleep 0.2
		_t=$((_t + 1))
	done
	ktap_diag "waited ${CHAIN_WAIT_S} s for groups $1; sugov_inv/chain last read:"
	sed 's/^/# /' $SGCHAIN
	return 1
}

# chained: "cpu chained" for every CPU (the debugfs summary's last column)
chained() { awk '$1 ~ /^[0-9]+$/ { print $1, $NF }' $SGDBG; }
# evals: "cpu evals" for every CPU (its third column)
evals() { awk '$1 ~ /^[0-9]+$/ { print $1, $3 }' $SGDBG; }
# deltas BEFORE AFTER: "cpu AFTER-BEFORE" for every CPU ("cpu n" lines)
deltas() {
	printf '%s\n%s\n' "$1" "$2" | awk '
		{ if (($1) in b) print $1, $2 - b[$1]; else b[$1] = $2 }'
}
# total_delta BEFORE AFTER: the sum of deltas over the CPUs
total_delta() { deltas "$1" "$2" | awk '{ n += $2 } END { print n + 0 }'; }

# Catches: the group path dropped or its targets misread (another block's
# numbering, CPU ids off by the block's base), a membership test that
# refuses a ring's CPUs (a gap test, as for a pair's link).
profile ring-1
rt-app /tmp/chain-ring-1.json > /dev/null 2>&1 &
RING=$!
wait_groups "0:0x7 1:0x7 2:0x7"
ktap_result "a ring of three on CPUs 0-2: each of the three in group 0x7" $?

# Catches: the group found but not used (sugov_inv_chain_busy() returning
# 0 without a pair), or no fresh busy fraction for the group's CPUs.
before=$(chained)
sleep 2
after=$(chained)
raised=$(deltas "$before" "$after" | awk '$1 <= 2 && $2 > 0 { n++ } END { print n + 0 }')
ktap_diag "chained, before and 2 s later: $(echo $before) / $(echo $after)"
ktap_result "the ring: the rule raised each of CPUs 0-2 in 2 s ($raised of 3)" \
	$([ "$raised" = 3 ]; echo $?)
bg_stop $RING

# Catches: the group as every member (chain-results.txt section 15's
# first experiment), which asks each ping-pong's CPUs the other's load.
profile pingpong
profile pingpong 's/"cpus" : \[0\]/"cpus" : [2]/; s/"cpus" : \[1\]/"cpus" : [3]/; s/"log_basename" : "rtapp"/"log_basename" : "rtapp23"/' -23
rt-app /tmp/chain-pingpong.json > /dev/null 2>&1 &
PP1=$!
rt-app /tmp/chain-pingpong-23.json > /dev/null 2>&1 &
PP2=$!
wait_groups "0:0x3 1:0x3 2:0xc 3:0xc"
ktap_result "two ping-pongs on CPUs 0-1 and 2-3: two groups, 0x3 and 0xc" $?
bg_stop $PP1
bg_stop $PP2

# Catches: the rule raising CPUs that hand nothing off to each other
# (any CPU that ever handed off taken as a member).
sleep 1
before=$(chained) ebefore=$(evals)
stress-ng --cpu 1 --cpu-load 50 --taskset 0 -t 3 > /dev/null 2>&1 &
S0=$!
stress-ng --cpu 1 --cpu-load 50 --taskset 1 -t 3 > /dev/null 2>&1 &
S1=$!
sleep 2
ktap_diag "sugov_inv/chain 2 s into it:"
sed 's/^/# /' $SGCHAIN
wait $S0 $S1
after=$(chained) eafter=$(evals)
raised=$(total_delta "$before" "$after")
evaluated=$(total_delta "$ebefore" "$eafter")
ktap_diag "chained, before and after: $(echo $before) / $(echo $after); evaluations $evaluated"
ktap_result "two CPUs each 50 % busy with a task of its own: at most 5 % of evaluations raised ($raised of $evaluated)" \
	$([ "$evaluated" -gt 0 ] && [ $((raised * 20)) -le "$evaluated" ]; echo $?)

unload_all
ktap_finish
