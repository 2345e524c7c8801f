// brgemm execute_postops against a reference written here: D = post-ops(scales x (add_C ? C :
// 0) + sum A_i x B_i) / D scale, for each post-op kind the brgemm takes (eltwise, binary with
// every broadcast), A/B/D scales (B per tensor and per column), and D types.
#include <cmath>
#include <string>

#include "ukernel/brgemm_problem.hpp"

using namespace ukernel_test;

namespace {

enum class bcast { scalar, per_n, per_m, full };

struct po_case_t {
    types_t t;
    shape_t s;
    bool add_C;
    dnnl_data_type_t d_dt;
    dnnl_alg_kind_t eltwise; // dnnl_alg_kind_undef: none
    float alpha, beta;
    dnnl_alg_kind_t binary; // dnnl_alg_kind_undef: none
    bcast shape;
    bool a_scale;
    int b_mask; // -1: no B scales
    bool d_scale;
    float sum_scale = 0; // != 0: a sum post-op (zero point 1) after the eltwise one
};

double eltwise_ref(dnnl_alg_kind_t alg, double x, double alpha, double beta) {
    switch (alg) {
        case dnnl_eltwise_relu: return x > 0 ? x : alpha * x;
        case dnnl_eltwise_linear: return alpha * x + beta;
        case dnnl_eltwise_clip: return std::min(beta, std::max(alpha, x));
        case dnnl_eltwise_abs: return std::fabs(x);
        case dnnl_eltwise_square: return x * x;
        case dnnl_eltwise_logistic: return 1 / (1 + std::exp(-x));
        case dnnl_eltwise_tanh: return std::tanh(x);
        default: return x;
    }
}

double binary_ref(dnnl_alg_kind_t alg, double x, double y) {
    switch (alg) {
        case dnnl_binary_add: return x + y;
        case dnnl_binary_mul: return x * y;
        case dnnl_binary_sub: return x - y;
        case dnnl_binary_max: return std::max(x, y);
        case dnnl_binary_min: return std::min(x, y);
        case dnnl_binary_div: return x / y;
        default: return x;
    }
}

double round_store(dnnl_data_type_t dt, double v) {
    if (dt == dnnl_s8) return std::max(-128.0, std::min(127.0, std::nearbyint(v)));
    if (dt == dnnl_u8) return std::max(0.0, std::min(255.0, std::nearbyint(v)));
    if (dt == dnnl_s32) return std::nearbyint(v);
    return v;
}

void run(const po_case_t &pc, unsigned seed) {
    const types_t &t = pc.t;
    const shape_t &s = pc.s;
    SCOPED_TRACE(name_of(t) + " M" + std::to_string(s.M) + " N" + std::to_string(s.N) + " K"
            + std::to_string(s.K) + " bs" + std::to_string(s.bs) + " d " + dnnl_dt2str(pc.d_dt)
            + " eltwise " + dnnl_alg_kind2str(pc.eltwise) + " binary "
            + dnnl_alg_kind2str(pc.binary) + " bcast " + std::to_string(int(pc.shape))
            + (pc.add_C ? " add_C" : "") + " scales A" + std::to_string(pc.a_scale) + " B"
            + std::to_string(pc.b_mask) + " D" + std::to_string(pc.d_scale));
    std::mt19937 gen(seed);
    problem_t p(t, s, gen);
    const dnnl_dim_t ldd = s.N + 2;

    // The binary operand: f32, dims by broadcast kind.
    const dnnl_dims_t dims = {pc.shape == bcast::per_m || pc.shape == bcast::full ? s.M : 1,
            pc.shape == bcast::per_n || pc.shape == bcast::full ? s.N : 1};
    buffer_t bin(dnnl_f32, size_t(dims[0] * dims[1]));
    bin.fill(gen);
    for (size_t i = 0; i < bin.n; ++i) // no zero divisors
        if (bin.at(i) == 0) bin.put(i, 3);
    dnnl_memory_desc_t bin_md = nullptr;
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&bin_md, 2, dims, dnnl_f32, dnnl_ab),
            dnnl_success);
    dnnl_post_ops_t po = nullptr;
    ASSERT_EQ(dnnl_post_ops_create(&po), dnnl_success);
    if (pc.eltwise != dnnl_alg_kind_undef) {
        ASSERT_EQ(dnnl_post_ops_append_eltwise(po, pc.eltwise, pc.alpha, pc.beta),
                dnnl_success);
    }
    if (pc.sum_scale != 0) {
        ASSERT_EQ(dnnl_post_ops_append_sum(po, pc.sum_scale, 1, dnnl_data_type_undef),
                dnnl_success);
    }
    if (pc.binary != dnnl_alg_kind_undef) {
        ASSERT_EQ(dnnl_post_ops_append_binary(po, pc.binary, bin_md), dnnl_success);
    }

    dnnl_brgemm_t br = nullptr;
    ASSERT_EQ(dnnl_brgemm_create(&br, s.M, s.N, s.K, s.bs, p.lda, p.ldb, p.ldc, t.a, t.b, t.c),
            dnnl_success);
    ASSERT_EQ(dnnl_brgemm_set_add_C(br, pc.add_C), dnnl_success);
    ASSERT_EQ(dnnl_brgemm_set_post_ops(br, ldd, pc.d_dt, po), dnnl_success);
    if (pc.a_scale) {
        ASSERT_EQ(dnnl_brgemm_set_A_scales(br, 0), dnnl_success);
    }
    if (pc.b_mask >= 0) {
        ASSERT_EQ(dnnl_brgemm_set_B_scales(br, pc.b_mask), dnnl_success);
    }
    if (pc.d_scale) {
        ASSERT_EQ(dnnl_brgemm_set_D_scales(br, 0), dnnl_success);
    }
    ASSERT_EQ(dnnl_brgemm_finalize(br), dnnl_success);
    int valid = 0;
    ASSERT_EQ(dnnl_brgemm_is_execute_postops_valid(br, &valid), dnnl_success);
    const bool expect_valid = pc.eltwise != dnnl_alg_kind_undef
            || pc.binary != dnnl_alg_kind_undef || pc.sum_scale != 0 || pc.a_scale || pc.b_mask >= 0 || pc.d_scale
            || pc.d_dt != t.c;
    ASSERT_EQ(valid, expect_valid ? 1 : 0);
    if (!valid) {
        dnnl_brgemm_destroy(br);
        dnnl_post_ops_destroy(po);
        dnnl_memory_desc_destroy(bin_md);
        return;
    }
    ASSERT_EQ(dnnl_brgemm_generate(br), dnnl_success);
    dnnl_pack_type_t pack = dnnl_pack_type_undef;
    ASSERT_EQ(dnnl_brgemm_get_B_pack_type(&pack, t.a, t.b), dnnl_success);
    p.prepare_b(pack);

    buffer_t C(t.c, size_t(s.M * p.ldc));
    C.fill(gen);
    const buffer_t C0 = C;
    buffer_t D(pc.d_dt, size_t(s.M * ldd));
    D.fill(gen);
    const buffer_t D0 = D;
    size_t scratch_size = 0;
    ASSERT_EQ(dnnl_brgemm_get_scratchpad_size(br, &scratch_size), dnnl_success);
    std::vector<uint8_t> scratch(scratch_size);

    const float a_scale = 0.5f, d_scale = 0.25f;
    std::vector<float> b_scales(size_t(s.N));
    for (dnnl_dim_t n = 0; n < s.N; ++n)
        b_scales[size_t(n)] = 0.25f * float(1 + n % 5);
    dnnl_ukernel_attr_params_t params = nullptr;
    ASSERT_EQ(dnnl_ukernel_attr_params_create(&params), dnnl_success);
    const void *bin_args[] = {bin.ptr()};
    ASSERT_EQ(dnnl_ukernel_attr_params_set_post_ops_args(params, bin_args), dnnl_success);
    ASSERT_EQ(dnnl_ukernel_attr_params_set_A_scales(params, &a_scale), dnnl_success);
    ASSERT_EQ(dnnl_ukernel_attr_params_set_B_scales(params, b_scales.data()), dnnl_success);
    ASSERT_EQ(dnnl_ukernel_attr_params_set_D_scales(params, &d_scale), dnnl_success);

    ASSERT_EQ(dnnl_brgemm_execute_postops(br, p.A.ptr(), p.B_used.data(), p.offsets.data(),
                      C.ptr(), D.ptr(), scratch.data(), params),
            dnnl_success);

    for (dnnl_dim_t m = 0; m < s.M; ++m)
        for (dnnl_dim_t n = 0; n < ldd; ++n) {
            const size_t i = size_t(m * ldd + n);
            if (n >= s.N) { // past N: untouched
                ASSERT_EQ(D.at(i), D0.at(i));
                continue;
            }
            double v = p.product(m, n) + (pc.add_C ? C0.at(size_t(m * p.ldc + n)) : 0);
            if (pc.a_scale) v *= a_scale;
            if (pc.b_mask >= 0) v *= b_scales[pc.b_mask == 2 ? size_t(n) : 0];
            if (pc.eltwise != dnnl_alg_kind_undef) v = eltwise_ref(pc.eltwise, v, pc.alpha, pc.beta);
            if (pc.sum_scale != 0) v += pc.sum_scale * (D0.at(i) - 1);
            if (pc.binary != dnnl_alg_kind_undef) {
                const dnnl_dim_t bm = dims[0] == 1 ? 0 : m, bn = dims[1] == 1 ? 0 : n;
                v = binary_ref(pc.binary, v, bin.at(size_t(bm * dims[1] + bn)));
            }
            if (pc.d_scale) v /= d_scale;
            const double want = round_store(pc.d_dt, v);
            const double tol = pc.d_dt == dnnl_bf16 ? 1e-2 * std::fabs(want) + 1e-2
                    : pc.d_dt == dnnl_f16        ? 2e-3 * std::fabs(want) + 1e-3
                    : pc.d_dt == dnnl_s8 || pc.d_dt == dnnl_u8 || pc.d_dt == dnnl_s32 ? 1.0
                                                               : 1e-5 * std::fabs(want) + 1e-5;
            ASSERT_NEAR(D.at(i), want, tol) << "at m " << m << " n " << n;
        }
    // C is only read.
    for (size_t i = 0; i < C.n; ++i)
        ASSERT_EQ(C.at(i), C0.at(i));

    dnnl_ukernel_attr_params_destroy(params);
    dnnl_brgemm_destroy(br);
    dnnl_post_ops_destroy(po);
    dnnl_memory_desc_destroy(bin_md);
}

