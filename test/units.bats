#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# systemd's units of numactl2d as make install writes them: systemd-analyze
# verify takes them without a word, and the hardening the design note
# promises (docs/service.md) is in them. A boot under systemd is not made
# here (the guests run no systemd): docs/service.md says how to check one.

load helpers

top=$BATS_TEST_DIRNAME/..

setup() {
	command -v systemd-analyze >/dev/null || skip "needs systemd-analyze (systemd)"
	units=$BATS_TEST_TMPDIR/inst
	make -s -C "$top" install-service SBINDIR="$units/sbin" UNITDIR="$units/units" \
		SYSCONFDIR="$units/etc" >/dev/null
}

# verify UNIT...: exit 0 and nothing said (an unknown key is only a warning).
verify() {
	run --separate-stderr systemd-analyze verify --man=no "$@"
	echo "$stderr"
	[ "$status" -eq 0 ] && [ -z "$stderr" ]
}

@test "units: systemd-analyze verify takes numactl2.socket and numactl2.service as installed" {
	verify "$units/units/numactl2.socket" "$units/units/numactl2.service"
	grep -qx "ExecStart=$units/sbin/numactl2d" "$units/units/numactl2.service"
}

@test "units: the check finds a mistyped key and a missing program" {
	sed 's/^NoNewPrivileges=/NoNewPrivilege=/' "$units/units/numactl2.service" >"$units/units/typo.service"
	run ! verify "$units/units/typo.service"
	sed "s|^ExecStart=.*|ExecStart=$units/none/numactl2d|" "$units/units/numactl2.service" \
		>"$units/units/missing.service"
	run ! verify "$units/units/numactl2.socket" "$units/units/missing.service"
}

@test "units: the service is hardened as the design note says, the socket open to every user" {
	local s=$units/units/numactl2.service k
	for k in NoNewPrivileges=yes ProtectSystem=strict \
		"ReadWritePaths=/sys/kernel/mm/mempolicy/weighted_interleave /run/numactl2" \
		RestrictAddressFamilies=AF_UNIX CapabilityBoundingSet= PrivateNetwork=yes \
		SystemCallFilter=@system-service RuntimeDirectoryPreserve=yes; do
		grep -qxF "$k" "$s" || { echo "missing: $k"; return 1; }
	done
	grep -qx "ListenSequentialPacket=/run/numactl2/socket" "$units/units/numactl2.socket"
	grep -qx "SocketMode=0666" "$units/units/numactl2.socket"
	# The rules file ships with no rule in force.
	run -1 grep -v '^#' "$units/etc/numactl2/weights.conf"
}
