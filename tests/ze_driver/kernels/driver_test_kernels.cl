// Kernels for the test driver's own tests (tests/ze/ze_test_driver_test.cpp), given to it as
// OpenCL C source and, where clang-15 and llvm-spirv-15 exist, as SPIR-V built with the tests.
kernel void axpy(global float *y, global const float *x, float a, uint n) {
    const size_t i = get_global_id(0);
    if (i < n) y[i] += a * x[i];
}

// out[g] = the sum of group g's inputs, through local memory.
kernel void group_sum(global float *out, global const float *in, local float *scratch) {
    const size_t l = get_local_id(0), size = get_local_size(0);
    scratch[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        float s = 0.f;
        for (size_t i = 0; i < size; ++i) s += scratch[i];
        out[get_group_id(0)] = s;
    }
}

kernel __attribute__((reqd_work_group_size(4, 1, 1))) void fixed_group(global int *out) {
    out[get_global_id(0)] = (int)get_local_size(0);
}
