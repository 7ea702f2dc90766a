# SPDX-License-Identifier: GPL-2.0-or-later
# What test/service.bats and test/numactl2d.bats share: the test build of
# numactl2d on a private socket and a copy of the table, started and
# stopped by PID, and users who are not root to ask it.

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
	# One a test stopped (SIGSTOP) must go on to see the SIGTERM.
	[ -z "${svc_pid:-}" ] || kill -CONT "$svc_pid" 2>/dev/null || true
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


# hold_as_nobody WEIGHT: nobody's job holding node 0 at WEIGHT, in the
# background, its PID in $held (and in bg, which teardown kills).
hold_as_nobody() {
	"${NOBODY[@]}" "$NUMACTL2" -w 0 --weights="0:$1" sleep 30 &
	held=$!
	bg+=("$held")
	wait_until w_is 0 "$1"
}
