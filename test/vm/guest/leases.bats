#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Leases on the kernel's global weights, in the 4-node guest where the
# writes are real: a job keeps the weights it started with for as long as it
# or a process it forked lives (lease.c).

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
			grep -Eqx 'numactl2: node [0-3] weight [0-9]+ is leased by a running job \(PIDs [0-9 ]+\); this needs weight [0-9]+ there: --wait to queue, --force to override' "$dir/err.$i"
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
	printf '%s\n' "${lines[@]}" | grep -Eqx "interleave weight lease: node 0 weight 5 pids $holder [0-9]+"
}

@test "waiting: --wait queues until the holder ends and says how long" {
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
	# The holder and the sleep it runs at that moment both hold the lease.
	cat "$out.err"
	[[ "$(head -n 1 "$out.err")" =~ ^numactl2:\ waited\ [0-9]+\.[0-9]\ s\ for\ the\ lease\ on\ node\ 0\ \(weight\ 7,\ PIDs\ $holder(\ [0-9]+)*\)$ ]] || return 1
	output=$(cat "$out")
	assert_split "0 1" "2 1"
}

@test "waiting: --wait=1 gives up after a second, nothing changed" {
	hold all 0:7
	local t0=$SECONDS
	run -1 --separate-stderr numactl2 -w 0 --weights=0:2 --wait=1 true
	[ "$stderr" = "numactl2: gave up after waiting 1 s: node 0 weight 7 is still leased by a running job (PIDs $holder); this needs weight 2 there" ]
	[ $((SECONDS - t0)) -ge 1 ]
	[ "$(global_weights)" = "7 1 1 1" ]
}

@test "forced: --force overrides and names whom it overrode" {
	hold all 0:7
	run -0 --separate-stderr numactl2 -w 0 --weights=0:2 --force true
	[ "${stderr_lines[0]}" = "numactl2: --force: overrode the lease on node 0 (weight 7, PIDs $holder)" ]
	[ "$(global_weights)" = "2 1 1 1" ]
}

@test "expired: the holder exited, the weights can change" {
	run -0 numactl2 -w all --weights=0:7 true
	run -0 --separate-stderr numactl2 -w 0 --weights=0:2 cat "$WI/node0"
	[ "$output" = 2 ]
}

