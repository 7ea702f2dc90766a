#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# supervise.c on its own, through test/supervise_driver: the driver execs the
# command as numactl2 does under --report and --restore-weights, and a watcher
# acts at its end. Exit status and signals are the job's own, stdio is the
# job's, exec failures are 127 and 126, and the exit-stop hook sees the job's
# address space; what the job starts is not traced.

load helpers

SUPERVISE_DRIVER=${SUPERVISE_DRIVER:-$BATS_TEST_DIRNAME/../build/test/supervise_driver}

@test "supervised: the job's exit status is the driver's (0, 3, 255)" {
	run -0 "$SUPERVISE_DRIVER" true
	run -3 "$SUPERVISE_DRIVER" sh -c 'exit 3'
	run -255 "$SUPERVISE_DRIVER" sh -c 'exit 255'
	run -3 "$SUPERVISE_DRIVER" -t sh -c 'exit 3'
}

# The tests that send SIGTERM run the driver with it at its default (env):
# one ignored where the suite was started would stay ignored.
@test "supervised: a job killed by a signal: 128 + the signal" {
	run -143 env --default-signal=TERM "$SUPERVISE_DRIVER" sh -c 'kill -TERM $$'
	run -137 "$SUPERVISE_DRIVER" -t sh -c 'kill -KILL $$'
	run -143 env --default-signal=TERM "$SUPERVISE_DRIVER" -t sh -c 'kill -TERM $$'
}

# bash says "Terminated" only for a child that died of SIGTERM, not for exit 143.
@test "supervised: the driver dies of the job's signal, as the job did" {
	run -0 --separate-stderr bash -c 'env --default-signal=TERM "$1" sh -c "kill -TERM \$\$"; echo $?' _ "$SUPERVISE_DRIVER"
	[ "$output" = 143 ]
	[[ "$stderr" == *Terminated* ]] || return 1
	run -0 --separate-stderr bash -c '"$1" sh -c "exit 143"; echo $?' _ "$SUPERVISE_DRIVER"
	[ "$output" = 143 ]
	[[ "$stderr" != *Terminated* ]] || return 1
}

@test "supervised: stdin, stdout and the environment are the job's" {
	run -0 --separate-stderr bash -c 'echo hello | FOO=bar "$1" -t sh -c "read x; echo \$x \$FOO"' _ "$SUPERVISE_DRIVER"
	[ "$output" = "hello bar" ]
}

# A job that exits 3 on the signal (and 9 after 10 s without it): the status
# proves the signal reached it. The driver and the job must not inherit the
# signals ignored: a shell starts background commands with SIGINT and
# SIGQUIT ignored, nohup (a batch job) starts the suite with SIGHUP ignored,
# and a signal ignored at the start stays ignored (the driver does not
# forward it, sh cannot trap it). env gives all four their default.
@test "supervised: SIGTERM, SIGINT, SIGHUP and SIGQUIT go on to the job" {
	local sig
	for sig in TERM INT HUP QUIT; do
		env --default-signal=TERM,INT,HUP,QUIT "$SUPERVISE_DRIVER" -t sh -c \
			"trap 'exit 3' $sig; echo ready; for i in \$(seq 100); do sleep 0.1; done; exit 9" \
			>"$BATS_TEST_TMPDIR/out.$sig" 2>/dev/null &
		local pid=$!
		wait_until grep -q ready "$BATS_TEST_TMPDIR/out.$sig" || return 1
		kill -"$sig" "$pid"
		local rc=0
		wait "$pid" || rc=$?
		echo "$sig: status $rc"
		[ "$rc" -eq 3 ]
	done
}

@test "supervised: an unhandled SIGTERM sent to the driver kills the job: 143" {
	env --default-signal=TERM "$SUPERVISE_DRIVER" sh -c 'echo $$; exec sleep 30' >"$BATS_TEST_TMPDIR/pid" &
	local pid=$!
	wait_until [ -s "$BATS_TEST_TMPDIR/pid" ] || return 1
	kill -TERM "$pid"
	local rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 143 ]
	run -1 kill -0 "$(cat "$BATS_TEST_TMPDIR/pid")"
}

