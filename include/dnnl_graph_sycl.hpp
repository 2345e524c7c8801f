/* Forwarding header: programs may include either <dnnl_graph_sycl.hpp> or <oneapi/dnnl/dnnl_graph_sycl.hpp>. */
#ifndef ANYDNN_FORWARD_DNNL_GRAPH_SYCL_HPP
#define ANYDNN_FORWARD_DNNL_GRAPH_SYCL_HPP
#include "oneapi/dnnl/dnnl_graph_sycl.hpp"
#endif
