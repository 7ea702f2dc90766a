#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The man pages of the kernel series' calls (kernel/man/*.2): mandoc's and
# groff's linters say nothing about them, and each page's EXAMPLES program
# compiles without a warning.

load helpers

MAN_DIR=$BATS_TEST_DIRNAME/../kernel/man

pages() {
	printf '%s\n' "$MAN_DIR"/*.2
}

# The program between a page's "SRC BEGIN" and "SRC END" comments, with
# the roff escapes it uses (\-, \e, \[aq]) turned back into C.
example_source() {
	awk '/^\.\\" SRC END/ { on = 0 }
	     on && !/^\.E[XE]$/ { print }
	     /^\.\\" SRC BEGIN/ { on = 1 }' "$1" |
		sed -e 's/\\-/-/g' -e "s/\\\\\\[aq\\]/'/g" -e 's/\\e/\\/g'
}

@test "kernel/man has the pages of set_mempolicy2, get_mempolicy2 and mbind2" {
	[ -f "$MAN_DIR/set_mempolicy2.2" ]
	[ -f "$MAN_DIR/get_mempolicy2.2" ]
	[ -f "$MAN_DIR/mbind2.2" ]
}

@test "mandoc -T lint -W warning prints nothing for kernel/man/*.2" {
	command -v mandoc >/dev/null || skip "needs mandoc (tools/install-deps)"
	local page
	while IFS= read -r page; do
		run mandoc -T lint -W warning "$page"
		echo "$page: exit $status: $output"
		[ "$status" -eq 0 ]
		[ -z "$output" ]
	done < <(pages)
}

@test "groff -man -ww -z prints nothing for kernel/man/*.2" {
	command -v groff >/dev/null || skip "needs groff"
	local page
	while IFS= read -r page; do
		run groff -man -ww -z "$page"
		echo "$page: exit $status: $output"
		[ "$status" -eq 0 ]
		[ -z "$output" ]
	done < <(pages)
}

@test "each page's EXAMPLES program compiles with -Wall -Wextra -Werror" {
	local page src
	while IFS= read -r page; do
		src=$BATS_TEST_TMPDIR/$(basename "$page" .2).c
		example_source "$page" >"$src"
		grep -q '^main(void)$' "$src"
		run "${CC:-gcc}" -std=gnu17 -Wall -Wextra -Wstrict-prototypes \
			-Wmissing-prototypes -Wshadow -Werror -c -o "$src.o" "$src"
		echo "$page: exit $status: $output"
		[ "$status" -eq 0 ]
		[ -z "$output" ]
	done < <(pages)
}
