#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Leases on global weights, on the host: always on a copy of the table
# (NUMACTL2_SYSFS_WI), never the real one. The host has one node, so the
# jobs run on node 0; the admin options use a four-node copy. The real
# table, with real writes, is tested in the 4-node guest (vm/guest/leases.bats).

load helpers

setup() {
	WI=$(fake_wi_dir 0 1 2 3)
	export NUMACTL2_SYSFS_WI=$WI
	# The lease records (lib/weights/record.c) of this test, in a directory
	# like /dev/shm: root's, mode 1777, so that nobody can record too.
	LEASES=$(mktemp -d /tmp/numactl2-records.XXXXXX)
	chmod 1777 "$LEASES"
	export NUMACTL2_LEASE_DIR=$LEASES
	bg=()
}

teardown() {
	local p
	for p in "${bg[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${bg[@]}"; do wait "$p" 2>/dev/null || true; done
	rm -rf "$LEASES"
}

w() { cat "$WI/node$1"; }

# The host is quick: a lease not there after 5 s (wait_for_lease, in
# test/lib/lease.bash) will not come.
LEASE_WAIT=5

@test "a job leases its weights: another weight for its node fails before anything changes" {
	hold 0 0:9
	run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 touch "$BATS_TEST_TMPDIR/ran"
	echo "$stderr"
	[ "$stderr" = "$(lease_msg 0 9 "$holder" 5)" ]
	[ -z "$output" ]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	[ "$(w 0)" = 9 ]
}

@test "the same weights share the lease: no write, both listed" {
	hold 0 0:9
	# Any write to node 0 would fail: the run proves nothing was written.
	NUMACTL2_TEST_FAIL_NODE=0 run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:9 "$NUMACTL2" --show
	[ -z "$stderr" ]
	[[ "$output" == *"interleave weight lease: node 0 weight 9 pids $holder "[0-9]* ]] || return 1
	[ "$(w 0)" = 9 ]
}

@test "compare before writing: the weights already in the table are not written" {
	echo 4 >"$WI/node0"
	NUMACTL2_TEST_FAIL_NODE=0 run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:4 cat "$WI/node0"
	[ "$output" = 4 ]
	[ -z "$stderr" ]
	NUMACTL2_TEST_FAIL_NODE=0 run -0 --separate-stderr "$NUMACTL2" --set-global-weights=0:4
	[ -z "$stderr" ]
	NUMACTL2_TEST_FAIL_NODE=0 run -1 --separate-stderr "$NUMACTL2" --set-global-weights=0:5
	[ "$(w 0)" = 4 ]
}

@test "--wait=SECONDS gives up with the lease message after that long" {
	hold 0 0:9
	local t0=$SECONDS
	run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 --wait=1 true
	echo "$stderr"
	[ "$stderr" = "numactl2: gave up after waiting 1 s: node 0 weight 9 is still leased by a running job (PIDs $holder); this needs weight 5 there" ]
	[ $((SECONDS - t0)) -ge 1 ]
	[ "$(w 0)" = 9 ]
}

@test "--wait queues until the holder ends, then says how long it waited" {
	# The table at 9 before the holder: nothing goes back when it ends.
	"$NUMACTL2" --set-global-weights=0:9 2>/dev/null
	hold 0 0:9 2
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 --wait cat "$WI/node0"
	echo "$stderr"
	[ "$output" = 5 ]
	[[ "${stderr_lines[0]}" =~ ^numactl2:\ waited\ [0-9]+\.[0-9]\ s\ for\ the\ lease\ on\ node\ 0\ \(weight\ 9,\ PIDs\ $holder\)$ ]] || return 1
	[ "${stderr_lines[1]}" = "numactl2: changed global interleave weights: node0 9->5$AFTER_JOB" ]
}

@test "--force overrides a lease and names whom it overrode" {
	hold 0 0:9
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 --force cat "$WI/node0"
	[ "$output" = 5 ]
	[ "${stderr_lines[0]}" = "numactl2: --force: overrode the lease on node 0 (weight 9, PIDs $holder)" ]
	[ "${stderr_lines[1]}" = "numactl2: changed global interleave weights: node0 9->5$AFTER_JOB" ]
}

@test "an expired lease (the holder exited) is no obstacle" {
	run -0 "$NUMACTL2" -w 0 --weights=0:9 true
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 cat "$WI/node0"
	[ "$output" = 5 ]
}

