#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 13: a program that starts with libnuma 2.0.15-2.0.17 loses its
# task-local weights (the constructor's MPOL_PREFERRED_MANY probe puts the
# policy back without them). numactl2 finds the libnuma the program's own
# loader would load and its version from the library's symbol versions,
# before anything changes. The host kernel has no set_mempolicy2: the test
# build's NUMACTL2_TEST_TASK_LOCAL=1 makes the task-local path the choice,
# with --dry-run (nothing set) where it stays task-local. Debian 12's
# libnuma is 2.0.16 (affected); fakes with other symbol versions stand for
# the rest. The guest runs the real thing (test/vm/guest/libnuma.bats).

load helpers

GOES_GLOBAL="weights go to: global (sysfs), which every weighted-interleave task uses"
GOES_LOCAL="weights go to: task-local (set_mempolicy2), this program's own"
WHY="whose start-up resets the memory policy without its task-local weights"
INSTEAD="the weights go to the global table instead, with a lease"

# A fake libnuma.so.1 in $1 that defines the symbol versions libnuma_1.1 to
# libnuma_1.$2 (2.0.14: 4, 2.0.15-2.0.17: 6, 2.0.18: 7), with the
# numa_available@libnuma_1.1 the test programs call.
fake_libnuma() {
	local dir=$1 last=$2 i script=$1/versions
	mkdir -p "$dir"
	echo 'libnuma_1.1 { global: numa_available; local: *; };' >"$script"
	for ((i = 2; i <= last; i++)); do
		echo "libnuma_1.$i { } libnuma_1.$((i - 1));" >>"$script"
	done
	echo 'int numa_available(void) { return -1; }' >"$dir/fake.c"
	${CC:-cc} -shared -fPIC -Wl,-soname,libnuma.so.1 -Wl,--version-script="$script" \
		-o "$dir/libnuma.so.1" "$dir/fake.c"
}

setup_file() {
	[ ! -e /sys/kernel/mm/mempolicy/syscalls ] ||
		skip "this kernel lists set_mempolicy2: the guest suites test it"
	local d=$BATS_FILE_TMPDIR cc=${CC:-cc} v
	printf '#include <numa.h>\n#include <stdio.h>\nint main(void) { printf("%%d\\n", numa_available()); return 0; }\n' >"$d/numa.c"
	printf '#include <stdio.h>\nint main(void) { puts("plain"); return 0; }\n' >"$d/plain.c"
	printf '#include <numa.h>\nint mid(void) { return numa_available(); }\n' >"$d/mid.c"
	printf 'int mid(void);\nint main(void) { return mid() < -1; }\n' >"$d/indirect.c"
	$cc -o "$d/withnuma" "$d/numa.c" -lnuma
	$cc -o "$d/plain" "$d/plain.c"
	$cc -shared -fPIC -o "$d/libmid.so" "$d/mid.c" -lnuma
	$cc -o "$d/indirect" "$d/indirect.c" -L"$d" -lmid -Wl,-rpath,"$d"
	$cc -static -o "$d/static-numa" "$d/numa.c" -lnuma 2>/dev/null
	$cc -static -o "$d/static-plain" "$d/plain.c"
	printf '#!%s\n' "$d/withnuma" >"$d/script-numa"
	printf '#!/usr/bin/env withnuma\n' >"$d/script-env"
	printf '#!/bin/sh\necho sh\n' >"$d/script-sh"
	chmod +x "$d"/script-*
	# Each fake reaches its program alone, through its RUNPATH: numactl2
	# itself links libnuma, so LD_LIBRARY_PATH would hand it the fake too.
	for v in 2.0.14:4 2.0.16:6 2.0.18:7; do
		fake_libnuma "$d/v${v%:*}" "${v#*:}"
		$cc -o "$d/withnuma-${v%:*}" "$d/numa.c" -L"$d/v${v%:*}" -l:libnuma.so.1 \
			-Wl,--enable-new-dtags,-rpath,"$d/v${v%:*}"
	done
}

setup() {
	[ ! -e /sys/kernel/mm/mempolicy/syscalls ] ||
		skip "this kernel lists set_mempolicy2: the guest suites test it"
	[ -d "$WI_DIR" ] || skip "needs weighted interleave (Linux 6.9+)"
	P=$BATS_FILE_TMPDIR
	LIB=$(ldd "$P/withnuma" | awk '/libnuma\.so/ { print $3 }')
}

# "$@" under the task-local choice, --dry-run: stderr and where weights go.
dry_run() {
	run -0 --separate-stderr env NUMACTL2_TEST_TASK_LOCAL=1 "$NUMACTL2" -w 0 --weights=0:3 --dry-run "$@"
	echo "stdout: $output"
	echo "stderr: $stderr"
}

@test "a program linked with -lnuma (Debian's 2.0.16): the global table, said on stderr" {
	dry_run "$P/withnuma"
	[ "$stderr" = "numactl2: $P/withnuma loads $LIB (libnuma 2.0.15-2.0.17), $WHY; $INSTEAD" ]
	[ "${lines[3]}" = "$GOES_GLOBAL" ]
}

@test "a program without libnuma keeps its task-local weights, and nothing is said" {
	dry_run "$P/plain"
	[ -z "$stderr" ]
	[ "${lines[3]}" = "$GOES_LOCAL" ]
}

