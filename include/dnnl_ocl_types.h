/* Forwarding header: programs may include either <dnnl_ocl_types.h> or <oneapi/dnnl/dnnl_ocl_types.h>. */
#ifndef ANYDNN_FORWARD_DNNL_OCL_TYPES_H
#define ANYDNN_FORWARD_DNNL_OCL_TYPES_H
#include "oneapi/dnnl/dnnl_ocl_types.h"
#endif
