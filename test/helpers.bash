# Shared set-up for the host bats suites.
bats_require_minimum_version 1.5.0

NUMACTL2=${NUMACTL2:-$BATS_TEST_DIRNAME/../numactl2}
PARSE_DRIVER=${PARSE_DRIVER:-$BATS_TEST_DIRNAME/parse_driver}
BWWEIGHTS_DRIVER=${BWWEIGHTS_DRIVER:-$BATS_TEST_DIRNAME/bwweights_driver}
WI_DIR=/sys/kernel/mm/mempolicy/weighted_interleave

# Every node weight file and the auto switch, "name=value" per line.
wi_snapshot() {
	local f
	for f in "$WI_DIR"/*; do
		[ -f "$f" ] && printf '%s=%s\n' "${f##*/}" "$(cat "$f")"
	done
	return 0
}

# Puts the node weights back from a snapshot. The auto switch is put back
# only where the kernel can compute weights (it says ENODEV otherwise).
wi_restore() {
	local line name value
	while IFS= read -r line; do
		name=${line%%=*} value=${line#*=}
		case $name in
		node*) echo "$value" >"$WI_DIR/$name" ;;
		esac
	done <<<"$1"
	while IFS= read -r line; do
		name=${line%%=*} value=${line#*=}
		case $name in
		auto|__auto_type) [ "$value" = true ] && echo true >"$WI_DIR/$name" 2>/dev/null ;;
		esac
	done <<<"$1"
	return 0
}

# A fake weighted_interleave directory, for the failures a real kernel
# will not produce on demand.
fake_wi_dir() {
	local dir=$BATS_TEST_TMPDIR/wi n
	mkdir -p "$dir"
	for n in "$@"; do echo 1 >"$dir/node$n"; done
	echo "$dir"
}

# The N<node>=<pages> counts of the numa_maps line for an address range
# starting at $1, from a numa_maps file $2. The policy may contain a space.
numa_maps_policy() {
	awk -v a="$1" '$1 == a { sub(/^[0-9a-f]+ /, ""); sub(/ (file=|anon=|heap|stack|dirty=|mapped=|N[0-9]+=|kernelpagesize).*/, ""); print; exit }' "$2"
}
