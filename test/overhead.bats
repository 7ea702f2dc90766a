#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# numactl2's start-up stays within 2% of numactl's instructions up to the
# exec (bench/overhead --check, on the release binary): a count of
# instructions under callgrind, not a timing, so the bound holds still on a
# busy machine (bench/overhead says why). Skipped, never passed, where
# valgrind or numactl is missing (tools/install-deps --test installs both).

load helpers

top=$BATS_TEST_DIRNAME/..

setup_file() {
	make -s -C "$top" numactl2
}

needs_tools() {
	command -v valgrind >/dev/null || skip "no valgrind: nothing counted"
	command -v numactl >/dev/null || skip "no numactl to compare with"
}

@test "overhead: numactl2 -i all starts within 2% of numactl's instructions" {
	needs_tools
	run -0 --separate-stderr env NUMACTL2="$top/numactl2" "$top/bench/overhead" --check
	[[ $output == *"within 2% of numactl's"* ]] || { echo "$output"; false; }
}

# A program in numactl2's place that spins SPIN times before it execs its
# last argument, as numactl2 -i all /bin/true would.
spinner() {
	printf '#include <unistd.h>\nint main(int c, char **v) { for (volatile unsigned long i = 0; i < %s; i++); execv(v[c - 1], v + c - 1); return 127; }\n' \
		"$2" >"$BATS_TEST_TMPDIR/$1.c"
	"${CC:-gcc}" -O2 -o "$BATS_TEST_TMPDIR/$1" "$BATS_TEST_TMPDIR/$1.c"
}

@test "overhead: the check fails a start-up far above numactl's, and passes one below" {
	needs_tools
	spinner slow 1000000
	run -1 --separate-stderr env NUMACTL2="$BATS_TEST_TMPDIR/slow" "$top/bench/overhead" --check
	[[ $stderr == *"more than 2% above numactl's"* ]] || { echo "$stderr"; false; }
	spinner quick 0
	run -0 --separate-stderr env NUMACTL2="$BATS_TEST_TMPDIR/quick" "$top/bench/overhead" --check
	[[ $output == *"within 2% of numactl's"* ]] || { echo "$output"; false; }
}
