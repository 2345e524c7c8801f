/* Forwarding header: programs may include either <dnnl_threadpool.h> or <oneapi/dnnl/dnnl_threadpool.h>. */
#ifndef ANYDNN_FORWARD_DNNL_THREADPOOL_H
#define ANYDNN_FORWARD_DNNL_THREADPOOL_H
#include "oneapi/dnnl/dnnl_threadpool.h"
#endif
