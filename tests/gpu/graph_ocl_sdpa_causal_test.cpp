// The sdpa partition with the causal mask computed in the graph (GenIndex / GreaterEqual /
// Select, or an Add of such an implicit mask), grouped-query attention in 5D shapes, no mask
// and an explicit additive mask, on the OpenCL engine against a double-precision reference
// written here; the output is poisoned (NaN) before each run. On a CPU OpenCL device (CI) the
// generic kernel runs small cases; ANYDNN_SDPA_FLASH_CHECK=1 adds the flash kernels' cases for
// a GPU (bf16 and f16 on tensor cores, f32 on the FMA units; head sizes 64 to 256, lengths off
// their blocks).
#include <array>
#include <cstdlib>

#include "gpu/graph_ocl_fixture.hpp"

using namespace graph_test;
using namespace graph_ocl_test;

namespace {

enum class mask_t { none, causal_select, causal_add, additive, causal_bottom_right };

bool causal(mask_t m) {
    return m == mask_t::causal_select || m == mask_t::causal_add || m == mask_t::causal_bottom_right;
}

struct causal_case_t {
    int64_t B = 1, Hkv = 2, G = 1; // G query heads per K/V head (5D shapes when G > 1)
    int64_t Sq = 8, Sk = 8, D = 16;
    dt type = dt::f32;
    mask_t mask = mask_t::none;
    bool divide = false;
    bool reshaped = false; // G > 1: Q, K, V and dst 4D, StaticReshapes to and from 5D
    // Bottom-right: the graph's key and query length values (-1: Sk and Sq); the diagonal
    // is key length - query length whatever the shapes.
    int32_t klen = -1, qlen = -1;
    bool stats = false; // the training forward: the SoftMax's statistics output (value 19)
};

int64_t bottom_right_diag(const causal_case_t &c) {
    return (c.klen < 0 ? c.Sk : c.klen) - (c.qlen < 0 ? c.Sq : c.qlen);
}

lt_dims heads(const causal_case_t &c, int64_t g, int64_t rows, int64_t cols) {
    if (c.G > 1) return {c.B, c.Hkv, g, rows, cols};
    return {c.B, c.Hkv, rows, cols};
}

// Values: 0 Q, 1 K, 2 V, 3 scale, 4 mask / -inf, 5 QK, 6 scaled, 7 masked, 8 probabilities,
// 9 dst, 10 row index, 11 column index, 12 condition, 13 zero, 14 implicit additive mask,
// 15 key length, 16 query length, 17 row + key length, 18 shifted row (bottom-right);
// reshaped: 0, 1, 2, 9 are 4D, 20, 21, 22, 23 their 5D forms; 19 the softmax statistics
// (f32, the scores' shape with one key) when c.stats.
build_t causal_graph(const causal_case_t &c) {
    return [=](graph &g) {
        const dt t = c.type;
        const lt_dims sd = heads(c, c.G, c.Sq, c.Sk);
        const bool rs = c.reshaped && c.G > 1;
        const lt_dims q5 = heads(c, c.G, c.Sq, c.D), kv5 = heads(c, 1, c.Sk, c.D);
        const lt_dims q4 = {c.B, c.Hkv * c.G, c.Sq, c.D}, kv4 = {c.B, c.Hkv, c.Sk, c.D};
        op qk(1, op::kind::MatMul, {lt(rs ? 20 : 0, q5, t), lt(rs ? 21 : 1, kv5, t)}, {lt(5, sd, t)});
        qk.set_attr(op::attr::transpose_b, true);
        op scale(2, c.divide ? op::kind::Divide : op::kind::Multiply, {lt(5, sd, t), lt(3, {1}, t)},
                {lt(6, sd, t)});
        op row(3, op::kind::GenIndex, {lt(6, sd, t)}, {lt(10, sd, dt::s32)});
        row.set_attr(op::attr::axis, int64_t(-2));
        op col(4, op::kind::GenIndex, {lt(6, sd, t)}, {lt(11, sd, dt::s32)});
        col.set_attr(op::attr::axis, int64_t(-1));
        const bool br = c.mask == mask_t::causal_bottom_right;
        op ge(5, op::kind::GreaterEqual, {lt(br ? 18 : 10, sd, dt::s32), lt(11, sd, dt::s32)},
                {lt(12, sd, dt::boolean)});
        op plus(11, op::kind::Add, {lt(10, sd, dt::s32), lt(15, {1}, dt::s32)}, {lt(17, sd, dt::s32)});
        op minus(12, op::kind::Subtract, {lt(17, sd, dt::s32), lt(16, {1}, dt::s32)},
                {lt(18, sd, dt::s32)});
        const bool direct = c.mask == mask_t::causal_select || br;
        op sel(6, op::kind::Select,
                {lt(12, sd, dt::boolean), direct ? lt(6, sd, t) : lt(13, {1}, t), lt(4, {1}, t)},
                {direct ? lt(7, sd, t) : lt(14, sd, t)});
        op add_implicit(7, op::kind::Add, {lt(6, sd, t), lt(14, sd, t)}, {lt(7, sd, t)});
        op add_mask(8, op::kind::Add, {lt(6, sd, t), lt(4, {1, 1, c.Sq, c.Sk}, t)}, {lt(7, sd, t)});
        std::vector<logical_tensor> sm_out = {lt(8, sd, t)};
        if (c.stats) sm_out.push_back(lt(19, heads(c, c.G, c.Sq, 1), dt::f32));
        op sm(9, op::kind::SoftMax, {lt(c.mask == mask_t::none ? 6 : 7, sd, t)}, sm_out);
        sm.set_attr(op::attr::axis, int64_t(-1));
        op pv(10, op::kind::MatMul, {lt(8, sd, t), lt(rs ? 22 : 2, kv5, t)}, {lt(rs ? 23 : 9, q5, t)});
        // Dense 4D and 5D forms share their memory order: the data and the reference stay.
        op rq(13, op::kind::StaticReshape, {lt(0, q4, t)}, {lt(20, q5, t)});
        op rk(14, op::kind::StaticReshape, {lt(1, kv4, t)}, {lt(21, kv5, t)});
        op rv(15, op::kind::StaticReshape, {lt(2, kv4, t)}, {lt(22, kv5, t)});
        op ro(16, op::kind::StaticReshape, {lt(23, q5, t)}, {lt(9, q4, t)});
        for (auto r : {std::make_pair(&rq, q5), std::make_pair(&rk, kv5), std::make_pair(&rv, kv5),
                     std::make_pair(&ro, q4)}) {
            r.first->set_attr(op::attr::shape, r.second);
            r.first->set_attr(op::attr::special_zero, false);
        }
        if (rs)
            for (op *r : {&rq, &rk, &rv, &ro})
                g.add_op(*r);
        g.add_op(qk);
        g.add_op(scale);
        if (causal(c.mask)) {
            g.add_op(row);
            g.add_op(col);
            g.add_op(ge);
            g.add_op(sel);
            if (c.mask == mask_t::causal_add) g.add_op(add_implicit);
            if (br) {
                g.add_op(plus);
                g.add_op(minus);
            }
        }
        if (c.mask == mask_t::additive) g.add_op(add_mask);
        g.add_op(sm);
        g.add_op(pv);
    };
}

// Values on a 1/256 grid in [-1, 1]: exact in bf16 and f16.
std::vector<float> grid(size_t n, unsigned seed) {
    std::vector<float> v = random_floats(n, seed);
    for (auto &x : v)
        x = std::round(x * 256.f) / 256.f;
    return v;
}

uint16_t f16_bits(float x) { // normal values and zero, exact ones only
    if (std::isinf(x)) return x < 0 ? 0xfc00 : 0x7c00;
    if (x == 0.f) return 0;
    int e = 0;
    const float m = std::frexp(std::fabs(x), &e);
    const uint16_t mant = static_cast<uint16_t>(std::lround((m * 2 - 1) * 1024));
    return static_cast<uint16_t>((x < 0 ? 0x8000 : 0) | ((e + 14) << 10) | mant);
}

float f16_value(uint16_t h) {
    const int e = (h >> 10) & 31, m = h & 1023;
    const float mag = e == 0 ? std::ldexp(float(m), -24)
            : e == 31        ? (m ? NAN : INFINITY)
                             : std::ldexp(float(1024 + m), e - 25);
    return (h & 0x8000) ? -mag : mag;
}

std::vector<uint8_t> encode(const std::vector<float> &v, dt t) {
    if (t == dt::bf16) return bf16_bytes(v);
    if (t == dt::f32) return bytes_of(v);
    std::vector<uint8_t> b(v.size() * 2);
    for (size_t i = 0; i < v.size(); ++i) {
        const uint16_t h = f16_bits(v[i]);
        std::memcpy(&b[2 * i], &h, 2);
    }
    return b;
}

float decode(const std::vector<uint8_t> &b, size_t i, dt t) {
    if (t == dt::bf16) return bf16_at(b, i);
    if (t == dt::f32) {
        float f;
        std::memcpy(&f, &b[4 * i], 4);
        return f;
    }
    uint16_t h;
    std::memcpy(&h, &b[2 * i], 2);
    return f16_value(h);
}

struct data_t {
    std::vector<float> q, k, v, mask;
    float scale = 1.f;
};

data_t make_data(const causal_case_t &c) {
    data_t d;
    d.q = grid(c.B * c.Hkv * c.G * c.Sq * c.D, 50);
    d.k = grid(c.B * c.Hkv * c.Sk * c.D, 51);
    d.v = grid(c.B * c.Hkv * c.Sk * c.D, 52);
    // Scores of a few units: the softmax is neither flat nor one-hot.
    d.scale = c.divide ? std::sqrt(float(c.D)) / 4.f : 4.f / std::sqrt(float(c.D));
    d.scale = std::round(d.scale * 64.f) / 64.f;
    if (c.mask == mask_t::additive) {
        d.mask = grid(c.Sq * c.Sk, 53);
        for (int64_t i = 0; i < c.Sq; ++i) // some keys hidden, never a whole row
            for (int64_t j = 1; j < c.Sk; j += 3)
                d.mask[i * c.Sk + j] = -INFINITY;
    }
    return d;
}

// dst[b][h][i][:] in double: softmax over the keys row i sees of Q K^T * scale (+ mask);
// stats[b][h][i]: ln(sum_j exp(x_j)) of those scores x, max + ln(sum exp(x - max)).
std::vector<double> reference(const causal_case_t &c, const data_t &d, std::vector<double> *stats = nullptr) {
    const int64_t H = c.Hkv * c.G;
    std::vector<double> out(c.B * H * c.Sq * c.D), s(c.Sk);
    if (stats) stats->assign(c.B * H * c.Sq, 0.0);
    const double scale = c.divide ? 1.0 / d.scale : d.scale;
    for (int64_t b = 0; b < c.B; ++b)
        for (int64_t h = 0; h < H; ++h) {
            const int64_t kvh = b * c.Hkv + h / c.G; // q head h reads K/V head h / G
            const float *q = &d.q[(b * H + h) * c.Sq * c.D];
            const float *k = &d.k[kvh * c.Sk * c.D], *v = &d.v[kvh * c.Sk * c.D];
            for (int64_t i = 0; i < c.Sq; ++i) {
                double mx = -INFINITY;
                for (int64_t j = 0; j < c.Sk; ++j) {
                    double x = 0;
                    for (int64_t e = 0; e < c.D; ++e)
                        x += double(q[i * c.D + e]) * k[j * c.D + e];
                    x *= scale;
                    if (c.mask == mask_t::additive) x += d.mask[i * c.Sk + j];
                    const int64_t diag = c.mask == mask_t::causal_bottom_right ? bottom_right_diag(c) : 0;
                    if (causal(c.mask) && j > i + diag) x = -INFINITY;
                    s[j] = x;
                    mx = std::max(mx, x);
                }
                double sum = 0;
                for (int64_t j = 0; j < c.Sk; ++j)
                    sum += (s[j] = std::exp(s[j] - mx));
                if (stats) (*stats)[(b * H + h) * c.Sq + i] = mx + std::log(sum);
                double *o = &out[((b * H + h) * c.Sq + i) * c.D];
                for (int64_t j = 0; j < c.Sk; ++j)
                    for (int64_t e = 0; e < c.D; ++e)
                        o[e] += s[j] / sum * v[j * c.D + e];
            }
        }
    return out;
}

class graph_ocl_sdpa_causal_t : public graph_ocl_t {
protected:
    void check(const causal_case_t &c) {
        SCOPED_TRACE("B " + std::to_string(c.B) + " Hkv " + std::to_string(c.Hkv) + " G "
                + std::to_string(c.G) + " Sq " + std::to_string(c.Sq) + " Sk "
                + std::to_string(c.Sk) + " D " + std::to_string(c.D) + " type "
                + std::to_string(int(c.type)) + " mask " + std::to_string(int(c.mask))
                + (c.stats ? " with stats" : ""));
        const data_t d = make_data(c);
        buffers_t in;
        in[0] = encode(d.q, c.type);
        in[1] = encode(d.k, c.type);
        in[2] = encode(d.v, c.type);
        in[3] = encode({d.scale}, c.type);
        in[4] = c.mask == mask_t::additive ? encode(d.mask, c.type) : encode({-INFINITY}, c.type);
        in[13] = encode({0.f}, c.type);
        for (auto len : {std::make_pair(15, c.klen < 0 ? int32_t(c.Sk) : c.klen),
                     std::make_pair(16, c.qlen < 0 ? int32_t(c.Sq) : c.qlen)}) {
            in[len.first].resize(4);
            std::memcpy(in[len.first].data(), &len.second, 4);
        }
        graph g(dnnl::engine::kind::gpu);
        causal_graph(c)(g);
        g.finalize();
        const auto parts = g.get_partitions();
        ASSERT_EQ(parts.size(), 1u) << "the pattern is not one partition";
        const auto ports = parts[0].get_output_ports(); // prepare's order
        ASSERT_EQ(ports.size(), c.stats ? 2u : 1u);
        {
            // One kernel, no primitive sequence: the scores never go to a temporary area.
            compiled_partition cp = parts[0].compile(parts[0].get_input_ports(), ports, eng);
            EXPECT_EQ(cp.get_scratchpad_logical_tensor().get_mem_size(), 0u)
                    << "not the fused kernel";
        }
        prepared_t p;
        prepare(causal_graph(c), in, p);
        ASSERT_NE(p.out_ptr, nullptr) << "not compiled"; // each case on its own
        size_t dst_at = 0;
        for (size_t i = 0; i < ports.size(); ++i)
            if (ports[i].get_id() == 9) dst_at = i;
        for (size_t i = 0; i < ports.size(); ++i) { // NaN in every type
            const std::vector<uint8_t> poison(ports[i].get_mem_size(), 0xff);
            ASSERT_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, p.out[i].get_data_handle(),
                              poison.data(), poison.size(), 0, nullptr, nullptr),
                    CL_SUCCESS);
        }
        cl_event done = gocl::execute(p.cp, strm, p.in, p.out);
        ASSERT_NE(done, nullptr);
        ASSERT_EQ(clWaitForEvents(1, &done), CL_SUCCESS);
        clReleaseEvent(done);
        const std::vector<uint8_t> got
                = download(p.out[dst_at].get_data_handle(), ports[dst_at].get_mem_size());
        std::vector<double> want_stats;
        const std::vector<double> want = reference(c, d, c.stats ? &want_stats : nullptr);
        if (c.stats) {
            const size_t at = 1 - dst_at;
            const std::vector<uint8_t> st
                    = download(p.out[at].get_data_handle(), ports[at].get_mem_size());
            ASSERT_EQ(st.size(), want_stats.size() * 4);
            // Scores from exact inputs in f32: only the exponentials' and sums' rounding.
            const double stol = c.type == dt::f32 ? 2e-5 : 1e-4;
            for (size_t i = 0; i < want_stats.size(); ++i) {
                const double got_s = decode(st, i, dt::f32);
                ASSERT_LE(std::fabs(got_s - want_stats[i]), stol * (1 + std::fabs(want_stats[i])))
                        << "stats at " << i << ": got " << got_s << ", want " << want_stats[i];
            }
        }
        // Inputs are exact; P is rounded to the input type before P V on tensor cores.
        const double tol = c.type == dt::f32 ? 1e-4 : c.type == dt::f16 ? 4e-3 : 2e-2;
        double worst = 0;
        for (size_t i = 0; i < want.size(); ++i) {
            const double err = std::fabs(decode(got, i, c.type) - want[i]);
            ASSERT_LE(err, tol * (1 + std::fabs(want[i]))) << "at " << i << ": got "
                    << decode(got, i, c.type) << ", want " << want[i];
            worst = std::max(worst, err);
        }
        RecordProperty("max_abs_err", std::to_string(worst));
    }
};

