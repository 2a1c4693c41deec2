/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sugov_inv: the chain rule's arithmetic.  Two CPUs that wake each other
 * and then idle (a client and its server, a ping-pong) run one serial
 * load cut in two: each CPU is about half busy, so the formula asks each
 * for half of what the load needs (tbench with one client loses 30-56 %
 * to performance under schedutil-like governors: bsc#1190923, and the
 * tables of Linux commit 976df7e5730e).  A CPU in such a chain takes the
 * chain's combined busy fraction as its util.
 *
 * A hand-off: a CPU wakes a task whose CPU is another one and switches to
 * idle within one window after that.  Each CPU records its last hand-off,
 * a running average of the gap between hand-offs and the share of its
 * idle entries that were hand-offs; its link to the CPU it last handed
 * off to is live while both averages say "hands off all the time" and
 * dies two windows after the last hand-off.  Two CPUs whose live links
 * point at each other form a chain.  A CPU in no such pair that still
 * hands off at least every other idle entry is a group member; the
 * members joined to it by targets, either way, are its group, one load
 * that moves between more than two CPUs.
 *
 * Pure: static inlines of plain structs and times (no per-CPU data, no
 * clocks), so that KUnit checks them (kunit/sugov_inv_chain_kunit.c).
 * The tracepoint probes that feed them and the evaluation that uses them
 * are sugov_inv_chain.c.
 */
#ifndef _SUGOV_INV_CHAIN_H
#define _SUGOV_INV_CHAIN_H

#include <linux/bitops.h>
#include <linux/compiler.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/types.h>

#include "sugov_inv_est.h"

/* A link dies this many windows after its CPU's last hand-off */
#define SUGOV_INV_CHAIN_EXPIRY_WINDOWS	2
/*
 * A live link's average gap between hand-offs is at most this many
 * windows, the expiry's bound: one window is too tight for a ping-pong of
 * 2 ms turns at the lowest P-state, whose round trip is 9 ms and more
 * (Documentation/chain-results.txt, the 4-vCPU ping-pong).
 */
#define SUGOV_INV_CHAIN_GAP_MAX_WINDOWS	2
/*
 * A gap longer than this many windows counts as this many: a hand-off
 * after a pause then lifts the average gap to 4 windows or more at once
 * (3/4 * avg + 16/4 windows), so the link waits for fresh hand-offs, and
 * the average cannot overflow.
 */
#define SUGOV_INV_CHAIN_GAP_CAP_WINDOWS	16
/* The averages' weights: 1/4 per hand-off (gap), 1/8 per idle entry (share) */
#define SUGOV_INV_CHAIN_GAP_SHIFT	2
#define SUGOV_INV_CHAIN_SHARE_SHIFT	3
/* Shares are fractions of 1024; a link needs at least half */
#define SUGOV_INV_CHAIN_SHARE_ONE	1024U
#define SUGOV_INV_CHAIN_SHARE_MIN	(SUGOV_INV_CHAIN_SHARE_ONE / 2)
/* No CPU: no wake-up pending, no hand-off yet */
#define SUGOV_INV_CHAIN_NO_CPU		(-1)
/*
 * A CPU is a group member while its last hand-off is at most this many
 * windows old: tbench's clients and servers move between CPUs, so a
 * CPU's turns come less often than a pair's (the group's tables,
 * Documentation/chain-results.txt section 16).
 */
#define SUGOV_INV_CHAIN_GROUP_WINDOWS	4
/* A group is looked for among the evaluated CPU's block of 64 CPU ids */
#define SUGOV_INV_CHAIN_GROUP_CPUS	64

/**
 * struct sugov_inv_chain - one CPU's hand-off record
 * @waking_ns: when the CPU last woke a task of another CPU (its clock)
 * @waking_cpu: that task's CPU; SUGOV_INV_CHAIN_NO_CPU once an idle entry
 *	has judged it
 * @handoff_ns: when the CPU last handed off (its idle entry's time)
 * @gap_avg_ns: running average of the gaps between hand-offs, each gap
 *	capped at SUGOV_INV_CHAIN_GAP_CAP_WINDOWS; U64_MAX before the first
 * @share: running average of the idle entries that were hand-offs,
 *	units of 1/SUGOV_INV_CHAIN_SHARE_ONE
 * @target_cpu: the CPU of the last hand-off (SUGOV_INV_CHAIN_NO_CPU: none)
 *
 * Written only by the CPU itself, from its tracepoint probes (IRQs off).
 * Other CPUs read @handoff_ns, @gap_avg_ns, @share and @target_cpu
 * without a lock, so those are written with WRITE_ONCE(): each value is
 * whole, the set is not a consistent snapshot, and a decision taken on a
 * mix of this hand-off's and the previous one's is as good as either.
 */
