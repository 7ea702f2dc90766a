/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Everything one numactl2 run was asked to do, filled by cli_parse(). */
#ifndef NUMACTL2_CTL_H
#define NUMACTL2_CTL_H

#include <stdbool.h>
#include <sys/types.h>

#include "libnumactl2.h"
#include "parse.h"

enum global_op { GLOBAL_NONE, GLOBAL_SET, GLOBAL_RESET, GLOBAL_AUTO };
enum shm_action { SHM_TOUCH = 'T', SHM_DUMP = 'd', SHM_DUMP_NODES = 'D', SHM_VERIFY = 'V' };

struct ctl {
	struct policy policy;
	bool all;			/* -a: nodes outside the cpuset allowed */
	bool weighted;			/* -w, or --weights with --interleave */
	bool balancing;			/* -b */
	struct bitmask *cpunodes;	/* -N */
	struct bitmask *cpus;		/* -C */
	bool show, json, hardware, cpu_compress, dry_run, no_global, global_forced;
	bool use_shm, strict;
	bool force, wait, restore;	/* --force, --wait, --restore-weights */
	bool keep_weights;		/* --keep-weights */
	unsigned wait_secs;		/* --wait=SECONDS; 0: no limit */
	struct shm_region shm;
	char shm_actions[16];		/* --touch/--dump/--dump-nodes/--verify, in order */
	bool verify_failed;		/* --verify found a page out of place: exit 1 */
	enum global_op global_op;
	const char *weights_arg;	/* --weights */
	const char *budget_arg;		/* --weight-budget */
	const char *global_arg;		/* --set-global-weights */
	struct weight_list weights;
	enum report_format report;	/* --report[=json] */
	const char *report_file;	/* --report-file */
	bool measure;			/* --measure */
	unsigned long long measure_size; /* --measure-size; 0: the default (the request's) */
	unsigned measure_secs;		/* --measure-time; 0: the default (the request's) */
	struct bitmask *measure_nodes;	/* what --measure measures */
	pid_t pid;			/* --pid; 0: none */
	bool migrate;			/* --migrate: --pid moves the pages too */
	char **command;			/* NULL when none */
	char **env;			/* main()'s envp, where the command is found and run */
	struct request req;		/* what the library is asked, filled through its
					 * setters (cmdline.c, check.c, prepare.c) */
	struct plan *plan;		/* what it resolved that into (cli_prepare()) */
	struct nc2_error *error;	/* why a call of the library failed (main) */
	const char *bare_optional;	/* "wait" for "--wait CMD": an optional
					 * argument may be meant as CMD */
};

#endif
