#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --report[=json], --report-file, --measure and --weights=measured on the
# host (one node). The numbers are checked against the job's own numa_maps,
# dumped last by test/vm/alloc -m, so that nothing changes between the dump
# and the exit-stop where numactl2 reads it.

load helpers

ALLOC=${ALLOC:-$BATS_TEST_DIRNAME/../build/test/alloc}

# The report table's row for node $2 in $1, as "heap anon file".
table_pages() {
	printf '%s\n' "$1" | awk -v node="$2" '$1 == node && NF == 8 { print $3, $5, $7 }'
}

# nothing_changed MARKER: the command did not run, and the weights are as before.
nothing_changed() {
	[ ! -e "$1" ]
	[ "$(wi_snapshot)" = "$before" ]
}

@test "--report: bad input is refused: exit 1, a clear message, nothing run or changed" {
	local m=$BATS_TEST_TMPDIR/ran before
	before=$(wi_snapshot)
	run -1 --separate-stderr "$NUMACTL2" --report=xml -w 0 --weights=0:5 touch "$m"
	[ "${stderr_lines[0]}" = "numactl2: invalid --report format: 'xml' (table or json)" ]
	[ "${stderr_lines[1]}" = "Try 'numactl2 --help' for more information." ]
	nothing_changed "$m"
	run -1 --separate-stderr "$NUMACTL2" --report --report=json -i 0 touch "$m"
	[ "${stderr_lines[0]}" = "numactl2: --report given twice" ]
	run -1 --separate-stderr "$NUMACTL2" --report -i 0
	[ "${stderr_lines[0]}" = "numactl2: --report needs a command to run" ]
	run -1 --separate-stderr "$NUMACTL2" --report-file=a --report-file=b -i 0 touch "$m"
	[ "${stderr_lines[0]}" = "numactl2: --report-file given twice" ]
	run -1 --separate-stderr "$NUMACTL2" --report --set-global-weights=0:2
	[ "${stderr_lines[0]}" = "numactl2: global weight options run alone, without a policy or command" ]
	nothing_changed "$m"
}

@test "--report-file that cannot be opened: exit 1 before anything changes" {
	local m=$BATS_TEST_TMPDIR/ran before
	before=$(wi_snapshot)
	run -1 --separate-stderr "$NUMACTL2" --report-file=/nonexistent/r -w 0 --weights=0:5 touch "$m"
	[ "$stderr" = "numactl2: cannot open the report file '/nonexistent/r': No such file or directory" ]
	nothing_changed "$m"
}

@test "--report: the table's pages are numa_maps' at the job's exit, stdout is the job's" {
	run -0 --separate-stderr "$NUMACTL2" --report -i 0 "$ALLOC" -k mmap -s 8M -m
	echo "$stderr"
	[[ "${stderr_lines[0]}" == "numactl2: report: $ALLOC (pid "[0-9]*"), exit status 0; policy interleave; pages of 4 KiB" ]] || return 1
	[ "$(table_pages "$stderr" 0)" = "$(numa_maps_pages 0)" ]
	# The 8 MiB region alone is 2048 anonymous pages.
	[ "$(numa_maps_pages 0 | cut -d' ' -f2)" -ge 2048 ]
	[[ "$output" == *"region=A kind=mmap"* ]] || return 1
	[[ "$stderr" != *"region=A"* ]] || return 1
}

