// Every dnnl_ocl_interop_* function on the application's own OpenCL objects: ownership
// (reference counts before = after), buffers and USM on one primitive, sharing a queue and a
// buffer with the application's kernel, events on out-of-order queues, and bad input.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "interop/ocl_fixture.hpp"
#include "oneapi/dnnl/dnnl_ocl.hpp"

namespace interop_test {
namespace {

constexpr int n = 1000;

dnnl_memory_desc_t vector_md() { return interop_test::vector_md(n); }

// relu with negative slope 0.5 on `md`.
dnnl_primitive_t make_relu(dnnl_engine_t engine, const_dnnl_memory_desc_t md) {
    return make_leaky_relu(engine, md, 0.5f);
}

float relu(float x) { return x > 0 ? x : 0.5f * x; }
float input(int i) { return static_cast<float>(i % 37) - 18.25f; }

using ocl_interop = ocl_app_t;

TEST_F(ocl_interop, engine_keeps_device_and_context) {
    dnnl_engine_t e = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_engine_create(&e, device, context), dnnl_success);
    EXPECT_GT(ref_count(context), ctx_refs); // retained while the engine lives
    cl_context c = nullptr;
    cl_device_id d = nullptr;
    EXPECT_EQ(dnnl_ocl_interop_engine_get_context(e, &c), dnnl_success);
    EXPECT_EQ(dnnl_ocl_interop_get_device(e, &d), dnnl_success);
    EXPECT_EQ(c, context);
    EXPECT_EQ(d, device);
    dnnl_engine_kind_t kind;
    EXPECT_EQ(dnnl_engine_get_kind(e, &kind), dnnl_success);
    EXPECT_EQ(kind, dnnl_gpu);
    EXPECT_EQ(dnnl_engine_destroy(e), dnnl_success);
}

TEST_F(ocl_interop, stream_wraps_the_queue) {
    dnnl_engine_t e = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_engine_create(&e, device, context), dnnl_success);
    dnnl_stream_t s = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_stream_create(&s, e, queue), dnnl_success);
    EXPECT_EQ(ref_count(queue), queue_refs + 1);
    cl_command_queue q = nullptr;
    EXPECT_EQ(dnnl_ocl_interop_stream_get_command_queue(s, &q), dnnl_success);
    EXPECT_EQ(q, queue);
    EXPECT_EQ(ref_count(queue), queue_refs + 1); // getters do not retain
    EXPECT_EQ(dnnl_stream_wait(s), dnnl_success);
    EXPECT_EQ(dnnl_stream_destroy(s), dnnl_success);
    EXPECT_EQ(dnnl_engine_destroy(e), dnnl_success);
}

TEST_F(ocl_interop, buffer_memory_retains_and_swaps_mem_objects) {
    dnnl_engine_t e = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_engine_create(&e, device, context), dnnl_success);
    dnnl_memory_desc_t md = vector_md();
    cl_mem a = buffer(n * sizeof(float)), b = buffer(n * sizeof(float));
    const cl_uint a_refs = ref_count(a), b_refs = ref_count(b);
    dnnl_memory_t m = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_memory_create(&m, md, e, dnnl_ocl_interop_buffer, a),
            dnnl_success);
    EXPECT_EQ(ref_count(a), a_refs + 1);
    dnnl_ocl_interop_memory_kind_t kind;
    EXPECT_EQ(dnnl_ocl_interop_memory_get_memory_kind(m, &kind), dnnl_success);
    EXPECT_EQ(kind, dnnl_ocl_interop_buffer);
    cl_mem got = nullptr;
    EXPECT_EQ(dnnl_ocl_interop_memory_get_mem_object(m, &got), dnnl_success);
    EXPECT_EQ(got, a);
    EXPECT_EQ(dnnl_ocl_interop_memory_set_mem_object(m, b), dnnl_success);
    EXPECT_EQ(ref_count(a), a_refs);
    EXPECT_EQ(ref_count(b), b_refs + 1);
    void *handle = nullptr;
    EXPECT_EQ(dnnl_memory_get_data_handle(m, &handle), dnnl_success);
    EXPECT_EQ(handle, static_cast<void *>(b));
    EXPECT_EQ(dnnl_memory_destroy(m), dnnl_success);
    EXPECT_EQ(ref_count(b), b_refs);

    // dnnl_memory_create on an OpenCL engine makes buffer memory too.
    ASSERT_EQ(dnnl_memory_create(&m, md, e, DNNL_MEMORY_ALLOCATE), dnnl_success);
    EXPECT_EQ(dnnl_ocl_interop_memory_get_memory_kind(m, &kind), dnnl_success);
    EXPECT_EQ(kind, dnnl_ocl_interop_buffer);
    EXPECT_EQ(dnnl_ocl_interop_memory_get_mem_object(m, &got), dnnl_success);
    EXPECT_NE(got, nullptr);
    EXPECT_EQ(dnnl_memory_destroy(m), dnnl_success);

    clReleaseMemObject(a);
    clReleaseMemObject(b);
    dnnl_memory_desc_destroy(md);
    EXPECT_EQ(dnnl_engine_destroy(e), dnnl_success);
}