const types_t types[] = {{dnnl_f32, dnnl_f32, dnnl_f32}, {dnnl_bf16, dnnl_bf16, dnnl_f32},
        {dnnl_f16, dnnl_f16, dnnl_f32}, {dnnl_u8, dnnl_s8, dnnl_s32},
        {dnnl_s8, dnnl_s8, dnnl_s32}};

const shape_t po_shapes[] = {{7, 13, 5, 3, 1, 2, 3}, {17, 70, 32, 2, 0, 0, 1}};

} // namespace

TEST(ukernel_brgemm_postops, each_eltwise_kind) {
    const struct {
        dnnl_alg_kind_t alg;
        float alpha, beta;
    } elts[] = {{dnnl_eltwise_relu, 0.f, 0.f}, {dnnl_eltwise_relu, 0.125f, 0.f},
            {dnnl_eltwise_linear, 0.5f, -3.f}, {dnnl_eltwise_clip, -20.f, 30.f},
            {dnnl_eltwise_abs, 0.f, 0.f}, {dnnl_eltwise_square, 0.f, 0.f},
            {dnnl_eltwise_logistic, 0.f, 0.f}, {dnnl_eltwise_tanh, 0.f, 0.f}};
    unsigned seed = 100;
    for (const types_t &t : types)
        for (const shape_t &s : po_shapes)
            for (const auto &e : elts)
                run({t, s, (seed & 1) != 0, dnnl_f32, e.alg, e.alpha, e.beta,
                            dnnl_alg_kind_undef, bcast::scalar, false, -1, false},
                        seed++);
}

