# SPDX-License-Identifier: GPL-2.0-or-later
# A process with threads for the --pid tests on the host (test/pid.bats,
# test/threads.bats): build/test/retune -t N (test/vm/retune.c) in the
# background, one page per thread.

# start_retune_threads N: $job is its pid once every thread has its page,
# $bg_pid the background job to kill.
start_retune_threads() {
	"$RETUNE" -t "$1" 1 "$BATS_TEST_TMPDIR/ready" >/dev/null &
	bg_pid=$!
	wait_until [ -e "$BATS_TEST_TMPDIR/ready" ] || return 1
	job=$(cat "$BATS_TEST_TMPDIR/ready")
}