TEST_F(ocl_interop, usm_and_buffer_memory_on_one_primitive) {
    dnnl_engine_t e = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_engine_create(&e, device, context), dnnl_success);
    dnnl_memory_desc_t md = vector_md();
    dnnl_memory_t usm = nullptr, buf = nullptr;
    dnnl_status_t st = dnnl_ocl_interop_memory_create(
            &usm, md, e, dnnl_ocl_interop_usm, DNNL_MEMORY_ALLOCATE);
    if (st != dnnl_success) {
        dnnl_memory_desc_destroy(md);
        dnnl_engine_destroy(e);
        GTEST_SKIP() << "the device has neither Intel USM nor SVM";
    }
    dnnl_ocl_interop_memory_kind_t kind;
    EXPECT_EQ(dnnl_ocl_interop_memory_get_memory_kind(usm, &kind), dnnl_success);
    EXPECT_EQ(kind, dnnl_ocl_interop_usm);
    cl_mem none = reinterpret_cast<cl_mem>(1);
    EXPECT_EQ(dnnl_ocl_interop_memory_get_mem_object(usm, &none), dnnl_success);
    EXPECT_EQ(none, nullptr);
    EXPECT_EQ(dnnl_ocl_interop_memory_set_mem_object(usm, nullptr), dnnl_invalid_arguments);
    ASSERT_EQ(dnnl_ocl_interop_memory_create(&buf, md, e, dnnl_ocl_interop_buffer,
                      DNNL_MEMORY_ALLOCATE),
            dnnl_success);

    float *p = nullptr;
    ASSERT_EQ(dnnl_memory_map_data(usm, reinterpret_cast<void **>(&p)), dnnl_success);
    for (int i = 0; i < n; ++i) p[i] = input(i);
    ASSERT_EQ(dnnl_memory_unmap_data(usm, p), dnnl_success);

    dnnl_stream_t s = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_stream_create(&s, e, queue), dnnl_success);
    dnnl_primitive_t prim = make_relu(e, md);
    // USM in, buffer out; then buffer in, USM out.
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, usm}, {DNNL_ARG_DST, buf}};
    ASSERT_EQ(dnnl_primitive_execute(prim, s, 2, args), dnnl_success);
    dnnl_exec_arg_t back[] = {{DNNL_ARG_SRC, buf}, {DNNL_ARG_DST, usm}};
    ASSERT_EQ(dnnl_primitive_execute(prim, s, 2, back), dnnl_success);
    ASSERT_EQ(dnnl_stream_wait(s), dnnl_success);

    ASSERT_EQ(dnnl_memory_map_data(usm, reinterpret_cast<void **>(&p)), dnnl_success);
    for (int i = 0; i < n; ++i) ASSERT_EQ(p[i], relu(relu(input(i)))) << i;
    ASSERT_EQ(dnnl_memory_unmap_data(usm, p), dnnl_success);

    dnnl_primitive_destroy(prim);
    dnnl_stream_destroy(s);
    dnnl_memory_destroy(usm);
    dnnl_memory_destroy(buf);
    dnnl_memory_desc_destroy(md);
    EXPECT_EQ(dnnl_engine_destroy(e), dnnl_success);
}

