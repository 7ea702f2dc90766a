#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build (or reuse) the minimal guest kernel for the NUMA VM tests.
#
#   test/vm/kernel.sh VERSION        VERSION is 6.12, 6.1, 7.2, 7.2-mpol2 or
#                                    7.2-mpol2-debug
#
# The source is Debian's linux-source-VERSION package: 6.12 and 6.1 through
# the system's apt sources, 7.2 (and 7.2-mpol2) from Debian unstable (sid) through an apt
# configuration private to the cache ($cache/apt-sid: its own sources list,
# package lists and archives; /etc/apt and /var/lib/apt are never touched).
# The kernel is tinyconfig + test/vm/kernel.config (+ test/vm/patches/linux-VERSION/*.patch,
# if any); 7.2-mpol2-debug adds test/vm/kernel-debug.config (KASAN, lockdep).  7.2-mpol2 is linux-source-7.2 with the project's kernel series
# (kernel/series, in its order: set_mempolicy2 and friends) on top, and both
# series builds add test/vm/kernel-mpol2.config (32-bit programs).
# The bzImage is cached outside the repository at
#   ${NUMACTL2_CACHE:-$HOME/.cache/numactl2}/kernel-<pkgversion>[-mpol2]-<key>/bzImage
# where <key> is a hash of the config fragment and the patches.  When the
# patched tree has the series' kselftest (tools/testing/selftests/mm/
# mempolicy2.c), it is built statically against the tree's own headers and
# kept next to the bzImage as mempolicy2_test (the guest suite runs it), and
# built with -m32 as mempolicy2_test32 (the same tests as a 32-bit task).
# The path of the bzImage is the only thing printed on stdout; progress goes
# to stderr.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${NUMACTL2_CACHE:-$HOME/.cache/numactl2}
jobs=${NUMACTL2_JOBS:-$(nproc)}

log() { printf 'kernel.sh: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# An apt configuration of our own for one Debian suite, from the mirror the
# system uses: sources list, package lists, caches and archives all live in
# $cache/apt-SUITE.  The system's dpkg status is only read.
private_apt() {
	local suite=$1 dir=$cache/apt-$1 mirror
	mirror=$(system_mirror)
	apt_dir=$dir
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
	printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s %s main\n' \
		"$mirror" "$suite" >"$dir/sources.list"
	apt_opts=(-o "Dir::Etc::sourcelist=$dir/sources.list" -o Dir::Etc::sourceparts=-
		-o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache"
		-o "Dir::Cache::archives=$dir/cache/archives" -o APT::Sandbox::User=root)
}

# The first Debian archive URI of the system's sources (deb822 or one-line).
system_mirror() {
	local m
	m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources \
		/etc/apt/sources.list.d/*.list 2>/dev/null | grep -v '^[[:space:]]*#' |
		grep -Eo 'https?://[^ ]*/debian/?( |$)' | grep -v security | head -n1 | tr -d ' ')
	printf '%s\n' "${m:-http://deb.debian.org/debian}"
}

[ $# -eq 1 ] || die "usage: kernel.sh VERSION (6.12, 6.1, 7.2, 7.2-mpol2 or 7.2-mpol2-debug)"
version=$1
# apt_opts: extra apt options; empty means the system's own configuration.
# base: the Debian source version; series: the project's patches on top.
# debug: a second config fragment, for 7.2-mpol2-debug; mpol2: the series'
# own fragment.
apt_opts=() apt_dir= base=$version series= debug= mpol2=
case $version in
6.12|6.1) ;;
7.2) private_apt sid ;;
7.2-mpol2)
	private_apt sid
	base=7.2 series=$(cd "$here/../.." && pwd)/kernel/series mpol2=$here/kernel-mpol2.config
	;;
7.2-mpol2-debug)
	private_apt sid
	base=7.2 series=$(cd "$here/../.." && pwd)/kernel/series debug=$here/kernel-debug.config
	mpol2=$here/kernel-mpol2.config
	;;
*) die "unsupported kernel version '$version' (6.12, 6.1, 7.2, 7.2-mpol2 or 7.2-mpol2-debug)" ;;
esac
pkg=linux-source-$base
fragment=$here/kernel.config
patchdir=$here/patches/linux-$base
[ -r "$fragment" ] || die "missing $fragment"
[ -z "$debug" ] || [ -r "$debug" ] || die "missing $debug"
[ -z "$mpol2" ] || [ -r "$mpol2" ] || die "missing $mpol2"
[ -z "$series" ] || [ -r "$series" ] || die "missing $series"

# The patches in the order they apply: test/vm/patches/linux-BASE/*.patch,
# then the series' patches (names relative to kernel/; # starts a comment).
patch_list() {
	[ ! -d "$patchdir" ] || find "$patchdir" -name '*.patch' -type f | LC_ALL=C sort
	[ -z "$series" ] || sed -e 's/#.*//' -e '/^[[:space:]]*$/d' \
		-e "s|^[[:space:]]*|$(dirname "$series")/|" -e 's/[[:space:]]*$//' "$series"
}

# Build dependencies: installed only when missing (CI runs as root).
need_pkgs() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" -eq 0 ] || die "missing packages (need root to install): ${missing[*]}"
	log "installing ${missing[*]}"
	apt-get install -y --no-install-recommends "${missing[@]}" >&2 ||
		{ apt-get update >&2 && apt-get install -y --no-install-recommends "${missing[@]}" >&2; }
}

