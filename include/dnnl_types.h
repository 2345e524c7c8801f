/* Forwarding header: programs may include either <dnnl_types.h> or <oneapi/dnnl/dnnl_types.h>. */
#ifndef ANYDNN_FORWARD_DNNL_TYPES_H
#define ANYDNN_FORWARD_DNNL_TYPES_H
#include "oneapi/dnnl/dnnl_types.h"
#endif
