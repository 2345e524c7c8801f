/* Forwarding header: programs may include either <dnnl_graph.hpp> or <oneapi/dnnl/dnnl_graph.hpp>. */
#ifndef ANYDNN_FORWARD_DNNL_GRAPH_HPP
#define ANYDNN_FORWARD_DNNL_GRAPH_HPP
#include "oneapi/dnnl/dnnl_graph.hpp"
#endif
