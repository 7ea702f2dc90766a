#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Running the command: the policy it runs under (from its own numa_maps and
# /proc/self/status), its exit status, and the exec failures 127 and 126.

load helpers

# heap_policy WANT OPTIONS...: the exec'd program's heap line in numa_maps
# has the policy WANT. (Not in $( ): run's status check would be lost there.)
heap_policy() {
	local want=$1
	shift
	run -0 --separate-stderr "$NUMACTL2" "$@" "${HEAP_POLICY[@]}"
	echo "numactl2 $*: '$output', want '$want'"
	[ "$output" = "$want" ] || return 1
	[ -z "$stderr" ] || return 1
}

@test "without a policy the command runs under the default policy" {
	heap_policy default
}

@test "--interleave" {
	heap_policy interleave:0 -i 0
	heap_policy interleave:0 --interleave=all
	heap_policy interleave:0 -a -i all
	heap_policy interleave:0 -i +0
}

@test "--weighted-interleave: the policy string with its space" {
	[ -d "$WI_DIR" ] || skip "needs Linux 6.9+ for weighted interleave"
	heap_policy "weighted interleave:0" -w 0
	heap_policy "weighted interleave:0" -w -i all
}

@test "--membind, with and without --balancing" {
	heap_policy bind:0 -m 0
	heap_policy bind=balancing:0 --membind=0 -b
}

@test "--preferred and --preferred-many" {
	heap_policy prefer:0 -p 0
	heap_policy "prefer (many):0" -P 0
	heap_policy "prefer (many)=balancing:0" -b -P 0
}

@test "--localalloc" {
	heap_policy local -l
}

@test "--cpunodebind runs on the node's CPUs" {
	local want
	want=$(cat /sys/devices/system/node/node0/cpulist)
	[ "$want" != 0 ] || skip "needs node 0 to have more than CPU 0"
	# Started on CPU 0 alone: only a binding that is applied widens it.
	run -0 taskset -c 0 "$NUMACTL2" -N 0 awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status
	[ "$output" = "$want" ]
	run -0 taskset -c 0 "$NUMACTL2" --cpubind=0 awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status
	[ "$output" = "$want" ]
}

@test "--physcpubind runs on the CPUs given" {
	local last
	last=$(( $(nproc) - 1 ))
	run -0 "$NUMACTL2" -C "$last" awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status
	[ "$output" = "$last" ]
	run -0 "$NUMACTL2" --physcpubind=0 awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status
	[ "$output" = 0 ]
}

@test "the command's exit status is numactl2's" {
	run -42 "$NUMACTL2" -i 0 sh -c 'exit 42'
	run -0 "$NUMACTL2" -m 0 true
	run -1 "$NUMACTL2" -m 0 false
}

@test "the command inherits stdin, stdout and the environment" {
	run -0 bash -c "echo hello | FOO=bar '$NUMACTL2' -i 0 sh -c 'read x; echo \$x \$FOO'"
	[ "$output" = "hello bar" ]
}

@test "a command that does not exist: 127" {
	run -127 --separate-stderr "$NUMACTL2" -i 0 /nonexistent/prog
	[ "$stderr" = "numactl2: failed to run '/nonexistent/prog': No such file or directory" ]
	run -127 --separate-stderr "$NUMACTL2" -m 0 no-such-command-numactl2
	[ "$stderr" = "numactl2: failed to run 'no-such-command-numactl2': No such file or directory" ]
	[ -z "$output" ]
}

@test "an optional value without '=' is the command: 127, and what was meant" {
	run -127 --separate-stderr "$NUMACTL2" --report json true
	[ "$stderr" = "numactl2: failed to run 'json': No such file or directory (did you mean --report=json?)" ]
	[ -z "$output" ]
	run -127 --separate-stderr "$NUMACTL2" -i 0 --report table
	[ "$stderr" = "numactl2: failed to run 'table': No such file or directory (did you mean --report=table?)" ]
	# After --, the command was meant.
	run -127 --separate-stderr "$NUMACTL2" --report -- json
	[ "$stderr" = "numactl2: failed to run 'json': No such file or directory" ]
	[ -d "$WI_DIR" ] || return 0	# --wait needs global weights (6.9+)
	run -127 --separate-stderr "$NUMACTL2" -w 0 --weights=0:"$(cat "$WI_DIR/node0")" --wait 5 true
	[ "$stderr" = "numactl2: failed to run '5': No such file or directory (did you mean --wait=5?)" ]
}

@test "a command that cannot run: 126" {
	printf 'echo hi\n' >"$BATS_TEST_TMPDIR/noexec"
	chmod 0644 "$BATS_TEST_TMPDIR/noexec"
	run -126 --separate-stderr "$NUMACTL2" -i 0 "$BATS_TEST_TMPDIR/noexec"
	[ "$stderr" = "numactl2: failed to run '$BATS_TEST_TMPDIR/noexec': Permission denied" ]
	run -126 --separate-stderr "$NUMACTL2" "$BATS_TEST_TMPDIR"
	[ "$stderr" = "numactl2: failed to run '$BATS_TEST_TMPDIR': Permission denied" ]
}

@test "-- ends numactl2's options" {
	run -0 "$NUMACTL2" -i 0 -- sh -c 'echo "$0"' -i
	[ "$output" = "-i" ]
}

# same_failure STATUS ARGS...: the run of ARGS and its --dry-run end the same
# way (STATUS, the same line on stderr), and the dry run prints no plan.
same_failure() {
	local status=$1 want
	shift
	run -"$status" --separate-stderr "$NUMACTL2" -i 0 "$@"
	want=$stderr
	echo "run: $want"
	[ -n "$want" ] || return 1
	run -"$status" --separate-stderr "$NUMACTL2" -i 0 --dry-run "$@"
	echo "dry run: $stderr / $output"
	[ "$stderr" = "$want" ] || return 1
	[ -z "$output" ] || return 1
}

@test "--dry-run fails as the run would: 127 not found, 126 not runnable, no command given" {
	local d=$BATS_TEST_TMPDIR
	printf 'echo hi\n' >"$d/noexec"
	chmod 0644 "$d/noexec"
	mkdir "$d/bin1" "$d/bin2"
	printf '#!/bin/sh\n' >"$d/bin1/both"
	cp "$d/bin1/both" "$d/bin2/both"
	chmod 0755 "$d/bin2/both"
	same_failure 127 /nonexistent/prog
	same_failure 127 no-such-command-numactl2
	same_failure 127 ''
	same_failure 126 "$d/noexec"
	same_failure 126 "$d"
	# execvp goes on past a file it cannot run, and says EACCES at the end.
	PATH=$d/bin1:$PATH same_failure 126 both
	PATH=$d/bin1:$d/bin2:$PATH run -0 "$NUMACTL2" -i 0 --dry-run both
	[ "${lines[2]}" = "command: both" ]
	run -1 --separate-stderr "$NUMACTL2" -i 0 --dry-run
	[ "${stderr_lines[0]}" = "numactl2: no command given" ]
	[ -z "$output" ]
}
