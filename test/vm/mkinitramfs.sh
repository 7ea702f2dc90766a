#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the test guest's initramfs.
#
#   test/vm/mkinitramfs.sh OUT.cpio.gz [NUMACTL2]
#
# NUMACTL2 (argument or environment; default ./numactl2 at the repository
# root) is the binary under test.  The image holds busybox, bash, bats, GNU
# grep/sed, Debian's numactl (a reference for the classic policies), the test
# helpers compiled from test/vm/*.c, test/vm/guest/ and, as /vmtest/lib, the
# helpers the host suites share (test/lib).  NUMACTL2_KSELFTEST, when set,
# is the kernel series' kselftest (kernel.sh builds it, static, next to the
# 7.2-mpol2 bzImage): /vmtest/bin/mempolicy2_test, which guest/kselftest.bats
# runs, and NUMACTL2_KSELFTEST32 its -m32 build, /vmtest/bin/mempolicy2_test32.  NUMACTL2_VM_SLURM=1 adds a Slurm cluster for guest/slurm.bats
# (about 14 MB): munge, Slurm's daemons, clients and plugins, and, in
# /vmtest/slurm, the project's plugin (NUMACTL2_SLURM_PLUGIN, default
# build/pic/slurm/numactl2.so) and test/slurm/cluster.  Dynamically linked programs take
# every library ldd lists, at the same path.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
CC=${CC:-gcc}

