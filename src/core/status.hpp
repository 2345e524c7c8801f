// Internal status handling: early-return macros and the verbose reason that goes with a failure.
#pragma once

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_debug.h"

namespace anydnn {

using status_t = dnnl_status_t;

// Records why a call failed (printed when verbose level includes "error").
status_t fail(status_t status, const char *where, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));

} // namespace anydnn

#define ANYDNN_CHECK(expr) \
    do { \
        anydnn::status_t check_status_ = (expr); \
        if (check_status_ != dnnl_success) return check_status_; \
    } while (0)

// Returns `status` from the current function with a one-line reason when `cond` fails.
#define ANYDNN_REQUIRE(cond, status, ...) \
    do { \
        if (!(cond)) return anydnn::fail((status), __func__, __VA_ARGS__); \
    } while (0)
