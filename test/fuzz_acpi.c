// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target for the ACPI tables numactl2 reads as root for
 * --weights=auto and --hardware (HMAT and SRAT, lib/bandwidth): whatever
 * their bytes, no crash, no undefined behaviour, no read past what the file
 * holds, and one of the answers hmat_read() documents. The first byte of
 * the input says where SRAT ends and HMAT begins, and whether each header's
 * length is set to the table's size; the signatures and the checksums are
 * made right, so that the parsers behind the header check are reached. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bandwidth/acpitable.h"
#include "bandwidth/hmat.h"

#define FIX_SRAT_LENGTH 0x1
#define FIX_HMAT_LENGTH 0x2

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[256];

/* The tables go to a directory of this run's own (the test build's
 * NUMACTL2_ACPI_TABLES), never /sys/firmware. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");

	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "%s/numactl2-fuzz-acpi.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir) || setenv("NUMACTL2_ACPI_TABLES", dir, 1) < 0)
		abort();
	/* A build without the test hook would read the machine's own tables. */
	if (strcmp(acpi_tables_dir(), dir) != 0)
		abort();
	return 0;
}

static void put_u32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* LEN bytes of TABLE as DIR/SIG, with SIG's signature and a right checksum
 * over the header's length where the whole header is there. */
static void write_table(const char *sig, const uint8_t *table, size_t len, int fix_length)
{
	unsigned char *buf = malloc(len ? len : 1);
	char path[512];
	FILE *f;

	if (!buf)
		abort();
	memcpy(buf, table, len);
	if (len >= ACPI_HEADER_LEN) {
		unsigned char sum = 0;
		uint32_t covered;

		memcpy(buf, sig, 4);
		if (fix_length)
			put_u32(buf + 4, (uint32_t)len);
		covered = acpi_u32(buf + 4) < len ? acpi_u32(buf + 4) : (uint32_t)len;
		buf[9] = 0;
		for (uint32_t i = 0; i < covered; i++)
			sum = (unsigned char)(sum + buf[i]);
		buf[9] = (unsigned char)-sum;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, sig);
	f = fopen(path, "we");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0)
		abort();
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct hmat h;	/* 96 KiB: not on the stack */
	size_t split;
	int rc;

	if (size < 3)
		return 0;
	split = 3 + (data[1] | (size_t)data[2] << 8) % (size - 2);
	write_table("SRAT", data + 3, split - 3, data[0] & FIX_SRAT_LENGTH);
	write_table("HMAT", data + split, size - split, data[0] & FIX_HMAT_LENGTH);
	rc = hmat_read(&h);
	if (rc != 0 && rc != -EBADMSG && rc != -ENODATA)
		abort();
	for (unsigned i = 0; rc == 0 && i < BW_MAX_NODES; i++)
		for (unsigned t = 0; t < BW_MAX_NODES; t++)
			(void)(hmat_bandwidth(&h, i, t) + hmat_latency(&h, i, t));
	return 0;
}
