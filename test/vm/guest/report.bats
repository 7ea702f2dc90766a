#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --report and --measure in the 4-node guest, on every kernel (6.12, 6.1):
# the report's pages are the job's own numa_maps at its exit (alloc -m dumps
# them last), the json parses (jq), the exit status and signals pass
# through, and --measure runs bounded and yields weights. Every node here is
# the same host RAM under TCG, so the bandwidths come out about equal: the
# tests check the plumbing, not the numbers.

load common

setup_file() {
	# nobody (asnobody) must reach the programs: the initramfs root comes
	# from mktemp -d, mode 0700.
	thp never
	chmod 755 /
}

YAMA=/proc/sys/kernel/yama/ptrace_scope

teardown() {
	[ -z "${bg_pid:-}" ] || kill "$bg_pid" 2>/dev/null || true
	# test/vm/init's rule for the suites: the classic ptrace rules.
	echo 0 >"$YAMA"
	[ -z "${shared:-}" ] || rm -rf "$shared"
}

@test "--report=json: 4-node interleave, each node's pages are numa_maps' at the exit" {
	local f=$BATS_TEST_TMPDIR/r.json
	run -0 --separate-stderr numactl2 --report=json --report-file="$f" -i all alloc -s 64M -m
	cat "$f"
	assert_split "0 1 2 3" "1 1 1 1"
	assert_report_json "$f" "0 1 2 3"
	[ "$(jq -r '[.nodes[].requested_share] | map(tostring) | join(" ")' "$f")" = "0.25 0.25 0.25 0.25" ]
	[ "$(jq -r '[.policy, .exit.status, (.nodes | length)] | map(tostring) | join(" ")' "$f")" = "interleave 0 4" ]
	[ "$(jq -r '[.nodes[].anon.pages] | add' "$f")" -eq "$(jq -r .total.anon "$f")" ]
	[ "$(jq -r .total.anon "$f")" -ge 16384 ]
}

@test "--report: the table for a tmpfs file on nodes 1-3 has numa_maps' file pages" {
	local n row
	run -0 --separate-stderr numactl2 --report -i 1-3 alloc -k tmpfs -s 12M -m
	echo "$stderr"
	assert_split "1 2 3" "1 1 1"
	[[ "${stderr_lines[0]}" == "numactl2: report: alloc (pid "*"), exit status 0; policy interleave; pages of 4 KiB" ]] || return 1
	for n in 0 1 2 3; do
		row=$(printf '%s\n' "$stderr" | awk -v n="$n" '$1 == n && NF == 8 { print $3, $5, $7 }')
		echo "node $n: table $row, numa_maps $(numa_maps_pages "$n")"
		[ "$row" = "$(numa_maps_pages "$n")" ]
	done
	[ "$(printf '%s\n' "$stderr" | awk '$1 == 0 { print $2 }')" = "0.0%" ]
	[ "$(printf '%s\n' "$stderr" | awk '$1 == 2 { print $2 }')" = "33.3%" ]
	[ "$(numa_maps_pages 2 | cut -d' ' -f3)" -ge 1024 ]
}

@test "--report: the heap under --membind=2 is all on node 2; no share is asked for" {
	local f=$BATS_TEST_TMPDIR/r.json
	run -0 --separate-stderr numactl2 --report=json --report-file="$f" -m 2 alloc -k heap -s 100K -m
	assert_report_json "$f" "0 1 2 3"
	[ "$(jq -r '[.nodes[2].heap.share, .nodes[0].requested_share] | map(tostring) | join(" ")' "$f")" = "1 null" ]
	[ "$(jq -r .total.heap "$f")" -ge 24 ]
}

@test "--report: exit status 0 and 3 pass through, and 128+15 for SIGTERM" {
	run -0 --separate-stderr numactl2 --report -i all true
	run -3 --separate-stderr numactl2 --report=json -i all sh -c 'echo out; exit 3'
	[ "$output" = out ]
	[ "$(printf '%s\n' "$stderr" | grep '^{' | jq -r .exit.status)" = 3 ]
	run -143 --separate-stderr numactl2 --report=json -i all sh -c 'kill -TERM $$'
	[ "$(printf '%s\n' "$stderr" | grep '^{' | jq -r .exit.signal)" = 15 ]
}

@test "--report: SIGTERM sent to numactl2 reaches the job" {
	local rc=0
	numactl2 --report -i all sh -c \
		"trap 'exit 3' TERM; echo ready; i=0; while [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done; exit 9" \
		>"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" &
	bg_pid=$!
	timeout 10 sh -c "until grep -q ready '$BATS_TEST_TMPDIR/out'; do sleep 0.1; done"
	kill -TERM "$bg_pid"
	wait "$bg_pid" || rc=$?
	cat "$BATS_TEST_TMPDIR/err"
	[ "$rc" -eq 3 ]
	grep -q ', exit status 3; ' "$BATS_TEST_TMPDIR/err"
}

