/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --report-file: the one file a report may be written to, opened so that
 * no name another user made or a kernel interface can stand in for it. */
#ifndef NUMACTL2_REPORTFILE_H
#define NUMACTL2_REPORTFILE_H

/* PATH opened for writing (created 0666 if absent, not truncated) with no
 * symbolic link anywhere on it: a descriptor, or -ELOOP (a link on the
 * path), -EINVAL (not a regular file), -EMLINK (more than one link), -EPERM
 * (another user's), -EXDEV (on a kernel pseudo-filesystem: procfs, sysfs,
 * cgroupfs, debugfs...), or the open's -errno. */
int report_file_open(const char *path);

#endif
