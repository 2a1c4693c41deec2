// SPDX-License-Identifier: GPL-2.0-only
/*
 * probebench: test-only module for tools/bench/probe-cost.sh.  Calls the
 * probes registered on the scheduler's sched_waking or sched_switch
 * tracepoint in a loop, through the tracepoint's own iterator (what the
 * scheduler's trace_sched_waking() calls once the tracepoint's static
 * key is on), with IRQs off in chunks of 100 calls, and reports the
 * chunks' duration.  Under QEMU's -icount it counts executed
 * instructions.  With no probe registered the iterator walks an empty
 * list: the baseline.  What the loop leaves out is the static key's
 * jump in the scheduler and the call into the iterator that a kernel
 * without probes does not make.
 *
 * The arguments are the ones the chain rule's probes act on
 * (sugov_inv_chain.c): sched_waking of a kthread bound to another CPU
 * (a wake-up of another CPU's task: its hand-off record is written),
 * sched_switch to this CPU's idle task (the hand-off judged) or to that
 * kthread (the probe's early return).
 *
 * Writing N to /sys/module/probebench/parameters/run runs N calls of the
 * case in "event" (waking, switch_idle, switch_task); result_ns then
 * holds the guest ns of the chunks.  Needs two CPUs.
 */
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/task.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/tracepoint.h>

#define PROBEBENCH_MAX_CALLS	10000000
#define PROBEBENCH_CHUNK	100

enum probebench_event { PB_WAKING, PB_SWITCH_IDLE, PB_SWITCH_TASK };
static const char * const probebench_events[] = {
	[PB_WAKING] = "waking",
	[PB_SWITCH_IDLE] = "switch_idle",
	[PB_SWITCH_TASK] = "switch_task",
};

static struct tracepoint *probebench_tp_waking, *probebench_tp_switch;
static struct task_struct *probebench_task;
static enum probebench_event probebench_event;
static u64 result_ns;
module_param(result_ns, ullong, 0444);
MODULE_PARM_DESC(result_ns, "guest ns of the last run's loop");

typedef void (*probebench_waking_fn)(void *data, struct task_struct *p);
typedef void (*probebench_switch_fn)(void *data, bool preempt,
				     struct task_struct *prev,
				     struct task_struct *next,
				     unsigned int prev_state);

static void probebench_call(struct task_struct *idle)
{
	switch (probebench_event) {
	case PB_WAKING:
		((probebench_waking_fn)probebench_tp_waking->iterator)(NULL, probebench_task);
		break;
	case PB_SWITCH_IDLE:
		((probebench_switch_fn)probebench_tp_switch->iterator)(NULL, false, current,
								       idle, TASK_RUNNING);
		break;
	case PB_SWITCH_TASK:
		((probebench_switch_fn)probebench_tp_switch->iterator)(NULL, false, current,
								       probebench_task,
								       TASK_RUNNING);
		break;
	}
}

static int probebench_run(const char *val, const struct kernel_param *kp)
{
	unsigned int n, i;
	unsigned long flags;
	u64 t0, t1, total = 0;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	if (!n || n > PROBEBENCH_MAX_CALLS)
		return -ERANGE;

	for (i = 0; i < n; i += PROBEBENCH_CHUNK) {
		unsigned int j, end = min(n, i + PROBEBENCH_CHUNK);

		/* The scheduler's context: IRQs off, so RCU-sched holds */
		local_irq_save(flags);
		t0 = local_clock();
		for (j = i; j < end; j++)
			probebench_call(&init_task);
		t1 = local_clock();
		local_irq_restore(flags);
		total += t1 - t0;
		cond_resched();
	}
	WRITE_ONCE(result_ns, total);
	return 0;
}

static const struct kernel_param_ops probebench_run_ops = {
	.set = probebench_run,
};
module_param_cb(run, &probebench_run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "write N: call the event's probes N times on CPU 0");

static int probebench_event_set(const char *val, const struct kernel_param *kp)
{
	int i = sysfs_match_string(probebench_events, val);

	if (i < 0)
		return i;
	probebench_event = i;
	return 0;
}

static int probebench_event_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", probebench_events[probebench_event]);
}

static const struct kernel_param_ops probebench_event_ops = {
	.set = probebench_event_set,
	.get = probebench_event_get,
};
module_param_cb(event, &probebench_event_ops, NULL, 0644);
MODULE_PARM_DESC(event, "waking, switch_idle or switch_task");

static void probebench_find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_waking"))
		probebench_tp_waking = tp;
	else if (!strcmp(tp->name, "sched_switch"))
		probebench_tp_switch = tp;
}

static int probebench_sleep(void *unused)
{
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

static int __init probebench_init(void)
{
	/* The loop runs on CPU 0 (the guest script pins itself there) */
	if (num_online_cpus() < 2 || !cpu_online(1))
		return -ENODEV;
	for_each_kernel_tracepoint(probebench_find_tp, NULL);
	if (!probebench_tp_waking || !probebench_tp_switch)
		return -ENOENT;
	/*
	 * Bound to CPU 1 and woken once, so that task_cpu() is 1: binding
	 * alone leaves a new task on the CPU it was forked on (its first
	 * wake-up places it), which made the waking case measure the
	 * probe's early return in one boot of two.  It then sleeps until
	 * module exit.
	 */
	probebench_task = kthread_create_on_cpu(probebench_sleep, NULL, 1, "probebench/%u");
	if (IS_ERR(probebench_task))
		return PTR_ERR(probebench_task);
	get_task_struct(probebench_task);
	wake_up_process(probebench_task);
	if (task_cpu(probebench_task) != 1) {
		kthread_stop(probebench_task);
		put_task_struct(probebench_task);
		return -EAGAIN;
	}
	return 0;
}
module_init(probebench_init);

static void __exit probebench_exit(void)
{
	kthread_stop(probebench_task);
	put_task_struct(probebench_task);
}
module_exit(probebench_exit);

MODULE_DESCRIPTION("tracepoint probe cost loop for tools/bench/probe-cost.sh (test only)");
MODULE_LICENSE("GPL");
