#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel series' own kselftest (tools/testing/selftests/mm/mempolicy2.c
# of the patched tree), which kernel.sh builds statically next to the
# 7.2-mpol2 bzImage and test/vm/check puts in the initramfs as
# /vmtest/bin/mempolicy2_test. On a kernel with the series a missing binary
# is a failure, not a skip: the suite would pass without the kernel's tests.

load common

KSELFTEST=/vmtest/bin/mempolicy2_test

setup() {
	reset_weights
}

teardown() {
	reset_weights
}

@test "kselftest: this kernel has the series and the image has its kselftest" {
	[ -e /sys/kernel/mm/mempolicy/syscalls ]
	echo "kselftest binary: $KSELFTEST"
	[ -x "$KSELFTEST" ]
}

# Run the kselftest binary $1 (the harness' options after it) and check
# its totals: pass > 0, fail:0, skip:0, error:0, exit 0.
kselftest_totals() {
	local totals pass fail skip error
	[ -x "$1" ] || return 1
	run "$@"
	echo "$output"
	echo "exit status: $status"
	totals=$(printf '%s\n' "$output" | grep -E '^# Totals: pass:[0-9]+ fail:[0-9]+' | tail -n 1)
	echo "totals: $totals"
	[ -n "$totals" ] || return 1
	pass=$(sed -E 's/^# Totals: pass:([0-9]+) .*/\1/' <<<"$totals")
	fail=$(sed -E 's/^# Totals: pass:[0-9]+ fail:([0-9]+).*/\1/' <<<"$totals")
	skip=$(sed -E 's/^.* skip:([0-9]+).*/\1/' <<<"$totals")
	error=$(sed -E 's/^.* error:([0-9]+).*/\1/' <<<"$totals")
	echo "# $(basename "$1"): $totals" >&3
	[ "$fail" -eq 0 ] || return 1
	[ "$pass" -gt 0 ] || return 1
	# this guest has root, 4 memory nodes and cgroup v2: nothing may skip
	[ "$skip" -eq 0 ] || return 1
	[ "$error" -eq 0 ] || return 1
	[ "$status" -eq 0 ] || return 1
}

@test "kselftest mm/mempolicy2: the harness' totals say pass > 0, fail:0, skip:0, error:0" {
	kselftest_totals "$KSELFTEST"
}

# The same tests as a 32-bit task, the thread tests (thread_inherits,
# pidfd_thread, bulk_vmalloc) among them: i386 glibc waits for and wakes
# threads with the 32-bit time futex call, which the guest kernel has since
# test/vm/kernel-mpol2.config asks for COMPAT_32BIT_TIME.
@test "kselftest mm/mempolicy2 built with -m32 (a 32-bit task, the __u64 mask): the same totals" {
	echo "kselftest binary: ${KSELFTEST}32"
	kselftest_totals "${KSELFTEST}32"
}
