// Sparse matmul the way oneDNN's sparse tutorials write it: a pruned activation matrix in
// CSR (values, column indices, row pointers) times dense weights, dense activations times
// pruned weights in COO (values, row indices, column indices), and pruned weights reordered
// into the packed encoding as oneDNN's weights-compression example does. Each memory is made
// of several buffers; the CSR one from the application's own host buffers (CPU), all also
// through memories the library allocates and the application fills handle by handle through
// map_data(index), as a GPU application must.
//
// Checked against plain loops over the dense matrices the encodings came from (values are
// multiples of 1/4 or integers, so every sum is exact in f32). On engines without sparse
// matmul (or without the packed encoding, a CPU one) the primitive descriptor is refused with
// `unimplemented` (oneDNN documents COO src on GPU engines); such a case is reported and
// skipped. Usage: sparse_matmul [cpu|gpu]; exits 0 when every case that ran matched, 1 when
// one did not, 77 when the engine is absent or ran none.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;

namespace {

const memory::dim M = 24, K = 150, N = 33;

// A matrix with about `density` of its elements non-zero, multiples of 1/4 in [-2, 2].
std::vector<float> pruned(memory::dim rows, memory::dim cols, float density, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> keep(0.f, 1.f);
    std::uniform_int_distribution<int> q(-8, 8);
    std::vector<float> v(rows * cols, 0.f);
    for (auto &x : v)
        if (keep(gen) < density) x = 0.25f * q(gen);
    return v;
}

template <typename T>
void fill(const memory &m, int index, const std::vector<T> &v) {
    if (v.empty()) return;
    T *p = m.map_data<T>(index);
    std::memcpy(p, v.data(), v.size() * sizeof(T));
    m.unmap_data(p, index);
}

std::vector<float> read(const memory &m, size_t n) {
    std::vector<float> v(n);
    float *p = m.map_data<float>();
    std::memcpy(v.data(), p, n * sizeof(float));
    m.unmap_data(p);
    return v;
}

bool matches(const std::vector<float> &got, const std::vector<float> &a,
        const std::vector<float> &b, const char *what) {
    long long bad = 0;
    for (memory::dim m = 0; m < M; ++m)
        for (memory::dim n = 0; n < N; ++n) {
            double acc = 0;
            for (memory::dim k = 0; k < K; ++k)
                acc += static_cast<double>(a[m * K + k]) * b[k * N + n];
            if (got[m * N + n] != static_cast<float>(acc)) ++bad;
        }
    std::printf("%s: %lld of %lld outputs differ\n", what, bad, (long long)(M * N));
    return bad == 0;
}

// 1: mismatch, 0: matched, 77: unimplemented on this engine.
int csr_src(const engine &eng, stream &s, bool user_buffers) {
    const auto a = pruned(M, K, 0.1f, 1), b = pruned(K, N, 1.f, 2);
    std::vector<float> values;
    std::vector<int32_t> indices, pointers = {0};
    for (memory::dim m = 0; m < M; ++m) {
        for (memory::dim k = 0; k < K; ++k)
            if (a[m * K + k] != 0.f) {
                values.push_back(a[m * K + k]);
                indices.push_back(static_cast<int32_t>(k));
            }
        pointers.push_back(static_cast<int32_t>(values.size()));
    }
    const auto csr_md = memory::desc::csr(
            {M, K}, dt::f32, static_cast<memory::dim>(values.size()), dt::s32, dt::s32);
    memory::desc wei_md({K, N}, dt::f32, tag::ab), dst_md({M, N}, dt::f32, tag::ab);
    matmul::primitive_desc pd;
    try {
        pd = matmul::primitive_desc(eng, csr_md, wei_md, dst_md);
    } catch (const error &e) {
        if (e.status != dnnl_unimplemented) throw;
        std::printf("CSR src: unimplemented on this engine\n");
        return 77;
    }
    memory src = user_buffers
            ? memory(csr_md, eng, {values.data(), indices.data(), pointers.data()})
            : memory(csr_md, eng);
    if (!user_buffers) {
        fill(src, 0, values);
        fill(src, 1, indices);
        fill(src, 2, pointers);
    }
    memory wei(wei_md, eng), dst(dst_md, eng);
    fill(wei, 0, b);
    matmul(pd).execute(s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei}, {DNNL_ARG_DST, dst}});
    s.wait();
    return matches(read(dst, M * N), a, b,
                   user_buffers ? "CSR src from user buffers" : "CSR src, mapped buffers")
            ? 0
            : 1;
}

