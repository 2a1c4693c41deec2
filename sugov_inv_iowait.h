/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sugov_inv: the iowait boost, schedutil's rules (sugov_iowait_boost()
 * and sugov_iowait_apply() in kernel/sched/cpufreq_schedutil.c) in our own
 * code.  A CPU woken from I/O wait gets a util floor that doubles with
 * each such wake-up and halves with each evaluation without one.
 *
 * Pure: static inlines of their arguments only, checked by KUnit
 * (kunit/sugov_inv_iowait_kunit.c) and called from the update_util hooks.
 */
#ifndef _SUGOV_INV_IOWAIT_H
#define _SUGOV_INV_IOWAIT_H

#include <linux/jiffies.h>
#include <linux/minmax.h>
#include <linux/types.h>

#include "sugov_inv.h"

/* schedutil's iowait boost starts at 1/8 of capacity */
#define SUGOV_INV_IOWAIT_BOOST_MIN	(SUGOV_INV_CAP / 8)
/* ... and is dropped after a tick without an update of that CPU */
#define SUGOV_INV_IOWAIT_RESET_NS	((u64)TICK_NSEC)

/**
 * struct sugov_inv_iowait - one CPU's iowait boost
 * @boost: current boost, capacity units (0 = none)
 * @pending: an I/O-wait wake-up arrived since the boost was last applied
 */
struct sugov_inv_iowait {
	u32 boost;
	bool pending;
};

/**
 * sugov_inv_iowait_note() - account one hook call for the iowait boost
 * @io: the CPU's boost state
 * @since_last_ns: time since this CPU's previous hook call
 * @iowait: the call carried SCHED_CPUFREQ_IOWAIT
 *
 * After more than a tick of silence the boost restarts (from the minimum if
 * this call is an I/O-wait wake-up, else from nothing).  Otherwise each
 * I/O-wait wake-up doubles the boost, once per application, up to full
 * capacity; the first one starts it at 1/8.
 */
static inline void sugov_inv_iowait_note(struct sugov_inv_iowait *io,
					 u64 since_last_ns, bool iowait)
{
	if (io->boost && since_last_ns > SUGOV_INV_IOWAIT_RESET_NS) {
		io->boost = iowait ? SUGOV_INV_IOWAIT_BOOST_MIN : 0;
		io->pending = iowait;
		return;
	}
	if (!iowait || io->pending)
		return;

	io->pending = true;
	if (io->boost)
		io->boost = min(io->boost << 1, SUGOV_INV_CAP);
	else
		io->boost = SUGOV_INV_IOWAIT_BOOST_MIN;
}

/**
 * sugov_inv_iowait_apply() - the boost to use in one evaluation
 * @io: the CPU's boost state
 * @since_last_ns: time since this CPU's last hook call
 *
 * Without an I/O-wait wake-up since the previous application the boost
 * halves, and below the minimum it stops.  A CPU silent for more than a
 * tick loses its boost.
 *
 * Return: the boost, capacity units (0 = none).
 */
static inline u32 sugov_inv_iowait_apply(struct sugov_inv_iowait *io,
					 u64 since_last_ns)
{
	if (!io->boost)
		return 0;
	if (since_last_ns > SUGOV_INV_IOWAIT_RESET_NS) {
		io->boost = 0;
		io->pending = false;
		return 0;
	}
	if (!io->pending) {
		io->boost >>= 1;
		if (io->boost < SUGOV_INV_IOWAIT_BOOST_MIN) {
			io->boost = 0;
			return 0;
		}
	}
	io->pending = false;
	return io->boost;
}

#endif /* _SUGOV_INV_IOWAIT_H */