@test "a holder that forked a child and exited: the lease stays with the child" {
	local child
	child=$(numactl2 -w 0-3 --weights=0:6 sh -c 'sleep 60 >/dev/null 2>&1 & echo $!' 2>/dev/null)
	bg+=("$child")
	wait_for_lease 0 "$child"
	run -1 --separate-stderr numactl2 --set-global-weights=0:1
	[ "$stderr" = "$(lease_msg 0 6 "$child" 1)" ]
	kill "$child"
	# Until it has gone: kill returns before the signal has taken it.
	wait_until eval "! kill -0 $child 2>/dev/null" || return 1
	run -0 --separate-stderr numactl2 --set-global-weights=0:1
	[ "$(global_weights)" = "1 1 1 1" ]
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

@test "--show and --hardware list the live leases" {
	hold all 0:8,1:4,2:2,3:1
	run -0 numactl2 --show
	local n w=(8 4 2 1)
	for n in 0 1 2 3; do
		printf '%s\n' "${lines[@]}" | grep -qx "interleave weight lease: node $n weight ${w[n]} pids $holder"
	done
	run -0 numactl2 --hardware
	for n in 0 1 2 3; do
		printf '%s\n' "${lines[@]}" | grep -qx "interleave weight lease: node $n weight ${w[n]} pids $holder"
	done
}

@test "not root: the weights in effect need no root; others get one line saying what to do" {
	numactl2 --set-global-weights=0:3,1:2
	run -0 --separate-stderr asnobody numactl2 -w 0-1 --weights=0:3,1:2 alloc -s 8M
	[ -z "$stderr" ]
	assert_split "0 1" "3 2"
	run -1 --separate-stderr asnobody numactl2 -w 0-1 --weights=0:3,1:5 true
	[ "$stderr" = "numactl2: node 1 has global weight 2, not 5, and only root can change it: ask for the weights in effect (--weights=0:3,1:2), check with --dry-run, or have an admin run 'numactl2 --set-global-weights=0:3,1:5'" ]
	[ "$(global_weights)" = "3 2 1 1" ]
}

@test "not root: an unprivileged job's lease holds against root" {
	numactl2 --set-global-weights=0:3
	asnobody numactl2 -w 0 --weights=0:3 sleep 60 &
	holder=$!
	bg+=("$holder")
	wait_for_lease 0 "$holder"
	run -1 --separate-stderr numactl2 --set-global-weights=0:1
	[ "$stderr" = "$(lease_msg 0 3 "$holder" 1)" ]
}

# Jobs that do not keep the descriptors they inherited: the lease record
# (/dev/shm/numactl2-lease.DEV.INO.PID.START.RANDOM) holds their lease.


@test "a job that closes its descriptors keeps its lease: 0:1,1:9 is refused while 0:9,1:1 runs" {
	closer 0-1 0:9,1:1
	[ "$(ls "/proc/$holder/fd" | tr '\n' ' ')" = "0 1 2 " ]
	run -1 --separate-stderr numactl2 -w 0-1 --weights=0:1,1:9 touch "$BATS_TEST_TMPDIR/ran"
	echo "$stderr"
	[ "$stderr" = "$(lease_msg 0 9 "$holder" 1)" ]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	[ "$(global_weights)" = "9 1 1 1" ]
	run -0 numactl2 --show
	printf '%s\n' "${lines[@]}" | grep -qx "interleave weight lease: node 0 weight 9 pids $holder"
	run -0 numactl2 --hardware
	printf '%s\n' "${lines[@]}" | grep -qx "interleave weight lease: node 1 weight 1 pids $holder"
}

@test "a job that closed its descriptors, killed with SIGKILL: its lease ends" {
	closer 0-1 0:9,1:3
	record_of "$holder"
	kill -KILL "$holder"
	wait "$holder" || true
	run -0 --separate-stderr numactl2 -w 0-1 --weights=0:1,1:9 cat "$WI/node0" "$WI/node1"
	[ "$output" = $'1\n9' ]
	run -1 record_of "$holder"
}

@test "PID reuse: a record whose PID now runs with another start time is no holder" {
	local name other start
	# A job on node 0 alone: its one record names node 0's file.
	numactl2 -w 0 --weights=0:9 sleep 60 2>/dev/null &
	holder=$!
	bg+=("$holder")
	wait_for_lease 0 "$holder"
	name=$(record_of "$holder")
	kill -KILL "$holder"
	wait "$holder" || true
	sleep 60 &
	other=$!
	bg+=("$other")
	start=$(start_of "$other")
	# What a record of the process that had $other's PID before would say
	# (without the random part, as numactl2 before it wrote them).
	touch "/dev/shm/${name%.*.*.*}.$other.$((start - 1))"
	run -0 --separate-stderr numactl2 --set-global-weights=0:2
	[ "$(global_weights)" = "2 1 1 1" ]
	[ ! -e "/dev/shm/${name%.*.*.*}.$other.$((start - 1))" ]
	# With the start time it has, the same record is a holder.
	touch "/dev/shm/${name%.*.*.*}.$other.$start"
	run -1 --separate-stderr numactl2 --set-global-weights=0:3
	[ "$stderr" = "$(lease_msg 0 2 "$other" 3)" ]
	rm "/dev/shm/${name%.*.*.*}.$other.$start"
}

@test "a holder's child that keeps the descriptor outlives it: the child holds the lease" {
	local pair
	pair=$(numactl2 -w 0-1 --weights=0:6,1:2 sh -c 'sleep 60 >/dev/null 2>&1 & echo $$ $!' 2>/dev/null)
	set -- $pair
	bg+=("$2")
	wait_for_lease 1 "$2"
	run -1 --separate-stderr numactl2 -w 0-1 --weights=0:6,1:5 true
	[ "$stderr" = "$(lease_msg 1 2 "$2" 5)" ]
	run -1 record_of "$1"
}

@test "a daemon that forks twice and closes its descriptors: its lease ends when its launcher exits" {
	local f=$BATS_TEST_TMPDIR/daemon daemon
	run -0 --separate-stderr numactl2 -w 0-1 --weights=0:9,1:1 \
		bash -c "$CLOSE_ALL; (sleep 60 </dev/null >/dev/null 2>&1 & echo \$! >$f)"
	daemon=$(cat "$f")
	bg+=("$daemon")
	kill -0 "$daemon"
	[ "$(ls "/proc/$daemon/fd" | tr '\n' ' ')" = "0 1 2 " ]
	run -0 numactl2 --show
	[[ "$output" != *lease* ]] || return 1
	run -0 --separate-stderr numactl2 -w 0-1 --weights=0:1,1:9 cat "$WI/node0" "$WI/node1"
	[ "$output" = $'1\n9' ]
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

@test "--restore-weights: weights another job leases by then are left alone, and it says so" {
	local job go=$BATS_TEST_TMPDIR/go err=$BATS_TEST_TMPDIR/err
	# The first job runs until the second one holds its lease.
	numactl2 -w 0-1 --weights=0:9,1:3 --restore-weights \
		sh -c "while [ ! -e $go ]; do sleep 0.1; done" 2>"$err" &
	job=$!
	bg+=("$job")
	wait_for_lease 0 "$job"
	# A second job that wants node 0 at 9 too, and outlives the first.
	numactl2 -w 0 --weights=0:9 sleep 60 2>/dev/null &
	holder=$!
	bg+=("$holder")
	wait_for_lease 0 "$holder"
	touch "$go"
	reap "$job"
	[ "$st" -eq 0 ]
	wait_until grep -qx "numactl2: put back global interleave weights: node1 3->1" "$err" ||
		{ cat "$err"; return 1; }
	grep -qx "numactl2: left node 0 at weight 9: another job leases it now (PIDs $holder)" "$err"
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

@test "fault: the lock object cannot be removed while held (it is the sysfs file)" {
	hold all 0:6
	run rm -f "$WI/node0"
	[ "$status" -ne 0 ]
	[ -e "$WI/node0" ]
	run -1 --separate-stderr numactl2 --set-global-weights=0:1
	[ "$stderr" = "$(lease_msg 0 6 "$holder" 1)" ]
}

@test "fault: a full /run: a job's change is refused, nothing written (finding 3); a lease on the weights in effect needs no lock directory" {
	mkdir -p /run/numactl2
	mount -t tmpfs -o size=4k tmpfs /run/numactl2
	run_full=1
	dd if=/dev/zero of=/run/numactl2/fill bs=4k count=2 2>/dev/null || true
	run -1 --separate-stderr numactl2 -w 0 --weights=0:6 touch "$BATS_TEST_TMPDIR/ran"
	[[ $stderr == "numactl2: cannot keep the global table as it was in /run/numactl2 ("*"), so the job's weights could not go back after it: nothing changed (--keep-weights changes it for good)" ]] || return 1
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	[ "$(global_weights)" = "1 1 1 1" ]
	# The weights in effect change nothing, so need no baseline: the lease holds.
	hold all 0:1
	run -1 --separate-stderr numactl2 --set-global-weights=0:2
	[ "$stderr" = "$(lease_msg 0 1 "$holder" 2)" ]
}

@test "fault: a full /dev/shm: the lease is the descriptor alone, and numactl2 says so" {
	local err=$BATS_TEST_TMPDIR/err
	# One inode, the root's: no record can be created.
	mount -t tmpfs -o nr_inodes=1,mode=1777 tmpfs /dev/shm
	shm_full=1
	numactl2 -w 0 --weights=0:6 sleep 60 2>"$err" &
	holder=$!
	bg+=("$holder")
	wait_for_lease 0 "$holder"
	run -1 --separate-stderr numactl2 --set-global-weights=0:1
	[ "$stderr" = "$(lease_msg 0 6 "$holder" 1)" ]
	run -0 cat "$err"
	[ "${lines[0]}" = "numactl2: cannot record the lease in /dev/shm: No space left on device; it holds only while the job keeps the descriptors it inherited open" ]
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
