// SPDX-License-Identifier: GPL-2.0-or-later
/* The global table as a front end shows it (--show, --dry-run, --hardware):
 * read once, so that no front end opens the table's files itself. */
#include <errno.h>
#include <stdlib.h>

#include "libnumactl2.h"
#include "weights/table.h"
#include "weights/view.h"

/* Each node's weight, -1 where the table has no file for it. */
static int read_weights(struct weights_view *v)
{
	bool *has = calloc(v->nnodes ? v->nnodes : 1, sizeof(*has));

	v->weight = malloc((v->nnodes ? v->nnodes : 1) * sizeof(*v->weight));
	if (!has || !v->weight) {
		free(has);
		return -ENOMEM;
	}
	(void)gw_nodes(has, v->nnodes);
	for (unsigned n = 0; n < v->nnodes; n++) {
		unsigned w;

		v->weight[n] = has[n] && gw_read(n, &w) == 0 ? (int)w : -1;
	}
	free(has);
	return 0;
}

int weights_view_read(struct weights_view *v)
{
	*v = (struct weights_view){ .present = gw_present(), .nnodes = gw_node_count() };
	v->mode = gw_read_auto();
	if (read_weights(v) < 0) {
		weights_view_free(v);
		return -ENOMEM;
	}
	return 0;
}

int weights_view_weight(const struct weights_view *v, unsigned node)
{
	return node < v->nnodes ? v->weight[node] : -1;
}

void weights_view_free(struct weights_view *v)
{
	free(v->weight);
	v->weight = NULL;
}