@test "a holder that forked a child and exited: the child keeps the lease" {
	local child
	child=$("$NUMACTL2" -w 0 --weights=0:9 sh -c 'sleep 30 >/dev/null 2>&1 & echo $!' 2>/dev/null)
	bg+=("$child")
	wait_for_lease 0 "$child"
	run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 true
	[ "$stderr" = "$(lease_msg 0 9 "$child" 5)" ]
	kill "$child"
	# Until it has gone: kill returns before the signal has taken it.
	wait_until eval "! kill -0 $child 2>/dev/null" || return 1
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 cat "$WI/node0"
	[ "$output" = 5 ]
}

@test "a holder killed with SIGKILL: its lease ends" {
	hold 0 0:9
	kill -KILL "$holder"
	wait "$holder" || true
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 cat "$WI/node0"
	[ "$output" = 5 ]
}

@test "--set-global-weights and --reset-global-weights respect leases; --force overrides" {
	hold 0 0:9
	run -1 --separate-stderr "$NUMACTL2" --set-global-weights=0:3,1:2
	[ "$stderr" = "$(lease_msg 0 9 "$holder" 3)" ]
	[ "$(w 0) $(w 1)" = "9 1" ]
	run -1 --separate-stderr "$NUMACTL2" --reset-global-weights
	[ "$stderr" = "$(lease_msg 0 9 "$holder" 1)" ]
	# Nodes the lease does not hold can change.
	run -0 --separate-stderr "$NUMACTL2" --set-global-weights=0:9,1:2
	[ "$(w 0) $(w 1)" = "9 2" ]
	run -0 --separate-stderr "$NUMACTL2" --reset-global-weights --force
	[ "${stderr_lines[0]}" = "numactl2: --force: overrode the lease on node 0 (weight 9, PIDs $holder)" ]
	[ "$(w 0) $(w 1)" = "1 1" ]
}

@test "--auto-global-weights respects leases" {
	echo false >"$WI/auto"
	hold 0 0:9
	run -1 --separate-stderr "$NUMACTL2" --auto-global-weights
	[ "$stderr" = "$(lease_msg 0 9 "$holder" 9)" ]
	[ "$(cat "$WI/auto")" = false ]
	kill "$holder"
	wait "$holder" || true
	run -0 --separate-stderr "$NUMACTL2" --auto-global-weights
	[ "$(cat "$WI/auto")" = true ]
}

@test "--show and --hardware list the live leases: node, weight, PIDs" {
	run -0 "$NUMACTL2" --show
	[[ "$output" != *lease* ]] || return 1
	hold 0 0:7
	run -0 "$NUMACTL2" --show
	[ "${lines[-1]}" = "interleave weight lease: node 0 weight 7 pids $holder" ]
	run -0 "$NUMACTL2" --hardware
	[ "${lines[-1]}" = "interleave weight lease: node 0 weight 7 pids $holder" ]
}

@test "-w without --weights leases the weights in effect" {
	echo 6 >"$WI/node0"
	"$NUMACTL2" -w 0 sleep 30 &
	holder=$!
	bg+=("$holder")
	wait_for_lease 0 "$holder"
	run -1 --separate-stderr "$NUMACTL2" --set-global-weights=0:2
	[ "$stderr" = "$(lease_msg 0 6 "$holder" 2)" ]
}

# The copy of the table readable by nobody, for the unprivileged runs.
nobody_table() {
	local dir
	dir=$(mktemp -d /tmp/numactl2-lease.XXXXXX)
	chmod 755 "$dir"
	echo 4 >"$dir/node0"
	chmod 644 "$dir/node0"
	echo "$dir"
}

as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

# dry_run_fails_as_run ARGS...: the run of ARGS exits 1, and its --dry-run
# exits 1 with the same line (NUMACTL2_RUN: how both run). A refusal of the
# table's change comes after the dry run's plan, so the weights refused are
# seen; one of the request itself (resolve) before any.
dry_run_fails_as_run() {
	local want
	run -1 --separate-stderr ${NUMACTL2_RUN:-} "$NUMACTL2" "$@" touch "$BATS_TEST_TMPDIR/ran"
	want=$stderr
	echo "run: $want"
	[ -n "$want" ] || return 1
	[ ! -e "$BATS_TEST_TMPDIR/ran" ] || return 1
	run -1 --separate-stderr ${NUMACTL2_RUN:-} "$NUMACTL2" --dry-run "$@" true
	echo "dry run: $stderr / $output"
	[ "$stderr" = "$want" ]
}

