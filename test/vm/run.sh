#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Boot the 4-node test guest under QEMU (TCG) and run the guest suite (or the demo).
#
#   test/vm/run.sh -k BZIMAGE -i INITRD [-s SUITE] [-m test|demo] [-w WEIGHTS]
#                  [-b BANDWIDTHS] [-T four|sockets] [-t TIMEOUT] [-o OUTDIR] [-v]
#
# Guest (-T four, the default): node 0 = 2 CPUs + 1 GiB; nodes 1-3 memory
# only, 512 MiB each.  HMAT (access from node 0): 200/100/50/25 GB/s,
# 100/200/250/300 ns; -b gives the four bandwidths instead, as QEMU takes
# them (200G,100G,50G,25G).
# -T sockets: two sockets, nodes 0 and 1 with one CPU and 768 MiB each,
# CPU-less nodes 2 (behind socket 0) and 3 (behind socket 1) with 512 MiB.
# HMAT from either socket: local DRAM 200G, remote DRAM 80G, local CXL 60G,
# remote CXL 20G, at 100/200/250/350 ns, and a SLIT to match (10/20/25/35).
# The guest's TAP (or demo output) is printed on stdout; timings and the
# verdict on stderr.  OUTDIR (default: a temporary directory) keeps
# console-N.log and out-N.txt per attempt, and "status" = PASS, FAIL, CRASH
# or TIMEOUT.  A guest crash (Oops, panic, BUG:) is retried once.
# Exit: 0 the guest ran and its suite passed; 1 otherwise.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
kernel= initrd= suite= mode=test weights= bandwidths=200G,100G,50G,25G timeout=600 outdir= verbose=0
topology=four
QEMU=${QEMU:-qemu-system-x86_64}

log() { printf 'run.sh: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
usage() { sed -n '2,21s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2; exit 1; }

while getopts 'k:i:s:m:w:b:T:t:o:vh' opt; do
	case $opt in
	k) kernel=$OPTARG ;;
	i) initrd=$OPTARG ;;
	s) suite=$OPTARG ;;
	m) mode=$OPTARG ;;
	w) weights=$OPTARG ;;
	b) bandwidths=$OPTARG ;;
	T) topology=$OPTARG ;;
	t) timeout=$OPTARG ;;
	o) outdir=$OPTARG ;;
	v) verbose=1 ;;
	*) usage ;;
	esac
done
[ -r "$kernel" ] || die "no kernel image (-k)"
[ -r "$initrd" ] || die "no initramfs (-i)"
command -v "$QEMU" >/dev/null || die "$QEMU missing (apt-get install qemu-system-x86)"
if [ -z "$outdir" ]; then
	outdir=$(mktemp -d "${TMPDIR:-/tmp}/numactl2-vm.XXXXXX")
fi
mkdir -p "$outdir"

append="console=ttyS0 quiet panic=-1 nm2mode=$mode"
[ -n "$suite" ] && append+=" nm2suite=$suite"
# The debug kernel's lockdep splats and WARN()s are KERN_WARNING lines,
# which quiet keeps off the console test/vm/check reads.
case $suite in debug-*) append+=" ignore_loglevel" ;; esac
# The weights go through the kernel command line: no spaces, no quotes.
if [ -n "$weights" ]; then
	case $weights in
	*[!0-9:,-]*) die "weights '$weights': only digits and , : - allowed" ;;
	esac
	append+=" nm2weights=$weights"
fi

