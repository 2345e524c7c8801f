// brgemm ukernel speed against the matmul primitive on the same work, one thread each (run it
// with OMP_NUM_THREADS=1 so matmul also uses one core; a brgemm call is single-threaded by
// design). A brgemm of batch bs over M x K by K x N blocks is the matmul M x (bs K) by
// (bs K) x N: the same flops, B packed once beforehand for both (transform / weights in the
// layout matmul picks). Times are the best of several runs, GFLOP/s and the fraction of the
// measured single-core peak of the instruction used.
//
//   ukernel_bench [--types=f32,bf16] [--mn=64,128,256] [--k=64,256,1024] [--bs=1,4,16]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "oneapi/dnnl/dnnl_ukernel.hpp"
#include "peak.hpp"

using namespace dnnl;
using dim = memory::dim;

namespace {

std::vector<long> parse_list(const char *s) {
    std::vector<long> v;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ','))
        v.push_back(std::stol(item));
    return v;
}

// Best seconds per call of f over `runs` runs of `reps` calls.
template <typename F>
double best_per_call(F f, long reps, int runs = 20) {
    double best = 1e30;
    for (int r = 0; r < runs; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        for (long i = 0; i < reps; ++i)
            f();
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        best = std::min(best, s / double(reps));
    }
    return best;
}

double brgemm_seconds(memory::data_type dt, dim M, dim N, dim K, dim bs, long reps) {
    using namespace dnnl::ukernel;
    const size_t es = memory::data_type_size(dt);
    brgemm br(M, N, K, bs, K, N, N, dt, dt, memory::data_type::f32);
    br.finalize();
    const pack_type pack = brgemm::get_B_pack_type(dt, dt);
    br.generate();
    // bs blocks of A (M x K) and B (K x N), B packed as asked; small values.
    std::vector<uint8_t> A(size_t(bs * M * K) * es), B(size_t(bs * K * N) * es + 64);
    std::vector<uint8_t> Bp(size_t(bs * (K + 3) * N) * es + 64);
    for (size_t i = 0; i < A.size(); ++i)
        A[i] = uint8_t(i % 7 == 0 ? 0x3f : 0);
    for (size_t i = 0; i < B.size(); ++i)
        B[i] = uint8_t(i % 5 == 0 ? 0x3e : 0);
    const uint8_t *b_used = B.data();
    dim b_block = K * N * dim(es);
    if (pack == pack_type::pack32) {
        transform tr(K, N, pack_type::no_trans, N, N, dt, dt);
        tr.generate();
        for (dim i = 0; i < bs; ++i)
            tr.execute(B.data() + i * b_block, Bp.data() + i * b_block);
        b_used = Bp.data();
    }
    std::vector<std::pair<dim, dim>> offs(static_cast<size_t>(bs));
    for (dim i = 0; i < bs; ++i)
        offs[size_t(i)] = {i * M * K * dim(es), i * b_block};
    std::vector<float> C(size_t(M * N));
    std::vector<uint8_t> scratch(br.get_scratchpad_size() + 1);
    br.set_hw_context();
    const double s = best_per_call(
            [&] { br.execute(A.data(), b_used, offs, C.data(), scratch.data()); }, reps);
    brgemm::release_hw_context();
    return s;
}

double matmul_seconds(engine &eng, stream &strm, memory::data_type dt, dim M, dim N, dim KK,
        long reps) {
    const memory::desc src_md({M, KK}, dt, memory::format_tag::ab);
    const memory::desc any_wei({KK, N}, dt, memory::format_tag::any);
    const memory::desc dst_md({M, N}, memory::data_type::f32, memory::format_tag::ab);
    const matmul::primitive_desc pd(eng, src_md, any_wei, dst_md);
    const matmul prim(pd);
    memory src(pd.src_desc(), eng), wei(pd.weights_desc(), eng), dst(pd.dst_desc(), eng);
    std::memset(src.get_data_handle(), 0, pd.src_desc().get_size());
    std::memset(wei.get_data_handle(), 0, pd.weights_desc().get_size());
    const std::unordered_map<int, memory> args
            = {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei}, {DNNL_ARG_DST, dst}};
    return best_per_call(
            [&] {
                prim.execute(strm, args);
                strm.wait();
            },
            reps);
}

} // namespace

int main(int argc, char **argv) {
    std::vector<long> mns = {64, 128, 256}, ks = {64, 256, 1024}, bss = {1, 4, 16};
    std::vector<std::string> types = {"f32", "bf16"};
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto val = [&](const char *p) { return a.c_str() + std::strlen(p); };
        if (a.rfind("--mn=", 0) == 0) mns = parse_list(val("--mn="));
        else if (a.rfind("--k=", 0) == 0) ks = parse_list(val("--k="));
        else if (a.rfind("--bs=", 0) == 0) bss = parse_list(val("--bs="));
        else if (a.rfind("--types=", 0) == 0) {
            types.clear();
            std::stringstream ss(val("--types="));
            std::string t;
            while (std::getline(ss, t, ','))
                types.push_back(t);
        } else {
            std::fprintf(stderr, "usage: %s [--types=f32,bf16] [--mn=..] [--k=..] [--bs=..]\n",
                    argv[0]);
            return 2;
        }
    }
    const double peak_f32 = peak_f32_gflops(), peak_bf16 = peak_bf16_gflops();
    std::printf("measured single-core peak: f32 FMA %.1f GFLOP/s, bf16 dot %.1f GFLOP/s\n",
            peak_f32, peak_bf16);
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    std::printf("| type | M=N | K | batch | brgemm GFLOP/s | brgemm %% peak | matmul GFLOP/s | "
                "matmul %% peak | brgemm/matmul |\n|---|---|---|---|---|---|---|---|---|\n");
    for (const std::string &t : types) {
        const memory::data_type dt = t == "bf16" ? memory::data_type::bf16 : memory::data_type::f32;
        const double peak = t == "bf16" ? peak_bf16 : peak_f32;
        for (long mn : mns)
            for (long k : ks)
                for (long bs : bss) {
                    const double flops = 2.0 * mn * mn * k * bs;
                    const long reps = std::max(1L, long(5e7 / flops));
                    const double tb = brgemm_seconds(dt, mn, mn, k, bs, reps);
                    const double tm = matmul_seconds(eng, strm, dt, mn, mn, k * bs, reps);
                    const double gb = flops / tb * 1e-9, gm = flops / tm * 1e-9;
                    std::printf("| %s | %ld | %ld | %ld | %.1f | %.0f%% | %.1f | %.0f%% | %.2f |\n",
                            t.c_str(), mn, k, bs, gb, 100 * gb / peak, gm, 100 * gm / peak,
                            gb / gm);
                    std::fflush(stdout);
                }
    }
    return 0;
}
