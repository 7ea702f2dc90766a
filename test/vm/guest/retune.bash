# SPDX-License-Identifier: GPL-2.0-or-later
# A running job for --pid and --migrate (pid.bats, migrate.bats): retune
# (test/vm/retune.c) under numactl2, in the background, its batches
# counted exactly with move_pages; and the global weights those tests set
# (3 5 7 9, asked for by none of them), which must not change.

# Global weights no test asks for (but for -w alone): a change would show.
retune_setup() {
	reset_weights
	numactl2 --set-global-weights=0:3,1:5,2:7,3:9
	bg_pids=
}

retune_teardown() {
	local p
	for p in ${bg_pids:-}; do kill "$p" 2>/dev/null || true; done
	reset_weights
}

assert_global_unchanged() {
	[ "$(global_weights)" = "3 5 7 9" ] || return 1
}

# start_retune NUMACTL2-ARGS... -- RETUNE-ARGS...: numactl2 ARGS retune
# RETUNE-ARGS READYFILE in the background; $job is its pid once retune
# says it is ready (its batch 1 in place).
start_retune() {
	local args=() i
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		args+=("$1")
		shift
	done
	shift
	numactl2 "${args[@]}" retune "$@" "$BATS_TEST_TMPDIR/ready" >"$BATS_TEST_TMPDIR/out" 2>&1 &
	bg_pids+=" $!"
	wait_until [ -e "$BATS_TEST_TMPDIR/ready" ] || return 1
	job=$(cat "$BATS_TEST_TMPDIR/ready") || return 1
}

# start_job NUMACTL2-ARGS...: retune $npages (100) pages; with bound=1,
# retune -m: as many more mbind'ed to node 3.
start_job() {
	start_retune "$@" -- ${bound:+-m} "${npages:-100}"
}

# show_until PATTERN [PID]: --show --pid=PID (the job's) until its output
# has PATTERN (the task installs the policy on its next return to user
# space), for wait_until's bound (test/lib/wait.bash says why).
show_until() {
	local pid=${2:-$job}
	wait_until show_has "$pid" "$1" || { echo "$output"; return 1; }
}

# show_has PID PATTERN: --show --pid=PID's output has PATTERN.
show_has() {
	run -0 numactl2 --show --pid="$1"
	[[ $output == *"$2"* ]]
}

# finish_job: let the job allocate batch 2 and end; $output is what it
# printed. Not under run: wait needs the job as this shell's child.
finish_job() {
	kill -USR1 "$job"
	wait "$job" || true
	output=$(cat "$BATS_TEST_TMPDIR/out")
	echo "$output"
}
