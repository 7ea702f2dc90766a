#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The library (lib/ and parse.c, libnumactl2.a) reports errors to its
# caller and never ends the process or prints on its own: a second front end
# (a Slurm SPANK plugin inside slurmstepd) links it. Read from the release
# objects, built with -ffunction-sections, so that each function's
# relocations are its own section's (.rela.text.FUNCTION):
#   - nothing references exit, err, warn, printf, stdout, stderr and the like;
#   - fprintf, fputs, fputc, putc and fwrite only in functions whose name
#     says they print (they write to a FILE * their caller gives).
# And it keeps nothing of a request or a call in static or global data, so
# that one process (numactl2d, a test) can hold many requests: no writable
# data in its objects (nm's b, B, d, D, RELRO's read-only .data.rel.ro
# aside) but the facts of the process or the kernel below.

load helpers

top=$BATS_TEST_DIRNAME/..

# Ends the process, or prints where the caller did not say.
FORBIDDEN="exit _exit _Exit abort err errx verr verrx warn warnx vwarn vwarnx
	printf vprintf puts putchar perror stdout stderr __printf_chk __vprintf_chk"
# Writes to a FILE *: only in a *print* function.
PRINT_ONLY="fprintf vfprintf fputs fputc putc fwrite __fprintf_chk __vfprintf_chk"
# The exceptions, "function:symbol": supervise.c's forked processes, the
# middle one that makes the watcher and ends at once, and a watcher that
# could not be made ready (numactl2 is told first); watcher.c's two: the
# middle one (detach) and the watcher that puts the table back (watch).
ALLOWED="middle:_exit watcher_quit:_exit detach:_exit watch:_exit"

# The writable data the library may keep, "object:symbol" (a static's
# ".N" suffix dropped), each with why it is no request's.
WRITABLE_ALLOWED=(
	# The running kernel's list of the kernel/ series' calls, read once for
	# the process (mpol2.c's numbers()): the same for every request.
	lib/policy/mpol2.o:nr
	lib/policy/mpol2.o:known
	# The running kernel's machine (uname), where own_abi() asks for it
	# (not on x86): the same for every request.
	lib/policy/mpol2.o:u
	# libnuma's numa_warn() takes no argument of ours: nodes_parse() points
	# it at the call's own buffer, one per thread, and clears it on return.
	lib/policy/nodes.o:said
)

# "object: symbol (section)" for each writable object the objects named
# define but the allowed ones; nothing when there is none.
writable() {
	local o
	for o in "$@"; do
		nm -f sysv "$o" | awk -F'|' -v obj="${o#"$top"/build/release/}" \
			-v allowed="${WRITABLE_ALLOWED[*]}" '
			BEGIN { split(allowed, a, " "); for (i in a) ok[a[i]] = 1 }
			{ for (i = 1; i <= NF; i++) gsub(/^ +| +$/, "", $i) }
			$3 !~ /^[bBdD]$/ || $7 ~ /^\.data\.rel\.ro/ { next }
			{
				sym = $1; sub(/\.[0-9]+$/, "", sym)
				if (!ok[obj ":" sym])
					print obj ": " sym " (" $7 ")"
			}'
	done
}

# "object: function: symbol" for each reference the rules refuse, in the
# objects named; nothing when there is none.
impure() {
	local o
	for o in "$@"; do
		readelf -rW "$o" | awk -v obj="${o#"$top"/}" -v forbidden="$FORBIDDEN" \
			-v print_only="$PRINT_ONLY" -v allowed="$ALLOWED" '
			BEGIN {
				split(forbidden, f); for (i in f) bad[f[i]] = 1
				split(print_only, p); for (i in p) printer[p[i]] = 1
				split(allowed, a); for (i in a) ok[a[i]] = 1
			}
			/^Relocation section / {
				sec = $3; gsub("'\''", "", sec)
				skip = sec ~ /^\.rela?\.(debug|eh_frame)/
				fn = sec; sub(/^\.rela?\.text\./, "", fn)
				next
			}
			skip || NF < 5 || $1 !~ /^[0-9a-f]+$/ { next }
			{
				sym = $5; sub(/@.*/, "", sym)
				if (ok[fn ":" sym])
					next
				if (bad[sym] || (printer[sym] && fn !~ /print/))
					print obj ": " fn ": " sym
			}' | sort -u
	done
}

