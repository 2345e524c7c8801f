/* Forwarding header: programs may include either <dnnl_graph_types.h> or <oneapi/dnnl/dnnl_graph_types.h>. */
#ifndef ANYDNN_FORWARD_DNNL_GRAPH_TYPES_H
#define ANYDNN_FORWARD_DNNL_GRAPH_TYPES_H
#include "oneapi/dnnl/dnnl_graph_types.h"
#endif
