#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --measure and --weights=measured in a memory cgroup too small for the
# measurement: one clear line and exit 1 before any memory is touched, not
# the OOM killer's exit 137. The cgroup is real: a child of this test's own
# cgroup v1 memory cgroup, limited to 64 MiB, removed in teardown.

load helpers

setup() {
	local mnt own
	[ "$(id -u)" = 0 ] || skip "needs root to make a memory cgroup"
	mnt=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ { print $2; exit }' /proc/self/mounts)
	own=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3; exit }' /proc/self/cgroup)
	[ -n "$mnt" ] && [ -n "$own" ] || skip "needs a cgroup v1 memory hierarchy"
	CG=$mnt${own%/}/numactl2-test-$$-$BATS_TEST_NUMBER
	mkdir "$CG" || skip "cannot make a memory cgroup under $mnt$own"
	echo $((64 << 20)) >"$CG/memory.limit_in_bytes"
}

teardown() {
	[ -z "${CG:-}" ] || rmdir "$CG" 2>/dev/null || true
}

# in_cgroup ARGS...: numactl2 ARGS in a shell moved into $CG.
in_cgroup() {
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' _ "$CG" "$NUMACTL2" "$@"
}

@test "--measure in a 64 MiB memory cgroup: refused with the cgroup's room, exit 1" {
	run -1 --separate-stderr in_cgroup --measure --measure-time=1
	[[ $stderr =~ ^numactl2:\ --measure-size:\ the\ memory\ cgroup\ leaves\ [0-9]+\ MiB,\ less\ than\ 256\ MiB$ ]]
	[ -z "$output" ]
	run -1 --separate-stderr in_cgroup -w 0 --weights=measured touch "$BATS_TEST_TMPDIR/ran"
	[[ $stderr =~ ^numactl2:\ --measure-size:\ the\ memory\ cgroup\ leaves\ [0-9]+\ MiB,\ less\ than\ 256\ MiB$ ]]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
}

@test "--measure in a 64 MiB memory cgroup: a size that fits runs" {
	run -0 --separate-stderr in_cgroup --measure --measure-size=8m --measure-time=1
	[[ ${lines[1]} == "weights: "* ]]
}
