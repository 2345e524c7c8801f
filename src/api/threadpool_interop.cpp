// dnnl_threadpool_interop_*: CPU streams and BLAS-like products on the application's
// threadpool (core/threadpool.hpp); the kernels are the ones OpenMP runs.
#include "api/api.hpp"
#include "core/parallel.hpp"
#include "core/threadpool.hpp"
#include "oneapi/dnnl/dnnl_threadpool.h"
#include "runtime/cpu/cpu_engine.hpp"

using namespace anydnn;

extern "C" {

DNNL_API dnnl_status_t dnnl_threadpool_interop_stream_create(
        dnnl_stream_t *stream, dnnl_engine_t engine, void *threadpool) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(stream);
        ANYDNN_REQUIRE_LIVE(engine, engine);
        ANYDNN_REQUIRE(engine->runtime() == runtime_kind_t::cpu, dnnl_invalid_arguments,
                "a threadpool stream needs a CPU engine");
        dnnl_stream *s = new cpu::cpu_stream_t(
                engine, dnnl_stream_in_order, static_cast<threadpool_t *>(threadpool));
        registry_add(object_kind::stream, s);
        *stream = s;
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_threadpool_interop_stream_get_threadpool(
        dnnl_stream_t astream, void **threadpool) {
    ANYDNN_REQUIRE_LIVE(stream, astream);
    ANYDNN_REQUIRE_NOT_NULL(threadpool);
    ANYDNN_REQUIRE(astream->engine()->runtime() == runtime_kind_t::cpu, dnnl_invalid_arguments,
            "the stream is not a CPU stream");
    *threadpool = static_cast<cpu::cpu_stream_t *>(astream)->threadpool();
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_threadpool_interop_set_max_concurrency(int max_concurrency) {
    ANYDNN_REQUIRE(max_concurrency >= 1, dnnl_invalid_arguments,
            "max concurrency %d is below 1", max_concurrency);
    set_thread_max_concurrency(max_concurrency);
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_threadpool_interop_get_max_concurrency(int *max_concurrency) {
    ANYDNN_REQUIRE_NOT_NULL(max_concurrency);
    *max_concurrency = max_threads();
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_threadpool_interop_sgemm(char transa, char transb, dnnl_dim_t M,
        dnnl_dim_t N, dnnl_dim_t K, float alpha, const float *A, dnnl_dim_t lda,
        const float *B, dnnl_dim_t ldb, float beta, float *C, dnnl_dim_t ldc,
        void *threadpool) {
    threadpool_scope_t scope(static_cast<threadpool_t *>(threadpool));
    return dnnl_sgemm(transa, transb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

DNNL_API dnnl_status_t dnnl_threadpool_interop_gemm_u8s8s32(char transa, char transb,
        char offsetc, dnnl_dim_t M, dnnl_dim_t N, dnnl_dim_t K, float alpha, const uint8_t *A,
        dnnl_dim_t lda, uint8_t ao, const int8_t *B, dnnl_dim_t ldb, int8_t bo, float beta,
        int32_t *C, dnnl_dim_t ldc, const int32_t *co, void *threadpool) {
    threadpool_scope_t scope(static_cast<threadpool_t *>(threadpool));
    return dnnl_gemm_u8s8s32(
            transa, transb, offsetc, M, N, K, alpha, A, lda, ao, B, ldb, bo, beta, C, ldc, co);
}

DNNL_API dnnl_status_t dnnl_threadpool_interop_gemm_s8s8s32(char transa, char transb,
        char offsetc, dnnl_dim_t M, dnnl_dim_t N, dnnl_dim_t K, float alpha, const int8_t *A,
        dnnl_dim_t lda, int8_t ao, const int8_t *B, dnnl_dim_t ldb, int8_t bo, float beta,
        int32_t *C, dnnl_dim_t ldc, const int32_t *co, void *threadpool) {
    threadpool_scope_t scope(static_cast<threadpool_t *>(threadpool));
    return dnnl_gemm_s8s8s32(
            transa, transb, offsetc, M, N, K, alpha, A, lda, ao, B, ldb, bo, beta, C, ldc, co);
}

} // extern "C"