TEST_F(graph_ocl_sdpa_causal_t, causal_select_f32_matches_reference_at_odd_lengths) {
    for (int64_t s : {1, 17, 70}) {
        causal_case_t c;
        c.Sq = c.Sk = s;
        c.mask = mask_t::causal_select;
        check(c);
    }
}

TEST_F(graph_ocl_sdpa_causal_t, causal_add_of_implicit_mask_f32_fewer_queries_than_keys) {
    causal_case_t c;
    c.Sq = 9;
    c.Sk = 33;
    c.D = 24;
    c.mask = mask_t::causal_add;
    c.divide = true;
    check(c);
}

TEST_F(graph_ocl_sdpa_causal_t, causal_grouped_query_attention_5d_f32_and_bf16) {
    for (dt t : {dt::f32, dt::bf16}) {
        causal_case_t c;
        c.B = 2;
        c.Hkv = 2;
        c.G = 3;
        c.Sq = c.Sk = 19;
        c.type = t;
        c.mask = mask_t::causal_select;
        check(c);
    }
}

TEST_F(graph_ocl_sdpa_causal_t, causal_bottom_right_from_the_graphs_lengths_f32_and_bf16) {
    for (dt t : {dt::f32, dt::bf16})
        for (int32_t klen : {-1, 45}) { // -1: the shapes' lengths; 45 - 9: another diagonal
            causal_case_t c;
            c.Sq = 7;
            c.Sk = 40;
            c.G = 2;
            c.type = t;
            c.mask = mask_t::causal_bottom_right;
            c.klen = klen;
            c.qlen = klen < 0 ? -1 : 9;
            check(c);
        }
}