@test "--measure: four nodes, bounded, weights for each" {
	local t0=$SECONDS
	run -0 --separate-stderr numactl2 --measure --measure-size=8m --measure-time=20
	echo "$output"
	[ $((SECONDS - t0)) -le 60 ]
	[ "${#lines[@]}" -eq 6 ]
	[[ "${lines[0]}" =~ ^node\ 0:\ [0-9]+\.[0-9]\ GB/s\ \(best\ of\ [1-5]\)$ ]] || return 1
	[[ "${lines[3]}" =~ ^node\ 3:\ [0-9]+\.[0-9]\ GB/s\ \(best\ of\ [1-5]\)$ ]] || return 1
	[[ "${lines[4]}" =~ ^weights:\ 0:[0-9]+,1:[0-9]+,2:[0-9]+,3:[0-9]+$ ]] || return 1
	[[ "${lines[5]}" =~ ^measured\ in\ [0-9]+\.[0-9]\ s\ with\ 2\ threads$ ]] || return 1
}

@test "--measure: the nodes of -w, the CPUs of --physcpubind" {
	run -0 --separate-stderr numactl2 --measure --measure-size=4m --measure-time=10 -C 1 -w 1,3
	echo "$output"
	[ "${#lines[@]}" -eq 4 ]
	[[ "${lines[0]}" == "node 1: "* ]] || return 1
	[[ "${lines[1]}" == "node 3: "* ]] || return 1
	[[ "${lines[2]}" =~ ^weights:\ 1:[0-9]+,3:[0-9]+$ ]] || return 1
	[[ "${lines[3]}" == *" with 1 thread" ]] || return 1
}

@test "--measure refuses a size a node cannot hold, and bad input: exit 1" {
	run -1 --separate-stderr numactl2 --measure --measure-size=600m -w 0,1
	[ "$stderr" = "numactl2: --measure-size: node 1 has less than 600 MiB free" ]
	run -1 --separate-stderr numactl2 --report=xml -i all true
	[ "${stderr_lines[0]}" = "numactl2: invalid --report format: 'xml' (table or json)" ]
	run -1 --separate-stderr numactl2 --measure -m 1
	[ "${stderr_lines[0]}" = "numactl2: --measure takes its nodes from --interleave or --weighted-interleave" ]
}

# Yama (Debian and Ubuntu ship it at ptrace_scope 1): only an ancestor, or
# the process a tracee names with PR_SET_PTRACER, may attach. --report's
# watcher is no ancestor of the job (supervise.c): numactl2 names it.
# report_of STDERR: the job's exit status and the processes reported, from
# the json line.
report_of() { printf '%s\n' "$1" | grep '^{' | jq -r '[.exit.status, .processes.reported] | map(tostring) | join(" ")'; }

@test "Yama ptrace_scope 1: --report works as root and as nobody" {
	echo 1 >"$YAMA"
	run -3 --separate-stderr numactl2 --report=json -i all sh -c 'echo out; exit 3'
	echo "$stderr"
	[ "$output" = out ]
	[ "$(report_of "$stderr")" = "3 1" ]
	run -3 --separate-stderr asnobody numactl2 --report=json -i all sh -c 'echo out; exit 3'
	echo "$stderr"
	[ "$output" = out ]
	[ "$(report_of "$stderr")" = "3 1" ]
}

# A directory nobody can write (BATS_TEST_TMPDIR's parents are root's, 0700).
open_dir() {
	shared=$(mktemp -d /tmp/report-yama.XXXXXX)
	chmod 777 "$shared"
}

# traced_job WHO STRACE-OUT [NUMACTL2...]: a job that traces its own
# children (strace -f of a shell with a background job: ash runs a last
# subshell in place, a background one always forks), as WHO ("" or asnobody),
# under the command before it; each traced process's exit_group is a line.
traced_job() {
	local who=$1 out=$2
	shift 2
	run -0 --separate-stderr $who "$@" strace -f -o "$out" -e trace=exit_group \
		sh -c 'echo traced; true & wait'
}

# A job that traces its own children (strace -f) runs under --report as it
# does without it, under Yama's scope 1 too, as root and as nobody.
@test "Yama ptrace_scope 1: strace -f under --report traces the job's children as without it" {
	local who
	open_dir
	echo 1 >"$YAMA"
	for who in "" asnobody; do
		traced_job "$who" "$shared/plain$who"
		[ "$output" = traced ]
		cat "$shared/plain$who"
		[ "$(grep -c exit_group "$shared/plain$who")" -eq 2 ]
		traced_job "$who" "$shared/report$who" numactl2 --report=json -i all
		echo "$stderr"
		[ "$output" = traced ]
		[ "$(grep -c exit_group "$shared/report$who")" -eq 2 ]
		[ "$(report_of "$stderr")" = "0 1" ]
	done
}

# Scope 2: only a process with CAP_SYS_PTRACE attaches. root's --report
# works; nobody's cannot start its watcher: exit 1 before the job runs (the
# man page says so). Scope 3 (no attach at all, until the next boot) is not
# tried here: the suites after this one need the classic rules back.
@test "Yama ptrace_scope 2: --report works as root; nobody's refuses before the job runs" {
	open_dir
	echo 2 >"$YAMA"
	run -0 --separate-stderr numactl2 --report=json -i all true
	[ "$(report_of "$stderr")" = "0 1" ]
	run -1 --separate-stderr asnobody numactl2 --report -i all touch "$shared/ran"
	echo "$stderr"
	[ "$stderr" = "numactl2: cannot start a watcher for 'touch' (ptrace): Operation not permitted" ]
	[ ! -e "$shared/ran" ]
	run -0 asnobody touch "$shared/ran"
}