@test "supervised: a signal ignored at the start stays ignored by the job" {
	run -0 bash -c 'trap "" INT; "$1" -t sh -c "kill -INT \$\$; echo alive"' _ "$SUPERVISE_DRIVER"
	[ "${lines[0]}" = alive ]
}

@test "supervised: a command that does not exist: 127; one that cannot run: 126" {
	run -127 --separate-stderr "$SUPERVISE_DRIVER" -t /nonexistent/prog
	[ "$stderr" = "${SUPERVISE_DRIVER##*/}: failed to run '/nonexistent/prog': No such file or directory" ]
	run -126 --separate-stderr "$SUPERVISE_DRIVER" "$BATS_TEST_TMPDIR"
	[ "$stderr" = "${SUPERVISE_DRIVER##*/}: failed to run '$BATS_TEST_TMPDIR': Permission denied" ]
}

@test "supervised: the exit-stop hook runs once, with the address space there" {
	run -5 --separate-stderr "$SUPERVISE_DRIVER" -t sh -c 'exit 5'
	echo "$stderr"
	[[ "${stderr_lines[0]}" =~ ^exit-stop:\ status\ 1280,\ numa_maps\ ([0-9]+)\ lines$ ]] || return 1
	[ "${BASH_REMATCH[1]}" -gt 0 ]
}

# The exit-stop is held until the hook has run: the job's parent sees the end after.
@test "supervised: the job's parent sees it end only once the hook has run" {
	local f=$BATS_TEST_TMPDIR/order
	run -0 bash -c '"$1" -t sh -c "exit 0" 2>>"$2"; echo "parent saw the end" >>"$2"' _ \
		"$SUPERVISE_DRIVER" "$f"
	run -0 cat "$f"
	echo "$output"
	[[ "${lines[0]}" == exit-stop:* ]] || return 1
	[[ "$output" == *"parent saw the end"* ]] || return 1
}

# The job can neither wait for the watcher nor signal it through its group.
@test "supervised: the watcher traces the job, and is neither its child nor in its session" {
	local job sid tracer tppid tsid
	run -0 --separate-stderr "$SUPERVISE_DRIVER" -t sh -c \
		't=$(awk "/^TracerPid:/ { print \$2 }" /proc/$$/status); echo $$ $(ps -o sid= -p $$) $t $(ps -o ppid=,sid= -p $t)'
	echo "$output"
	read -r job sid tracer tppid tsid <<<"$output"
	[ "$tracer" -gt 0 ]
	[ "$tppid" != "$job" ]
	[ "$tsid" != "$sid" ]
}

@test "supervised: a stopped job is kept stopped, and resumes with SIGCONT" {
	"$SUPERVISE_DRIVER" -t sh -c 'echo $$; kill -STOP $$; exit 4' >"$BATS_TEST_TMPDIR/pid" 2>/dev/null &
	local pid=$! child
	wait_until [ -s "$BATS_TEST_TMPDIR/pid" ] || return 1
	child=$(cat "$BATS_TEST_TMPDIR/pid")
	wait_until grep -q '^State:.*stop' "/proc/$child/status" || return 1
	kill -CONT "$child"
	local rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 4 ]
}

ALLOC=${ALLOC:-$BATS_TEST_DIRNAME/../build/test/alloc}

# Issue 23: what the job forks or vforks is not traced (a job may trace it
# itself: strace -f, gdb); only the job's own process is reported.
@test "supervised: what the job forks is not traced; the job itself is reported once" {
	run -5 --separate-stderr "$SUPERVISE_DRIVER" -t sh -c '/bin/sh -c "exit 2"; exit 5'
	echo "$stderr"
	[ "${#stderr_lines[@]}" -eq 2 ]
	[[ "${stderr_lines[0]}" =~ ^exit-stop:\ status\ 1280,\ numa_maps\ [1-9][0-9]*\ lines$ ]] || return 1
	run -0 --separate-stderr "$SUPERVISE_DRIVER" -t sh -c 'sh -c "grep ^TracerPid: /proc/\$\$/status"'
	[ "$output" = "TracerPid:	0" ]
}

@test "supervised: a process's threads make one exit-stop report" {
	run -0 --separate-stderr "$SUPERVISE_DRIVER" -t "$ALLOC" -t 8 -s 4M
	echo "$stderr"
	[ "${#stderr_lines[@]}" -eq 2 ]
	[[ "${stderr_lines[0]}" =~ ^exit-stop:\ status\ 0,\ numa_maps\ [1-9][0-9]*\ lines$ ]] || return 1
}

