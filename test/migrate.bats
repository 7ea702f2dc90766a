#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --pid=PID --migrate on the host: the option's usage errors, and on a
# kernel without the calls, the --pid error, nothing changed. The plan and
# the mappings are test/migrate-plan.bats'; the guest
# (test/vm/guest/migrate.bats) moves a running job's pages.

load helpers

setup() {
	before=$(wi_snapshot)
}

bad_usage() {
	refused --usage --unchanged wi_snapshot "$before" "$1" "$NUMACTL2" "${@:2}"
}

# Where PID's anonymous pages are: its numa_maps but files, without the
# counts that other processes and the LRU change (mapmax=, active=).
placement() {
	sed -n '/ file=/!s/ \(mapmax\|active\)=[0-9]*//gp' "/proc/$1/numa_maps"
}

@test "--migrate: --help lists it" {
	run -0 "$NUMACTL2" --help
	[[ $output == *"      --migrate               with --pid and a policy"* ]]
}

@test "--migrate: only with --pid and a policy" {
	bad_usage "numactl2: --migrate needs --pid=PID and a policy" --migrate -w 0 true
	bad_usage "numactl2: --migrate needs --pid=PID and a policy" --migrate -w 0
	bad_usage "numactl2: --migrate needs --pid=PID and a policy" --show --pid=$$ --migrate
	bad_usage "numactl2: --pid needs a policy to set, or --show" --pid=$$ --migrate
	bad_usage "numactl2: option '--migrate' doesn't allow an argument" --pid=$$ --migrate=1 -w 0
}

@test "--migrate: not with a policy that names no node" {
	bad_usage "numactl2: --migrate needs a policy with nodes to move pages to (not --localalloc)" \
		--pid=$$ --localalloc --migrate
}

@test "--migrate: a kernel without the calls: the --pid error, nothing changed" {
	[ ! -e /sys/kernel/mm/mempolicy/syscalls ] || skip "this kernel lists the calls"
	local msg="numactl2: --pid needs a kernel with set_mempolicy2 and get_mempolicy2, which no released Linux has (numactl2(8), KERNELS): this kernel does not list them in /sys/kernel/mm/mempolicy/syscalls; nothing changed"
	local job maps
	sleep 60 &
	job=$!
	# Until sleep sleeps (blocked in clock_nanosleep, x86-64's call 230):
	# while it starts, its loader and libc still fault pages in, and two
	# looks at its numa_maps would differ with nothing moved.
	wait_until eval '[ "$(cut -d" " -f1 /proc/$job/syscall)" = 230 ]' || return 1
	maps=$(placement $job)
	refused --unchanged wi_snapshot "$before" "$msg" "$NUMACTL2" --pid=$job -w 0 --weights=0:3 --migrate
	refused --unchanged wi_snapshot "$before" "$msg" "$NUMACTL2" --pid=$job --membind=0 --migrate
	[ "$(placement $job)" = "$maps" ]
	kill $job
}
