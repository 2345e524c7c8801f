/* Forwarding header: programs may include either <dnnl_debug.h> or <oneapi/dnnl/dnnl_debug.h>. */
#ifndef ANYDNN_FORWARD_DNNL_DEBUG_H
#define ANYDNN_FORWARD_DNNL_DEBUG_H
#include "oneapi/dnnl/dnnl_debug.h"
#endif