@test "--dry-run fails as the run does: a live lease in the way, --no-global-weights" {
	hold 0 0:9
	dry_run_fails_as_run -w 0 --weights=0:5
	[ "$stderr" = "$(lease_msg 0 9 "$holder" 5)" ]
	[ "${lines[0]}" = "policy: weighted-interleave" ]
	[[ $output == *"lease: node 0 weight 9 pids $holder (in the way: this run needs another weight)"* ]] || return 1
	# Where the run would go ahead (--force), so does the dry run.
	run -0 --separate-stderr "$NUMACTL2" --dry-run -w 0 --weights=0:5 --force true
	[ "$(w 0)" = 9 ]
	# --no-global-weights where the table holds another weight (this
	# host's one node: the job's lease gone first).
	kill "$holder"
	wait "$holder" 2>/dev/null || true
	wait_until lease_gone
	echo 9 >"$WI/node0"
	dry_run_fails_as_run -w 0 --weights=0:5 --no-global-weights
}

lease_gone() { ! grep -q '^interleave weight lease' < <("$NUMACTL2" --show); }

@test "not root: --dry-run fails as the run does, where it needs root" {
	command -v setpriv >/dev/null || skip "needs setpriv"
	local dir
	dir=$(nobody_table)
	NUMACTL2_SYSFS_WI=$dir NUMACTL2_RUN=as_nobody dry_run_fails_as_run -w 0 --weights=0:9
	[[ "$stderr" == "numactl2: node 0 has global weight 4, not 9, and only root can change it: "* ]] || return 1
	# The weights in effect need no root: the dry run shows its plan.
	NUMACTL2_SYSFS_WI=$dir run -0 --separate-stderr as_nobody "$NUMACTL2" --dry-run -w 0 --weights=0:4 true
	[ "$(cat "$dir/node0")" = 4 ]
	rm -rf "$dir"
	[ -z "$stderr" ]
	[[ "$output" == *$'\ncommand: true\n'* ]]
}

@test "not root, weights already in effect: runs, no root needed, nothing written" {
	command -v setpriv >/dev/null || skip "needs setpriv"
	local dir
	dir=$(nobody_table)
	NUMACTL2_SYSFS_WI=$dir run -0 --separate-stderr as_nobody "$NUMACTL2" -w 0 --weights=0:4 \
		bash -c 'cat "$1"; shift; "$@"' _ "$dir/node0" "${HEAP_POLICY[@]}"
	rm -rf "$dir"
	[ "${lines[0]}" = 4 ]
	[ "${lines[1]}" = "weighted interleave:0" ]
	[ -z "$stderr" ]
}

@test "not root, other weights: one line saying what to do, nothing written or run" {
	command -v setpriv >/dev/null || skip "needs setpriv"
	local dir
	dir=$(nobody_table)
	NUMACTL2_SYSFS_WI=$dir run -1 --separate-stderr as_nobody "$NUMACTL2" -w 0 --weights=0:9 \
		touch "$BATS_TEST_TMPDIR/ran"
	[ "$(cat "$dir/node0")" = 4 ]
	rm -rf "$dir"
	[ "$stderr" = "numactl2: node 0 has global weight 4, not 9, and only root can change it: ask for the weights in effect (--weights=0:4), check with --dry-run, or have an admin run 'numactl2 --set-global-weights=0:9'" ]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
}

# bad_lease_input MESSAGE ARGS...: numactl2 refuses ARGS with MESSAGE
# (test/lib/refused.bash), no weight changed and the command (touch ran)
# not run.
bad_lease_input() {
	local snap
	snap=$(table_weights)
	refused --unchanged table_weights "$snap" --absent "$BATS_TEST_TMPDIR/ran" "$1" "$NUMACTL2" "${@:2}"
}

# Every weight of the table.
table_weights() { cat "$WI"/node*; }

