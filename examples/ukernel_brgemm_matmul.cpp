// A blocked matmul written with the ukernel API the way a framework does it: its own blocking
// over M, N and K, its own threads, B packed once up front with transform when the brgemm asks
// for it, a brgemm per block shape, and the last K chunk of each block fused with a ReLU on the
// way to D. Checked against plain loops, in f32 and bf16.
//
//   D[M, N] = relu(A[M, K] x B[K, N])
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <thread>
#include <tuple>
#include <vector>

#include "oneapi/dnnl/dnnl_ukernel.hpp"

using namespace dnnl;
using namespace dnnl::ukernel;
using dim = memory::dim;

namespace {

constexpr dim M = 200, N = 160, K = 512;
constexpr dim M_blk = 32, N_blk = 64, K_blk = 64;
constexpr dim K_chunks = K / K_blk; // the first chunks go to C, the last one on to D

uint16_t to_bf16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    u += 0x7fff + ((u >> 16) & 1);
    return uint16_t(u >> 16);
}
float from_bf16(uint16_t v) {
    uint32_t u = uint32_t(v) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// The two brgemms of one block shape: C = sum of the first K chunks, then
// D = relu(C + last chunk).
struct block_kernels_t {
    brgemm body, last;
    size_t scratch = 0;
};

bool run(memory::data_type dt) {
    const bool bf16 = dt == memory::data_type::bf16;
    const size_t es = bf16 ? 2 : 4;
    std::mt19937 gen(42);
    std::uniform_real_distribution<float> dist(-1.f, 1.f);
    // Inputs in the kernel's type; the reference reads the same (rounded) values.
    std::vector<float> A(M * K), B(K * N);
    std::vector<uint8_t> A_raw(M * K * es), B_raw(K * N * es);
    for (dim i = 0; i < M * K; ++i) {
        float v = dist(gen);
        if (bf16) {
            const uint16_t h = to_bf16(v);
            std::memcpy(&A_raw[i * 2], &h, 2);
            v = from_bf16(h);
        } else {
            std::memcpy(&A_raw[i * 4], &v, 4);
        }
        A[i] = v;
    }
    for (dim i = 0; i < K * N; ++i) {
        float v = dist(gen);
        if (bf16) {
            const uint16_t h = to_bf16(v);
            std::memcpy(&B_raw[i * 2], &h, 2);
            v = from_bf16(h);
        } else {
            std::memcpy(&B_raw[i * 4], &v, 4);
        }
        B[i] = v;
    }

    // One brgemm pair per block shape (full blocks and the tails of M and N).
    post_ops relu;
    relu.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    std::map<std::pair<dim, dim>, block_kernels_t> kernels;
    // The B layout depends only on the types (and the CPU).
    const pack_type pack = brgemm::get_B_pack_type(dt, dt);
    for (dim mb : {M_blk, M % M_blk})
        for (dim nb : {N_blk, N % N_blk}) {
            if (mb == 0 || nb == 0 || kernels.count({mb, nb})) continue;
            block_kernels_t k;
            // Packed B is one N block wide (ldb = nb); plain B is read in place (ldb = N).
            const dim ldb = pack == pack_type::pack32 ? nb : N;
            k.body = brgemm(mb, nb, K_blk, K_chunks - 1, K, ldb, N_blk, dt, dt,
                    memory::data_type::f32);
            k.body.finalize();
            k.body.generate();
            k.last = brgemm(mb, nb, K_blk, 1, K, ldb, N_blk, dt, dt, memory::data_type::f32);
            k.last.set_add_C(true);
            k.last.set_post_ops(N, memory::data_type::f32, relu);
            k.last.finalize();
            k.last.generate();
            if (!k.last.is_execute_postops_valid()) return false;
            k.scratch = k.last.get_scratchpad_size();
            kernels[{mb, nb}] = k;
        }

    // B packed once, N block by N block: block j holds columns [j N_blk, ...) of all of K.
    const dim n_blocks = (N + N_blk - 1) / N_blk;
    std::vector<uint8_t> B_packed;
    std::vector<dim> B_block_offset(n_blocks);
    if (pack == pack_type::pack32) {
        B_packed.resize(size_t(K * N_blk * n_blocks) * es);
        for (dim j = 0; j < n_blocks; ++j) {
            const dim nb = std::min(N_blk, N - j * N_blk);
            B_block_offset[j] = j * K * N_blk * dim(es);
            transform t(K, nb, pack_type::no_trans, N, nb, dt, dt);
            t.generate();
            t.execute(B_raw.data() + j * N_blk * es, B_packed.data() + B_block_offset[j]);
        }
    }
    const uint8_t *B_used = pack == pack_type::pack32 ? B_packed.data() : B_raw.data();

    // The framework's threads take blocks of D in turn.
    std::vector<float> D(M * N, NAN);
    const dim m_blocks = (M + M_blk - 1) / M_blk;
    std::atomic<dim> next {0};
    auto worker = [&] {
        std::vector<float> C(M_blk * N_blk);
        std::vector<uint8_t> scratch;
        for (dim b = next++; b < m_blocks * n_blocks; b = next++) {
            const dim i = b / n_blocks, j = b % n_blocks;
            const dim m0 = i * M_blk, n0 = j * N_blk;
            const dim mb = std::min(M_blk, M - m0), nb = std::min(N_blk, N - n0);
            const block_kernels_t &k = kernels.at({mb, nb});
            scratch.resize(k.scratch);
            // Byte offsets of chunk c: A columns [c K_blk, ...) of rows m0..; B rows of it.
            std::vector<std::pair<dim, dim>> offs(K_chunks);
            for (dim c = 0; c < K_chunks; ++c) {
                const dim a = (m0 * K + c * K_blk) * dim(es);
                const dim bo = pack == pack_type::pack32
                        ? B_block_offset[j] + c * K_blk * nb * dim(es)
                        : (c * K_blk * N + n0) * dim(es);
                offs[c] = {a, bo};
            }
            k.body.set_hw_context();
            const std::vector<std::pair<dim, dim>> body(offs.begin(), offs.end() - 1);
            k.body.execute(A_raw.data(), B_used, body, C.data(), scratch.data());
            const std::vector<std::pair<dim, dim>> last(offs.end() - 1, offs.end());
            k.last.execute(A_raw.data(), B_used, last, C.data(), D.data() + m0 * N + n0,
                    scratch.data());
        }
        brgemm::release_hw_context();
    };
    std::vector<std::thread> threads;
    const unsigned nthr = std::max(2u, std::min(4u, std::thread::hardware_concurrency()));
    for (unsigned t = 0; t < nthr; ++t)
        threads.emplace_back(worker);
    for (auto &t : threads)
        t.join();

    // Plain loops.
    double max_err = 0;
    for (dim m = 0; m < M; ++m)
        for (dim n = 0; n < N; ++n) {
            double v = 0;
            for (dim k = 0; k < K; ++k)
                v += double(A[m * K + k]) * B[k * N + n];
            v = std::max(v, 0.0);
            const double err = std::fabs(D[m * N + n] - v) / (1.0 + std::fabs(v));
            if (!(err <= max_err)) max_err = std::isnan(err) ? INFINITY : err;
        }
    const double tol = 1e-4; // f32 accumulation over K = 512 of products of the same inputs
    std::printf("ukernel blocked matmul %s: M %lld N %lld K %lld, B %s, %u threads, max "
                "relative error %.2e: %s\n",
            bf16 ? "bf16" : "f32", (long long)M, (long long)N, (long long)K,
            pack == pack_type::pack32 ? "packed by transform" : "read in place", nthr, max_err,
            max_err <= tol ? "ok" : "FAILED");
    return max_err <= tol;
}

} // namespace

int main() {
    try {
        bool ok = run(memory::data_type::f32);
        ok = run(memory::data_type::bf16) && ok;
        return ok ? 0 : 1;
    } catch (const dnnl::error &e) {
        std::printf("ukernel example failed: %s (status %d)\n", e.what(), int(e.status));
        return 1;
    }
}
