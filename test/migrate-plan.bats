#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --migrate's pure parts on the host (test/migrate_driver): the plan (which
# node each page goes to) and which mappings are moved, against splits
# worked out by hand. They run no numactl2 (the fakes part leaves this file
# out); test/migrate.bats has the option itself.

load helpers

MIGRATE_DRIVER=${MIGRATE_DRIVER:-$BATS_TEST_DIRNAME/../build/test/migrate_driver}

# pages N A B...: N pages, the first on node A, the next on B, and so on round.
pages() {
	local n=$1 i
	shift
	for ((i = 0; i < n; i++)); do
		local -a on=("$@")
		echo "${on[i % $#]}"
	done
}

# blocks N NODE...: N lines of each NODE in turn (a huge page's pages).
blocks() {
	local n=$1 node i
	shift
	for node in "$@"; do
		for ((i = 0; i < n; i++)); do echo "$node"; done
	done
}

@test "migrate plan: 100 pages at 1:1 retuned to 9:1 on nodes 0,1: 90:10, 40 moved" {
	run -0 "$MIGRATE_DRIVER" plan weighted 0:9,1:1 < <(pages 100 0 1)
	# Nine turns of node 0, one of node 1, from the first page on.
	[ "${lines[0]:0:23}" = "to: 0 0 0 0 0 0 0 0 0 1" ]
	[ "${lines[0]:23:20}" = " 0 0 0 0 0 0 0 0 0 1" ]
	[ "${lines[0]:183}" = " 0 0 0 0 0 0 0 0 0 1" ]
	# Of each 10 pages, 0 1 0 1 0 1 0 1 0 1 -> 0 0 0 0 0 0 0 0 0 1: 4 move.
	[ "${lines[1]}" = "moved: 40" ]
	[ "${lines[2]}" = "after: N0=90 N1=10" ]
}

@test "migrate plan: the round robin goes on from batch to batch" {
	run -0 "$MIGRATE_DRIVER" plan weighted 0:9,1:1 < <(pages 100 0 1)
	local whole=$output
	run -0 "$MIGRATE_DRIVER" plan weighted 0:9,1:1 7 < <(pages 100 0 1)
	[ "$output" = "$whole" ]
}

@test "migrate plan: a huge page's block moves whole, decided by its first page" {
	# Blocks of 2 pages, all on node 0, at 1:1: a block takes one turn.
	run -0 "$MIGRATE_DRIVER" plan weighted 0:1,1:1 100000 2 < <(pages 8 0)
	[ "${lines[0]}" = "to: 0 0 1 1 0 0 1 1" ]
	[ "${lines[1]}" = "moved: 4" ]
	# Four 2 MiB pages at 1:1 retuned to 9:1: four turns of node 0.
	run -0 "$MIGRATE_DRIVER" plan weighted 0:9,1:1 100000 512 < <(blocks 512 0 1 0 1)
	[ "${lines[1]}" = "moved: 1024" ]
	[ "${lines[2]}" = "after: N0=2048" ]
}

@test "migrate plan: pages not present take no turn" {
	run -0 "$MIGRATE_DRIVER" plan weighted 0:2,2:1 < <(pages 8 0 -1)
	[ "${lines[0]}" = "to: 0 - 0 - 2 - 0 -" ]
	[ "${lines[1]}" = "moved: 1" ]
	[ "${lines[2]}" = "after: N0=3 N2=1" ]
}

@test "migrate plan: weighted interleave over three nodes, 3:2:1" {
	run -0 "$MIGRATE_DRIVER" plan weighted 1:3,2:2,3:1 < <(pages 12 0)
	[ "${lines[0]}" = "to: 1 1 1 2 2 3 1 1 1 2 2 3" ]
	[ "${lines[1]}" = "moved: 12" ]
	[ "${lines[2]}" = "after: N1=6 N2=4 N3=2" ]
}

@test "migrate plan: interleave is weight 1 each, whatever weights it is given" {
	run -0 "$MIGRATE_DRIVER" plan interleave 0:9,1:1,3:1 < <(pages 7 0)
	[ "${lines[0]}" = "to: 0 1 3 0 1 3 0" ]
	[ "${lines[1]}" = "moved: 4" ]
}

@test "migrate plan: bind with every page inside the mask moves none" {
	run -0 "$MIGRATE_DRIVER" plan bind 0,1 < <(pages 100 0 1)
	[ "${lines[1]}" = "moved: 0" ]
	[ "${lines[2]}" = "after: N0=50 N1=50" ]
}

@test "migrate plan: bind: pages outside the mask go round it, those inside stay" {
	run -0 "$MIGRATE_DRIVER" plan bind 2,3 < <(pages 6 0 2 1)
	[ "${lines[0]}" = "to: 2 2 3 2 2 3" ]
	[ "${lines[1]}" = "moved: 4" ]
	run -0 "$MIGRATE_DRIVER" plan bind 2 < <(pages 100 0 1)
	[ "${lines[1]}" = "moved: 100" ]
	[ "${lines[2]}" = "after: N2=100" ]
}