TEST_F(ocl_interop, user_svm_pointer_is_used_not_owned) {
    cl_device_svm_capabilities caps = 0;
    clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof(caps), &caps, nullptr);
    if (!(caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) GTEST_SKIP() << "no SVM";
    dnnl_engine_t e = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_engine_create(&e, device, context), dnnl_success);
    float *svm = static_cast<float *>(clSVMAlloc(context, CL_MEM_READ_WRITE, n * 4, 0));
    ASSERT_NE(svm, nullptr);
    ASSERT_EQ(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_WRITE, svm, n * 4, 0, nullptr, nullptr),
            CL_SUCCESS);
    for (int i = 0; i < n; ++i) svm[i] = input(i);
    ASSERT_EQ(clEnqueueSVMUnmap(queue, svm, 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clFinish(queue), CL_SUCCESS);

    dnnl_memory_desc_t md = vector_md();
    dnnl_memory_t m = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_memory_create(&m, md, e, dnnl_ocl_interop_usm, svm),
            dnnl_success);
    void *handle = nullptr;
    EXPECT_EQ(dnnl_memory_get_data_handle(m, &handle), dnnl_success);
    EXPECT_EQ(handle, svm);
    dnnl_stream_t s = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_stream_create(&s, e, queue), dnnl_success);
    dnnl_primitive_t prim = make_relu(e, md);
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, m}, {DNNL_ARG_DST, m}}; // in place
    ASSERT_EQ(dnnl_primitive_execute(prim, s, 2, args), dnnl_success);
    ASSERT_EQ(dnnl_stream_wait(s), dnnl_success);
    dnnl_primitive_destroy(prim);
    dnnl_stream_destroy(s);
    dnnl_memory_destroy(m); // must not free the user's pointer

    ASSERT_EQ(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, svm, n * 4, 0, nullptr, nullptr),
            CL_SUCCESS);
    for (int i = 0; i < n; ++i) ASSERT_EQ(svm[i], relu(input(i))) << i;
    ASSERT_EQ(clEnqueueSVMUnmap(queue, svm, 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clFinish(queue), CL_SUCCESS);
    clSVMFree(context, svm);
    dnnl_memory_desc_destroy(md);
    EXPECT_EQ(dnnl_engine_destroy(e), dnnl_success);
}

// The application's kernel and our primitive on one in-order queue and one buffer.
TEST_F(ocl_interop, shares_an_in_order_queue_and_buffer_with_the_application) {
    dnnl_engine_t e = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_engine_create(&e, device, context), dnnl_success);
    cl_mem x = buffer(n * sizeof(float));
    const cl_uint x_refs = ref_count(x);
    std::vector<float> host(n);
    for (int i = 0; i < n; ++i) host[i] = input(i);
    ASSERT_EQ(clEnqueueWriteBuffer(queue, x, CL_FALSE, 0, n * 4, host.data(), 0, nullptr,
                      nullptr),
            CL_SUCCESS);
    cl_kernel k = app_kernel();
    float a = 2.f, b = -3.f;
    clSetKernelArg(k, 0, sizeof(cl_mem), &x);
    clSetKernelArg(k, 1, sizeof(float), &a);
    clSetKernelArg(k, 2, sizeof(float), &b);
    const size_t global = n;
    ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, nullptr, 0, nullptr,
                      nullptr),
            CL_SUCCESS);

    dnnl_memory_desc_t md = vector_md();
    dnnl_memory_t m = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_memory_create(&m, md, e, dnnl_ocl_interop_buffer, x),
            dnnl_success);
    dnnl_stream_t s = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_stream_create(&s, e, queue), dnnl_success);
    dnnl_primitive_t prim = make_relu(e, md);
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, m}, {DNNL_ARG_DST, m}};
    ASSERT_EQ(dnnl_primitive_execute(prim, s, 2, args), dnnl_success);
    // The application's kernel again, after ours, with no synchronisation but the queue.
    ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, nullptr, 0, nullptr,
                      nullptr),
            CL_SUCCESS);
    ASSERT_EQ(clEnqueueReadBuffer(queue, x, CL_TRUE, 0, n * 4, host.data(), 0, nullptr,
                      nullptr),
            CL_SUCCESS);
    for (int i = 0; i < n; ++i)
        ASSERT_EQ(host[i], relu(input(i) * a + b) * a + b) << i;

    dnnl_primitive_destroy(prim);
    dnnl_stream_destroy(s);
    dnnl_memory_destroy(m);
    EXPECT_EQ(ref_count(x), x_refs);
    clReleaseKernel(k);
    clReleaseMemObject(x);
    dnnl_memory_desc_destroy(md);
    EXPECT_EQ(dnnl_engine_destroy(e), dnnl_success);
}

