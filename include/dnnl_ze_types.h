/* Forwarding header: programs may include either <dnnl_ze_types.h> or <oneapi/dnnl/dnnl_ze_types.h>. */
#ifndef ANYDNN_FORWARD_DNNL_ZE_TYPES_H
#define ANYDNN_FORWARD_DNNL_ZE_TYPES_H
#include "oneapi/dnnl/dnnl_ze_types.h"
#endif