@test "--report=json parses (jq), and its pages are numa_maps' for heap, anon and file" {
	local f=$BATS_TEST_TMPDIR/r.json
	run -0 --separate-stderr "$NUMACTL2" --report=json --report-file="$f" -w 0 --weights=0:4 \
		"$ALLOC" -k heap -s 100K -m
	[[ "$stderr" != *'"version"'* ]] || return 1
	[ "$(wc -l <"$f")" -eq 1 ]
	jq -e . "$f" >/dev/null
	[ "$(jq -r '[.version, .policy, .page_size, .exit.status, (.exit.signal | tostring), (.nodes | length)] | @tsv' "$f")" = \
	  "1	weighted-interleave	4096	0	null	1" ]
	[ "$(jq -r '.nodes[0] | "\(.heap.pages) \(.anon.pages) \(.file.pages)"' "$f")" = "$(numa_maps_pages 0)" ]
	[ "$(jq -r '[.nodes[0].requested_share, .nodes[0].heap.share] | @tsv' "$f")" = "1	1" ]
	[ "$(jq -r '.total.heap' "$f")" -ge 24 ]
	[ "$(jq -r '.nodes[0].heap.pages' "$f")" = "$(jq -r '.total.heap' "$f")" ]
	[ "$(jq -r .command "$f")" = "$ALLOC" ]
}

@test "--report: the exit status passes through (0, 3) and the report says it" {
	run -0 --separate-stderr "$NUMACTL2" --report -i 0 true
	[[ "${stderr_lines[0]}" == *", exit status 0; "* ]] || return 1
	run -3 --separate-stderr "$NUMACTL2" --report=json -i 0 sh -c 'echo out; exit 3'
	[ "$output" = out ]
	[ "$(jq -r .exit.status <<<"$stderr")" = 3 ]
}

@test "--report: a job killed by SIGTERM: 143, numactl2 dies of it too, the report says so" {
	run -0 --separate-stderr bash -c 'env --default-signal=TERM "$1" --report=json -i 0 sh -c "kill -TERM \$\$"; echo $?' _ "$NUMACTL2"
	[ "$output" = 143 ]
	[[ "$stderr" == *Terminated* ]] || return 1
	[ "$(grep '^{' <<<"$stderr" | jq -r '[.exit.status, .exit.signal] | map(tostring) | join(" ")')" = "null 15" ]
}

# numactl2 and the job get SIGTERM at its default (env): one ignored where the
# suite was started would stay ignored, and the job could not trap it.
@test "--report: SIGTERM sent to numactl2 goes on to the job" {
	env --default-signal=INT,TERM "$NUMACTL2" --report -i 0 sh -c \
		"trap 'exit 3' TERM; echo ready; for i in \$(seq 100); do sleep 0.1; done; exit 9" \
		>"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" &
	local pid=$! rc=0
	wait_until grep -q ready "$BATS_TEST_TMPDIR/out" || return 1
	kill -TERM "$pid"
	wait "$pid" || rc=$?
	[ "$rc" -eq 3 ]
	grep -q ', exit status 3; ' "$BATS_TEST_TMPDIR/err"
}

@test "--report: a command that cannot be found: 127, no report" {
	local f=$BATS_TEST_TMPDIR/badinterp
	run -127 --separate-stderr "$NUMACTL2" --report -i 0 /nonexistent/prog
	[ "$stderr" = "numactl2: failed to run '/nonexistent/prog': No such file or directory" ]
	# Found and executable, so the watched run goes ahead; its exec fails.
	printf '#!/nonexistent/interp\n' >"$f"
	chmod 0755 "$f"
	run -127 --separate-stderr "$NUMACTL2" --report -i 0 "$f"
	[ "$stderr" = "numactl2: failed to run '$f': No such file or directory" ]
}

@test "--dry-run shows the report and --weights=measured, and runs nothing" {
	run -0 --separate-stderr "$NUMACTL2" --dry-run --report=json --report-file=r.json -w 0 --weights=measured true
	[[ "$output" == *$'\nweights: measured when it runs, from the CPUs it runs on (--measure shows them now)\n'* ]] || return 1
	[[ "$output" == *$'\nreport: json, to r.json\n'* ]] || return 1
	[ ! -e r.json ]
}

