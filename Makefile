# numactl2: numactl with weighted interleave and per-node weights.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man/man8
CC ?= gcc
CFLAGS ?= -O2 -g
WARNINGS = -Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes -Wshadow \
	   -Wsign-compare -Wtype-limits -Wvla
# Warnings are errors; a newer compiler can build with WERROR= .
WERROR ?= -Werror
override CFLAGS += -std=gnu17 $(WARNINGS) $(WERROR)
LDLIBS = -lnuma -lpthread -lm
SANITIZE = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# The sanitizer builds use clang: its UBSan lives in the ASan runtime, so
# both write their reports where log_path says and test/check-all counts
# them (GCC 12's separate libubsan ignores log_path).
SAN_CC ?= clang
BATS ?= bats

SRCS = numactl2.c cli.c cli_table.c cli_check.c parse.c nodes.c policy.c mpol2.c weights.c gweights.c \
       lease.c leaseholders.c restore.c \
       globalops.c dryrun.c show.c hardware.c shm.c closeout.c bwweights.c supervise.c \
       numamaps.c report.c measure.c nodeperf.c autoweights.c
OBJS = $(SRCS:.c=.o)
HDRS = $(wildcard *.h)

all: numactl2

numactl2: $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

%.o: %.c $(HDRS)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# The test build: the release sources plus the hooks under
# NUMACTL2_TEST_BUILD (NUMACTL2_SYSFS_WI, NUMACTL2_TEST_FAIL_NODE,
# NUMACTL2_SYSFS_NODE for node bandwidths), which the
# host tests need to use a copy of the weight table. Never installed.
TEST_BUILD = -DNUMACTL2_TEST_BUILD
test/bin/numactl2: $(SRCS) $(HDRS)
	@mkdir -p test/bin
	$(CC) $(CPPFLAGS) $(TEST_BUILD) $(CFLAGS) $(LDFLAGS) -o $@ $(SRCS) $(LDLIBS)

# The test build again, with ASan and UBSan.
asan/numactl2: $(SRCS) $(HDRS)
	@mkdir -p asan
	$(SAN_CC) $(CPPFLAGS) $(TEST_BUILD) $(CFLAGS) $(SANITIZE) $(LDFLAGS) -o $@ $(SRCS) $(LDLIBS)

test/parse_driver: test/parse_driver.c parse.c parse.h
	$(CC) $(CFLAGS) -I. -o $@ test/parse_driver.c parse.c

test/parse_driver.asan: test/parse_driver.c parse.c parse.h
	$(SAN_CC) $(CFLAGS) $(SANITIZE) -I. -o $@ test/parse_driver.c parse.c

# bwweights.c with the exhaustive oracle it must agree with (test build only).
BW_TEST_SRCS = test/bwweights_driver.c test/bw_oracle.c test/bw_random.c bwweights.c
BW_TEST_HDRS = bwweights.h test/bw_oracle.h test/bw_random.h

test/bwweights_driver: $(BW_TEST_SRCS) $(BW_TEST_HDRS)
	$(CC) $(CFLAGS) -I. -Itest -o $@ $(BW_TEST_SRCS) -lm

test/bwweights_driver.asan: $(BW_TEST_SRCS) $(BW_TEST_HDRS)
	$(SAN_CC) $(CFLAGS) $(SANITIZE) -I. -Itest -o $@ $(BW_TEST_SRCS) -lm

# test/vm/alloc.c for the host's --report tests.
test/bin/alloc: test/vm/alloc.c
	@mkdir -p test/bin
	$(CC) -std=gnu17 -O2 -Wall -Wextra -Werror -pthread -o $@ $<

# supervise.c on its own: the child, its signals and its exit-stop.
test/supervise_driver: test/supervise_driver.c supervise.c supervise.h
	$(CC) $(CFLAGS) -I. -o $@ test/supervise_driver.c supervise.c

test/supervise_driver.asan: test/supervise_driver.c supervise.c supervise.h
	$(SAN_CC) $(CFLAGS) $(SANITIZE) -I. -o $@ test/supervise_driver.c supervise.c

# numamaps.c's parser on its own: numa_maps lines in, sums by kind out.
test/numamaps_driver: test/numamaps_driver.c numamaps.c numamaps.h parse.h
	$(CC) $(CFLAGS) -I. -o $@ test/numamaps_driver.c numamaps.c

test/numamaps_driver.asan: test/numamaps_driver.c numamaps.c numamaps.h parse.h
	$(SAN_CC) $(CFLAGS) $(SANITIZE) -I. -o $@ test/numamaps_driver.c numamaps.c

test/fuzz_parse: test/fuzz_parse.c parse.c parse.h
	clang -std=gnu17 -g -O1 -I. -fsanitize=fuzzer,address,undefined -o $@ test/fuzz_parse.c parse.c

man: man/numactl2.8
man/numactl2.8: numactl2 man/numactl2.h2m
	help2man --no-info --section=8 --include=man/numactl2.h2m \
		--name="run a command with a NUMA policy and weighted interleave" \
		-o $@ ./numactl2

# Host tests with the test build, the same under ASan/UBSan, the suite
# against broken binaries, a parser fuzz run, then the multi-node tests in
# QEMU guests (with the release build).
# Every test/NAME_driver.c is a driver the host tests run (check-all passes
# each as NAME_DRIVER), built plain and with sanitizers.
DRIVERS = $(patsubst %.c,%,$(wildcard test/*_driver.c))
check: numactl2 test/bin/numactl2 asan/numactl2 $(DRIVERS) $(DRIVERS:=.asan) test/fuzz_parse test/bin/alloc
	test/check-all

check-host: numactl2 test/bin/numactl2 $(DRIVERS) test/bin/alloc
	test/check-all host

check-asan: numactl2 asan/numactl2 $(DRIVERS:=.asan) test/bin/alloc
	test/check-all asan

check-fakes: numactl2 test/bin/numactl2 $(DRIVERS) test/bin/alloc
	test/check-all fakes

check-fuzz: test/fuzz_parse
	test/run-fuzz

check-vm: numactl2 test/bin/numactl2
	NUMACTL2=$(CURDIR)/numactl2 test/vm/check

# The guest kernel with the project's series (kernel/): its bzImage path is
# the last line of stdout.
kernel:
	@test/vm/kernel.sh 6.12-mpol2

demo: numactl2
	NUMACTL2=$(CURDIR)/numactl2 test/vm/demo

bench/weights: bench/weights.c test/bw_oracle.c test/bw_random.c bwweights.c $(BW_TEST_HDRS)
	$(CC) $(CFLAGS) -I. -Itest -o $@ bench/weights.c test/bw_oracle.c test/bw_random.c bwweights.c -lm

bench: numactl2 bench/weights
	bench/overhead
	bench/lease
	bench/weights

install: numactl2
	install -D -m 0755 numactl2 $(DESTDIR)$(BINDIR)/numactl2
	install -D -m 0644 man/numactl2.8 $(DESTDIR)$(MANDIR)/numactl2.8

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/numactl2 $(DESTDIR)$(MANDIR)/numactl2.8

clean:
	rm -rf asan test/bin; rm -f numactl2 *.o test/parse_driver test/parse_driver.asan test/fuzz_parse \
		test/bwweights_driver test/bwweights_driver.asan bench/weights \
		test/supervise_driver test/supervise_driver.asan test/numamaps_driver test/numamaps_driver.asan

.PHONY: all man check check-host check-asan check-fakes check-fuzz check-vm kernel demo bench install uninstall clean
