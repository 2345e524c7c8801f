// The sdpa partition's fused OpenCL kernel (src/gpu/sdpa) against the reference of
// tests/graph/sdpa_ref.hpp: odd sequence lengths, causal masks (top-left and bottom-right aligned),
// broadcast masks, grouped-query attention (K/V shared by several query heads), scale by
// Multiply or Divide, K given either way, head sizes that are not multiples of 4, bf16 and
// f16 storage. Also: the fused partition needs no temporary area and honours cl_event
// dependencies. Skipped without an OpenCL device.
#include "gpu/graph_ocl_fixture.hpp"
#include "graph/sdpa_ref.hpp"

using namespace graph_test;
using namespace graph_ocl_test;

namespace {

enum class mask_kind { none, causal_top_left, causal_bottom_right, per_head, keys_only };

struct sdpa_case_t {
    int64_t B = 1, Hkv = 2, G = 1; // G query heads share one K/V head (5D shapes when G > 1)
    int64_t Sq = 8, Sk = 8, D = 16, Dv = 16;
    dt type = dt::f32;
    mask_kind mask = mask_kind::none;
    bool divide = false; // Divide by sqrt(D) instead of Multiply by 1/sqrt(D)
    bool k_transposed = true; // K as [.., Sk, D] with transpose_b, else [.., D, Sk]
};

lt_dims head_dims(const sdpa_case_t &c, int64_t heads_g, int64_t rows, int64_t cols) {
    if (c.G > 1) return {c.B, c.Hkv, heads_g, rows, cols};
    return {c.B, c.Hkv, rows, cols};
}

lt_dims mask_dims(const sdpa_case_t &c) {
    switch (c.mask) {
        case mask_kind::per_head: return head_dims(c, c.G, c.Sq, c.Sk);
        case mask_kind::keys_only: return {c.B, 1, 1, c.Sk};
        default: return {1, 1, c.Sq, c.Sk};
    }
}

// Values: 0 Q, 1 K, 2 V, 3 scale, 4 mask, 5..8 intermediate, 9 dst.
build_t sdpa_graph(const sdpa_case_t &c) {
    return [=](graph &g) {
        const dt t = c.type;
        const lt_dims qd = head_dims(c, c.G, c.Sq, c.D), sd = head_dims(c, c.G, c.Sq, c.Sk);
        const lt_dims kd = c.k_transposed ? head_dims(c, 1, c.Sk, c.D) : head_dims(c, 1, c.D, c.Sk);
        op qk(1, op::kind::MatMul, {lt(0, qd, t), lt(1, kd, t)}, {lt(5, sd, t)});
        qk.set_attr(op::attr::transpose_b, c.k_transposed);
        op scale(2, c.divide ? op::kind::Divide : op::kind::Multiply,
                {lt(5, sd, t), lt(3, {1}, t)}, {lt(6, sd, t)});
        const bool masked = c.mask != mask_kind::none;
        op add(3, op::kind::Add, {lt(6, sd, t), lt(4, mask_dims(c), t)}, {lt(7, sd, t)});
        op sm(4, op::kind::SoftMax, {lt(masked ? 7 : 6, sd, t)}, {lt(8, sd, t)});
        sm.set_attr(op::attr::axis, int64_t(-1));
        op pv(5, op::kind::MatMul, {lt(8, sd, t), lt(2, head_dims(c, 1, c.Sk, c.Dv), t)},
                {lt(9, head_dims(c, c.G, c.Sq, c.Dv), t)});
        g.add_op(qk);
        g.add_op(scale);
        if (masked) g.add_op(add);
        g.add_op(sm);
        g.add_op(pv);
    };
}

std::vector<uint8_t> encode(const std::vector<float> &v, dt t) {
    if (t == dt::bf16) return bf16_bytes(v);
    if (t == dt::f16) {
        // Values are -inf or multiples of 1/256 in [-8, 8] (grid_floats, scales): exact.
        std::vector<uint8_t> b(v.size() * 2);
        for (size_t i = 0; i < v.size(); ++i) {
            const float x = v[i];
            uint16_t h = 0;
            if (std::isinf(x)) {
                h = x < 0 ? 0xfc00 : 0x7c00;
            } else if (x != 0.f) {
                int e = 0;
                const float m = std::frexp(std::fabs(x), &e); // x = m * 2^e, m in [0.5, 1)
                const int exp16 = e - 1 + 15;
                const uint16_t mant = static_cast<uint16_t>(std::lround((m * 2 - 1) * 1024));
                h = static_cast<uint16_t>((x < 0 ? 0x8000 : 0) | (exp16 << 10) | mant);
            }
            std::memcpy(&b[2 * i], &h, 2);
        }
        return b;
    }
    return bytes_of(v);
}

std::vector<float> grid_floats(size_t n, unsigned seed) {
    std::vector<float> v = random_floats(n, seed);
    for (auto &x : v)
        x = std::round(x * 256.f) / 256.f; // exact in bf16 and f16
    return v;
}

buffers_t sdpa_data(const sdpa_case_t &c) {
    buffers_t in;
    const int64_t H = c.Hkv * c.G;
    in[0] = encode(grid_floats(c.B * H * c.Sq * c.D, 40), c.type);
    in[1] = encode(grid_floats(c.B * c.Hkv * c.Sk * c.D, 41), c.type);
    in[2] = encode(grid_floats(c.B * c.Hkv * c.Sk * c.Dv, 42), c.type);
    const float s = c.divide ? std::sqrt(float(c.D)) : 1.f / std::sqrt(float(c.D));
    in[3] = encode({c.type == dt::f32 ? s : std::round(s * 64.f) / 64.f}, c.type);
    const lt_dims md = mask_dims(c);
    std::vector<float> m(nelems(md), 0.f);
    switch (c.mask) {
        case mask_kind::none: return in;
        case mask_kind::causal_top_left:
        case mask_kind::causal_bottom_right: {
            const int64_t shift = c.mask == mask_kind::causal_bottom_right ? c.Sk - c.Sq : 0;
            for (int64_t i = 0; i < c.Sq; ++i)
                for (int64_t j = 0; j < c.Sk; ++j)
                    m[i * c.Sk + j] = j > i + shift ? -INFINITY : 0.f;
            break;
        }
        case mask_kind::per_head: m = grid_floats(m.size(), 43); break;
        case mask_kind::keys_only: // padding: the last key of each batch entry is hidden
            for (int64_t b = 0; b < c.B; ++b)
                m[b * c.Sk + c.Sk - 1] = -INFINITY;
            break;
    }
    in[4] = encode(m, c.type);
    return in;
}

// The case's dst by sdpa_ref, from the values the buffers hold.
std::vector<float> reference(const sdpa_case_t &c, const buffers_t &in) {
    sdpa_ref::problem_t p;
    p.B = c.B;
    p.Hkv = c.Hkv;
    p.G = c.G;
    p.Sq = c.Sq;
    p.Sk = c.Sk;
    p.D = c.D;
    p.Dv = c.Dv;
    p.k_transposed = c.k_transposed;
    const double s = floats_of(in.at(3), c.type)[0];
    p.scale = c.divide ? 1 / s : s;
    if (c.mask != mask_kind::none) {
        const std::vector<float> m = floats_of(in.at(4), c.type);
        const lt_dims md = mask_dims(c);
        p.mask = [=](int64_t b, int64_t h, int64_t g, int64_t i, int64_t j) {
            // The mask broadcast over the dims where it has 1, aligned to the right.
            const lt_dims full = c.G > 1 ? lt_dims {b, h, g, i, j} : lt_dims {b, h, i, j};
            const size_t off = full.size() - md.size();
            int64_t idx = 0;
            for (size_t d = 0; d < md.size(); ++d)
                idx = idx * md[d] + (md[d] == 1 ? 0 : full[d + off]);
            return double(m[size_t(idx)]);
        };
    }
    return sdpa_ref::forward(p, floats_of(in.at(0), c.type), floats_of(in.at(1), c.type),
            floats_of(in.at(2), c.type));
}

class graph_ocl_sdpa_t : public graph_ocl_t {
protected:
    // The case on the OpenCL engine (one partition, one fused kernel: no temporary area)
    // against the CPU engine op by op.
    void check(const sdpa_case_t &c) {
        SCOPED_TRACE("B " + std::to_string(c.B) + " Hkv " + std::to_string(c.Hkv) + " G "
                + std::to_string(c.G) + " Sq " + std::to_string(c.Sq) + " Sk "
                + std::to_string(c.Sk) + " D " + std::to_string(c.D) + " Dv "
                + std::to_string(c.Dv) + " mask " + std::to_string(int(c.mask)));
        EXPECT_EQ(scratchpad_bytes(c), 0u) << "not the fused kernel";
        const float tol = c.type == dt::f32 ? 1e-5f : 2e-2f;
        const buffers_t in = sdpa_data(c);
        expect_reference(sdpa_graph(c), in, 9, reference(c, in), 1, tol, c.type);
    }

