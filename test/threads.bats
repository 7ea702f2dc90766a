#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# policy/threads.c, which --pid uses to reach every thread of a process:
# each thread visited once, threads started during the walk found, an
# exited one passed over, a failing one named, a process that is gone.

load helpers

THREADS_DRIVER=${THREADS_DRIVER:-$BATS_TEST_DIRNAME/../build/test/threads_driver}
RETUNE=${RETUNE:-$BATS_TEST_DIRNAME/../build/test/retune}

setup() {
	bg_pid=
}

teardown() {
	[ -z "$bg_pid" ] || kill "$bg_pid" 2>/dev/null || true
}

# start_threads: retune with 4 threads in the background; $job is its pid.
start_threads() {
	start_retune_threads 4
}

@test "threads: every thread but the main one, each once" {
	start_threads
	run -0 "$THREADS_DRIVER" "$job"
	[ "${lines[-1]}" = "rc=0 failed=0" ]
	[ "$(printf '%s\n' "${lines[@]:0:${#lines[@]}-1}" | sort)" = \
	  "$(ls "/proc/$job/task" | grep -vx "$job" | sort)" ]
	[ "${#lines[@]}" -eq 4 ]
}

@test "threads: threads started during the walk are visited too" {
	run -0 "$THREADS_DRIVER" -spawn 5
	[ "${lines[-1]}" = "rc=0 failed=0" ]
	# the thread started first, then the 5 its visits started
	[ "${#lines[@]}" -eq 7 ]
	[ "$(printf '%s\n' "${lines[@]:0:6}" | sort -u | wc -l)" -eq 6 ]
}

@test "threads: a visit that fails stops the walk and names its thread" {
	local tid
	start_threads
	tid=$(ls "/proc/$job/task" | grep -vx "$job" | head -n 1)
	run -0 "$THREADS_DRIVER" "$job" "$tid"
	[ "${lines[-1]}" = "rc=-1 failed=$tid" ]
}

@test "threads: a process that is gone is -ESRCH" {
	true &
	local gone=$!
	wait "$gone"
	run -0 "$THREADS_DRIVER" "$gone"
	[ "$output" = "rc=-3 failed=0" ]
}

@test "threads: the process of a thread, of a main thread, of a pid that is gone" {
	local tid
	start_threads
	tid=$(ls "/proc/$job/task" | grep -vx "$job" | head -n 1)
	run -0 "$THREADS_DRIVER" -tgid "$tid"
	[ "$output" = "$job" ]
	run -0 "$THREADS_DRIVER" -tgid "$job"
	[ "$output" = "$job" ]
	run -0 "$THREADS_DRIVER" -tgid 4194304
	[ "$output" = 4194304 ]
}
