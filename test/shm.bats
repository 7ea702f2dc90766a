#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --shm and --file with numactl's semantics: numactl2 and Debian's numactl
# are given the same arguments on two separate regions, and what they print
# is compared. Every file and segment made here is removed in teardown.

load helpers

setup() {
	command -v numactl >/dev/null || skip "needs Debian's numactl to compare with"
	[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] || skip "needs /dev/shm on tmpfs"
	F1=/dev/shm/numactl2-test-$$-$BATS_TEST_NUMBER-a
	F2=/dev/shm/numactl2-test-$$-$BATS_TEST_NUMBER-b
	K1=$BATS_TEST_TMPDIR/key-a
	K2=$BATS_TEST_TMPDIR/key-b
	want=$BATS_TEST_TMPDIR/want
	got=$BATS_TEST_TMPDIR/got
	err=$BATS_TEST_TMPDIR/err
}

teardown() {
	local k id
	for k in "$K1" "$K2"; do
		[ -e "$k" ] || continue
		for id in 0 3; do
			ipcrm -M "$(shm_key "$k" "$id")" 2>/dev/null || true
		done
	done
	rm -f "$F1" "$F2"
}

# The System V key ftok(3) makes from a key file and a project id.
shm_key() {
	local dev ino
	read -r dev ino < <(stat -c '%d %i' "$1")
	printf '0x%08x\n' $(((($2 & 0xff) << 24) | ((dev & 0xff) << 16) | (ino & 0xffff)))
}

# The `ipcs -m` line of the segment with key $1, if there is one.
segment() {
	ipcs -m | awk -v k="$1" '$1 == k'
}

# The same region arguments to both tools, each on its own file, then
# byte-for-byte comparison of what they print.
file_matches() {
	numactl --length 1m --file "$F2" "$@" --touch --dump --dump-nodes >"$want"
	"$NUMACTL2" --length 1m --file "$F1" "$@" --touch --dump --dump-nodes >"$got" 2>"$err"
	diff -u "$want" "$got"
	[ ! -s "$err" ]
	[ "$(wc -l <"$got")" -eq 2 ]
	[ "$(stat -c '%a %s' "$F1")" = "$(stat -c '%a %s' "$F2")" ]
}

# The policy stays on the tmpfs file: numactl, attaching later, reads back
# what numactl2 set, and prints the first line numactl2 printed.
numactl_reads_back() {
	numactl --length 1m --file "$F1" --dump >"$want"
	diff -u "$want" <(head -n 1 "$got")
}

@test "--file -i 0: --dump and --dump-nodes after --touch are numactl's" {
	file_matches -i 0
	numactl_reads_back
}

@test "--file -m 0: --dump and --dump-nodes after --touch are numactl's" {
	file_matches -m 0
	numactl_reads_back
}

@test "--file -l: --dump and --dump-nodes after --touch are numactl's" {
	file_matches -l
	numactl_reads_back
}

# numactl 2.0.16 cannot set -p on a region: it calls mbind() with
# MPOL_PREFERRED_MANY and an empty mask, which is EINVAL. Where it fails the
# expectation is its -m 0 output with the mode's name changed.
@test "--file -p 0: --dump and --dump-nodes after --touch are numactl's" {
	if numactl --length 1m --file "$F2" -p 0 --touch --dump --dump-nodes >"$want" 2>/dev/null; then
		file_matches -p 0
	else
		rm -f "$F2"
		numactl --length 1m --file "$F2" -m 0 --touch --dump --dump-nodes |
			sed 's/: bind : /: preferred : /' >"$want"
		"$NUMACTL2" --length 1m --file "$F1" -p 0 --touch --dump --dump-nodes >"$got" 2>"$err"
		diff -u "$want" "$got"
		[ ! -s "$err" ]
	fi
	numactl_reads_back
}

@test "--file with -M and --offset: the file and the dump are numactl's" {
	numactl --length 2m --offset 1m -M 0640 --file "$F2" -i 0 --touch --dump --dump-nodes >"$want"
	"$NUMACTL2" --length 2m --offset 1m -M 0640 --file "$F1" -i 0 --touch --dump --dump-nodes >"$got" 2>"$err"
	diff -u "$want" "$got"
	[ ! -s "$err" ]
	[ "$(stat -c '%a %s' "$F1")" = "$(stat -c '%a %s' "$F2")" ]
}

