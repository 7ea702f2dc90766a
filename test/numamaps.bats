#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# numamaps.c, the parser --report reads /proc/PID/numa_maps with, through
# test/numamaps_driver: numa_maps lines in, the pages per node of the heap,
# anonymous and file-backed mappings out.

load helpers

NUMAMAPS_DRIVER=${NUMAMAPS_DRIVER:-$BATS_TEST_DIRNAME/../build/test/numamaps_driver}

@test "numamaps: heap, anonymous (stack included) and file mappings are summed apart" {
	run -0 "$NUMAMAPS_DRIVER" <<'EOF2'
55d0c0a00000 default file=/usr/bin/cat mapped=2 N0=2 kernelpagesize_kB=4
55d0c1c00000 default heap anon=3 dirty=3 N0=1 N1=2 kernelpagesize_kB=4
7f0000000000 interleave:0-1 anon=10 dirty=10 N0=5 N1=5 kernelpagesize_kB=4
7ffd00000000 default stack anon=3 dirty=3 N0=3 kernelpagesize_kB=4
7f1000000000 default file=/dev/shm/x dirty=4 N2=4 kernelpagesize_kB=4
EOF2
	[ "${lines[0]}" = "heap N0=1 N1=2 total=3" ]
	[ "${lines[1]}" = "anon N0=8 N1=5 total=13" ]
	[ "${lines[2]}" = "file N0=2 N2=4 total=6" ]
}

@test "numamaps: a policy with a space, and mappings without pages" {
	run -0 "$NUMAMAPS_DRIVER" <<'EOF2'
7f0000000000 weighted interleave:0-3 anon=16 dirty=16 N0=8 N1=4 N2=2 N3=2 kernelpagesize_kB=4
7f2000000000 prefer (many):1-2
7f3000000000 bind=static:1 file=/lib/x.so
EOF2
	[ "${lines[0]}" = "heap total=0" ]
	[ "${lines[1]}" = "anon N0=8 N1=4 N2=2 N3=2 total=16" ]
	[ "${lines[2]}" = "file total=0" ]
}

@test "numamaps: huge pages count as base pages (kernelpagesize_kB)" {
	run -0 "$NUMAMAPS_DRIVER" <<'EOF2'
7f4000000000 default file=/dev/hugepages/x huge dirty=3 N0=2 N1=1 kernelpagesize_kB=2048
7f5000000000 bind:3 file=/anon_hugepage\040(deleted) huge anon=1 dirty=1 N3=1 kernelpagesize_kB=1048576
EOF2
	[ "${lines[2]}" = "file N0=1024 N1=512 N3=262144 total=263680" ]
	run -0 "$NUMAMAPS_DRIVER" 64 <<<"7f4000000000 default anon=2 N0=2 kernelpagesize_kB=64"
	[ "${lines[1]}" = "anon N0=2 total=2" ]
}

@test "numamaps: the highest node the kernel has (1023) and beyond it" {
	run -0 "$NUMAMAPS_DRIVER" <<<"7f0000000000 default anon=1 N1023=7 kernelpagesize_kB=4"
	[ "${lines[1]}" = "anon N1023=7 total=7" ]
	run -1 "$NUMAMAPS_DRIVER" <<<"7f0000000000 default anon=1 N1024=7 kernelpagesize_kB=4"
	[ "$output" = "error: line 1" ]
}

@test "numamaps: lines that are not numa_maps' are refused" {
	run -1 "$NUMAMAPS_DRIVER" <<<"hello world"
	[ "$output" = "error: line 1" ]
	run -1 "$NUMAMAPS_DRIVER" <<<""
	[ "$output" = "error: line 1" ]
	run -1 "$NUMAMAPS_DRIVER" <<<$'7f00 default N0=1\n7f01 default N0=1 kernelpagesize_kB=0'
	[ "$output" = "error: line 2" ]
	run -0 "$NUMAMAPS_DRIVER" <<<"7f00 default N0=x Nfoo=1 N=2 kernelpagesize_kB=4"
	[ "${lines[1]}" = "anon total=0" ]
}

@test "numamaps: weights= after the policy (kernel series): counted as before, the weights kept" {
	run -0 "$NUMAMAPS_DRIVER" <<'EOF2'
7f0000000000 weighted interleave:0-3 weights=0:8,1:4,2:2,3:1 anon=15 dirty=15 N0=8 N1=4 N2=2 N3=1 kernelpagesize_kB=4
55d0c1c00000 weighted interleave:0-3 weights=0:8,1:4,2:2,3:1 heap anon=3 dirty=3 N0=2 N1=1 kernelpagesize_kB=4
7f1000000000 weighted interleave=static:1,3 weights=1:5,3:2 file=/dev/shm/x dirty=7 N1=5 N3=2 kernelpagesize_kB=4
7f2000000000 weighted interleave:0-1 anon=2 N0=1 N1=1 kernelpagesize_kB=4
7f3000000000 interleave:0-1 anon=2 N0=1 N1=1 kernelpagesize_kB=4
EOF2
	[ "${lines[0]}" = "heap N0=2 N1=1 total=3" ]
	[ "${lines[1]}" = "anon N0=10 N1=6 N2=2 N3=1 total=19" ]
	[ "${lines[2]}" = "file N1=5 N3=2 total=7" ]
	[ "${lines[3]}" = "weights own 0:8,1:4,2:2,3:1" ]
	[ "${lines[4]}" = "weights own 1:5,3:2" ]
	[ "${lines[5]}" = "weights global 0-1" ]
	[ "${#lines[@]}" -eq 6 ]
}

@test "numamaps: no weights line without a weighted-interleave mapping" {
	run -0 "$NUMAMAPS_DRIVER" <<<"7f0000000000 interleave:0-1 anon=2 N0=1 N1=1 kernelpagesize_kB=4"
	[ "${#lines[@]}" -eq 3 ]
	run -0 "$NUMAMAPS_DRIVER" <<<"7f0000000000 bind:0 weights=0:1 anon=1 N0=1 kernelpagesize_kB=4"
	[ "${#lines[@]}" -eq 3 ]
}