@test "migrate plan: preferred-many as bind; preferred to its node" {
	run -0 "$MIGRATE_DRIVER" plan preferred-many 1,3 < <(pages 4 0 1 2 3)
	[ "${lines[0]}" = "to: 1 1 3 3" ]
	[ "${lines[1]}" = "moved: 2" ]
	run -0 "$MIGRATE_DRIVER" plan preferred 3 < <(pages 4 0 1 2 3)
	[ "${lines[0]}" = "to: 3 3 3 3" ]
	[ "${lines[1]}" = "moved: 3" ]
}

@test "migrate plan: local and default have no plan" {
	run -1 "$MIGRATE_DRIVER" plan local 0 </dev/null
	[ "$output" = "refused" ]
	run -1 "$MIGRATE_DRIVER" plan default 0 </dev/null
	[ "$output" = "refused" ]
}

@test "migrate ranges: the private anonymous mappings of /proc/PID/maps" {
	run -0 "$MIGRATE_DRIVER" maps <<'EOF2'
55d0a0000000-55d0a0021000 rw-p 00000000 00:00 0                          [heap]
55d0a1000000-55d0a1001000 r--p 00000000 fe:00 1234                       /usr/bin/retune
7f0000000000-7f0000064000 rw-p 00000000 00:00 0 
7f0000100000-7f0000200000 rw-s 00000000 00:01 4321                       /dev/zero (deleted)
7f0000300000-7f0000301000 rw-p 00001000 fe:00 5678                       /usr/lib/libc.so.6
7f0000400000-7f0000401000 rw-p 00000000 00:00 0                          [anon:jit]
7f0000500000-7f0000501000 rw-s 00000000 00:00 0                          [anon_shmem:x]
7f0000600000-7f0000604000 r--p 00000000 00:00 0                          [vvar]
7f0000604000-7f0000606000 r-xp 00000000 00:00 0                          [vdso]
7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0                          [stack]
ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]
EOF2
	[ "$output" = $'55d0a0000000-55d0a0021000\n7f0000000000-7f0000064000\n7f0000400000-7f0000401000\n7ffc00000000-7ffc00021000' ]
}

@test "migrate ranges: the task's policy as numa_maps prints it" {
	run -0 "$MIGRATE_DRIVER" policy weighted 0 0:9,1:1 own
	[ "$output" = "weighted interleave:0-1 weights=0:9,1:1" ]
	run -0 "$MIGRATE_DRIVER" policy weighted 0 0,1,2,3
	[ "$output" = "weighted interleave:0-3" ]
	run -0 "$MIGRATE_DRIVER" policy bind 'static|balancing' 0,1,2,5
	[ "$output" = "bind=static|balancing:0-2,5" ]
	run -0 "$MIGRATE_DRIVER" policy preferred-many relative 0,2,3
	[ "$output" = "prefer (many)=relative:0,2-3" ]
	run -0 "$MIGRATE_DRIVER" policy preferred balancing 2
	[ "$output" = "prefer=balancing:2" ]
	run -0 "$MIGRATE_DRIVER" policy default 0 ""
	[ "$output" = "default" ]
}

@test "migrate ranges: a mapping with a policy of its own is left alone" {
	run -0 "$MIGRATE_DRIVER" numamaps "weighted interleave:0-1 weights=0:1,1:1" <<'EOF2'
55d0a0000000 weighted interleave:0-1 weights=0:1,1:1 heap anon=3 dirty=3 N0=2 N1=1 kernelpagesize_kB=4
7f0000000000 weighted interleave:0-1 weights=0:1,1:1 anon=100 dirty=100 N0=50 N1=50 kernelpagesize_kB=4
7f0000100000 weighted interleave:0-1 weights=0:9,1:1 anon=10 dirty=10 N0=9 N1=1 kernelpagesize_kB=4
7f0000200000 bind:1 anon=4 dirty=4 N1=4 kernelpagesize_kB=4
7f0000300000 weighted interleave:0-1 weights=0:1,1:1
7ffc00000000 weighted interleave:0-1 weights=0:1,1:1 stack anon=3 dirty=3 N0=3 kernelpagesize_kB=4
EOF2
	[ "$output" = $'55d0a0000000 task\n7f0000000000 task\n7f0000100000 own\n7f0000200000 own\n7f0000300000 skip\n7ffc00000000 task' ]
	# Weights of its own where the task follows the global table.
	run -0 "$MIGRATE_DRIVER" numamaps "weighted interleave:0-1" <<'EOF2'
7f0000000000 weighted interleave:0-1 anon=2 N0=1 N1=1 kernelpagesize_kB=4
7f0000100000 weighted interleave:0-1 weights=0:9,1:1 anon=2 N0=2 kernelpagesize_kB=4
7f0000200000 weighted interleave:0-1,3 anon=2 N0=2 kernelpagesize_kB=4
EOF2
	[ "$output" = $'7f0000000000 task\n7f0000100000 own\n7f0000200000 own' ]
}
