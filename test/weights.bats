#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Weights on a kernel without set_mempolicy2: the global sysfs table,
# written all-or-nothing, under a lock, never silently, and put back on failure.
# $WI_DIR is this test's copy of the host's table (helpers.bash); what only
# the kernel's own table does (auto going off on a write, ENODEV for auto
# without bandwidth data) is tested in the guest (test/vm/guest).

load helpers

setup() {
	before=$(wi_snapshot)
	[ -d "$WI_DIR" ] || skip "needs Linux 6.9+ for $REAL_WI_DIR"
	lock_holders=()
	bg=()
}

# A lock holder a failed test left: its lock, and its sleep, end here; and
# the jobs holding weights (bg).
teardown() {
	[ "${#lock_holders[@]}" -eq 0 ] || kill "${lock_holders[@]}" 2>/dev/null || true
	[ "${#bg[@]}" -eq 0 ] || kill "${bg[@]}" 2>/dev/null || true
}

node0() { cat "$WI_DIR/node0"; }

@test "--weights writes the global weight, says so, and the program runs with it" {
	local old
	old=$(node0)
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:7 cat "$WI_DIR/node0"
	[ "$output" = 7 ]
	[[ ${stderr_lines[0]} == "numactl2: changed global interleave weights: node0 $old->7"* ]]
	[ "${#stderr_lines[@]}" -eq 1 ]
	# Back as it was once the job has ended (test/restore.bats).
	wait_for_value "$WI_DIR/node0" "$old"
}

@test "the program runs under weighted interleave: numa_maps and --show" {
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:6 "${HEAP_POLICY[@]}"
	[ "$output" = "weighted interleave:0" ]
	run -0 --separate-stderr "$NUMACTL2" -w --interleave=0 --weights=0:6 "$NUMACTL2" --show
	[ "${lines[0]}" = "policy: weighted-interleave" ]
	[ "${lines[2]}" = "interleavemask: 0 " ]
	[ "${lines[3]}" = "interleaveweights: 6" ]
}

@test "-w without --weights uses the weights in effect and writes nothing" {
	echo 4 >"$WI_DIR/node0"
	local mid
	mid=$(wi_snapshot)
	run -0 --separate-stderr "$NUMACTL2" -w 0 "$NUMACTL2" --show
	[ "${lines[3]}" = "interleaveweights: 4" ]
	[ -z "$stderr" ]
	[ "$(wi_snapshot)" = "$mid" ]
}

# One node: weighted interleave puts every page there, whatever the weights,
# and numactl2 leaves the table alone (the rule NUMACTL2_TEST_ONE_NODE_WEIGHS
# turns off for the other tests, helpers.bash).
ONE_NODE="numactl2: node 0 alone needs no weights (weighted interleave over one node puts every page there): the global interleave weights are left as they are"

# no_owner_state: the table's owner was not asked (root's own keeps its
# state beside the copy of the table the first time it is).
no_owner_state() { [ ! -e "${1%/*}/numactl2" ]; }

@test "one node: weights given change nothing in the table, hold nothing, say so once, and the job runs under weighted interleave" {
	export NUMACTL2_TEST_ONE_NODE_WEIGHS=0
	local dir
	dir=$(fake_wi_dir 0)
	echo true >"$dir/__auto_type"
	node_bandwidth 0
	NUMACTL2_SYSFS_WI=$dir run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:3 "$NUMACTL2" --show
	[ "${lines[0]}" = "policy: weighted-interleave" ]
	[ "${lines[2]}" = "interleavemask: 0 " ]
	[ "$stderr" = "$ONE_NODE" ]
	[ "$(cat "$dir/node0")" = 1 ]
	[ "$(cat "$dir/__auto_type")" = true ]
	no_owner_state "$dir"
	# No file of the (copied host) table is opened for writing.
	table_untouched 0 "$ONE_NODE" -w 0 --weights=0:4 true
	table_untouched 0 "$ONE_NODE" -w 0 --weights=0:4 --keep-weights true
	table_untouched 0 "$ONE_NODE" -w all --weights=0:4 --global-weights true
}

