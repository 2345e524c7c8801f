/* Forwarding header: programs may include either <dnnl_graph_ocl.hpp> or <oneapi/dnnl/dnnl_graph_ocl.hpp>. */
#ifndef ANYDNN_FORWARD_DNNL_GRAPH_OCL_HPP
#define ANYDNN_FORWARD_DNNL_GRAPH_OCL_HPP
#include "oneapi/dnnl/dnnl_graph_ocl.hpp"
#endif