TEST_F(graph_ocl_sdpa_causal_t, causal_gqa_through_reshapes_of_4d_tensors) {
    causal_case_t c;
    c.Hkv = 2;
    c.G = 4;
    c.Sq = c.Sk = 21;
    c.mask = mask_t::causal_select;
    c.reshaped = true;
    check(c);
}

TEST_F(graph_ocl_sdpa_causal_t, multi_query_attention_no_mask_f32) {
    causal_case_t c;
    c.Hkv = 1;
    c.G = 4;
    c.Sq = 5;
    c.Sk = 41;
    check(c);
}

// The training forward: the SoftMax's statistics output fused with the rest (one kernel, no
// temporary area), every mask form, at lengths off the kernel's blocks, f32, bf16 and f16.
TEST_F(graph_ocl_sdpa_causal_t, training_forward_stats_every_mask_at_odd_lengths) {
    for (mask_t m : {mask_t::none, mask_t::additive, mask_t::causal_select, mask_t::causal_add,
                 mask_t::causal_bottom_right})
        for (auto sq_sk : std::vector<std::array<int64_t, 2>> {{1, 1}, {1, 37}, {13, 13}, {19, 70}}) {
            causal_case_t c;
            c.Sq = sq_sk[0];
            c.Sk = sq_sk[1];
            c.D = 12;
            c.mask = m;
            c.divide = m == mask_t::causal_add;
            c.stats = true;
            check(c);
        }
}

