/* Forwarding header: programs may include either <dnnl_threadpool.hpp> or <oneapi/dnnl/dnnl_threadpool.hpp>. */
#ifndef ANYDNN_FORWARD_DNNL_THREADPOOL_HPP
#define ANYDNN_FORWARD_DNNL_THREADPOOL_HPP
#include "oneapi/dnnl/dnnl_threadpool.hpp"
#endif
