#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Holds on global weights where no numactl2d runs, on the host: root's
# numactl2 is the table's owner for its own change (lib/owner/once.c), on a
# copy of the table (NUMACTL2_SYSFS_WI), never the real one, with its state
# beside it. The host has one node, so the jobs run on node 0; the admin
# options use a four-node copy. The real table, with real writes, is tested
# in the 4-node guest (vm/guest/leases.bats).

load helpers

setup() {
	WI=$(fake_wi_dir 0 1 2 3)
	export NUMACTL2_SYSFS_WI=$WI
	# The owner's state and lock: numactl2/ beside the copy of the table.
	STATE=${WI%/*}/numactl2
	bg=()
}

teardown() {
	local p
	for p in "${bg[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${bg[@]}"; do wait "$p" 2>/dev/null || true; done
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
	[[ "$output" == *"interleave weight holder: pid $holder user root command sleep weights 0:9"$'\n'"interleave weight holder: pid "[0-9]*" user root command numactl2 weights 0:9"* ]] || return 1
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
	[ "$stderr" = "numactl2: gave up after waiting 1 s: node 0 is held at weight 9 by PID $holder (sleep, uid 0); this needs weight 5 there" ]
	[ $((SECONDS - t0)) -ge 1 ]
	[ "$(w 0)" = 9 ]
}

@test "--wait queues until the holder ends" {
	# The table at 9 before the holder: nothing goes back when it ends.
	"$NUMACTL2" --set-global-weights=0:9 2>/dev/null
	hold 0 0:9 2
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 --wait cat "$WI/node0"
	echo "$stderr"
	[ "$output" = 5 ]
	[ "$stderr" = "numactl2: changed global interleave weights: node0 9->5$AFTER_JOB" ]
	run -1 kill -0 "$holder"
}

@test "--force overrides a hold: the holder holds the new weight" {
	hold 0 0:9
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 --force cat "$WI/node0"
	[ "$output" = 5 ]
	[ "$stderr" = "numactl2: changed global interleave weights: node0 9->5$AFTER_JOB" ]
	# The forcing job has ended; its holder keeps what it was forced to.
	[ "$(w 0)" = 5 ]
	run -0 "$NUMACTL2" --show
	[ "${lines[-1]}" = "interleave weight holder: pid $holder user root command sleep weights 0:5" ]
}

@test "an expired lease (the holder exited) is no obstacle" {
	run -0 "$NUMACTL2" -w 0 --weights=0:9 true
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 cat "$WI/node0"
	[ "$output" = 5 ]
}

@test "the hold is the job's own process: a child it leaves behind holds nothing, and the table goes back when the job ends" {
	local child
	child=$("$NUMACTL2" -w 0 --weights=0:9 sh -c 'sleep 30 >/dev/null 2>&1 & echo $!' 2>/dev/null)
	bg+=("$child")
	wait_weight 0 1
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
	[ "$stderr" = "numactl2: changed global interleave weights: node0 9->1, node1 2->1" ]
	[ "$(w 0) $(w 1)" = "1 1" ]
}

@test "--set-global-weights holds nothing: its change is no job's, and no holder of it is left" {
	local admin
	"$NUMACTL2" --set-global-weights=0:5 2>/dev/null &
	admin=$!
	wait "$admin"
	[ "$(w 0)" = 5 ]
	run -1 grep "^grant " "$STATE/state"
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:6 cat "$WI/node0"
	[ "$output" = 6 ]
}

@test "--auto-global-weights respects leases" {
	echo false >"$WI/auto"
	hold 0 0:9
	run -1 --separate-stderr "$NUMACTL2" --auto-global-weights
	[ "$stderr" = "numactl2: node 0 is held at weight 9 by PID $holder (sleep, uid 0); the kernel's auto weights need it free: --wait to queue, --force to override" ]
	[ "$(cat "$WI/auto")" = false ]
	kill "$holder"
	wait "$holder" || true
	run -0 --separate-stderr "$NUMACTL2" --auto-global-weights
	[ "$(cat "$WI/auto")" = true ]
}

@test "--show and --hardware list the live holders: pid, user, command, weights" {
	run -0 "$NUMACTL2" --show
	[[ "$output" != *holder* ]] || return 1
	hold 0 0:7
	run -0 "$NUMACTL2" --show
	[ "${lines[-1]}" = "interleave weight holder: pid $holder user root command sleep weights 0:7" ]
	run -0 "$NUMACTL2" --hardware
	[ "${lines[-1]}" = "interleave weight holder: pid $holder user root command sleep weights 0:7" ]
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
	[[ $output == *"holder: node 0 weight 9 pid $holder command sleep (in the way: this run needs another weight)"* ]] || return 1
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

lease_gone() { ! grep -q '^interleave weight holder' < <("$NUMACTL2" --show); }

@test "not root: --dry-run fails as the run does, where it needs root" {
	command -v setpriv >/dev/null || skip "needs setpriv"
	local dir
	dir=$(nobody_table)
	NUMACTL2_SYSFS_WI=$dir NUMACTL2_RUN=as_nobody dry_run_fails_as_run -w 0 --weights=0:9
	[[ "$stderr" == "numactl2: node 0 has global weight 4, not 9, and only root can change it, or numactl2d where an admin runs it (numactl2d(8)): "* ]] || return 1
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
	[ "$stderr" = "numactl2: node 0 has global weight 4, not 9, and only root can change it, or numactl2d where an admin runs it (numactl2d(8)): ask for the weights in effect (--weights=0:4), check with --dry-run, or have an admin run 'numactl2 --set-global-weights=0:9'" ]
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
	wait_line "$BATS_TEST_TMPDIR/err" "numactl2: left global interleave weights: node0 at 9 (was 1: another job holds it, or it changed since)"
	[ "$(w 0)" = 9 ]
}

@test "--restore-weights: a weight changed by hand since goes back as it was all the same" {
	"$NUMACTL2" -w 0 --weights=0:9 --restore-weights sh -c "echo 4 >$WI/node0" 2>"$BATS_TEST_TMPDIR/err"
	# The owner puts back what it wrote, over a hand's write since (the
	# table's owner alone writes it while jobs hold weights).
	wait_line "$BATS_TEST_TMPDIR/err" "numactl2: put back global interleave weights: node0 9->1"
	[ "$(w 0)" = 1 ]
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

@test "--dry-run lists the holders on the nodes of the set and whether they are in the way" {
	hold 0 0:9
	# With --wait the run would queue behind it (without, the dry run fails
	# as the run would: "--dry-run fails as the run does" above).
	run -0 --separate-stderr "$NUMACTL2" --dry-run -w 0 --weights=0:5 --wait touch "$BATS_TEST_TMPDIR/ran"
	[ "${lines[4]}" = "holder: node 0 weight 9 pid $holder command sleep (in the way: this run needs another weight)" ]
	run -0 --separate-stderr "$NUMACTL2" --dry-run -w 0 --weights=0:9 touch "$BATS_TEST_TMPDIR/ran"
	[ "${lines[4]}" = "holder: node 0 weight 9 pid $holder command sleep (shared with this run)" ]
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

# The owner's state (lib/owner/state.c) and its lock: root's alone.

# forged_holder DELTA: node 0 at weight 9, and a state file naming a
# running process $other (root's sleep) as its holder, with its start time
# plus DELTA.
forged_holder() {
	echo 9 >"$WI/node0"
	sleep 30 &
	other=$!
	bg+=("$other")
	mkdir -p "$STATE"
	printf 'numactl2d-state 1\nboot %s\nauto -1\nbase 0 1\ngrant %d %d 0 0:9\n' \
		"$(cat /proc/sys/kernel/random/boot_id)" "$other" $(($(start_of "$other") + $1)) \
		>"$STATE/state"
	chmod 600 "$STATE/state"
}

@test "PID reuse: a holder whose PID runs with another start time holds nothing" {
	forged_holder -1
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 cat "$WI/node0"
	[ "$output" = 5 ]
	run -1 grep -q "^grant $other " "$STATE/state"
}

@test "a holder with the PID and the start time of a running process holds its weights" {
	forged_holder 0
	run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 true
	[ "$stderr" = "$(lease_msg 0 9 "$other" 5)" ]
	kill "$other"
	wait "$other" 2>/dev/null || true
	# Its end puts node 0 back as it was (base 0 1) before the next change.
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 cat "$WI/node0"
	[ "$output" = 5 ]
	[ "$stderr" = "numactl2: changed global interleave weights: node0 1->5$AFTER_JOB" ]
}

@test "any user's flock -s on a nodeN file counts for nothing: root's weights go back after its job (finding 2)" {
	command -v setpriv >/dev/null || skip "needs setpriv"
	chmod o+rx "$BATS_RUN_TMPDIR" "$BATS_RUN_TMPDIR/test" "$BATS_TEST_TMPDIR" "$WI"
	setpriv --reuid=65534 --regid=65534 --clear-groups flock -s "$WI/node0" sleep 60 3>&- &
	bg+=("$!")
	wait_until eval '! flock -n -x "$WI/node0" true' || return 1
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:9 cat "$WI/node0"
	[ "$output" = 9 ]
	wait_weight 0 1
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 cat "$WI/node0"
	[ "$output" = 5 ]
}

@test "nothing is kept in /dev/shm: a job's hold is in the owner's state alone, root's to read (finding 4)" {
	hold 0 0:9
	run -0 find /dev/shm -maxdepth 1 -name "numactl2*.$holder.*"
	[ -z "$output" ]
	run -0 grep -c "^grant $holder " "$STATE/state"
	[ "$output" = 1 ]
	run -0 stat -c '%a' "$STATE/state"
	[ "$output" = 600 ]
}

@test "a state directory another user may write is not used, and nothing changes" {
	mkdir -p "$STATE"
	chmod 777 "$STATE"
	run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 touch "$BATS_TEST_TMPDIR/ran"
	[ "$stderr" = "numactl2: cannot take the global weight table's state in $STATE: Operation not permitted; nothing changed" ]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	[ "$(w 0)" = 1 ]
}

# The state's lock is free: the watcher of the last job has saved.
state_settled() {
	wait_weight 0 1 || return 1
	wait_until flock -n "$STATE/state.lock" true
}

@test "the state is written whole beside it and swapped in: no file made at each change, a link there not followed" {
	local files
	run -0 "$NUMACTL2" -w 0 --weights=0:5 true
	state_settled
	[ -f "$STATE/state.new" ]
	[ ! -L "$STATE/state.new" ]
	run -0 stat -c '%a %U' "$STATE/state.new"
	[ "$output" = "600 $(id -un)" ]
	files=$(stat -c %i "$STATE/state" "$STATE/state.new" | sort)
	run -0 "$NUMACTL2" -w 0 --weights=0:6 true
	state_settled
	[ "$(stat -c %i "$STATE/state" "$STATE/state.new" | sort)" = "$files" ]
	rm "$STATE/state.new"
	ln -s "$BATS_TEST_TMPDIR/elsewhere" "$STATE/state.new"
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:7 cat "$WI/node0"
	[ "$output" = 7 ]
	state_settled
	[ ! -e "$BATS_TEST_TMPDIR/elsewhere" ]
	[ ! -L "$STATE/state.new" ]
	run -1 grep '^grant \|^base ' "$STATE/state"
}

@test "a lock file that is a symlink is not followed, and nothing changes" {
	mkdir -p "$STATE"
	ln -s "$BATS_TEST_TMPDIR/elsewhere" "$STATE/state.lock"
	run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 touch "$BATS_TEST_TMPDIR/ran"
	[ "$stderr" = "numactl2: cannot take the global weight table's state in $STATE: No locks available; nothing changed" ]
	[ ! -e "$BATS_TEST_TMPDIR/elsewhere" ]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	[ "$(w 0)" = 1 ]
}

@test "a lock that cannot be taken changes nothing, not even the put-back of a job that ended" {
	local snap
	mkdir -p "$STATE"
	echo 5 >"$WI/node0"
	# Node 0 was 1 before a job that has ended since (PID 1's start time is
	# not 0): a settle would put it back.
	printf 'numactl2d-state 1\nboot %s\nauto -1\nbase 0 1\ngrant 1 0 0 0:5\n' \
		"$(cat /proc/sys/kernel/random/boot_id)" >"$STATE/state"
	chmod 600 "$STATE/state"
	snap=$(cat "$STATE/state")
	ln -s "$BATS_TEST_TMPDIR/elsewhere" "$STATE/state.lock"
	run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 touch "$BATS_TEST_TMPDIR/ran"
	[ "$stderr" = "numactl2: cannot take the global weight table's state in $STATE: No locks available; nothing changed" ]
	[ "$(w 0)" = 5 ]
	[ "$(cat "$STATE/state")" = "$snap" ]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
}

@test "root's umask does not close the state directory to the users numactl2d serves in it" {
	(umask 077 && "$NUMACTL2" -w 0 --weights=0:5 true)
	run -0 stat -c %a "$STATE"
	[ "$output" = 755 ]
}

@test "a holder that changed its uid since it asked (setpriv, a setuid program) still holds: its PID and start time name it" {
	command -v setpriv >/dev/null || skip "needs setpriv"
	echo 9 >"$WI/node0"
	setpriv --reuid=65534 --regid=65534 --clear-groups sleep 30 &
	other=$!
	bg+=("$other")
	wait_for_comm "$other" sleep
	mkdir -p "$STATE"
	# Root asked (uid 0 saved); the job runs as 65534 now.
	printf 'numactl2d-state 1\nboot %s\nauto -1\nbase 0 1\ngrant %d %d 0 0:9\n' \
		"$(cat /proc/sys/kernel/random/boot_id)" "$other" "$(start_of "$other")" >"$STATE/state"
	chmod 600 "$STATE/state"
	run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 true
	[ "$stderr" = "$(lease_msg 0 9 "$other" 5)" ]
	[ "$(w 0)" = 9 ]
}

# forged_holders N: N running jobs in the state, the first N-10 holding
# 1:9, the last 10 holding 0:7 (as a state of many holders would be; the
# host's libnuma knows node 0 alone, so the runs ask for node 0).
forged_holders() {
	local i p lines=""
	echo 7 >"$WI/node0"
	echo 9 >"$WI/node1"
	for i in $(seq "$1"); do
		sleep 60 &
		p=$!
		bg+=("$p")
		lines+=$(printf 'grant %d %s 0 %s\\n' "$p" "$(start_of "$p")" \
			"$([ "$i" -gt $(($1 - 10)) ] && echo 0:7 || echo 1:9)")
	done
	mkdir -p "$STATE"
	printf "numactl2d-state 1\nboot %s\nauto -1\nbase 0 1\nbase 1 1\n$lines" \
		"$(cat /proc/sys/kernel/random/boot_id)" >"$STATE/state"
	chmod 600 "$STATE/state"
}

@test "more holders than the descriptors a run may open: each is still checked, none is dropped" {
	forged_holders 60
	# The soft limit is raised for the owner's time (the hard one allows).
	run -1 --separate-stderr bash -c 'ulimit -Sn 30 && exec "$0" -w 0 --weights=0:3 true' "$NUMACTL2"
	[ "$stderr" = "$(lease_msg 0 7 "${bg[50]}" 3)" ]
	# Where even the hard limit is too low: refused, and none dropped.
	run -1 --separate-stderr bash -c 'ulimit -n 30 && exec "$0" -w 0 --weights=0:3 true' "$NUMACTL2"
	[ "$stderr" = "numactl2: cannot take the global weight table's state in $STATE: Too many open files; nothing changed" ]
	[ "$(w 0)" = 7 ]
	[ "$(w 1)" = 9 ]
	run -0 grep -c '^grant ' "$STATE/state"
	[ "$output" = 60 ]
}
