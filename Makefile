# SPDX-License-Identifier: GPL-2.0-only
#
# sugov_inv: out-of-tree build of freq_invariance.ko and sugov_inv.ko.
#
#   make                  build the modules and fi-probe against KDIR
#   make modules_install  install the product modules (not the test ones)
#   make uninstall        remove them again (and re-run depmod)
#   make deps             set up a fresh Debian 12 machine (packages, guest kernel)
#   make check            every test: fi-probe, KUnit, selftests in QEMU
#                         (CHECK_ONLY=PART: one part; Documentation/development.rst)
#   make kunit            the KUnit suites alone, on the debug test kernel
#   make lint             W=1, sparse and checkpatch --strict, as make check's lint
#   make bench            the update_util hooks' cost per call
#   make demo             the freq_max policies side by side in QEMU
#   make compare          the ten configurations' tables on the emulated EPYC 7742
#   make fi-probe         the pre-flight probe alone (no kernel headers needed)
#   make clean            remove what the builds left
#
# kbuild itself reads Kbuild, not this file.

KDIR ?= /lib/modules/$(shell uname -r)/build
BUILD_DIR ?= $(CURDIR)/build

# Out of tree, Kconfig is not read: set the symbols Kbuild tests.
PRODUCT_CONFIG := CONFIG_FREQ_INVARIANCE=m CONFIG_SUGOV_INV=m
TEST_CONFIG := CONFIG_SUGOV_INV_VCPUFREQ=m CONFIG_SUGOV_INV_KUNIT_TEST=m

.PHONY: all modules fi-probe clean modules_install deps check demo kunit \
	bench selftests lint kdir-check compat-check uninstall help compare

all: modules fi-probe

kdir-check:
	@test -d "$(KDIR)" || { echo "KDIR=$(KDIR) does not exist: install your kernel's headers, or build for another kernel with make KDIR=DIR, e.g. one of: $$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | tr '\n' ' ')(the -amd64 tree, not -common; make deps installs Debian's)"; exit 1; }

# A raw use of an API that changed after 6.12 would break newer kernels,
# which are not compiled here: refuse it before building.
compat-check:
	@tools/compat-check.sh

modules: kdir-check compat-check
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(PRODUCT_CONFIG) $(TEST_CONFIG) modules

fi-probe:
	@if [ -f tools/fi-probe/Makefile ]; then $(MAKE) -C tools/fi-probe; fi

# Only the product modules are installed: rebuild modules.order without
# the test modules first, since modules_install follows it.
# Distribution header trees carry no System.map, so kbuild skips depmod:
# run it here, or modprobe would not find the modules.  The release is
# where kbuild put them (Debian's headers report another kernel.release),
# compressed as the kernel's own modules are (.ko.xz for Debian's 6.12).
# kbuild's default directory is extra/ up to 6.1 and updates/ in 6.12:
# extra/ here on every kernel, where make uninstall looks.
INSTALL_MOD_DIR ?= extra
modules_install: kdir-check compat-check
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(PRODUCT_CONFIG) modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(PRODUCT_CONFIG) INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) modules_install
	@ko=$$(ls -td $(INSTALL_MOD_PATH)/lib/modules/*/$(INSTALL_MOD_DIR)/sugov_inv.ko* | head -n 1); \
	rel=$$(basename $$(dirname $$(dirname $$ko))); \
	echo "  DEPMOD  $$rel"; depmod -a $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $$rel

# Remove what modules_install put there (extra/ of every kernel release
# under INSTALL_MOD_PATH: the names are ours) and run depmod again, so
# that modprobe no longer finds them.  A DKMS install goes with its
# package (apt purge sugov-inv-dkms) or "dkms remove sugov-inv/VERSION --all".
uninstall:
	@for d in $(INSTALL_MOD_PATH)/lib/modules/*/$(INSTALL_MOD_DIR); do \
		ls $$d/sugov_inv.ko* $$d/freq_invariance.ko* >/dev/null 2>&1 || continue; \
		r=$$(basename $$(dirname $$d)); \
		echo "  RM      "$$(ls $$d/freq_invariance.ko* $$d/sugov_inv.ko* 2>/dev/null); \
		rm -f $$d/freq_invariance.ko* $$d/sugov_inv.ko*; \
		rmdir --ignore-fail-on-non-empty $$d; \
		echo "  DEPMOD  $$r"; depmod -a $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $$r; \
	done

# Not kbuild's "M=. clean": it deletes every *.o and *.ko below this
# directory, which includes the guest kernel's modules and the KUnit
# kernel tree cached in build/.
clean:
	rm -f $(addprefix ./,$(foreach d,. kunit selftests,$(addprefix $(d)/,*.o *.ko *.mod *.mod.c .*.cmd *.o.d .*.o.d *.dwo)))
	rm -f modules.order Module.symvers kunit/modules.order selftests/modules.order
	@if [ -f tools/fi-probe/Makefile ]; then $(MAKE) -C tools/fi-probe clean; fi
	rm -rf $(BUILD_DIR)/obj $(BUILD_DIR)/vm

deps:
	tools/deps.sh

check:
	tools/check.sh

demo:
	tools/demo.sh

kunit:
	tools/kunit/run.sh

bench:
	tools/bench.sh

# tools/compare's default run: guest, epyc-7742, ten configurations
# (COMPARE_ARGS adds options, e.g. --full or --no-boost).
compare:
	tools/deps.sh --quiet
	tools/compare/compare --guest epyc-7742 $(COMPARE_ARGS)

# Lint our own files with the full kernel tree's checkpatch and sparse.
lint:
	tools/lint.sh

# The usage lines at the top of this file, up to the blank comment line
help:
	@sed -n '3p;5,/^#$$/{/^#$$/d;p}' Makefile