struct sugov_inv_chain {
	u64 waking_ns;
	s32 waking_cpu;
	u64 handoff_ns;
	u64 gap_avg_ns;
	u32 share;
	s32 target_cpu;
};

/**
 * sugov_inv_chain_reset() - a CPU that has handed nothing off yet
 * @c: its record
 */
static inline void sugov_inv_chain_reset(struct sugov_inv_chain *c)
{
	c->waking_ns = 0;
	c->waking_cpu = SUGOV_INV_CHAIN_NO_CPU;
	WRITE_ONCE(c->handoff_ns, 0);
	WRITE_ONCE(c->gap_avg_ns, U64_MAX);
	WRITE_ONCE(c->share, 0);
	WRITE_ONCE(c->target_cpu, SUGOV_INV_CHAIN_NO_CPU);
}

/* @now_ns - @then_ns, 0 when @then_ns is ahead (another CPU's clock) */
static inline u64 sugov_inv_chain_since(u64 now_ns, u64 then_ns)
{
	return (s64)(now_ns - then_ns) > 0 ? now_ns - then_ns : 0;
}

/**
 * sugov_inv_chain_waking() - note a wake-up by the CPU
 * @c: the waking CPU's record
 * @now_ns: the waking CPU's clock
 * @waker_cpu: the waking CPU
 * @wakee_cpu: the CPU of the task woken, as the sched_waking tracepoint
 *	sees it (task_cpu(): the CPU it last ran on)
 *
 * Only a wake-up of another CPU's task can start a hand-off; one of the
 * CPU's own tasks leaves the record as it is.
 */
static inline void sugov_inv_chain_waking(struct sugov_inv_chain *c,
					  u64 now_ns, int waker_cpu,
					  int wakee_cpu)
{
	if (wakee_cpu == waker_cpu || wakee_cpu < 0)
		return;
	c->waking_ns = now_ns;
	c->waking_cpu = wakee_cpu;
}

/**
 * sugov_inv_chain_idle() - judge an idle entry of the CPU
 * @c: its record
 * @now_ns: the CPU's clock at the switch to its idle task
 * @window_ns: the rule's window (> 0)
 *
 * A hand-off when the CPU woke another CPU's task at most @window_ns ago
 * and has not idled since: the gap since the last hand-off (capped) goes
 * into the gap average, and the woken task's CPU becomes the target.
 * Every idle entry, hand-off or not, goes into the share.
 *
 * Return: true for a hand-off.
 */
static inline bool sugov_inv_chain_idle(struct sugov_inv_chain *c,
					u64 now_ns, u64 window_ns)
{
	u64 cap_ns = window_ns * SUGOV_INV_CHAIN_GAP_CAP_WINDOWS;
	u64 gap_ns, avg_ns;
	u32 share = c->share, to;
	bool handoff;

	handoff = c->waking_cpu != SUGOV_INV_CHAIN_NO_CPU &&
		  sugov_inv_chain_since(now_ns, c->waking_ns) <= window_ns;
	if (handoff) {
		gap_ns = cap_ns;
		if (c->target_cpu != SUGOV_INV_CHAIN_NO_CPU)
			gap_ns = min(sugov_inv_chain_since(now_ns, c->handoff_ns),
				     cap_ns);
		/* No history (U64_MAX), or one from a longer window: the cap */
		avg_ns = min(c->gap_avg_ns, cap_ns);
		if (gap_ns >= avg_ns)
			avg_ns += (gap_ns - avg_ns) >> SUGOV_INV_CHAIN_GAP_SHIFT;
		else
			avg_ns -= (avg_ns - gap_ns) >> SUGOV_INV_CHAIN_GAP_SHIFT;
		WRITE_ONCE(c->gap_avg_ns, avg_ns);
		WRITE_ONCE(c->handoff_ns, now_ns);
		WRITE_ONCE(c->target_cpu, c->waking_cpu);
	}

	to = handoff ? SUGOV_INV_CHAIN_SHARE_ONE : 0;
	if (to >= share)
		share += (to - share) >> SUGOV_INV_CHAIN_SHARE_SHIFT;
	else
		share -= (share - to) >> SUGOV_INV_CHAIN_SHARE_SHIFT;
	WRITE_ONCE(c->share, share);

	c->waking_cpu = SUGOV_INV_CHAIN_NO_CPU;
	return handoff;
}

