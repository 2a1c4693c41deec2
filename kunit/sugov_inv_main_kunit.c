// SPDX-License-Identifier: GPL-2.0-only
/*
 * Module metadata of sugov_inv_kunit.ko.  The suites live in the other
 * kunit/ .c files, each registering itself with kunit_test_suites(); the
 * module loader runs them when the module is inserted and prints KTAP to
 * the kernel log.  Loading succeeds whatever the results: read them from
 * the log (tools/kunit/run.sh does).
 */
#include <linux/module.h>

#include "compat.h"

MODULE_DESCRIPTION("KUnit suites for sugov_inv and freq_invariance");
MODULE_LICENSE("GPL");
/* The decoder and sampling suites call freq_invariance.ko's exports */
FREQ_INV_IMPORT_NS();
