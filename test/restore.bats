#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The table as it was (lib/owner/book.c, state.c, lib/job/watcher.c): once
# the last job that needs changed global weights has ended, the table and
# the kernel's auto switch are back to what they were before the first of
# them, put back by the table's owner: here root's own numactl2, told by a
# detached watcher or, where that was killed, at the next run that asks it. On a copy of the table: the test
# build's NUMACTL2_TEST_KERNEL_AUTO makes the copy's auto switch act as the
# kernel's (a node write turns it off; nobw: turning it on fails with
# ENODEV). The real table is tested in the guest (vm/guest/restore.bats).

load helpers

setup() {
	WI=$(fake_wi_dir 0 1)
	echo true >"$WI/__auto_type"
	export NUMACTL2_SYSFS_WI=$WI NUMACTL2_TEST_KERNEL_AUTO=1
	# Linux could turn the auto switch back on: nodes with bandwidth.
	node_bandwidth 0 1
	# The owner's state (numactl2/ beside the copy of the table): a job's
	# weights held, the table as it was.
	STATE=$BATS_TEST_TMPDIR/numactl2/state
	bg=()
}

teardown() {
	local p
	for p in "${bg[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${bg[@]}"; do wait "$p" 2>/dev/null || true; done
	for p in $(watchers); do kill "$p" 2>/dev/null || true; done
}

# no_holder: the state names no job and no node to put back.
no_holder() { ! grep -q '^grant \|^base ' "$STATE"; }

LEASE_WAIT=5

table() { echo "$(cat "$WI/node0") $(cat "$WI/node1") $(cat "$WI/__auto_type")"; }

# wait_for_table "N0 N1 AUTO": until the copy is that, for wait_until's
# bound: the watcher puts it back after the job has ended, not with it
# (milliseconds idle, seconds with both cores busy).
wait_for_table() {
	wait_until table_is "$1" && return 0
	echo "the table is '$(table)', not '$1'"
	return 1
}

table_is() { [ "$(table)" = "$1" ]; }

# The watchers of this test's table: their environment names it.
watchers() {
	local p
	for p in $(pgrep -x numactl2-watch); do
		tr '\0' '\n' 2>/dev/null <"/proc/$p/environ" | grep -qxF "NUMACTL2_SYSFS_WI=$WI" && echo "$p"
	done
	return 0
}

# wait_for_watcher: until this test has exactly one watcher ($watcher),
# for wait_until's bound.
wait_for_watcher() {
	wait_until one_watcher && return 0
	echo "watchers: '$(watchers)'"
	return 1
}

one_watcher() {
	watcher=$(watchers)
	[ -n "$watcher" ] && [ "$(wc -w <<<"$watcher")" -eq 1 ]
}

@test "a job that exits: the table and the auto switch back as they were, and the notice says so" {
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:3 sh -c "echo \$(cat $WI/node0) \$(cat $WI/__auto_type)"
	[ "$output" = "3 false" ]
	[ "$stderr" = "numactl2: changed global interleave weights: node0 1->3; kernel auto weights switched off$AFTER_JOB" ]
	wait_for_table "1 1 true"
	no_holder
}

@test "a job killed with SIGKILL: the table back as it was" {
	echo 2 >"$WI/node1"
	hold 0 0:3
	[ "$(table)" = "3 2 false" ]
	kill -KILL "$holder"
	wait "$holder" || true
	wait_for_table "1 2 true"
}

# A pipe nobody reads, full: numactl2 blocks writing its notice, after the
# table's change and before the exec, until it is killed there (the notice
# is longer than the pipe can take now, so it never gets past it).
@test "numactl2 SIGKILLed between the table's change and the exec: the table back as it was" {
	local fifo=$BATS_TEST_TMPDIR/stderr full run
	mkfifo "$fifo"
	exec {full}<>"$fifo"
	dd if=/dev/zero of="$fifo" bs=4096 count=64 oflag=nonblock 2>/dev/null || true
	"$NUMACTL2" -w 0 --weights=0:3 true 2>&"$full" &
	run=$!
	bg+=("$run")
	wait_until table_is "3 1 false"
	kill -KILL "$run"
	wait "$run" || true
	exec {full}>&-
	wait_for_table "1 1 true"
	no_holder
}

@test "a refused change leaves no watcher behind" {
	hold 0 0:3
	wait_for_watcher
	local first=$watcher
	run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 true
	[[ "$stderr" == *"is held at weight 3 by PID $holder"* ]] || return 1
	# A watcher left armed would wait for the holder's end: for as long as it runs.
	wait_until one_watcher
	[ "$watcher" = "$first" ]
	[ "$(table)" = "3 1 false" ]
}