@test "--measure: bad input is refused: exit 1, a clear message, nothing changed" {
	local m=$BATS_TEST_TMPDIR/ran before
	before=$(wi_snapshot)
	run -1 --separate-stderr "$NUMACTL2" --measure touch "$m"
	[ "${stderr_lines[0]}" = "numactl2: --measure runs alone, with at most --cpunodebind, --physcpubind and --interleave/--weighted-interleave; --weights=measured uses it for a command" ]
	run -1 --separate-stderr "$NUMACTL2" --measure -m 0
	[ "${stderr_lines[0]}" = "numactl2: --measure takes its nodes from --interleave or --weighted-interleave" ]
	run -1 --separate-stderr "$NUMACTL2" --measure --measure-size=0
	[ "${stderr_lines[0]}" = "numactl2: invalid --measure-size: '0' (at least 1m)" ]
	run -1 --separate-stderr "$NUMACTL2" --measure --measure-size=12x
	[[ "${stderr_lines[0]}" == "numactl2: invalid measure size"* ]] || return 1
	run -1 --separate-stderr "$NUMACTL2" --measure --measure-time=0
	[ "${stderr_lines[0]}" = "numactl2: invalid --measure-time: '0' (1-3600 seconds)" ]
	run -1 --separate-stderr "$NUMACTL2" --measure --measure-time=3601
	[ "${stderr_lines[0]}" = "numactl2: invalid --measure-time: '3601' (1-3600 seconds)" ]
	run -1 --separate-stderr "$NUMACTL2" --measure-size=8m -i 0 touch "$m"
	[ "${stderr_lines[0]}" = "numactl2: --measure-size and --measure-time need --measure or --weights=measured" ]
	run -1 --separate-stderr "$NUMACTL2" -m 0 --weights=measured touch "$m"
	[ "${stderr_lines[0]}" = "numactl2: --weights needs --weighted-interleave or --interleave" ]
	nothing_changed "$m"
}

@test "--measure refuses a size node 0 cannot hold now" {
	local m=$BATS_TEST_TMPDIR/ran before
	before=$(wi_snapshot)
	run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=measured --measure-size=64t touch "$m"
	[ "$stderr" = "numactl2: --measure-size: node 0 has less than 67108864 MiB free" ]
	nothing_changed "$m"
}

@test "--measure: GB/s per node, the weights, the time, one thread per CPU" {
	local cpus
	cpus=$(nproc)
	run -0 --separate-stderr "$NUMACTL2" --measure --measure-size=16m --measure-time=5
	echo "$output"
	[ "${#lines[@]}" -eq 3 ]
	[[ "${lines[0]}" =~ ^node\ 0:\ ([0-9]+\.[0-9])\ GB/s\ \(best\ of\ [1-5]\)$ ]] || return 1
	[ "${lines[1]}" = "weights: 0:1" ]
	[[ "${lines[2]}" =~ ^measured\ in\ [0-9]+\.[0-9]\ s\ with\ $cpus\ threads?$ ]] || return 1
	run -0 "$NUMACTL2" --measure --measure-size=16m --physcpubind=0
	[[ "${lines[2]}" =~ ^measured\ in\ [0-9.]+\ s\ with\ 1\ thread$ ]] || return 1
	run -0 "$NUMACTL2" --measure --measure-size=16m --cpunodebind=0 -w 0
	[[ "${lines[2]}" =~ \ with\ $cpus\ threads?$ ]] || return 1
}

@test "--measure is bounded by --measure-time: at least one pass, then it stops" {
	local t0=$SECONDS
	run -0 "$NUMACTL2" --measure --measure-size=64m --measure-time=1
	echo "$output"
	[ $((SECONDS - t0)) -le 4 ]
	[[ "${lines[0]}" =~ \(best\ of\ [1-5]\)$ ]] || return 1
}

@test "--weights=measured: measures, says so in one line, and runs with those weights" {
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=measured --measure-size=8m \
		"${HEAP_POLICY[@]}"
	[ "$output" = "weighted interleave:0" ]
	[[ "${stderr_lines[0]}" =~ ^numactl2:\ measured\ node\ 0\ [0-9]+\.[0-9]\ GB/s\ in\ [0-9]+\.[0-9]\ s:\ weights\ 0:1$ ]] || return 1
	[ "$(cat "$WI_DIR/node0")" = 1 ]
}