@test "bad input for --wait, --force and --restore-weights: exit 1, a clear message, nothing changed" {
	local ran=$BATS_TEST_TMPDIR/ran
	bad_lease_input "numactl2: invalid --wait: '0' (1-604800 seconds)" -w 0 --weights=0:5 --wait=0 touch "$ran"
	bad_lease_input "numactl2: invalid --wait: 'abc' (1-604800 seconds)" -w 0 --weights=0:5 --wait=abc touch "$ran"
	bad_lease_input "numactl2: invalid --wait: '-1' (1-604800 seconds)" -w 0 --weights=0:5 --wait=-1 touch "$ran"
	bad_lease_input "numactl2: invalid --wait: '604801' (1-604800 seconds)" -w 0 --weights=0:5 --wait=604801 touch "$ran"
	bad_lease_input "numactl2: invalid --wait: '' (1-604800 seconds)" -w 0 --weights=0:5 --wait= touch "$ran"
	bad_lease_input "numactl2: invalid --wait: '4294967297' (1-604800 seconds)" -w 0 --weights=0:5 --wait=4294967297 touch "$ran"
	bad_lease_input "numactl2: --wait given twice" -w 0 --weights=0:5 --wait --wait=3 touch "$ran"
	bad_lease_input "numactl2: options --force and --wait cannot be combined" -w 0 --weights=0:5 --force --wait touch "$ran"
	bad_lease_input "numactl2: options --force and --wait cannot be combined" --set-global-weights=0:5 --force --wait
	bad_lease_input "numactl2: --force needs --weights that go to the global table, or a global weight option" -w 0 --force touch "$ran"
	bad_lease_input "numactl2: --wait needs --weights that go to the global table, or a global weight option" -m 0 --wait touch "$ran"
	bad_lease_input "numactl2: --restore-weights needs --weights" -w 0 --restore-weights touch "$ran"
	bad_lease_input "numactl2: --restore-weights needs a command to run" -w 0 --weights=0:5 --restore-weights --show
	bad_lease_input "numactl2: --restore-weights needs a command to run" --set-global-weights=0:5 --restore-weights
	bad_lease_input "numactl2: option '--force' doesn't allow an argument" -w 0 --weights=0:5 --force=1 touch "$ran"
}

# --restore-weights: numactl2 execs the job, and a watcher puts the weights
# back once the job is gone: after numactl2's end, so the tests wait for it
# (up to 10 s: a loaded machine).

wait_line() {
	wait_until grep -qx -- "$2" "$1" && return 0
	cat "$1"
	return 1
}

@test "--restore-weights: the job's status, and the table back after it exits" {
	local err=$BATS_TEST_TMPDIR/err rc=0
	"$NUMACTL2" -w 0 --weights=0:9 --restore-weights sh -c "cat $WI/node0; exit 3" \
		>"$BATS_TEST_TMPDIR/out" 2>"$err" || rc=$?
	[ "$rc" -eq 3 ]
	[ "$(cat "$BATS_TEST_TMPDIR/out")" = 9 ]
	wait_weight 0 1
	wait_line "$err" "numactl2: put back global interleave weights: node0 9->1"
	[ "$(head -1 "$err")" = "numactl2: changed global interleave weights: node0 1->9$AFTER_JOB" ]
}

@test "--restore-weights: the table back after the job is killed; 128 + the signal" {
	"$NUMACTL2" -w 0 --weights=0:9 --restore-weights sleep 30 2>"$BATS_TEST_TMPDIR/err" &
	local job=$!
	bg+=("$job")
	wait_for_comm "$job" sleep
	kill -KILL "$job"
	local st=0
	wait "$job" || st=$?
	[ "$st" -eq 137 ]
	wait_weight 0 1
	wait_line "$BATS_TEST_TMPDIR/err" "numactl2: put back global interleave weights: node0 9->1"
}

# SIGTERM at its default (env): one ignored where the suite was started
# would stay ignored, by numactl2 and the job.
@test "--restore-weights: a signal to numactl2 is the job's, and the table comes back" {
	env --default-signal=TERM "$NUMACTL2" -w 0 --weights=0:9 --restore-weights sleep 30 2>"$BATS_TEST_TMPDIR/err" &
	local job=$!
	bg+=("$job")
	wait_for_comm "$job" sleep
	[ "$(w 0)" = 9 ]
	kill -TERM "$job"
	local st=0
	wait "$job" || st=$?
	[ "$st" -eq 143 ]
	wait_weight 0 1
	wait_line "$BATS_TEST_TMPDIR/err" "numactl2: put back global interleave weights: node0 9->1"
}

@test "--restore-weights: weights another lease holds by then are left alone, and it says so" {
	"$NUMACTL2" -w 0 --weights=0:9 --restore-weights sleep 1 2>"$BATS_TEST_TMPDIR/err" &
	local job=$!
	bg+=("$job")
	wait_for_comm "$job" sleep
	hold 0 0:9
	local st=0
	wait "$job" || st=$?
	[ "$st" -eq 0 ]
	wait_line "$BATS_TEST_TMPDIR/err" "numactl2: left node 0 at weight 9: another job leases it now (PIDs $holder)"
	[ "$(w 0)" = 9 ]
}