@test "one node: -w alone says nothing and holds nothing; --restore-weights, --no-global-weights and --weights=measured have nothing to do" {
	export NUMACTL2_TEST_ONE_NODE_WEIGHS=0
	local dir
	dir=$(fake_wi_dir 0)
	echo 5 >"$dir/node0"
	NUMACTL2_SYSFS_WI=$dir run -0 --separate-stderr "$NUMACTL2" -w 0 true
	[ -z "$stderr" ]
	no_owner_state "$dir"
	NUMACTL2_SYSFS_WI=$dir run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:2 --no-global-weights true
	[ "$stderr" = "$ONE_NODE" ]
	NUMACTL2_SYSFS_WI=$dir run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:2 --restore-weights true
	[ "$stderr" = "$ONE_NODE" ]
	# Nothing to measure for: no "measured ..." line.
	NUMACTL2_SYSFS_WI=$dir run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=measured \
		--measure-size=8m --measure-time=1 true
	[ "$stderr" = "$ONE_NODE" ]
	[ "$(cat "$dir/node0")" = 5 ]
	no_owner_state "$dir"
}

# one_node_held: a one-node copy of the table ($dir) in which another job
# ($holder) holds node 0 at 3, as a set whose weights matter would; then
# the one-node rule, for the run under test.
one_node_held() {
	dir=$(fake_wi_dir 0)
	export NUMACTL2_SYSFS_WI=$dir
	hold 0 0:3
	export NUMACTL2_TEST_ONE_NODE_WEIGHS=0
}

@test "one node: --dry-run plans no change of the table, and lists no holder" {
	local dir
	one_node_held
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 --dry-run true
	kill "$holder"
	[ "$stderr" = "$ONE_NODE" ]
	[ "${lines[2]}" = "weights: 0:5" ]
	[ "${lines[3]}" = "weights go to: nowhere: one node needs none, and the global table is left as it is" ]
	[ "${lines[4]}" = "command: true" ]
	[ "${lines[5]}" = "why the weights go there: over one node, weighted interleave puts every page there, whatever the weights" ]
	[ "${#lines[@]}" -eq 6 ]
}

@test "one node: a holder at another weight is not in the way, and the table keeps its weight" {
	local dir
	one_node_held
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 cat "$dir/node0"
	kill "$holder"
	[ "$output" = 3 ]
	[ "$stderr" = "$ONE_NODE" ]
}

@test "one node, auto weights that could not come back (no access0 bandwidth): nothing to refuse, the switch stays on" {
	export NUMACTL2_TEST_ONE_NODE_WEIGHS=0 NUMACTL2_TEST_KERNEL_AUTO=nobw
	local dir
	dir=$(fake_wi_dir 0)
	echo true >"$dir/__auto_type"
	NUMACTL2_SYSFS_WI=$dir run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:2 true
	[ "$stderr" = "$ONE_NODE" ]
	[ "$(cat "$dir/node0")" = 1 ]
	[ "$(cat "$dir/__auto_type")" = true ]
}

@test "one node, not root and no numactl2d: weights given are no refusal" {
	command -v setpriv >/dev/null || skip "needs setpriv"
	[ "$(id -u)" = 0 ] || skip "needs root to drop privileges"
	export NUMACTL2_TEST_ONE_NODE_WEIGHS=0
	chmod o+x "$BATS_RUN_TMPDIR" "$BATS_RUN_TMPDIR/test" "$BATS_TEST_TMPDIR"
	run -0 --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$NUMACTL2" -w 0 --weights=0:8 true
	[ "$stderr" = "$ONE_NODE" ]
}

@test "one node, task-local weights (set_mempolicy2): they go with the policy as ever, and nothing is said" {
	export NUMACTL2_TEST_ONE_NODE_WEIGHS=0
	run -0 --separate-stderr env NUMACTL2_TEST_TASK_LOCAL=1 "$NUMACTL2" -w 0 --weights=0:3 --dry-run true
	[ -z "$stderr" ]
	[ "${lines[3]}" = "weights go to: task-local (set_mempolicy2), this program's own" ]
}

