/* Forwarding header: programs may include either <dnnl_ze.h> or <oneapi/dnnl/dnnl_ze.h>. */
#ifndef ANYDNN_FORWARD_DNNL_ZE_H
#define ANYDNN_FORWARD_DNNL_ZE_H
#include "oneapi/dnnl/dnnl_ze.h"
#endif
