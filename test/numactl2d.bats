#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# numactl2d alone, on the host, with clients that do what numactl2 never
# does (test/owner_client.py): the test build of the service on a private
# socket and a copy of the table (NUMACTL2_SYSFS_WI), started and stopped
# by PID in each test. test/service.bats runs numactl2 through it.

load helpers
load svc_helpers

@test "service: a lease for another process's pidfd is refused" {
	svc_start
	sleep 30 &
	bg+=($!)
	run -0 as_nobody "$PY" "$CLIENT" "$SVC/run/socket" foreign "$!" 0 2
	[ "$output" = BAD_ASK ]
	[ "$(w 0)" = 1 ]
	# Its own pidfd: granted (the same client, the same ask).
	run -0 as_nobody "$PY" "$CLIENT" "$SVC/run/socket" foreign self 0 2
	[ "$output" = GRANTED ]
	run -0 as_nobody "$PY" "$CLIENT" "$SVC/run/socket" short
	[ "$output" = closed ]
}

@test "service: a state file of another boot is dropped and said so; the table is taken as it is (finding 5)" {
	echo 3 >"$SVC/wi/node0"
	printf 'numactl2d-state 1\nboot 00000000-0000-0000-0000-000000000000\nauto -1\nbase 0 9\n' >"$SVC/state"
	chmod 600 "$SVC/state"
	svc_start
	wait_until grep -q "is from another boot: dropped" "$SVC/log"
	[ "$(w 0)" = 3 ]
}

@test "service: rules another user can write, or that do not parse, stop it from starting" {
	chmod 666 "$SVC/rules.conf"
	run -1 "$NUMACTL2D" --socket="$SVC/run/socket" --state="$SVC/state" --rules="$SVC/rules.conf" --stderr
	[[ $output == *"not a regular file that root alone can write"* ]] || return 1
	chmod 644 "$SVC/rules.conf"
	echo "nobody 0 300 -" >"$SVC/rules.conf"
	run -1 "$NUMACTL2D" --socket="$SVC/run/socket" --state="$SVC/state" --rules="$SVC/rules.conf" --stderr
	[[ $output == *"rules.conf:1: invalid largest weight (1-255) '300'"* ]] || return 1
}

@test "numactl2d: a lease of no node is refused; a state line it cannot read is skipped, not a reason to stay down" {
	svc_start
	run -0 as_nobody "$PY" "$CLIENT" "$SVC/run/socket" foreign self 0 0
	[ "$output" = BAD_ASK ]
	svc_stop
	printf 'grant 12219 400115 65534 \ngrant x\n' >>"$SVC/state"
	svc_start
	wait_until grep -q "2 lines not understood, skipped" "$SVC/log"
	run -0 as_nobody "$PY" "$CLIENT" "$SVC/run/socket" foreign self 0 1
	[ "$output" = GRANTED ]
}

@test "numactl2d: a user in more groups than a first buffer holds is matched on all of them, never on zeroes" {
	local groups
	groups=$(seq -s, 2000 2069)
	echo "@root 0 8 16" >"$SVC/rules.conf"
	svc_start
	run -0 setpriv --reuid=65534 --regid=65534 --groups="$groups" "$PY" "$CLIENT" "$SVC/run/socket" foreign self 0 5
	[ "$output" = REFUSED ]
	[ "$(w 0)" = 1 ]
}

@test "numactl2d: a second one on the same socket or state is refused; the first goes on" {
	svc_start
	run -1 "$NUMACTL2D" --socket="$SVC/run/socket" --state="$SVC/other" --rules="$SVC/rules.conf" --stderr
	[[ $output == *"another numactl2d listens on '$SVC/run/socket'"* ]] || return 1
	run -1 "$NUMACTL2D" --socket="$SVC/run/other" --state="$SVC/state" --rules="$SVC/rules.conf" --stderr
	[[ $output == *"another numactl2d, or root's numactl2, keeps $SVC/state"* ]] || return 1
	run -0 as_nobody "$PY" "$CLIENT" "$SVC/run/socket" foreign self 0 1
	[ "$output" = GRANTED ]
}