@test "the auto-off notice names the switch when auto was on, and says when it is until reboot" {
	local dir
	dir=$(fake_wi_dir 0)
	echo true >"$dir/__auto_type"
	NUMACTL2_SYSFS_WI=$dir run -0 --separate-stderr "$NUMACTL2" --set-global-weights=0:5
	[ "$stderr" = "numactl2: changed global interleave weights: node0 1->5; kernel auto weights switched off until reboot (no node has access0 bandwidth to turn them back on)" ]
	[ "$(cat "$dir/node0")" = 5 ]
	echo true >"$dir/__auto_type"
	node_bandwidth 0
	NUMACTL2_SYSFS_WI=$dir run -0 --separate-stderr "$NUMACTL2" --set-global-weights=0:6
	[ "$stderr" = "numactl2: changed global interleave weights: node0 5->6; kernel auto weights switched off" ]
	[ "$(cat "$dir/node0")" = 6 ]
}

# table_untouched STATUS LINE ARGS...: numactl2 ARGS exits STATUS with LINE
# alone on stderr and opens no file of the table for writing (strace).
table_untouched() {
	local status=$1 line=$2 log=$BATS_TEST_TMPDIR/strace
	shift 2
	run -"$status" --separate-stderr strace -f -qq -o "$log" -e trace=open,openat "$NUMACTL2" "$@"
	echo "stderr: $stderr"
	[ "$stderr" = "$line" ] || return 1
	run -1 grep -E "\"$WI_DIR/[^\"]*\", O_(WRONLY|RDWR)" "$log"
}

@test "a command that cannot run changes nothing: no weight written, nothing said but the exec's failure" {
	local d=$BATS_TEST_TMPDIR
	printf 'echo hi\n' >"$d/noexec"
	chmod 0644 "$d/noexec"
	table_untouched 127 "numactl2: failed to run '/nonexistent/prog': No such file or directory" \
		-w 0 --weights=0:2 /nonexistent/prog
	table_untouched 127 "numactl2: failed to run 'no-such-command-numactl2': No such file or directory" \
		-w 0 --weights=0:2 no-such-command-numactl2
	table_untouched 126 "numactl2: failed to run '$d/noexec': Permission denied" \
		-w 0 --weights=0:2 "$d/noexec"
	table_untouched 126 "numactl2: failed to run '$d': Permission denied" -w 0 --weights=0:2 "$d"
	table_untouched 127 "numactl2: failed to run '/nonexistent/prog': No such file or directory" \
		-w 0 --weights=0:2 --restore-weights /nonexistent/prog
	# A slip in the order: 5 is the command, and the hint comes before any write.
	table_untouched 127 "numactl2: failed to run '5': No such file or directory (did you mean --wait=5?)" \
		-w 0 --weights=0:2 --wait 5 --dry-run true
}

@test "a failed exec puts the global weights back" {
	local snap f=$BATS_TEST_TMPDIR/badinterp
	snap=$(wi_snapshot)
	# Found and executable, so the run goes ahead; the exec fails (ENOENT).
	printf '#!/nonexistent/interp\n' >"$f"
	chmod 0755 "$f"
	run -127 --separate-stderr "$NUMACTL2" -w 0 --weights=0:9 "$f"
	[ "${stderr_lines[1]}" = "numactl2: put the global interleave weights back" ]
	[ "${stderr_lines[2]}" = "numactl2: failed to run '$f': No such file or directory" ]
	[ "$(wi_snapshot | grep ^node)" = "$(echo "$snap" | grep ^node)" ]
}

@test "a failed write rolls back the writes before it" {
	local dir
	dir=$(fake_wi_dir 0 1 2)
	echo 3 >"$dir/node0"
	NUMACTL2_TEST_FAIL_NODE=2 NUMACTL2_SYSFS_WI=$dir run -1 --separate-stderr "$NUMACTL2" --set-global-weights=0-2:5
	[ "$stderr" = "numactl2: cannot change global interleave weight of node 2 (none changed): Input/output error" ]
	[ "$(cat "$dir/node0")" = 3 ]
	[ "$(cat "$dir/node1")" = 1 ]
	[ "$(cat "$dir/node2")" = 1 ]
}

@test "a failed write on the (copied) host table rolls back and runs nothing" {
	NUMACTL2_TEST_FAIL_NODE=0 run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=0:9 touch "$BATS_TEST_TMPDIR/ran"
	[ "$stderr" = "numactl2: cannot change global interleave weight of node 0 (none changed): Input/output error" ]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	[ "$(wi_snapshot)" = "$before" ]
}

@test "a node without a weight file changes nothing" {
	local dir
	dir=$(fake_wi_dir 0)
	NUMACTL2_SYSFS_WI=$dir run -1 --separate-stderr "$NUMACTL2" --set-global-weights=0:4,1:4
	[ "$stderr" = "numactl2: node 1 has no global interleave weight in $dir" ]
	[ "$(cat "$dir/node0")" = 1 ]
}

