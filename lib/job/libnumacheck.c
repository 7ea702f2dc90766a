// SPDX-License-Identifier: GPL-2.0-or-later
/* The libnuma a job's program starts with, and whether its constructor
 * drops inherited task-local weights.
 *
 * libnuma 2.0.15 to 2.0.17 probe MPOL_PREFERRED_MANY in their constructor
 * (set_kernel_abi) and put the old policy back with set_mempolicy(), which
 * carries no weights: a task-local weighted interleave comes out with the
 * global table's weights. 2.0.18 made the probe lazy (upstream fd4ec69);
 * 2.0.14 and older have none.
 *
 * Which libnuma: the program's dynamic loader says (progload.c). A script
 * is followed to its interpreter (at most SCRIPT_DEPTH levels, as the
 * kernel's binfmt_script nests); a static program loads no libnuma.so, but
 * may have libnuma.a linked in, whose version no symbol version records.
 *
 * Which version: the symbol versions the library file defines, the one
 * record of its interface every build carries (strings and the package
 * name do not: a self-built library has no package, and the version string
 * is not in the binary). libnuma_1.5 and libnuma_1.6 arrived with 2.0.15,
 * libnuma_1.7 (numa_set_mempolicy_home_node) with 2.0.18, the release
 * that made the probe lazy. So: libnuma_1.6 without libnuma_1.7 is
 * 2.0.15-2.0.17. A distribution that backports the lazy probe alone is
 * still taken for affected: the safe side, since the global path gives
 * the job its weights either way. A library that defines no versions at
 * all cannot be placed, and is treated as affected too; so is a program
 * whose loader does not answer in time (killed, with its process group).
 *
 * Nothing is run that the exec would not run: the loader only when the
 * kernel would load it for the program (both regular, executable ELF files
 * of this machine; a script as PT_INTERP is refused by the kernel,
 * ELIBBAD), and under --dry-run nothing at all. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "error/error.h"
#include "job/elffile.h"
#include "job/libnumacheck.h"
#include "job/progload.h"

#define SCRIPT_DEPTH 4

/* What only libnuma's own code prints (numa_warn in libnuma.c, the same
 * object as the constructor): libnuma linked into a static program. */
#define LIBNUMA_MARK "libnuma: Warning: "

enum libnuma_verdict libnuma_verdict_of(const char *lib)
{
	struct elf_file ef;
	int with_1_6 = 0, with_1_7 = 0;

	if (elf_open(lib, &ef) < 0)
		return LIBNUMA_UNREADABLE;
	with_1_6 = elf_defines_version(&ef, "libnuma_1.6");
	if (with_1_6 >= 0)
		with_1_7 = elf_defines_version(&ef, "libnuma_1.7");
	elf_close(&ef);
	if (with_1_6 < 0 || with_1_7 < 0)
		return LIBNUMA_UNREADABLE;
	return with_1_6 && !with_1_7 ? LIBNUMA_DROPS : LIBNUMA_KEEPS;
}

/* Would the kernel run the file at path, as a program or as a program's
 * interpreter? A regular, executable ELF file of this machine. */
static bool kernel_runs(const char *path)
{
	struct elf_file ef;

	if (prog_file_error(path) < 0 || elf_open(path, &ef) < 0)
		return false;
	elf_close(&ef);
	return true;
}

/* A verdict without a library, and the loader (or "") in f->lib. */
static int no_lib(struct libnuma_finding *f, enum libnuma_verdict v, const char *loader)
{
	f->verdict = v;
	snprintf(f->lib, sizeof(f->lib), "%s", loader);
	return 0;
}

/* The check could not finish: why (RC, -ETIMEDOUT, -EFBIG or -errno) in
 * an error of its own, made now (the plan lets it go); NULL when out of
 * memory. */
