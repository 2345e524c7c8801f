/* Forwarding header: programs may include either <dnnl_ze.hpp> or <oneapi/dnnl/dnnl_ze.hpp>. */
#ifndef ANYDNN_FORWARD_DNNL_ZE_HPP
#define ANYDNN_FORWARD_DNNL_ZE_HPP
#include "oneapi/dnnl/dnnl_ze.hpp"
#endif
