/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What numactl2 reads of an ELF file (a program, or a library it loads):
 * its program interpreter, the symbol versions it defines, a byte string
 * in its read-only segments. Read through the program headers and the
 * dynamic segment, as the dynamic loader does (section headers may be
 * stripped), and only the ranges they name: never the whole file. */
#ifndef NUMACTL2_ELFFILE_H
#define NUMACTL2_ELFFILE_H

#include <elf.h>
#include <stddef.h>
#include <sys/types.h>

struct elf_file {
	int fd;
	off_t size;
	Elf64_Ehdr eh;
	Elf64_Phdr *ph;		/* eh.e_phnum program headers */
};

/* Opens path without blocking (a FIFO or a device is refused unread) and
 * reads its headers: 0, -ENOEXEC for anything but a regular 64-bit ELF
 * program or library of this machine (class, byte order, machine, type),
 * or -errno. */
int elf_open(const char *path, struct elf_file *f);
void elf_close(struct elf_file *f);

/* The PT_INTERP path into buf: 0, -ENOENT for a static program (none),
 * -ENOEXEC for a malformed one, -ENAMETOOLONG. */
int elf_interp(const struct elf_file *f, char *buf, size_t len);

/* Does the file define the symbol version name (its .gnu.version_d, found
 * through DT_VERDEF)? 1 or 0, -ENOENT when it defines no versions at all,
 * -ENOEXEC for a malformed one. */
int elf_defines_version(const struct elf_file *f, const char *name);

/* Does a string of the dynamic string table (the names of the libraries it
 * needs and of its dynamic symbols; its first DYNSTR_MAX bytes) start with
 * prefix? 1 or 0, -ENOENT without a dynamic segment, -errno. */
int elf_dynstr_has(const struct elf_file *f, const char *prefix);

/* Do the file ranges of its read-only PT_LOAD segments (code and
 * constants) hold bytes? 1 or 0, -EFBIG when they span more than max
 * bytes, -errno. */
int elf_contains(const struct elf_file *f, const char *bytes, unsigned long max);

#endif