IFS=, read -r -a bw <<<"$bandwidths"
[ ${#bw[@]} -eq 4 ] || die "bandwidths '$bandwidths': four, comma-separated"
for b in "${bw[@]}"; do
	[[ $b =~ ^[0-9]+[KMG]?$ ]] || die "bandwidth '$b': a number with an optional K, M or G"
done

# Two sockets: [initiator][target] bandwidth, latency and SLIT distance.
sockets_args() {
	local i t bw=(200G 80G 60G 20G) lat=(100 200 250 350) dist=(10 20 25 35)
	echo -accel tcg -m 2560M -smp 2,sockets=2 -machine hmat=on -net none
	echo -object memory-backend-ram,id=m0,size=768M -object memory-backend-ram,id=m1,size=768M
	echo -object memory-backend-ram,id=m2,size=512M -object memory-backend-ram,id=m3,size=512M
	echo -numa node,nodeid=0,cpus=0,memdev=m0,initiator=0
	echo -numa node,nodeid=1,cpus=1,memdev=m1,initiator=1
	echo -numa node,nodeid=2,memdev=m2,initiator=0
	echo -numa node,nodeid=3,memdev=m3,initiator=1
	# Kind of target t from socket i: 0 local DRAM, 1 remote DRAM, 2 local
	# CXL, 3 remote CXL.
	for i in 0 1; do
		for t in 0 1 2 3; do
			local k=$(( (t >= 2 ? 2 : 0) + (t % 2 != i) ))
			echo -numa hmat-lb,initiator=$i,target=$t,hierarchy=memory,data-type=access-latency,latency=${lat[k]}
			echo -numa hmat-lb,initiator=$i,target=$t,hierarchy=memory,data-type=access-bandwidth,bandwidth=${bw[k]}
			[ "$i" = "$t" ] || echo -numa dist,src=$i,dst=$t,val=${dist[k]}
		done
	done
	echo -numa dist,src=2,dst=3,val=40
}

qemu_args() {
	local n lat=(100 200 250 300)
	if [ "$topology" = sockets ]; then
		sockets_args
		return
	fi
	echo -accel tcg -m 2560M -smp 2 -machine hmat=on -net none
	echo -object memory-backend-ram,id=m0,size=1G
	for n in 1 2 3; do
		echo -object memory-backend-ram,id=m$n,size=512M
	done
	echo -numa node,nodeid=0,cpus=0-1,memdev=m0,initiator=0
	for n in 1 2 3; do
		echo -numa node,nodeid=$n,memdev=m$n,initiator=0
	done
	for n in 0 1 2 3; do
		echo -numa hmat-lb,initiator=0,target=$n,hierarchy=memory,data-type=access-latency,latency=${lat[n]}
		echo -numa hmat-lb,initiator=0,target=$n,hierarchy=memory,data-type=access-bandwidth,bandwidth=${bw[n]}
	done
}

secs() { if [ "$1" = '?' ]; then echo 'n/a'; else printf '%.1f s' "$1"; fi; }

crash_re='Kernel panic|Oops|BUG:|general protection fault|Call Trace:|kernel BUG'

# One boot.  Sets: status (PASS FAIL CRASH TIMEOUT), guest_rc, t_boot, t_run, t_total.
boot() {
	local n=$1 console=$outdir/console-$1.log out=$outdir/out-$1.txt stamps=$outdir/stamps-$1
	local t0 line qrc
	: >"$out"
	: >"$stamps"
	t0=$(date +%s.%N)
	# shellcheck disable=SC2046
	timeout -k 10 "$timeout" "$QEMU" $(qemu_args) \
		-kernel "$kernel" -initrd "$initrd" -append "$append" \
		-nographic -no-reboot -serial mon:stdio -serial "file:$out" </dev/null 2>&1 |
	while IFS= read -r line; do
		line=${line%$'\r'}
		printf '%s\n' "$line"
		[ $verbose -eq 1 ] && printf '%s\n' "$line" >&2
		case $line in
		*NUMACTL2-VM-START*) echo "start $(date +%s.%N)" >>"$stamps" ;;
		*NUMACTL2-VM-DONE*) echo "done $(date +%s.%N)" >>"$stamps" ;;
		esac
	done >"$console"
	qrc=${PIPESTATUS[0]}
	local t1 ts td
	t1=$(date +%s.%N)
	ts=$(awk '$1 == "start" { print $2; exit }' "$stamps")
	td=$(awk '$1 == "done" { print $2; exit }' "$stamps")
	t_total=$(echo "$t1 - $t0" | bc)
	t_boot=$([ -n "$ts" ] && echo "$ts - $t0" | bc || echo '?')
	t_run=$([ -n "$ts" ] && [ -n "$td" ] && echo "$td - $ts" | bc || echo '?')
	guest_rc=$(sed -n 's/.*NUMACTL2-VM-DONE exit=\([0-9]*\).*/\1/p' "$console" | tail -n1)
	if grep -Eq "$crash_re" "$console"; then
		status=CRASH
	elif [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
		status=TIMEOUT
	elif [ -z "$guest_rc" ]; then
		status=FAIL
		log "qemu exited ($qrc) without the end marker; last console lines:"
		tail -n 20 "$console" >&2
	elif [ "$guest_rc" -eq 0 ]; then
		status=PASS
	else
		status=FAIL
	fi
	log "attempt $n: boot $(secs "$t_boot"), $mode $(secs "$t_run"), total $(secs "$t_total"): $status"
}

for attempt in 1 2; do
	boot $attempt
	if [ "$status" = CRASH ]; then
		log "CRASH: the guest kernel crashed (attempt $attempt); console excerpt:"
		grep -E -m1 -A 25 "$crash_re" "$outdir/console-$attempt.log" >&2
		[ $attempt -eq 1 ] && { log "retrying once"; continue; }
	fi
	break
done
[ "$status" = TIMEOUT ] && { log "TIMEOUT: the guest hung and was killed after $timeout s; last console lines:"; tail -n 20 "$outdir/console-$attempt.log" >&2; }

# The clean copy from the second serial port, without the markers.
grep -v '^NUMACTL2-VM-' "$outdir/out-$attempt.txt" | tr -d '\r'
echo "$status" >"$outdir/status"
echo "$attempt" >"$outdir/attempts"
log "output kept in $outdir"
[ "$status" = PASS ]