@test "--restore-weights: a weight changed since is left alone, and it says so" {
	"$NUMACTL2" -w 0 --weights=0:9 --restore-weights sh -c "echo 4 >$WI/node0" 2>"$BATS_TEST_TMPDIR/err"
	wait_line "$BATS_TEST_TMPDIR/err" "numactl2: left node 0 at weight 4: changed since this run set 9"
	# The run leaves it; the table as it was before the job (1) comes back
	# all the same once nothing leases it (lib/weights/baseline.c).
	wait_for_value "$WI/node0" 1
}

@test "--restore-weights: an exec that fails: 127, the table back" {
	local f=$BATS_TEST_TMPDIR/badinterp
	# Found and executable (the run goes ahead); its exec fails.
	printf '#!/nonexistent/interp\n' >"$f"
	chmod 0755 "$f"
	run -127 --separate-stderr "$NUMACTL2" -w 0 --weights=0:9 --restore-weights "$f"
	[ "$(w 0)" = 1 ]
	[ "${stderr_lines[1]}" = "numactl2: put back global interleave weights: node0 9->1" ]
	[ "${stderr_lines[2]}" = "numactl2: failed to run '$f': No such file or directory" ]
}

@test "--restore-weights: the table is back when numactl2 returns, every time" {
	local i got
	for i in $(seq 40); do
		run -7 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 --restore-weights sh -c 'exit 7'
		got=$(w 0)
		[ "$got" = 1 ] || { echo "run $i: node 0 at $got right after"; return 1; }
	done
}

@test "--restore-weights under strace: the job runs, not traced again, and the line says when the weights go back" {
	run -3 --separate-stderr strace -f -qq -o /dev/null "$NUMACTL2" -w 0 --weights=0:5 --restore-weights \
		sh -c 'exit 3'
	[ "${stderr_lines[1]}" = "numactl2: --restore-weights: 'sh' runs under another tracer (strace, gdb): the weights go back just after it ends, not by the time numactl2 returns" ]
	wait_for_value "$WI/node0" 1
}

@test "numactl2 execs the job, with --restore-weights too" {
	local f=$BATS_TEST_TMPDIR/pid
	"$NUMACTL2" -w 0 --weights=0:9 sh -c "echo \$\$ >$f" 2>/dev/null &
	local p1=$!
	wait "$p1"
	[ "$(cat "$f")" = "$p1" ]
	"$NUMACTL2" -w 0 --weights=0:5 --restore-weights sh -c "echo \$\$ \$PPID >$f" 2>/dev/null &
	local p2=$!
	wait "$p2"
	[ "$(cat "$f")" = "$p2 $$" ]
}

@test "--dry-run lists the leases on the nodes of the set and whether they are in the way" {
	hold 0 0:9
	# With --wait the run would queue behind it (without, the dry run fails
	# as the run would: "--dry-run fails as the run does" above).
	run -0 --separate-stderr "$NUMACTL2" --dry-run -w 0 --weights=0:5 --wait touch "$BATS_TEST_TMPDIR/ran"
	[ "${lines[4]}" = "lease: node 0 weight 9 pids $holder (in the way: this run needs another weight)" ]
	run -0 --separate-stderr "$NUMACTL2" --dry-run -w 0 --weights=0:9 touch "$BATS_TEST_TMPDIR/ran"
	[ "${lines[4]}" = "lease: node 0 weight 9 pids $holder (shared with this run)" ]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	[ "$(w 0)" = 9 ]
}

@test "-w alone on a node without a weight file (6.16+: no memory) leases nothing there and runs" {
	rm "$WI/node0"
	run -0 --separate-stderr "$NUMACTL2" -w 0 "${HEAP_POLICY[@]}"
	[ "$output" = "weighted interleave:0" ]
	[ -z "$stderr" ]
	run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=0:2 true
	[ "$stderr" = "numactl2: node 0 has no global interleave weight in $WI" ]
}

# Jobs that do not keep the descriptors they inherited.