# The objects of the sources each directory holds now: an object a moved
# or deleted source left in build/ is not the library's.
lib_objects() {
	local d c
	for d in "$@"; do
		for c in "$top/$d"/*.c; do
			c=${c#"$top"/}
			echo "$top/build/release/${c%.c}.o"
		done
	done
}

setup_file() {
	make -s -C "$top" build/release/libnumactl2.a
}

@test "libpurity: the check finds a warnx, and fprintf outside a printer" {
	cat >"$BATS_TEST_TMPDIR/bad.c" <<'EOF'
#include <err.h>
#include <stdio.h>
int lib_step(FILE *f);
void lib_print(FILE *f);
int lib_step(FILE *f) { if (!f) warnx("no file"); else fprintf(f, "%d\n", 1); return 0; }
void lib_print(FILE *f) { fprintf(f, "%s\n", "fine"); }
EOF
	"${CC:-gcc}" -O2 -ffunction-sections -c -o "$BATS_TEST_TMPDIR/bad.o" "$BATS_TEST_TMPDIR/bad.c"
	run -0 impure "$BATS_TEST_TMPDIR/bad.o"
	[[ $output == *": lib_step: warnx"* ]]
	[[ $output == *": lib_step: fprintf"* ]]
	[[ $output != *lib_print* ]]
}

@test "libpurity: parse.c and lib/ neither exit nor print" {
	run -0 impure "$top/build/release/parse.o" $(lib_objects lib/sysfile lib/error lib/policy lib/job lib/owner lib/bandwidth lib/weights lib/request lib/print)
	[ -z "$output" ] || { echo "$output"; false; }
}

@test "libpurity: msg/ (the wording the CLI and the Slurm plugin share) neither exits nor prints" {
	make -s -C "$top" build/release/msg/messages.o build/release/msg/reqerror.o
	run -0 impure $(lib_objects msg)
	[ -n "$(lib_objects msg)" ]
	[ -z "$output" ] || { echo "$output"; false; }
}

@test "libpurity: the check finds static and global data, not a constant table" {
	cat >"$BATS_TEST_TMPDIR/state.c" <<'EOF'
#include <string.h>
static char last[64];
static int seed = 7;
int calls;
static const char *const names[] = { "a", "b" };
const char *keep(const char *s, unsigned i);
const char *keep(const char *s, unsigned i)
{
	static unsigned kept;

	calls += seed++;
	kept++;
	strncpy(last, s, sizeof(last) - 1);
	return i < 2 ? names[i] : kept > 1 ? last : s;
}
EOF
	"${CC:-gcc}" -O2 -fPIE -c -o "$BATS_TEST_TMPDIR/state.o" "$BATS_TEST_TMPDIR/state.c"
	run -0 writable "$BATS_TEST_TMPDIR/state.o"
	[[ $output == *": last (.bss)"* ]] || { echo "$output"; false; }
	[[ $output == *": seed (.data)"* ]] || { echo "$output"; false; }
	[[ $output == *": calls (.bss)"* ]] || { echo "$output"; false; }
	[[ $output == *": kept (.bss)"* ]] || { echo "$output"; false; }
	[[ $output != *names* ]] || { echo "$output"; false; }
}

@test "libpurity: parse.c and lib/ keep no writable data but the facts allowed" {
	run -0 writable "$top/build/release/parse.o" $(lib_objects lib/sysfile lib/error lib/policy lib/job lib/owner lib/bandwidth lib/weights lib/request lib/print)
	[ -z "$output" ] || { echo "$output"; false; }
}

@test "libpurity: every directory of lib/ is checked" {
	run -0 find "$top/lib" -mindepth 1 -maxdepth 1 -type d -printf '%f\n'
	[ "$(sort <<<"$output" | tr '\n' ' ')" = "bandwidth error job owner policy print request sysfile weights " ]
}