# Empty when apt knows no such package (apt-cache then exits 100, which must
# not end the script under pipefail: the lists may just need an update).
candidate_version() {
	{ apt-cache "${apt_opts[@]}" show --no-all-versions "$pkg" 2>/dev/null || true; } |
		sed -n 's/^Version: //p' | head -n1
}

pkgver=$(candidate_version)
apt_update() {
	if [ ${#apt_opts[@]} -gt 0 ]; then
		log "updating the private package lists in $apt_dir"
		apt-get "${apt_opts[@]}" -q update >&2
	elif [ "$(id -u)" -eq 0 ]; then
		log "apt knows no $pkg; running apt-get update"
		apt-get update >&2
	fi
}
if [ -z "$pkgver" ]; then
	apt_update
	pkgver=$(candidate_version)
fi
[ -n "$pkgver" ] || die "apt has no package $pkg"

patches=$(patch_list)
for p in $patches; do [ -r "$p" ] || die "missing patch $p"; done
key=$( {
	cat "$fragment" ${mpol2:+"$mpol2"} ${debug:+"$debug"}
	for p in $patches; do
		printf '== %s\n' "$(basename "$p")"
		cat "$p"
	done
} | sha256sum | cut -c1-16)
out=$cache/kernel-$pkgver${series:+-mpol2}${debug:+-debug}-$key
image=$out/bzImage

if [ -s "$image" ]; then
	log "cached: $image"
	printf '%s\n' "$image"
	exit 0
fi

mkdir -p "$cache"
exec 9>"$cache/.lock-$version"
flock -n 9 || { log "another build of $version is running; waiting for it"; flock 9; }
if [ -s "$image" ]; then	# built by someone else while we waited
	log "cached: $image"
	printf '%s\n' "$image"
	exit 0
fi

need_pkgs build-essential bc bison flex libelf-dev libssl-dev xz-utils cpio
# the kselftest's static 32-bit build
[ -z "$series" ] || need_pkgs libc6-dev-i386 "lib32gcc-$(gcc -dumpversion | cut -d. -f1)-dev"

start=$SECONDS
work=$cache/build-$version
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

log "downloading $pkg=$pkgver"
(cd "$work" && apt-get "${apt_opts[@]}" download "$pkg=$pkgver" >&2) ||
	die "apt-get download $pkg=$pkgver failed${apt_dir:+ (stale lists? rm -r $apt_dir/lists)}"
deb=$(ls "$work"/linux-source-*.deb)
dpkg-deb -x "$deb" "$work/deb"
tarball=$(ls "$work"/deb/usr/src/linux-source-*.tar.xz)
log "unpacking $(basename "$tarball")"
tar -C "$work" -xf "$tarball"
rm -rf "$work/deb" "$deb"
src=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'linux-source-*')
[ -d "$src" ] || die "no source tree in $tarball"

for p in $patches; do
	log "applying $(basename "$p")"
	patch -d "$src" -p1 --forward --batch <"$p" >&2 || die "patch $p failed"
done

# The series' kselftest, where the patched tree has one: static (the guest
# has no libc of its own), against this tree's exported headers (usr/include,
# make headers), which have the series' struct mpol_args and flags.
build_kselftest() {
	local test=tools/testing/selftests/mm/mempolicy2.c
	[ -r "$test" ] || return 0
	log "building the kselftest $test"
	make headers >>"$work/build.log" 2>&1 || { tail -n 40 "$work/build.log" >&2; die "make headers failed"; }
	gcc -static -O2 -Wall -I tools/testing/selftests -isystem usr/include \
		"$test" -o "$1/mempolicy2_test" -lpthread >&2 || die "cannot compile $test"
	gcc -m32 -static -O2 -Wall -I tools/testing/selftests -isystem usr/include \
		"$test" -o "$1/mempolicy2_test32" -lpthread >&2 || die "cannot compile $test with -m32"
}

cd "$src"
log "configuring (tinyconfig + kernel.config${mpol2:+ + kernel-mpol2.config}${debug:+ + kernel-debug.config})"
make tinyconfig >&2
scripts/kconfig/merge_config.sh -m .config "$fragment" ${mpol2:+"$mpol2"} ${debug:+"$debug"} >&2
make olddefconfig >&2

# Every option the fragment asks for must have survived olddefconfig.
bad=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		grep -qxF "$line" .config || { log "config: wanted $line, got: $(grep "^${line%%=*}=" .config || echo unset)"; bad=1; }
		;;
	esac
done < <(cat "$fragment" ${mpol2:+"$mpol2"} ${debug:+"$debug"})
[ $bad -eq 0 ] || die "the config fragment did not apply cleanly"

log "building bzImage with -j$jobs (several minutes)"
make -j"$jobs" bzImage >"$work/build.log" 2>&1 || { tail -n 40 "$work/build.log" >&2; die "kernel build failed"; }

tmp=$out.tmp.$$
rm -rf "$tmp"
mkdir -p "$tmp"
build_kselftest "$tmp"
cp arch/x86/boot/bzImage "$tmp/bzImage"
cp .config "$tmp/config"
make -s kernelrelease >"$tmp/release" 2>/dev/null || true
rm -rf "$out"
mv "$tmp" "$out"
log "built $image in $((SECONDS - start)) s"
printf '%s\n' "$image"
