/* Forwarding header: programs may include either <dnnl_graph.h> or <oneapi/dnnl/dnnl_graph.h>. */
#ifndef ANYDNN_FORWARD_DNNL_GRAPH_H
#define ANYDNN_FORWARD_DNNL_GRAPH_H
#include "oneapi/dnnl/dnnl_graph.h"
#endif
