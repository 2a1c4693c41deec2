// SPDX-License-Identifier: GPL-2.0-only
/*
 * hookbench: test-only module for make bench.  Calls the update_util hook
 * installed on the local CPU (whichever governor installed it) in a loop,
 * with IRQs off (in chunks of 100 calls) and a fresh local_clock() as the
 * time argument, as the scheduler gives it, and reports the loop's
 * duration.  With no hook
 * installed (performance) the loop only reads the clock: the baseline the
 * bench subtracts.  No tracer is involved, so the figure is the hook and
 * its callees and nothing else; under QEMU's -icount it counts executed
 * instructions.
 *
 * Writing N to /sys/module/hookbench/parameters/run runs N calls;
 * result_ns then holds the guest ns of its chunks and calls the hook calls made
 * (0 without a hook).
 *
 * cpufreq_update_util_data is not exported: its address comes from
 * kallsyms_lookup_name(), itself not exported since 5.7, whose address a
 * kprobe yields.  Fine for a module that is never installed.
 */
#include <linux/cpufreq.h>
#include <linux/kprobes.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/cpufreq.h>

#define HOOKBENCH_MAX_CALLS	10000000
#define HOOKBENCH_CHUNK		100

static struct update_util_data __rcu * __percpu *hookbench_data;
static u64 result_ns;
static unsigned int calls;
module_param(result_ns, ullong, 0444);
MODULE_PARM_DESC(result_ns, "guest ns of the last run's loop");
module_param(calls, uint, 0444);
MODULE_PARM_DESC(calls, "hook calls of the last run (0: no hook installed)");

static int hookbench_run(const char *val, const struct kernel_param *kp)
{
	struct update_util_data *data;
	unsigned int n, i;
	unsigned long flags;
	u64 t0, t1, total;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	if (!n || n > HOOKBENCH_MAX_CALLS)
		return -ERANGE;

	/*
	 * IRQs off (the scheduler's context, and RCU-sched protection) for
	 * HOOKBENCH_CHUNK calls at a time, on again in between: a loop that
	 * kept them off for its whole length (tens of ms) would leave the
	 * other CPUs spinning on IPIs to this one, and a shared policy's
	 * evaluation would then see busy siblings instead of idle ones.
	 * Only the chunks are timed.
	 */
	total = 0;
	data = NULL;
	for (i = 0; i < n; i += HOOKBENCH_CHUNK) {
		unsigned int j, end = min(n, i + HOOKBENCH_CHUNK);

		local_irq_save(flags);
		data = rcu_dereference_sched(*this_cpu_ptr(hookbench_data));
		t0 = local_clock();
		for (j = i; j < end; j++) {
			u64 now = local_clock();

			if (data)
				data->func(data, now, 0);
		}
		t1 = local_clock();
		local_irq_restore(flags);
		total += t1 - t0;
		cond_resched();
	}

	WRITE_ONCE(result_ns, total);
	WRITE_ONCE(calls, data ? n : 0);
	return 0;
}

static const struct kernel_param_ops hookbench_run_ops = {
	.set = hookbench_run,
};
module_param_cb(run, &hookbench_run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "write N: call the local CPU's hook N times");

static unsigned long hookbench_lookup(const char *name)
{
	unsigned long (*lookup)(const char *name);
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };

	if (register_kprobe(&kp) < 0)
		return 0;
	lookup = (unsigned long (*)(const char *))kp.addr;
	unregister_kprobe(&kp);
	return lookup ? lookup(name) : 0;
}

static int __init hookbench_init(void)
{
	unsigned long addr = hookbench_lookup("cpufreq_update_util_data");

	if (!addr) {
		pr_err("hookbench: cpufreq_update_util_data not found\n");
		return -ENOENT;
	}
	/* A per-CPU symbol's kallsyms value is its per-CPU offset */
	hookbench_data = (void __percpu *)addr;
	return 0;
}
module_init(hookbench_init);

MODULE_DESCRIPTION("update_util hook cost loop for make bench (test only)");
MODULE_LICENSE("GPL");