@test "--measure shows progress on a terminal after a second, and clears it; none elsewhere" {
	# A fast machine measures 1g in under a second: strace holds the first
	# mbind (the first node's memory) for 1.2 s, so the run always takes longer.
	run -0 script -qec "strace -o /dev/null -e trace=mbind -e inject=mbind:delay_exit=1200000:when=1 \
		'$NUMACTL2' --measure --measure-size=64m --measure-time=6 -C 0" /dev/null
	[[ "$output" == *$'\r'"numactl2: measuring node 0 (1 of 1), pass "[0-5]" of 5 "* ]] || return 1
	[[ "$output" == *$'\r\e[K'"node 0: "*" GB/s (best of "* ]] || return 1
	run -0 --separate-stderr "$NUMACTL2" --measure --measure-size=1g --measure-time=6 -C 0
	[ -z "$stderr" ]
}

# Where ptrace is forbidden (seccomp, Yama), --report cannot see the exit:
# strace makes ptrace(2) fail with EPERM.
@test "--report where ptrace is refused: exit 1, the command never runs, the weights go back" {
	local m=$BATS_TEST_TMPDIR/ran before
	before=$(wi_snapshot)
	run -1 --separate-stderr strace -o /dev/null -e trace=ptrace -e inject=ptrace:error=EPERM \
		"$NUMACTL2" --report -w 0 --weights=0:5 touch "$m"
	echo "$stderr"
	[ "${stderr_lines[-1]}" = "numactl2: cannot start a watcher for 'touch' (ptrace): Operation not permitted" ]
	[[ "$stderr" == *"changed global interleave weights: node0 "*"->5"* ]] || return 1
	nothing_changed "$m"
}

# Issue 23: the job is the command's own process (its threads count once):
# what it forks or vforks is not traced, so that it may trace it itself
# (strace -f, gdb). Issue 37 (item 8): it is counted all the same, sampled.
# started_64m SCRIPT_PREFIX...: runs, under --report=json to $f, a shell that
# starts alloc, which touches 64 MiB and holds them until the shell, having
# seen READY and slept 1 s (five sample periods), lets it go on.
started_64m() {
	local out=$BATS_TEST_TMPDIR/alloc.out
	run -4 --separate-stderr "$NUMACTL2" --report=json --report-file="$f" -i 0 "$@" sh -c \
		'"$1" -s 64M -p >"$2" & p=$!
		 i=0; until grep -q READY "$2" || [ $i -ge 200 ]; do sleep 0.05; i=$((i+1)); done
		 sleep 1; kill -USR1 $p; wait $p; exit 4' _ "$ALLOC" "$out"
	cat "$f"
	grep -q READY "$out" || return 1
}

@test "--report: a script that starts a 64 MiB program reports those 64 MiB, counted by sampling" {
	local f=$BATS_TEST_TMPDIR/r.json
	started_64m
	python3 -m json.tool "$f" >/dev/null
	[ "$(jq -r .exit.status "$f")" = 4 ]
	[ "$(jq -r .total.anon "$f")" -ge 16384 ]
	[ "$(jq -r '[.processes.largest[] | select(.name == "alloc")][0].anon' "$f")" -ge 16384 ]
	[ "$(jq -r '.processes.reported > 1 and .processes.running == 0' "$f")" = true ]
	[ "$(jq -r '.processes.reported == .counted.started_processes + 1' "$f")" = true ]
	[ "$(jq -r '[.counted.own, .counted.started, .counted.sample_period_ms] | map(tostring) | join(" ")' "$f")" = \
	  "exit numa_maps sampled 200" ]
	[ "$(jq -r .sampled "$f")" = false ]
}

