// SPDX-License-Identifier: GPL-2.0-or-later
/* The one error value every public call fills (error.h): made, set, read. */
#include <stdlib.h>

#include "error/error.h"

struct nc2_error *nc2_error_new(void)
{
	return calloc(1, sizeof(struct nc2_error));
}

void nc2_error_free(struct nc2_error *e)
{
	free(e);
}

void error_clear(struct nc2_error *e)
{
	e->fault = NC2_OK;
	e->err = 0;
	e->node = e->value = e->count = 0;
	e->mode = 0;
	e->thread = 0;
	e->name = e->call = e->option = NULL;
	e->libnuma = NULL;
}

int error_set(struct nc2_error *e, enum nc2_fault fault, int err)
{
	e->fault = fault;
	e->err = err < 0 ? -err : err;
	return -1;
}

int error_set_node(struct nc2_error *e, enum nc2_fault fault, int err, unsigned node)
{
	e->node = node;
	return error_set(e, fault, err);
}

int error_set_name(struct nc2_error *e, enum nc2_fault fault, int err, const char *name)
{
	e->name = name;
	return error_set(e, fault, err);
}

int error_set_call(struct nc2_error *e, const char *call, int err)
{
	e->call = call;
	return error_set(e, NC2_CALL, err);
}

enum nc2_fault nc2_error_fault(const struct nc2_error *e)
{
	return e->fault;
}

int nc2_error_errno(const struct nc2_error *e)
{
	return e->err;
}

unsigned nc2_error_node(const struct nc2_error *e)
{
	return e->node;
}

unsigned nc2_error_value(const struct nc2_error *e)
{
	return e->value;
}

unsigned nc2_error_count(const struct nc2_error *e)
{
	return e->count;
}

int nc2_error_mode(const struct nc2_error *e)
{
	return e->mode;
}

pid_t nc2_error_thread(const struct nc2_error *e)
{
	return e->thread;
}

const char *nc2_error_name(const struct nc2_error *e)
{
	return e->name;
}

const char *nc2_error_call(const struct nc2_error *e)
{
	return e->call;
}

const char *nc2_error_option(const struct nc2_error *e)
{
	return e->option;
}

const struct parse_err *nc2_error_parse(const struct nc2_error *e)
{
	return &e->parse;
}

const char *nc2_error_libnuma_said(const struct nc2_error *e)
{
	return e->libnuma_said;
}

const struct table_said *nc2_error_table(const struct nc2_error *e)
{
	return &e->table;
}

const struct owner_refused *nc2_error_owner(const struct nc2_error *e)
{
	return &e->owner;
}

const struct libnuma_finding *nc2_error_libnuma(const struct nc2_error *e)
{
	return e->libnuma;
}

const struct migrate_result *nc2_error_moved(const struct nc2_error *e)
{
	return &e->moved;
}

bool nc2_error_is_usage(const struct nc2_error *e)
{
	switch (e->fault) {
	case REQ_WEIGHT_LIST:
	case REQ_WEIGHT_NOT_IN_SET:
	case REQ_AUTO_TOO_MANY:
	case REQ_AUTO_BUDGET:
	case REQ_BUDGET_BELOW_NODES:
	case REQ_NODE_LIST:
	case REQ_NODE_ABSENT:
	case REQ_NODE_SYNTAX:
	case REQ_WEIGHTS_NEED_INTERLEAVE:
	case REQ_BUDGET_NEEDS_AUTO:
	case REQ_BUDGET_INVALID:
	case REQ_FORCE_WITH_WAIT:
	case REQ_WAIT_INVALID:
	case REQ_MEASURE_TOO_MANY:
		return true;
	default:
		return false;
	}
}
