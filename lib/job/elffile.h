/* What numactl2 reads of an ELF file (a program, or a library it loads):
 * its program interpreter, the symbol versions it defines, a byte string
 * in it. Read through the program headers and the dynamic segment, as the
 * dynamic loader does: section headers may be stripped. */
#ifndef NUMACTL2_ELFFILE_H
#define NUMACTL2_ELFFILE_H

#include <stdbool.h>
#include <stddef.h>

struct elf_file {
	const unsigned char *map;	/* the whole file, read-only */
	size_t size;
};

/* Maps path; 0, -ENOEXEC for a file that is not a 64-bit ELF file of
 * this machine's byte order, or -errno. */
int elf_open(const char *path, struct elf_file *f);
void elf_close(struct elf_file *f);

/* The PT_INTERP path into buf: 0, -ENOENT for a static program (none),
 * -ENOEXEC for a malformed one, -ENAMETOOLONG. */
int elf_interp(const struct elf_file *f, char *buf, size_t len);

/* Does the file define the symbol version name (its .gnu.version_d, found
 * through DT_VERDEF)? 1 or 0, -ENOENT when it defines no versions at all,
 * -ENOEXEC for a malformed one. */
int elf_defines_version(const struct elf_file *f, const char *name);

/* Does a string of the dynamic string table (the names of the libraries
 * it needs and of its dynamic symbols) start with prefix? */
bool elf_dynstr_has(const struct elf_file *f, const char *prefix);

bool elf_contains(const struct elf_file *f, const char *bytes);

#endif