@test "two overlapping jobs: back only once the second has ended, to the table before the first" {
	hold 0 0:3
	local first=$holder w1
	wait_for_watcher
	w1=$watcher
	# The second shares node 0's weight: it writes nothing, and needs it.
	hold 0 0:3
	local second=$holder
	[ "$(table)" = "3 1 false" ]
	kill "$first"
	wait "$first" || true
	# The first job's watcher has given its weights back, and is gone.
	wait_until eval '! kill -0 "$w1" 2>/dev/null' || return 1
	run -1 grep -q "^grant $first " "$STATE"
	[ "$(table)" = "3 1 false" ]
	run -0 grep -q "^grant $second " "$STATE"
	kill "$second"
	wait "$second" || true
	wait_for_table "1 1 true"
}

@test "the watcher killed: the next run that asks the owner puts the table back" {
	hold 0 0:3
	wait_for_watcher
	# As systemd kills a unit's cgroup: the job and its watcher at once.
	kill -KILL "$watcher" "$holder"
	wait "$holder" || true
	# Nothing left to put it back: the table stays as the job left it...
	sleep 1
	[ "$(table)" = "3 1 false" ]
	run -0 grep -q "^base 0 1" "$STATE"
	# --no-global-weights writes nothing, not even that; --show and
	# --dry-run neither.
	run -0 --separate-stderr "$NUMACTL2" -w 0 --no-global-weights true
	run -0 "$NUMACTL2" --show
	run -0 "$NUMACTL2" -w 0 --weights=0:3 --dry-run true
	[ "$(table)" = "3 1 false" ]
	# ...until the next run that asks the owner: -w alone does.
	run -0 --separate-stderr "$NUMACTL2" -w 0 cat "$WI/node0"
	[ "$output" = 1 ]
	[ -z "$stderr" ]
	[ "$(table)" = "1 1 true" ]
}

@test "the watcher killed: --set-global-weights puts the table back first, then changes it" {
	hold 0 0:3
	wait_for_watcher
	kill -KILL "$watcher"
	kill "$holder"
	wait "$holder" || true
	run -0 --separate-stderr "$NUMACTL2" --set-global-weights=1:4
	[ "$stderr" = "numactl2: changed global interleave weights: node1 1->4; kernel auto weights switched off" ]
	[ "$(table)" = "1 4 false" ]
}

@test "--keep-weights: the weights and the auto switch stay after the job" {
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:3 --keep-weights true
	[ "$stderr" = "numactl2: changed global interleave weights: node0 1->3; kernel auto weights switched off; kept after the job (--keep-weights)" ]
	[ -z "$(watchers)" ]
	run -1 grep -q '^base ' "$STATE"
	# The next runs have nothing to put back.
	run -0 --separate-stderr "$NUMACTL2" -w 0 true
	[ -z "$stderr" ]
	[ "$(table)" = "3 1 false" ]
	no_holder
}

@test "--set-global-weights during a job: the table goes back to what the admin set" {
	hold 0 0:3
	run -0 --separate-stderr "$NUMACTL2" --set-global-weights=1:4
	[ "$(table)" = "3 4 false" ]
	kill "$holder"
	wait "$holder" || true
	# Node 0 as it was before the job; node 1 and the auto switch as the admin left them.
	wait_for_table "1 4 false"
	no_holder
}

@test "--auto-global-weights during a job (--force): auto is what the table goes back to" {
	echo false >"$WI/__auto_type"
	hold 0 0:3
	run -0 --separate-stderr "$NUMACTL2" --auto-global-weights --force
	run -1 grep -q "^base " "$STATE"
	kill "$holder"
	wait "$holder" || true
	sleep 1
	[ "$(table)" = "3 1 true" ]
}

@test "no bandwidth data (ENODEV): the weights go back, one line says auto stays off and why" {
	export NUMACTL2_TEST_KERNEL_AUTO=nobw
	local err=$BATS_TEST_TMPDIR/err
	"$NUMACTL2" -w 0 --weights=0:3 true 2>"$err"
	wait_for_table "1 1 false"
	local end=$((SECONDS + 10))
	while [ "$SECONDS" -lt "$end" ] && [ "$(wc -l <"$err")" -lt 2 ]; do sleep 0.05; done
	run -0 cat "$err"
	[ "${lines[0]}" = "numactl2: changed global interleave weights: node0 1->3; kernel auto weights switched off$AFTER_JOB" ]
	[ "${lines[1]}" = "numactl2: could not put everything back after the job: the kernel's auto weights stay off (the kernel cannot turn them back on: no node has bandwidth data)" ]
	[ "${#lines[@]}" -eq 2 ]
	no_holder
}

