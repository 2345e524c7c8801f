// Times matmul M x K x N with f32 weights and with integer weights decompressed on the fly
// (fpmath apply_to_int, weights scales and zero points grouped along K), on the CPU engine.
// Usage: woq_bench [M K N [group [reps]]]; prints the least and the median time of each.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "oneapi/dnnl/dnnl.h"

namespace {

#define CHECK(x) \
    do { \
        dnnl_status_t s_ = (x); \
        if (s_ != dnnl_success) { \
            std::fprintf(stderr, "%s failed: %d\n", #x, int(s_)); \
            std::exit(1); \
        } \
    } while (0)

struct mem_t {
    dnnl_memory_desc_t md = nullptr;
    dnnl_memory_t m = nullptr;
    mem_t(dnnl_engine_t eng, const_dnnl_memory_desc_t d, unsigned char fill) {
        CHECK(dnnl_memory_desc_clone(&md, d));
        CHECK(dnnl_memory_create(&m, md, eng, DNNL_MEMORY_ALLOCATE));
        void *p = nullptr;
        dnnl_memory_get_data_handle(m, &p);
        std::memset(p, fill, dnnl_memory_desc_get_size(md));
    }
    ~mem_t() {
        dnnl_memory_destroy(m);
        dnnl_memory_desc_destroy(md);
    }
};

// One prepared matmul: f32 weights, or integer weights decompressed with K-grouped scales
// and zero points.
struct bench_t {
    dnnl_primitive_desc_t pd = nullptr;
    dnnl_primitive_t prim = nullptr;
    std::vector<mem_t *> mems;
    std::vector<dnnl_exec_arg_t> args;
    std::vector<double> ms;
    const char *impl = "";

    bench_t(dnnl_engine_t eng, dnnl_dim_t M, dnnl_dim_t K, dnnl_dim_t N, dnnl_data_type_t wdt,
            dnnl_dim_t group) {
        dnnl_dims_t sd = {M, K}, wd = {K, N}, dd = {M, N};
        dnnl_memory_desc_t smd, wmd, dmd;
        CHECK(dnnl_memory_desc_create_with_tag(&smd, 2, sd, dnnl_f32, dnnl_ab));
        CHECK(dnnl_memory_desc_create_with_tag(&wmd, 2, wd, wdt, dnnl_ab));
        CHECK(dnnl_memory_desc_create_with_tag(&dmd, 2, dd, dnnl_f32, dnnl_ab));
        dnnl_primitive_attr_t attr;
        CHECK(dnnl_primitive_attr_create(&attr));
        const bool woq = wdt != dnnl_f32;
        if (woq) {
            CHECK(dnnl_primitive_attr_set_fpmath_mode_v2(attr, dnnl_fpmath_mode_strict, 1));
            dnnl_dims_t g = {group, 1};
            CHECK(dnnl_primitive_attr_set_scales(attr, DNNL_ARG_WEIGHTS, 3, 2, g, dnnl_f32));
            CHECK(dnnl_primitive_attr_set_zero_points(attr, DNNL_ARG_WEIGHTS, 3, 2, g, dnnl_u8));
        }
        CHECK(dnnl_matmul_primitive_desc_create(&pd, eng, smd, wmd, nullptr, dmd, attr));
        dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl);
        CHECK(dnnl_primitive_create(&prim, pd));
        auto add = [&](int arg, unsigned char fill) {
            mems.push_back(new mem_t(
                    eng, dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg), fill));
            args.push_back({arg, mems.back()->m});
        };
        add(DNNL_ARG_SRC, 0);
        add(DNNL_ARG_WEIGHTS, 0x21);
        add(DNNL_ARG_DST, 0);
        if (woq) {
            add(DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS, 0);
            add(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_WEIGHTS, 1);
        }
        dnnl_primitive_attr_destroy(attr);
        for (auto m : {smd, wmd, dmd})
            dnnl_memory_desc_destroy(m);
    }
    ~bench_t() {
        for (mem_t *m : mems)
            delete m;
        dnnl_primitive_destroy(prim);
        dnnl_primitive_desc_destroy(pd);
    }
    void run(dnnl_stream_t strm, bool keep) {
        const auto t0 = std::chrono::steady_clock::now();
        CHECK(dnnl_primitive_execute(prim, strm, int(args.size()), args.data()));
        CHECK(dnnl_stream_wait(strm));
        const auto t1 = std::chrono::steady_clock::now();
        if (keep) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
};

} // namespace

int main(int argc, char **argv) {
    const dnnl_dim_t M = argc > 1 ? std::atoll(argv[1]) : 1;
    const dnnl_dim_t K = argc > 2 ? std::atoll(argv[2]) : 4096;
    const dnnl_dim_t N = argc > 3 ? std::atoll(argv[3]) : 4096;
    const dnnl_dim_t G = argc > 4 ? std::atoll(argv[4]) : 128;
    const int reps = argc > 5 ? std::atoi(argv[5]) : 21;
    dnnl_engine_t eng;
    dnnl_stream_t strm;
    CHECK(dnnl_engine_create(&eng, dnnl_cpu, 0));
    CHECK(dnnl_stream_create(&strm, eng, dnnl_stream_default_flags));
    std::printf("matmul %lldx%lldx%lld, weights groups of %lld along K, %d interleaved rounds\n",
            (long long)M, (long long)K, (long long)N, (long long)G, reps);
    const dnnl_data_type_t types[] = {dnnl_f32, dnnl_s4, dnnl_u4, dnnl_s8};
    std::vector<bench_t *> b;
    for (auto wdt : types)
        b.push_back(new bench_t(eng, M, K, N, wdt, G));
    // Rounds run every variant once in turn: a neighbour's load on a shared machine falls on
    // all of them alike.
    for (int r = 0; r < reps + 2; ++r)
        for (bench_t *x : b)
            x->run(strm, r >= 2);
    for (size_t i = 0; i < b.size(); ++i) {
        std::vector<double> &t = b[i]->ms;
        std::sort(t.begin(), t.end());
        const dnnl_data_type_t wdt = types[i];
        std::printf("  weights %-4s min %8.3f ms  median %8.3f ms  (%s)\n",
                wdt == dnnl_f32 ? "f32" : wdt == dnnl_s4 ? "s4" : wdt == dnnl_u4 ? "u4" : "s8",
                t.front(), t[t.size() / 2], b[i]->impl);
        delete b[i];
    }
    dnnl_stream_destroy(strm);
    dnnl_engine_destroy(eng);
    return 0;
}