static int unchecked(struct libnuma_finding *f, const char *loader, int rc)
{
	struct nc2_error *e = nc2_error_new();

	if (e) {
		e->libnuma = f;
		(void)error_set(e, rc == -ETIMEDOUT ? LIBNUMA_SLOW : rc == -EFBIG ?
				LIBNUMA_TOO_BIG : LIBNUMA_UNREAD,
				rc == -ETIMEDOUT || rc == -EFBIG ? 0 : rc);
	}
	f->error = e;
	return no_lib(f, LIBNUMA_UNCHECKED, loader);
}

/* A static program: libnuma built in, read in its code and constants. */
static int check_static(const struct elf_file *ef, struct libnuma_finding *f)
{
	int rc = elf_contains(ef, LIBNUMA_MARK, LIBNUMA_SCAN_MAX);

	if (rc < 0)
		return unchecked(f, "", rc);
	f->verdict = rc ? LIBNUMA_BUILT_IN : LIBNUMA_NONE;
	return 0;
}

/* A dynamic program: the libnuma its loader lists, when the loader is one
 * the exec would run (else the exec fails on it: nothing to check). */
static int check_loader(const char *loader, char *const envp[], bool run,
			struct libnuma_finding *f)
{
	int rc;

	if (!kernel_runs(loader))
		return 0;
	if (!run)
		return no_lib(f, LIBNUMA_NOT_ASKED, loader);
	rc = prog_loaded_lib(loader, f->prog, "libnuma.so", envp, f->lib, sizeof(f->lib));
	if (rc == -ETIMEDOUT || rc == -EFBIG)
		return unchecked(f, loader, rc);
	if (rc > 0)
		f->verdict = libnuma_verdict_of(f->lib);
	/* A loader that cannot be run fails the exec the same way. */
	if (rc == -ENOENT || rc == -EACCES || rc == -ENOEXEC)
		return 0;
	return rc < 0 ? rc : 0;
}

/* An ELF program: its loader's libnuma, or libnuma built in. */
static int check_elf(struct elf_file *ef, char *const envp[], bool run,
		     struct libnuma_finding *f)
{
	char loader[PATH_MAX];
	int rc = elf_interp(ef, loader, sizeof(loader));

	if (rc == -ENOENT)
		return check_static(ef, f);
	if (rc < 0)
		return 0;	/* the exec fails on it too */
	return check_loader(loader, envp, run, f);
}

/* f->prog, or the interpreter of the script it names, in its place:
 * 1 when f->prog is now an ELF program the exec would run (open in ef), 0
 * when there is nothing to look at. */
static int find_elf(struct libnuma_finding *f, char *const envp[], struct elf_file *ef)
{
	char interp[PATH_MAX];

	for (int depth = 0; depth <= SCRIPT_DEPTH; depth++) {
		if (prog_file_error(f->prog) < 0)
			return 0;
		if (elf_open(f->prog, ef) == 0)
			return 1;
		if (prog_script_interp(f->prog, envp, interp, sizeof(interp)) < 0)
			return 0;
		memcpy(f->prog, interp, sizeof(interp));
	}
	return 0;
}

static int check(const char *cmd, char *const envp[], bool run, struct libnuma_finding *f)
{
	struct elf_file ef;
	int rc;

	memset(f, 0, sizeof(*f));
	f->verdict = LIBNUMA_NONE;
	if (prog_resolve(cmd, envp, f->prog, sizeof(f->prog)) < 0 || find_elf(f, envp, &ef) <= 0)
		return 0;
	rc = check_elf(&ef, envp, run, f);
	elf_close(&ef);
	return rc;
}

int libnuma_check(const char *cmd, char *const envp[], struct libnuma_finding *f)
{
	return check(cmd, envp, true, f);
}

int libnuma_check_static(const char *cmd, char *const envp[], struct libnuma_finding *f)
{
	return check(cmd, envp, false, f);
}

unsigned nc2_libnuma_check_limit_ms(void)
{
	return prog_list_limit_ms();
}
