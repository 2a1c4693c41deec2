// SPDX-License-Identifier: GPL-2.0-only
/*
 * sugov_inv: the per-CPU summary in debugfs, sugov_inv/summary: each
 * CPU's counters (evaluations, rate-limited returns, windows, requests by
 * reason), its last estimate and decision, and how often the chain rule
 * raised its util; and the chain rule's records, sugov_inv/chain.
 * Columns are documented in Documentation/ABI/testing/debugfs-sugov_inv.
 */

#include <linux/debugfs.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>

#include "sugov_inv_internal.h"

static struct dentry *sugov_inv_debugfs;

/* debugfs column names; indexed by enum sugov_inv_reason */
static const char * const sugov_inv_reason_names[] = {
	[SUGOV_INV_REASON_FORMULA]	= "formula",
	[SUGOV_INV_REASON_OVERUTIL]	= "overutil",
	[SUGOV_INV_REASON_IOWAIT]	= "iowait",
	[SUGOV_INV_REASON_HOLD]		= "hold",
	[SUGOV_INV_REASON_LIMITS]	= "limits",
	[SUGOV_INV_REASON_WAKE]		= "wake",
};

/*
 * One line per possible CPU; counters since the governor last started on
 * that CPU.  Columns are named in the header.  Reading races with the
 * hooks by design (see struct sugov_inv_stats).
 */
static int sugov_inv_summary_show(struct seq_file *m, void *unused)
{
	unsigned int cpu, r;

	seq_puts(m, "# cpu active evals ratelimited samples");
	for (r = 0; r < SUGOV_INV_NR_REASONS; r++)
		seq_printf(m, " req_%s", sugov_inv_reason_names[r]);
	seq_puts(m, " util busy deliv_khz last_util last_raw_khz last_next_khz chained\n");

	for_each_possible_cpu(cpu) {
		struct sugov_inv_cpu *sgc = &per_cpu(sugov_inv_cpus, cpu);
		struct sugov_inv_stats *st = &sgc->stats;

		seq_printf(m, "%u %u %llu %llu %llu", cpu,
			   READ_ONCE(sgc->sgp) ? 1 : 0,
			   (u64)local64_read(&st->evals),
			   (u64)local64_read(&st->ratelimited),
			   (u64)local64_read(&st->samples));
		for (r = 0; r < SUGOV_INV_NR_REASONS; r++)
			seq_printf(m, " %llu", (u64)local64_read(&st->reasons[r]));
		seq_printf(m, " %u %u %u %u %u %u %llu\n",
			   sugov_inv_est_round(READ_ONCE(sgc->win.est.util_inv_fp)),
			   sugov_inv_est_round(READ_ONCE(sgc->win.est.util_raw_fp)),
			   READ_ONCE(sgc->win.deliv_khz), READ_ONCE(st->last_util),
			   READ_ONCE(st->last_raw), READ_ONCE(st->last_next),
			   (u64)local64_read(&st->chained));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sugov_inv_summary);

/* The chain rule's per-CPU records (sugov_inv_chain_show()) */
static int sugov_inv_chain_dbg_show(struct seq_file *m, void *unused)
{
	sugov_inv_chain_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sugov_inv_chain_dbg);

/**
 * sugov_inv_debugfs_init() - create sugov_inv/summary and sugov_inv/chain
 *
 * Description: Optional: debugfs errors are not fatal (and not worth checking).
 *
 * Context: module init.
 */
void sugov_inv_debugfs_init(void)
{
	sugov_inv_debugfs = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("summary", 0444, sugov_inv_debugfs, NULL,
			    &sugov_inv_summary_fops);
	debugfs_create_file("chain", 0444, sugov_inv_debugfs, NULL,
			    &sugov_inv_chain_dbg_fops);
}

/**
 * sugov_inv_debugfs_exit() - remove what sugov_inv_debugfs_init() created
 *
 * Context: module init (on failure) and exit.
 */
void sugov_inv_debugfs_exit(void)
{
	debugfs_remove_recursive(sugov_inv_debugfs);
}