// Out-of-order queue: the application's kernel -> our primitive -> the application's kernel,
// ordered only by events.
TEST_F(ocl_interop, chains_by_events_on_an_out_of_order_queue) {
    cl_command_queue_properties qp = 0;
    clGetDeviceInfo(device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof(qp), &qp, nullptr);
    if (!(qp & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) GTEST_SKIP() << "no out-of-order queues";
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_int err = CL_SUCCESS;
    cl_command_queue ooo = clCreateCommandQueueWithProperties(context, device, props, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    dnnl_engine_t e = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_engine_create(&e, device, context), dnnl_success);
    dnnl_stream_t s = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_stream_create(&s, e, ooo), dnnl_success);
    dnnl_stream_flags_t unused;
    (void)unused;

    cl_mem x = buffer(n * sizeof(float));
    std::vector<float> host(n);
    for (int i = 0; i < n; ++i) host[i] = input(i);
    cl_event written = nullptr, first = nullptr, ours = nullptr, last = nullptr;
    ASSERT_EQ(clEnqueueWriteBuffer(ooo, x, CL_FALSE, 0, n * 4, host.data(), 0, nullptr,
                      &written),
            CL_SUCCESS);
    cl_kernel k = app_kernel();
    float a = -1.5f, b = 0.25f;
    clSetKernelArg(k, 0, sizeof(cl_mem), &x);
    clSetKernelArg(k, 1, sizeof(float), &a);
    clSetKernelArg(k, 2, sizeof(float), &b);
    const size_t global = n;
    ASSERT_EQ(clEnqueueNDRangeKernel(ooo, k, 1, nullptr, &global, nullptr, 1, &written, &first),
            CL_SUCCESS);

    dnnl_memory_desc_t md = vector_md();
    dnnl_memory_t m = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_memory_create(&m, md, e, dnnl_ocl_interop_buffer, x),
            dnnl_success);
    dnnl_primitive_t prim = make_relu(e, md);
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, m}, {DNNL_ARG_DST, m}};
    ASSERT_EQ(dnnl_ocl_interop_primitive_execute(prim, s, 2, args, &first, 1, &ours),
            dnnl_success);
    ASSERT_NE(ours, nullptr);
    ASSERT_EQ(clEnqueueNDRangeKernel(ooo, k, 1, nullptr, &global, nullptr, 1, &ours, &last),
            CL_SUCCESS);
    ASSERT_EQ(clEnqueueReadBuffer(ooo, x, CL_TRUE, 0, n * 4, host.data(), 1, &last, nullptr),
            CL_SUCCESS);
    for (int i = 0; i < n; ++i)
        ASSERT_EQ(host[i], relu(input(i) * a + b) * a + b) << i;

    // A null return event is allowed; the C++ wrapper returns one the caller releases.
    EXPECT_EQ(dnnl_ocl_interop_primitive_execute(prim, s, 2, args, &last, 1, nullptr),
            dnnl_success);
    EXPECT_EQ(dnnl_stream_wait(s), dnnl_success);

    for (cl_event ev : {written, first, ours, last}) clReleaseEvent(ev);
    dnnl_primitive_destroy(prim);
    dnnl_stream_destroy(s);
    dnnl_memory_destroy(m);
    clReleaseKernel(k);
    clReleaseMemObject(x);
    dnnl_memory_desc_destroy(md);
    clReleaseCommandQueue(ooo);
    EXPECT_EQ(dnnl_engine_destroy(e), dnnl_success);
}

