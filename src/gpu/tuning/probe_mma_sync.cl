// Capability probe: builds only where the OpenCL C compiler takes inline PTX mma.sync (bf16,
// m16n8k16), ldmatrix and cp.async, the instructions of gemm/gemm_mma.cl. Never launched.
kernel void probe_mma_sync(global float *out) {
    local ushort tile[64 * 8];
    uint a0, a1, a2, a3, b0 = 0, b1 = 0;
    float c0 = 0.f, c1 = 0.f, c2 = 0.f, c3 = 0.f;
    const uint s = (uint)(ulong)(tile + get_local_id(0) * 8);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, 16;\n" ::"r"(s), "l"((ulong)out));
    asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;\n" ::);
    barrier(CLK_LOCAL_MEM_FENCE);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3)
                 : "r"(s));
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    out[get_global_id(0)] = c0 + c1 + c2 + c3;
}