@test "libnuma through a shared library the program links: found by the loader" {
	dry_run "$P/indirect"
	[ "$stderr" = "numactl2: $P/indirect loads $LIB (libnuma 2.0.15-2.0.17), $WHY; $INSTEAD" ]
	[ "${lines[3]}" = "$GOES_GLOBAL" ]
}

@test "the command is found as the exec finds it: PATH" {
	PATH=$P:$PATH dry_run withnuma
	[ "$stderr" = "numactl2: $P/withnuma loads $LIB (libnuma 2.0.15-2.0.17), $WHY; $INSTEAD" ]
	PATH=$P:$PATH dry_run plain
	[ -z "$stderr" ]
}

@test "a static program: libnuma built in cannot be placed (the global table); without it, task-local" {
	[ -x "$P/static-numa" ] || skip "no static libnuma (libnuma-dev's libnuma.a)"
	dry_run "$P/static-numa"
	[ "$stderr" = "numactl2: $P/static-numa is a static program with libnuma built in, whose version cannot be read: its start-up may reset the memory policy without its task-local weights; $INSTEAD" ]
	[ "${lines[3]}" = "$GOES_GLOBAL" ]
	dry_run "$P/static-plain"
	[ -z "$stderr" ]
	[ "${lines[3]}" = "$GOES_LOCAL" ]
}

@test "a script is followed to its interpreter, through env too" {
	dry_run "$P/script-numa"
	[ "$stderr" = "numactl2: $P/withnuma loads $LIB (libnuma 2.0.15-2.0.17), $WHY; $INSTEAD" ]
	PATH=$P:$PATH dry_run "$P/script-env"
	[ "$stderr" = "numactl2: $P/withnuma loads $LIB (libnuma 2.0.15-2.0.17), $WHY; $INSTEAD" ]
	dry_run "$P/script-sh"
	[ -z "$stderr" ]
	[ "${lines[3]}" = "$GOES_LOCAL" ]
}

@test "the version is the library's: 2.0.18's and 2.0.14's symbol versions keep the weights, 2.0.16's do not" {
	dry_run "$P/withnuma-2.0.18"
	[ -z "$stderr" ]
	[ "${lines[3]}" = "$GOES_LOCAL" ]
	dry_run "$P/withnuma-2.0.14"
	[ -z "$stderr" ]
	[ "${lines[3]}" = "$GOES_LOCAL" ]
	dry_run "$P/withnuma-2.0.16"
	[ "$stderr" = "numactl2: $P/withnuma-2.0.16 loads $P/v2.0.16/libnuma.so.1 (libnuma 2.0.15-2.0.17), $WHY; $INSTEAD" ]
	[ "${lines[3]}" = "$GOES_GLOBAL" ]
}

@test "the global path for it is a real one: the table written, with a lease, the job run" {
	echo 1 >"$WI_DIR/node0"
	run -0 --separate-stderr env NUMACTL2_TEST_TASK_LOCAL=1 "$NUMACTL2" -w 0 --weights=0:3 "$P/withnuma"
	echo "stderr: $stderr"
	[ "${stderr_lines[0]}" = "numactl2: $P/withnuma loads $LIB (libnuma 2.0.15-2.0.17), $WHY; $INSTEAD" ]
	[ "$(cat "$WI_DIR/node0")" = 3 ]
	[ "$output" = "$("$P/withnuma")" ]
}

@test "--no-global-weights refuses it, and nothing changes" {
	echo 1 >"$WI_DIR/node0"
	refused --unchanged wi_snapshot "$(wi_snapshot)" \
		"numactl2: $P/withnuma loads $LIB (libnuma 2.0.15-2.0.17), $WHY, and --no-global-weights forbids changing the global ones" \
		env NUMACTL2_TEST_TASK_LOCAL=1 "$NUMACTL2" -w 0 --weights=0:3 --no-global-weights "$P/withnuma"
}

@test "--no-global-weights where the table already holds the weights: no change needed, the job runs" {
	echo 3 >"$WI_DIR/node0"
	run -0 --separate-stderr env NUMACTL2_TEST_TASK_LOCAL=1 "$NUMACTL2" -w 0 --weights=0:3 --no-global-weights --dry-run "$P/withnuma"
	[ "${lines[3]}" = "$GOES_GLOBAL" ]
}

@test "on the global path nothing changes: no check, no line" {
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:3 --dry-run "$P/withnuma"
	[ -z "$stderr" ]
	[ "${lines[3]}" = "$GOES_GLOBAL" ]
	run -0 --separate-stderr env NUMACTL2_TEST_TASK_LOCAL=1 "$NUMACTL2" -w 0 --weights=0:3 --global-weights --dry-run "$P/withnuma"
	[ -z "$stderr" ]
}

@test "a command that does not exist, or is no program: nothing to check, the exec says why" {
	dry_run "$P/nonesuch"
	[ -z "$stderr" ]
	[ "${lines[3]}" = "$GOES_LOCAL" ]
	dry_run "$P/numa.c"
	[ -z "$stderr" ]
	[ "${lines[3]}" = "$GOES_LOCAL" ]
}