/**
 * sugov_inv_chain_live() - is a CPU's link to its target live?
 * @c: the CPU's record (or a copy of it)
 * @now_ns: the evaluating CPU's clock
 * @window_ns: the rule's window (0: the rule is off)
 *
 * Live while the CPU hands off at least once every
 * SUGOV_INV_CHAIN_GAP_MAX_WINDOWS windows on average, at least every
 * other idle entry of its is a hand-off, and its last
 * hand-off is at most SUGOV_INV_CHAIN_EXPIRY_WINDOWS windows old.  A
 * CPU that wakes a kworker now and then fails the first two; one whose
 * hand-offs stopped, the third.
 *
 * Return: true when the link to @c->target_cpu is live.
 */
static inline bool sugov_inv_chain_live(const struct sugov_inv_chain *c,
					u64 now_ns, u64 window_ns)
{
	if (!window_ns || c->target_cpu == SUGOV_INV_CHAIN_NO_CPU)
		return false;
	if (sugov_inv_chain_since(now_ns, c->handoff_ns) >
	    SUGOV_INV_CHAIN_EXPIRY_WINDOWS * window_ns)
		return false;
	return c->gap_avg_ns <= SUGOV_INV_CHAIN_GAP_MAX_WINDOWS * window_ns &&
	       c->share >= SUGOV_INV_CHAIN_SHARE_MIN;
}

/**
 * sugov_inv_chain_linked() - do two CPUs form a chain?
 * @a: the first CPU's record (or a copy)
 * @a_cpu: the first CPU
 * @b: the record of @a's target (or a copy)
 * @b_cpu: @a's target
 * @now_ns: the evaluating CPU's clock
 * @window_ns: the rule's window (0: off)
 *
 * Both links live and pointing at each other: a CPU that wakes a task
 * of a CPU that never wakes anything of its own back (a kworker's, a
 * timer's) is not in a chain, however regularly it does so.
 *
 * Return: true when @a and @b form a chain.
 */
static inline bool sugov_inv_chain_linked(const struct sugov_inv_chain *a,
					  int a_cpu,
					  const struct sugov_inv_chain *b,
					  int b_cpu, u64 now_ns, u64 window_ns)
{
	return a_cpu != b_cpu && a->target_cpu == b_cpu &&
	       b->target_cpu == a_cpu &&
	       sugov_inv_chain_live(a, now_ns, window_ns) &&
	       sugov_inv_chain_live(b, now_ns, window_ns);
}

/**
 * sugov_inv_chain_util() - a chained CPU's util for the formula
 * @own: the CPU's own util (invariant or not: what the formula would use)
 * @own_busy: the CPU's own busy fraction, capacity units
 * @partner_busy: its partner's busy fraction over the same time
 *	(0 when unknown or stale: then @own, unchanged)
 *
 * The chain runs one serial load, so its demand is the sum of its CPUs'
 * busy fractions, capped at capacity: a chain whose CPUs between them
 * never idle asks for full util whatever the frequency, as a single CPU
 * that never idles does (sugov_inv_est_update()).  Only raises: never
 * below @own.
 *
 * Return: capacity units, 0..1024 (or @own, if above).
 */
static inline u32 sugov_inv_chain_util(u32 own, u32 own_busy,
				       u32 partner_busy)
{
	u32 sum;

	/* Without the partner's share the CPU's own busy is no chain's */
	if (!partner_busy)
		return own;
	sum = min_t(u64, (u64)own_busy + partner_busy, SUGOV_INV_CAP);
	return max(own, sum);
}

