/* Forwarding header: programs may include either <dnnl_graph_ocl.h> or <oneapi/dnnl/dnnl_graph_ocl.h>. */
#ifndef ANYDNN_FORWARD_DNNL_GRAPH_OCL_H
#define ANYDNN_FORWARD_DNNL_GRAPH_OCL_H
#include "oneapi/dnnl/dnnl_graph_ocl.h"
#endif
