// SPDX-License-Identifier: GPL-2.0-or-later
/* A process's name (comm) is whatever the process set, escape sequences
 * included, and a report prints it on root's terminal: ps shows such bytes
 * as '?', systemd as \xNN (cescape()). Here they are \xNN in text, so that
 * the name can still be told, and JSON's own \u00NN in JSON. C1 controls
 * (U+0080-U+009F, CSI among them) count too: a terminal in UTF-8 may act
 * on them. */
#include <stdbool.h>
#include <stddef.h>

#include "job/textesc.h"

/* The length of the UTF-8 sequence s starts with (RFC 3629: shortest form,
 * no surrogate, at most U+10FFFF), or 0 when it starts none. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len;

	if (s[0] < 0x80)
		return 1;
	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

/* The code point of a control character the sequence of LEN bytes at S
 * is (C0, DEL, or C1: 0xc2 0x80-0x9f), or -1. */
static int control_char(const unsigned char *s, size_t len)
{
	if (len == 1 && (s[0] < 0x20 || s[0] == 0x7f))
		return s[0];
	if (len == 2 && s[0] == 0xc2 && s[1] < 0xa0)
		return s[1];
	return -1;
}

void text_print_escaped(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len;

	for (; *s; s += len) {
		len = utf8_len(s);
		if (len == 0 || control_char(s, len) >= 0) {
			len = len ? len : 1;
			for (size_t i = 0; i < len; i++)
				fprintf(f, "\\x%02x", s[i]);
		} else if (*s == '\\') {
			fputs("\\\\", f);
		} else {
			fwrite(s, 1, len, f);
		}
	}
}

void text_print_json(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len;

	fputc('"', f);
	for (; *s; s += len) {
		len = utf8_len(s);
		if (len == 0) {
			fputs("\\ufffd", f);
			len = 1;
		} else if (*s == '"' || *s == '\\') {
			fprintf(f, "\\%c", *s);
		} else if (control_char(s, len) >= 0) {
			fprintf(f, "\\u%04x", control_char(s, len));
		} else {
			fwrite(s, 1, len, f);
		}
	}
	fputc('"', f);
}
