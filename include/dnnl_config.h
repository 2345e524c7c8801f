/* Forwarding header: programs may include either <dnnl_config.h> or <oneapi/dnnl/dnnl_config.h>. */
#ifndef ANYDNN_FORWARD_DNNL_CONFIG_H
#define ANYDNN_FORWARD_DNNL_CONFIG_H
#include "oneapi/dnnl/dnnl_config.h"
#endif
