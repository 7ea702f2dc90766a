#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The start-up rules: the dynamic loader checks every symbol version the
# release binary needs at each start (GLIBC_2.6, CPU_COUNT's: 423
# instructions, 0.16% of `numactl2 -i all /bin/true`, bench/overhead), so the
# binary needs no glibc version beyond numactl's set, posix_spawn's (the
# program's loader, lib/job/progload.c), CPU_COUNT's (--measure) and those
# of the table's owner that root's numactl2 runs in itself
# (lib/owner/once.c: epoll, accept4, memcpy, clock_gettime; pipe2 and
# close_range use them too). The start-up itself is held within 2% of
# numactl's by test/overhead.bats. Other calls glibc has only under a newer
# version go through syscalls.h (sys_pidfd_*, sys_renameat2).

load helpers

top=$BATS_TEST_DIRNAME/..
ALLOWED="GLIBC_2.2.5 GLIBC_2.3 GLIBC_2.3.2 GLIBC_2.3.4 GLIBC_2.4 GLIBC_2.6 GLIBC_2.7 GLIBC_2.9
	GLIBC_2.10 GLIBC_2.14 GLIBC_2.15 GLIBC_2.17 GLIBC_2.33 GLIBC_2.34"

# The glibc versions ELF $1 needs beyond $ALLOWED, one a line, with a symbol.
beyond_allowed() {
	objdump -T "$1" | awk -v allowed="$ALLOWED" '
		BEGIN { split(allowed, a); for (i in a) ok[a[i]] = 1 }
		/\*UND\*/ && match($0, /\(GLIBC_[0-9.]+\)/) {
			v = substr($0, RSTART + 1, RLENGTH - 2)
			if (!ok[v]) print v, $NF
		}' | sort -u
}

@test "startup: the release binary needs no glibc version beyond the allowlist" {
	local bin=${STARTUP_BIN:-$top/numactl2}
	[ -n "${STARTUP_BIN:-}" ] || run -0 make -s -C "$top" numactl2
	run -0 beyond_allowed "$bin"
	[ -z "$output" ] || { echo "beyond the allowlist: $output"; false; }
}

@test "startup: the check finds a call under a newer version" {
	printf '#include <sys/random.h>\nint main(void) { char c; return (int)getrandom(&c, 1, 0); }\n' \
		>"$BATS_TEST_TMPDIR/bad.c"
	"${CC:-gcc}" -O2 -o "$BATS_TEST_TMPDIR/bad" "$BATS_TEST_TMPDIR/bad.c"
	run -0 beyond_allowed "$BATS_TEST_TMPDIR/bad"
	[ "$output" = "GLIBC_2.25 getrandom" ]
}
