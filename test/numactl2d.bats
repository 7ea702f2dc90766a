#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# numactl2d alone, on the host, with clients that do what numactl2 never
# does (test/owner_client.py): the test build of the service on a private
# socket and a copy of the table (NUMACTL2_SYSFS_WI), started and stopped
# by PID in each test. test/service.bats runs numactl2 through it.

load helpers

NUMACTL2D=${NUMACTL2D:-$BATS_TEST_DIRNAME/../build/test/numactl2d}
CLIENT=$BATS_TEST_DIRNAME/owner_client.py
PY=/usr/bin/python3

as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
# For a background job whose $! must be the job itself (a function run
# with & would be a subshell around it).
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)

# The service's directory: readable by nobody (the table copy, the socket),
# writable by root alone. $1: the rules, one line each.
svc_dir() {
	SVC=$(mktemp -d /tmp/numactl2-svc.XXXXXX)
	chmod 755 "$SVC"
	mkdir -m 755 "$SVC/wi" "$SVC/run"
	echo 1 >"$SVC/wi/node0"
	printf '%s\n' "$@" >"$SVC/rules.conf"
	export NUMACTL2_SYSFS_WI=$SVC/wi NUMACTL2_OWNER_SOCKET=$SVC/run/socket
}

svc_start() {
	"$NUMACTL2D" --socket="$SVC/run/socket" --state="${STATE:-$SVC/state}" \
		--rules="$SVC/rules.conf" --stderr 2>>"$SVC/log" &
	svc_pid=$!
	wait_until [ -S "$SVC/run/socket" ] || return 1
}

svc_stop() {
	[ -z "${svc_pid:-}" ] || kill "$svc_pid" 2>/dev/null || true
	[ -z "${svc_pid:-}" ] || wait "$svc_pid" 2>/dev/null || true
	svc_pid=
}

setup() {
	command -v setpriv >/dev/null || skip "needs setpriv"
	[ -x "$NUMACTL2D" ] || skip "needs $NUMACTL2D (make build/test/numactl2d)"
	svc_dir "nobody 0 8 16"
	bg=()
}

teardown() {
	local p
	for p in "${bg[@]}"; do kill -9 "$p" 2>/dev/null || true; done
	for p in "${bg[@]}"; do wait "$p" 2>/dev/null || true; done
	svc_stop
	[ -z "${SVC:-}" ] || cat "$SVC/log" >&3
	[ -z "${SVC:-}" ] || rm -rf "$SVC"
}

w() { cat "$SVC/wi/node$1"; }
# wait_until w_is NODE WEIGHT: read anew at each try.
w_is() { [ "$(w "$1")" = "$2" ]; }

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