@test "no bandwidth data, the watcher killed: the next run puts the weights back, auto stays off" {
	export NUMACTL2_TEST_KERNEL_AUTO=nobw
	hold 0 0:3
	wait_for_watcher
	kill -KILL "$watcher"
	kill "$holder"
	wait "$holder" || true
	run -0 --separate-stderr "$NUMACTL2" -w 0 true
	[ "$(table)" = "1 1 false" ]
	no_holder
}

@test "the job is numactl2's process, has no child of numactl2's, and the watcher is in its own session" {
	local f=$BATS_TEST_TMPDIR/job
	# read and echo are built in: the job's children are none of its own making.
	"$NUMACTL2" -w 0 --weights=0:3 sh -c "read -r c </proc/\$\$/task/\$\$/children; echo \"\$\$ [\$c]\" >$f; exec sleep 30" 2>/dev/null &
	holder=$!
	bg+=("$holder")
	wait_for_comm "$holder" sleep
	[ "$(cat "$f")" = "$holder []" ]
	wait_for_watcher
	# Neither in the job's session nor in its process group; not its child.
	[ "$(ps -o sid= -p "$watcher")" -ne "$(ps -o sid= -p "$holder")" ]
	[ "$(ps -o pgid= -p "$watcher")" -ne "$(ps -o pgid= -p "$holder")" ]
	[ "$(ps -o ppid= -p "$watcher")" -ne "$holder" ]
	# It holds neither the job's stdio nor its lease: /dev/null, its pidfd, its signalfd.
	run -0 bash -c "for f in /proc/$watcher/fd/*; do readlink \$f; done | sort -u | tr '\n' ' '"
	[ "$output" = "/dev/null anon_inode:[pidfd] anon_inode:[signalfd] " ]
	kill -TERM "$holder"
	wait "$holder" || true
	wait_for_table "1 1 true"
}

@test "a caller reading the job's output to its end does not wait for the watcher" {
	# The first job's watcher waits on while the second job holds node 0.
	hold 0 0:3
	local t0=$SECONDS out
	out=$("$NUMACTL2" -w 0 --weights=0:3 echo done 2>&1)
	[ "$out" = done ]
	# A bound, not a timing: a watcher holding the pipe would block until teardown.
	[ $((SECONDS - t0)) -lt 5 ]
	[ "$(table)" = "3 1 false" ]
}

@test "a state that is not root's is not trusted: nothing changes, and the run says so" {
	hold 0 0:3
	wait_for_watcher
	kill -KILL "$watcher"
	chown 65534 "$STATE"
	kill "$holder"
	wait "$holder" || true
	run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=0:2 touch "$BATS_TEST_TMPDIR/ran"
	[ "$stderr" = "numactl2: cannot take the global weight table's state in $BATS_TEST_TMPDIR/numactl2: Operation not permitted; nothing changed" ]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	[ "$(table)" = "3 1 false" ]
}

@test "a failed exec: the table back at once, no baseline left" {
	local f=$BATS_TEST_TMPDIR/badinterp
	# Found and executable (the run goes ahead); its exec fails.
	printf '#!/nonexistent/interp\n' >"$f"
	chmod 0755 "$f"
	run -127 --separate-stderr "$NUMACTL2" -w 0 --weights=0:3 "$f"
	[ "${stderr_lines[0]}" = "numactl2: changed global interleave weights: node0 1->3; kernel auto weights switched off$AFTER_JOB" ]
	[ "${stderr_lines[1]}" = "numactl2: put the global interleave weights back" ]
	[ "$(cat "$WI/node0")" = 1 ]
	no_holder
}

@test "--report: its watcher puts the table back as it was at the job's end" {
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:3 --report=json \
		--report-file="$BATS_TEST_TMPDIR/r.json" cat "$WI/node0"
	[ "$output" = 3 ]
	[ "${stderr_lines[0]}" = "numactl2: changed global interleave weights: node0 1->3; kernel auto weights switched off$AFTER_JOB" ]
	wait_for_table "1 1 true"
	no_holder
}

