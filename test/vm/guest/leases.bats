#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Holds on the kernel's global weights, in the 4-node guest where the
# writes are real and no numactl2d runs: root's numactl2 is the table's
# owner for each ask (lib/owner/once.c), and a job keeps the weights it
# started with for as long as it lives. Sets of one node hold nothing (no
# weight moves a page there): each job here names two nodes or more.

load common

setup_file() {
	# Exact 4 KiB splits; and nobody (asnobody) must reach the programs:
	# the initramfs root comes from mktemp -d, mode 0700.
	thp never
	chmod 755 /
}

setup() {
	reset_weights
	bg=()
	shm_full=
	run_full=
}

teardown() {
	local p
	for p in "${bg[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
	for p in "${bg[@]}"; do wait "$p" 2>/dev/null || true; done
	umount "$WI/node2" 2>/dev/null || true
	# The full /dev/shm or /run/numactl2 a test mounted over the real one:
	# gone even when the test failed half way, so no later test inherits it.
	[ -z "$shm_full" ] || umount /dev/shm
	[ -z "$run_full" ] || umount /run/numactl2
	reset_weights
}

# child_of PID: the pid of a child of PID (busybox here has no pgrep).
child_of() {
	local s ppid
	for s in /proc/[0-9]*/stat; do
		read -r _ _ _ ppid _ <"$s" 2>/dev/null || continue
		[ "$ppid" = "$1" ] || continue
		s=${s#/proc/}
		echo "${s%/stat}"
		return 0
	done
	return 1
}

# reap PID: waits (60 s at most) for background process PID and sets $st to
# its status; on timeout shows where it is stuck and fails.
reap() {
	local end=$((SECONDS + 60)) p
	while kill -0 "$1" 2>/dev/null && [ "$SECONDS" -lt "$end" ]; do sleep 0.1; done
	if kill -0 "$1" 2>/dev/null; then
		for p in "$1" $(child_of "$1"); do
			echo "pid $p: $(tr '\0' ' ' </proc/$p/cmdline) wchan=$(cat /proc/$p/wchan)"
			cat /proc/$p/stack 2>/dev/null
			ls -l /proc/$p/fd
		done
		cat /proc/locks
		return 1
	fi
	st=0
	wait "$1" || st=$?
}

# The job of the 20-job test: reads the table before and after allocating,
# so that a change under it in between would show.
JOB='w() { local n o=; for n in 0 1 2 3; do o+="${o:+ }$(cat '"$WI"'/node$n)"; done; echo "weights: $o"; }
w; alloc -s 8M; sleep 0.2; w'

@test "20 jobs at once, each with its own full weight set: each runs under exactly its set or fails with the lease message" {
	local i dir=$BATS_TEST_TMPDIR set want ran=0 refused=0 st
	for i in $(seq 1 20); do
		set="0:$i,1:$((21 - i)),2:$((i % 5 + 1)),3:$((i % 3 + 1))"
		echo "$set" >"$dir/set.$i"
		numactl2 -w all --weights="$set" bash -c "$JOB" >"$dir/out.$i" 2>"$dir/err.$i" &
		bg+=($!)
		echo $! >"$dir/pid.$i"
	done
	for i in $(seq 1 20); do
		st=0
		wait "$(cat "$dir/pid.$i")" || st=$?
		echo "job $i ($(cat "$dir/set.$i")): status $st"
		want="$i $((21 - i)) $((i % 5 + 1)) $((i % 3 + 1))"
		if [ "$st" -eq 0 ]; then
			output=$(cat "$dir/out.$i")
			[ "$(grep -c '^weights: ' <<<"$output")" -eq 2 ]
			[ "$(grep '^weights: ' <<<"$output" | sort -u)" = "weights: $want" ]
			assert_split "0 1 2 3" "$want"
			ran=$((ran + 1))
		else
			cat "$dir/err.$i"
			[ "$st" -eq 1 ]
			[ ! -s "$dir/out.$i" ]
			[ "$(wc -l <"$dir/err.$i")" -eq 1 ]
			grep -Eqx 'numactl2: node [0-3] is held at weight [0-9]+ by PID [0-9]+ \([^)]*\); this needs weight [0-9]+ there: --wait to queue, --force to override' "$dir/err.$i"
			refused=$((refused + 1))
		fi
	done
	echo "# 20 jobs: $ran ran under their own set, $refused refused by a lease" >&3
	[ "$ran" -ge 1 ]
	[ $((ran + refused)) -eq 20 ]
}

@test "conflicting: another weight for a leased node fails before anything changes" {
	hold all 0:9,1:3
	run -1 --separate-stderr numactl2 -w 0-1 --weights=0:9,1:4 touch "$BATS_TEST_TMPDIR/ran"
	echo "$stderr"
	[ "$stderr" = "$(lease_msg 1 3 "$holder" 4)" ]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	[ "$(global_weights)" = "9 3 1 1" ]
}

@test "compatible: the same weights share the lease; no write, exact split" {
	hold all 0:5,1:2,2:1,3:1
	run -0 --separate-stderr numactl2 -w 0-2 --weights=0:5,1:2,2:1 alloc -s 16M
	[ -z "$stderr" ]
	assert_split "0 1 2" "5 2 1"
	run -0 --separate-stderr numactl2 -w 0-1 --weights=0:5,1:2 numactl2 --show
	printf '%s\n' "${lines[@]}" | grep -qx "interleave weight holder: pid $holder user root command sleep weights 0:5,1:2,2:1,3:1"
}

@test "waiting: --wait queues until the holder ends" {
	local go=$BATS_TEST_TMPDIR/go out=$BATS_TEST_TMPDIR/out waiter
	numactl2 -w all --weights=0:7 sh -c "while [ ! -e $go ]; do sleep 0.1; done" 2>/dev/null &
	holder=$!
	bg+=("$holder")
	wait_for_lease 0 "$holder"
	numactl2 -w 0-1 --weights=0:2,1:1 --wait alloc -s 16M >"$out" 2>"$out.err" &
	waiter=$!
	bg+=("$waiter")
	sleep 1
	# Still queued, and nothing changed.
	kill -0 "$waiter"
	[ "$(global_weights)" = "7 1 1 1" ]
	touch "$go"
	reap "$waiter"
	[ "$st" -eq 0 ]
	cat "$out.err"
	# The holder's end put node 0 back (7->1) before the waiter's change.
	[[ "$(head -n 1 "$out.err")" == "numactl2: changed global interleave weights: node0 1->2"* ]] || return 1
	output=$(cat "$out")
	assert_split "0 1" "2 1"
}

@test "waiting: --wait=1 gives up after a second, nothing changed" {
	hold all 0:7
	local t0=$SECONDS
	run -1 --separate-stderr numactl2 -w 0,1 --weights=0:2 --wait=1 true
	[ "$stderr" = "numactl2: gave up after waiting 1 s: node 0 is held at weight 7 by PID $holder (sleep, uid 0); this needs weight 2 there" ]
	[ $((SECONDS - t0)) -ge 1 ]
	[ "$(global_weights)" = "7 1 1 1" ]
}

@test "forced: --force overrides; the holder holds the new weight" {
	hold all 0:7
	run -0 --separate-stderr numactl2 -w 0,1 --weights=0:2 --force true
	[ "$(global_weights)" = "2 1 1 1" ]
	run -0 numactl2 --show
	printf '%s\n' "${lines[@]}" | grep -qx "interleave weight holder: pid $holder user root command sleep weights 0:2,1:1,2:1,3:1"
}

@test "expired: the holder exited, the weights can change" {
	run -0 numactl2 -w all --weights=0:7 true
	run -0 --separate-stderr numactl2 -w 0,1 --weights=0:2 cat "$WI/node0"
	[ "$output" = 2 ]
}

@test "a holder that forked a child and exited: the hold ends with it, the table goes back" {
	local child
	child=$(numactl2 -w 0-3 --weights=0:6 sh -c 'sleep 60 >/dev/null 2>&1 & echo $!' 2>/dev/null)
	bg+=("$child")
	wait_for_weights "1 1 1 1"
	run -0 --separate-stderr numactl2 --set-global-weights=0:2
	[ "$(global_weights)" = "2 1 1 1" ]
}

@test "a holder killed with SIGKILL: its lease ends" {
	hold all 0:6,3:4
	kill -KILL "$holder"
	wait "$holder" || true
	run -0 --separate-stderr numactl2 --reset-global-weights
	[ "$(global_weights)" = "1 1 1 1" ]
}

@test "--reset-global-weights and --set-global-weights respect leases" {
	hold all 0:4,2:3
	run -1 --separate-stderr numactl2 --reset-global-weights
	[ "$stderr" = "$(lease_msg 0 4 "$holder" 1)" ]
	run -1 --separate-stderr numactl2 --set-global-weights=2:1
	[ "$stderr" = "$(lease_msg 2 3 "$holder" 1)" ]
	[ "$(global_weights)" = "4 1 3 1" ]
}

@test "--show and --hardware list the live holders" {
	hold all 0:8,1:4,2:2,3:1
	run -0 numactl2 --show
	printf '%s\n' "${lines[@]}" | grep -qx "interleave weight holder: pid $holder user root command sleep weights 0:8,1:4,2:2,3:1"
	run -0 numactl2 --hardware
	printf '%s\n' "${lines[@]}" | grep -qx "interleave weight holder: pid $holder user root command sleep weights 0:8,1:4,2:2,3:1"
}

@test "not root: the weights in effect need no root; others get one line saying what to do" {
	numactl2 --set-global-weights=0:3,1:2
	run -0 --separate-stderr asnobody numactl2 -w 0-1 --weights=0:3,1:2 alloc -s 8M
	[ -z "$stderr" ]
	assert_split "0 1" "3 2"
	run -1 --separate-stderr asnobody numactl2 -w 0-1 --weights=0:3,1:5 true
	[ "$stderr" = "numactl2: node 1 has global weight 2, not 5, and only root can change it, or numactl2d where an admin runs it (numactl2d(8)): ask for the weights in effect (--weights=0:3,1:2), check with --dry-run, or have an admin run 'numactl2 --set-global-weights=0:3,1:5'" ]
	[ "$(global_weights)" = "3 2 1 1" ]
}

@test "not root, no numactl2d: the weights in effect, held by nobody; the user's files decide nothing" {
	numactl2 --set-global-weights=0:3
	asnobody numactl2 -w 0,1 --weights=0:3 sleep 60 &
	holder=$!
	bg+=("$holder")
	wait_for_comm "$holder" sleep
	# Only the table's owner holds weights; a user has none to ask here.
	run -0 numactl2 --show
	[[ $output != *"interleave weight holder: pid $holder "* ]] || return 1
	# Any user's flock on the table's directory or a node file holds nobody.
	asnobody flock "$WI" sleep 60 &
	bg+=("$!")
	asnobody flock -s "$WI/node0" sleep 60 &
	bg+=("$!")
	sleep 0.5
	run -0 --separate-stderr timeout 30 numactl2 --set-global-weights=0:1
	[ "$(global_weights)" = "1 1 1 1" ]
}

# --restore-weights.

@test "--restore-weights: the job's own status, and the table back after it exits" {
	local err=$BATS_TEST_TMPDIR/err st=0
	numactl2 --set-global-weights=0:2,1:2,2:2,3:2
	numactl2 -w all --weights=0:8,1:4,2:2,3:1 --restore-weights \
		bash -c 'alloc -s 8M; exit 5' >"$BATS_TEST_TMPDIR/out" 2>"$err" || st=$?
	[ "$st" -eq 5 ]
	output=$(cat "$BATS_TEST_TMPDIR/out")
	assert_split "0 1 2 3" "8 4 2 1"
	# The watcher puts the table back once the job has gone: after it.
	wait_for_weights "2 2 2 2"
	wait_until grep -qx "numactl2: put back global interleave weights: node0 8->2, node1 4->2, node3 1->2" "$err" ||
		{ cat "$err"; return 1; }
}

@test "--restore-weights: the table is back when numactl2 returns, read right after, 30 times" {
	local i st w0 w1
	# setup()'s reset: every weight 1. Read with the shell's own read, no
	# fork: at once, as a script's next command would.
	for i in $(seq 30); do
		st=0
		numactl2 -w 0,1 --weights=0:5,1:2 --restore-weights sh -c 'exit 7' 2>/dev/null || st=$?
		read -r w0 <"$WI/node0"
		read -r w1 <"$WI/node1"
		[ "$st" -eq 7 ] || return 1
		[ "$w0 $w1" = "1 1" ] || { echo "run $i: $w0 $w1 right after, not 1 1"; return 1; }
	done
}

@test "--restore-weights: the table back after the job is killed (128 + SIGKILL)" {
	local job
	numactl2 -w 0-1 --weights=0:9,1:3 --restore-weights sleep 60 2>"$BATS_TEST_TMPDIR/err" &
	job=$!	# numactl2 execs the job: its PID is the job's
	bg+=("$job")
	wait_for_comm "$job" sleep
	[ "$(global_weights)" = "9 3 1 1" ]
	kill -KILL "$job"
	reap "$job"
	[ "$st" -eq 137 ]
	wait_for_weights "1 1 1 1"
}

@test "--restore-weights: weights another job holds by then are left alone, and it says so" {
	local job go=$BATS_TEST_TMPDIR/go err=$BATS_TEST_TMPDIR/err
	# The first job runs until the second one holds its lease.
	numactl2 -w 0-1 --weights=0:9,1:3 --restore-weights \
		sh -c "while [ ! -e $go ]; do sleep 0.1; done" 2>"$err" &
	job=$!
	bg+=("$job")
	wait_for_lease 0 "$job"
	# A second job that wants node 0 at 9 too, and outlives the first.
	numactl2 -w 0,2 --weights=0:9 sleep 60 2>/dev/null &
	holder=$!
	bg+=("$holder")
	wait_for_lease 0 "$holder"
	touch "$go"
	reap "$job"
	[ "$st" -eq 0 ]
	wait_until grep -qx "numactl2: put back global interleave weights: node1 3->1" "$err" ||
		{ cat "$err"; return 1; }
	grep -qx "numactl2: left global interleave weights: node0 at 9 (was 1: another job holds it, or it changed since)" "$err"
	[ "$(global_weights)" = "9 1 1 1" ]
}

# Faults.

@test "fault: a read-only bind mount over node2: the change fails before any write" {
	mount --bind "$WI/node2" "$WI/node2"
	mount -o remount,ro,bind "$WI/node2"
	run -1 --separate-stderr numactl2 -w all --weights=0:5,1:4,2:3,3:2 touch "$BATS_TEST_TMPDIR/ran"
	echo "$stderr"
	[ "$stderr" = "numactl2: cannot change global interleave weight of node 2 (none changed): Read-only file system" ]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	[ "$(global_weights)" = "1 1 1 1" ]
	# Keeping node 2's weight needs no write there: the run goes ahead.
	run -0 --separate-stderr numactl2 -w all --weights=0:5,1:4,2:1,3:2 alloc -s 8M
	assert_split "0 1 2 3" "5 4 1 2"
}

@test "fault: a full /run: a job's change is refused, nothing written (finding 3)" {
	mkdir -p /run/numactl2
	# Root's, as systemd's RuntimeDirectory= makes it: only full.
	mount -t tmpfs -o size=4k,mode=755 tmpfs /run/numactl2
	run_full=1
	dd if=/dev/zero of=/run/numactl2/fill bs=4k count=2 2>/dev/null || true
	run -1 --separate-stderr numactl2 -w 0,1 --weights=0:6 touch "$BATS_TEST_TMPDIR/ran"
	[ "$stderr" = "numactl2: cannot save /run/numactl2 (No space left on device): nothing changed" ]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	[ "$(global_weights)" = "1 1 1 1" ]
}

@test "fault: a full /dev/shm changes nothing: holds are in the owner's state (finding 4)" {
	local err=$BATS_TEST_TMPDIR/err
	# One inode, the root's: no record can be created.
	mount -t tmpfs -o nr_inodes=1,mode=1777 tmpfs /dev/shm
	shm_full=1
	numactl2 -w 0,1 --weights=0:6 sleep 60 2>"$err" &
	holder=$!
	bg+=("$holder")
	wait_for_lease 0 "$holder"
	run -1 --separate-stderr numactl2 --set-global-weights=0:1
	[ "$stderr" = "$(lease_msg 0 6 "$holder" 1)" ]
	run -0 cat "$err"
	[ "$output" = "numactl2: changed global interleave weights: node0 1->6$AFTER_JOB" ]
}

@test "bad input for the new options: exit 1, a clear message, nothing changed" {
	local args
	for args in "--wait=0" "--wait=x" "--wait=604801" "--force --wait" "--force=1" "--wait="; do
		# shellcheck disable=SC2086
		run -1 --separate-stderr numactl2 -w all --weights=0:9 $args touch "$BATS_TEST_TMPDIR/ran"
		echo "$args: $stderr"
		[[ "${stderr_lines[0]}" == numactl2:* ]] || return 1
		[ ! -e "$BATS_TEST_TMPDIR/ran" ]
		[ "$(global_weights)" = "1 1 1 1" ]
	done
}
