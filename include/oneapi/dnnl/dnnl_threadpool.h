/* anydnn: threadpool interoperability C API (oneDNN v3.13 compatible).
 *
 * CPU streams whose primitives run their parallel work on the application's threadpool (an
 * object implementing dnnl::threadpool_interop::threadpool_iface), and BLAS-like products on
 * such a threadpool. The library is built with OpenMP: streams made without a threadpool,
 * and calls with a null threadpool, keep using OpenMP threads. */
#ifndef ONEAPI_DNNL_DNNL_THREADPOOL_H
#define ONEAPI_DNNL_DNNL_THREADPOOL_H

#include "oneapi/dnnl/dnnl_config.h"
#include "oneapi/dnnl/dnnl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An in-order stream of CPU `engine` whose primitives use `threadpool` (a
 *  threadpool_iface *, not owned: it must outlive the stream; null: OpenMP threads). */
dnnl_status_t DNNL_API dnnl_threadpool_interop_stream_create(
        dnnl_stream_t *stream, dnnl_engine_t engine, void *threadpool);

/** The threadpool `astream` was made with (null for a CPU stream made without one). */
dnnl_status_t DNNL_API dnnl_threadpool_interop_stream_get_threadpool(
        dnnl_stream_t astream, void **threadpool);

/** The number of threads primitives created by the calling thread plan for, outside any
 *  threadpool call (a setting of the calling thread; at least 1). */
dnnl_status_t DNNL_API dnnl_threadpool_interop_set_max_concurrency(int max_concurrency);

/** The calling thread's setting above (its default: the OpenMP thread count). */
dnnl_status_t DNNL_API dnnl_threadpool_interop_get_max_concurrency(int *max_concurrency);

/** dnnl_sgemm with its parallel work on `threadpool`. */
dnnl_status_t DNNL_API dnnl_threadpool_interop_sgemm(char transa, char transb, dnnl_dim_t M,
        dnnl_dim_t N, dnnl_dim_t K, float alpha, const float *A, dnnl_dim_t lda,
        const float *B, dnnl_dim_t ldb, float beta, float *C, dnnl_dim_t ldc,
        void *threadpool);

/** dnnl_gemm_u8s8s32 with its parallel work on `threadpool`. */
dnnl_status_t DNNL_API dnnl_threadpool_interop_gemm_u8s8s32(char transa, char transb,
        char offsetc, dnnl_dim_t M, dnnl_dim_t N, dnnl_dim_t K, float alpha, const uint8_t *A,
        dnnl_dim_t lda, uint8_t ao, const int8_t *B, dnnl_dim_t ldb, int8_t bo, float beta,
        int32_t *C, dnnl_dim_t ldc, const int32_t *co, void *threadpool);

/** dnnl_gemm_s8s8s32 with its parallel work on `threadpool`. */
dnnl_status_t DNNL_API dnnl_threadpool_interop_gemm_s8s8s32(char transa, char transb,
        char offsetc, dnnl_dim_t M, dnnl_dim_t N, dnnl_dim_t K, float alpha, const int8_t *A,
        dnnl_dim_t lda, int8_t ao, const int8_t *B, dnnl_dim_t ldb, int8_t bo, float beta,
        int32_t *C, dnnl_dim_t ldc, const int32_t *co, void *threadpool);

#ifdef __cplusplus
}
#endif

#endif