@test "--shm with -I and -M creates the segment, says so as numactl does, and dumps numactl's policy" {
	local key
	numactl --length 1m -I 3 -M 0640 --shm "$K2" -i 0 --touch --dump --dump-nodes >"$want" 2>"$err"
	sed "s/^numactl: Creating /numactl2: creating /; s|$K2|$K1|" "$err" >"$BATS_TEST_TMPDIR/want-err"
	"$NUMACTL2" --length 1m -I 3 -M 0640 --shm "$K1" -i 0 --touch --dump --dump-nodes >"$got" 2>"$err"
	diff -u "$want" "$got"
	diff -u "$BATS_TEST_TMPDIR/want-err" "$err"
	grep -q "^numactl2: creating shared memory segment $K1 id 3 mode 0640 length 1MB$" "$err"
	key=$(shm_key "$K1" 3)
	run -0 segment "$key"
	[ "${#lines[@]}" -eq 1 ]
	read -r _ _ _ perms bytes _ <<<"$output"
	[ "$perms" = 640 ]
	[ "$bytes" = $((1 << 20)) ]
	[ "$(stat -c %a "$K1")" = "$(stat -c %a "$K2")" ]
	# The policy lives on the segment: a second attach reads it back.
	numactl -I 3 --shm "$K2" --dump >"$want"
	"$NUMACTL2" -I 3 --shm "$K1" --dump >"$got" 2>"$err"
	diff -u "$want" "$got"
	[ ! -s "$err" ]
	[ -s "$got" ]
	ipcrm -M "$key"
	run -0 segment "$key"
	[ -z "$output" ]
}

@test "--shm on an existing key file: only the segment is created" {
	: >"$K1"
	: >"$K2"
	numactl --length 1m --shm "$K2" -m 0 --dump >"$want"
	"$NUMACTL2" --length 1m --shm "$K1" -m 0 --dump >"$got" 2>"$err"
	diff -u "$want" "$got"
	[ "$(cat "$err")" = "numactl2: creating shared memory segment $K1 id 0 mode 0600 length 1MB" ]
	run -0 segment "$(shm_key "$K1" 0)"
	[ "${#lines[@]}" -eq 1 ]
}

@test "--shm with --offset: the segment covers offset + length, as numactl's" {
	local mine theirs
	numactl --length 2m --offset 1m --shm "$K2" -i 0 --touch --dump --dump-nodes >"$want" 2>"$err"
	sed "s/^numactl: Creating /numactl2: creating /; s|$K2|$K1|" "$err" >"$BATS_TEST_TMPDIR/want-err"
	"$NUMACTL2" --length 2m --offset 1m --shm "$K1" -i 0 --touch --dump --dump-nodes >"$got" 2>"$err"
	diff -u "$want" "$got"
	diff -u "$BATS_TEST_TMPDIR/want-err" "$err"
	mine=$(segment "$(shm_key "$K1" 0)" | awk '{ print $4, $5 }')
	theirs=$(segment "$(shm_key "$K2" 0)" | awk '{ print $4, $5 }')
	[ -n "$mine" ]
	[ "$mine" = "$theirs" ]
}

# As numactl, the key file is made before the missing length is noticed.
@test "--shm without --length on a new key makes the key file as numactl does, and no segment" {
	run -1 --separate-stderr numactl --shm "$K2" -i 0
	[ -e "$K2" ]
	run -1 --separate-stderr "$NUMACTL2" --shm "$K1" -i 0
	[ -z "$output" ]
	[ "${stderr_lines[0]}" = "numactl2: creating shm key file $K1 mode 0600" ]
	[ "${stderr_lines[1]}" = "numactl2: need a --length to create a sysv shared memory segment" ]
	[ -e "$K1" ]
	run -0 segment "$(shm_key "$K1" 0)"
	[ -z "$output" ]
}

@test "-w 0 --weights=0:3 on a --file region: weighted interleave there, and the global weight change is reported" {
	[ -d "$WI_DIR" ] || skip "needs Linux 6.9+ for weighted interleave"
	local old auto=false f suffix=
	old=$(cat "$WI_DIR/node0")
	for f in "$WI_DIR/auto" "$WI_DIR/__auto_type"; do
		[ -f "$f" ] && auto=$(cat "$f")
	done
	[ "$auto" != true ] || suffix="; kernel auto weights switched off"
	numactl --length 1m --file "$F2" -i 0 --touch --dump --dump-nodes |
		sed 's/: interleave : /: weighted-interleave : /' >"$want"
	"$NUMACTL2" --length 1m --file "$F1" -w 0 --weights=0:3 --touch --dump --dump-nodes >"$got" 2>"$err"
	diff -u "$want" "$got"
	[ "$(cat "$err")" = "numactl2: changed global interleave weights: node0 $((old ? old : 1))->3$suffix" ]
	[ "$(cat "$WI_DIR/node0")" = 3 ]
	# numactl itself finds mode 6 on the file (2.0.16 has no name for it).
	run -0 numactl --length 1m --file "$F1" --dump
	[ "$output" = "0000000000000000-0000000000100000: [6] : 0 " ] ||
		[ "$output" = "$(head -n 1 "$got")" ]
}