TEST_F(ocl_interop, cache_blob_round_trip) {
    size_t id_size = 0;
    ASSERT_EQ(dnnl_ocl_interop_engine_get_cache_blob_id(device, &id_size, nullptr), dnnl_success);
    ASSERT_GT(id_size, 0u);
    std::vector<uint8_t> id(id_size);
    EXPECT_EQ(dnnl_ocl_interop_engine_get_cache_blob_id(device, &id_size, id.data()),
            dnnl_success);
    size_t wrong = id_size + 1;
    EXPECT_EQ(dnnl_ocl_interop_engine_get_cache_blob_id(device, &wrong, id.data()),
            dnnl_invalid_arguments);

    dnnl_engine_t e = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_engine_create(&e, device, context), dnnl_success);
    dnnl_memory_desc_t md = vector_md();
    dnnl_primitive_t prim = make_relu(e, md); // builds a program on e
    size_t size = 0;
    ASSERT_EQ(dnnl_ocl_interop_engine_get_cache_blob(e, &size, nullptr), dnnl_success);
    ASSERT_GT(size, id_size);
    std::vector<uint8_t> blob(size);
    ASSERT_EQ(dnnl_ocl_interop_engine_get_cache_blob(e, &size, blob.data()), dnnl_success);
    dnnl_primitive_destroy(prim);
    EXPECT_EQ(dnnl_engine_destroy(e), dnnl_success);

    dnnl_engine_t e2 = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_engine_create_from_cache_blob(
                      &e2, device, context, blob.size(), blob.data()),
            dnnl_success);
    dnnl_primitive_t p2 = make_relu(e2, md);
    EXPECT_NE(p2, nullptr);
    dnnl_primitive_destroy(p2);
    EXPECT_EQ(dnnl_engine_destroy(e2), dnnl_success);

    // A damaged or foreign blob is refused and leaves nothing behind.
    std::vector<uint8_t> bad = blob;
    bad[10] ^= 0x5a;
    dnnl_engine_t e3 = nullptr;
    EXPECT_EQ(dnnl_ocl_interop_engine_create_from_cache_blob(
                      &e3, device, context, bad.size(), bad.data()),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ocl_interop_engine_create_from_cache_blob(&e3, device, context, 5, blob.data()),
            dnnl_invalid_arguments);
    EXPECT_EQ(e3, nullptr);
    dnnl_memory_desc_destroy(md);
}