TEST_F(graph_ocl_sdpa_causal_t, training_forward_stats_bf16_f16_and_bottom_right_lengths) {
    for (dt t : {dt::bf16, dt::f16}) {
        causal_case_t c;
        c.type = t;
        c.Sq = 33;
        c.Sk = 33;
        c.mask = mask_t::causal_select;
        c.stats = true;
        check(c);
    }
    causal_case_t c; // the graph's lengths: diagonal 45 - 9, not Sk - Sq
    c.Sq = 7;
    c.Sk = 40;
    c.klen = 45;
    c.qlen = 9;
    c.mask = mask_t::causal_bottom_right;
    c.stats = true;
    check(c);
}

// As a framework builds a training step's attention: 4D Q, K, V and output with
// StaticReshapes to 5D for grouped-query attention, scale by Divide, a causal mask as
// GenIndex / GreaterEqual / Select, the statistics kept for the backward pass.
TEST_F(graph_ocl_sdpa_causal_t, training_forward_stats_framework_style_gqa) {
    for (dt t : {dt::f32, dt::bf16})
        for (mask_t m : {mask_t::causal_select, mask_t::causal_bottom_right, mask_t::none}) {
            causal_case_t c;
            c.B = 2;
            c.Hkv = 2;
            c.G = 3;
            c.Sq = 21;
            c.Sk = m == mask_t::causal_bottom_right ? 29 : 21;
            c.D = 16;
            c.type = t;
            c.mask = m;
            c.divide = true;
            c.reshaped = true;
            c.stats = true;
            check(c);
        }
    causal_case_t c; // multi-query: one K/V head for every query head
    c.Hkv = 1;
    c.G = 4;
    c.Sq = 5;
    c.Sk = 41;
    c.mask = mask_t::additive;
    c.stats = true;
    check(c);
}

