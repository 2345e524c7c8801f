// dnnl_stream_* entry points.
#include "api/api.hpp"
#include "core/stream.hpp"

using namespace anydnn;

extern "C" {

DNNL_API dnnl_status_t dnnl_stream_create(
        dnnl_stream_t *stream, dnnl_engine_t engine, unsigned flags) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(stream);
        ANYDNN_REQUIRE_LIVE(engine, engine);
        const unsigned known = dnnl_stream_in_order | dnnl_stream_out_of_order
#ifdef DNNL_EXPERIMENTAL_PROFILING
                | dnnl_stream_profiling
#endif
                ;
        ANYDNN_REQUIRE((flags & ~known) == 0, dnnl_invalid_arguments,
                "unknown stream flags 0x%x", flags);
        ANYDNN_REQUIRE(!((flags & dnnl_stream_in_order) && (flags & dnnl_stream_out_of_order)),
                dnnl_invalid_arguments, "a stream cannot be both in-order and out-of-order");
        if ((flags & (dnnl_stream_in_order | dnnl_stream_out_of_order)) == 0)
            flags |= dnnl_stream_in_order;
        dnnl_stream *s = nullptr;
        ANYDNN_CHECK(engine->create_stream(&s, flags));
        registry_add(object_kind::stream, s);
        *stream = s;
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_stream_get_engine(
        const_dnnl_stream_t stream, dnnl_engine_t *engine) {
    ANYDNN_REQUIRE_LIVE(stream, stream);
    ANYDNN_REQUIRE_NOT_NULL(engine);
    *engine = stream->engine();
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_stream_wait(dnnl_stream_t stream) {
    ANYDNN_REQUIRE_LIVE(stream, stream);
    return stream->wait();
}

DNNL_API dnnl_status_t dnnl_stream_destroy(dnnl_stream_t stream) {
    if (!stream) return dnnl_success;
    ANYDNN_REQUIRE_LIVE(stream, stream);
    registry_remove(object_kind::stream, stream);
    delete stream;
    return dnnl_success;
}

} // extern "C"