    // Prints the fused kernel's and the primitive sequence's times for the case.
    void bench(const sdpa_case_t &c);

    size_t scratchpad_bytes(const sdpa_case_t &c) {
        graph g(dnnl::engine::kind::gpu);
        sdpa_graph(c)(g);
        g.finalize();
        auto parts = g.get_partitions();
        if (parts.size() != 1) return ~size_t(0);
        compiled_partition cp
                = parts[0].compile(parts[0].get_input_ports(), parts[0].get_output_ports(), eng);
        return cp.get_scratchpad_logical_tensor().get_mem_size();
    }
};

} // namespace

TEST_F(graph_ocl_sdpa_t, odd_sequence_lengths_match_reference) {
    for (int64_t s : {1, 7, 65}) {
        sdpa_case_t c;
        c.Sq = c.Sk = s;
        c.mask = mask_kind::causal_top_left;
        check(c);
    }
    sdpa_case_t c;
    c.Sq = 1; // one query (decoding) over many keys
    c.Sk = 65;
    check(c);
    c.Sq = 33;
    c.Sk = 7;
    check(c);
}

TEST_F(graph_ocl_sdpa_t, causal_bottom_right_and_broadcast_masks_match_reference) {
    sdpa_case_t c;
    c.Sq = 7;
    c.Sk = 40;
    c.mask = mask_kind::causal_bottom_right;
    check(c);
    c.B = 2;
    c.mask = mask_kind::per_head;
    check(c);
    c.mask = mask_kind::keys_only;
    check(c);
}

