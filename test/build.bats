#!/usr/bin/env bats
# install and uninstall honour PREFIX and DESTDIR; the man page documents
# every option --help lists.

load helpers

top=$BATS_TEST_DIRNAME/..

@test "make install and uninstall with DESTDIR and PREFIX" {
	local d=$BATS_TEST_TMPDIR/root
	run -0 make -s -C "$top" install DESTDIR="$d" PREFIX=/usr
	[ -x "$d/usr/bin/numactl2" ]
	[ -f "$d/usr/share/man/man8/numactl2.8" ]
	run -0 "$d/usr/bin/numactl2" --version
	run -0 make -s -C "$top" uninstall DESTDIR="$d" PREFIX=/usr
	[ ! -e "$d/usr/bin/numactl2" ]
	[ ! -e "$d/usr/share/man/man8/numactl2.8" ]
}

@test "the man page has every long option of --help" {
	local opt missing=
	for opt in $("$NUMACTL2" --help | grep -o -- '--[a-z-]*[a-z]' | sort -u); do
		grep -q -- "${opt//-/\\\\-}" "$top/man/numactl2.8" || missing="$missing $opt"
	done
	[ -z "$missing" ] || { echo "missing:$missing"; false; }
}

@test "the man page has the exit codes" {
	grep -q '^\.B 127$' "$top/man/numactl2.8"
	grep -q '^\.B 126$' "$top/man/numactl2.8"
}