@test "6.9-6.15 table: 0 reads as the default weight 1, no auto switch" {
	local dir
	dir=$(fake_wi_dir 0 1 2 3)
	echo 0 >"$dir/node2"
	NUMACTL2_SYSFS_WI=$dir run -0 --separate-stderr "$NUMACTL2" --set-global-weights=2:3
	[ "$stderr" = "numactl2: changed global interleave weights: node2 1->3" ]
	[ "$(cat "$dir/node2")" = 3 ]
}

@test "a kernel without the table (before 6.9)" {
	NUMACTL2_SYSFS_WI=$BATS_TEST_TMPDIR/none run -1 --separate-stderr "$NUMACTL2" --set-global-weights=0:2
	[ "$stderr" = "numactl2: this kernel has no global interleave weights (needs Linux 6.9 or later)" ]
}

@test "not root: a clear message and nothing written" {
	command -v setpriv >/dev/null || skip "needs setpriv"
	[ "$(id -u)" = 0 ] || skip "needs root to drop privileges"
	# nobody must reach the copied table (bats makes its directories 0700),
	# so that only the files' own mode can refuse it.
	chmod o+x "$BATS_RUN_TMPDIR" "$BATS_RUN_TMPDIR/test" "$BATS_TEST_TMPDIR"
	local cur
	cur=$(node0)
	[ "$cur" != 8 ] || echo 7 >"$WI_DIR/node0"
	cur=$(node0)
	run -1 --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$NUMACTL2" -w 0 --weights=0:8 touch "$BATS_TEST_TMPDIR/ran"
	[ "$stderr" = "numactl2: node 0 has global weight $cur, not 8, and only root can change it, or numactl2d where an admin runs it (numactl2d(8)): ask for the weights in effect (--weights=0:$cur), check with --dry-run, or have an admin run 'numactl2 --set-global-weights=0:8'" ]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	[ "$(node0)" = "$cur" ]
	run -1 --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$NUMACTL2" --set-global-weights=0:8
	[ "$stderr" = "numactl2: changing global interleave weights needs root, or numactl2d where an admin runs it (numactl2d(8))" ]
}