@test "--report: a job that runs strace -f on what it starts still runs, and is counted whole" {
	local f=$BATS_TEST_TMPDIR/r.json
	started_64m strace -f -o "$BATS_TEST_TMPDIR/strace.out"
	[ "$(jq -r .command "$f")" = strace ]
	[ "$(jq -r .total.anon "$f")" -ge 16384 ]
	[ "$(jq -r '[.processes.largest[] | select(.name == "alloc")][0].anon' "$f")" -ge 16384 ]
	# strace followed the shell's children: alloc's exec is in its log.
	grep -q 'execve("'"$ALLOC"'"' "$BATS_TEST_TMPDIR/strace.out"
}

@test "--report: the table lists the job's processes after its own lines, and says how it counted" {
	run -0 --separate-stderr "$NUMACTL2" --report -i 0 "$ALLOC" -s 8M
	echo "$stderr"
	[ "$(table_pages "$stderr" 0 | cut -d' ' -f2)" -ge 2048 ]
	[ "$(printf '%s\n' "$stderr" | grep -c '^total ')" -eq 1 ]
	[ "$(printf '%s\n' "$stderr" | sed -n '/^total /{n;p}')" = "processes: 1 reported (the job's own and 0 it started), 0 it started left running; the largest:" ]
	[[ "$(printf '%s\n' "$stderr" | sed -n '/^processes: /{n;p}')" =~ ^\ \ pid\ [0-9]+\ \(alloc\):\ [0-9]+\ pages,\ heap\ [0-9]+,\ anon\ [0-9]+,\ file\ [0-9]+$ ]] || return 1
	[ "$(printf '%s\n' "$stderr" | grep -c '^  pid ')" -eq 1 ]
	[ "$(printf '%s\n' "$stderr" | grep '^counted: ')" = "counted: the job's own process at its end (traced); what it started, from the last of samples of numa_maps at most 200 ms apart (not traced): a process that lived less than 200 ms may be missed, and pages processes share count in each" ]
}

@test "--report: threads count once, at the last one's exit, with the job's own pages" {
	local f=$BATS_TEST_TMPDIR/r.json
	run -0 --separate-stderr "$NUMACTL2" --report=json --report-file="$f" -i 0 "$ALLOC" -t 4 -s 8M -m
	[ "$(jq -r '.nodes[0] | "\(.heap.pages) \(.anon.pages) \(.file.pages)"' "$f")" = "$(numa_maps_pages 0)" ]
	[ "$(jq -r .processes.reported "$f")" = 1 ]
}

# The main thread calls pthread_exit() at once; a second thread allocates
# 16 MiB, dumps numa_maps and exits 3: the report is that thread's.
@test "--report: a main thread that exits first: the report is taken when the job ends" {
	local f=$BATS_TEST_TMPDIR/r.json
	run -3 --separate-stderr "$NUMACTL2" --report=json --report-file="$f" -i 0 "$ALLOC" -X 3 -s 16M -m
	cat "$f"
	[ "$(jq -r .exit.status "$f")" = 3 ]
	[ "$(jq -r '.nodes[0] | "\(.heap.pages) \(.anon.pages) \(.file.pages)"' "$f")" = "$(numa_maps_pages 0)" ]
	[ "$(jq -r .total.anon "$f")" -ge 4096 ]
}

# A child still running when the job ends is left to run, and counted (its
# pages too, sampled at the job's end).
@test "--report: a child left running is counted, not waited for" {
	local f=$BATS_TEST_TMPDIR/r.json t0=$SECONDS
	run -0 --separate-stderr "$NUMACTL2" --report=json --report-file="$f" -i 0 sh -c \
		"sleep 5 >/dev/null 2>&1 & exit 0"
	cat "$f"
	[ $((SECONDS - t0)) -lt 5 ]
	[ "$(jq -r '. as $r | [.processes.largest[] | select(.pid == $r.pid)][0].name' "$f")" = sh ]
	[ "$(jq -r .processes.running "$f")" = 1 ]
	# The child is counted too, at its last sample (the job's end at the latest).
	[ "$(jq -r '[.processes.reported, .counted.started_processes] | map(tostring) | join(" ")' "$f")" = "2 1" ]
}