@test "a job that closes the descriptors it inherited keeps its lease while it runs" {
	closer 0 0:9
	[ "$(ls "/proc/$holder/fd" | tr '\n' ' ')" = "0 1 2 " ]
	run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 touch "$BATS_TEST_TMPDIR/ran"
	echo "$stderr"
	[ "$stderr" = "$(lease_msg 0 9 "$holder" 5)" ]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	[ "$(w 0)" = 9 ]
	run -1 --separate-stderr "$NUMACTL2" --reset-global-weights
	[ "$stderr" = "$(lease_msg 0 9 "$holder" 1)" ]
	run -0 "$NUMACTL2" --show
	[ "${lines[-1]}" = "interleave weight lease: node 0 weight 9 pids $holder" ]
	run -0 "$NUMACTL2" --hardware
	[ "${lines[-1]}" = "interleave weight lease: node 0 weight 9 pids $holder" ]
	# And its lease ends with it.
	kill "$holder"
	wait "$holder" || true
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 cat "$WI/node0"
	[ "$output" = 5 ]
}

@test "a job that closed its descriptors, killed with SIGKILL: its lease ends, its record goes" {
	closer 0 0:9
	record_of "$holder"
	kill -KILL "$holder"
	wait "$holder" || true
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 cat "$WI/node0"
	[ "$output" = 5 ]
	run -1 record_of "$holder"
}

# node0_record PID START: the path of a record of node 0's weight file for
# PID, as numactl2 before random names wrote it (the newer parse it too).
node0_record() {
	printf '%s/numactl2-lease.%x.%s.%s.%s\n' "$LEASES" "$(stat -c %d "$WI/node0")" \
		"$(stat -c %i "$WI/node0")" "$1" "$2"
}

# forged_record DELTA: node 0 at weight 9 and, made by root, a record of
# it for a running process $other (root's sleep), with its start time plus
# DELTA; $record is the record's path.
forged_record() {
	echo 9 >"$WI/node0"
	sleep 30 &
	other=$!
	bg+=("$other")
	record=$(node0_record "$other" $(($(start_of "$other") + $1)))
	touch "$record"
}

@test "PID reuse: a record whose PID runs with another start time is no holder" {
	# The record of a process that had $other's PID before: another start time.
	forged_record -1
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 cat "$WI/node0"
	[ "$output" = 5 ]
	[ ! -e "$record" ]
}

@test "a record with the PID and the start time of a running process is a holder" {
	forged_record 0
	run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 true
	[ "$stderr" = "$(lease_msg 0 9 "$other" 5)" ]
	[ "$(w 0)" = 9 ]
	[ -e "$record" ]
}

@test "a holder's child that keeps the descriptor outlives it: the child holds the lease, the holder's record is gone" {
	local child
	child=$("$NUMACTL2" -w 0 --weights=0:9 sh -c 'sleep 30 >/dev/null 2>&1 & echo $$ $!' 2>/dev/null)
	set -- $child
	bg+=("$2")
	wait_for_lease 0 "$2"
	run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 true
	[ "$stderr" = "$(lease_msg 0 9 "$2" 5)" ]
	run -1 record_of "$1"
}

@test "a daemon that forks twice and closes its descriptors: its lease ends when its launcher exits" {
	local f=$BATS_TEST_TMPDIR/daemon daemon
	# The launcher is the job numactl2 execs; the daemon its grandchild.
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:9 \
		bash -c "$CLOSE_ALL; (sleep 30 </dev/null >/dev/null 2>&1 & echo \$! >$f)"
	daemon=$(cat "$f")
	bg+=("$daemon")
	kill -0 "$daemon"
	[ "$(ls "/proc/$daemon/fd" | tr '\n' ' ')" = "0 1 2 " ]
	run -0 "$NUMACTL2" --show
	[[ "$output" != *lease* ]] || return 1
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 cat "$WI/node0"
	[ "$output" = 5 ]
}

# The watcher, which holds the lease descriptors too, is not named: the job is.
@test "--restore-weights: the job, numactl2's own process, is the recorded holder" {
	local job
	"$NUMACTL2" -w 0 --weights=0:9 --restore-weights bash -c "$CLOSE_ALL; exec sleep 30" 2>/dev/null &
	job=$!
	bg+=("$job")
	wait_for_comm "$job" sleep
	record_of "$job"
	run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 true
	[ "$stderr" = "$(lease_msg 0 9 "$job" 5)" ]
	kill "$job"
	wait "$job" || true
	wait_weight 0 1
}

