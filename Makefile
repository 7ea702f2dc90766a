# SPDX-License-Identifier: GPL-2.0-or-later
# numactl2: numactl with weighted interleave and per-node weights.
#
# The core is lib/ (libnumactl2.a, one public header lib/libnumactl2.h); the
# CLI is numactl2.c and cli/. Each build variant has its own object tree:
#   build/release  numactl2, the installed binary
#   build/test     build/test/numactl2: the test hooks (NUMACTL2_TEST_BUILD);
#                  the test drivers (build/test/NAME_driver), alloc, retune
#   build/asan     build/asan/numactl2 and build/asan/NAME_driver: the test
#                  build with ASan and UBSan
#   build/fuzz     build/fuzz/fuzz_parse and fuzz_acpi, with libFuzzer
#                  coverage; a test build (fuzz_acpi gives its tables
#                  through NUMACTL2_ACPI_TABLES)
#   build/pic      -fPIC: build/pic/slurm/numactl2.so, the Slurm SPANK plugin
#   build/testpic  -fPIC test build: build/testpic/slurm/numactl2.so for test/slurm
# Test drivers and benchmarks (build/release/bench/) link their variant's
# libnumactl2.a. Every product is under build/ but ./numactl2.
#
# The products' paths, for the rules below and for test/check-all.
TEST_BIN = build/test/numactl2
ASAN_BIN = build/asan/numactl2
PLUGIN_SO = build/pic/slurm/numactl2.so
TEST_PLUGIN_SO = build/testpic/slurm/numactl2.so
FUZZ_BINS = build/fuzz/fuzz_parse build/fuzz/fuzz_acpi
HELPERS = build/test/alloc build/test/retune
BENCH_WEIGHTS = build/release/bench/weights
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
SBINDIR ?= $(PREFIX)/sbin
SYSCONFDIR ?= /etc
# systemd's units: where systemd reads an admin's or a package's.
UNITDIR ?= $(PREFIX)/lib/systemd/system
MANDIR ?= $(PREFIX)/share/man
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
LIBDIR ?= $(PREFIX)/lib
# The Slurm plugin goes where Debian's Slurm keeps its own plugins, whatever
# PREFIX is: the one path the README, numactl2-slurm(8), the package and
# plugstack.conf's "required" line name (a wrong one fails every srun).
# pkg-config gives Slurm's libdir where Slurm ships slurm.pc (Debian 12's
# does not); else the compiler's multiarch directory, as Debian's.
SLURM_PC_LIBDIR := $(shell pkg-config --variable=libdir slurm 2>/dev/null)
SLURM_LIBDIR ?= $(or $(SLURM_PC_LIBDIR),/usr/lib/$(shell $(CC) -print-multiarch))
SLURM_PLUGINDIR ?= $(SLURM_LIBDIR)/slurm-wlm
ifeq ($(origin CC),default)
CC = gcc
endif
CFLAGS ?= -O2 -g
WARNINGS = -Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes -Wshadow \
	   -Wsign-compare -Wtype-limits -Wvla
# Warnings are errors; a newer compiler can build with WERROR= .
WERROR ?= -Werror
# A section per function: test/libpurity.bats tells lib/'s functions apart
# by their relocations.
override CFLAGS += -std=gnu17 $(WARNINGS) $(WERROR) -ffunction-sections
override CPPFLAGS += -I. -Ilib
DEPFLAGS = -MMD -MP
# numactl2 itself links libnuma alone: each further shared library costs
# instructions at every start (libm: 24,396, 9.3% of numactl2 -i all
# /bin/true, bench/overhead). Tests and benches add libm.
LDLIBS = -lnuma
TEST_LDLIBS = $(LDLIBS) -lpthread -lm
SANITIZE = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# The sanitizer and fuzz builds use clang: its UBSan lives in the ASan
# runtime, so both write their reports where log_path says and
# test/check-all counts them (GCC 12's separate libubsan ignores log_path).
SAN_CC ?= clang
FUZZ_CC ?= $(SAN_CC)
BATS ?= bats

