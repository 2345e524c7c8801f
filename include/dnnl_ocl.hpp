/* Forwarding header: programs may include either <dnnl_ocl.hpp> or <oneapi/dnnl/dnnl_ocl.hpp>. */
#ifndef ANYDNN_FORWARD_DNNL_OCL_HPP
#define ANYDNN_FORWARD_DNNL_OCL_HPP
#include "oneapi/dnnl/dnnl_ocl.hpp"
#endif
