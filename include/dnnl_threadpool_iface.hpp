/* Forwarding header: programs may include either <dnnl_threadpool_iface.hpp> or <oneapi/dnnl/dnnl_threadpool_iface.hpp>. */
#ifndef ANYDNN_FORWARD_DNNL_THREADPOOL_IFACE_HPP
#define ANYDNN_FORWARD_DNNL_THREADPOOL_IFACE_HPP
#include "oneapi/dnnl/dnnl_threadpool_iface.hpp"
#endif