// The flash kernels' variants (where the device loads sm_80 PTX): every head size and type on
// tensor cores, f32 on the FMA kernel, lengths that are not multiples of the 64/128-row and
// 64/128-key blocks, bottom-right causal masks offset by the graph's lengths.
// Where sm_90a PTX loads, head sizes 64 and 128 run on the pipelined wgmma kernel unless
// ANYDNN_SDPA_FLASH_WGMMA=0 (mma.sync); =1, =ps its other entries,
// ANYDNN_SDPA_FLASH_WARPS=8 or =4x2 the mma.sync ones. Lengths of 600 to 700 give the key loops
// five or six blocks (the pipelined entries' stages turn over) and, bottom-right, warpgroups of
// one CTA that see different numbers of blocks. Every case runs again as the training
// forward, its statistics checked too.
TEST_F(graph_ocl_sdpa_causal_t, flash_variants_match_reference) {
    const char *on = std::getenv("ANYDNN_SDPA_FLASH_CHECK");
    if (!on || std::string(on) != "1") GTEST_SKIP() << "set ANYDNN_SDPA_FLASH_CHECK=1 (GPU)";
    for (dt t : {dt::bf16, dt::f16})
        for (int64_t D : {64, 80, 96, 128, 256})
            for (mask_t m : {mask_t::none, mask_t::causal_select, mask_t::additive}) {
                causal_case_t c;
                c.type = t;
                c.D = D;
                c.Sq = c.Sk = 203;
                c.mask = m;
                check(c);
                c.stats = true; // the training forward (wgmma: the plain entries)
                check(c);
            }
    // f32 on the FMA kernel: flash_f32_match_reference.
    // Bottom-right causal from the graph's lengths: the offset of the shapes, and others.
    for (dt t : {dt::bf16, dt::f16, dt::f32})
        for (int64_t D : {64, 128})
            for (auto q_k_lens : std::vector<std::array<int32_t, 4>> {
                         {77, 203, -1, -1}, {203, 203, -1, -1}, {150, 300, 300, 170}, {130, 130, 140, 100},
                         {600, 650, -1, -1}}) {
                causal_case_t c;
                c.type = t;
                c.D = D;
                c.G = 2;
                c.Sq = q_k_lens[0];
                c.Sk = q_k_lens[1];
                c.klen = q_k_lens[2];
                c.qlen = q_k_lens[3];
                c.mask = mask_t::causal_bottom_right;
                check(c);
                c.stats = true;
                check(c);
            }
    const std::vector<std::array<int64_t, 4>> shapes = {// G, Sq, Sk, D
            {4, 1, 77, 128}, {4, 17, 17, 64}, {4, 300, 300, 128}, {1, 130, 257, 64},
            {2, 64, 64, 256}, {2, 650, 700, 64}, {1, 700, 650, 128}};
    for (const auto &s : shapes)
        for (mask_t m : {mask_t::causal_select, mask_t::causal_add, mask_t::none}) {
            causal_case_t c;
            c.type = dt::bf16;
            c.G = s[0];
            c.Sq = s[1];
            c.Sk = s[2];
            c.D = s[3];
            c.mask = m;
            c.divide = m == mask_t::causal_add;
            check(c);
            c.stats = true;
            check(c);
        }
}

