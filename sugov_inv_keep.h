/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sugov_inv: which CPUs keep their estimate across a restart of the
 * governor (sugov_inv_start()): a stop stamps its policy data and every
 * CPU of the policy, and a start keeps the state of the CPUs whose stamp
 * is the policy data's last one.
 *
 * The stamp is a generation counted over the stops of every policy data,
 * not the policy data's address with a count of its own: a governor
 * switch frees the policy data and allocates a new one, which
 * kzalloc() may place at the same address, and whose own count starts
 * again at 0.  A CPU offline across such a switch would then match the
 * new policy data's first stop at its online and keep a window measured
 * across its offline time.
 *
 * Pure: static inlines of their arguments only, checked by KUnit
 * (kunit/sugov_inv_keep_kunit.c) and called from the governor's start
 * and stop.
 */
#ifndef _SUGOV_INV_KEEP_H
#define _SUGOV_INV_KEEP_H

#include <linux/atomic.h>
#include <linux/types.h>

/**
 * struct sugov_inv_keep - the stamp of a stop
 * @gen: the stop's generation, unique among all stops of all policy data
 *	of the module (0: no stop)
 */
struct sugov_inv_keep {
	u64 gen;
};

/**
 * sugov_inv_keep_stop() - stamp a policy data at its stop
 * @policy: the policy data's stamp
 * @gens: the stops counted so far, over every policy data (the module's
 *	one counter; atomic: the policies of different CPUs stop under
 *	their own rwsems, in parallel)
 *
 * Context: process context, the policy's rwsem held.
 */
static inline void sugov_inv_keep_stop(struct sugov_inv_keep *policy,
				       atomic64_t *gens)
{
	policy->gen = atomic64_inc_return(gens);
}

/**
 * sugov_inv_keep_mark() - stamp a CPU of a stopping policy
 * @cpu: the CPU's stamp
 * @policy: the policy data's stamp, sugov_inv_keep_stop() done
 *
 * Context: as sugov_inv_keep_stop().
 */
static inline void sugov_inv_keep_mark(struct sugov_inv_keep *cpu,
				       const struct sugov_inv_keep *policy)
{
	cpu->gen = policy->gen;
}

/**
 * sugov_inv_keep_match() - was a CPU in the policy at its last stop?
 * @cpu: the CPU's stamp
 * @policy: the policy data's stamp
 *
 * Context: as sugov_inv_keep_stop().
 * Return: true when the CPU was marked at the policy data's last stop,
 * false before any stop.
 */
static inline bool sugov_inv_keep_match(const struct sugov_inv_keep *cpu,
					const struct sugov_inv_keep *policy)
{
	return policy->gen && cpu->gen == policy->gen;
}

#endif /* _SUGOV_INV_KEEP_H */