TEST(ukernel_brgemm_postops, each_binary_kind_and_broadcast) {
    const dnnl_alg_kind_t algs[] = {dnnl_binary_add, dnnl_binary_mul, dnnl_binary_sub,
            dnnl_binary_max, dnnl_binary_min, dnnl_binary_div};
    unsigned seed = 200;
    for (const types_t &t : types)
        for (const shape_t &s : po_shapes)
            for (dnnl_alg_kind_t alg : algs)
                for (bcast b : {bcast::scalar, bcast::per_n, bcast::per_m, bcast::full})
                    run({t, s, (seed & 1) != 0, dnnl_f32, dnnl_alg_kind_undef, 0.f, 0.f, alg,
                                b, false, -1, false},
                            seed++);
}

TEST(ukernel_brgemm_postops, scales_and_d_types) {
    unsigned seed = 300;
    for (const types_t &t : types)
        for (const shape_t &s : po_shapes)
            for (dnnl_data_type_t d : {dnnl_f32, dnnl_bf16, dnnl_f16, dnnl_s8, dnnl_u8, dnnl_s32})
                for (int b_mask : {-1, 0, 2}) {
                    run({t, s, true, d, dnnl_eltwise_relu, 0.f, 0.f, dnnl_binary_add,
                                bcast::per_n, true, b_mask, true},
                            seed++);
                    // Only a D type differing from C's: a valid post-op stage of its own.
                    run({t, s, false, d, dnnl_alg_kind_undef, 0.f, 0.f, dnnl_alg_kind_undef,
                                bcast::scalar, false, b_mask, false},
                            seed++);
                }
}

// A sum post-op adds D's previous value (less its zero point, times its scale) in chain order.
TEST(ukernel_brgemm_postops, sum_reads_d_before_writing_it) {
    unsigned seed = 500;
    for (const types_t &t : types)
        for (const shape_t &s : po_shapes)
            for (dnnl_data_type_t d : {dnnl_f32, dnnl_bf16, dnnl_s8, t.c})
                for (float sum_scale : {1.f, 0.5f, -2.f}) {
                    po_case_t pc {t, s, seed % 2 == 0, d, dnnl_eltwise_relu, 0.f, 0.f,
                            dnnl_binary_add, bcast::per_n, seed % 3 == 0, -1, false};
                    pc.sum_scale = sum_scale;
                    run(pc, seed++);
                }
}