// f32 on the FMA kernel, every head size (strict f32, the f32 tolerance): 80 takes pieces of 2
// output columns, 256 blocks of 32 keys with V in K^T's place; lengths inside one key block,
// across the blocks' ends and a single query row over several blocks; GQA, every mask (the
// implicit causal Add divides the scores), the training forward.
TEST_F(graph_ocl_sdpa_causal_t, flash_f32_match_reference) {
    const char *on = std::getenv("ANYDNN_SDPA_FLASH_CHECK");
    if (!on || std::string(on) != "1") GTEST_SKIP() << "set ANYDNN_SDPA_FLASH_CHECK=1 (GPU)";
    for (int64_t D : {64, 80, 96, 128, 256})
        for (mask_t m : {mask_t::none, mask_t::causal_select, mask_t::causal_add, mask_t::additive})
            for (int64_t s : {1, 77, 203}) {
                if ((D == 96 || D == 128) && s == 77) continue;
                causal_case_t c;
                c.D = D;
                c.G = 2;
                c.Sq = s;
                c.Sk = s == 1 ? 130 : s;
                c.mask = m;
                c.divide = m == mask_t::causal_add;
                check(c);
                c.stats = true;
                check(c);
            }
    for (int64_t D : {80, 256}) {
        causal_case_t c;
        c.D = D;
        c.Sq = 77;
        c.Sk = 203;
        c.klen = 180;
        c.qlen = 70;
        c.mask = mask_t::causal_bottom_right;
        check(c);
    }
}

