/* Forwarding header: programs may include either <dnnl_sycl_types.h> or <oneapi/dnnl/dnnl_sycl_types.h>. */
#ifndef ANYDNN_FORWARD_DNNL_SYCL_TYPES_H
#define ANYDNN_FORWARD_DNNL_SYCL_TYPES_H
#include "oneapi/dnnl/dnnl_sycl_types.h"
#endif
