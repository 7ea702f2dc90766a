/* Usage errors: one line naming what is wrong, then where help is, exit 1. */
#include <err.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/usage.h"

void usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
	fputs("Try 'numactl2 --help' for more information.\n", stderr);
	exit(1);
}

/* The one place where a parser's error becomes a usage error. */
void usage_parse_error(const struct parse_err *e, const char *what)
{
	char msg[160];

	parse_strerror(e, what, msg, sizeof(msg));
	usage_error("%s", msg);
}
