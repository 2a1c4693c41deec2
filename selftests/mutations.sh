#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Mutation check of the selftests: for each mutation below, copy the
# working tree into a scratch directory, break one module source with one
# sed expression, and run the one selftest that should catch it in QEMU on
# Debian's 6.1 kernel (modules built from the scratch copy).  A mutation
# is caught when that selftest reports a failure; the failing lines are
# printed.  The working tree is never touched.  Exit 1 if a mutation
# survives, fails to apply or does not build.
#
# Usage: selftests/mutations.sh [NAME-SUBSTRING]
#   (about 2 to 4 minutes per mutation under TCG)
set -uo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$src/build}
scratch=$(mktemp -d) || exit 1
trap 'rm -rf "$scratch"' EXIT
only=${1:-}
bad=0
# The guests as make check runs them: every vCPU on one host thread
# (tools/check.sh says why), the smp guests excepted.
export VM_TCG_THREAD=${VM_TCG_THREAD:-single}

"$src/tools/deps.sh" --quiet || exit 1

# run_one NAME FILE SED-EXPR SUITE [debug|icount|onethread|smp|stock [ENV...]]:
# break FILE, run selftests/SUITE.sh on Debian's kernel, or with "debug"
# on the project's debug test kernel (lockdep, KASAN; built by make
# kunit), 2 vCPUs, or with "icount" in an instruction-counted 1-vCPU
# guest with EMU_TIMING=1 (15-emulation's timing checks), or with
# "onethread" in a 2-vCPU one on one instruction clock with
# EMU_ONE_THREAD=1 (17-emulation-one-thread), or with "smp"
# in a 2-vCPU guest without instruction counting with EMU_SMP=1
# (16-emulation-smp); ENV (NAME=VALUE words) is the suite's environment.
run_one() {
	local name=$1 file=$2 expr=$3 suite=$4 kernel=${5:-}
	local t=$scratch/tree log nf kdir
	local -a vmargs=() envargs=()
	[ $# -gt 5 ] && envargs=(env "${@:6}")

	[ -z "$only" ] || [[ $name == *"$only"* ]] || return 0
	rm -rf "$t"
	mkdir -p "$t"
	(cd "$src" && git ls-files -z | xargs -0 cp --parents -t "$t")
	# The guest kernel and its base initramfs are shared, read only.
	mkdir -p "$t/build/vm"
	ln -s "$build/debian" "$t/build/debian"
	cp "$build"/vm/base-*.cpio.gz "$t/build/vm/" 2>/dev/null
	cp "$t/$file" "$t/$file.orig"
	sed -i "$expr" "$t/$file"
	if cmp -s "$t/$file" "$t/$file.orig"; then
		echo "NOT APPLIED: $name"; bad=1; return
	fi
	rm "$t/$file.orig"
	if [ "$kernel" = debug ]; then
		kdir=$("$src/tools/kunit/build-kernel.sh" -q | tail -n 1) || {
			echo "NO DEBUG KERNEL: $name"; bad=1; return; }
		# make check's debug guests' memory (tools/check.sh)
		vmargs=(--smp 2 --mem "${DEBUG_MEM_MB:-768}" --kernel "$kdir/arch/x86/boot/bzImage" --kdir "$kdir")
	elif [ "$kernel" = icount ]; then
		# -cpu max, as make check's emulation parts: no constant_tsc,
		# so x86's TSC notifier is registered and the TSC check runs.
		vmargs=(--smp 1 --icount --cpu max)
		envargs=(env EMU_TIMING=1)
	elif [ "$kernel" = onethread ]; then
		# make check's emulation part: 2 vCPUs, one instruction clock
		vmargs=(--smp 2 --icount=smp --cpu max)
		envargs=(env EMU_ONE_THREAD=1)
	elif [ "$kernel" = smp ]; then
		# -cpu max, as make check's emulation-smp part: HPET, not the
		# Intel model's TSC, for the stall loop's clock.
		vmargs=(--smp 2 --cpu max --tcg-multi)
		envargs=(env EMU_SMP=1)
	fi
	local vmtimeout=900
	[ "$suite" = 85-fail-nth ] && vmtimeout=3600 &&
		vmargs+=(--append "log_buf_len=4M slub_debug=A;-,kmemleak_object,kmemleak_scan_area")
	BUILD_DIR=$t/build "$t/tools/vm/run" --name mutant --timeout "$vmtimeout" \
		--cpu qemu64,vendor=GenuineIntel,family=6,model=63 "${vmargs[@]}" \
		-- "${envargs[@]}" sh selftests/run.sh "$suite.sh" >/dev/null 2>"$scratch/vm.err"
	log=$t/build/vm/mutant.log
	# A guest that crashed mid-suite (a timer left behind at unload) is
	# caught: the suite never finishes.  A panic before the suite began
	# (a loaded TCG host can fail the boot's IO-APIC timer check) is no
	# result.
	if grep -q 'Kernel panic\|BUG: \|Oops' "$log" 2>/dev/null &&
	   grep -q 'KTAP version' "$log"; then
		echo "caught by $suite (kernel crash): $name"
		grep -m 3 'Kernel panic\|BUG: \|Oops\|RIP:' "$log" | sed 's/^/#   /'
		return
	fi
	if ! grep -q '^ok \|^not ok ' "$log" 2>/dev/null; then
		if grep -q 'error' "$scratch/vm.err"; then
			echo "BUILD FAILED: $name"
			grep -m 5 'error' "$scratch/vm.err" | sed 's/^/#   /'
		else
			echo "NO RESULT: $name"
			tail -n 5 "$log" 2>/dev/null | sed 's/^/#   /'
		fi
		bad=1; return
	fi
	nf=$(grep -c '^ *not ok' "$log")
	if [ "$nf" -gt 0 ]; then
		echo "caught by $suite ($nf not ok): $name"
		grep '^ *not ok' "$log" | grep -v "^not ok [0-9]* $suite" |
			head -n 8 | sed 's/^ */#   /'
	else
		echo "SURVIVED $suite: $name"; bad=1
	fi
}

S=sugov_inv_sysfs.c G=sugov_inv_gov.c D=sugov_inv_debugfs.c F=freq_inv_core.c
P=sugov_inv_pm.c
FC=freq_inv_caps.c FS=freq_inv_sysfs.c
# A tunable parser that accepts bad input, and a hotplug step left out.
run_one "tunables: out-of-range numbers clamped instead of -ERANGE" $S \
	's/^\t\treturn -ERANGE;$/\t\tv = clamp(v, min, max);/' 60-tunables
run_one "tunables: simple_strtoul, trailing garbage and overflow accepted" $S \
	's/^\tif (sugov_inv_embedded_nul(buf, count) || kstrtouint(buf, 10, &v))$/\tv = simple_strtoul(buf, NULL, 10);\n\tif (0)/' 60-tunables
run_one "tunables: a NUL byte ends the number (\"150\\0junk\" taken as 150)" $S \
	's/if (sugov_inv_embedded_nul(buf, count) || kstrtouint(buf, 10, &v))/if (kstrtouint(buf, 10, \&v))/' 60-tunables
run_one "parameters: no bound on max_boost_khz/max_p_khz (kernel ratio saturates)" $FC \
	's/^\tif (max_boost_khz \/ max_p_khz > FREQ_INV_MAX_BOOST_RATIO)$/\tif (0)/' 60-tunables
run_one "hotplug: freq_invariance's CPU online callback does nothing" $F \
	'/^static int freq_inv_cpu_online(/,/^}/ s/^\tmutex_lock(&freq_inv_lock);$/\treturn 0;\n&/' 70-hotplug
run_one "hotplug: freq_invariance keeps an offline CPU's report" $F \
	'/^static int freq_inv_cpu_offline(/,/^}/ s/^\tfc->kobj = NULL;$/\tkobj = NULL;/' 70-hotplug
# Life cycle: freq_invariance's cpuN reports are never released, and the
# governor's exit leaks its per-policy data.
run_one "lifecycle: freq_invariance's cpuN kobjects never put" $FS \
	'/^void freq_inv_kobj_remove(/,/^}/ s/^\tkobject_put(kobj);$/\t(void)kobj;/' 20-freq-invariance
run_one "lifecycle: sugov_inv_exit() does not free the policy data" $G \
	'/^static void sugov_inv_exit(/,/^}/ s/^\tkfree(sgp);$/\t(void)sgp;/' 50-lifecycle debug \
	SELFTEST_TIMEOUT=900
run_one "lifecycle: the tunables' kobject release frees nothing (1 object a cycle)" $S \
	'/^static void sugov_inv_tunables_free(/,/^}/ s/^\tkfree(to_sugov_inv_tunables(to_gov_attr_set(kobj)));$/\t(void)kobj;/' 50-lifecycle debug \
	SELFTEST_TIMEOUT=900
run_one "tunables: the last user's files removed after gov_attr_set_put() destroyed the mutex (6.1 core order)" $S \
	'/^void sugov_inv_tunables_detach(/,/^}/ s/^\tif (tunables->attr_set.usage_count == 1)$/\tif (0)/' 50-lifecycle debug \
	SELFTEST_TIMEOUT=900 IDLE_SETTLE_MS=5000
run_one "lifecycle: sugov_inv's debugfs directory left behind at rmmod" $D \
	'/^void sugov_inv_debugfs_exit(/,/^}/ s/^\tdebugfs_remove_recursive(sugov_inv_debugfs);$/\t(void)sugov_inv_debugfs;/' 50-lifecycle

# The chain rule's probes (50-lifecycle): kept registered after the last
# policy stops, or while the rule is off (chain_window_us=0).
CH=sugov_inv_chain.c
run_one "chain: the last stop leaves the probes registered" $CH \
	'/^void sugov_inv_chain_put(/,/^}/ s/^\t\tsugov_inv_chain_queue();$/\t\t;/' 50-lifecycle
run_one "chain: the probes stay registered with the rule off" $CH \
	's/^\t       READ_ONCE(sugov_inv_chain_window_ns);$/\t       1;/' 50-lifecycle

# The slow path (45-resync): next_freq set back to policy->cur after a
# request that succeeded on a driver that rounds (no table), which sends
# it again at every evaluation.
# The chain rule's group (41-chain): every member taken as one group,
# the group never used, any CPU that ever handed off taken as a member
# (a membership without the share test alone raised 11 evaluations of
# 952 in one run: not caught by 41-chain's 5 % limit).
CHH=sugov_inv_chain.h
run_one "chain group: every member is one group (two ping-pongs joined)" $CHH \
	'/^static inline u64 sugov_inv_chain_component(/,/^}/ s/^\treturn comp;$/\treturn members;/' 41-chain
run_one "chain group: found but never used (a ring not raised)" $CH \
	's/^\t\treturn sugov_inv_chain_group_busy(sgc->cpu, &a, time, window_ns,$/\t\treturn 0 \&\& sugov_inv_chain_group_busy(sgc->cpu, \&a, time, window_ns,/' 41-chain
run_one "chain group: any CPU that ever handed off is a member" $CH \
	's/^\tif (!sugov_inv_chain_member(a, time, window_ns))$/\tif (a->target_cpu < 0)/; s/^\t\tif (!sugov_inv_chain_member(\&b, time, window_ns))$/\t\tif (b.target_cpu < 0)/' 41-chain
SL=sugov_inv_slow.c
run_one "slow path: resync after any difference from policy->cur (a rounding ->target driver re-sent every rate limit)" $SL \
	's/^\telsewhere = cur != freq \&\& (ret || sgp->policy->freq_table);$/\telsewhere = cur != freq;/' 45-resync

# Shared policies (40-sugov-inv): overutil-detect's busy fraction taken
# from the evaluating CPU alone, not over the policy's CPUs.
MH=sugov_inv_measure.h
run_one "shared: overutil-detect fed by the evaluating CPU alone (rule and formula alternate)" $MH \
	's/^\t\tin->util_raw = max(in->util_raw, sugov_inv_est_busy(use));$/\t\tif (j_sgc == sgc)\n\t\t\tin->util_raw = sugov_inv_est_busy(use);/' 40-sugov-inv

# freq_max (40-sugov-inv): max_P asks with max_boost's freq_max, sugov-P0
# and sugov-maxboost of commit 976df7e5730e's tables one rule (the
# partial-load check "max_P settles lower than max_boost" among others).
RU=sugov_inv_rules.h
run_one "freq_max: max_P asks with max_boost's freq_max" $RU \
	'/^static inline u32 sugov_inv_fmax_khz(/,/^}/ s/^\t\treturn in->max_p_khz;$/\t\treturn in->max_boost_khz;/' 40-sugov-inv

# Failure paths (85-fail-nth, the governor-switch group, debug kernel,
# the subset of points make check fails): a planted missing unwind, the
# policy data not freed when the worker or the tunables cannot be had;
# kmemleak finds it after the sweep.
run_one "fail-nth: sugov_inv_init() does not free its policy data on a failure" $G \
	'/^free_sgp:$/,/^disable_fast_switch:$/ s/^\tkfree(sgp);$/\t(void)sgp;/' 85-fail-nth debug \
	FAILNTH_OPS=gov SELFTEST_TIMEOUT=3000
# The chain rule's probes (85-fail-nth, its chain sweeps in the gov
# group): a registration that fails at the sched_switch probe and keeps
# the sched_waking one, so that the next toggle's registration finds it
# there (-EEXIST) and the rule stays off.
run_one "fail-nth: a failed registration of the chain rule's switch probe keeps the waking probe" $CH \
	'/^static int sugov_inv_chain_register(/,/^}/ s/^\t\ttracepoint_probe_unregister(sugov_inv_tp_waking,$/\t\tif (0)\n&/' 85-fail-nth debug \
	FAILNTH_OPS=gov 'FAILNTH_ONLY=*chain*' SELFTEST_TIMEOUT=3000
# System sleep (77-suspend): the notifier never marks the sleep, so the
# hooks decide on the frozen CPUs' idle time around it.
run_one "suspend: the system sleep never marked (estimates from the frozen stretch)" $P \
	's/^\t\tWRITE_ONCE(sugov_inv_pm_sleep, true);$/\t\tbreak;/' 77-suspend stock \
	SUSPEND_CYCLES=5
# Privileges (55-unprivileged): the hardware-reading debugfs file back
# to world-readable.
run_one "privileges: freq_invariance's delivered debugfs file readable by all" $FS \
	's/debugfs_create_file("delivered", 0400,/debugfs_create_file("delivered", 0444,/' 55-unprivileged

# The emulated machine (vcpufreq emulate=1), 15-emulation.
V=selftests/vcpufreq_emu.c E=selftests/vcpufreq_energy.h DRV=selftests/vcpufreq_driver.c
P=selftests/vcpufreq_powercap.c
run_one "emu: the stall timer never spins (no slow-down)" $V \
	's/^\tif (spin) {$/\tif (0) {/' 15-emulation icount
run_one "emu: each ns of work owes f_top/f of stall instead of f_top/f - 1" $E \
	's/useful_ns, top_khz - eff_khz, eff_khz/useful_ns, top_khz, eff_khz/' 15-emulation icount
run_one "emu: the stall timer keeps running on idle CPUs" $V \
	's/if (!ec->online || is_idle_task(current)) {/if (!ec->online) {/; s/if (ec->armed \&\& hrtimer_try_to_cancel(\&ec->timer) >= 0)/if (0)/' 15-emulation icount
run_one "emu: stall time integrated at idle power" $V \
	's/^\t\tec->energy_nj += vcpufreq_em_nj(delta, ec->busy_uw);$/\t\tec->energy_nj += vcpufreq_em_nj(delta, ec->stalling ? vcpufreq_em->idle_uw : ec->busy_uw);/' 15-emulation icount
run_one "emu: model power linear in V, not V^2" $E \
	's/(u64)mv \* mv \* in->khz/(u64)mv * 1000 * in->khz/' 15-emulation icount
run_one "emu: energy_uj never wraps at max_energy_range_uj" $P \
	's/^\t\*energy_uj = rem;$/\t*energy_uj = div_u64(pkg.total_nj, 1000);/' 15-emulation icount
run_one "emu: max_P never runs at the hidden boost" $V \
	's/^\t\treturn VCPUFREQ_EMU_BOOST_SLOT;$/\t\treturn idx;/' 15-emulation icount
run_one "emu: frequency changes reach x86's TSC notifier (sched_clock rescaled)" $V \
	's/^\tret = vcpufreq_emu_tsc_hide();$/\tret = 0;/' 15-emulation icount
run_one "emu: emulate_period_us not range-checked" $V \
	's/^\tif (vcpufreq_emulate_period_us < 100 ||$/\tif (0 \&\&/' 15-emulation icount
run_one "emu: a policy's frequency change sets every CPU's emulated speed" $DRV \
	's/^\t\t\tvcpufreq_emu_set(cpu, idx, cpufreq_boost_enabled());$/\t\t\t{ unsigned int c; for_each_online_cpu(c) vcpufreq_emu_set(c, idx, cpufreq_boost_enabled()); }/' 16-emulation-smp smp
run_one "emu (one host thread): another CPU's stall counted as this CPU's work" $V \
	's/^\t\t\tec->work.useful_ns += delta - lost;$/\t\t\tec->work.useful_ns += delta;/' 17-emulation-one-thread onethread
run_one "emu: an offline CPU keeps using energy" $V \
	's/^\tif (!ec->online)$/\tif (0)/' 15-emulation
run_one "emu: the offline callback leaves the CPU's timer running (unload)" $V \
	'/^static int vcpufreq_emu_offline(/,/^}/ s/^\tstruct vcpufreq_emu_cpu \*ec = per_cpu_ptr(&vcpufreq_emu, cpu);$/\tstruct vcpufreq_emu_cpu *ec = per_cpu_ptr(\&vcpufreq_emu, cpu);\n\n\treturn 0;/' 15-emulation

exit $bad