/**
 * sugov_inv_chain_fresh_busy() - a partner's busy fraction, if current
 * @busy: the partner's smoothed busy fraction, capacity units
 * @now_ns: the evaluating CPU's clock
 * @win_end_ns: the end of the partner's last window (its hook clock)
 * @period_ns: how often the partner measures a window at least, while it
 *	runs (the longer of the rule's window and the sampling period)
 *
 * A partner whose last window ended more than SUGOV_INV_STALE_NS past
 * @period_ns ago has not run its hook for a while: its estimate is from
 * before, and counts as 0, so that the rule never raises on old data.
 *
 * Return: @busy, or 0 when stale.
 */
static inline u32 sugov_inv_chain_fresh_busy(u32 busy, u64 now_ns,
					     u64 win_end_ns, u64 period_ns)
{
	if (sugov_inv_chain_since(now_ns, win_end_ns) >
	    period_ns + SUGOV_INV_STALE_NS)
		return 0;
	return busy;
}

/**
 * sugov_inv_chain_member() - does a CPU hand off enough to be in a group?
 * @c: the CPU's record (or a copy)
 * @now_ns: the evaluating CPU's clock
 * @window_ns: the rule's window (0: the rule is off)
 *
 * A member hands off at least every other idle entry and has done so
 * within SUGOV_INV_CHAIN_GROUP_WINDOWS windows.  No gap test: in a group
 * of more than two CPUs a CPU's turn comes less often, the more CPUs the
 * load moves between.  A CPU that wakes a kworker now and then fails the
 * share test, as it fails sugov_inv_chain_live()'s.
 *
 * Return: true for a member.
 */
static inline bool sugov_inv_chain_member(const struct sugov_inv_chain *c,
					  u64 now_ns, u64 window_ns)
{
	return window_ns && c->target_cpu != SUGOV_INV_CHAIN_NO_CPU &&
	       sugov_inv_chain_since(now_ns, c->handoff_ns) <=
			SUGOV_INV_CHAIN_GROUP_WINDOWS * window_ns &&
	       c->share >= SUGOV_INV_CHAIN_SHARE_MIN;
}

/* Union-find's root of @i, halving the path on the way (@parent: ids) */
static inline unsigned int sugov_inv_chain_root(u8 *parent, unsigned int i)
{
	while (parent[i] != i) {
		parent[i] = parent[parent[i]];
		i = parent[i];
	}
	return i;
}

/**
 * sugov_inv_chain_component() - the members joined to a CPU by targets
 * @members: bit i set when CPU i is a member (sugov_inv_chain_member()),
 *	CPUs numbered 0..SUGOV_INV_CHAIN_GROUP_CPUS-1 within their block
 * @target: @target[i], member i's target in the same numbering; one
 *	outside it (another block, SUGOV_INV_CHAIN_NO_CPU) joins nothing
 * @self: the CPU looked from, in the same numbering
 *
 * The group of the rule: the members reachable from @self by following
 * targets either way (A hands off to B, or B to A), through members only.
 * Two chains that never hand off to each other's CPUs are two groups,
 * each asked its own load; the CPUs of one load that moves between them
 * (tbench's clients and servers) end up joined.  Union-find, each member
 * hung under its target's root: a few steps per member whatever the
 * shape, where following targets pass by pass takes a pass per CPU of a
 * long path.
 *
 * Return: the component as a mask, @self included; 0 when @self is not a
 * member.
 */
static inline u64 sugov_inv_chain_component(u64 members, const s8 *target,
					    unsigned int self)
{
	u8 parent[SUGOV_INV_CHAIN_GROUP_CPUS];
	unsigned int i, root;
	u64 left, comp = 0;
	int t;

	if (self >= SUGOV_INV_CHAIN_GROUP_CPUS || !(members & BIT_ULL(self)))
		return 0;
	for (left = members; left; left &= left - 1) {
		i = __ffs64(left);
		parent[i] = i;
	}
	for (left = members; left; left &= left - 1) {
		i = __ffs64(left);
		t = target[i];
		if (t < 0 || t >= SUGOV_INV_CHAIN_GROUP_CPUS ||
		    !(members & BIT_ULL(t)))
			continue;
		/* @i is still a root: members get a parent in this order */
		parent[i] = sugov_inv_chain_root(parent, t);
	}
	root = sugov_inv_chain_root(parent, self);
	for (left = members; left; left &= left - 1) {
		i = __ffs64(left);
		if (sugov_inv_chain_root(parent, i) == root)
			comp |= BIT_ULL(i);
	}
	return comp;
}

#endif /* _SUGOV_INV_CHAIN_H */