@test "a state of another boot is dropped, not put back over this boot's table (finding 5)" {
	mkdir -m 0755 "$BATS_TEST_TMPDIR/numactl2"
	printf 'numactl2d-state 1\nboot 00000000-0000-0000-0000-000000000000\nauto 0\nbase 0 7\nbase 1 7\n' >"$STATE"
	chmod 600 "$STATE"
	# This boot's admin setting.
	echo 3 >"$WI/node0"
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:2 cat "$WI/node0"
	[ "$output" = 2 ]
	# Back to this boot's table after the job, not the other boot's 7.
	wait_for_table "3 1 true"
	run -1 grep -q "0000-0000" "$STATE"
}

# Auto weights Linux could not turn back on (issue 37, item 2): no node has
# access0 bandwidth, and the copy's switch refuses as the kernel would.
no_bandwidth() {
	mkdir -p "$BATS_TEST_TMPDIR/nobw"
	export NUMACTL2_SYSFS_NODE=$BATS_TEST_TMPDIR/nobw NUMACTL2_TEST_KERNEL_AUTO=nobw
}

GONE="no node has access0 bandwidth to turn them back on"
GONE_LINE="kernel auto weights: switched off until reboot by this change ($GONE)"
NOT_ON="the kernel's auto weights stay off (the kernel cannot turn them back on: no node has bandwidth data)"

# bad_interp: a command that is found and executable, whose exec fails (ENOENT).
bad_interp() {
	printf '#!/nonexistent/interp\n' >"$BATS_TEST_TMPDIR/badinterp"
	chmod 0755 "$BATS_TEST_TMPDIR/badinterp"
	echo "$BATS_TEST_TMPDIR/badinterp"
}

@test "auto weights that cannot come back: a job's change is refused by root's own owner, named as such, its --dry-run too" {
	no_bandwidth
	local why="numactl2: refused: the kernel's auto weights would stay off until reboot: no node has access0 bandwidth, without which Linux cannot turn them back on; as root, --keep-weights makes the change, and keeps it after the job"
	run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=0:3 touch "$BATS_TEST_TMPDIR/ran"
	[ "$stderr" = "$why" ]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=0:3 --dry-run true
	[ "$stderr" = "$why" ]
	[ "$(table)" = "1 1 true" ]
}

@test "auto weights that cannot come back: --keep-weights's --dry-run and notice say beforehand that they stay off until reboot" {
	no_bandwidth
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:3 --keep-weights --dry-run true
	[ "${lines[3]}" = "weights go to: global (sysfs), which every weighted-interleave task uses" ]
	[ "${lines[4]}" = "$GONE_LINE" ]
	[ "${lines[5]}" = "command: true" ]
	[ -z "$stderr" ]
	[ "$(table)" = "1 1 true" ]
	# Weights the table holds already write nothing: auto stays on, nothing said.
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:1 --keep-weights --dry-run true
	[ "${lines[4]}" = "command: true" ]
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:3 --keep-weights true
	[ "$stderr" = "numactl2: changed global interleave weights: node0 1->3; kernel auto weights switched off until reboot ($GONE); kept after the job (--keep-weights)" ]
	[ "$(table)" = "3 1 false" ]
}

@test "auto weights that can come back: --keep-weights's --dry-run has no such line" {
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:3 --keep-weights --dry-run true
	[ "${lines[4]}" = "command: true" ]
	[[ $output != *"until reboot"* ]] || return 1
}

@test "auto weights that cannot come back: --set- and --reset-global-weights --dry-run say so where they write" {
	no_bandwidth
	run -0 --separate-stderr "$NUMACTL2" --set-global-weights=1:4 --dry-run
	[ "${lines[0]}" = "would set global interleave weights: 1:4" ]
	[ "${lines[1]}" = "$GONE_LINE" ]
	[ "${#lines[@]}" -eq 2 ]
	run -0 --separate-stderr "$NUMACTL2" --set-global-weights=1:1 --dry-run
	[ "$output" = "would set global interleave weights: 1:1" ]
	echo 2 >"$WI/node0"
	run -0 --separate-stderr "$NUMACTL2" --reset-global-weights --dry-run
	[ "${lines[1]}" = "$GONE_LINE" ]
	[ "$(table)" = "2 1 true" ]
	run -0 --separate-stderr "$NUMACTL2" --set-global-weights=1:4
	[ "$stderr" = "numactl2: changed global interleave weights: node1 1->4; kernel auto weights switched off until reboot ($GONE)" ]
}