@test "not root: --reset-global-weights and --auto-global-weights change nothing" {
	command -v setpriv >/dev/null || skip "needs setpriv"
	[ "$(id -u)" = 0 ] || skip "needs root to drop privileges"
	local dir snap
	dir=$(fake_wi_dir 0)
	echo 5 >"$dir/node0"
	echo false >"$dir/auto"
	chmod o+x "$BATS_RUN_TMPDIR" "$BATS_RUN_TMPDIR/test" "$BATS_TEST_TMPDIR" "$dir"
	snap=$(ls -l --time-style=+%s.%N "$dir"; cat "$dir"/*)
	NUMACTL2_SYSFS_WI=$dir run -1 --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$NUMACTL2" --reset-global-weights
	[ -z "$output" ]
	[ "$stderr" = "numactl2: changing global interleave weights needs root, or numactl2d where an admin runs it (numactl2d(8))" ]
	NUMACTL2_SYSFS_WI=$dir run -1 --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$NUMACTL2" --auto-global-weights
	[ -z "$output" ]
	[ "$stderr" = "numactl2: changing global interleave weights needs root, or numactl2d where an admin runs it (numactl2d(8))" ]
	[ "$(ls -l --time-style=+%s.%N "$dir"; cat "$dir"/*)" = "$snap" ]
}

@test "any user's flock on the table's directory holds nobody; root's runs wait for the owner's lock, a file only root can open (finding 1)" {
	local state=${WI_DIR%/*}/numactl2 holder
	# -o: the lock is flock's own, so that killing flock releases it; bats'
	# descriptor 3 closed, so that bats does not wait for the sleep.
	flock -o "$WI_DIR" sleep 60 3>&- &
	holder=$!
	lock_holders=("$holder")
	wait_until eval '! flock -n "$WI_DIR" true' || return 1
	# flock takes the lock before it forks sleep: the sleep may come later.
	wait_until pgrep -P "$holder" sleep >/dev/null || return 1
	lock_holders+=("$(pgrep -P "$holder" sleep)")
	run -0 --separate-stderr timeout 30 "$NUMACTL2" -w 0 --weights=0:11 cat "$WI_DIR/node0"
	[ "$output" = 11 ]
	kill "${lock_holders[@]}"
	wait "$holder" || true
	run -0 stat -c '%U %a' "$state" "$state/state.lock"
	[ "${lines[0]}" = "$(id -un) 755" ]
	[ "${lines[1]}" = "$(id -un) 600" ]
	flock -o "$state/state.lock" sleep 60 3>&- &
	holder=$!
	lock_holders=("$holder")
	wait_until eval '! flock -n "$state/state.lock" true' || return 1
	lock_holders+=("$(pgrep -P "$holder" sleep)")
	run -1 --separate-stderr timeout 60 "$NUMACTL2" -w 0 --weights=0:12 touch "$BATS_TEST_TMPDIR/ran"
	[ "$stderr" = "numactl2: cannot take the global weight table's state in $state: Device or resource busy; nothing changed" ]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	[ "$(node0)" = 1 ]
	kill "${lock_holders[@]}"
	lock_holders=()
	wait "$holder" || true
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:12 cat "$WI_DIR/node0"
	[ "$output" = 12 ]
}

@test "concurrent runs never leave a mixed table" {
	local dir i pids=() w
	dir=$(fake_wi_dir 0 1 2 3 4 5 6 7)
	for i in $(seq 2 31); do
		NUMACTL2_SYSFS_WI=$dir "$NUMACTL2" --set-global-weights=0-7:$i \
			2>"$BATS_TEST_TMPDIR/err.$i" &
		pids+=($!)
	done
	for i in "${pids[@]}"; do
		wait "$i"
	done
	# Every run changed the table and said so; the last one wins whole.
	for i in $(seq 2 31); do
		run -0 grep -c -x "numactl2: changed global interleave weights: node0 [0-9]*->$i, .*, node7 [0-9]*->$i" "$BATS_TEST_TMPDIR/err.$i"
		[ "$output" = 1 ]
	done
	run -0 sort -u "$dir"/node0 "$dir"/node1 "$dir"/node2 "$dir"/node3 "$dir"/node4 "$dir"/node5 "$dir"/node6 "$dir"/node7
	[ "${#lines[@]}" -eq 1 ]
	w=${lines[0]}
	[ "$w" -ge 2 ]
	[ "$w" -le 31 ]
}

@test "a symlinked weight or auto file is not written through" {
	local dir
	dir=$(fake_wi_dir 0 1)
	echo 7 >"$BATS_TEST_TMPDIR/target"
	rm "$dir/node1"
	ln -s "$BATS_TEST_TMPDIR/target" "$dir/node1"
	NUMACTL2_SYSFS_WI=$dir run -1 --separate-stderr "$NUMACTL2" --set-global-weights=0-1:5
	[ "$stderr" = "numactl2: cannot change global interleave weight of node 1 (none changed): Too many levels of symbolic links" ]
	[ "$(cat "$BATS_TEST_TMPDIR/target")" = 7 ]
	[ "$(cat "$dir/node0")" = 1 ]
	# The auto switch alone, in a table whose node files are regular.
	dir=$BATS_TEST_TMPDIR/auto-link
	mkdir "$dir"
	echo 1 >"$dir/node0"
	echo false >"$BATS_TEST_TMPDIR/target"
	ln -s "$BATS_TEST_TMPDIR/target" "$dir/auto"
	NUMACTL2_SYSFS_WI=$dir run -1 --separate-stderr "$NUMACTL2" --auto-global-weights
	[ "$(cat "$BATS_TEST_TMPDIR/target")" = false ]
}

@test "a weight file that is not a regular file is refused, without blocking" {
	local dir
	dir=$(fake_wi_dir 0 1)
	rm "$dir/node1"
	mkfifo "$dir/node1"
	NUMACTL2_SYSFS_WI=$dir run -1 --separate-stderr timeout 10 "$NUMACTL2" --set-global-weights=0-1:5
	[ "$stderr" = "numactl2: cannot change global interleave weight of node 1 (none changed): Invalid argument" ]
	[ "$(cat "$dir/node0")" = 1 ]
}

@test "an auto switch that holds neither true nor false is not taken for one" {
	local dir
	dir=$(fake_wi_dir 0)
	echo bogus >"$dir/auto"
	NUMACTL2_SYSFS_WI=$dir run -0 --separate-stderr "$NUMACTL2" -w 0 --show
	[ "${lines[4]}" = "weightsource: global" ]
	NUMACTL2_SYSFS_WI=$dir run -1 --separate-stderr "$NUMACTL2" --auto-global-weights
	[ "$stderr" = "numactl2: this kernel has no auto interleave weights (needs Linux 6.16 or later)" ]
	[ "$(cat "$dir/auto")" = bogus ]
}

@test "a weight file that holds no weight is refused before anything is written" {
	local dir
	dir=$(fake_wi_dir 0 1)
	echo bogus >"$dir/node1"
	NUMACTL2_SYSFS_WI=$dir run -1 --separate-stderr "$NUMACTL2" --set-global-weights=0-1:5
	[[ $stderr == "numactl2: cannot change global interleave weight of node 1 (none changed): "* ]]
	[ "$(cat "$dir/node0")" = 1 ]
	[ "$(cat "$dir/node1")" = bogus ]
}

@test "--set-global-weights and --reset-global-weights" {
	local old
	old=$(node0)
	# A copy has no kernel behind it to turn auto off: start in manual mode.
	rm -f "$WI_DIR/auto" "$WI_DIR/__auto_type"
	run -0 --separate-stderr "$NUMACTL2" --set-global-weights=0:12
	[ "$(node0)" = 12 ]
	[ "$stderr" = "numactl2: changed global interleave weights: node0 $((old ? old : 1))->12" ]
	run -0 --separate-stderr "$NUMACTL2" --reset-global-weights
	[ "$(node0)" = 1 ]
	[ "$stderr" = "numactl2: changed global interleave weights: node0 12->1" ]
}

@test "--dry-run of the global options changes nothing" {
	run -0 "$NUMACTL2" --set-global-weights=0:12 --dry-run
	[ "$output" = "would set global interleave weights: 0:12" ]
	run -0 "$NUMACTL2" --reset-global-weights --dry-run
	[ "$output" = "would set global interleave weights: 0:1" ]
	[ "$(wi_snapshot)" = "$before" ]
}

@test "--dry-run of the global options fails as the run would: no bandwidth data, not root" {
	local dir
	dir=$(fake_wi_dir 0)
	echo false >"$dir/auto"
	# No node has access0 bandwidth: Linux would refuse "true" (ENODEV).
	mkdir -p "$BATS_TEST_TMPDIR/nobw/node0"
	NUMACTL2_SYSFS_NODE=$BATS_TEST_TMPDIR/nobw NUMACTL2_SYSFS_WI=$dir \
		run -1 --separate-stderr "$NUMACTL2" --auto-global-weights --dry-run
	[ "$output" = "would turn on the kernel's auto interleave weights" ]
	[ "$stderr" = "numactl2: the platform reports no node bandwidth; the kernel cannot set weights from it" ]
	[ "$(cat "$dir/auto")" = false ]
	node_bandwidth 0
	NUMACTL2_SYSFS_WI=$dir run -0 --separate-stderr "$NUMACTL2" --auto-global-weights --dry-run
	[ "$output" = "would turn on the kernel's auto interleave weights" ]
	[ -z "$stderr" ]
	[ "$(cat "$dir/auto")" = false ]
	command -v setpriv >/dev/null || skip "needs setpriv"
	[ "$(id -u)" = 0 ] || skip "needs root to drop privileges"
	chmod o+x "$BATS_RUN_TMPDIR" "$BATS_RUN_TMPDIR/test" "$BATS_TEST_TMPDIR" "$dir"
	NUMACTL2_SYSFS_WI=$dir run -1 --separate-stderr setpriv --reuid=65534 --regid=65534 \
		--clear-groups "$NUMACTL2" --set-global-weights=0:8 --dry-run
	[ "$output" = "would set global interleave weights: 0:8" ]
	[ "$stderr" = "numactl2: changing global interleave weights needs root, or numactl2d where an admin runs it (numactl2d(8))" ]
	[ "$(cat "$dir/node0")" = 1 ]
}

@test "--auto-global-weights on a platform without bandwidth data (the kernel's ENODEV)" {
	command -v strace >/dev/null || skip "needs strace to return the kernel's ENODEV"
	local dir
	dir=$(fake_wi_dir 0 1)
	echo 4 >"$dir/node1"
	echo false >"$dir/auto"
	# The kernel refuses "true" with ENODEV where no node reports bandwidth;
	# strace answers the write to the copy the same way.
	NUMACTL2_SYSFS_WI=$dir run -1 --separate-stderr strace -f -o /dev/null \
		-e trace=pwrite64 -e inject=pwrite64:error=ENODEV "$NUMACTL2" --auto-global-weights
	[ -z "$output" ]
	[ "$stderr" = "numactl2: the platform reports no node bandwidth; the kernel cannot set weights from it" ]
	[ "$(cat "$dir/node0")" = 1 ]
	[ "$(cat "$dir/node1")" = 4 ]
}

@test "--auto-global-weights writes true to auto or __auto_type" {
	local dir name
	for name in auto __auto_type; do
		dir=$(fake_wi_dir 0)
		rm -f "$dir"/auto "$dir"/__auto_type
		echo false >"$dir/$name"
		NUMACTL2_SYSFS_WI=$dir run -0 --separate-stderr "$NUMACTL2" --auto-global-weights
		[ "$(cat "$dir/$name")" = true ]
		[ "$stderr" = "numactl2: global interleave weights are now set by the kernel from node bandwidth" ]
	done
	rm "$dir/$name"
	NUMACTL2_SYSFS_WI=$dir run -1 --separate-stderr "$NUMACTL2" --auto-global-weights
	[ "$stderr" = "numactl2: this kernel has no auto interleave weights (needs Linux 6.16 or later)" ]
}

@test "--show reports auto or manual from the switch" {
	local dir
	dir=$(fake_wi_dir 0)
	echo true >"$dir/auto"
	NUMACTL2_SYSFS_WI=$dir run -0 "$NUMACTL2" -w 0 --show
	[ "${lines[4]}" = "weightsource: global auto" ]
	rm "$dir/auto"
	NUMACTL2_SYSFS_WI=$dir run -0 "$NUMACTL2" -w 0 --show
	[ "${lines[4]}" = "weightsource: global" ]
}

@test "--no-global-weights: weights the table already holds are no change, and the job runs" {
	echo 4 >"$WI_DIR/node0"
	local mid
	mid=$(wi_snapshot)
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:4 --no-global-weights "$NUMACTL2" --show
	[ "${lines[3]}" = "interleaveweights: 4" ]
	[ -z "$stderr" ]
	[ "$(wi_snapshot)" = "$mid" ]
	# The README's batch line, on this host's node: it runs on a stock kernel.
	echo 9 >"$WI_DIR/node0"
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:9 --no-global-weights true
	[ -z "$stderr" ]
	# A weight that would have to be written is still refused, and nothing runs.
	run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 --no-global-weights touch "$BATS_TEST_TMPDIR/ran"
	[ "$stderr" = "numactl2: this kernel has no task-local weights (set_mempolicy2), and --no-global-weights forbids changing the global ones" ]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	[ "$(cat "$WI_DIR/node0")" = 9 ]
}

@test "--no-global-weights with --weights=measured: decided under the lock once measured" {
	# One node measures to weight 1: the table's 1 holds, a 7 would be written.
	echo 1 >"$WI_DIR/node0"
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=measured --measure-size=8m --measure-time=1 \
		--no-global-weights "$NUMACTL2" --show
	[ "${lines[3]}" = "interleaveweights: 1" ]
	echo 7 >"$WI_DIR/node0"
	run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=measured --measure-size=8m --measure-time=1 \
		--no-global-weights touch "$BATS_TEST_TMPDIR/ran"
	[ "${stderr_lines[1]}" = "numactl2: this kernel has no task-local weights (set_mempolicy2), and --no-global-weights forbids changing the global ones" ]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	[ "$(cat "$WI_DIR/node0")" = 7 ]
}

@test "a failed exec that wrote nothing says nothing about putting weights back" {
	echo 4 >"$WI_DIR/node0"
	run -127 --separate-stderr "$NUMACTL2" -w 0 --weights=0:4 /nonexistent/prog
	[ "$stderr" = "numactl2: failed to run '/nonexistent/prog': No such file or directory" ]
	[ "$(cat "$WI_DIR/node0")" = 4 ]
}
