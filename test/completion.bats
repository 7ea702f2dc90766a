#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Bash completion (completion/numactl2) in a real interactive bash run in
# tmux: keys are typed, TAB pressed, and what bash then has on the line (or
# the list it shows) is read back. Every test runs twice: "plain" is
# bash --norc with our script alone, "full" loads the bash-completion package
# first (its _command_offset hands the command's words to the command's own
# completion). numactl2 itself only gives its --help, so test/check-all's
# fakes part, which runs the files that use the NUMACTL2 binary, leaves this
# one out.

load helpers

top=$BATS_TEST_DIRNAME/..
BASH_COMPLETION=/usr/share/bash-completion/bash_completion

setup() {
	command -v tmux >/dev/null || skip "needs tmux (tools/install-deps --test)"
	[ -f "$BASH_COMPLETION" ] || skip "needs bash-completion (tools/install-deps --test)"
	# numactl2 on PATH: the script reads its options from its --help.
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	ln -s "${NUMACTL2}" "$BATS_TEST_TMPDIR/bin/numactl2"
	SOCK= NSOCK=0
	QUERY=0
}

teardown() {
	[ -z "${SOCK:-}" ] || tmux -S "$SOCK" kill-server 2>/dev/null || true
	[ -z "${SLEEPER:-}" ] || kill "$SLEEPER" 2>/dev/null || true
}

# start_bash MODE: an interactive bash in a fresh tmux server, "plain" or
# "full" (with bash-completion). C-x s and C-x p print numbered markers
# around what a query shows; C-x l lists the completions, one per line.
start_bash() {
	local rc=$BATS_TEST_TMPDIR/rc.$1
	# A server of its own for each bash: a new session on the socket of a
	# server still shutting down fails ("server exited unexpectedly").
	[ -z "$SOCK" ] || tmux -S "$SOCK" kill-server 2>/dev/null || true
	SOCK=$BATS_TEST_TMPDIR/tmux.$((++NSOCK)).sock
	cat >"$rc" <<-EOF
		PS1='$ '
		bind 'set bell-style none'
		bind 'set completion-display-width 0'
		bind 'set completion-query-items 0'
		bind 'set page-completions off'
		bind '"\C-xl": possible-completions'
		bind -x '"\C-xs": printf "\n[start %s]\n" "\$((++q))"'
		bind -x '"\C-xp": printf "\n<%s>%s\n" "\$READLINE_LINE" "\$q"'
		$([ "$1" = full ] && echo ". $BASH_COMPLETION")
		. $top/completion/numactl2
		echo READY
	EOF
	tmux -S "$SOCK" new-session -d -x 250 -y 100 \
		env -i HOME="$BATS_TEST_TMPDIR" TERM=screen PATH="$BATS_TEST_TMPDIR/bin:/usr/bin:/bin" \
		bash --norc --noprofile -i
	tmux -S "$SOCK" send-keys -l ". $rc"
	tmux -S "$SOCK" send-keys Enter
	wait_screen '^READY$'
	MODE=$1 QUERY=0
}

# wait_screen REGEX: the screen (and its history) has a line matching REGEX
# within 20 s (bash answers in milliseconds; the margin is for a loaded host).
wait_screen() {
	local i
	for ((i = 0; i < 200; i++)); do
		tmux -S "$SOCK" capture-pane -p -S -3000 | grep -qE "$1" && return 0
		sleep 0.1
	done
	echo "timed out waiting for $1 on the screen:"
	tmux -S "$SOCK" capture-pane -p -S -3000
	return 1
}

# query TEXT KEY: type TEXT and press KEY (Tab, or C-x l for the list); sets
# LINE to the line bash then has and SHOWN to what bash printed meanwhile.
query() {
	QUERY=$((QUERY + 1))
	tmux -S "$SOCK" send-keys C-u C-x s
	tmux -S "$SOCK" send-keys -l "$1"
	tmux -S "$SOCK" send-keys "${@:2}" C-x p
	wait_screen "^<.*>$QUERY\$" || return 1
	local screen
	screen=$(tmux -S "$SOCK" capture-pane -p -S -3000 |
		sed -n "/^\[start $QUERY\]\$/,/^<.*>$QUERY\$/p")
	LINE=$(tail -n 1 <<<"$screen" | sed -E "s/^<(.*)>$QUERY\$/\1/")
	SHOWN=$(sed '1d;$d' <<<"$screen" | grep -v '^\$ ' | grep -v '^$' || true)
	echo "$MODE: '$1' ${*:2}: line '$LINE'; shown: ${SHOWN//$'\n'/ | }"
}

# tab TEXT WANT: TAB after TEXT leaves WANT on the line.
tab() {
	query "$1" Tab || return 1
	[ "$LINE" = "$2" ] || { echo "want '$2'"; return 1; }
}

# listed TEXT: the completions bash lists after TEXT, one per line, in SHOWN.
listed() {
	query "$1" C-x l
}

host_nodes() {
	local n
	for n in /sys/devices/system/node/node[0-9]*; do echo "${n##*node}"; done
}

