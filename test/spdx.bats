#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tools/spdx: every source of this repository has its SPDX licence line
# (LICENSE), and the tool finds a source without it, adds it where it
# belongs, and leaves a file that names another licence alone.

load helpers

SPDX=$BATS_TEST_DIRNAME/../tools/spdx

@test "every source of this repository has its SPDX line" {
	run --separate-stderr "$SPDX" --check
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
}

# A git tree in the test's directory with FILE=CONTENT... committed.
tree() {
	local t=$BATS_TEST_TMPDIR/tree f
	mkdir -p "$t"
	git -C "$t" init -q
	for f in "$@"; do
		mkdir -p "$t/$(dirname "${f%%=*}")"
		printf '%s\n' "${f#*=}" >"$t/${f%%=*}"
	done
	git -C "$t" add -A
	echo "$t"
}

@test "a source without the line fails --check; --apply adds it where it belongs" {
	local t
	t=$(tree "lib/a.c=int a;" "lib/a.h=int a(void);" "run=#!/bin/sh" "t/x.bats=#!/usr/bin/env bats" \
		"Makefile=all:" "kernel/k.sh=echo" "uapi/u.h=struct u;" "docs/n.md=# notes" "data=0-3")
	run -1 --separate-stderr "$SPDX" --check "$t"
	[[ $stderr == *"lib/a.c: no '// SPDX-License-Identifier: GPL-2.0-or-later'"* ]] || return 1
	[[ $stderr == *"tools/spdx: 7 file(s) without their licence line"* ]] || return 1
	run -0 "$SPDX" --apply "$t"
	run -0 --separate-stderr "$SPDX" --check "$t"
	[ "$(head -n 1 "$t/lib/a.c")" = "// SPDX-License-Identifier: GPL-2.0-or-later" ] || return 1
	[ "$(sed -n 2p "$t/lib/a.c")" = "int a;" ] || return 1
	[ "$(head -n 1 "$t/lib/a.h")" = "/* SPDX-License-Identifier: GPL-2.0-or-later */" ] || return 1
	[ "$(head -n 1 "$t/run")" = "#!/bin/sh" ] || return 1
	[ "$(sed -n 2p "$t/run")" = "# SPDX-License-Identifier: GPL-2.0-or-later" ] || return 1
	[ "$(sed -n 2p "$t/t/x.bats")" = "# SPDX-License-Identifier: GPL-2.0-or-later" ] || return 1
	[ "$(head -n 1 "$t/Makefile")" = "# SPDX-License-Identifier: GPL-2.0-or-later" ] || return 1
	[ "$(head -n 1 "$t/kernel/k.sh")" = "# SPDX-License-Identifier: GPL-2.0" ] || return 1
	[ "$(head -n 1 "$t/uapi/u.h")" = "/* SPDX-License-Identifier: GPL-2.0-or-later WITH Linux-syscall-note */" ] || return 1
	[ "$(cat "$t/docs/n.md")" = "# notes" ] || return 1
	[ "$(cat "$t/data")" = "0-3" ]
}

@test "a source naming another licence fails, and --apply does not change it" {
	local t
	t=$(tree "a.c=// SPDX-License-Identifier: MIT")
	run -1 --separate-stderr "$SPDX" --check "$t"
	[[ $stderr == *"a.c: another licence: SPDX-License-Identifier: MIT; want GPL-2.0-or-later"* ]] || return 1
	run -1 "$SPDX" --apply "$t"
	[ "$(cat "$t/a.c")" = "// SPDX-License-Identifier: MIT" ]
}
