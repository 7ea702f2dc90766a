#!/usr/bin/env bats
# The README's batch-script examples run as written, with the test build on
# this host: a line that numactl2 refuses is a wrong example. ./app and
# ./solver are stand-ins that exit 0; the --shm line's key file goes to the
# test's directory and its length is 1m instead of 1g (same order of options).

load helpers

README=$BATS_TEST_DIRNAME/../README.md

# The command lines of the README's "Examples for batch scripts" section.
example_lines() {
	awk '/^## / { on = ($0 == "## Examples for batch scripts"); next }
	     on && /^    numactl2 / { sub(/^    /, ""); print }' "$README"
}

# The weights of LINE's --weights=N:W,... put in this test's table copy.
admin_sets() {
	local list=${1#*--weights=} nw
	list=${list%% *}
	for nw in ${list//,/ }; do
		echo "${nw#*:}" >"$WI_DIR/node${nw%%:*}"
	done
}

teardown() {
	local dev ino
	[ -e "$BATS_TEST_TMPDIR/key" ] || return 0
	read -r dev ino < <(stat -c '%d %i' "$BATS_TEST_TMPDIR/key")
	ipcrm -M "$(printf '0x%08x' $((((dev & 0xff) << 16) | (ino & 0xffff))))" 2>/dev/null || true
}

@test "the README's batch-script examples that this host's nodes allow run" {
	local line ran=0
	cd "$BATS_TEST_TMPDIR"
	printf '#!/bin/sh\nexit 0\n' >app
	cp app solver
	chmod +x app solver
	[ "$(example_lines | wc -l)" -ge 4 ]
	while IFS= read -r line; do
		# The two-node lines need a node 1.
		[[ $line != *0,1* ]] || [ -d /sys/devices/system/node/node1 ] || continue
		line=${line//\/tmp\/key/$BATS_TEST_TMPDIR/key}
		line=${line//--length=1g/--length=1m}
		# --no-global-weights runs where the admin has set its weights.
		[[ $line != *--no-global-weights* ]] || admin_sets "$line"
		eval "run --separate-stderr \"\$NUMACTL2\" ${line#numactl2 }"
		echo "$line: exit $status, $stderr"
		[ "$status" -eq 0 ]
		ran=$((ran + 1))
	done < <(example_lines)
	[ "$ran" -ge 3 ]
}
