// SPDX-License-Identifier: GPL-2.0-or-later
/* Node and CPU lists through libnuma (parsed, searched, printed as numactl
 * prints them), and libnuma's complaints kept for the caller to word. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "libnumactl2.h"
#include "policy/nodes.h"

/* Where libnuma's why goes while a list is parsed: the parsing call's
 * buffer, set and cleared by it (numa_warn() takes no argument of ours),
 * one per thread; NULL: no call asks, and the why is dropped. Not a
 * request's state: nothing of a call outlives it. */
static _Thread_local struct libnuma_said {
	char *buf;
	size_t len;
} said;

static void keep_warning(const char *fmt, va_list ap)
{
	size_t n;

	if (!said.buf)
		return;
	vsnprintf(said.buf, said.len, fmt, ap);
	n = strlen(said.buf);
	while (n && said.buf[n - 1] == '\n')
		said.buf[--n] = '\0';
}

/* libnuma declares these weak so that a program can take over its messages:
 * without them it prints "libnuma: Warning: ..." lines of its own. */
void numa_warn(int num, char *fmt, ...)
{
	va_list ap;

	(void)num;
	va_start(ap, fmt);
	keep_warning(fmt, ap);
	va_end(ap);
}

void numa_error(char *where)
{
	if (said.buf)
		snprintf(said.buf, said.len, "%s", where);
}

/* all: nodes outside the cpuset are allowed (numactl's --all). */
struct bitmask *nodes_parse(const char *s, bool all, char *why, size_t len)
{
	struct bitmask *mask;

	why[0] = '\0';
	if (*s == '\0')
		return NULL;
	said = (struct libnuma_said){ why, len };
	mask = all ? numa_parse_nodestring_all(s) : numa_parse_nodestring(s);
	said = (struct libnuma_said){ NULL, 0 };
	return mask;
}

/* libnuma's why, if any, is dropped: the CPU list's message names none. */
struct bitmask *nc2_cpus_parse(const char *s, bool all)
{
	if (*s == '\0')
		return NULL;
	return all ? numa_parse_cpustring_all(s) : numa_parse_cpustring(s);
}

/* The first node of mask at or after from, or -1: word by word, as the
 * kernel's find_next_bit(), on masks of 1024 bits or more. Bit by bit
 * through numa_bitmask_isbitset() would cost 775 instructions before the
 * exec of numactl2 -i all /bin/true (0.3%, bench/overhead). */
int nc2_nodes_next(const struct bitmask *mask, unsigned from)
{
	const unsigned bits = 8 * sizeof(unsigned long);
	unsigned w = from / bits;
	unsigned long word;

	if (from >= mask->size)
		return -1;
	word = mask->maskp[w] & (~0UL << (from % bits));
	while (!word) {
		if (++w * bits >= mask->size)
			return -1;
		word = mask->maskp[w];
	}
	from = w * bits + (unsigned)__builtin_ctzl(word);
	return from < mask->size ? (int)from : -1;
}

int nc2_nodes_first(const struct bitmask *mask)
{
	return nc2_nodes_next(mask, 0);
}

/* numactl's printmask(): "name: 0 1 \n", with the trailing blank scripts expect. */
void nc2_nodes_fprint(FILE *f, const char *name, const struct bitmask *mask)
{
	fprintf(f, "%s: ", name);
	for (unsigned i = 0; i < mask->size; i++)
		if (numa_bitmask_isbitset(mask, i))
			fprintf(f, "%u ", i);
	fputc('\n', f);
}
