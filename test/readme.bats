#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The README as a reader uses it: its batch-script examples run as written,
# with the test build on this host (a line that numactl2 refuses is a wrong
# example; ./app and ./solver are stand-ins that exit 0; the --shm line's key
# file goes to the test's directory and its length is 1m instead of 1g, same
# order of options); its commands are what tools/install-deps and CI do; its
# links lead somewhere; it stays short and leaves the reference to the man
# page.

load helpers

README=$BATS_TEST_DIRNAME/../README.md

# The command lines of the README's "### Batch scripts" section.
example_lines() {
	awk '/^#/ { on = ($0 == "### Batch scripts"); next }
	     on && /^    numactl2 / { sub(/^    /, ""); print }' "$README"
}

# The README's indented command lines that start with WORD, comments cut.
commands() {
	sed -n "s|^    \($1 .*\)|\1|p" "$README" | sed 's/ *#.*//'
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

@test "the README is at most 200 lines" {
	[ "$(wc -l <"$README")" -le 200 ]
}

@test "the README's test command is what CI runs, and stays apart from the demo's" {
	local ci
	run -0 commands tools/install-deps
	[ "${lines[0]}" = "tools/install-deps" ] || return 1
	[[ $output == *$'\n'"tools/install-deps --test && make check"* ]] || return 1
	[[ $output == *$'\n'"tools/install-deps --test && make demo"* ]] || return 1
	# .ci/run: its commands after the cd, joined as the README joins them.
	ci=$(sed -n '/^cd /,$p' "$BATS_TEST_DIRNAME/../.ci/run" | sed 1d | paste -sd '&' | sed 's/&/ \&\& /g')
	[ "$ci" = "tools/install-deps --test && make check" ]
}

# The README speaks of one kernel build for the demo: the demo's guests boot
# the kernel make check builds, and no other.
@test "make demo boots the one guest kernel make check builds" {
	local demo
	run -0 "$BATS_TEST_DIRNAME/vm/demo" --kernels
	[ "${#lines[@]}" -eq 1 ] || return 1
	demo=$output
	run -0 env NUMACTL2_VM_LIST_KERNELS=1 "$BATS_TEST_DIRNAME/vm/check"
	[[ " ${lines[*]} " == *" $demo "* ]] || { echo "demo: $demo, make check: $output"; return 1; }
}

@test "the README's build packages are what tools/install-deps installs by default" {
	local said installs
	said=$(sed -n 's/^    tools\/install-deps  *# //p' "$README")
	installs=$(sed -n 's/^tool="\(.*\)"$/\1/p' "$BATS_TEST_DIRNAME/../tools/install-deps")
	[ -n "$said" ] || return 1
	[ "$said" = "$installs" ]
}

@test "every file the README links to exists" {
	local link missing=
	while IFS= read -r link; do
		[ -e "$BATS_TEST_DIRNAME/../$link" ] || missing="$missing $link"
	done < <(grep -o '](\([^)#]*\))' "$README" | sed 's/^](//; s/)$//' | grep -v '://')
	[ -z "$missing" ] || { echo "missing:$missing"; return 1; }
}

@test "the README leaves the reference to the man page and names no project history" {
	# The exit status and --report's JSON are the man page's.
	run -1 grep -nE '^## Exit status|"version": 1|^\| 127 ' "$README"
	run -1 grep -niE 'issue [0-9]+|seed|7\.2-mpol2' "$README"
}
