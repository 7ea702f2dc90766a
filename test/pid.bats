#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --pid=PID on the host: the option's parsing and every refusal (exit 1, a
# clear message, nothing changed). The host kernel has no set_mempolicy2, so
# a --pid that gets as far as the kernel is refused for that; the guest
# (test/vm/guest/pid.bats) retunes a running job.

load helpers

RETUNE=${RETUNE:-$BATS_TEST_DIRNAME/../build/test/retune}

setup() {
	before=$(wi_snapshot)
	bg_pid=
}

teardown() {
	[ -z "$bg_pid" ] || kill "$bg_pid" 2>/dev/null || true
}

bad_input() {
	refused --unchanged wi_snapshot "$before" "$1" "$NUMACTL2" "${@:2}"
}

bad_usage() {
	refused --usage --unchanged wi_snapshot "$before" "$1" "$NUMACTL2" "${@:2}"
}

@test "--pid: --help lists it and the usage line" {
	run -0 "$NUMACTL2" --help
	[[ $output == *"--pid=PID policy | --show --pid=PID"* ]]
	[[ $output == *"      --pid=PID"* ]]
}

@test "--pid: not a process id" {
	bad_usage "numactl2: invalid --pid: 'abc' (a process id, 1-4194304)" --pid=abc -w 0
	bad_usage "numactl2: invalid --pid: '0' (a process id, 1-4194304)" --pid=0 -w 0
	bad_usage "numactl2: invalid --pid: '-5' (a process id, 1-4194304)" --pid=-5 -w 0
	bad_usage "numactl2: invalid --pid: '4194305' (a process id, 1-4194304)" --pid=4194305 -w 0
	bad_usage "numactl2: invalid --pid: '' (a process id, 1-4194304)" --pid= -w 0
}

@test "--pid: given twice" {
	bad_usage "numactl2: --pid given twice" --pid=1 --pid=2 -w 0
}

@test "--pid: with a command to run" {
	bad_usage "numactl2: --pid changes a running process: it runs no command" --pid=$$ -w 0 true
}

@test "--pid: without a policy or --show" {
	bad_usage "numactl2: --pid needs a policy to set, or --show" --pid=$$
	bad_usage "numactl2: --pid needs a policy to set, or --show" --pid=$$ --weights=0:2
}

@test "--pid: a policy and --show together" {
	bad_usage "numactl2: --pid takes a policy or --show, not both" --pid=$$ --show -w 0
}

@test "--pid: options it does not take" {
	bad_usage "numactl2: options --pid and --hardware cannot be combined" --pid=$$ --hardware
	bad_usage "numactl2: options --pid and --cpunodebind/--physcpubind cannot be combined" \
		--pid=$$ -N 0 -w 0
	bad_usage "numactl2: options --pid and --report cannot be combined" --pid=$$ --report -w 0
	bad_usage "numactl2: options --pid and --restore-weights cannot be combined" \
		--pid=$$ --restore-weights -w 0
	bad_usage "numactl2: options --pid and --dry-run cannot be combined" --pid=$$ --dry-run -w 0
	bad_usage "numactl2: options --pid and --global-weights cannot be combined" \
		--pid=$$ --global-weights -w 0 --weights=0:2
	bad_usage "numactl2: options --pid and --shm/--file cannot be combined" \
		--pid=$$ --file=/dev/null -w 0
	bad_usage "numactl2: options --pid and the global weight options cannot be combined" \
		--pid=$$ --reset-global-weights
	bad_usage "numactl2: options --pid and --wait/--force cannot be combined" --pid=$$ --force -w 0
}

@test "--pid: the policy is checked as for a command (weights outside the set)" {
	run --separate-stderr "$NUMACTL2" --pid=$$ -w 0 --weights=5:2
	[ "$status" -eq 1 ]
	[[ $stderr == *"5"* ]]
	[ "$(wi_snapshot)" = "$before" ]
}

@test "--pid: no such process" {
	bad_input "numactl2: --pid=4194304: no such process" --pid=4194304 -w 0 --weights=0:3
	bad_input "numactl2: --pid=4194304: no such process" --show --pid=4194304
}

# start_threads: retune with 3 threads; $thread the id of one other than
# its main one.
start_threads() {
	start_retune_threads 3
	thread=$(ls "/proc/$job/task" | grep -vx "$job" | head -n 1)
	[ -n "$thread" ]
}

@test "--pid: a kernel without the calls: exit 1, nothing changed" {
	[ ! -e /sys/kernel/mm/mempolicy/syscalls ] || skip "this kernel lists the calls"
	local msg="numactl2: --pid needs a kernel with set_mempolicy2 and get_mempolicy2, which no released Linux has (numactl2(8), KERNELS): this kernel does not list them in /sys/kernel/mm/mempolicy/syscalls; nothing changed"
	bad_input "$msg" --pid=$$ -w 0 --weights=0:3
	bad_input "$msg" --show --pid=$$
	bad_input "$msg" --pid=$$ --membind=0
}

@test "--pid: a thread or a process with threads, on a kernel without the calls: the same refusal" {
	[ ! -e /sys/kernel/mm/mempolicy/syscalls ] || skip "this kernel lists the calls"
	local msg="numactl2: --pid needs a kernel with set_mempolicy2 and get_mempolicy2, which no released Linux has (numactl2(8), KERNELS): this kernel does not list them in /sys/kernel/mm/mempolicy/syscalls; nothing changed"
	start_threads
	bad_input "$msg" --pid="$job" -w 0 --weights=0:3
	# a thread other than the main one is named by its own pidfd
	bad_input "$msg" --pid="$thread" -w 0 --weights=0:3
	bad_input "$msg" --show --pid="$thread"
}