@test "completion: options, in both bashes" {
	for mode in plain full; do
		start_bash $mode
		tab "numactl2 --dry-r" "numactl2 --dry-run " || return 1
		tab "numactl2 --weight-b" "numactl2 --weight-budget=" || return 1
		listed "numactl2 --wei" || return 1
		[ "$SHOWN" = "$(printf '%s\n' --weight-budget= --weighted-interleave= --weights=)" ] || return 1
	done
}

@test "completion: after a --weights list, never '0::'; options and the command go on" {
	for mode in plain full; do
		start_bash $mode
		tab "numactl2 --weights=0:" "numactl2 --weights=0:" || return 1
		tab "numactl2 -w 0 --weights=0:9" "numactl2 -w 0 --weights=0:9" || return 1
		tab "numactl2 -w 0 --weights=0:9 --dry-r" "numactl2 -w 0 --weights=0:9 --dry-run " || return 1
		tab "numactl2 -w 0 --weights=0:9 --dry-run ech" "numactl2 -w 0 --weights=0:9 --dry-run echo " || return 1
		tab "numactl2 --weights=au" "numactl2 --weights=auto " || return 1
	done
}

@test "completion: the four -w spellings give nodes, all and local, then the command" {
	local want
	# (bash lists them sorted.)
	want=$(printf '%s\n' all local $(host_nodes) | sort)
	for mode in plain full; do
		start_bash $mode
		tab "numactl2 -w --inter" "numactl2 -w --interleave=" || return 1
		for spelling in "-w " "-w --interleave=" "--weighted-interleave=" "--weighted-interleave "; do
			listed "numactl2 $spelling" || return 1
			[ "$SHOWN" = "$want" ] || { echo "want: $want"; return 1; }
			tab "numactl2 ${spelling}0 --weights=0:9 ech" "numactl2 ${spelling}0 --weights=0:9 echo " || return 1
		done
		# CPU nodes have no "local": only memory policies take it.
		listed "numactl2 -N " || return 1
		[ "$SHOWN" = "$(printf '%s\n' all $(host_nodes) | sort)" ] || return 1
	done
}

@test "completion: a node already in the list is not offered again" {
	local n want
	want=$(host_nodes | sed 1d | sed 's/^/0,/' | sort)
	for mode in plain full; do
		start_bash $mode
		listed "numactl2 -w 0," || return 1
		[ "$SHOWN" = "$want" ] || { echo "want: $want"; return 1; }
		listed "numactl2 --membind=0-0," || return 1
		[ "$SHOWN" = "$want" ] || return 1
		listed "numactl2 -w all --weights=0:3," || return 1
		[ "$SHOWN" = "$(host_nodes | sed 1d | sed 's/^/0:3,/; s/$/:/' | sort)" ] || return 1
	done
}

@test "completion: the command's own completion after numactl2's options" {
	: >"$BATS_TEST_TMPDIR/somefile"
	for mode in plain full; do
		start_bash $mode
		# Its arguments: files, in both bashes.
		tab "numactl2 -w --interleave=0 --weights=0:9 cat $BATS_TEST_TMPDIR/somef" \
		    "numactl2 -w --interleave=0 --weights=0:9 cat $BATS_TEST_TMPDIR/somefile " || return 1
		tab "numactl2 -- ech" "numactl2 -- echo " || return 1
		# numactl2's own file arguments.
		tab "numactl2 --report-file=$BATS_TEST_TMPDIR/somef" "numactl2 --report-file=$BATS_TEST_TMPDIR/somefile " || return 1
		tab "numactl2 -w 0 --shm $BATS_TEST_TMPDIR/somef" "numactl2 -w 0 --shm $BATS_TEST_TMPDIR/somefile " || return 1
	done
	# The command's own completion (bash-completion's for ls: its --help).
	tab "numactl2 -w --interleave=0 --weights=0:9 ls --almost-al" \
	    "numactl2 -w --interleave=0 --weights=0:9 ls --almost-all " || return 1
	tab "numactl2 --wait=5 -i 0 ls --almost-al" "numactl2 --wait=5 -i 0 ls --almost-all "
}

@test "completion: --pid lists processes by PID and name, no kernel threads" {
	local kthread= p
	cp /bin/sleep "$BATS_TEST_TMPDIR/bin/n2sleeper"
	"$BATS_TEST_TMPDIR/bin/n2sleeper" 600 &
	SLEEPER=$!
	# A kernel thread: a process without a command line.
	for p in /proc/[0-9]*; do
		[ -r "$p/comm" ] && [ -z "$(tr -d '\0' <"$p/cmdline" 2>/dev/null)" ] &&
			{ kthread=${p#/proc/}; break; }
	done
	for mode in plain full; do
		start_bash $mode
		listed "numactl2 --pid=" || return 1
		grep -qx "$SLEEPER n2sleeper" <<<"$SHOWN" || return 1
		if [ -n "$kthread" ]; then
			run ! grep -qE "^$kthread( |\$)" <<<"$SHOWN"
		fi
		[ "$(grep -cvE '^[0-9]+ .+' <<<"$SHOWN")" -eq 0 ] || return 1
		tab "numactl2 --pid=$SLEEPER" "numactl2 --pid=$SLEEPER " || return 1
	done
}
