/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tracepoint of the sugov_inv governor.
 *
 * One event per frequency decision, recordable with trace-cmd and perf:
 *   trace-cmd record -e sugov_inv:sugov_inv_decision
 *   perf record -e sugov_inv:sugov_inv_decision -a
 * Enums are exported with TRACE_DEFINE_ENUM so user-space tools can print
 * the freq_max choice and reason names from the raw values.
 */
#if !defined(_SUGOV_INV_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _SUGOV_INV_TRACE_H

#include <linux/tracepoint.h>

#include "sugov_inv.h"

#undef TRACE_SYSTEM
#define TRACE_SYSTEM sugov_inv

#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE sugov_inv_trace

TRACE_DEFINE_ENUM(SUGOV_INV_MAX_P);
TRACE_DEFINE_ENUM(SUGOV_INV_MIDPOINT);
TRACE_DEFINE_ENUM(SUGOV_INV_MAX_BOOST);
TRACE_DEFINE_ENUM(SUGOV_INV_OVERUTIL);
TRACE_DEFINE_ENUM(SUGOV_INV_NOINV);

TRACE_DEFINE_ENUM(SUGOV_INV_REASON_FORMULA);
TRACE_DEFINE_ENUM(SUGOV_INV_REASON_OVERUTIL);
TRACE_DEFINE_ENUM(SUGOV_INV_REASON_IOWAIT);
TRACE_DEFINE_ENUM(SUGOV_INV_REASON_HOLD);
TRACE_DEFINE_ENUM(SUGOV_INV_REASON_LIMITS);
TRACE_DEFINE_ENUM(SUGOV_INV_REASON_WAKE);

#define sugov_inv_show_fmax(p)					\
	__print_symbolic(p,						\
			 { SUGOV_INV_MAX_P,	"max_P" },		\
			 { SUGOV_INV_MIDPOINT,	"midpoint" },		\
			 { SUGOV_INV_MAX_BOOST,	"max_boost" },		\
			 { SUGOV_INV_OVERUTIL,	"overutil-detect" },	\
			 { SUGOV_INV_NOINV,	"noinv" })

#define sugov_inv_show_reason(r)					\
	__print_symbolic(r,						\
			 { SUGOV_INV_REASON_FORMULA,	"formula" },	\
			 { SUGOV_INV_REASON_OVERUTIL,	"overutil" },	\
			 { SUGOV_INV_REASON_IOWAIT,	"iowait" },	\
			 { SUGOV_INV_REASON_HOLD,	"hold" },	\
			 { SUGOV_INV_REASON_LIMITS,	"limits" },	\
			 { SUGOV_INV_REASON_WAKE,	"wake" })

/**
 * sugov_inv_decision - one evaluation of a policy
 * @cpu: CPU whose update_util hook evaluated the policy
 * @policy_cpu: policy->cpu, names the policy
 * @util: util fed to the formula (after the iowait boost), capacity units
 * @busy: smoothed busy fraction, not scaled by frequency, capacity units
 * @deliv_khz: delivered frequency of the CPU whose util won, last window
 * @freq_max_policy: the active freq_max choice (the tunable's name)
 * @freq_max_khz: freq_max that choice gave
 * @raw_khz: target before resolving to a table entry and clamping
 * @next_khz: resolved, clamped (and possibly held) frequency
 * @reason: why @next_khz was chosen
 * @request: a request went to the driver (false: nothing changed)
 */
TRACE_EVENT(sugov_inv_decision,
	    TP_PROTO(unsigned int cpu, unsigned int policy_cpu, u32 util,
		     u32 busy, u32 deliv_khz,
		     enum sugov_inv_fmax freq_max_policy, u32 freq_max_khz,
		     u32 raw_khz, u32 next_khz, enum sugov_inv_reason reason,
		     bool request),
	    TP_ARGS(cpu, policy_cpu, util, busy, deliv_khz, freq_max_policy,
		    freq_max_khz, raw_khz, next_khz, reason, request),
	    TP_STRUCT__entry(__field(unsigned int, cpu)
			     __field(unsigned int, policy_cpu)
			     __field(u32, util)
			     __field(u32, busy)
			     __field(u32, deliv_khz)
			     __field(int, freq_max_policy)
			     __field(u32, freq_max_khz)
			     __field(u32, raw_khz)
			     __field(u32, next_khz)
			     __field(int, reason)
			     __field(bool, request)),
	    TP_fast_assign(__entry->cpu = cpu;
			   __entry->policy_cpu = policy_cpu;
			   __entry->util = util;
			   __entry->busy = busy;
			   __entry->deliv_khz = deliv_khz;
			   __entry->freq_max_policy = freq_max_policy;
			   __entry->freq_max_khz = freq_max_khz;
			   __entry->raw_khz = raw_khz;
			   __entry->next_khz = next_khz;
			   __entry->reason = reason;
			   __entry->request = request;),
	    TP_printk("cpu=%u policy_cpu=%u util=%u busy=%u deliv_khz=%u freq_max_policy=%s freq_max_khz=%u raw_khz=%u next_khz=%u reason=%s request=%u",
		      __entry->cpu, __entry->policy_cpu, __entry->util,
		      __entry->busy, __entry->deliv_khz,
		      sugov_inv_show_fmax(__entry->freq_max_policy),
		      __entry->freq_max_khz, __entry->raw_khz,
		      __entry->next_khz,
		      sugov_inv_show_reason(__entry->reason),
		      __entry->request)
);

#endif /* _SUGOV_INV_TRACE_H */

/* This part must be outside the include guard */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .

#include <trace/define_trace.h>