int coo_weights(const engine &eng, stream &s) {
    const auto a = pruned(M, K, 1.f, 3), b = pruned(K, N, 0.2f, 4);
    std::vector<float> values;
    std::vector<int32_t> rows, cols;
    for (memory::dim k = 0; k < K; ++k)
        for (memory::dim n = 0; n < N; ++n)
            if (b[k * N + n] != 0.f) {
                values.push_back(b[k * N + n]);
                rows.push_back(static_cast<int32_t>(k));
                cols.push_back(static_cast<int32_t>(n));
            }
    const auto coo_md
            = memory::desc::coo({K, N}, dt::f32, static_cast<memory::dim>(values.size()), dt::s32);
    memory::desc src_md({M, K}, dt::f32, tag::ab), dst_md({M, N}, dt::f32, tag::ab);
    matmul::primitive_desc pd;
    try {
        pd = matmul::primitive_desc(eng, src_md, coo_md, dst_md);
    } catch (const error &e) {
        if (e.status != dnnl_unimplemented) throw;
        std::printf("COO weights: unimplemented on this engine\n");
        return 77;
    }
    memory src(src_md, eng), wei(coo_md, eng), dst(dst_md, eng);
    fill(src, 0, a);
    fill(wei, 0, values);
    fill(wei, 1, rows);
    fill(wei, 2, cols);
    matmul(pd).execute(s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei}, {DNNL_ARG_DST, dst}});
    s.wait();
    return matches(read(dst, M * N), a, b, "COO weights") ? 0 : 1;
}

// oneDNN's weights-compression flow: a packed request (dims, s8, nnz) makes the primitive
// descriptor, weights_desc() gives the packed layout, a reorder packs the user's f32 weights
// into a memory of it, and the matmul runs on u8 activations. Integer values: exact sums.
int packed_weights(const engine &eng, stream &s) {
    auto a = pruned(M, K, 1.f, 5), b = pruned(K, N, 0.15f, 6);
    for (auto &x : a)
        x = std::fabs(x) * 4.f; // u8 in [0, 8]
    for (auto &x : b)
        x *= 4.f; // s8 in [-8, 8]
    memory::dim nnz = 0;
    for (float x : b)
        nnz += x != 0.f;
    matmul::primitive_desc pd;
    try {
        pd = matmul::primitive_desc(eng, memory::desc({M, K}, dt::u8, tag::any),
                memory::desc::packed({K, N}, dt::s8, nnz), memory::desc({M, N}, dt::f32, tag::any));
    } catch (const error &e) {
        if (e.status != dnnl_unimplemented) throw;
        std::printf("packed weights: unimplemented on this engine\n");
        return 77;
    }
    memory user_wei({{K, N}, dt::f32, tag::ab}, eng);
    fill(user_wei, 0, b);
    const memory::desc packed = pd.weights_desc();
    memory wei(packed, eng); // its three buffers allocated by the library
    reorder(user_wei, wei).execute(s, user_wei, wei);
    memory src(pd.src_desc(), eng), dst(pd.dst_desc(), eng);
    std::vector<uint8_t> a8(a.begin(), a.end());
    fill(src, 0, a8);
    matmul(pd).execute(s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei}, {DNNL_ARG_DST, dst}});
    s.wait();
    return matches(read(dst, M * N), a, b, "packed s8 weights, u8 src") ? 0 : 1;
}

int run(engine::kind kind) {
    engine eng(kind, 0);
    stream s(eng);
    std::vector<int> rcs;
    if (kind == engine::kind::cpu) rcs.push_back(csr_src(eng, s, true));
    rcs.push_back(csr_src(eng, s, false));
    rcs.push_back(coo_weights(eng, s));
    rcs.push_back(packed_weights(eng, s));
    bool any_ran = false, any_bad = false, any_skipped = false;
    for (int rc : rcs) {
        any_ran = any_ran || rc != 77;
        any_skipped = any_skipped || rc == 77;
        any_bad = any_bad || rc == 1;
    }
    // The CPU engine must run every case; elsewhere what is unimplemented is skipped.
    if (kind == engine::kind::cpu && any_skipped) return 1;
    return any_bad ? 1 : any_ran ? 0 : 77;
}

} // namespace

int main(int argc, char **argv) {
    const std::string which = argc > 1 ? argv[1] : "cpu";
    const engine::kind kind = which == "gpu" ? engine::kind::gpu : engine::kind::cpu;
    if (engine::get_count(kind) == 0) {
        std::printf("no %s engine\n", which.c_str());
        return 77;
    }
    try {
        return run(kind);
    } catch (const dnnl::error &e) {
        std::printf("dnnl::error: %s (status %d)\n", e.what(), int(e.status));
        return 1;
    }
}