LIB_SRCS = parse.c $(sort $(wildcard lib/*/*.c))
# The wording the front ends share (the CLI, the Slurm plugin, numactl2d).
MSG_SRCS = $(sort $(wildcard msg/*.c))
CLI_SRCS = numactl2.c $(sort $(wildcard cli/*.c)) $(MSG_SRCS)
SLURM_SRCS = $(sort $(wildcard slurm/*.c)) $(MSG_SRCS)
# numactl2d, the table's owner (docs/service.md).
SERVICE_SRCS = service/numactl2d.c $(MSG_SRCS)
SERVICE_BIN = build/release/numactl2d
TEST_SERVICE_BIN = build/test/numactl2d
ASAN_SERVICE_BIN = build/asan/numactl2d
# Shared by the test drivers and bench/weights (never in numactl2).
TESTLIB_SRCS = test/bw_oracle.c test/bw_random.c test/bw_hmsdk.c
DRIVER_NAMES = $(patsubst test/%.c,%,$(wildcard test/*_driver.c))
DRIVERS = $(addprefix build/test/,$(DRIVER_NAMES))
ASAN_DRIVERS = $(addprefix build/asan/,$(DRIVER_NAMES))

# The variants: VAR_CC and VAR_FLAGS for each.
release_CC = $(CC)
release_FLAGS =
test_CC = $(CC)
test_FLAGS = -DNUMACTL2_TEST_BUILD
asan_CC = $(SAN_CC)
asan_FLAGS = -DNUMACTL2_TEST_BUILD $(SANITIZE)
fuzz_CC = $(FUZZ_CC)
fuzz_FLAGS = -DNUMACTL2_TEST_BUILD -fsanitize=fuzzer-no-link,address,undefined
pic_CC = $(CC)
pic_FLAGS = -fPIC
testpic_CC = $(CC)
testpic_FLAGS = -DNUMACTL2_TEST_BUILD -fPIC
VARIANTS = release test asan fuzz pic testpic

objs = $(patsubst %.c,build/$(1)/%.o,$(2))

# The Slurm plugin where Slurm's headers are (libslurm-dev); the CLI
# builds without them.
SPANK_H ?= /usr/include/slurm/spank.h
ifneq ($(wildcard $(SPANK_H)),)
PLUGIN = $(PLUGIN_SO)
SLURM_TEST = $(PLUGIN_SO) $(TEST_PLUGIN_SO)
else
PLUGIN = no-slurm
endif

all: numactl2 $(SERVICE_BIN) $(PLUGIN)

no-slurm:
	@echo "make: not building $(PLUGIN_SO): no $(SPANK_H) (install libslurm-dev)"

# slurm/exports.map: the plugin exports Slurm's names only.
PLUGIN_LDFLAGS = -shared -Wl,--version-script=slurm/exports.map

$(PLUGIN_SO): $(call objs,pic,$(SLURM_SRCS)) build/pic/libnumactl2.a slurm/exports.map
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $(PLUGIN_LDFLAGS) -o $@ $(filter %.o %.a,$^) $(LDLIBS)

$(TEST_PLUGIN_SO): $(call objs,testpic,$(SLURM_SRCS)) build/testpic/libnumactl2.a slurm/exports.map
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $(PLUGIN_LDFLAGS) -o $@ $(filter %.o %.a,$^) $(LDLIBS)

define variant
build/$(1)/%.o: %.c
	@mkdir -p $$(@D)
	$$($(1)_CC) $$(CPPFLAGS) $$(CFLAGS) $$($(1)_FLAGS) $$(DEPFLAGS) -c -o $$@ $$<

build/$(1)/libnumactl2.a: $$(call objs,$(1),$$(LIB_SRCS))
	$$(AR) rcs $$@ $$^

build/$(1)/libtestsupport.a: $$(call objs,$(1),$$(TESTLIB_SRCS))
	$$(AR) rcs $$@ $$^

-include $$(wildcard build/$(1)/*.d build/$(1)/*/*.d build/$(1)/*/*/*.d)
endef
$(foreach v,$(VARIANTS),$(eval $(call variant,$(v))))

numactl2: $(call objs,release,$(CLI_SRCS)) build/release/libnumactl2.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(SERVICE_BIN): $(call objs,release,$(SERVICE_SRCS)) build/release/libnumactl2.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(TEST_SERVICE_BIN): $(call objs,test,$(SERVICE_SRCS)) build/test/libnumactl2.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(ASAN_SERVICE_BIN): $(call objs,asan,$(SERVICE_SRCS)) build/asan/libnumactl2.a
	$(SAN_CC) $(CFLAGS) $(SANITIZE) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(TEST_BIN): $(call objs,test,$(CLI_SRCS)) build/test/libnumactl2.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(ASAN_BIN): $(call objs,asan,$(CLI_SRCS)) build/asan/libnumactl2.a
	$(SAN_CC) $(CFLAGS) $(SANITIZE) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Every test/NAME_driver.c is a driver the host tests run (check-all passes
# each as NAME_DRIVER), plain (build/test/NAME_driver, with the release
# library) and with sanitizers (build/asan/NAME_driver).
build/test/%_driver: build/release/test/%_driver.o build/release/libtestsupport.a build/release/libnumactl2.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(TEST_LDLIBS)

build/asan/%_driver: build/asan/test/%_driver.o build/asan/libtestsupport.a build/asan/libnumactl2.a
	@mkdir -p $(@D)
	$(SAN_CC) $(CFLAGS) $(SANITIZE) $(LDFLAGS) -o $@ $^ $(TEST_LDLIBS)

# hmat_driver reads the tables and nodes the test build's hooks name (the
# ASan one has them: the ASan library is a test build).
build/test/hmat_driver: build/test/test/hmat_driver.o build/test/libnumactl2.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(TEST_LDLIBS)

# supervise_driver ends as numactl2 does, through the CLI's cli/exec.c,
# linked before the library it calls into.
build/test/supervise_driver: build/release/test/supervise_driver.o build/release/cli/exec.o \
		$(call objs,release,$(MSG_SRCS)) build/release/libtestsupport.a build/release/libnumactl2.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(TEST_LDLIBS)

build/asan/supervise_driver: build/asan/test/supervise_driver.o build/asan/cli/exec.o \
		$(call objs,asan,$(MSG_SRCS)) build/asan/libtestsupport.a build/asan/libnumactl2.a
	@mkdir -p $(@D)
	$(SAN_CC) $(CFLAGS) $(SANITIZE) $(LDFLAGS) -o $@ $^ $(TEST_LDLIBS)

# plugintask_driver is the Slurm plugin's task (slurm/task.c) without Slurm,
# on the test build's hooks (a copy of the weight table), as the test
# plugin is.
build/test/plugintask_driver: build/test/test/plugintask_driver.o build/test/slurm/task.o \
		$(call objs,test,$(MSG_SRCS)) build/test/libnumactl2.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(TEST_LDLIBS)

build/asan/plugintask_driver: build/asan/test/plugintask_driver.o build/asan/slurm/task.o \
		$(call objs,asan,$(MSG_SRCS)) build/asan/libnumactl2.a
	@mkdir -p $(@D)
	$(SAN_CC) $(CFLAGS) $(SANITIZE) $(LDFLAGS) -o $@ $^ $(TEST_LDLIBS)

build/fuzz/fuzz_%: build/fuzz/test/fuzz_%.o build/fuzz/libnumactl2.a
	$(FUZZ_CC) $(CFLAGS) -fsanitize=fuzzer,address,undefined $(LDFLAGS) -o $@ $^ $(TEST_LDLIBS)

# test/vm/alloc.c for the host's --report tests, test/vm/retune.c for the
# host's --pid tests (a job with threads).
$(HELPERS): build/test/%: test/vm/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -pthread $(LDFLAGS) -o $@ $<

$(BENCH_WEIGHTS): build/release/bench/weights.o build/release/libtestsupport.a build/release/libnumactl2.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(TEST_LDLIBS)

# bench/weights with the kernel's rounding in place of numactl2's
# (test/bw_weak.c): test/bwweights.bats proves the bench then fails.
$(BENCH_WEIGHTS)-weak: build/release/bench/weights.o build/release/test/bw_weak.o \
		    build/release/libtestsupport.a build/release/libnumactl2.a
	$(CC) $(CFLAGS) $(LDFLAGS) -Wl,--wrap=bw_optimal_weights -o $@ $^ $(TEST_LDLIBS)

man: man/numactl2.8 man/numactl2d.8
man/numactl2.8: numactl2 man/numactl2.h2m tools/mkman
	tools/mkman ./numactl2 $@

# A date mandoc reads (YYYY-MM-DD), as tools/mkman writes numactl2.8's.
man/numactl2d.8: $(SERVICE_BIN) man/numactl2d.h2m
	help2man --no-info --section=8 --include=man/numactl2d.h2m \
		--name="the owner of the kernel's global interleave weights" ./$(SERVICE_BIN) | \
		sed -E 's/^(\.TH \S+ "8") "[^"]*"/\1 "'"$$(date -u +%F)"'"/' >$@.tmp && mv $@.tmp $@

# Everything make check runs, and the benches' programs: test/build.bats
# checks that they all land under build/.
test-build: numactl2 $(SERVICE_BIN) $(TEST_SERVICE_BIN) $(ASAN_SERVICE_BIN) $(TEST_BIN) $(ASAN_BIN) $(DRIVERS) $(ASAN_DRIVERS) $(FUZZ_BINS) $(HELPERS) \
	    $(SLURM_TEST) $(BENCH_WEIGHTS) $(BENCH_WEIGHTS)-weak

# Host tests with the test build, the same under ASan/UBSan, the suite
# against broken binaries, a parser fuzz run, the Slurm plugin, the Debian
# packages (make deb is run by the part itself, so that a broken package
# fails that part, not the whole run), then the multi-node tests in QEMU
# guests (with the release build).
check: test-build
	test/check-all

# make check with every stock guest kernel besides (6.12, 6.1, 7.2): about
# three more kernel builds and four more guest boots (test/vm/check).
check-all: test-build
	NUMACTL2_VM_STOCK=1 test/check-all

check-host: numactl2 $(TEST_BIN) $(TEST_SERVICE_BIN) $(DRIVERS) $(HELPERS)
	test/check-all host

check-asan: numactl2 $(ASAN_BIN) $(ASAN_SERVICE_BIN) $(ASAN_DRIVERS) $(HELPERS)
	test/check-all asan

# The Slurm part: a real one-node cluster (test/slurm/run); it says it
# skipped where Slurm is not installed.
check-slurm: numactl2 $(TEST_BIN) $(SLURM_TEST)
	test/check-all slurm

check-fakes: numactl2 $(TEST_BIN) $(DRIVERS) $(HELPERS)
	test/check-all fakes

check-fuzz: $(FUZZ_BINS)
	test/run-fuzz

check-vm: numactl2 $(SERVICE_BIN) $(TEST_BIN) $(SLURM_TEST)
	NUMACTL2=$(CURDIR)/numactl2 test/vm/check

# The series under KASAN and lockdep (test/vm/kernel-debug.config): its own
# kernel build, on demand only.
check-debug: numactl2
	NUMACTL2=$(CURDIR)/numactl2 NUMACTL2_VM_SUITES=debug-mpol2 test/vm/check

# The guest kernel with the project's series (kernel/): its bzImage path is
# the last line of stdout.
kernel:
	@test/vm/kernel.sh 7.2-mpol2

demo: numactl2
	NUMACTL2=$(CURDIR)/numactl2 test/vm/demo

bench: numactl2 $(BENCH_WEIGHTS)
	bench/overhead
	bench/overhead --check
	bench/owner
	bench/owner direct
	$(BENCH_WEIGHTS)

# The Debian packages (debian/), built from a copy of the tree outside it;
# the .debs land in build/deb/. Their maintainer is whoever builds them
# (tools/debian-maintainer), written into the copy's debian/control and
# debian/changelog. make check-deb (make check's "deb" part) builds them,
# lints them and runs the packaged numactl2 from a scratch root.
deb:
	@tools/debian-maintainer >/dev/null
	@rm -rf build/deb && mkdir -p build/deb
	maint=$$(tools/debian-maintainer) && tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	git ls-files -co --exclude-standard | tar -cf - -T - | \
		(mkdir "$$tmp/numactl2" && tar -xf - -C "$$tmp/numactl2") && \
	MAINT=$$maint perl -pi -e 's/\@MAINTAINER\@/$$ENV{MAINT}/' \
		"$$tmp/numactl2/debian/control" "$$tmp/numactl2/debian/changelog" && \
	(cd "$$tmp/numactl2" && dpkg-buildpackage -us -uc -b >"$$tmp/build.log" 2>&1 || \
		{ tail -n 40 "$$tmp/build.log"; exit 1; }) && \
	cp "$$tmp"/*.deb "$$tmp"/*.changes "$$tmp"/*.buildinfo build/deb/

check-deb:
	test/check-all deb

# Every man page; the Slurm plugin too where it is built (libslurm-dev), or
# by make install-slurm.
MANPAGES = man/numactl2.8 man/numactl2d.8 man/numactl2-slurm.8
INSTALL_PLUGIN = $(if $(filter $(PLUGIN_SO),$(PLUGIN)),install-slurm)

install: numactl2 $(SERVICE_BIN) $(INSTALL_PLUGIN) install-service
	install -D -m 0755 numactl2 $(DESTDIR)$(BINDIR)/numactl2
	install -d $(DESTDIR)$(MANDIR)/man8
	install -m 0644 $(MANPAGES) $(DESTDIR)$(MANDIR)/man8/
	install -D -m 0644 completion/numactl2 $(DESTDIR)$(COMPLETIONDIR)/numactl2

# numactl2d, its units (ExecStart is where it is installed) and the admin's
# rules file, commented out: the service is enabled by the admin
# (systemctl enable --now numactl2.socket).
install-service: $(SERVICE_BIN)
	install -D -m 0755 $(SERVICE_BIN) $(DESTDIR)$(SBINDIR)/numactl2d
	install -D -m 0644 systemd/numactl2.socket $(DESTDIR)$(UNITDIR)/numactl2.socket
	sed 's|@SBINDIR@|$(SBINDIR)|' systemd/numactl2.service >numactl2.service.tmp && \
		install -D -m 0644 numactl2.service.tmp $(DESTDIR)$(UNITDIR)/numactl2.service; \
		rc=$$?; rm -f numactl2.service.tmp; exit $$rc
	install -D -m 0644 systemd/weights.conf $(DESTDIR)$(SYSCONFDIR)/numactl2/weights.conf

# The plugin's directory, for debian/rules.
slurm-plugindir:
	@echo $(SLURM_PLUGINDIR)

install-slurm: $(PLUGIN_SO)
	install -D -m 0644 $(PLUGIN_SO) $(DESTDIR)$(SLURM_PLUGINDIR)/numactl2.so
	install -D -m 0644 man/numactl2-slurm.8 $(DESTDIR)$(MANDIR)/man8/numactl2-slurm.8

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/numactl2d $(DESTDIR)$(UNITDIR)/numactl2.socket \
		$(DESTDIR)$(UNITDIR)/numactl2.service
	# The admin's rules stay, unless they are the ones make install wrote.
	! cmp -s systemd/weights.conf $(DESTDIR)$(SYSCONFDIR)/numactl2/weights.conf || \
		rm -f $(DESTDIR)$(SYSCONFDIR)/numactl2/weights.conf
	rm -f $(DESTDIR)$(BINDIR)/numactl2 $(DESTDIR)$(COMPLETIONDIR)/numactl2 \
		$(addprefix $(DESTDIR)$(MANDIR)/man8/,$(notdir $(MANPAGES))) \
		$(DESTDIR)$(SLURM_PLUGINDIR)/numactl2.so

clean:
	rm -rf build numactl2

# The drivers' and benches' objects are intermediate to make's pattern rules:
# keep them, so that a second make check does not build them again.
.SECONDARY:

.PHONY: all test-build no-slurm deb check-deb man check check-all check-host check-slurm check-asan check-fakes check-fuzz check-vm check-debug kernel demo bench install install-slurm slurm-plugindir uninstall clean
