#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# install and uninstall honour PREFIX and DESTDIR and install every man page; the release build has no
# test hooks; the man page has the exit codes. (--help against the option
# table and the man page: cli.bats.)

load helpers

top=$BATS_TEST_DIRNAME/..

# The files under $1, one per line, relative to it.
installed() {
	(cd "$1" && find . -type f | sed 's|^\./||' | sort)
}

@test "make install and uninstall with DESTDIR and PREFIX: every man page, the plugin where it builds" {
	local d=$BATS_TEST_TMPDIR/root want
	run -0 make -s -C "$top" install DESTDIR="$d" PREFIX=/opt/n2
	want="etc/numactl2/weights.conf
opt/n2/bin/numactl2
opt/n2/lib/systemd/system/numactl2.service
opt/n2/lib/systemd/system/numactl2.socket
opt/n2/sbin/numactl2d
opt/n2/share/bash-completion/completions/numactl2
opt/n2/share/man/man8/numactl2-slurm.8
opt/n2/share/man/man8/numactl2.8
opt/n2/share/man/man8/numactl2d.8"
	# The plugin builds where Slurm's headers are (libslurm-dev), and goes
	# where Slurm's own plugins are, whatever PREFIX is.
	[ ! -e /usr/include/slurm/spank.h ] || want=$(sort <<<"$want
usr/lib/$(gcc -print-multiarch)/slurm-wlm/numactl2.so")
	run -0 installed "$d"
	[ "$output" = "$want" ] || { echo "want: $want"; return 1; }
	run -0 "$d/opt/n2/bin/numactl2" --version
	run -0 make -s -C "$top" uninstall DESTDIR="$d" PREFIX=/opt/n2
	run -0 installed "$d"
	[ -z "$output" ]
}

# plugstack.conf's "required" line names the plugin by its path: a wrong one
# fails every srun. The README and numactl2-slurm(8) name one, and make
# install puts the plugin there.
@test "make install with DESTDIR puts the plugin where the README and numactl2-slurm(8) say" {
	[ -e /usr/include/slurm/spank.h ] || skip "needs libslurm-dev"
	local d=$BATS_TEST_TMPDIR/root readme man
	readme=$(sed -n 's|^ *required \(/.*/numactl2\.so\)$|\1|p' "$top/README.md")
	man=$(sed -n 's|^ *required \(/.*/numactl2\.so\)$|\1|p' "$top/man/numactl2-slurm.8")
	[ -n "$readme" ] || return 1
	[ "$man" = "$readme" ] || { echo "README: $readme, numactl2-slurm(8): $man"; return 1; }
	run -0 make -s -C "$top" install DESTDIR="$d" PREFIX=/usr
	[ -f "$d$readme" ] || { echo "not installed: $readme"; find "$d" -name '*.so'; return 1; }
}

@test "make install-slurm installs the plugin and its man page" {
	[ -e /usr/include/slurm/spank.h ] || skip "needs libslurm-dev"
	local d=$BATS_TEST_TMPDIR/root
	run -0 make -s -C "$top" install-slurm DESTDIR="$d" PREFIX=/usr SLURM_PLUGINDIR=/usr/lib/slurm-wlm
	run -0 installed "$d"
	[ "$output" = "usr/lib/slurm-wlm/numactl2.so
usr/share/man/man8/numactl2-slurm.8" ]
}

@test "the release build has no test hooks; the test build has them" {
	run -0 make -s -C "$top" numactl2 build/test/numactl2
	# No hook of any name: every test hook reads a NUMACTL2_* variable.
	run -1 grep -a -c NUMACTL2_ "$top/numactl2"
	[ "$output" = 0 ]
	run -0 grep -a -c -e NUMACTL2_SYSFS_WI "$top/build/test/numactl2"
	[ "$output" -ge 1 ]
}

# Run by hand without NUMACTL2_SYSFS_WI (a bench, a helper that forgot it),
# the test build must not fall back to the host's live table: it has none.
@test "the test build without NUMACTL2_SYSFS_WI has no weight table: the live one is never written" {
	run -0 make -s -C "$top" build/test/numactl2
	run -1 --separate-stderr env -u NUMACTL2_SYSFS_WI "$top/build/test/numactl2" --set-global-weights=0:1
	[ "$stderr" = "numactl2: this kernel has no global interleave weights (needs Linux 6.9 or later)" ]
	run -1 --separate-stderr env -u NUMACTL2_SYSFS_WI "$top/build/test/numactl2" -w 0 --weights=0:3 true
	[ "$stderr" = "numactl2: weighted interleave needs Linux 6.9 or later" ]
}

@test "the build leaves nothing untracked but build/ and ./numactl2" {
	local d=$BATS_TEST_TMPDIR/tree
	mkdir "$d"
	# A copy of the tree (what make deb copies), with this tree's build/ so
	# that only what is missing or out of date is built: a product outside
	# build/ is missing in the copy, so it is built there and shows.
	git -C "$top" ls-files -z -co --exclude-standard |
		tar -C "$top" --null -T - -cf - | tar -C "$d" -xf -
	[ ! -d "$top/build" ] || tar -C "$top" --exclude=build/deb -cf - build | tar -C "$d" -xf -
	run -0 git -C "$d" init -q
	run -0 git -C "$d" add -A
	run -0 git -C "$d" -c user.name=t -c user.email=t@invalid commit -q -m tree
	run -0 make -s -C "$d" all test-build
	run -0 git -C "$d" status --porcelain --ignored
	[ "$output" = "!! build/
!! numactl2" ]
}

@test "the man page has the exit codes" {
	grep -q '^\.B 127$' "$top/man/numactl2.8"
	grep -q '^\.B 126$' "$top/man/numactl2.8"
}

@test "the installed man page and --help name no test-only NUMACTL2_ variable" {
	local d=$BATS_TEST_TMPDIR/root
	run -0 make -s -C "$top" install DESTDIR="$d" PREFIX=/usr
	run -1 grep -c NUMACTL2_ "$d/usr/share/man/man8/numactl2.8"
	[ "$output" = 0 ]
	run -0 "$top/numactl2" --help
	[[ $output != *NUMACTL2_* ]]
}

@test "the release binary needs libnuma and libc alone" {
	# Each further shared library costs instructions at every start (bench/overhead).
	run -0 make -s -C "$top" numactl2
	run -0 readelf -d "$top/numactl2"
	[ "$(grep -o 'Shared library: \[[^]]*\]' <<<"$output" | sort | tr '\n' ' ')" = \
	  "Shared library: [libc.so.6] Shared library: [libnuma.so.1] " ]
}

@test "touching a header rebuilds only the objects that include it" {
	run -0 make -s -C "$top" numactl2
	touch "$top/uapi/mempolicy2.h"
	run -0 make -n -C "$top" numactl2
	[[ $output == *"-o build/release/lib/policy/mpol2.o lib/policy/mpol2.c"* ]]
	[[ $output != *"-o build/release/lib/bandwidth/bwmodel.o"* ]]
	run -0 make -s -C "$top" numactl2
}

# Slurm loads the plugin into slurmstepd, srun and sbatch: only the names
# SPANK_PLUGIN() and the callbacks give are exported (slurm/exports.map),
# so that no name of the library meets one of theirs or another plugin's.
plugin_exports() {
	nm -D --defined-only "$1" | awk '{ print $3 }' |
		grep -Ev '^(plugin_(name|type|version)|spank_plugin_version|slurm_spank_[a-z_]+)$'
}

@test "the Slurm plugin exports Slurm's names and nothing of the library" {
	[ -e /usr/include/slurm/spank.h ] || skip "no Slurm headers (libslurm-dev): no plugin"
	make -s -C "$top" build/pic/slurm/numactl2.so
	run -1 plugin_exports "$top/build/pic/slurm/numactl2.so"
	[ -z "$output" ]
	nm -D --defined-only "$top/build/pic/slurm/numactl2.so" | grep -q ' slurm_spank_task_init$'
}

@test "the check of the plugin's exports finds a library name" {
	[ -e /usr/include/slurm/spank.h ] || skip "no Slurm headers (libslurm-dev): no plugin"
	make -s -C "$top" build/pic/libnumactl2.a
	"${CC:-gcc}" -shared -o "$BATS_TEST_TMPDIR/leaky.so" "$top"/build/pic/slurm/*.o \
		"$top"/build/pic/msg/*.o "$top/build/pic/libnumactl2.a" -lnuma
	run -0 plugin_exports "$BATS_TEST_TMPDIR/leaky.so"
	[[ $output == *nc2_request_resolve* ]]
}
