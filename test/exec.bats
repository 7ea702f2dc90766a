#!/usr/bin/env bats
# Running the command: the policy it runs under (from its own numa_maps and
# /proc/self/status), its exit status, and the exec failures 127 and 126.

load helpers

# The policy text of the exec'd program's heap line in numa_maps.
heap_policy() {
	run -0 "$NUMACTL2" "$@" awk '/ heap / { sub(/^[0-9a-f]+ /, ""); sub(/ heap .*/, ""); print; exit }' /proc/self/numa_maps
	echo "$output"
}

@test "without a policy the command runs under the default policy" {
	[ "$(heap_policy)" = "default" ]
}

@test "--interleave" {
	[ "$(heap_policy -i 0)" = "interleave:0" ]
	[ "$(heap_policy --interleave=all)" = "interleave:0" ]
	[ "$(heap_policy -a -i all)" = "interleave:0" ]
	[ "$(heap_policy -i +0)" = "interleave:0" ]
}

@test "--weighted-interleave: the policy string with its space" {
	[ "$(heap_policy -w 0)" = "weighted interleave:0" ]
	[ "$(heap_policy -w -i all)" = "weighted interleave:0" ]
}

@test "--membind, with and without --balancing" {
	[ "$(heap_policy -m 0)" = "bind:0" ]
	[ "$(heap_policy --membind=0 -b)" = "bind=balancing:0" ]
}

@test "--preferred and --preferred-many" {
	[ "$(heap_policy -p 0)" = "prefer:0" ]
	[ "$(heap_policy -P 0)" = "prefer (many):0" ]
	[ "$(heap_policy -b -P 0)" = "prefer (many)=balancing:0" ]
}

@test "--localalloc" {
	[ "$(heap_policy -l)" = "local" ]
}

@test "--cpunodebind runs on the node's CPUs" {
	local want
	want=$(cat /sys/devices/system/node/node0/cpulist)
	run -0 "$NUMACTL2" -N 0 awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status
	[ "$output" = "$want" ]
	run -0 "$NUMACTL2" --cpubind=0 awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status
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
