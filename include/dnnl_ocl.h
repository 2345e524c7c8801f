/* Forwarding header: programs may include either <dnnl_ocl.h> or <oneapi/dnnl/dnnl_ocl.h>. */
#ifndef ANYDNN_FORWARD_DNNL_OCL_H
#define ANYDNN_FORWARD_DNNL_OCL_H
#include "oneapi/dnnl/dnnl_ocl.h"
#endif
