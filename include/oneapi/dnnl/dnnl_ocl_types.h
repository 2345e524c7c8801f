/* anydnn: types of the OpenCL interoperability API (oneDNN v3.13 compatible). */
#ifndef ONEAPI_DNNL_DNNL_OCL_TYPES_H
#define ONEAPI_DNNL_DNNL_OCL_TYPES_H

#ifdef __cplusplus
extern "C" {
#endif

/** How the memory of an OpenCL engine is held: a USM pointer (Intel USM, or SVM on devices
 *  without it) or a cl_mem buffer (the default). */
typedef enum {
    dnnl_ocl_interop_usm,
    dnnl_ocl_interop_buffer,
} dnnl_ocl_interop_memory_kind_t;

#ifdef __cplusplus
}
#endif

#endif /* ONEAPI_DNNL_DNNL_OCL_TYPES_H */