// The quick check of the wgmma entries (tools/gpu_bench/run_flash2.sh runs it for the
// default): bf16 and f16, head sizes 64 and 128, causal top-left and bottom-right and no
// mask, four query heads per K/V head and (2 per K/V head, 6 heads) an odd number of K/V
// heads; key lengths past five blocks of 128 (the stages turn over) that are not multiples of
// them. Small enough for the reference to take seconds.
TEST_F(graph_ocl_sdpa_causal_t, flash_wgmma_quick_match_reference) {
    const char *on = std::getenv("ANYDNN_SDPA_FLASH_CHECK");
    if (!on || std::string(on) != "1") GTEST_SKIP() << "set ANYDNN_SDPA_FLASH_CHECK=1 (GPU)";
    const std::vector<std::array<int64_t, 4>> shapes = {{1, 4, 650, 650}, {3, 2, 130, 700}};
    for (dt t : {dt::bf16, dt::f16})
        for (int64_t D : {64, 128})
            for (mask_t m : {mask_t::causal_select, mask_t::causal_bottom_right, mask_t::none})
                for (const auto &s : shapes) { // Hkv, G, Sq, Sk
                    causal_case_t c;
                    c.type = t;
                    c.D = D;
                    c.Hkv = s[0];
                    c.G = s[1];
                    c.Sq = s[2];
                    c.Sk = s[3];
                    c.mask = m;
                    check(c);
                }
}

} // namespace
