#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tools/debian-maintainer: the Maintainer make deb writes is whoever builds
# the packages (DEBFULLNAME/DEBEMAIL, else git's identity, else
# $(id -un)@$(hostname -f)), and an address that reaches nobody is refused
# with how to set DEBEMAIL. git, id, hostname and getent are stand-ins on
# PATH here, so that the machine's own identity plays no part.

load helpers

top=$BATS_TEST_DIRNAME/..

setup() {
	bin=$BATS_TEST_TMPDIR/bin
	mkdir -p "$bin"
	export GIT_NAME= GIT_EMAIL= ID_USER=jo HOSTNAME_F=build1.lab.org HOSTNAME_S=build1
	# git config user.name / user.email, from GIT_NAME and GIT_EMAIL
	printf '#!/bin/sh\n[ "$2" = user.name ] && v=$GIT_NAME || v=$GIT_EMAIL\n[ -n "$v" ] && echo "$v"\n' >"$bin/git"
	printf '#!/bin/sh\necho "$ID_USER"\n' >"$bin/id"
	# hostname -f fails where HOSTNAME_F is empty
	printf '#!/bin/sh\nif [ "$1" = -f ]; then [ -n "$HOSTNAME_F" ] || exit 1; echo "$HOSTNAME_F"; else echo "$HOSTNAME_S"; fi\n' >"$bin/hostname"
	printf '#!/bin/sh\necho "$2:x:1000:1000:Jo Builder,,,:/home/$2:/bin/sh"\n' >"$bin/getent"
	chmod +x "$bin"/*
	export PATH=$bin:$PATH
	unset DEBEMAIL DEBFULLNAME
}

# refused WHY: the run failed, named the address and WHY, and said how to set DEBEMAIL.
refused_for() {
	run -1 --separate-stderr "$top/tools/debian-maintainer"
	[ -z "$output" ] || return 1
	[[ $stderr == *"$1"* ]] || { echo "$stderr"; return 1; }
	[[ $stderr == *"DEBEMAIL=you@your.domain DEBFULLNAME='Your Name' make deb"* ]]
}

@test "DEBEMAIL and DEBFULLNAME come first, DEBEMAIL may carry the name" {
	GIT_NAME="Git Name" GIT_EMAIL=git@lab.org
	DEBEMAIL=jo@lab.org DEBFULLNAME="Jo Deb" run -0 "$top/tools/debian-maintainer"
	[ "$output" = "Jo Deb <jo@lab.org>" ] || return 1
	DEBEMAIL="Jo Mail <jo@lab.org>" run -0 "$top/tools/debian-maintainer"
	[ "$output" = "Jo Mail <jo@lab.org>" ]
}

@test "without DEBEMAIL, git's user.name and user.email" {
	GIT_NAME="Git Name" GIT_EMAIL=git@lab.org
	run -0 "$top/tools/debian-maintainer"
	[ "$output" = "Git Name <git@lab.org>" ]
}

@test "without either, the user's name and \$(id -un)@\$(hostname -f)" {
	run -0 "$top/tools/debian-maintainer"
	[ "$output" = "Jo Builder <jo@build1.lab.org>" ]
}

@test "an address under .example or .invalid is refused, wherever it comes from" {
	GIT_EMAIL=maintainers@users.noreply.a-seed-daf124af.example
	refused_for "'maintainers@users.noreply.a-seed-daf124af.example' (git config user.email) is under .example" ||
		return 1
	DEBEMAIL=jo@lab.invalid refused_for "'jo@lab.invalid' (DEBEMAIL) is under .invalid"
}

@test "a host without a domain, or hostname -f failing, is refused and said" {
	HOSTNAME_F=build1
	refused_for "'jo@build1' (\$(id -un)@\$(hostname -f)) has no domain" || return 1
	HOSTNAME_F=
	refused_for "'jo@build1' (\$(id -un)@\$(hostname -f)) has no domain"
}

@test "root's address is refused (lintian: root-in-contact)" {
	ID_USER=root
	refused_for "'root@build1.lab.org' (\$(id -un)@\$(hostname -f)) is root's"
}

@test "make deb stops with the refusal" {
	DEBEMAIL=jo@lab.example run -2 --separate-stderr make -s -C "$top" deb
	[[ $stderr == *"'jo@lab.example' (DEBEMAIL) is under .example"* ]]
}
