// Experimental stream profiling (DNNL_EXPERIMENTAL_PROFILING). Only streams of device
// engines collect timestamps; the CPU stream has none to report.
#ifndef DNNL_EXPERIMENTAL_PROFILING
#define DNNL_EXPERIMENTAL_PROFILING
#endif

#include "api/api.hpp"
#include "core/stream.hpp"

using namespace anydnn;

extern "C" {

DNNL_API dnnl_status_t dnnl_reset_profiling(dnnl_stream_t stream) {
    ANYDNN_REQUIRE_LIVE(stream, stream);
    return fail(dnnl_unimplemented, __func__, "profiling is not available on %s streams",
            dnnl_engine_kind2str(stream->engine()->kind()));
}

DNNL_API dnnl_status_t dnnl_query_profiling_data(dnnl_stream_t stream,
        dnnl_profiling_data_kind_t data_kind, int *num_entries, uint64_t *data) {
    ANYDNN_REQUIRE_LIVE(stream, stream);
    ANYDNN_REQUIRE_NOT_NULL(num_entries);
    ANYDNN_REQUIRE(data_kind == dnnl_profiling_data_kind_time, dnnl_invalid_arguments,
            "unknown profiling data kind %d", static_cast<int>(data_kind));
    return fail(dnnl_unimplemented, __func__, "profiling is not available on %s streams",
            dnnl_engine_kind2str(stream->engine()->kind()));
}

} // extern "C"