TEST_F(ocl_interop, bad_input_is_a_status) {
    dnnl_engine_t e = nullptr;
    EXPECT_EQ(dnnl_ocl_interop_engine_create(nullptr, device, context), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ocl_interop_engine_create(&e, nullptr, context), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ocl_interop_engine_create(&e, device, nullptr), dnnl_invalid_arguments);
    ASSERT_EQ(dnnl_ocl_interop_engine_create(&e, device, context), dnnl_success);

    // A queue of another context.
    cl_int err = CL_SUCCESS;
    cl_context other = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_command_queue other_q = clCreateCommandQueueWithProperties(other, device, nullptr, &err);
    dnnl_stream_t s = nullptr;
    EXPECT_EQ(dnnl_ocl_interop_stream_create(&s, e, other_q), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ocl_interop_stream_create(&s, e, nullptr), dnnl_invalid_arguments);

    // A buffer of another context, and one too small for the descriptor.
    dnnl_memory_desc_t md = vector_md();
    cl_mem foreign = clCreateBuffer(other, CL_MEM_READ_WRITE, n * 4, nullptr, &err);
    cl_mem small = buffer(n * 4 - 4);
    dnnl_memory_t m = nullptr;
    EXPECT_EQ(dnnl_ocl_interop_memory_create(&m, md, e, dnnl_ocl_interop_buffer, foreign),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ocl_interop_memory_create(&m, md, e, dnnl_ocl_interop_buffer, small),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ocl_interop_memory_create(&m, md, e,
                      static_cast<dnnl_ocl_interop_memory_kind_t>(7), DNNL_MEMORY_ALLOCATE),
            dnnl_invalid_arguments);
    EXPECT_EQ(m, nullptr);

    // Interop calls on CPU objects, and on destroyed ones.
    dnnl_engine_t cpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    cl_context c = nullptr;
    EXPECT_EQ(dnnl_ocl_interop_engine_get_context(cpu, &c), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ocl_interop_memory_create(&m, md, cpu, dnnl_ocl_interop_buffer,
                      DNNL_MEMORY_ALLOCATE),
            dnnl_invalid_arguments);
    dnnl_memory_t cpu_mem = nullptr;
    ASSERT_EQ(dnnl_memory_create(&cpu_mem, md, cpu, DNNL_MEMORY_ALLOCATE), dnnl_success);
    dnnl_ocl_interop_memory_kind_t kind;
    EXPECT_EQ(dnnl_ocl_interop_memory_get_memory_kind(cpu_mem, &kind), dnnl_invalid_arguments);

    // CPU memory given to a GPU primitive is refused, not read.
    dnnl_primitive_t prim = make_relu(e, md);
    dnnl_stream_t gs = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_stream_create(&gs, e, queue), dnnl_success);
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, cpu_mem}, {DNNL_ARG_DST, cpu_mem}};
    EXPECT_EQ(dnnl_primitive_execute(prim, gs, 2, args), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ocl_interop_primitive_execute(prim, gs, 2, args, nullptr, -1, nullptr),
            dnnl_invalid_arguments);
    dnnl_memory_destroy(cpu_mem);
    EXPECT_EQ(dnnl_ocl_interop_memory_get_memory_kind(cpu_mem, &kind), dnnl_invalid_arguments);
    dnnl_stream_t cpu_stream = nullptr;
    ASSERT_EQ(dnnl_stream_create(&cpu_stream, cpu, dnnl_stream_default_flags), dnnl_success);
    cl_command_queue q = nullptr;
    EXPECT_EQ(dnnl_ocl_interop_stream_get_command_queue(cpu_stream, &q), dnnl_invalid_arguments);
    dnnl_stream_destroy(cpu_stream);
    EXPECT_EQ(dnnl_ocl_interop_stream_get_command_queue(cpu_stream, &q), dnnl_invalid_arguments);
    dnnl_engine_destroy(cpu);
    dnnl_primitive_destroy(prim);
    dnnl_stream_destroy(gs);

    clReleaseMemObject(small);
    clReleaseMemObject(foreign);
    clReleaseCommandQueue(other_q);
    clReleaseContext(other);
    dnnl_memory_desc_destroy(md);
    EXPECT_EQ(dnnl_engine_destroy(e), dnnl_success);
    EXPECT_EQ(dnnl_ocl_interop_get_device(e, &device), dnnl_invalid_arguments); // destroyed
}

// Engine creation from a device outside the given context fails with a status and its reason,
// retaining nothing. With one device (PoCL) the outsiders are sub-devices: a sub-device is not
// in its parent's context, nor in the context of its sibling. Devices of other platforms,
// where the ICD loader offers any, are outsiders too.
TEST_F(ocl_interop, device_not_in_the_context_is_refused) {
    std::vector<std::pair<cl_device_id, cl_context>> outsiders; // (device, context)
    cl_uint nplat = 0;
    clGetPlatformIDs(0, nullptr, &nplat);
    std::vector<cl_platform_id> plats(nplat);
    clGetPlatformIDs(nplat, plats.data(), nullptr);
    for (cl_platform_id p : plats) {
        cl_uint ndev = 0;
        if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &ndev) != CL_SUCCESS) continue;
        std::vector<cl_device_id> devs(ndev);
        clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, ndev, devs.data(), nullptr);
        for (cl_device_id d : devs)
            if (d != device) outsiders.emplace_back(d, context);
    }
    cl_uint max_sub = 0, units = 0;
    clGetDeviceInfo(device, CL_DEVICE_PARTITION_MAX_SUB_DEVICES, sizeof(max_sub), &max_sub,
            nullptr);
    clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(units), &units, nullptr);
    cl_device_id sub[2] = {nullptr, nullptr};
    cl_context sub_context = nullptr;
    const cl_device_partition_property equally[] = {
            CL_DEVICE_PARTITION_EQUALLY, static_cast<cl_device_partition_property>(units / 2), 0};
    cl_uint nsub = 0;
    if (max_sub >= 2 && units >= 2 && clCreateSubDevices(device, equally, 2, sub, &nsub) == CL_SUCCESS
            && nsub == 2) {
        cl_int err = CL_SUCCESS;
        sub_context = clCreateContext(nullptr, 1, &sub[0], nullptr, nullptr, &err);
        ASSERT_EQ(err, CL_SUCCESS);
        outsiders.emplace_back(sub[0], context);
        outsiders.emplace_back(sub[1], context);
        outsiders.emplace_back(sub[1], sub_context);
    }
    if (outsiders.empty()) GTEST_SKIP() << "one device that cannot be partitioned";

    for (const auto &o : outsiders) {
        const cl_uint refs = ref_count(o.second);
        ASSERT_EQ(dnnl_set_verbose(1), dnnl_success);
        ::testing::internal::CaptureStdout();
        dnnl_engine_t e = nullptr;
        EXPECT_EQ(dnnl_ocl_interop_engine_create(&e, o.first, o.second), dnnl_invalid_arguments);
        const std::string out = ::testing::internal::GetCapturedStdout();
        ASSERT_EQ(dnnl_set_verbose(0), dnnl_success);
        EXPECT_EQ(e, nullptr);
        EXPECT_NE(out.find("the device is not in the context"), std::string::npos) << out;
        EXPECT_EQ(ref_count(o.second), refs); // the refusal retains nothing
        if (e) dnnl_engine_destroy(e);
    }
    if (sub_context) clReleaseContext(sub_context);
    for (cl_device_id d : sub)
        if (d) clReleaseDevice(d);
}