# rejected MESSAGE ARGS...: numactl2 refuses ARGS with "numactl2: MESSAGE"
# (test/lib/refused.bash), and neither the file nor the key file made:
# without the key file, ftok() has no key, so no segment can exist either.
rejected() {
	refused --absent "$F1" --absent "$K1" "numactl2: $1" "$NUMACTL2" "${@:2}"
}

@test "--length after --shm or --file is an error" {
	rejected "--length must come before --shm/--file" --shm "$K1" --length 1m -i 0
	rejected "--length must come before --shm/--file" --file "$F1" --length 1m -i 0
	rejected "--shmid must come before --shm/--file" --length 1m --shm "$K1" -I 3 -i 0
}

@test "a policy before --shm or --file is an error" {
	rejected "--shm must come before the policy (--interleave)" --length 1m -i 0 --shm "$K1"
	rejected "--file must come before the policy (--membind)" --length 1m -m 0 --file "$F1"
}

@test "--touch without --shm or --file is an error" {
	rejected "--touch must come after --shm/--file" --length 1m -i 0 --touch
	rejected "--touch must come after --shm/--file" --touch
}

@test "--file on a new file without --length is an error" {
	rejected "need a --length to create a shared file" --file "$F1" -i 0
}

@test "-C with --shm is an error, before or after it" {
	rejected "cannot bind CPUs together with --shm" -C 0 --length 1m --shm "$K1" -i 0
	rejected "cannot bind CPUs together with --shm/--file" --length 1m --shm "$K1" -C 0 -i 0
}

@test "a bad length is an error" {
	rejected "invalid length: '1x'" --length 1x --file "$F1" -i 0
	rejected "invalid length: '1x'" --length 1x --shm "$K1" -i 0
}

@test "--strict without --shm or --file is an error" {
	rejected "--strict must come with --shm/--file" --strict -i 0 true
}

@test "--huge, --dump and --dump-nodes in the wrong place are errors" {
	rejected "--huge must come before --shm/--file" --length 1m --file "$F1" --huge -i 0
	rejected "--huge must come before --shm/--file" --length 1m --shm "$K1" --huge -i 0
	rejected "--dump must come after --shm/--file" --dump -i 0 true
	rejected "--dump-nodes must come after --shm/--file" --length 1m --dump-nodes --file "$F1" -i 0
}

@test "a region policy that fails after the weights were written puts them back" {
	command -v strace >/dev/null || skip "needs strace to make mbind fail"
	[ -d "$WI_DIR" ] || skip "needs Linux 6.9+ for weighted interleave"
	local old
	old=$(wi_snapshot)
	run -1 --separate-stderr strace -f -o /dev/null -e trace=mbind -e inject=mbind:error=EIO \
		"$NUMACTL2" --length 1m --file "$F1" -w 0 --weights=0:3 --touch --dump
	[ -z "$output" ]
	[[ ${stderr_lines[0]} == "numactl2: changed global interleave weights: node0 "*"->3"* ]]
	[ "${stderr_lines[1]}" = "numactl2: put the global interleave weights back" ]
	[ "${stderr_lines[2]}" = "numactl2: cannot set weighted-interleave policy: Input/output error" ]
	[ "${#stderr_lines[@]}" -eq 3 ]
	[ "$(wi_snapshot | grep ^node)" = "$(grep ^node <<<"$old")" ]
}


@test "--verify (-V) after the policy: numactl's check of each page, silent when all hold" {
	numactl --length 1m --file "$F2" -i 0 --verify >"$want"
	"$NUMACTL2" --length 1m --file "$F1" -i 0 --verify >"$got" 2>"$err"
	diff -u "$want" "$got"
	[ ! -s "$err" ]
	run -0 --separate-stderr "$NUMACTL2" --length 1m --file "$F1" -m 0 -V --dump-nodes
	[ "$output" = "0000000000000000-0000000000100000: 0" ]
	[ -z "$stderr" ]
}

@test "--verify: a page whose policy is not the one set is reported, exit 1 as numactl" {
	# mbind made a no-op: the new file keeps the default policy.
	run -1 --separate-stderr strace -f -o /dev/null -e trace=mbind -e inject=mbind:retval=0 \
		numactl --length 1m --file "$F2" -m 0 --verify
	[[ $output == "numactl verify "*": wrong policy default, expected bind" ]]
	run -1 --separate-stderr strace -f -o /dev/null -e trace=mbind -e inject=mbind:retval=0 \
		"$NUMACTL2" --length 1m --file "$F1" -m 0 --verify
	[ "$output" = "numactl2 verify 0: wrong policy default, expected bind" ]
	[ -z "$stderr" ]
}

@test "--verify in the wrong place is an error" {
	rejected "--verify must come after --shm/--file" -i 0 --verify true
	rejected "--verify needs a policy before it" --length 1m --file "$F1" --verify -i 0
	rejected "--verify needs a policy with nodes (not --localalloc)" --length 1m --file "$F1" -l --verify
}
