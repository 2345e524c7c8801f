/* Forwarding header: programs may include either <dnnl.h> or <oneapi/dnnl/dnnl.h>. */
#ifndef ANYDNN_FORWARD_DNNL_H
#define ANYDNN_FORWARD_DNNL_H
#include "oneapi/dnnl/dnnl.h"
#endif