TEST_F(graph_ocl_sdpa_t, grouped_query_attention_matches_reference) {
    sdpa_case_t c;
    c.B = 2;
    c.Hkv = 2;
    c.G = 3;
    c.Sq = c.Sk = 19;
    c.mask = mask_kind::causal_top_left;
    check(c);
    c.Hkv = 1; // multi-query: one K/V head for all
    c.G = 4;
    c.mask = mask_kind::per_head;
    check(c);
}

TEST_F(graph_ocl_sdpa_t, divide_plain_k_and_odd_head_sizes_match_reference) {
    sdpa_case_t c;
    c.Sq = c.Sk = 9;
    c.D = 5;
    c.Dv = 3;
    c.divide = true;
    c.k_transposed = false;
    c.mask = mask_kind::causal_top_left;
    check(c);
    c.D = 64;
    c.Dv = 64;
    c.Sq = c.Sk = 33;
    check(c);
}

TEST_F(graph_ocl_sdpa_t, bf16_and_f16_match_reference) {
    sdpa_case_t c;
    c.Sq = c.Sk = 33;
    c.D = c.Dv = 32;
    c.type = dt::bf16;
    c.mask = mask_kind::causal_top_left;
    check(c);
    c.type = dt::f16;
    check(c);
}

TEST_F(graph_ocl_sdpa_t, head_sizes_over_the_kernels_limit_run_as_the_primitive_sequence) {
    sdpa_case_t c;
    c.Hkv = 1;
    c.Sq = c.Sk = 3;
    c.D = 520; // the fused kernel takes head sizes up to 512
    c.Dv = 4;
    c.mask = mask_kind::causal_top_left;
    EXPECT_GT(scratchpad_bytes(c), 0u); // the scores go through the temporary area
    const buffers_t in = sdpa_data(c);
    expect_reference(sdpa_graph(c), in, 9, reference(c, in), 1, 1e-5f);
    EXPECT_GT(app_alloc_state().allocs, 0u);
}

