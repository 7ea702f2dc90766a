#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --report and --restore-weights through the watcher (issue 23, items 3
# and 5): numactl2 execs the job itself, so that the job gets its signals
# once and directly, and the watcher (outside the job's process group and
# session) acts when it ends: the job's status is never lost to numactl2's
# own output, the job's own children are not "another job", and a job that
# traces its children (strace -f, gdb) or runs LeakSanitizer runs as it
# does without --report.

load helpers

setup() {
	WI=$(fake_wi_dir 0 1 2 3)
	export NUMACTL2_SYSFS_WI=$WI
}

w() { cat "$WI/node$1"; }

# The watcher writes after the job's parent has seen it end (--restore-weights
# waits for the job to be gone): wait for it, up to 10 s (a loaded machine).

# A job that counts its SIGTERMs in $1 and ends 1 s after the first (time for
# a second one to arrive), or after 20 s without any. In C: a shell's trap
# (or python's handler) runs once for two signals that came close together.
COUNT_TERMS_C='#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
static int fd;
static volatile sig_atomic_t n;
static void term(int sig) { (void)sig; n++; (void)!write(fd, "term\n", 5); }
int main(int argc, char **argv) {
	char ready[4096];
	struct timespec t = { 0, 100000000 };
	int i, after = 0;
	(void)argc;
	fd = open(argv[1], O_WRONLY | O_CREAT | O_APPEND, 0644);
	signal(SIGTERM, term);
	snprintf(ready, sizeof(ready), "%s.ready", argv[1]);
	close(open(ready, O_WRONLY | O_CREAT, 0644));
	for (i = 0; i < 200 && after < 10; i++) {
		nanosleep(&t, NULL);
		after += n > 0;
	}
	return 0;
}'

setup_file() {
	printf '%s\n' "$COUNT_TERMS_C" >"$BATS_FILE_TMPDIR/count_terms.c"
	cc -O2 -o "$BATS_FILE_TMPDIR/count_terms" "$BATS_FILE_TMPDIR/count_terms.c"
}

# One run: numactl2 in a process group of its own (setsid), SIGTERM to that
# group once the job is ready; prints how many SIGTERMs the job got, and
# node 0's weight while it ran.
terms_to_group() {
	local f=$BATS_TEST_TMPDIR/terms.$RANDOM pid pgid i weight
	rm -f "$f" "$f.ready"
	env --default-signal=TERM setsid "$NUMACTL2" "$@" "$BATS_FILE_TMPDIR/count_terms" "$f" 2>/dev/null &
	pid=$!
	wait_until [ -e "$f.ready" ] || return 1
	pgid=$(ps -o pgid= -p "$pid" | tr -d ' ')
	[ -n "$pgid" ] || return 1
	weight=$(w 0)
	kill -TERM -- "-$pgid"
	wait "$pid" || true
	echo "$([ -e "$f" ] && wc -l <"$f" || echo 0) $weight"
}

@test "a SIGTERM to the job's process group reaches the job once (--report), 8 of 8" {
	local n r=$BATS_TEST_TMPDIR/r.json
	for i in 1 2 3 4 5 6 7 8; do
		rm -f "$r"
		n=$(terms_to_group --report=json --report-file="$r")
		echo "run $i: $n"
		[ "${n% *}" -eq 1 ] || return 1
		jq -e '.exit.status == 0' "$r" >/dev/null || return 1
	done
}

@test "a SIGTERM to the job's process group reaches the job once (--restore-weights), 8 of 8" {
	local n
	for i in 1 2 3 4 5 6 7 8; do
		n=$(terms_to_group -w 0 --weights=0:9 --restore-weights)
		echo "run $i: $n"
		[ "$n" = "1 9" ] || return 1
		wait_weight 0 1
	done
}

# stderr a pipe whose reader has gone: python keeps SIGPIPE at its default in
# the child (subprocess' restore_signals), as a shell would.
CLOSED_STDERR='import os, subprocess, sys
r, w = os.pipe()
os.close(r)
print(subprocess.run(sys.argv[1:], stderr=w).returncode)'

@test "stderr a closed pipe: --restore-weights keeps the job's status, and the table comes back" {
	local seen=$BATS_TEST_TMPDIR/seen
	run -0 python3 -c "$CLOSED_STDERR" "$NUMACTL2" -w 0 --weights=0:9 --restore-weights \
		sh -c "cat \"\$1\"/node0 >\"\$2\"; exit 5" sh "$WI" "$seen"
	[ "$output" = 5 ]
	[ "$(cat "$seen")" = 9 ]
	wait_weight 0 1
}

