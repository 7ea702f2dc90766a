#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# numactl2d, the table's owner, on the host: the test build of the service
# on a private socket and a copy of the table (NUMACTL2_SYSFS_WI), started
# and stopped by PID in each test. Users who are not root ask it for
# weights; the admin's rules decide. The real table is tested in the guest.

load helpers
load svc_helpers

HMAT_DRIVER=${HMAT_DRIVER:-$BATS_TEST_DIRNAME/../build/test/hmat_driver}

@test "service: a user who is not root gets weights the rules allow, and they go back after the job" {
	svc_start
	run -0 --separate-stderr as_nobody "$NUMACTL2" -w 0 --weights=0:5 cat "$SVC/wi/node0"
	[ "$output" = 5 ]
	[[ $stderr == *"changed global interleave weights: node0 1->5"* ]] || return 1
	# Put back when the service sees the job's pidfd end: after the return.
	wait_until w_is 0 1
	grep -q "uid 65534 set node0 1->5 for pid" "$SVC/log"
	grep -q "put back after pid" "$SVC/log"
}

@test "service: outside the rules, the refusal names the rule; nothing changes or runs" {
	svc_start
	run -1 --separate-stderr as_nobody "$NUMACTL2" -w 0 --weights=0:9 touch "$SVC/ran"
	[ "$stderr" = "numactl2: numactl2d refused to change node 0: line 1 (nobody 0 8 16): node 0 may be given at most 8" ]
	[ ! -e "$SVC/ran" ]
	[ "$(w 0)" = 1 ]
}

@test "service: a rule's largest sum bounds one ask: over it refused, naming the rule; at it granted" {
	printf '%s\n' "nobody 0 8 5" >"$SVC/rules.conf"
	svc_start
	run -1 --separate-stderr as_nobody "$NUMACTL2" -w 0 --weights=0:6 cat "$SVC/wi/node0"
	[ "$stderr" = "numactl2: numactl2d refused to change node 0: line 1 (nobody 0 8 5): the weights may add up to at most 5, not 6" ]
	[ -z "$output" ]
	[ "$(w 0)" = 1 ]
	run -0 --separate-stderr as_nobody "$NUMACTL2" -w 0 --weights=0:5 cat "$SVC/wi/node0"
	[ "$output" = 5 ]
}

@test "service: without a rule a user leases the weights in effect and changes none" {
	printf '\n' >"$SVC/rules.conf"
	svc_start
	run -0 --separate-stderr as_nobody "$NUMACTL2" -w 0 --weights=0:1 cat "$SVC/wi/node0"
	[ "$output" = 1 ]
	[ -z "$stderr" ]
	run -1 --separate-stderr as_nobody "$NUMACTL2" -w 0 --weights=0:2 true
	[ "$stderr" = "numactl2: numactl2d refused to change node 0: no rule in $SVC/rules.conf lets this user change node 0" ]
	[ "$(w 0)" = 1 ]
}

@test "service: another job holds the node: refused with its PID, or waited for with --wait" {
	svc_start
	hold_as_nobody 5
	holder=$held
	run -1 --separate-stderr as_nobody "$NUMACTL2" -w 0 --weights=0:6 true
	[[ $stderr == "numactl2: node 0 is held at weight 5 by PID $holder ("*", uid 65534) through numactl2d; this needs weight 6 there: --wait to queue, --force to override" ]] || return 1
	[ "$(w 0)" = 5 ]
	# --wait: granted once the holder ends (killed here, two seconds on).
	(sleep 2; kill "$holder") &
	bg+=($!)
	run -0 --separate-stderr as_nobody "$NUMACTL2" -w 0 --weights=0:6 --wait=60 cat "$SVC/wi/node0"
	[ "$output" = 6 ]
}

