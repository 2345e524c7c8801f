/* anydnn: types of the Level Zero interoperability API (oneDNN v3.13 compatible).
 *
 * The API takes Level Zero's own handle types (driver, device, context, command list,
 * event); they come from the Level Zero headers (Debian: libze-dev). Level Zero memory is
 * USM only, so unlike OpenCL there is no memory-kind enumeration. */
#ifndef ONEAPI_DNNL_DNNL_ZE_TYPES_H
#define ONEAPI_DNNL_DNNL_ZE_TYPES_H

#include "level_zero/ze_api.h"

#endif /* ONEAPI_DNNL_DNNL_ZE_TYPES_H */