@test "not root: an unprivileged job that closes its descriptors keeps its lease against root" {
	command -v setpriv >/dev/null || skip "needs setpriv"
	local dir
	dir=$(nobody_table)
	# setpriv itself, not the function as_nobody (a subshell): $! is the job.
	NUMACTL2_SYSFS_WI=$dir setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$NUMACTL2" -w 0 --weights=0:4 bash -c "$CLOSE_ALL; exec sleep 30" 2>/dev/null &
	holder=$!
	bg+=("$holder")
	wait_for_comm "$holder" sleep
	NUMACTL2_SYSFS_WI=$dir run -1 --separate-stderr "$NUMACTL2" --set-global-weights=0:1
	local node0
	node0=$(cat "$dir/node0")
	rm -rf "$dir"
	[ "$stderr" = "$(lease_msg 0 4 "$holder" 1)" ]
	[ "$node0" = 4 ]
}

@test "no safe place for the records: the lease is the descriptor alone, and numactl2 says so" {
	local none=$BATS_TEST_TMPDIR/none open=$BATS_TEST_TMPDIR/open
	NUMACTL2_LEASE_DIR=$none run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:9 cat "$WI/node0"
	[ "$output" = 9 ]
	[ "${stderr_lines[0]}" = "numactl2: cannot record the lease in $none: No such file or directory; it holds only while the job keeps the descriptors it inherited open" ]
	[ "${stderr_lines[1]}" = "numactl2: changed global interleave weights: node0 1->9$AFTER_JOB" ]
	# Writable by anyone without the sticky bit: anyone could remove records.
	mkdir -m 0777 "$open"
	chmod 0777 "$open"
	NUMACTL2_LEASE_DIR=$open run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:9 true
	[ "${stderr_lines[0]}" = "numactl2: cannot record the lease in $open: Operation not permitted; it holds only while the job keeps the descriptors it inherited open" ]
	[ -z "$(ls "$open")" ]
	# The descriptor still holds the lease.
	NUMACTL2_LEASE_DIR=$none "$NUMACTL2" -w 0 --weights=0:9 sleep 30 2>/dev/null &
	holder=$!
	bg+=("$holder")
	wait_for_lease 0 "$holder"
	run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 true
	[ "$stderr" = "$(lease_msg 0 9 "$holder" 5)" ]
}

# Records nobody can forge (issue 23): a record counts only when the process
# it names could have made it. The forger is uid 65534 (nobody); LEASES is
# root's, mode 1777, like /dev/shm, so nobody can create files there.

@test "a record naming PID 1, made by another user, counts for nothing and root's next run removes it" {
	local forged
	forged=$(node0_record 1 "$(start_of 1)")
	as_nobody touch "$forged"
	echo 9 >"$WI/node0"
	run -0 --separate-stderr "$NUMACTL2" --set-global-weights=0:2
	[ "$stderr" = "numactl2: changed global interleave weights: node0 9->2" ]
	[ "$(w 0)" = 2 ]
	[ ! -e "$forged" ]
}

@test "a record naming another user's process, made by someone else, counts for nothing" {
	local other forged
	setpriv --reuid=65533 --regid=65533 --clear-groups sleep 30 &
	other=$!
	bg+=("$other")
	wait_for_comm "$other" sleep
	forged=$(node0_record "$other" "$(start_of "$other")")
	as_nobody touch "$forged"
	run -0 "$NUMACTL2" --show
	[[ "$output" != *lease* ]] || return 1
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 cat "$WI/node0"
	[ "$output" = 5 ]
	[ ! -e "$forged" ]
}