TEST_F(graph_ocl_sdpa_t, fused_execution_waits_for_dependencies) {
    sdpa_case_t c;
    c.mask = mask_kind::causal_top_left;
    buffers_t in = sdpa_data(c);
    prepared_t p;
    prepare(sdpa_graph(c), in, p);
    ASSERT_FALSE(HasFatalFailure());
    execute_after_gate(p);
    ASSERT_FALSE(HasFatalFailure());
    EXPECT_EQ(app_alloc_state().allocs, 0u);
    const auto got = download(p.out_ptr, p.out_bytes);
    expect_near_scaled(floats_of(got, dt::f32), reference(c, in), 1e-5f);
    // The plain execute on the OpenCL stream orders the kernel through the stream.
    std::vector<uint8_t> zeros(got.size(), 0);
    ASSERT_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, p.out_ptr, zeros.data(), zeros.size(), 0,
                      nullptr, nullptr),
            CL_SUCCESS);
    p.cp.execute(strm, p.in, p.out);
    strm.wait();
    EXPECT_EQ(download(p.out_ptr, got.size()), got);
}

// Fused kernel vs primitive sequence: both compiled once, then executed alternately (each
// execution waited for); medians with min and max of wall time and of process CPU time (the
// CPU device's threads: steadier than wall time on a shared machine). A benchmark, not a
// check: runs when ANYDNN_GRAPH_SDPA_BENCH=1 (shape from ANYDNN_GRAPH_SDPA_BENCH_SHAPE=
// "H S D", default "4 256 64"; f32, without a mask and with a causal one).
TEST_F(graph_ocl_sdpa_t, bench_fused_vs_primitive_sequence) {
    const char *on = std::getenv("ANYDNN_GRAPH_SDPA_BENCH");
    if (!on || std::string(on) != "1") GTEST_SKIP() << "set ANYDNN_GRAPH_SDPA_BENCH=1";
    sdpa_case_t c;
    c.Hkv = 4;
    c.Sq = c.Sk = 256;
    c.D = c.Dv = 64;
    if (const char *shape = std::getenv("ANYDNN_GRAPH_SDPA_BENCH_SHAPE")) {
        long long h = 0, s = 0, d = 0;
        if (std::sscanf(shape, "%lld %lld %lld", &h, &s, &d) == 3) {
            c.Hkv = h;
            c.Sq = c.Sk = s;
            c.D = c.Dv = d;
        }
    }
    for (mask_kind mask : {mask_kind::none, mask_kind::causal_top_left}) {
        c.mask = mask;
        bench(c);
    }
}

void graph_ocl_sdpa_t::bench(const sdpa_case_t &c) {
    struct timed_t : prepared_t {
        std::vector<double> wall, cpu;
    };
    buffers_t data = sdpa_data(c);
    auto run_once = [&](timed_t &p, bool record) {
        const auto t0 = std::chrono::steady_clock::now();
        const std::clock_t c0 = std::clock();
        cl_event done = gocl::execute(p.cp, strm, p.in, p.out);
        clWaitForEvents(1, &done);
        clReleaseEvent(done);
        const std::clock_t c1 = std::clock();
        const auto t1 = std::chrono::steady_clock::now();
        if (!record) return;
        p.wall.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        p.cpu.push_back(1e3 * double(c1 - c0) / CLOCKS_PER_SEC);
    };
    timed_t fused, unfused;
    prepare(sdpa_graph(c), data, fused);
    {
        sdpa_unfused_t u;
        prepare(sdpa_graph(c), data, unfused);
    }
    ASSERT_FALSE(HasFatalFailure());
    run_once(fused, false);
    run_once(unfused, false);
    const int reps = 15;
    for (int r = 0; r < reps; ++r) {
        run_once(fused, true);
        run_once(unfused, true);
    }
    auto stats = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        char buf[96];
        std::snprintf(buf, sizeof(buf), "%.2f ms [min %.2f, max %.2f]", v[v.size() / 2],
                v.front(), v.back());
        return std::string(buf);
    };
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    std::printf("sdpa 1x%lldx%lldx%lld f32 %s, %d alternating executions each:\n"
                "  wall: fused kernel %s, primitive sequence %s, speed-up %.1fx\n"
                "  cpu:  fused kernel %s, primitive sequence %s, speed-up %.1fx\n",
            (long long)c.Hkv, (long long)c.Sq, (long long)c.D,
            c.mask == mask_kind::none ? "no mask" : "causal", reps, stats(fused.wall).c_str(),
            stats(unfused.wall).c_str(), median(unfused.wall) / median(fused.wall),
            stats(fused.cpu).c_str(), stats(unfused.cpu).c_str(),
            median(unfused.cpu) / median(fused.cpu));
}
