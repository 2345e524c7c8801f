/* Forwarding header: programs may include either <dnnl.hpp> or <oneapi/dnnl/dnnl.hpp>. */
#ifndef ANYDNN_FORWARD_DNNL_HPP
#define ANYDNN_FORWARD_DNNL_HPP
#include "oneapi/dnnl/dnnl.hpp"
#endif