TEST_F(ocl_interop, usm_kind_without_usm_or_svm_is_refused) {
    // ANYDNN_OCL_USM=none makes the next engine see a device with neither.
    setenv("ANYDNN_OCL_USM", "none", 1);
    dnnl_engine_t e = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_engine_create(&e, device, context), dnnl_success);
    unsetenv("ANYDNN_OCL_USM");
    dnnl_memory_desc_t md = vector_md();
    dnnl_memory_t m = nullptr;
    EXPECT_EQ(dnnl_ocl_interop_memory_create(&m, md, e, dnnl_ocl_interop_usm,
                      DNNL_MEMORY_ALLOCATE),
            dnnl_invalid_arguments);
    EXPECT_EQ(m, nullptr);
    dnnl_memory_desc_destroy(md);
    EXPECT_EQ(dnnl_engine_destroy(e), dnnl_success);
}

// The C++ wrappers of dnnl_ocl.hpp over the same objects.
TEST_F(ocl_interop, cpp_api) {
    {
        dnnl::engine eng = dnnl::ocl_interop::make_engine(device, context);
        EXPECT_EQ(dnnl::ocl_interop::get_device(eng), device);
        EXPECT_EQ(dnnl::ocl_interop::get_context(eng), context);
        dnnl::stream strm = dnnl::ocl_interop::make_stream(eng, queue);
        EXPECT_EQ(dnnl::ocl_interop::get_command_queue(strm), queue);
        dnnl::memory::desc md({n}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::a);
        dnnl::memory m = dnnl::ocl_interop::make_memory(md, eng, dnnl::ocl_interop::memory_kind::buffer);
        EXPECT_EQ(dnnl::ocl_interop::get_memory_kind(m), dnnl::ocl_interop::memory_kind::buffer);
        float *p = static_cast<float *>(m.map_data());
        for (int i = 0; i < n; ++i) p[i] = input(i);
        m.unmap_data(p);
        auto pd = dnnl::eltwise_forward::primitive_desc(eng, dnnl::prop_kind::forward_inference,
                dnnl::algorithm::eltwise_relu, md, md, 0.5f);
        dnnl::eltwise_forward relu_prim(pd);
        cl_event ev = dnnl::ocl_interop::execute(
                relu_prim, strm, {{DNNL_ARG_SRC, m}, {DNNL_ARG_DST, m}});
        ASSERT_NE(ev, nullptr);
        ASSERT_EQ(clWaitForEvents(1, &ev), CL_SUCCESS);
        clReleaseEvent(ev);
        p = static_cast<float *>(m.map_data());
        for (int i = 0; i < n; ++i) ASSERT_EQ(p[i], relu(input(i)));
        m.unmap_data(p);
        auto blob = dnnl::ocl_interop::get_engine_cache_blob(eng);
        EXPECT_FALSE(blob.empty());
        EXPECT_FALSE(dnnl::ocl_interop::get_engine_cache_blob_id(device).empty());
    }
}

} // namespace
} // namespace interop_test
