// Side-by-side sgemm timing on one OpenCL device: CLBlast's CLBlastSgemm and our f32 matmul
// through the public API, on the same queue and the same cl_mem buffers, runs interleaved so
// both see the same machine load. Prints medians, min/max and the ratio of medians.
//
//   ocl_gemm_bench [M N K] [repetitions]      (default 2048 2048 2048, 9)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <CL/cl.h>
#include <clblast_c.h>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_ocl.h"

namespace {

#define CHECK(call)                                                                           \
    do {                                                                                      \
        dnnl_status_t s_ = (call);                                                            \
        if (s_ != dnnl_success) {                                                             \
            std::fprintf(stderr, "%s failed: %d\n", #call, (int)s_);                          \
            std::exit(1);                                                                     \
        }                                                                                     \
    } while (0)

double now_ms() {
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double, std::milli>(clock::now().time_since_epoch()).count();
}

struct stats_t {
    double median, min, max;
};

stats_t summarize(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return {v[v.size() / 2], v.front(), v.back()};
}

dnnl_memory_t make_matrix(dnnl_engine_t eng, long rows, long cols, float value) {
    dnnl_memory_desc_t md;
    const dnnl_dims_t dims = {rows, cols};
    CHECK(dnnl_memory_desc_create_with_tag(&md, 2, dims, dnnl_f32, dnnl_ab));
    dnnl_memory_t m;
    CHECK(dnnl_memory_create(&m, md, eng, DNNL_MEMORY_ALLOCATE));
    void *p = nullptr;
    CHECK(dnnl_memory_map_data(m, &p));
    float *f = static_cast<float *>(p);
    for (long i = 0; i < rows * cols; ++i)
        f[i] = value * static_cast<float>((i % 7) - 3);
    CHECK(dnnl_memory_unmap_data(m, p));
    CHECK(dnnl_memory_desc_destroy(md));
    return m;
}

} // namespace

int main(int argc, char **argv) {
    long M = 2048, N = 2048, K = 2048;
    int reps = 9;
    if (argc >= 4) M = std::atol(argv[1]), N = std::atol(argv[2]), K = std::atol(argv[3]);
    if (argc >= 5) reps = std::atoi(argv[4]);
    dnnl_engine_t eng;
    CHECK(dnnl_engine_create(&eng, dnnl_gpu, 0));
    dnnl_stream_t strm;
    CHECK(dnnl_stream_create(&strm, eng, dnnl_stream_default_flags));
    cl_command_queue queue;
    CHECK(dnnl_ocl_interop_stream_get_command_queue(strm, &queue));

    dnnl_memory_t a = make_matrix(eng, M, K, 0.25f), b = make_matrix(eng, K, N, 0.5f),
                  c = make_matrix(eng, M, N, 0.f);
    cl_mem a_mem, b_mem, c_mem;
    CHECK(dnnl_ocl_interop_memory_get_mem_object(a, &a_mem));
    CHECK(dnnl_ocl_interop_memory_get_mem_object(b, &b_mem));
    CHECK(dnnl_ocl_interop_memory_get_mem_object(c, &c_mem));

    const_dnnl_memory_desc_t amd, bmd, cmd;
    CHECK(dnnl_memory_get_memory_desc(a, &amd));
    CHECK(dnnl_memory_get_memory_desc(b, &bmd));
    CHECK(dnnl_memory_get_memory_desc(c, &cmd));
    dnnl_primitive_desc_t pd;
    CHECK(dnnl_matmul_primitive_desc_create(&pd, eng, amd, bmd, nullptr, cmd, nullptr));
    const char *impl = nullptr;
    CHECK(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl));
    dnnl_primitive_t mm;
    CHECK(dnnl_primitive_create(&mm, pd));
    dnnl_exec_arg_t args[3] = {{DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, c}};

    auto run_ours = [&] {
        const double t0 = now_ms();
        CHECK(dnnl_primitive_execute(mm, strm, 3, args));
        CHECK(dnnl_stream_wait(strm));
        return now_ms() - t0;
    };
    auto run_clblast = [&] {
        const double t0 = now_ms();
        cl_event ev = nullptr;
        const CLBlastStatusCode s = CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo,
                CLBlastTransposeNo, M, N, K, 1.f, a_mem, 0, K, b_mem, 0, N, 0.f, c_mem, 0, N,
                &queue, &ev);
        if (s != CLBlastSuccess) {
            std::fprintf(stderr, "CLBlastSgemm failed: %d\n", (int)s);
            std::exit(1);
        }
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
        return now_ms() - t0;
    };
    run_ours(); // warm-up: kernel builds and CLBlast's tuning/compilation stay out of timings
    run_clblast();
    std::vector<double> ours, theirs, ratio;
    for (int r = 0; r < reps; ++r) {
        const double t_ours = run_ours(), t_clblast = run_clblast();
        ours.push_back(t_ours);
        theirs.push_back(t_clblast);
        ratio.push_back(t_clblast / t_ours);
    }
    const double gflop = 2.0 * M * N * K * 1e-9;
    const stats_t so = summarize(ours), sc = summarize(theirs), sr = summarize(ratio);
    std::printf("sgemm %ldx%ldx%ld, %d interleaved runs (ms: median [min, max]; GFLOP/s of the "
                "median)\n",
            M, N, K, reps);
    std::printf("  anydnn %-22s %9.2f [%9.2f, %9.2f]  %7.1f GFLOP/s\n", impl, so.median, so.min,
            so.max, gflop / so.median * 1e3);
    std::printf("  CLBlast CLBlastSgemm          %9.2f [%9.2f, %9.2f]  %7.1f GFLOP/s\n",
            sc.median, sc.min, sc.max, gflop / sc.median * 1e3);
    std::printf("  speed-up over CLBlast: %.2fx (ratio of medians); per-pair ratios median %.2fx "
                "[%.2f, %.2f]\n",
            sc.median / so.median, sr.median, sr.min, sr.max);

    dnnl_primitive_destroy(mm);
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_destroy(a);
    dnnl_memory_destroy(b);
    dnnl_memory_destroy(c);
    dnnl_stream_destroy(strm);
    dnnl_engine_destroy(eng);
    return 0;
}
