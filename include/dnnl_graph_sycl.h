/* Forwarding header: programs may include either <dnnl_graph_sycl.h> or <oneapi/dnnl/dnnl_graph_sycl.h>. */
#ifndef ANYDNN_FORWARD_DNNL_GRAPH_SYCL_H
#define ANYDNN_FORWARD_DNNL_GRAPH_SYCL_H
#include "oneapi/dnnl/dnnl_graph_sycl.h"
#endif
