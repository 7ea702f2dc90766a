#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# A kernel with weighted interleave but without the auto switch (6.9-6.15;
# the 6.12 guest).

load common

setup() {
	reset_weights
}

teardown() {
	reset_weights
}

@test "--auto-global-weights fails on 6.12: needs Linux 6.16" {
	run -1 --separate-stderr numactl2 --auto-global-weights
	echo "stderr: $stderr"
	[[ "$stderr" == numactl2:*"6.16"* ]]
	[ "$(global_weights)" = "1 1 1 1" ]
}