@test "a record naming a kernel thread counts for nothing, even root's" {
	local k
	# PF_KTHREAD (0x00200000) in field 9 of /proc/PID/stat.
	for k in /proc/[0-9]*; do
		k=${k#/proc/}
		(( $(sed 's/.*) //' "/proc/$k/stat" | cut -d' ' -f7) & 0x00200000 )) && break
		k=
	done
	[ -n "$k" ] || skip "no kernel thread in this PID namespace"
	touch "$(node0_record "$k" "$(start_of "$k")")"
	echo 9 >"$WI/node0"
	run -0 --separate-stderr "$NUMACTL2" --set-global-weights=0:2
	[ "$(w 0)" = 2 ]
	[ -z "$(ls "$LEASES")" ]
}

@test "a record that is not an empty regular file of its own counts for nothing" {
	local name
	forged_record 0
	echo data >"$record"
	run -0 --separate-stderr "$NUMACTL2" --set-global-weights=0:2
	[ "$(w 0)" = 2 ]
	[ ! -e "$record" ]
	forged_record 0
	ln "$record" "$BATS_TEST_TMPDIR/link"
	run -0 --separate-stderr "$NUMACTL2" --set-global-weights=0:3
	[ "$(w 0)" = 3 ]
	forged_record 0
	name=$record
	rm "$record"
	ln -s "$BATS_TEST_TMPDIR/link" "$name"
	run -0 --separate-stderr "$NUMACTL2" --set-global-weights=0:4
	[ "$(w 0)" = 4 ]
}

# gated COMMAND...: COMMAND in the background, run only once "go" (a
# subshell that waits, then execs it: its PID and start time are known
# before); $gated is its PID.
gated() {
	mkfifo "$BATS_TEST_TMPDIR/gate"
	( read -r _ <"$BATS_TEST_TMPDIR/gate"; exec "$@" ) &
	gated=$!
	bg+=("$gated")
}
go() { echo go >"$BATS_TEST_TMPDIR/gate"; }

@test "a record another user planted under a run's own PID does not refuse the run" {
	local planted
	echo 9 >"$WI/node0"
	gated "$NUMACTL2" -w 0 --weights=0:5 sh -c "cat $WI/node0 >$BATS_TEST_TMPDIR/seen"
	planted=$(node0_record "$gated" "$(start_of "$gated")")
	as_nobody touch "$planted"
	go
	local st=0
	wait "$gated" || st=$?
	[ "$st" -eq 0 ]
	[ "$(cat "$BATS_TEST_TMPDIR/seen")" = 5 ]
	# The run has ended: the next that may remove the record does.
	run -0 "$NUMACTL2" --show
	[ ! -e "$planted" ]
}

@test "a record planted under the name a job's record will have is not taken for it: the job keeps its lease" {
	local planted
	gated "$NUMACTL2" -w 0 --weights=0:9 bash -c "$CLOSE_ALL; exec sleep 30"
	planted=$(node0_record "$gated" "$(start_of "$gated")")
	as_nobody touch "$planted"
	go
	wait_for_comm "$gated" sleep
	# The planter takes its file away (if the job's run has not removed it:
	# it counts for nothing): the job's own record stands.
	as_nobody rm -f "$planted"
	record_of "$gated"
	run -1 --separate-stderr "$NUMACTL2" --set-global-weights=0:5
	[ "$stderr" = "$(lease_msg 0 9 "$gated" 5)" ]
	[ "$(w 0)" = 9 ]
}

@test "--force past a record leaves no record to refuse the next change" {
	forged_record 0
	run -0 --separate-stderr "$NUMACTL2" --set-global-weights=0:2 --force
	[ "${stderr_lines[0]}" = "numactl2: --force: overrode the lease on node 0 (weight 9, PIDs $other)" ]
	[ ! -e "$record" ]
	run -0 --separate-stderr "$NUMACTL2" --set-global-weights=0:3
	[ "$stderr" = "numactl2: changed global interleave weights: node0 2->3" ]
	[ "$(w 0)" = 3 ]
}

@test "a run's own record (a job that execs numactl2 again) is not another job's lease" {
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:9 \
		bash -c "$CLOSE_ALL; exec \"\$0\" -w 0 --weights=0:5 cat \"\$1\"" "$NUMACTL2" "$WI/node0"
	[ "$output" = 5 ]
	[ "${stderr_lines[1]}" = "numactl2: changed global interleave weights: node0 9->5$AFTER_JOB" ]
}

# Issue 23: a refusal costs what sixteen holders cost, however many there
# are: it names LEASE_MAX_PIDS (16) that run, says "and more", and reads
# neither the rest of /proc/locks nor a single record (strace shows which
# files it opens).
@test "20 holders: a refusal names 16 that run and 'and more', and opens no record" {
	local i p named trace=$BATS_TEST_TMPDIR/trace
	for i in $(seq 20); do
		"$NUMACTL2" -w 0 --weights=0:9 sleep 60 2>/dev/null &
		bg+=("$!")
	done
	for p in "${bg[@]}"; do wait_for_comm "$p" sleep; done
	run -1 --separate-stderr strace -f -o "$trace" -e trace=openat,open \
		"$NUMACTL2" -w 0 --weights=0:5 true
	echo "$stderr"
	[[ "$stderr" =~ ^"numactl2: node 0 weight 9 is leased by a running job (PIDs "(([0-9]+ ){16})"and more); this needs weight 5 there: --wait to queue, --force to override"$ ]] || return 1
	named=${BASH_REMATCH[1]}
	for p in $named; do
		[[ " ${bg[*]} " == *" $p "* ]] || return 1
	done
	run -1 grep -F "$LEASES" "$trace"
	[ "$(w 0)" = 9 ]
}