# The main thread calls pthread_exit() first; the last thread exits 3.
@test "supervised: a process is reported at its last thread's exit, with that status" {
	run -3 --separate-stderr "$SUPERVISE_DRIVER" -t "$ALLOC" -X 3 -s 4M
	echo "$stderr"
	[ "${#stderr_lines[@]}" -eq 2 ]
	[[ "${stderr_lines[0]}" =~ ^exit-stop:\ status\ 768,\ numa_maps\ [1-9][0-9]*\ lines$ ]] || return 1
}

# posix_spawn vforks (CLONE_VM | CLONE_VFORK): not traced either.
@test "supervised: a vfork child is not traced" {
	local py
	py=$(python3 -c 'import sys; print(sys.executable)')	# not a wrapper script
	run -0 --separate-stderr "$SUPERVISE_DRIVER" -t "$py" -c '
import os
os.waitpid(os.posix_spawn("/bin/sh", ["sh", "-c", "exit 6"], os.environ), 0)'
	echo "$stderr"
	[ "${#stderr_lines[@]}" -eq 2 ]
	[[ "${stderr_lines[0]}" =~ ^exit-stop:\ status\ 0, ]] || return 1
}

@test "supervised: a process still running when the job ends is left to run" {
	local t0=$SECONDS
	run -0 --separate-stderr "$SUPERVISE_DRIVER" -t sh -c 'sleep 3 >/dev/null 2>&1 & exit 0'
	echo "$stderr"
	[ $((SECONDS - t0)) -lt 3 ]
	[ "${stderr_lines[-1]}" = "watcher: ended, status 0, running 1" ]
}

# A trap runs only when the signal is delivered: the tracer passes it on.
@test "supervised: a signal sent to a forked process reaches it" {
	run -0 --separate-stderr "$SUPERVISE_DRIVER" -t sh -c \
		'sh -c "trap \"exit 6\" USR1; kill -USR1 \$\$; sleep 5; exit 9"; echo $?'
	[ "$output" = 6 ]
}

@test "supervised: a stopped forked process is kept stopped, and resumes with SIGCONT" {
	"$SUPERVISE_DRIVER" -t sh -c 'sh -c "echo \$\$; kill -STOP \$\$; exit 4"; exit $?' \
		>"$BATS_TEST_TMPDIR/pid" 2>/dev/null &
	local pid=$! child rc=0
	wait_until [ -s "$BATS_TEST_TMPDIR/pid" ] || return 1
	child=$(cat "$BATS_TEST_TMPDIR/pid")
	wait_until grep -q '^State:.*stop' "/proc/$child/status" || return 1
	sleep 0.3
	grep -q '^State:.*stop' "/proc/$child/status"
	kill -CONT "$child"
	wait "$pid" || rc=$?
	[ "$rc" -eq 4 ]
}

# Untraced, the watcher writes once the job is gone: after the driver's end.
wait_for_line() {
	wait_until grep -q "$2" "$1" && return 0
	cat "$1"
	return 1
}

@test "supervised: untraced, the watcher sees the job's end; sampled, it samples it as it runs" {
	local err=$BATS_TEST_TMPDIR/err rc=0
	"$SUPERVISE_DRIVER" sh -c 'exit 3' 2>"$err" || rc=$?
	[ "$rc" -eq 3 ]
	wait_for_line "$err" '^watcher: ended, status \(768\|unknown\), running 0$'
	"$SUPERVISE_DRIVER" -s sh -c 'sleep 0.5' 2>"$err"
	wait_for_line "$err" '^watcher: ended'
	# samples at 0, 10, 30, 70, 150, 310 ms and on: at least 3 in 0.5 s, even loaded
	[[ "$(head -1 "$err")" =~ ^samples:\ ([0-9]+)$ ]] || return 1
	[ "${BASH_REMATCH[1]}" -ge 3 ]
	run -0 --separate-stderr "$SUPERVISE_DRIVER" -s sh -c 'grep ^TracerPid: /proc/$$/status'
	[ "$output" = "TracerPid:	0" ]
}
