# SPDX-License-Identifier: GPL-2.0-or-later
# Shared set-up for the host bats suites.
bats_require_minimum_version 1.5.0

NUMACTL2=${NUMACTL2:-$BATS_TEST_DIRNAME/../build/test/numactl2}
PARSE_DRIVER=${PARSE_DRIVER:-$BATS_TEST_DIRNAME/../build/test/parse_driver}
BWWEIGHTS_DRIVER=${BWWEIGHTS_DRIVER:-$BATS_TEST_DIRNAME/../build/test/bwweights_driver}
REAL_WI_DIR=/sys/kernel/mm/mempolicy/weighted_interleave

# The helpers the guest suites share (numa_maps, refused, lease holders).
for nm2_lib in "${BASH_SOURCE[0]%/*}"/lib/*.bash; do
	source "$nm2_lib"
done
unset nm2_lib

# The host's weight table is not ours: every test gets its own copy of it
# ($WI_DIR), and the test build (make build/test/numactl2) reads
# NUMACTL2_SYSFS_WI instead of the real one. A numactl2 binary without that
# hook (the release build) would write the real table: the suite refuses it.
# Tests that must write the real table run in the guest (test/vm/guest).
nm2_refuse_release_build() {
	[ "$(head -c 4 "$NUMACTL2" 2>/dev/null)" = $'\x7fELF' ] || return 0
	grep -q -a NUMACTL2_SYSFS_WI "$NUMACTL2" && return 0
	echo "helpers.bash: $NUMACTL2 is not a test build (make build/test/numactl2):" \
		"it would write the host's real weights" >&2
	return 1
}

# A copy of the real table in $1 (node files and the auto switch), or
# nothing when this kernel has none (before 6.9): the tool sees the same,
# but for the auto switch, off as an admin would have left it. On this
# machine kind it is on, and no node has the access0 bandwidth Linux needs
# to turn it back on: the table's owner refuses a job's change that would
# turn it off until reboot (lib/owner/grant.c). Tests of the switch give it
# themselves, with node_bandwidth.
wi_copy_real() {
	local f
	[ -d "$REAL_WI_DIR" ] || return 0
	mkdir -p "$1"
	for f in "$REAL_WI_DIR"/*; do
		[ -f "$f" ] && cat "$f" >"$1/${f##*/}"
	done
	for f in "$1/auto" "$1/__auto_type"; do
		[ ! -f "$f" ] || echo false >"$f"
	done
	return 0
}

# node_bandwidth NODE...: a fake node directory (NUMACTL2_SYSFS_NODE) in
# which each NODE has access0 bandwidth, so that Linux could turn the
# kernel's auto weights back on (a test that gives the table's auto switch).
node_bandwidth() {
	local dir=$BATS_TEST_TMPDIR/node n
	for n in "$@"; do
		mkdir -p "$dir/node$n/access0/initiators"
		echo 20000 >"$dir/node$n/access0/initiators/read_bandwidth"
		echo 20000 >"$dir/node$n/access0/initiators/write_bandwidth"
	done
	export NUMACTL2_SYSFS_NODE=$dir
}

# This host has one node, over which weights place no page: numactl2 then
# leaves the global table alone (lib/request/resolve.c). The test build's
# NUMACTL2_TEST_ONE_NODE_WEIGHS=1 takes node 0 for a set whose weights
# matter, so that the suites reach the table's path; the tests of the
# one-node rule unset it (weights.bats).
export NUMACTL2_TEST_ONE_NODE_WEIGHS=1

if [ -n "${BATS_TEST_TMPDIR:-}" ]; then
	nm2_refuse_release_build || return 1
	WI_DIR=$BATS_TEST_TMPDIR/weighted_interleave
	wi_copy_real "$WI_DIR"
	export NUMACTL2_SYSFS_WI=$WI_DIR
fi

# Every node weight file and the auto switch, "name=value" per line.
wi_snapshot() {
	local f
	for f in "$WI_DIR"/*; do
		[ -f "$f" ] && printf '%s=%s\n' "${f##*/}" "$(cat "$f")"
	done
	return 0
}

# A fake weighted_interleave directory, for the failures a real kernel
# will not produce on demand.
fake_wi_dir() {
	local dir=$BATS_TEST_TMPDIR/wi n
	mkdir -p "$dir"
	for n in "$@"; do echo 1 >"$dir/node$n"; done
	echo "$dir"
}

# "invalid node list 'LIST': node N does not exist (...)": the error for a
# node this machine does not have names the nodes it has (libnuma's
# numa_nodes_ptr: sysfs's node directories, as .../node/online lists them).
node_absent_error() {
	local online
	online=$(cat /sys/devices/system/node/online) || return 1
	case $online in
	*[,-]*) online="nodes $online" ;;
	*) online="node $online" ;;
	esac
	echo "numactl2: invalid node list '$1': node $2 does not exist (this machine has $online; see numactl2 --hardware)"
}
