# SPDX-License-Identifier: GPL-2.0-or-later
# numactl2: numactl with weighted interleave and per-node weights.
#
# The core is lib/ (libnumactl2.a, one public header lib/libnumactl2.h); the
# CLI is numactl2.c and cli/. Each build variant has its own object tree:
#   build/release  numactl2, the installed binary
#   build/test     test/bin/numactl2: the test hooks (NUMACTL2_TEST_BUILD)
#   build/asan     asan/numactl2 and the *.asan drivers: the test build with
#                  ASan and UBSan
#   build/fuzz     the library for test/fuzz_parse, with libFuzzer coverage
#   build/pic      -fPIC: slurm/numactl2.so, the Slurm SPANK plugin
#   build/testpic  -fPIC test build: test/bin/slurm/numactl2.so for test/slurm
# Test drivers and benchmarks link their variant's libnumactl2.a.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
LIBDIR ?= $(PREFIX)/lib
# plugstack.conf names the plugin by its full path: any directory works.
SLURM_PLUGINDIR ?= $(LIBDIR)/slurm
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
# instructions at every start (bench/overhead). Tests and benches add libm.
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
# The wording both front ends share (the CLI and the Slurm plugin).
MSG_SRCS = $(sort $(wildcard msg/*.c))
CLI_SRCS = numactl2.c $(sort $(wildcard cli/*.c)) $(MSG_SRCS)
SLURM_SRCS = $(sort $(wildcard slurm/*.c)) $(MSG_SRCS)
# Shared by the test drivers and bench/weights (never in numactl2).
TESTLIB_SRCS = test/bw_oracle.c test/bw_random.c test/bw_hmsdk.c
DRIVERS = $(patsubst %.c,%,$(wildcard test/*_driver.c))

# The variants: VAR_CC and VAR_FLAGS for each.
release_CC = $(CC)
release_FLAGS =
test_CC = $(CC)
test_FLAGS = -DNUMACTL2_TEST_BUILD
asan_CC = $(SAN_CC)
asan_FLAGS = -DNUMACTL2_TEST_BUILD $(SANITIZE)
fuzz_CC = $(FUZZ_CC)
fuzz_FLAGS = -fsanitize=fuzzer-no-link,address,undefined
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
PLUGIN = slurm/numactl2.so
SLURM_TEST = slurm/numactl2.so test/bin/slurm/numactl2.so
else
PLUGIN = no-slurm
endif

all: numactl2 $(PLUGIN)

no-slurm:
	@echo "make: not building slurm/numactl2.so: no $(SPANK_H) (install libslurm-dev)"

slurm/numactl2.so: $(call objs,pic,$(SLURM_SRCS)) build/pic/libnumactl2.a
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -o $@ $^ $(LDLIBS)

test/bin/slurm/numactl2.so: $(call objs,testpic,$(SLURM_SRCS)) build/testpic/libnumactl2.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -o $@ $^ $(LDLIBS)

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

test/bin/numactl2: $(call objs,test,$(CLI_SRCS)) build/test/libnumactl2.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

asan/numactl2: $(call objs,asan,$(CLI_SRCS)) build/asan/libnumactl2.a
	@mkdir -p $(@D)
	$(SAN_CC) $(CFLAGS) $(SANITIZE) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Every test/NAME_driver.c is a driver the host tests run (check-all passes
# each as NAME_DRIVER), plain and with sanitizers.
test/%_driver: build/release/test/%_driver.o build/release/libtestsupport.a build/release/libnumactl2.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(TEST_LDLIBS)

test/%_driver.asan: build/asan/test/%_driver.o build/asan/libtestsupport.a build/asan/libnumactl2.a
	$(SAN_CC) $(CFLAGS) $(SANITIZE) $(LDFLAGS) -o $@ $^ $(TEST_LDLIBS)

# supervise_driver ends as numactl2 does, through the CLI's cli/exec.c.
test/supervise_driver: build/release/cli/exec.o
test/supervise_driver.asan: build/asan/cli/exec.o

test/fuzz_parse: build/fuzz/test/fuzz_parse.o build/fuzz/libnumactl2.a
	$(FUZZ_CC) $(CFLAGS) -fsanitize=fuzzer,address,undefined $(LDFLAGS) -o $@ $^ $(TEST_LDLIBS)

# test/vm/alloc.c for the host's --report tests.
test/bin/alloc: test/vm/alloc.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -pthread $(LDFLAGS) -o $@ $<

# test/vm/retune.c for the host's --pid tests (a job with threads).
test/bin/retune: test/vm/retune.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -pthread $(LDFLAGS) -o $@ $<

bench/weights: build/release/bench/weights.o build/release/libtestsupport.a build/release/libnumactl2.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(TEST_LDLIBS)

# bench/weights with the kernel's rounding in place of numactl2's
# (test/bw_weak.c): test/bwweights.bats proves the bench then fails.
bench/weights-weak: build/release/bench/weights.o build/release/test/bw_weak.o \
		    build/release/libtestsupport.a build/release/libnumactl2.a
	$(CC) $(CFLAGS) $(LDFLAGS) -Wl,--wrap=bw_optimal_weights -o $@ $^ $(TEST_LDLIBS)

man: man/numactl2.8
man/numactl2.8: numactl2 man/numactl2.h2m
	help2man --no-info --section=8 --include=man/numactl2.h2m \
		--name="run a command with a NUMA policy and weighted interleave" \
		-o $@ ./numactl2

# Host tests with the test build, the same under ASan/UBSan, the suite
# against broken binaries, a parser fuzz run, the Slurm plugin, the Debian
# packages (make deb is run by the part itself, so that a broken package
# fails that part, not the whole run), then the multi-node tests in QEMU
# guests (with the release build).
check: numactl2 test/bin/numactl2 asan/numactl2 $(DRIVERS) $(DRIVERS:=.asan) test/fuzz_parse test/bin/alloc test/bin/retune $(SLURM_TEST)
	test/check-all

# make check with every stock guest kernel besides (6.12, 6.1, 7.2): about
# three more kernel builds and four more guest boots (test/vm/check).
check-all: numactl2 test/bin/numactl2 asan/numactl2 $(DRIVERS) $(DRIVERS:=.asan) test/fuzz_parse test/bin/alloc test/bin/retune $(SLURM_TEST)
	NUMACTL2_VM_STOCK=1 test/check-all

check-host: numactl2 test/bin/numactl2 $(DRIVERS) test/bin/alloc test/bin/retune
	test/check-all host

check-asan: numactl2 asan/numactl2 $(DRIVERS:=.asan) test/bin/alloc test/bin/retune
	test/check-all asan

# The Slurm part: a real one-node cluster (test/slurm/run); it says it
# skipped where Slurm is not installed.
check-slurm: numactl2 test/bin/numactl2 $(SLURM_TEST)
	test/check-all slurm

check-fakes: numactl2 test/bin/numactl2 $(DRIVERS) test/bin/alloc test/bin/retune
	test/check-all fakes

check-fuzz: test/fuzz_parse
	test/run-fuzz

check-vm: numactl2 test/bin/numactl2 $(SLURM_TEST)
	NUMACTL2=$(CURDIR)/numactl2 test/vm/check

# The guest kernel with the project's series (kernel/): its bzImage path is
# the last line of stdout.
kernel:
	@test/vm/kernel.sh 7.2-mpol2

demo: numactl2
	NUMACTL2=$(CURDIR)/numactl2 test/vm/demo

bench: numactl2 bench/weights
	bench/overhead
	bench/lease
	bench/weights

# The Debian packages (debian/), built from a copy of the tree outside it;
# the .debs land in build/deb/. make check-deb (make check's "deb" part)
# builds them, lints them and runs the packaged numactl2 from a scratch root.
deb:
	@rm -rf build/deb && mkdir -p build/deb
	tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	git ls-files -co --exclude-standard | tar -cf - -T - | \
		(mkdir "$$tmp/numactl2" && tar -xf - -C "$$tmp/numactl2") && \
	(cd "$$tmp/numactl2" && dpkg-buildpackage -us -uc -b >"$$tmp/build.log" 2>&1 || \
		{ tail -n 40 "$$tmp/build.log"; exit 1; }) && \
	cp "$$tmp"/*.deb "$$tmp"/*.changes "$$tmp"/*.buildinfo build/deb/

check-deb:
	test/check-all deb

# Every man page; the Slurm plugin too where it is built (libslurm-dev), or
# by make install-slurm.
MANPAGES = man/numactl2.8 man/numactl2-slurm.8
INSTALL_PLUGIN = $(if $(filter slurm/numactl2.so,$(PLUGIN)),install-slurm)

install: numactl2 $(INSTALL_PLUGIN)
	install -D -m 0755 numactl2 $(DESTDIR)$(BINDIR)/numactl2
	install -d $(DESTDIR)$(MANDIR)/man8
	install -m 0644 $(MANPAGES) $(DESTDIR)$(MANDIR)/man8/
	install -D -m 0644 completion/numactl2 $(DESTDIR)$(COMPLETIONDIR)/numactl2

install-slurm: slurm/numactl2.so
	install -D -m 0644 slurm/numactl2.so $(DESTDIR)$(SLURM_PLUGINDIR)/numactl2.so
	install -D -m 0644 man/numactl2-slurm.8 $(DESTDIR)$(MANDIR)/man8/numactl2-slurm.8

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/numactl2 $(DESTDIR)$(COMPLETIONDIR)/numactl2 \
		$(addprefix $(DESTDIR)$(MANDIR)/man8/,$(notdir $(MANPAGES))) \
		$(DESTDIR)$(SLURM_PLUGINDIR)/numactl2.so

clean:
	rm -rf build asan test/bin
	rm -f slurm/numactl2.so
	rm -f numactl2 test/fuzz_parse bench/weights bench/weights-weak $(DRIVERS) $(DRIVERS:=.asan)

# The drivers' and benches' objects are intermediate to make's pattern rules:
# keep them, so that a second make check does not build them again.
.SECONDARY:

.PHONY: all no-slurm deb check-deb man check check-all check-host check-slurm check-asan check-fakes check-fuzz check-vm kernel demo bench install install-slurm uninstall clean
