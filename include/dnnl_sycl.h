/* Forwarding header: programs may include either <dnnl_sycl.h> or <oneapi/dnnl/dnnl_sycl.h>. */
#ifndef ANYDNN_FORWARD_DNNL_SYCL_H
#define ANYDNN_FORWARD_DNNL_SYCL_H
#include "oneapi/dnnl/dnnl_sycl.h"
#endif
