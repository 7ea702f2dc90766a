#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --report's check that task-local weights held (lib/job/weightcheck.c), on
# numa_maps lines through test/weightcheck_driver: a line keeps the weights
# asked for only with a weights= token that names exactly them. A file of its
# own: it runs no numactl2, so the broken binaries of the fakes part cannot
# make it fail (test/check-all).

load helpers

WEIGHTCHECK_DRIVER=${WEIGHTCHECK_DRIVER:-$BATS_TEST_DIRNAME/../build/test/weightcheck_driver}

@test "--report's check of numa_maps' weights= token (weightcheck_driver)" {
	run -0 "$WEIGHTCHECK_DRIVER" 0:3,1:1 <<-'EOF'
	7f00 weighted interleave:0-1 weights=0:3,1:1 anon=4096 N0=3072 N1=1024 kernelpagesize_kB=4
	7f00 weighted interleave:0-1 anon=4096 dirty=4096 N0=2048 N1=2048 kernelpagesize_kB=4
	7f00 weighted interleave:0-1 weights=0:1,1:1 anon=4096 N0=2048 N1=2048 kernelpagesize_kB=4
	7f00 weighted interleave:0-1 weights=0:3 anon=4096 kernelpagesize_kB=4
	7f00 weighted interleave:0-1 weights=0:3,1:1,2:1 anon=4096 kernelpagesize_kB=4
	7f00 bind:0 anon=1 N0=1 kernelpagesize_kB=4
	7f00 weighted interleave=static:0-1 weights=0:3,1:1 heap anon=1 N0=1 kernelpagesize_kB=4
	EOF
	[ "${lines[0]}" = "asked: 0:3,1:1" ]
	[ "${lines[1]}" = "kept" ]
	[ "${lines[2]}" = "lost: weighted interleave:0-1" ]
	[ "${lines[3]}" = "lost: weighted interleave:0-1 weights=0:1,1:1" ]
	[ "${lines[4]}" = "lost: weighted interleave:0-1 weights=0:3" ]
	[ "${lines[5]}" = "lost: weighted interleave:0-1 weights=0:3,1:1,2:1" ]
	[ "${lines[6]}" = "kept" ]
	[ "${lines[7]}" = "kept" ]
	[ "${#lines[@]}" -eq 8 ]
}
