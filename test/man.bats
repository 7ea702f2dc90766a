#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The man page (man/numactl2.8, help2man from --help and man/numactl2.h2m) is
# the reference: it is what `make man` makes of today's --help, it has the
# sections an admin looks for, and its statement of the weight sum is what
# the code does (through bwweights' driver, which runs the library's own
# bw_choose_weights(); the host has one node, so numactl2 cannot show it).

load helpers

top=$BATS_TEST_DIRNAME/..
MAN=$top/man/numactl2.8

# The man page as text, one paragraph a line.
man_text() {
	MANWIDTH=1000 man -l "$MAN" 2>/dev/null | sed 's/^ *//'
}

@test "man/numactl2.8 is what make man makes of today's --help (the date aside)" {
	command -v help2man >/dev/null || skip "needs help2man (tools/install-deps --test)"
	run -0 make -s -C "$top" numactl2
	local fresh=$BATS_TEST_TMPDIR/numactl2.8
	run -0 "$top/tools/mkman" "$top/numactl2" "$fresh"
	run diff <(sed '/^\.TH /d' "$MAN") <(sed '/^\.TH /d' "$fresh")
	[ "$status" -eq 0 ] || { echo "$output"; echo "run make man"; return 1; }
}

@test "the man page has FILES, ENVIRONMENT, EXIT STATUS once, and a full SEE ALSO" {
	local s ref
	for s in FILES ENVIRONMENT '"EXIT STATUS"' '"SEE ALSO"' WEIGHTS; do
		[ "$(grep -c "^\.SH $s\$" "$MAN")" -eq 1 ] || { echo "section $s"; return 1; }
	done
	for ref in numactl.8 numactl2-slurm.8 set_mempolicy.2 get_mempolicy.2 mbind.2 \
		   move_pages.2 numa.7; do
		sed -n '/^\.SH "SEE ALSO"/,$p' "$MAN" | sed 's/\\-/-/g' |
			grep -q "${ref%.*}(${ref##*.})" || { echo "SEE ALSO lacks $ref"; return 1; }
	done
	for f in /sys/kernel/mm/mempolicy/weighted_interleave/nodeN \
		 /sys/kernel/mm/mempolicy/weighted_interleave/auto \
		 /sys/kernel/mm/mempolicy/syscalls /run/numactl2/state; do
		sed -n '/^\.SH FILES/,/^\.SH /p' "$MAN" | sed 's/\\-/-/g' |
			grep -qF "$f" || { echo "FILES lacks $f"; return 1; }
	done
}

@test "the man page names no test hook, source directory or project history" {
	run -1 grep -nE 'seed|kernel/ |kernel/\)|NUMACTL2_|issue [0-9]' "$MAN"
	[ -z "$output" ]
}

@test "the man page's weight-sum example is what --weights=auto chooses" {
	local para bw weights sum at32 eff32 w32 eff b mb=()
	para=$(man_text | tr '\n' ' ' | grep -oE 'For [0-9, and]+ GB/s that is [0-9:]+ \(sum [0-9]+\), where at most [0-9]+ reach [0-9.]+% \([0-9:]+\)')
	echo "man: $para"
	[[ $para =~ ^For\ ([0-9, and]+)\ GB/s\ that\ is\ ([0-9:]+)\ \(sum\ ([0-9]+)\),\ where\ at\ most\ ([0-9]+)\ reach\ ([0-9.]+)%\ \(([0-9:]+)\) ]] ||
		return 1
	bw=${BASH_REMATCH[1]//,/} weights=${BASH_REMATCH[2]} sum=${BASH_REMATCH[3]}
	at32=${BASH_REMATCH[4]} eff32=${BASH_REMATCH[5]} w32=${BASH_REMATCH[6]}
	for b in ${bw//and/}; do mb+=("${b}000"); done
	run -0 --separate-stderr "$BWWEIGHTS_DRIVER" choose auto "${mb[@]}"
	[[ $output == "$weights "*" sum $sum "* ]] || return 1
	run -0 --separate-stderr "$BWWEIGHTS_DRIVER" optimal "$at32" "${mb[@]}"
	# The driver prints 3 decimals, the man page 1.
	[ "${output%% *}" = "$w32" ] || return 1
	eff=${output#* }
	[ "$(printf '%.1f' "${eff%\%}")" = "$eff32" ]
}

# The pages' sections, "NAME" or "SEE ALSO", in order.
sections() {
	sed -n 's/^\.SH "\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$1"
}

@test "mandoc -Tlint finds nothing in either man page" {
	command -v mandoc >/dev/null || skip "needs mandoc (tools/install-deps --test)"
	run -0 mandoc -Tlint "$MAN" "$top/man/numactl2-slurm.8"
	[ -z "$output" ]
}

# Each page SEE ALSO names is one Debian 12 installs: numactl2's own, or
# one man(1) finds here, where the packages that hold them are installed.
@test "SEE ALSO names only pages that are installed" {
	local p page ref
	for p in manpages manpages-dev numactl libnuma-dev util-linux slurm-client; do
		dpkg -s "$p" >/dev/null 2>&1 || skip "needs $p (tools/install-deps --test)"
	done
	for page in "$MAN" "$top/man/numactl2-slurm.8"; do
		while read -r ref; do
			[[ $ref == numactl2*"(8)" ]] && continue
			local sec=${ref#*(}
			man -w "${sec%)}" "${ref%(*}" >/dev/null 2>&1 ||
				{ echo "$page: SEE ALSO $ref is not installed"; return 1; }
		done < <(sed -n '/^\.SH "SEE ALSO"/,$p' "$page" | sed -e 's/\\-/-/g' -e 's/^\.BR //' \
			-e 's/ (/(/g' | grep -oE '[a-z0-9_.-]+\([1-8]\)')
	done
}

@test "the page does not point at itself, and its examples are not --help's" {
	local ex line
	run -1 grep -n 'numactl2(8)\|man numactl2' "$MAN"
	ex=$(sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$MAN" | sed 's/\\-/-/g')
	[[ $ex == *"numactl2 "* ]] || return 1
	run -0 "$top/numactl2" --help
	while read -r line; do
		line=${line%%#*}
		line=${line%"${line##*[! ]}"}
		[[ $ex != *"$line"* ]] || { echo "EXAMPLES repeats --help's '$line'"; return 1; }
	done < <(sed -n '/^Examples:$/,$p' <<<"$output" | grep '^  numactl2 ')
}

# The messages that send a user to a section of numactl2(8) name one it has.
@test "the sections messages point to exist: KERNELS, REPORTING BUGS" {
	local s
	for s in KERNELS "REPORTING BUGS" "GLOBAL WEIGHTS" REPORT; do
		sections "$MAN" | grep -qx "$s" || { echo "no section $s"; return 1; }
	done
	run -0 grep -c 'numactl2(8), KERNELS' "$top/msg/reqerror.c" "$top/cli/prepare.c"
	[[ $output != *":0"* ]]
}

@test "REPORTING BUGS says whom to tell and what to give" {
	local bugs
	bugs=$(sed -n '/^\.SH "REPORTING BUGS"/,/^\.SH /p' "$MAN" | sed 's/\\-/-/g')
	[[ $bugs == *"apt show numactl2"* ]] || return 1
	[[ $bugs == *"numactl2 --version"* ]] || return 1
	[[ $bugs == *"numactl2 --hardware"* ]]
}