log() { printf 'mkinitramfs: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: mkinitramfs.sh OUT.cpio.gz [NUMACTL2]"
out=$1
numactl2=${2:-${NUMACTL2:-$top/numactl2}}
[ -x "$numactl2" ] || die "no numactl2 binary at '$numactl2' (run make first)"
[ -x /bin/busybox ] || die "/bin/busybox missing (apt-get install busybox-static)"
if ldd /bin/busybox >/dev/null 2>&1; then
	die "/bin/busybox is not static (apt-get install busybox-static)"
fi
[ -x /usr/bin/bats ] || die "bats missing (apt-get install bats)"
command -v cpio >/dev/null || die "cpio missing (apt-get install cpio)"

root=$(mktemp -d "${TMPDIR:-/tmp}/numactl2-initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT

mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,run,root,etc,mnt/tmpfs,vmtest/bin}
chmod 1777 "$root/tmp"

# Copy a file to the same path in the image, following symlinks.
put() {
	local src=$1 dst=${2:-$1}
	mkdir -p "$root$(dirname "$dst")"
	cp -L "$src" "$root$dst"
}

# A program plus the shared libraries it needs, at the paths ldd shows.
put_prog() {
	local src=$1 dst=${2:-$1} lib
	put "$src" "$dst"
	# ldd fails on static programs and scripts: they need no libraries.
	{ ldd "$src" 2>/dev/null || true; } | awk '/=> \// { print $3 } /^[[:space:]]*\// { print $1 }' |
		while read -r lib; do
			[ -e "$root$lib" ] || put "$lib"
		done
}

put /bin/busybox
put_prog /bin/bash
ln -s /bin/busybox "$root/usr/bin/env"
# bats runs on whatever it finds in PATH; GNU grep and sed behave as on the host.
put_prog "$(command -v grep)" /usr/bin/grep
put_prog "$(command -v sed)" /usr/bin/sed
# jq: the --report=json tests parse with it.
command -v jq >/dev/null || die "jq missing (apt-get install jq)"
put_prog "$(command -v jq)" /usr/bin/jq
# strace: a job that traces its children, under --report (report.bats).
command -v strace >/dev/null || die "strace missing (apt-get install strace)"
put_prog "$(command -v strace)" /usr/bin/strace
# flock: a user's lock on the table's files, which must hold nobody (leases.bats).
put_prog "$(command -v flock)" /usr/bin/flock
# Debian's numactl: the reference the classic-policy tests compare with.
[ -x /usr/bin/numactl ] || die "numactl missing (apt-get install numactl)"
put_prog /usr/bin/numactl /usr/bin/numactl

# bats as Debian packages it.
put /usr/bin/bats
mkdir -p "$root/usr/lib" "$root/usr/libexec"
cp -a /usr/lib/bats-core "$root/usr/lib/"
cp -a /usr/libexec/bats-core "$root/usr/libexec/"

# The program under test and the helpers. The test build (make
# build/test/numactl2), where there is one, goes in as /vmtest/testbuild/numactl2 for the
# few guest tests that need its hooks (a fake weight table on 6.1).
put_prog "$numactl2" /vmtest/bin/numactl2
# numactl2d, the table's owner, of the same build (guest/service.bats).
numactl2d=${NUMACTL2D:-$top/build/release/numactl2d}
[ -x "$numactl2d" ] || die "no numactl2d at '$numactl2d' (run make)"
put_prog "$numactl2d" /vmtest/bin/numactl2d
testbuild=${NUMACTL2_TEST:-$top/build/test/numactl2}
[ ! -x "$testbuild" ] || put_prog "$testbuild" /vmtest/testbuild/numactl2
kselftest=${NUMACTL2_KSELFTEST:-}
if [ -n "$kselftest" ]; then
	[ -x "$kselftest" ] || die "no kselftest binary at '$kselftest'"
	put_prog "$kselftest" /vmtest/bin/mempolicy2_test
fi
kselftest32=${NUMACTL2_KSELFTEST32:-}
if [ -n "$kselftest32" ]; then
	[ -x "$kselftest32" ] || die "no kselftest binary at '$kselftest32'"
	put_prog "$kselftest32" /vmtest/bin/mempolicy2_test32
fi
for c in "$here"/*.c; do
	name=$(basename "$c" .c)
	$CC -std=c17 -O2 -Wall -Wextra -Werror -static -pthread \
		-o "$root/vmtest/bin/$name" "$c" || die "cannot compile $c"
done

# Slurm's own plugins are loaded by name from its plugin directory: all of
# them go in, with their libraries, so that any slurm.conf works.
put_slurm() {
	local plugin=${NUMACTL2_SLURM_PLUGIN:-$top/build/pic/slurm/numactl2.so} p dir
	[ -x "$plugin" ] || die "no Slurm plugin at '$plugin' (install libslurm-dev, run make)"
	for p in munged mungekey slurmctld slurmd slurmstepd srun sbatch sinfo squeue scontrol scancel; do
		command -v "$p" >/dev/null || die "$p missing (tools/install-deps installs Slurm and munge)"
		put_prog "$(command -v "$p")"
	done
	dir=/usr/lib/$(gcc -dumpmachine)/slurm-wlm
	[ -d "$dir" ] || die "no Slurm plugin directory $dir"
	for p in "$dir"/*.so; do put_prog "$p"; done
	put_prog "$plugin" /vmtest/slurm/numactl2.so
	install -m 0755 "$top/test/slurm/cluster" "$root/vmtest/slurm/cluster"
}
[ "${NUMACTL2_VM_SLURM:-0}" != 1 ] || put_slurm

cp "$here"/guest/* "$root/vmtest/"
mkdir -p "$root/vmtest/lib"
cp "$top"/test/lib/*.bash "$root/vmtest/lib/"
cp "$here/demo.sh" "$here/demo-sockets.sh" "$root/vmtest/"
cp "$here/lib/demo.bash" "$root/vmtest/lib/"
install -m 0755 "$here/init" "$root/init"
# nobody: the unprivileged user of the lease and Slurm tests (asnobody).
printf 'root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n' >"$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
# Names from these files only (Slurm resolves localhost; no DNS here).
printf '127.0.0.1\tlocalhost\n' >"$root/etc/hosts"
printf 'passwd: files\ngroup: files\nshadow: files\nhosts: files\n' >"$root/etc/nsswitch.conf"

mkdir -p "$(dirname "$out")"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) | gzip -6 >"$out.tmp"
mv "$out.tmp" "$out"
log "wrote $out ($(du -k "$out" | cut -f1) KiB)"