@test "--report-file: a symlink is not followed, dangling or not" {
	local d=$BATS_TEST_TMPDIR
	echo precious >"$d/target"
	ln -s "$d/target" "$d/rf"
	run -1 --separate-stderr "$NUMACTL2" --report-file="$d/rf" -i 0 true
	[ "$stderr" = "numactl2: cannot open the report file '$d/rf': a symbolic link is on its path" ]
	[ "$(cat "$d/target")" = precious ]
	ln -s "$d/absent" "$d/dangling"
	run -1 --separate-stderr "$NUMACTL2" --report-file="$d/dangling" -i 0 true
	[ "$stderr" = "numactl2: cannot open the report file '$d/dangling': a symbolic link is on its path" ]
	[ ! -e "$d/absent" ]
	[ -L "$d/dangling" ]
}

# no_link_on_path [VAR=VALUE]: a link among the directories of the
# path is not followed, whether the kernel's openat2 resolves it or the walk
# that stands in for it does; a path without one is written.
no_link_on_path() {
	local d=$BATS_TEST_TMPDIR pre=(env)
	[ $# -eq 0 ] || pre=(env "$1")
	rm -rf "$d/real" "$d/jobdir"
	mkdir "$d/real"
	echo precious >"$d/real/x"
	ln -s real "$d/jobdir"
	run -1 --separate-stderr "${pre[@]}" "$NUMACTL2" --report-file="$d/jobdir/x" -i 0 true
	[ "$stderr" = "numactl2: cannot open the report file '$d/jobdir/x': a symbolic link is on its path" ] || return 1
	[ "$(cat "$d/real/x")" = precious ] || return 1
	run -1 --separate-stderr "${pre[@]}" "$NUMACTL2" --report-file="$d/jobdir/new" -i 0 true
	[ ! -e "$d/real/new" ] || return 1
	run -0 --separate-stderr "${pre[@]}" "$NUMACTL2" --report=json --report-file="$d/real/../real//r.json" -i 0 true
	jq -e .version "$d/real/r.json" >/dev/null || return 1
	(cd "$d" && "${pre[@]}" "$NUMACTL2" --report=json --report-file=real/rel.json -i 0 true) || return 1
	jq -e .version "$d/real/rel.json" >/dev/null
}

@test "--report-file: no symlink among the directories of its path (openat2)" {
	no_link_on_path
}

@test "--report-file: no symlink among the directories of its path (a kernel without openat2)" {
	# The test build's stand-in for ENOSYS (strace would trace the job).
	no_link_on_path NUMACTL2_TEST_NO_OPENAT2=1
}

@test "--report-file: not on procfs, where a write acts on the system" {
	local want="not of files"
	# /proc/self is a link: this shell's own name, by its pid.
	run -1 --separate-stderr "$NUMACTL2" --report-file=/proc/$$/comm -i 0 true
	[ "$stderr" = "numactl2: cannot open the report file '/proc/$$/comm': it is on a filesystem of kernel controls (procfs, sysfs, cgroupfs...), $want" ]
}

@test "--report-file: not on sysfs" {
	local want="not of files"
	# A knob that refuses a write of text (EINVAL): harmless if this failed.
	[ -w /sys/kernel/mm/ksm/sleep_millisecs ] || skip "needs KSM's sysfs knobs (CONFIG_KSM)"
	run -1 --separate-stderr "$NUMACTL2" --report-file=/sys/kernel/mm/ksm/sleep_millisecs -i 0 true
	[ "$stderr" = "numactl2: cannot open the report file '/sys/kernel/mm/ksm/sleep_millisecs': it is on a filesystem of kernel controls (procfs, sysfs, cgroupfs...), $want" ]
}

@test "--report-file: only a regular file" {
	mkfifo "$BATS_TEST_TMPDIR/fifo"
	# Opening a FIFO for writing waits for a reader: timeout ends that.
	run -1 --separate-stderr timeout 10 "$NUMACTL2" --report-file="$BATS_TEST_TMPDIR/fifo" -i 0 true
	[ "$stderr" = "numactl2: cannot open the report file '$BATS_TEST_TMPDIR/fifo': not a regular file" ]
	run -1 --separate-stderr "$NUMACTL2" --report-file=/dev/null -i 0 true
	[ "$stderr" = "numactl2: cannot open the report file '/dev/null': not a regular file" ]
}

@test "--report-file: not through a hard link" {
	local d=$BATS_TEST_TMPDIR
	echo precious >"$d/target"
	ln "$d/target" "$d/link"
	run -1 --separate-stderr "$NUMACTL2" --report-file="$d/link" -i 0 true
	[ "$stderr" = "numactl2: cannot open the report file '$d/link': it has more than one link" ]
	[ "$(cat "$d/target")" = precious ]
}

# The suite runs as root: root's report must not land in a user's file.
@test "--report-file: not into another user's file" {
	local d=$BATS_TEST_TMPDIR
	echo theirs >"$d/theirs"
	chown 65534:65534 "$d/theirs"
	run -1 --separate-stderr "$NUMACTL2" --report-file="$d/theirs" -i 0 true
	[ "$stderr" = "numactl2: cannot open the report file '$d/theirs': it is another user's" ]
	[ "$(cat "$d/theirs")" = theirs ]
}

@test "--report-file: a file there is replaced by the report, a new one created" {
	local f=$BATS_TEST_TMPDIR/r.json
	head -c 100000 /dev/zero | tr '\0' x >"$f"
	run -0 "$NUMACTL2" --report=json --report-file="$f" -i 0 true
	[ "$(wc -l <"$f")" -eq 1 ]
	jq -e . "$f" >/dev/null
	run -0 "$NUMACTL2" --report=json --report-file="$BATS_TEST_TMPDIR/new.json" -i 0 true
	jq -e . "$BATS_TEST_TMPDIR/new.json" >/dev/null
}

@test "--report-file: a run that fails before the job starts leaves the file as it was" {
	local f=$BATS_TEST_TMPDIR/r.json
	echo old >"$f"
	run -127 --separate-stderr "$NUMACTL2" --report-file="$f" -i 0 /nonexistent/prog
	[ "$(cat "$f")" = old ]
	run -1 --separate-stderr strace -o /dev/null -e trace=ptrace -e inject=ptrace:error=EPERM \
		"$NUMACTL2" --report-file="$f" -i 0 true
	[ "${stderr_lines[-1]}" = "numactl2: cannot start a watcher for 'true' (ptrace): Operation not permitted" ]
	[ "$(cat "$f")" = old ]
}

@test "--report=json: a name that is not UTF-8, or holds control characters, still parses" {
	local prog=$BATS_TEST_TMPDIR/$'t\xff\x01\x7f\xc3\xa9\xed\xa0\x80"' f=$BATS_TEST_TMPDIR/r.json
	cp /bin/true "$prog"
	run -0 --separate-stderr "$NUMACTL2" --report=json --report-file="$f" -i 0 "$prog"
	python3 -m json.tool "$f" >/dev/null
	[ "$(jq -r .command "$f")" = "$BATS_TEST_TMPDIR/t"$'\xef\xbf\xbd\x01\x7f\xc3\xa9\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"' ]
	grep -qF '\ufffd\u0001\u007f' "$f"
	python3 -m json.tool "$f" >/dev/null
	[ "$(jq -r '.processes.largest[0].name' "$f")" = $'t\xef\xbf\xbd\x01\x7f\xc3\xa9\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"' ]
}

@test "--report: a set-user-ID job keeps its privilege: sampled, not traced" {
	command -v setpriv >/dev/null || skip "needs setpriv"
	local dir
	dir=$(mktemp -d /tmp/numactl2-suid.XXXXXX)
	chmod 755 "$dir"
	cp /usr/bin/id "$dir/id"
	chmod 4755 "$dir/id"
	run -0 --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$NUMACTL2" -i 0 "$dir/id" -u
	echo "plain: $output"
	[ "$output" = 0 ] || { rm -rf "$dir"; return 1; }
	run -0 --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$NUMACTL2" --report -i 0 "$dir/id" -u
	rm -rf "$dir"
	echo "--report: $output / $stderr"
	[ "$output" = 0 ]
	[ "${stderr_lines[0]}" = "numactl2: --report: '$dir/id' is set-user-ID, set-group-ID or has file capabilities, which a traced exec would lose: its pages are sampled while it runs, not read at its end" ]
}

# A job names itself (comm) with a colour, a title and a C1 CSI (0xc2 0x9b).
NAME_SET='printf "\033[31mX\033]0;t\007\302\233" >/proc/$$/comm'

@test "--report: a name the job set reaches the terminal escaped, not as escape sequences" {
	local prog=$BATS_TEST_TMPDIR/$'a\eb'
	ln -s /bin/sh "$prog"
	run -0 --separate-stderr "$NUMACTL2" --report -i 0 "$prog" -c "$NAME_SET"
	printf '%s\n' "$stderr" | cat -A
	[[ "$stderr" != *$'\e'* ]] || return 1
	[[ "$stderr" != *$'\xc2\x9b'* ]] || return 1
	[[ "${stderr_lines[0]}" == "numactl2: report: $BATS_TEST_TMPDIR/a\\x1bb (pid "* ]] || return 1
	[[ "$stderr" == *' (\x1b[31mX\x1b]0;t\x07\xc2\x9b): '* ]]
}

@test "--report=json: a name the job set is JSON-escaped, C1 controls too, and decodes back" {
	local f=$BATS_TEST_TMPDIR/r.json
	run -0 --separate-stderr "$NUMACTL2" --report=json --report-file="$f" -i 0 sh -c "$NAME_SET"
	[ -z "$stderr" ]
	grep -qF '"name": "\u001b[31mX\u001b]0;t\u0007\u009b"' "$f"
	[ "$(jq -r '.processes.largest[0].name' "$f")" = $'\e[31mX\e]0;t\a\xc2\x9b' ]
}

# refused_with OPTION: --report and --report-file with OPTION are usage
# errors, and nothing runs.
refused_with() {
	local m=$BATS_TEST_TMPDIR/ran
	run -1 --separate-stderr "$NUMACTL2" --report "$1" touch "$m"
	[ "${stderr_lines[0]}" = "numactl2: options --report and $1 cannot be combined" ]
	[ "${stderr_lines[1]}" = "Try 'numactl2 --help' for more information." ]
	[ -z "$output" ]
	run -1 --separate-stderr "$NUMACTL2" --report-file="$BATS_TEST_TMPDIR/r" "$1" touch "$m"
	[ "${stderr_lines[0]}" = "numactl2: options --report-file and $1 cannot be combined" ]
	[ -z "$output" ]
	[ ! -e "$BATS_TEST_TMPDIR/r" ]
	[ ! -e "$m" ]
}

@test "--report and --report-file with --show: refused, nothing run" {
	refused_with --show
}

@test "--report and --report-file with --hardware: refused, nothing run" {
	refused_with --hardware
}

# alloc's numa_maps text names its path on several lines: from a checkout
# with a long path the text passed the first page of alloc's read buffer,
# and the copy faulted a page after the count (the report then had one
# anonymous page more than the dump, on every run).
@test "--report: pages are numa_maps' also for a program with a long path" {
	local dir=$BATS_TEST_TMPDIR/$(printf 'p%.0s' {1..200})/$(printf 'q%.0s' {1..200})
	mkdir -p "$dir"
	cp "$ALLOC" "$dir/alloc"
	run -0 --separate-stderr "$NUMACTL2" --report -i 0 "$dir/alloc" -k mmap -s 8M -m
	[ "$(printf '%s\n' "$output" | sed -n '/^maps:$/,$p' | wc -c)" -gt 4096 ]
	[ "$(table_pages "$stderr" 0)" = "$(numa_maps_pages 0)" ]
}
