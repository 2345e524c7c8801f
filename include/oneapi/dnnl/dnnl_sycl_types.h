/* anydnn: types of the SYCL interoperability API (oneDNN v3.13 compatible). */
#ifndef ONEAPI_DNNL_DNNL_SYCL_TYPES_H
#define ONEAPI_DNNL_DNNL_SYCL_TYPES_H

#ifdef __cplusplus
extern "C" {
#endif

/** How the memory of a SYCL engine is held: a USM pointer (the default) or a
 *  sycl::buffer<uint8_t, 1>. */
typedef enum {
    dnnl_sycl_interop_usm,
    dnnl_sycl_interop_buffer,
} dnnl_sycl_interop_memory_kind_t;

#ifdef __cplusplus
}
#endif

#endif /* ONEAPI_DNNL_DNNL_SYCL_TYPES_H */