# The socket's path appears only once it is 0666 and listening: a client
# that finds it is served (svc_start waits for the path alone). strace's
# order of the calls is the proof: a race of a few microseconds is not.
@test "service: its socket appears only once any user may connect and it listens" {
	command -v strace >/dev/null || skip "needs strace"
	strace -f -o "$SVC/trace" -e trace=bind,chmod,listen,link,rename \
		"$NUMACTL2D" --socket="$SVC/run/socket" --state="$SVC/state" \
		--rules="$SVC/rules.conf" --stderr 2>>"$SVC/log" &
	tracer=$!
	bg+=("$tracer")
	wait_until [ -S "$SVC/run/socket" ] || return 1
	# Stopped by its own PID (svc_stop): strace then ends with it.
	svc_pid=$(pgrep -P "$tracer" -x numactl2d)
	[ -n "$svc_pid" ] || return 1
	run -0 --separate-stderr as_nobody "$NUMACTL2" -w 0 --weights=0:7 cat "$SVC/wi/node0"
	[ "$output" = 7 ] || return 1
	svc_stop
	wait "$tracer"
	run -0 grep -nE '^[0-9]+ +(bind|chmod|listen|link|rename)\(' "$SVC/trace"
	echo "$output"
	# The bind is not to the public path; the link to it comes after listen.
	run -0 awk -v p="$SVC/run/socket" '
		/ bind\(/ && index($0, "\"" p "\"") { print "bound at the path"; exit }
		/ listen\(/ { listened = 1 }
		/ link\(/ && index($0, ", \"" p "\"") { linked = listened ? "after" : "before" }
		END { if (linked != "after") print "linked " (linked ? linked : "never") }' <<<"$output"
	[ -z "$output" ]
}

@test "service: a client that connects and never speaks holds up nobody, and is dropped" {
	svc_start
	"${NOBODY[@]}" "$PY" "$CLIENT" "$SVC/run/socket" silent 30 >"$SVC/silent" &
	bg+=($!)
	wait_until grep -q connected "$SVC/silent"
	# Served while the silent one is still connected.
	run -0 --separate-stderr as_nobody "$NUMACTL2" -w 0 --weights=0:3 cat "$SVC/wi/node0"
	[ "$output" = 3 ]
	# The service closes it at its deadline (2 s): the client sees the end.
	wait_until grep -q closed "$SVC/silent"
}

@test "service: a user's connections are bounded; other users are still served" {
	local i
	svc_start
	for i in 1 2 3 4 5 6 7 8; do
		as_nobody "$PY" "$CLIENT" "$SVC/run/socket" silent 30 >"$SVC/silent$i" &
		bg+=($!)
	done
	for i in 1 2 3 4 5 6 7 8; do wait_until grep -q connected "$SVC/silent$i"; done
	run -0 as_nobody "$PY" "$CLIENT" "$SVC/run/socket" silent 5
	[ "${lines[1]}" = LIMIT ]
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:4 cat "$SVC/wi/node0"
	[ "$output" = 4 ]
}

# waiters N [COMMAND...]: N connections of one process (run through
# COMMAND: setpriv for another user) that the service keeps open: each
# asks node 0 at 6 and waits for nobody's job, which holds it at 5
# ($held). Returns once all are sent, in the backlog before any later
# connection.
waiters() {
	local n=$1
	shift
	hold_as_nobody 5
	"$@" "$PY" "$CLIENT" "$SVC/run/socket" wait "$n" 0 6 >"$SVC/waiters" &
	# Killed before the holder, whose end would grant them all.
	bg=($! "${bg[@]}")
	wait_until grep -q asked "$SVC/waiters"
}

@test "service: at its 8 connections a user's own run is refused in the limit's words, not as a reset; another user is served" {
	local i
	svc_start
	waiters 8 "${NOBODY[@]}"
	# The service answers and closes without reading the ask, before or
	# after the client sends it or reads: five runs, for the orders of the
	# race, each of which must give the answer.
	for i in 1 2 3 4 5; do
		run -1 --separate-stderr as_nobody "$NUMACTL2" -w 0 --weights=0:5 true
		echo "$stderr"
		[ "$stderr" = "numactl2: numactl2d refused: too many connections of this user: at most 8 at once" ]
	done
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 cat "$SVC/wi/node0"
	[ "$output" = 5 ]
}

@test "service: at 1024 connections in all a run is refused in the service's words, not a user's" {
	[ "$(ulimit -Hn)" -ge 4096 ] || skip "needs 4096 descriptors (ulimit -Hn) for 1024 connections"
	svc_start
	# Root's: no limit of its own, only the service's.
	waiters 1024
	run -1 --separate-stderr as_nobody "$NUMACTL2" -w 0 --weights=0:5 true
	echo "$stderr"
	[ "$stderr" = "numactl2: numactl2d refused: the service has 1024 connections open: no more" ]
}

# flood [unread]: uid 4242 (no account and no rule: the service knows
# users by uid) keeps 1100 connections at the service for 60 s, more than
# the listen backlog (128, service/numactl2d.c) and than the service's
# 1024 in all, so that without the per-user limit (8) it would hold every
# connection; each one the service closes is made again. Silent, or
# (unread) each asks the holders' list and never reads. Returns once a
# connect found the backlog full.
flood() {
	setpriv --reuid=4242 --regid=4242 --clear-groups \
		"$PY" "$CLIENT" "$SVC/run/socket" flood 60 1100 "$@" >"$SVC/flood" &
	bg+=($!)
	wait_until grep -q "backlog full" "$SVC/flood"
}

holders_are() { [ "$(grep -c '^grant ' "$SVC/state" 2>/dev/null)" = "$1" ]; }

# served_in_time: nobody's run, during the flood, asks node 0 at 3 and
# must get it. Its bound, 30 s: the run's own deadlines (lib/owner/ask.c:
# a full backlog tried 4000 times 1 ms apart, then 4 s for the answer)
# come to about 8 s, after which a run the flood holds up fails on its
# own; the rest is room for a loaded host (make check beside two busy
# processes, the ASan build), where a step of milliseconds has been seen
# to take seconds (test/lib/wait.bash). It stays well short of the
# flood's 60 s, so that a run that would wait for the flood's end fails
# as well.
served_in_time() {
	run --separate-stderr timeout 30 "${NOBODY[@]}" "$NUMACTL2" -w 0 --weights=0:3 cat "$SVC/wi/node0"
	echo "exit $status: $stderr"
	cat "$SVC/flood"
	[ "$status" = 0 ] || return 1
	[ "$output" = 3 ] || return 1
}

@test "service: a user flooding the socket with connects that never speak delays no other user's run beyond its deadline" {
	[ "$(ulimit -Hn)" -ge 4096 ] || skip "needs 4096 descriptors (ulimit -Hn) for 1100 connections"
	svc_start
	flood
	served_in_time
}

@test "service: a run that finds the listen backlog full tries again until its deadline, and is served" {
	[ "$(ulimit -Hn)" -ge 4096 ] || skip "needs 4096 descriptors (ulimit -Hn) for 1100 connections"
	svc_start
	# Stopped, the service accepts nothing: the flood fills the backlog.
	kill -STOP "$svc_pid"
	flood
	# The run starts with the backlog full; the service goes on 2 s later,
	# within the run's 4 s of tries.
	(sleep 2; kill -CONT "$svc_pid") &
	bg+=($!)
	served_in_time
}

@test "service: a user flooding the socket with asks whose answers it never reads delays no other user's run beyond its deadline" {
	local i
	[ "$(ulimit -Hn)" -ge 4096 ] || skip "needs 4096 descriptors (ulimit -Hn) for 1100 connections"
	svc_start
	# 100 holders: a list longer than a socket's buffer takes (49 answers
	# of 2.3 KB with Linux's default 208 KiB), so that the sends to a
	# client that never reads fill it.
	for i in $(seq 100); do
		"$NUMACTL2" -w 0 --weights=0:3 sleep 60 2>/dev/null &
		bg+=($!)
	done
	wait_until holders_are 100
	flood unread
	served_in_time
}

@test "service: a job SIGKILLed: its weights go back" {
	svc_start
	hold_as_nobody 7
	kill -9 "$held"
	wait_until w_is 0 1
}

@test "service: an flock on the table by any user holds up no request (finding 1)" {
	command -v flock >/dev/null || skip "needs flock"
	svc_start
	as_nobody flock -x "$SVC/wi" sleep 30 &
	bg+=($!)
	as_nobody flock -s "$SVC/wi/node0" sleep 30 &
	bg+=($!)
	sleep 0.2
	run -0 --separate-stderr as_nobody "$NUMACTL2" -w 0 --weights=0:2 cat "$SVC/wi/node0"
	[ "$output" = 2 ]
	wait_until w_is 0 1
}

# A job of nobody's holding node 0 at 6 ($job), then the service SIGKILLed.
job_then_service_killed() {
	svc_start
	hold_as_nobody 6
	job=$held
	kill -9 "$svc_pid"
	wait "$svc_pid" 2>/dev/null || true
}

@test "service: killed and started again while a job runs: it takes the holder back" {
	job_then_service_killed
	svc_start
	# The socket is bound before the state is read: wait for the log line.
	wait_until grep -q "resumed: 1 jobs hold weights, 0 ended" "$SVC/log"
	run -0 "$PY" "$CLIENT" "$SVC/run/socket" list
	[[ $output == "$job 65534 "* ]] || return 1
	[ "$(w 0)" = 6 ]
	kill "$job"
	wait_until w_is 0 1
}

@test "service: a job that ended while no service ran: its weights go back at the start" {
	job_then_service_killed
	kill "$job"
	wait "$job" 2>/dev/null || true
	[ "$(w 0)" = 6 ]
	svc_start
	wait_until grep -q "resumed: 0 jobs hold weights, 1 ended" "$SVC/log"
	[ "$(w 0)" = 1 ]
}

@test "service: a change whose state cannot be saved is refused, and the table is untouched (finding 3)" {
	STATE=$SVC/no-such-dir/state svc_start
	run -1 --separate-stderr as_nobody "$NUMACTL2" -w 0 --weights=0:5 touch "$SVC/ran"
	[ "$stderr" = "numactl2: numactl2d cannot save its state (No such file or directory): nothing changed" ]
	[ ! -e "$SVC/ran" ]
	[ "$(w 0)" = 1 ]
}

@test "service: not root, no service: the refusal is the direct path's, nothing changes" {
	run -1 --separate-stderr as_nobody "$NUMACTL2" -w 0 --weights=0:9 touch "$SVC/ran"
	[[ $stderr == *"only root can change it"* ]] || return 1
	[ ! -e "$SVC/ran" ]
	[ "$(w 0)" = 1 ]
}

@test "service: --weights=auto for a user who cannot read HMAT: the service's rows, root's weights (issue 40)" {
	load lib/twosockets
	two_socket_machine "$SVC"
	chmod -R a+rX "$SVC/node" "$SVC/acpi"
	# HMAT is root's, as in /sys/firmware/acpi/tables.
	chmod 600 "$SVC/acpi/HMAT"
	run -0 as_nobody "$HMAT_DRIVER" auto-user 0,1,2,3 0 -
	# No service: the approximation from distances, said to be one.
	[[ ${lines[1]} == "auto weights: 0:20 1:10 2:6 3:3 (sum 39, chosen): approximated from SLIT distances"* ]] || return 1
	[[ $output == *"(HMAT: Permission denied)"* ]] || return 1
	svc_start
	run -0 as_nobody "$HMAT_DRIVER" auto-user 0,1,2,3 0 -
	[ "${lines[1]}" = "auto weights: 0:10 1:4 2:3 3:1 (sum 18, budget 32): modelled 360.0 GB/s, 100.0% of the nodes' 360.0 GB/s" ]
	[[ $output == *"bandwidth from: HMAT (read by numactl2d), from the job's initiators"* ]] || return 1
}

@test "service: root's runs go through it too: a job's weights, --restore-weights back at the return, 20 times" {
	local i
	svc_start
	for i in $(seq 20); do
		run -3 --separate-stderr "$NUMACTL2" -w 0 --weights=0:7 --restore-weights sh -c "cat $SVC/wi/node0; exit 3"
		[ "$output" = 7 ]
		# Read right after the return: the promise is that it is back now.
		[ "$(w 0)" = 1 ]
	done
	[ "$(grep -c 'uid 0 set node0 1->7' "$SVC/log")" = 20 ]
}

@test "service: root's --keep-weights, --set-, --reset- and --auto-global-weights are the service's changes" {
	# The copy's auto switch acts as the kernel's: a node write turns it off.
	export NUMACTL2_TEST_KERNEL_AUTO=1
	echo true >"$SVC/wi/auto"
	# The kernel could turn its auto weights back on (item 2: else the
	# changes would say that they switch them off until reboot).
	KERNEL_AUTO=1 fake_nodes 20000
	svc_start
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:4 --keep-weights true
	[ "$stderr" = "numactl2: changed global interleave weights: node0 1->4; kernel auto weights switched off; kept after the job (--keep-weights)" ]
	[ "$(w 0)" = 4 ]
	run -0 --separate-stderr "$NUMACTL2" --set-global-weights=0:3
	[ "$stderr" = "numactl2: changed global interleave weights: node0 4->3" ]
	[ "$(w 0)" = 3 ]
	run -0 --separate-stderr "$NUMACTL2" --reset-global-weights
	[ "$(w 0)" = 1 ]
	grep -q "uid 0 set node0 3->1 for pid" "$SVC/log"
	run -1 --separate-stderr as_nobody "$NUMACTL2" --set-global-weights=0:2
	[ "$stderr" = "numactl2: numactl2d refused to change node 0: only root may change weights for good (--keep-weights, --set-global-weights) or override other jobs' (--force)" ]
	hold_as_nobody 6
	run -1 --separate-stderr "$NUMACTL2" --auto-global-weights
	[[ $stderr == "numactl2: node 0 is held at weight 6 by PID $held "* ]] || return 1
	kill "$held"
	wait_until w_is 0 1
	run -0 --separate-stderr "$NUMACTL2" --auto-global-weights
	grep -q "uid 0 turned the kernel's auto weights on" "$SVC/log"
}

@test "service: root's --force: the holder holds the new weight; --no-global-weights writes nothing" {
	svc_start
	hold_as_nobody 6
	run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 --no-global-weights touch "$SVC/ran"
	[ ! -e "$SVC/ran" ]
	[ "$(w 0)" = 6 ]
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:8 --force cat "$SVC/wi/node0"
	[ "$output" = 8 ]
	grep -q "(--force) overrode 1 leases" "$SVC/log"
	run -0 "$PY" "$CLIENT" "$SVC/run/socket" list
	[[ $output == "$held 65534 "* ]] || return 1
	# Its line in the state, saved before the change, says so too (a
	# restarted service takes it back at 8), not the line of its grant.
	run -0 grep -c "^grant $held [0-9]* 65534 0:8\$" "$SVC/state"
	[ "$output" = 1 ]
}

@test "service: root's --force that cannot be saved leaves the holder's weight as it was, in the table and the book" {
	mkdir "$SVC/state-dir"
	STATE=$SVC/state-dir/state svc_start
	hold_as_nobody 6
	rm -r "$SVC/state-dir"
	run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=0:8 --force touch "$SVC/ran"
	[ "$stderr" = "numactl2: numactl2d cannot save its state (No such file or directory): nothing changed" ]
	[ ! -e "$SVC/ran" ]
	[ "$(w 0)" = 6 ]
	run -0 "$NUMACTL2" --show
	[[ $output == *"interleave weight holder: pid $held user nobody command sleep weights 0:6"* ]] || return 1
	run grep -c "overrode" "$SVC/log"
	[ "$output" = 0 ]
}

@test "service: any user's flock -s on a nodeN file counts for nothing: root's weights go back after its job (finding 2)" {
	command -v flock >/dev/null || skip "needs flock"
	svc_start
	"${NOBODY[@]}" flock -s "$SVC/wi/node0" sleep 30 &
	bg+=($!)
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:9 cat "$SVC/wi/node0"
	[ "$output" = 9 ]
	wait_until w_is 0 1
	# And root's next job is not refused.
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:2 cat "$SVC/wi/node0"
	[ "$output" = 2 ]
}

@test "service: a full /dev/shm changes nothing: root's jobs are still kept apart (finding 4)" {
	command -v unshare >/dev/null || skip "needs unshare"
	# In a mount namespace of its own: a 64 KiB /dev/shm, filled.
	run -0 --separate-stderr unshare -m --propagation private bash -c '
		mount -t tmpfs -o size=64k,nr_inodes=16 full /dev/shm || exit 2
		i=0; while (: >"/dev/shm/f$i") 2>/dev/null; do i=$((i + 1)); done
		"$0" --socket="$1/run/socket" --state="$1/state" --rules="$1/rules.conf" --stderr 2>"$1/log" &
		svc=$!
		# Bounded waits (30 s): a broken build must fail, not hang.
		n=0; while [ ! -S "$1/run/socket" ]; do sleep 0.05; n=$((n + 1)); [ $n -lt 600 ] || exit 3; done
		"$2" -w 0 --weights=0:9 sleep 30 &
		a=$!
		n=0; while [ "$(cat "$1/wi/node0")" != 9 ]; do
			sleep 0.05; n=$((n + 1)); [ $n -lt 600 ] || { kill "$a" "$svc"; exit 4; }
		done
		"$2" -w 0 --weights=0:1 true 2>"$1/b.err"
		echo "b=$?"
		kill "$a"; wait "$a"
		kill "$svc"; wait "$svc"
		exit 0' "$NUMACTL2D" "$SVC" "$NUMACTL2"
	echo "$output"
	[ "$output" = "b=1" ]
	[[ $(cat "$SVC/b.err") == "numactl2: node 0 is held at weight 9 by PID "* ]] || return 1
}

@test "service: --show and --hardware list each holder by PID, user and command; --show --json the same for scripts" {
	svc_start
	"${NOBODY[@]}" "$NUMACTL2" -w 0 --weights=0:5 sh -c 'printf "\033[31mX" >/proc/$$/comm; sleep 30' &
	job=$!
	bg+=("$job")
	wait_until w_is 0 5
	wait_until grep -q 31mX "/proc/$job/comm"
	run -0 --separate-stderr "$NUMACTL2" --show
	# The name the job chose, escaped before it reaches a terminal.
	[ "${lines[-1]}" = "interleave weight holder: pid $job user nobody command \\x1b[31mX weights 0:5" ]
	run -0 --separate-stderr "$NUMACTL2" --hardware
	[ "${lines[-1]}" = "interleave weight holder: pid $job user nobody command \\x1b[31mX weights 0:5" ]
	run -0 --separate-stderr "$NUMACTL2" --show --json
	[ "$(jq -c '.holders' <<<"$output")" = "[{\"pid\":$job,\"uid\":65534,\"user\":\"nobody\",\"command\":\"\\\\x1b[31mX\",\"weights\":{\"0\":5}}]" ]
	[ "$(jq -r '.globalweights["0"]' <<<"$output")" = 5 ]
	run -1 --separate-stderr "$NUMACTL2" --json
	[ "${stderr_lines[0]}" = "numactl2: --json needs --show (without --pid)" ]
}

@test "service: root's change that stays is not undone when a user's job on the node ends" {
	svc_start
	hold_as_nobody 5
	job=$held
	run -0 --separate-stderr "$NUMACTL2" --set-global-weights=0:5
	kill "$job"
	wait "$job" 2>/dev/null || true
	wait_until grep -q "nothing to put back after pid $job " "$SVC/log"
	[ "$(w 0)" = 5 ]
}

@test "service: --dry-run asks the service's verdict: what the rules allow passes, what they refuse fails as the run does" {
	svc_start
	run -0 --separate-stderr as_nobody "$NUMACTL2" --dry-run -w 0 --weights=0:5 true
	[ -z "$stderr" ]
	[ "$(w 0)" = 1 ]
	run -1 --separate-stderr as_nobody "$NUMACTL2" -w 0 --weights=0:9 true
	want=$stderr
	run -1 --separate-stderr as_nobody "$NUMACTL2" --dry-run -w 0 --weights=0:9 true
	[ "$stderr" = "$want" ]
	[ "${lines[0]}" = "policy: weighted-interleave" ]
	# Nothing held: the service lists no one.
	run -0 "$PY" "$CLIENT" "$SVC/run/socket" list
	[ -z "$output" ]
}

# Issue 37 item 2. fake_nodes [MB/s]: a fake node directory for the service
# (NUMACTL2_SYSFS_NODE), node 0 with access0 bandwidth MB/s, or none; the
# copy of the table acts as the kernel on its auto switch (a node write
# turns it off; with nobw, turning it on is ENODEV).
fake_nodes() {
	mkdir -p "$SVC/node/node0"
	if [ $# -gt 0 ]; then
		mkdir -p "$SVC/node/node0/access0/initiators"
		echo "$1" >"$SVC/node/node0/access0/initiators/read_bandwidth"
		echo "$1" >"$SVC/node/node0/access0/initiators/write_bandwidth"
	fi
	echo true >"$SVC/wi/auto"
	export NUMACTL2_SYSFS_NODE=$SVC/node NUMACTL2_TEST_KERNEL_AUTO=${KERNEL_AUTO:-nobw}
}

AUTO_LOST="numactl2: numactl2d refused: the kernel's auto weights would stay off until reboot: no node has access0 bandwidth, without which Linux cannot turn them back on; as root, --keep-weights makes the change, and keeps it after the job"

@test "service: auto weights on that could not come back (no access0 bandwidth): a job's change is refused before anything is written, its --dry-run too" {
	fake_nodes
	svc_start
	run -1 --separate-stderr as_nobody "$NUMACTL2" -w 0 --weights=0:5 touch "$SVC/ran"
	[ "$stderr" = "$AUTO_LOST" ]
	[ ! -e "$SVC/ran" ]
	[ "$(w 0)" = 1 ]
	[ "$(cat "$SVC/wi/auto")" = true ]
	run -1 --separate-stderr as_nobody "$NUMACTL2" --dry-run -w 0 --weights=0:5 true
	[ "$stderr" = "$AUTO_LOST" ]
	[ "${lines[0]}" = "policy: weighted-interleave" ]
	run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 --restore-weights touch "$SVC/ran"
	[ "$stderr" = "$AUTO_LOST" ]
	[ ! -e "$SVC/ran" ]
	# The weights in effect change nothing: the lease is granted.
	run -0 --separate-stderr as_nobody "$NUMACTL2" -w 0 cat "$SVC/wi/node0"
	[ "$output" = 1 ]
	[ "$(cat "$SVC/wi/auto")" = true ]
	grep -q "uid 65534 refused: the kernel's auto weights would stay off until reboot" "$SVC/log"
}

@test "service: auto weights that could not come back: root's --keep-weights makes the change, and its --dry-run and notice say that they stay off until reboot" {
	fake_nodes
	svc_start
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:4 --keep-weights --dry-run true
	[ "${lines[4]}" = "kernel auto weights: switched off until reboot by this change (no node has access0 bandwidth to turn them back on)" ]
	[ "$(cat "$SVC/wi/auto")" = true ]
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:4 --keep-weights true
	[ "$stderr" = "numactl2: changed global interleave weights: node0 1->4; kernel auto weights switched off until reboot (no node has access0 bandwidth to turn them back on); kept after the job (--keep-weights)" ]
	[ "$(w 0)" = 4 ]
	[ "$(cat "$SVC/wi/auto")" = false ]
}

@test "service: auto weights that can come back (access0 bandwidth): a job's change is made, and auto is back on after it" {
	KERNEL_AUTO=1 fake_nodes 20000
	svc_start
	run -0 --separate-stderr as_nobody "$NUMACTL2" -w 0 --weights=0:5 \
		sh -c 'echo "$(cat "$1") $(cat "$2")"' _ "$SVC/wi/node0" "$SVC/wi/auto"
	[ "$output" = "5 false" ]
	wait_until w_is 0 1
	wait_until grep -qx true "$SVC/wi/auto"
	# The same service once the bandwidth is gone (read at each ask): refused.
	rm -r "$SVC/node/node0/access0"
	run -1 --separate-stderr as_nobody "$NUMACTL2" -w 0 --weights=0:5 true
	[ "$stderr" = "$AUTO_LOST" ]
}

# chattr_svc: the service on a table that can come back to auto, whose
# files a job can make immutable: such a file refuses even root's write
# (EPERM). Not every filesystem under /tmp has the attribute.
chattr_svc() {
	command -v chattr >/dev/null || skip "needs chattr"
	KERNEL_AUTO=1 fake_nodes 20000
	chattr +i "$SVC/wi/auto" 2>/dev/null || skip "needs a filesystem with chattr +i under /tmp"
	chattr -i "$SVC/wi/auto"
	svc_start
}

# not_put_back: the log's line of what could not be put back, after "ended: ".
not_put_back() { sed -n 's/^numactl2d: not put back after pid [0-9]* (.*, uid [0-9]*) ended: //p' "$SVC/log"; }

@test "service: a node that cannot be put back is said exactly, node and weight, and the auto weights it keeps off" {
	chattr_svc
	# Root's job (through the service) makes node 0 immutable once written.
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 chattr +i "$SVC/wi/node0"
	# The file made mutable again before any check can fail: teardown removes it.
	wait_until grep -q "not put back after pid" "$SVC/log" || { chattr -i "$SVC/wi/node0"; return 1; }
	chattr -i "$SVC/wi/node0"
	[ "$(not_put_back)" = "node 0 stays 5 (not back to 1: Operation not permitted); the kernel's auto weights stay off until those nodes are back" ]
	[ "$(w 0)" = 5 ]
	[ "$(cat "$SVC/wi/auto")" = false ]
}

@test "service: auto weights the kernel refuses to turn back on are said to stay off, and why" {
	# Bandwidth the service sees, yet a kernel that answers ENODEV.
	KERNEL_AUTO=nobw fake_nodes 20000
	svc_start
	run -0 --separate-stderr as_nobody "$NUMACTL2" -w 0 --weights=0:5 true
	wait_until grep -q "not put back after pid" "$SVC/log"
	[ "$(not_put_back)" = "the kernel's auto weights stay off (the kernel cannot turn them back on: no node has bandwidth data)" ]
	[ "$(w 0)" = 1 ]
}

@test "service: --restore-weights: what numactl2d could not put back is said to the user" {
	chattr_svc
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:5 --restore-weights chattr +i "$SVC/wi/node0"
	chattr -i "$SVC/wi/node0"
	echo "$stderr"
	[ "${stderr_lines[-1]}" = "numactl2: could not put everything back: node 0 stays 5 (not back to 1: Operation not permitted); the kernel's auto weights stay off until those nodes are back" ]
}
