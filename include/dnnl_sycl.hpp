/* Forwarding header: programs may include either <dnnl_sycl.hpp> or <oneapi/dnnl/dnnl_sycl.hpp>. */
#ifndef ANYDNN_FORWARD_DNNL_SYCL_HPP
#define ANYDNN_FORWARD_DNNL_SYCL_HPP
#include "oneapi/dnnl/dnnl_sycl.hpp"
#endif
