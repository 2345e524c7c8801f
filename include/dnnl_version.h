/* Forwarding header: programs may include either <dnnl_version.h> or <oneapi/dnnl/dnnl_version.h>. */
#ifndef ANYDNN_FORWARD_DNNL_VERSION_H
#define ANYDNN_FORWARD_DNNL_VERSION_H
#include "oneapi/dnnl/dnnl_version.h"
#endif