@test "stderr a closed pipe: --report keeps the job's status" {
	local r=$BATS_TEST_TMPDIR/r.json
	run -0 python3 -c "$CLOSED_STDERR" "$NUMACTL2" --report sh -c 'exit 5'
	[ "$output" = 5 ]
	run -0 python3 -c "$CLOSED_STDERR" "$NUMACTL2" --report sh -c 'exit 0'
	[ "$output" = 0 ]
	# numactl2's notice of the change goes to the closed pipe; the report to the file
	run -0 python3 -c "$CLOSED_STDERR" "$NUMACTL2" --report=json --report-file="$r" \
		-w 0 --weights=0:9 sh -c 'exit 5'
	[ "$output" = 5 ]
	jq -e '.exit.status == 5' "$r" >/dev/null
}

# The watcher puts the weight back once the job is gone: after numactl2's end.
@test "--restore-weights: a child the job leaves running is not another job" {
	local err=$BATS_TEST_TMPDIR/err i
	"$NUMACTL2" -w 0 --weights=0:9 --restore-weights \
		sh -c '(sleep 2 </dev/null >/dev/null 2>&1) & exit 0' 2>"$err"
	wait_weight 0 1
	wait_until eval '[ "$(wc -l <"$err")" -ge 2 ]' || return 1
	cat "$err"
	[ "$(sed -n 2p "$err")" = "numactl2: put back global interleave weights: node0 9->1" ]
}

@test "the job is numactl2's process: its PID and its parent" {
	local f=$BATS_TEST_TMPDIR/pids r=$BATS_TEST_TMPDIR/r.json
	"$NUMACTL2" --report=json --report-file="$r" -w 0 --weights=0:9 --restore-weights \
		sh -c "echo \$\$ \$PPID >$f" 2>/dev/null &
	local p=$!
	wait "$p"
	[ "$(cat "$f")" = "$p $$" ]
	[ "$(jq -r .pid "$r")" = "$p" ]
}

@test "--report: strace -f runs as without it" {
	command -v strace >/dev/null || skip "needs strace (tools/install-deps)"
	run -0 strace -f -o /dev/null true
	run -0 --separate-stderr "$NUMACTL2" --report strace -f -o /dev/null true
	[[ "$stderr" == *"numactl2: report: strace"* ]] || return 1
}

@test "--report: gdb -batch runs a program as without it" {
	command -v gdb >/dev/null || skip "needs gdb (tools/install-deps)"
	run -0 gdb -batch -ex run --args true
	run -0 --separate-stderr "$NUMACTL2" --report gdb -batch -ex run --args true
	[[ "$stderr" == *"numactl2: report: gdb"* ]] || return 1
}

# clang links the ASan runtime in (its symbols in .dynsym), gcc needs
# libasan.so: both are found, and said before the job runs. The program
# runs 0.3 s: samples are taken while it runs (one that ends within a few
# ms may end before the first).
asan_program() {
	local cc=$1 out=$BATS_TEST_TMPDIR/asan-$1
	command -v "$cc" >/dev/null || return 1
	printf '#include <stdio.h>\n#include <unistd.h>\nint main(void) { usleep(300000); puts("ran"); return 0; }\n' \
		>"$BATS_TEST_TMPDIR/a.c"
	"$cc" -fsanitize=address -o "$out" "$BATS_TEST_TMPDIR/a.c" 2>/dev/null || return 1
	echo "$out"
}

# Sampled, the report is written once the job is gone: after numactl2's end.
asan_case() {
	local prog f=$BATS_TEST_TMPDIR/r.json i
	prog=$(asan_program "$1") || skip "needs $1 with -fsanitize=address"
	run -0 "$prog"
	# the last detect_leaks wins (the asan suite runs with detect_leaks=0)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1 \
		run -0 --separate-stderr "$NUMACTL2" --report=json --report-file="$f" "$prog"
	[ "$output" = ran ]
	[ "${stderr_lines[0]}" = "numactl2: --report: '$prog' runs LeakSanitizer, which does not run traced: its pages are sampled while it runs, not read at its end" ]
	wait_until [ -s "$f" ] || return 1
	cat "$f"
	jq -e '.sampled == true and .processes.reported == 1 and .total.anon > 0' "$f" >/dev/null
}

@test "--report: an ASan program (clang) exits as without it, sampled, and says so first" {
	asan_case clang
}

@test "--report: an ASan program (gcc, libasan.so) exits as without it, sampled, and says so first" {
	asan_case gcc
}

@test "--report: ASAN_OPTIONS=detect_leaks=0 keeps the job traced" {
	local prog
	prog=$(asan_program clang) || skip "needs clang with -fsanitize=address"
	ASAN_OPTIONS=detect_leaks=1:detect_leaks=0 run -0 --separate-stderr "$NUMACTL2" --report=json "$prog"
	[ "${#stderr_lines[@]}" -eq 1 ]
	printf '%s\n' "${stderr_lines[0]}" | jq -e '.sampled == false and .exit.status == 0' >/dev/null
}