@test "a failed exec, and the kernel refuses to turn auto back on: that is said, not 'put back'" {
	local f
	f=$(bad_interp)
	# Bandwidth in sysfs, so the change goes ahead; the kernel refuses all the same.
	export NUMACTL2_TEST_KERNEL_AUTO=nobw
	run -127 --separate-stderr "$NUMACTL2" -w 0 --weights=0:3 "$f"
	[ "${stderr_lines[0]}" = "numactl2: changed global interleave weights: node0 1->3; kernel auto weights switched off$AFTER_JOB" ]
	[ "${stderr_lines[1]}" = "numactl2: could not put everything back: $NOT_ON" ]
	[ "${stderr_lines[2]}" = "numactl2: failed to run '$f': No such file or directory" ]
	[ "${#stderr_lines[@]}" -eq 3 ]
	[ "$(table)" = "1 1 false" ]
	no_holder
}

@test "a failed exec after --keep-weights' change: the nodes and the auto switch back as they were" {
	local f
	f=$(bad_interp)
	run -127 --separate-stderr "$NUMACTL2" -w 0 --weights=0:3 --keep-weights "$f"
	[ "${stderr_lines[1]}" = "numactl2: put the global interleave weights back" ]
	[ "$(table)" = "1 1 true" ]
	no_holder
	# Under --report's watcher, the nodes put back are named.
	run -127 --separate-stderr "$NUMACTL2" -w 0 --weights=0:3 --keep-weights --report=json \
		--report-file="$BATS_TEST_TMPDIR/r.json" "$f"
	[ "${stderr_lines[1]}" = "numactl2: put back global interleave weights: node0 3->1" ]
	[ "${stderr_lines[2]}" = "numactl2: failed to run '$f': No such file or directory" ]
	[ "$(table)" = "1 1 true" ]
	no_holder
}

@test "a failed exec after --keep-weights' change where auto cannot come back: the nodes back, the switch said to stay off" {
	local f
	f=$(bad_interp)
	no_bandwidth
	run -127 --separate-stderr "$NUMACTL2" -w 0 --weights=0:3 --keep-weights "$f"
	[ "${stderr_lines[1]}" = "numactl2: could not put everything back: $NOT_ON" ]
	[ "$(table)" = "1 1 false" ]
	echo true >"$WI/__auto_type"
	run -127 --separate-stderr "$NUMACTL2" -w 0 --weights=0:3 --keep-weights --report=json \
		--report-file="$BATS_TEST_TMPDIR/r.json" "$f"
	[ "${stderr_lines[1]}" = "numactl2: put back global interleave weights: node0 3->1" ]
	[ "${stderr_lines[2]}" = "numactl2: could not put everything back: $NOT_ON" ]
	[ "$(table)" = "1 1 false" ]
}

@test "a policy that fails after the change: what stays off is said, not 'put back'" {
	command -v strace >/dev/null || skip "needs strace to make set_mempolicy fail"
	export NUMACTL2_TEST_KERNEL_AUTO=nobw
	run -1 --separate-stderr strace -f -o /dev/null -e trace=set_mempolicy \
		-e inject=set_mempolicy:error=EIO "$NUMACTL2" -w 0 --weights=0:3 true
	[ "${stderr_lines[1]}" = "numactl2: could not put everything back: $NOT_ON" ]
	[ "${stderr_lines[2]}" = "numactl2: cannot set weighted-interleave policy: Input/output error" ]
	[ "$(table)" = "1 1 false" ]
}

@test "--restore-weights, and the kernel refuses to turn auto back on: the nodes put back and the switch are both said" {
	export NUMACTL2_TEST_KERNEL_AUTO=nobw
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:3 --restore-weights true
	[ "${stderr_lines[1]}" = "numactl2: put back global interleave weights: node0 3->1" ]
	[ "${stderr_lines[2]}" = "numactl2: could not put everything back: $NOT_ON" ]
	[ "$(table)" = "1 1 false" ]
}

@test "a write that fails: the writes before it undone, and the auto switch they turned off on again" {
	NUMACTL2_TEST_FAIL_NODE=1 run -1 --separate-stderr "$NUMACTL2" --set-global-weights=0-1:5
	[ "$stderr" = "numactl2: cannot change global interleave weight of node 1 (none changed): Input/output error" ]
	[ "$(table)" = "1 1 true" ]
	no_bandwidth
	NUMACTL2_TEST_FAIL_NODE=1 run -1 --separate-stderr "$NUMACTL2" --set-global-weights=0-1:5
	[ "$stderr" = "numactl2: cannot change global interleave weight of node 1 (none changed, but the kernel's auto weights stay off until reboot: $GONE): Input/output error" ]
	[ "$(table)" = "1 1 false" ]
}
