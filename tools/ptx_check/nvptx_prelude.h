// Work-item functions of OpenCL C as PTX special registers, so clang's nvptx64 output of our
// kernels links on its own for ptxas (check_cl_sass.sh). Not used by the library.
#define PTX_DIM(x, y, z) (d == 0 ? (x) : d == 1 ? (y) : d == 2 ? (z) : 0)
__attribute__((overloadable)) size_t ptx_local_id(uint d) {
    return PTX_DIM(__nvvm_read_ptx_sreg_tid_x(), __nvvm_read_ptx_sreg_tid_y(),
            __nvvm_read_ptx_sreg_tid_z());
}
__attribute__((overloadable)) size_t ptx_local_size(uint d) {
    return PTX_DIM(__nvvm_read_ptx_sreg_ntid_x(), __nvvm_read_ptx_sreg_ntid_y(),
            __nvvm_read_ptx_sreg_ntid_z());
}
__attribute__((overloadable)) size_t ptx_group_id(uint d) {
    return PTX_DIM(__nvvm_read_ptx_sreg_ctaid_x(), __nvvm_read_ptx_sreg_ctaid_y(),
            __nvvm_read_ptx_sreg_ctaid_z());
}
__attribute__((overloadable)) size_t ptx_num_groups(uint d) {
    return PTX_DIM(__nvvm_read_ptx_sreg_nctaid_x(), __nvvm_read_ptx_sreg_nctaid_y(),
            __nvvm_read_ptx_sreg_nctaid_z());
}
__attribute__((overloadable)) size_t ptx_global_id(uint d) {
    return ptx_group_id(d) * ptx_local_size(d) + ptx_local_id(d);
}
__attribute__((overloadable)) void ptx_barrier(cl_mem_fence_flags f) { __nvvm_bar_sync(0); }
// Math and vector built-ins the GEMM kernels use (libclc is not installed here).
__attribute__((overloadable)) int min(int a, int b) { return a < b ? a : b; }
__attribute__((overloadable)) long min(long a, long b) { return a < b ? a : b; }
__attribute__((overloadable)) long clamp(long x, long lo, long hi) {
    return x < lo ? lo : x > hi ? hi : x;
}
__attribute__((overloadable)) ushort8 vload8(size_t i, const ushort *p) {
    p += i * 8;
    return (ushort8)(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
}
__attribute__((overloadable)) float4 vload4(size_t i, const local float *p) {
    p += i * 4;
    return (float4)(p[0], p[1], p[2], p[3]);
}
__attribute__((overloadable)) float fma(float a, float b, float c) {
    return __builtin_fmaf(a, b, c);
}
__attribute__((overloadable)) float4 fma(float4 a, float4 b, float4 c) {
    return (float4)(__builtin_fmaf(a.x, b.x, c.x), __builtin_fmaf(a.y, b.y, c.y),
            __builtin_fmaf(a.z, b.z, c.z), __builtin_fmaf(a.w, b.w, c.w));
}
__attribute__((overloadable)) void vstore4(float4 v, size_t i, local float *p) {
    p += i * 4;
    p[0] = v.x, p[1] = v.y, p[2] = v.z, p[3] = v.w;
}
__attribute__((overloadable)) float dot(float4 a, float4 b) {
    return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}
