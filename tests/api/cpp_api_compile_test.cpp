// The C++ API (dnnl.hpp): a program written for oneDNN's C++ API compiles
// against ours, and the wrappers behave on the core objects. Primitives not
// implemented yet are only type-checked, in unevaluated operands, so their C
// entry points need not exist for this file to link.
#include <cstdint>
#include <cstring>
#include <exception>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "dnnl.hpp"
#include "oneapi/dnnl/dnnl.hpp"

using dnnl::algorithm;
using dnnl::engine;
using dnnl::memory;
using dnnl::prop_kind;
using dnnl::stream;

using tag = memory::format_tag;
using dt = memory::data_type;

// Type-checks an expression (overloads, defaults, access) without running it.
#define TYPE_CHECKS(...) static_cast<void>(sizeof(decltype((__VA_ARGS__), 0)))

namespace {

// Runs f and returns the status of the dnnl::error it throws; success if none.
template <typename F>
dnnl_status_t status_thrown_by(F f) {
    try {
        f();
    } catch (const dnnl::error &e) {
        return e.status;
    }
    return dnnl_success;
}

std::vector<float> read_all(const memory &m) {
    const size_t n = m.get_desc().get_size() / sizeof(float);
    const float *p = m.map_data<float>();
    std::vector<float> out(p, p + n);
    m.unmap_data(const_cast<float *>(p));
    return out;
}

void write_all(const memory &m, const std::vector<float> &values) {
    float *p = m.map_data<float>();
    std::memcpy(p, values.data(), values.size() * sizeof(float));
    m.unmap_data(p);
}

} // namespace

TEST(cpp_api, engine_and_stream_wrap_the_c_handles) {
    EXPECT_GE(engine::get_count(engine::kind::cpu), 1u);
    engine eng(engine::kind::cpu, 0);
    EXPECT_TRUE(static_cast<bool>(eng));
    EXPECT_EQ(eng.get_kind(), engine::kind::cpu);
    EXPECT_EQ(dnnl::convert_to_c(engine::kind::cpu), dnnl_cpu);

    stream s(eng);
    EXPECT_TRUE(s.get_engine() == eng);
    s.wait();

    stream s2(eng, stream::flags::in_order);
    EXPECT_TRUE(s2 != s);

    engine copy = eng;
    EXPECT_TRUE(copy == eng);
    EXPECT_EQ(copy.get(), eng.get());

    engine empty;
    EXPECT_FALSE(static_cast<bool>(empty));
    EXPECT_EQ(empty.get(true), nullptr);
}

TEST(cpp_api, flags_enums_combine_bitwise) {
    const stream::flags f
            = stream::flags::in_order | stream::flags::out_of_order;
    EXPECT_EQ(static_cast<unsigned>(f),
            static_cast<unsigned>(dnnl_stream_in_order)
                    | static_cast<unsigned>(dnnl_stream_out_of_order));
    dnnl::normalization_flags nf = dnnl::normalization_flags::use_scale;
    nf |= dnnl::normalization_flags::use_shift;
    EXPECT_EQ(dnnl::convert_to_c(nf),
            static_cast<dnnl_normalization_flags_t>(
                    dnnl_use_scale | dnnl_use_shift));
    EXPECT_EQ(nf & dnnl::normalization_flags::use_global_stats,
            dnnl::normalization_flags::none);
}

TEST(cpp_api, enum_values_are_the_c_values) {
    EXPECT_EQ(memory::convert_to_c(dt::f32), dnnl_f32);
    EXPECT_EQ(memory::convert_to_c(dt::s8), dnnl_s8);
    EXPECT_EQ(memory::convert_to_c(tag::nchw), dnnl_nchw);
    EXPECT_EQ(memory::convert_to_c(tag::nchw), dnnl_abcd);
    EXPECT_TRUE(dnnl_f32 == dt::f32);
    EXPECT_TRUE(tag::ab == dnnl_ab);
    EXPECT_EQ(dnnl::convert_to_c(prop_kind::forward), dnnl_forward_training);
    EXPECT_EQ(dnnl::convert_to_c(algorithm::eltwise_relu), dnnl_eltwise_relu);
    EXPECT_EQ(dnnl::convert_to_c(algorithm::binary_select), dnnl_binary_select);
    EXPECT_EQ(dnnl::convert_to_c(dnnl::query::exec_arg_md),
            dnnl_query_exec_arg_md);
    EXPECT_EQ(dnnl::convert_to_c(dnnl::primitive::kind::group_normalization),
            dnnl_group_normalization);
    EXPECT_EQ(dnnl::convert_to_c(dnnl::fpmath_mode::tf32),
            dnnl_fpmath_mode_tf32);
    EXPECT_EQ(dnnl::convert_to_c(dnnl::accumulation_mode::f16),
            dnnl_accumulation_mode_f16);
    EXPECT_EQ(memory::data_type_size(dt::f32), 4u);
    EXPECT_EQ(memory::data_type_size(dt::bf16), 2u);
}

TEST(cpp_api, memory_desc_plain_f32_2x3) {
    const memory::desc md({2, 3}, dt::f32, tag::ab);
    EXPECT_EQ(md.get_size(), 24u);
    EXPECT_EQ(md.get_ndims(), 2);
    EXPECT_EQ(md.get_dims(), (memory::dims {2, 3}));
    EXPECT_EQ(md.get_padded_dims(), (memory::dims {2, 3}));
    EXPECT_EQ(md.get_padded_offsets(), (memory::dims {0, 0}));
    EXPECT_EQ(md.get_strides(), (memory::dims {3, 1}));
    EXPECT_EQ(md.get_data_type(), dt::f32);
    EXPECT_EQ(md.get_format_kind(), memory::format_kind::blocked);
    EXPECT_EQ(md.get_inner_nblks(), 0);
    EXPECT_TRUE(md.get_inner_blks().empty());
    EXPECT_EQ(md.get_submemory_offset(), 0);
    EXPECT_FALSE(md.is_zero());
}

TEST(cpp_api, memory_desc_strides_and_tags_compare) {
    const memory::desc by_strides({2, 3}, dt::f32, memory::dims {1, 2});
    EXPECT_EQ(by_strides.get_strides(), (memory::dims {1, 2}));
    EXPECT_EQ(by_strides.get_size(), 24u);

    const memory::desc by_tag({2, 3}, dt::f32, tag::ba);
    EXPECT_TRUE(by_strides == by_tag);
    EXPECT_TRUE(by_tag != memory::desc({2, 3}, dt::f32, tag::ab));
    EXPECT_TRUE(by_tag != memory::desc({2, 3}, dt::s32, tag::ba));

    const memory::desc zero;
    EXPECT_TRUE(zero.is_zero());
    EXPECT_EQ(zero.get_ndims(), 0);
    EXPECT_EQ(zero.get_size(), 0u);
    EXPECT_TRUE(zero.get_dims().empty());
    EXPECT_TRUE(zero != by_tag);

    const memory::desc nchw({2, 16, 3, 3}, dt::f32, tag::nhwc);
    EXPECT_EQ(nchw.get_strides(), (memory::dims {144, 1, 48, 16}));
}

TEST(cpp_api, memory_desc_reshape_permute_submemory) {
    const memory::desc md({2, 3}, dt::f32, tag::ab);

    const memory::desc flat = md.reshape({6});
    EXPECT_EQ(flat.get_dims(), (memory::dims {6}));
    EXPECT_EQ(flat.get_size(), 24u);

    const memory::desc swapped = md.permute_axes({1, 0});
    EXPECT_EQ(swapped.get_dims(), (memory::dims {3, 2}));
    EXPECT_EQ(swapped.get_strides(), (memory::dims {1, 3}));

    const memory::desc row = md.submemory_desc({1, 3}, {1, 0});
    EXPECT_EQ(row.get_dims(), (memory::dims {1, 3}));
    EXPECT_EQ(row.get_submemory_offset(), 3);
}

TEST(cpp_api, memory_desc_blob_round_trip) {
    memory::desc md({4, 8, 2, 2}, dt::bf16, tag::nhwc);
    const std::vector<uint8_t> blob = md.get_blob();
    EXPECT_FALSE(blob.empty());
    const memory::desc back(blob);
    EXPECT_TRUE(back == md);
}

TEST(cpp_api, memory_allocates_maps_and_takes_user_pointers) {
    engine eng(engine::kind::cpu, 0);
    const memory::desc md({2, 3}, dt::f32, tag::ab);

    memory owned(md, eng);
    EXPECT_NE(owned.get_data_handle(), nullptr);
    EXPECT_TRUE(owned.get_desc() == md);
    EXPECT_TRUE(owned.get_engine() == eng);
    write_all(owned, {1, 2, 3, 4, 5, 6});
    EXPECT_EQ(read_all(owned), (std::vector<float> {1, 2, 3, 4, 5, 6}));

    std::vector<float> user(6, 7.f);
    memory wrapped(md, eng, user.data());
    EXPECT_EQ(wrapped.get_data_handle(), user.data());
    EXPECT_EQ(read_all(wrapped), user);

    std::vector<float> other(6, 9.f);
    wrapped.set_data_handle(other.data());
    EXPECT_EQ(wrapped.get_data_handle(), other.data());

    memory handles(md, eng, std::vector<void *> {user.data()});
    EXPECT_EQ(handles.get_data_handle(0), user.data());
}

TEST(cpp_api, invalid_calls_throw_dnnl_error_with_status) {
    // Rejected by the wrapper before any C call: more than DNNL_MAX_NDIMS.
    EXPECT_EQ(status_thrown_by([] {
        memory::desc md(memory::dims(DNNL_MAX_NDIMS + 1, 1), dt::f32,
                memory::dims {});
    }),
            dnnl_invalid_arguments);

    // Rejected by the library: a negative dimension.
    EXPECT_EQ(status_thrown_by(
                      [] { memory::desc md({2, -3}, dt::f32, tag::ab); }),
            dnnl_invalid_arguments);

    // allow_empty turns the same failure into an empty descriptor.
    const memory::desc none({2, -3}, dt::f32, tag::ab, true);
    EXPECT_FALSE(static_cast<bool>(none));

    // Using an empty object.
    EXPECT_EQ(status_thrown_by([] { memory().get_desc(); }),
            dnnl_invalid_arguments);

    try {
        memory::desc md({2, -3}, dt::f32, tag::ab);
        FAIL() << "no exception";
    } catch (const std::exception &e) {
        ASSERT_NE(dynamic_cast<const dnnl::error *>(&e), nullptr);
        EXPECT_NE(e.what(), nullptr);
        EXPECT_GT(std::strlen(e.what()), 0u);
    }

    EXPECT_NO_THROW(dnnl::error::wrap_c_api(dnnl_success, "unused"));
    EXPECT_EQ(status_thrown_by([] {
        dnnl::error::wrap_c_api(dnnl_out_of_memory, "out of memory");
    }),
            dnnl_out_of_memory);
}

TEST(cpp_api, post_ops_append_and_read_back) {
    const memory::desc src1({1, 3}, dt::f32, tag::ab);
    dnnl::post_ops ops;
    EXPECT_EQ(ops.len(), 0);
    ops.append_sum(0.5f);
    ops.append_eltwise(algorithm::eltwise_relu, 0.25f, 0.f);
    ops.append_binary(algorithm::binary_add, src1);
    ASSERT_EQ(ops.len(), 3);
    EXPECT_EQ(ops.kind(0), dnnl::primitive::kind::sum);
    EXPECT_EQ(ops.kind(1), dnnl::primitive::kind::eltwise);
    EXPECT_EQ(ops.kind(2), dnnl::primitive::kind::binary);
    EXPECT_EQ(status_thrown_by([&] { ops.kind(3); }), dnnl_invalid_arguments);

    float scale = 0.f;
    int32_t zp = -1;
    dt sum_dt = dt::f32;
    ops.get_params_sum(0, scale, zp, sum_dt);
    EXPECT_EQ(scale, 0.5f);
    EXPECT_EQ(zp, 0);
    EXPECT_EQ(sum_dt, dt::undef);

    algorithm alg = algorithm::undef;
    float alpha = 0.f, beta = 1.f;
    ops.get_params_eltwise(1, alg, alpha, beta);
    EXPECT_EQ(alg, algorithm::eltwise_relu);
    EXPECT_EQ(alpha, 0.25f);
    EXPECT_EQ(beta, 0.f);

    memory::desc got;
    ops.get_params_binary(2, alg, got);
    EXPECT_EQ(alg, algorithm::binary_add);
    EXPECT_TRUE(got == src1);
}

TEST(cpp_api, primitive_attr_setters_and_getters) {
    dnnl::primitive_attr attr;
    dnnl::post_ops ops;
    ops.append_eltwise(algorithm::eltwise_tanh, 0.f, 0.f);
    attr.set_post_ops(ops);
    EXPECT_EQ(attr.get_post_ops().len(), 1);

    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    EXPECT_EQ(attr.get_scratchpad_mode(), dnnl::scratchpad_mode::user);

    attr.set_fpmath_mode(dnnl::fpmath_mode::bf16, true);
    dnnl::fpmath_mode mode = dnnl::fpmath_mode::strict;
    bool to_int = false;
    attr.get_fpmath_mode(mode, to_int);
    EXPECT_EQ(mode, dnnl::fpmath_mode::bf16);
    EXPECT_TRUE(to_int);
    EXPECT_EQ(attr.get_fpmath_mode(), dnnl::fpmath_mode::bf16);

    attr.set_accumulation_mode(dnnl::accumulation_mode::relaxed);
    EXPECT_EQ(attr.get_accumulation_mode(), dnnl::accumulation_mode::relaxed);

    attr.set_deterministic(true);
    EXPECT_TRUE(attr.get_deterministic());

    attr.set_rounding_mode(DNNL_ARG_DST, dnnl::rounding_mode::stochastic);
    EXPECT_EQ(attr.get_rounding_mode(DNNL_ARG_DST),
            dnnl::rounding_mode::stochastic);

    EXPECT_NO_THROW(attr.set_scales_mask(DNNL_ARG_SRC, 0));
    EXPECT_NO_THROW(attr.set_zero_points_mask(DNNL_ARG_DST, 0));

    // A copy shares the handle; a clone through get_post_ops does not.
    dnnl::primitive_attr alias = attr;
    EXPECT_TRUE(alias == attr);
}

TEST(cpp_api, reorder_transposes_between_layouts) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const memory::desc src_md({2, 3}, dt::f32, tag::ab);
    const memory::desc dst_md({2, 3}, dt::f32, tag::ba);
    memory src(src_md, eng), dst(dst_md, eng);
    write_all(src, {1, 2, 3, 4, 5, 6});

    const dnnl::reorder::primitive_desc pd(eng, src_md, eng, dst_md);
    EXPECT_TRUE(pd.src_desc() == src_md);
    EXPECT_TRUE(pd.dst_desc() == dst_md);
    EXPECT_TRUE(pd.get_src_engine() == eng);
    EXPECT_TRUE(pd.get_dst_engine() == eng);
    EXPECT_EQ(pd.get_kind(), dnnl::primitive::kind::reorder);
    EXPECT_NE(pd.impl_info_str(), nullptr);

    dnnl::reorder r(pd);
    EXPECT_EQ(r.get_kind(), dnnl::primitive::kind::reorder);
    r.execute(s, src, dst);
    s.wait();
    EXPECT_EQ(read_all(dst), (std::vector<float> {1, 4, 2, 5, 3, 6}));

    // The two-memory form and execution through exec_args.
    memory back(src_md, eng);
    dnnl::reorder(dst, back)
            .execute(s, {{DNNL_ARG_FROM, dst}, {DNNL_ARG_TO, back}});
    s.wait();
    EXPECT_EQ(read_all(back), (std::vector<float> {1, 2, 3, 4, 5, 6}));
}

TEST(cpp_api, eltwise_forward_relu_descriptor_and_execution) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const memory::desc md({2, 3}, dt::f32, tag::ab);

    const dnnl::eltwise_forward::primitive_desc pd(eng,
            prop_kind::forward_inference, algorithm::eltwise_relu, md, md);
    EXPECT_TRUE(pd.src_desc() == md);
    EXPECT_TRUE(pd.dst_desc() == md);
    EXPECT_TRUE(pd.query_md(dnnl::query::src_md) == md);
    EXPECT_EQ(pd.get_algorithm(), algorithm::eltwise_relu);
    EXPECT_EQ(pd.get_prop_kind(), prop_kind::forward_inference);
    EXPECT_EQ(pd.get_alpha(), 0.f);
    EXPECT_EQ(pd.get_beta(), 0.f);
    EXPECT_EQ(pd.get_kind(), dnnl::primitive::kind::eltwise);
    EXPECT_TRUE(pd.get_engine() == eng);
    EXPECT_NE(pd.impl_info_str(), nullptr);
    EXPECT_NO_THROW(pd.scratchpad_desc());
    EXPECT_NO_THROW(pd.get_primitive_attr());
    EXPECT_EQ(status_thrown_by([&] { pd.query_md(dnnl::query::engine); }),
            dnnl_invalid_arguments);

    memory src(md, eng), dst(md, eng);
    write_all(src, {-1, 2, -3, 4, -5, 6});
    dnnl::eltwise_forward relu(pd);
    EXPECT_EQ(relu.get_kind(), dnnl::primitive::kind::eltwise);
    relu.execute(s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    s.wait();
    EXPECT_EQ(read_all(dst), (std::vector<float> {0, 2, 0, 4, 0, 6}));

    // Adopting the C handle checks primitive and propagation kinds.
    const dnnl::eltwise_forward::primitive_desc adopted(pd.get());
    EXPECT_EQ(adopted.get_algorithm(), algorithm::eltwise_relu);
    EXPECT_EQ(status_thrown_by(
                      [&] { dnnl::binary::primitive_desc wrong(pd.get()); }),
            dnnl_invalid_arguments);
    EXPECT_EQ(status_thrown_by([&] {
        dnnl::eltwise_backward::primitive_desc wrong(pd.get());
    }),
            dnnl_invalid_arguments);

    // Mismatched shapes fail, or give an empty descriptor when allowed.
    const memory::desc other({3, 2}, dt::f32, tag::ab);
    EXPECT_NE(status_thrown_by([&] {
        dnnl::eltwise_forward::primitive_desc bad(eng,
                prop_kind::forward_inference, algorithm::eltwise_relu, md,
                other);
    }),
            dnnl_success);
    const dnnl::eltwise_forward::primitive_desc empty(eng,
            prop_kind::forward_inference, algorithm::eltwise_relu, md, other,
            dnnl::primitive_attr(), true);
    EXPECT_FALSE(static_cast<bool>(empty));
}

TEST(cpp_api, binary_add_broadcasts_src1) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const memory::desc md0({2, 3}, dt::f32, tag::ab);
    const memory::desc md1({1, 3}, dt::f32, tag::ab);

    const dnnl::binary::primitive_desc pd(
            eng, algorithm::binary_add, md0, md1, md0);
    EXPECT_TRUE(pd.src0_desc() == md0);
    EXPECT_TRUE(pd.src1_desc() == md1);
    EXPECT_TRUE(pd.src_desc(1) == md1);
    EXPECT_TRUE(pd.dst_desc() == md0);
    EXPECT_EQ(pd.get_algorithm(), algorithm::binary_add);

    memory a(md0, eng), b(md1, eng), c(md0, eng);
    write_all(a, {1, 2, 3, 4, 5, 6});
    write_all(b, {10, 20, 30});
    dnnl::binary(pd).execute(
            s, {{DNNL_ARG_SRC_0, a}, {DNNL_ARG_SRC_1, b}, {DNNL_ARG_DST, c}});
    s.wait();
    EXPECT_EQ(read_all(c), (std::vector<float> {11, 22, 33, 14, 25, 36}));
}

TEST(cpp_api, sum_scales_and_adds_sources) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const memory::desc md({2, 3}, dt::f32, tag::ab);

    const dnnl::sum::primitive_desc pd(eng, {1.f, 2.f}, {md, md});
    EXPECT_TRUE(pd.dst_desc() == md);
    EXPECT_TRUE(pd.src_desc(1) == md);

    memory a(md, eng), b(md, eng), out(md, eng);
    write_all(a, {1, 2, 3, 4, 5, 6});
    write_all(b, {1, 1, 1, 1, 1, 1});
    dnnl::sum(pd).execute(s,
            {{DNNL_ARG_MULTIPLE_SRC + 0, a}, {DNNL_ARG_MULTIPLE_SRC + 1, b},
                    {DNNL_ARG_DST, out}});
    s.wait();
    EXPECT_EQ(read_all(out), (std::vector<float> {3, 4, 5, 6, 7, 8}));

    // One scale per source, checked by the wrapper.
    EXPECT_EQ(status_thrown_by([&] {
        dnnl::sum::primitive_desc bad(eng, {1.f}, {md, md});
    }),
            dnnl_invalid_arguments);
}

TEST(cpp_api, concat_deduces_dst_along_axis) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const memory::desc top({1, 3}, dt::f32, tag::ab);
    const memory::desc bottom({2, 3}, dt::f32, tag::ab);

    const dnnl::concat::primitive_desc pd(eng, 0, {top, bottom});
    EXPECT_EQ(pd.dst_desc().get_dims(), (memory::dims {3, 3}));
    EXPECT_TRUE(pd.src_desc(0) == top);
    EXPECT_TRUE(pd.src_desc(1) == bottom);

    memory a(top, eng), b(bottom, eng), out(pd.dst_desc(), eng);
    write_all(a, {1, 2, 3});
    write_all(b, {4, 5, 6, 7, 8, 9});
    dnnl::concat(pd).execute(s,
            {{DNNL_ARG_MULTIPLE_SRC + 0, a}, {DNNL_ARG_MULTIPLE_SRC + 1, b},
                    {DNNL_ARG_DST, out}});
    s.wait();
    EXPECT_EQ(read_all(out), (std::vector<float> {1, 2, 3, 4, 5, 6, 7, 8, 9}));

    const memory::desc dst({3, 3}, dt::f32, tag::ab);
    const dnnl::concat::primitive_desc with_dst(eng, dst, 0, {top, bottom});
    EXPECT_TRUE(with_dst.dst_desc() == dst);
}

TEST(cpp_api, service_functions) {
    const dnnl::version_t *v = dnnl::version();
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(v->major, 3);
    EXPECT_EQ(v->minor, 13);

    const dnnl::fpmath_mode before = dnnl::get_default_fpmath_mode();
    EXPECT_EQ(dnnl::set_default_fpmath_mode(dnnl::fpmath_mode::bf16),
            dnnl::status::success);
    EXPECT_EQ(dnnl::get_default_fpmath_mode(), dnnl::fpmath_mode::bf16);
    dnnl::set_default_fpmath_mode(before);

    const int capacity = dnnl::get_primitive_cache_capacity();
    dnnl::set_primitive_cache_capacity(capacity + 1);
    EXPECT_EQ(dnnl::get_primitive_cache_capacity(), capacity + 1);
    dnnl::set_primitive_cache_capacity(capacity);

    EXPECT_EQ(dnnl::set_verbose(0), dnnl::status::success);
    (void)dnnl::verbose_profiling_enabled();
    (void)dnnl::get_effective_cpu_isa();
    (void)dnnl::get_cpu_isa_hints();
}

namespace {

// Every constructor and query a oneDNN program may use, type-checked only.
void type_check_whole_api(const engine &eng, stream &strm, memory &mem) {
    const memory::desc md;
    const memory::dims dims {1, 1};
    const std::vector<float> floats {1.f};
    const std::vector<uint8_t> blob;
    const dnnl::primitive_attr attr;
    const auto fwd = prop_kind::forward_training;
    const auto alg = algorithm::undef;
    const auto dir = dnnl::rnn_direction::unidirectional_left2right;
    const std::unordered_map<int, memory> args {{DNNL_ARG_SRC, mem}};

    // memory and memory::desc.
    TYPE_CHECKS(memory::desc(dims, dt::f32, tag::nchw, true));
    TYPE_CHECKS(memory::desc(dims, dt::f32, dims, true));
    TYPE_CHECKS(memory::desc::csr(dims, dt::f32, 4, dt::s32, dt::s32));
    TYPE_CHECKS(memory::desc::coo(dims, dt::f32, 4, dt::s32));
    TYPE_CHECKS(memory::desc::packed(dims, dt::s8, 4));
    TYPE_CHECKS(memory::desc::host_scalar(dt::f32));
    TYPE_CHECKS(md.get_nnz(), md.get_num_handles(), md.get_sparse_encoding());
    TYPE_CHECKS(md.get_inner_idxs(), md.get_data_type(1), md.get_size(1));
    TYPE_CHECKS(memory(md, eng, nullptr), memory(md, 1.f));
    TYPE_CHECKS(mem.get_host_scalar_value<float>());
    TYPE_CHECKS(mem.set_host_scalar_value(1.f));
    TYPE_CHECKS(mem.map_data(), mem.map_data<int8_t>(1));
    static_assert(std::is_same<memory::dim, dnnl_dim_t>::value, "");
    static_assert(std::is_same<memory::dims, std::vector<dnnl_dim_t>>::value,
            "");

    // Attributes and post-ops.
    dnnl::primitive_attr a;
    dnnl::post_ops po;
    memory::desc md_out;
    dt d1, d2, d3;
    memory::dim k, st, pl;
    float f1, f2;
    int mask;
    bool b1, b2;
    std::vector<float> scales;
    algorithm alg_out;
    TYPE_CHECKS(po.append_sum(), po.append_sum(1.f, 0, dt::s8));
    TYPE_CHECKS(po.get_params_sum(0, f1), po.get_params_sum(0, f1, d1));
    TYPE_CHECKS(po.append_dw(dt::s8, dt::f32, dt::u8, 3, 1, 1));
    TYPE_CHECKS(po.get_params_dw(0, d1, d2, d3, k, st, pl));
    TYPE_CHECKS(po.append_binary(algorithm::binary_select, md, md));
    TYPE_CHECKS(po.get_params_binary(0, alg_out, md_out, md_out));
    TYPE_CHECKS(po.append_prelu(0), po.get_params_prelu(0, mask));
    TYPE_CHECKS(a.set_dropout(md), a.get_dropout(md_out));
    TYPE_CHECKS(a.set_dropout(md, dt::s64, true, false));
    TYPE_CHECKS(a.get_dropout(md_out, d1, b1, b2));
    TYPE_CHECKS(a.set_scales(DNNL_ARG_WEIGHTS, 1, dims));
    TYPE_CHECKS(a.set_scales(DNNL_ARG_WEIGHTS, 1, dims, dt::f16, true,
            dnnl::quantization_mode::dynamic_mx));
    TYPE_CHECKS(a.set_host_scale(DNNL_ARG_SRC), a.set_host_zero_point(1));
    TYPE_CHECKS(a.set_zero_points(DNNL_ARG_SRC, 0, dims, dt::s8, false));
    TYPE_CHECKS(a.set_precomputed_reductions(DNNL_ARG_SRC, 0, dims));
    TYPE_CHECKS(a.set_rnn_data_qparams(1.f, 0.f));
    TYPE_CHECKS(a.get_rnn_data_qparams(f1, f2));
    TYPE_CHECKS(a.set_rnn_weights_qparams(0, floats));
    TYPE_CHECKS(a.get_rnn_weights_qparams(mask, scales));
    TYPE_CHECKS(a.set_rnn_weights_projection_qparams(0, floats));
    TYPE_CHECKS(a.get_rnn_weights_projection_qparams(mask, scales));

    // primitive_desc_base queries, through a convolution descriptor.
    const dnnl::convolution_forward::primitive_desc conv_pd;
    dnnl::convolution_forward::primitive_desc mutable_pd;
    TYPE_CHECKS(mutable_pd.next_impl());
    TYPE_CHECKS(conv_pd.query_s64(dnnl::query::memory_consumption_s64));
    TYPE_CHECKS(conv_pd.get_epsilon(), conv_pd.get_flags(), conv_pd.get_axis());
    TYPE_CHECKS(conv_pd.get_local_size(), conv_pd.get_k(), conv_pd.get_p());
    TYPE_CHECKS(conv_pd.get_factors(), conv_pd.get_cell_kind());
    TYPE_CHECKS(conv_pd.get_direction(), conv_pd.get_activation_kind());
    TYPE_CHECKS(conv_pd.get_kernel(), conv_pd.get_group_size());
    TYPE_CHECKS(conv_pd.workspace_desc(), conv_pd.scratchpad_engine());
    TYPE_CHECKS(conv_pd.get_cache_blob_id(), conv_pd.diff_src_desc(0));
    TYPE_CHECKS(conv_pd.bias_desc(), conv_pd.get_dilations());
    TYPE_CHECKS(conv_pd.get_padding_l(), conv_pd.get_padding_r());
    TYPE_CHECKS(dnnl::primitive(conv_pd), dnnl::primitive(conv_pd, blob));
    TYPE_CHECKS(dnnl::convolution_forward(conv_pd).get_cache_blob());
    TYPE_CHECKS(dnnl::convolution_forward(conv_pd, blob).execute(strm, args));
    static_assert(std::is_same<decltype(conv_pd.get_flags<dnnl::
                                                 normalization_flags>()),
                          dnnl::normalization_flags>::value,
            "");

    // Convolution and deconvolution: every overload.
    TYPE_CHECKS(dnnl::convolution_forward::primitive_desc(eng, fwd,
            algorithm::convolution_direct, md, md, md, md, dims, dims, dims));
    TYPE_CHECKS(dnnl::convolution_forward::primitive_desc(
            eng, fwd, alg, md, md, md, dims, dims, dims, attr, true));
    TYPE_CHECKS(dnnl::convolution_forward::primitive_desc(
            eng, fwd, alg, md, md, md, md, dims, dims, dims, dims));
    TYPE_CHECKS(dnnl::convolution_forward::primitive_desc(
            eng, fwd, alg, md, md, md, dims, dims, dims, dims, attr));
    TYPE_CHECKS(dnnl::convolution_backward_data::primitive_desc(
            eng, alg, md, md, md, dims, dims, dims, conv_pd));
    TYPE_CHECKS(dnnl::convolution_backward_data::primitive_desc(
            eng, alg, md, md, md, dims, dims, dims, dims, conv_pd, attr, true));
    TYPE_CHECKS(dnnl::convolution_backward_weights::primitive_desc(
            eng, alg, md, md, md, md, dims, dims, dims, conv_pd));
    TYPE_CHECKS(dnnl::convolution_backward_weights::primitive_desc(
            eng, alg, md, md, md, dims, dims, dims, conv_pd));
    TYPE_CHECKS(dnnl::convolution_backward_weights::primitive_desc(
            eng, alg, md, md, md, md, dims, dims, dims, dims, conv_pd));
    TYPE_CHECKS(dnnl::convolution_backward_weights::primitive_desc(
            eng, alg, md, md, md, dims, dims, dims, dims, conv_pd, attr));
    const dnnl::convolution_backward_weights::primitive_desc cbw;
    TYPE_CHECKS(cbw.diff_bias_desc(), cbw.diff_weights_desc(),
            dnnl::convolution_backward_weights(cbw),
            dnnl::convolution_backward_data(
                    dnnl::convolution_backward_data::primitive_desc()));

    const dnnl::deconvolution_forward::primitive_desc deconv_pd;
    TYPE_CHECKS(dnnl::deconvolution_forward::primitive_desc(eng, fwd,
            algorithm::deconvolution_direct, md, md, md, md, dims, dims,
            dims));
    TYPE_CHECKS(dnnl::deconvolution_forward::primitive_desc(
            eng, fwd, alg, md, md, md, dims, dims, dims));
    TYPE_CHECKS(dnnl::deconvolution_forward::primitive_desc(
            eng, fwd, alg, md, md, md, md, dims, dims, dims, dims));
    TYPE_CHECKS(dnnl::deconvolution_forward::primitive_desc(
            eng, fwd, alg, md, md, md, dims, dims, dims, dims));
    TYPE_CHECKS(dnnl::deconvolution_backward_data::primitive_desc(
            eng, alg, md, md, md, dims, dims, dims, deconv_pd));
    TYPE_CHECKS(dnnl::deconvolution_backward_data::primitive_desc(
            eng, alg, md, md, md, dims, dims, dims, dims, deconv_pd));
    TYPE_CHECKS(dnnl::deconvolution_backward_weights::primitive_desc(
            eng, alg, md, md, md, md, dims, dims, dims, deconv_pd));
    TYPE_CHECKS(dnnl::deconvolution_backward_weights::primitive_desc(
            eng, alg, md, md, md, dims, dims, dims, deconv_pd));
    TYPE_CHECKS(dnnl::deconvolution_backward_weights::primitive_desc(
            eng, alg, md, md, md, md, dims, dims, dims, dims, deconv_pd));
    TYPE_CHECKS(dnnl::deconvolution_backward_weights::primitive_desc(
            eng, alg, md, md, md, dims, dims, dims, dims, deconv_pd));
    TYPE_CHECKS(dnnl::deconvolution_forward(deconv_pd),
            deconv_pd.get_strides(), deconv_pd.bias_desc());

    // LRN, eltwise backward, softmax, shuffle, prelu.
    const dnnl::lrn_forward::primitive_desc lrn_pd;
    TYPE_CHECKS(dnnl::lrn_forward::primitive_desc(
            eng, fwd, algorithm::lrn_across_channels, md, md, 5, 1e-4f, 0.75f,
            1.f, attr, true));
    TYPE_CHECKS(dnnl::lrn_backward::primitive_desc(eng,
            algorithm::lrn_within_channel, md, md, md, 5, 1.f, 1.f, 1.f,
            lrn_pd));
    TYPE_CHECKS(lrn_pd.get_local_size(), lrn_pd.get_k(), lrn_pd.get_alpha());
    const dnnl::eltwise_forward::primitive_desc elt_pd;
    TYPE_CHECKS(dnnl::eltwise_forward::primitive_desc(
            eng, fwd, algorithm::eltwise_elu, md, md, 1.f));
    TYPE_CHECKS(dnnl::eltwise_forward::primitive_desc(
            eng, fwd, algorithm::eltwise_clip, md, md, 0.f, 6.f, attr));
    TYPE_CHECKS(dnnl::eltwise_backward::primitive_desc(
            eng, algorithm::eltwise_relu, md, md, md, elt_pd));
    TYPE_CHECKS(dnnl::eltwise_backward::primitive_desc(
            eng, algorithm::eltwise_relu, md, md, md, 0.5f, elt_pd));
    TYPE_CHECKS(dnnl::eltwise_backward::primitive_desc(
            eng, algorithm::eltwise_clip, md, md, md, 0.f, 6.f, elt_pd, attr));
    const dnnl::softmax_forward::primitive_desc sm_pd;
    TYPE_CHECKS(dnnl::softmax_forward::primitive_desc(
            eng, fwd, algorithm::softmax_accurate, md, md, 1, attr, true));
    TYPE_CHECKS(dnnl::softmax_backward::primitive_desc(
            eng, algorithm::softmax_log, md, md, md, 1, sm_pd));
    TYPE_CHECKS(sm_pd.get_axis(), dnnl::softmax_forward(sm_pd));
    const dnnl::shuffle_forward::primitive_desc sh_pd;
    TYPE_CHECKS(dnnl::shuffle_forward::primitive_desc(
            eng, fwd, md, md, 1, 2, attr, true));
    TYPE_CHECKS(dnnl::shuffle_backward::primitive_desc(
            eng, md, md, 1, 2, sh_pd));
    TYPE_CHECKS(sh_pd.get_group_size(), dnnl::shuffle_forward(sh_pd));
    const dnnl::prelu_forward::primitive_desc pr_pd;
    TYPE_CHECKS(dnnl::prelu_forward::primitive_desc(
            eng, fwd, md, md, md, attr, true));
    TYPE_CHECKS(dnnl::prelu_backward::primitive_desc(
            eng, md, md, md, md, md, pr_pd));

    // Normalizations.
    const auto nf = dnnl::normalization_flags::use_scale
            | dnnl::normalization_flags::use_shift;
    const dnnl::batch_normalization_forward::primitive_desc bn_pd;
    TYPE_CHECKS(dnnl::batch_normalization_forward::primitive_desc(
            eng, fwd, md, md, 1e-5f, nf, attr, true));
    TYPE_CHECKS(dnnl::batch_normalization_backward::primitive_desc(
            eng, prop_kind::backward, md, md, md, 1e-5f, nf, bn_pd));
    TYPE_CHECKS(bn_pd.mean_desc(), bn_pd.variance_desc(), bn_pd.get_flags());
    const dnnl::group_normalization_forward::primitive_desc gn_pd;
    TYPE_CHECKS(dnnl::group_normalization_forward::primitive_desc(
            eng, fwd, md, md, 4, 1e-5f, nf, attr, true));
    TYPE_CHECKS(dnnl::group_normalization_backward::primitive_desc(
            eng, prop_kind::backward, md, md, md, 4, 1e-5f, nf, gn_pd));
    TYPE_CHECKS(gn_pd.get_group_size(), gn_pd.mean_desc());
    const dnnl::layer_normalization_forward::primitive_desc ln_pd;
    TYPE_CHECKS(dnnl::layer_normalization_forward::primitive_desc(
            eng, fwd, md, md, md, 1e-5f, nf, attr, true));
    TYPE_CHECKS(dnnl::layer_normalization_forward::primitive_desc(
            eng, fwd, md, md, 1e-5f, nf));
    TYPE_CHECKS(dnnl::layer_normalization_forward::primitive_desc(
            eng, fwd, md, md, md, dt::bf16, 1e-5f, nf));
    TYPE_CHECKS(dnnl::layer_normalization_forward::primitive_desc(
            eng, fwd, md, md, dt::bf16, 1e-5f, nf));
    TYPE_CHECKS(dnnl::layer_normalization_backward::primitive_desc(
            eng, prop_kind::backward, md, md, md, md, 1e-5f, nf, ln_pd));
    TYPE_CHECKS(dnnl::layer_normalization_backward::primitive_desc(
            eng, prop_kind::backward, md, md, md, 1e-5f, nf, ln_pd));
    TYPE_CHECKS(dnnl::layer_normalization_backward::primitive_desc(eng,
            prop_kind::backward, md, md, md, md, dt::f32, dt::bf16, 1e-5f, nf,
            ln_pd));
    TYPE_CHECKS(dnnl::layer_normalization_backward::primitive_desc(eng,
            prop_kind::backward, md, md, md, dt::f32, dt::bf16, 1e-5f, nf,
            ln_pd, attr, true));

    // Inner product, matmul, reduction, resampling, pooling.
    const dnnl::inner_product_forward::primitive_desc ip_pd;
    TYPE_CHECKS(dnnl::inner_product_forward::primitive_desc(
            eng, fwd, md, md, md, md, attr, true));
    TYPE_CHECKS(dnnl::inner_product_forward::primitive_desc(
            eng, fwd, md, md, md));
    TYPE_CHECKS(dnnl::inner_product_backward_data::primitive_desc(
            eng, md, md, md, ip_pd));
    TYPE_CHECKS(dnnl::inner_product_backward_weights::primitive_desc(
            eng, md, md, md, md, ip_pd));
    TYPE_CHECKS(dnnl::inner_product_backward_weights::primitive_desc(
            eng, md, md, md, ip_pd));
    TYPE_CHECKS(dnnl::matmul::primitive_desc(eng, md, md, md));
    TYPE_CHECKS(dnnl::matmul::primitive_desc(eng, md, md, md, md, attr, true));
    TYPE_CHECKS(dnnl::matmul(dnnl::matmul::primitive_desc()).get_kind());
    TYPE_CHECKS(dnnl::reduction::primitive_desc(
            eng, algorithm::reduction_sum, md, md, 0.f, 0.f));
    const dnnl::resampling_forward::primitive_desc rs_pd;
    TYPE_CHECKS(dnnl::resampling_forward::primitive_desc(
            eng, fwd, algorithm::resampling_linear, md, md, attr, true));
    TYPE_CHECKS(dnnl::resampling_forward::primitive_desc(
            eng, fwd, algorithm::resampling_nearest, floats, md));
    TYPE_CHECKS(dnnl::resampling_forward::primitive_desc(
            eng, fwd, algorithm::resampling_nearest, floats, md, md));
    TYPE_CHECKS(dnnl::resampling_backward::primitive_desc(
            eng, algorithm::resampling_nearest, md, md, rs_pd));
    TYPE_CHECKS(dnnl::resampling_backward::primitive_desc(
            eng, algorithm::resampling_nearest, floats, md, md, rs_pd));
    const dnnl::pooling_forward::primitive_desc pool_pd;
    TYPE_CHECKS(dnnl::pooling_forward::primitive_desc(eng, fwd,
            algorithm::pooling_max, md, md, dims, dims, dims, dims, dims, attr,
            true));
    TYPE_CHECKS(dnnl::pooling_backward::primitive_desc(eng,
            algorithm::pooling_avg_exclude_padding, md, md, dims, dims, dims,
            dims, dims, pool_pd));
    TYPE_CHECKS(pool_pd.get_kernel(), pool_pd.workspace_desc());

    // Recurrent cells.
    const dnnl::vanilla_rnn_forward::primitive_desc rnn_pd;
    TYPE_CHECKS(dnnl::vanilla_rnn_forward::primitive_desc(eng, fwd,
            algorithm::eltwise_tanh, dir, md, md, md, md, md, md, md, attr,
            true));
    TYPE_CHECKS(dnnl::vanilla_rnn_forward::primitive_desc(eng, fwd,
            algorithm::eltwise_relu, dir, md, md, md, md, md, md, md, 0.1f));
    TYPE_CHECKS(dnnl::vanilla_rnn_backward::primitive_desc(eng,
            prop_kind::backward, algorithm::eltwise_tanh, dir, md, md, md, md,
            md, md, md, md, md, md, md, md, md, md, rnn_pd));
    TYPE_CHECKS(dnnl::vanilla_rnn_backward::primitive_desc(eng,
            prop_kind::backward, algorithm::eltwise_relu, dir, md, md, md, md,
            md, md, md, md, md, md, md, md, md, md, 0.1f, rnn_pd));
    TYPE_CHECKS(rnn_pd.get_activation_kind(), rnn_pd.get_alpha(),
            rnn_pd.src_layer_desc(), rnn_pd.workspace_desc());

    const dnnl::lstm_forward::primitive_desc lstm_pd;
    TYPE_CHECKS(dnnl::lstm_forward::primitive_desc(eng, fwd, dir, md, md,
            md, md, md, md, md, md, md, md, md, attr, true));
    TYPE_CHECKS(dnnl::lstm_forward::primitive_desc(
            eng, fwd, dir, md, md, md, md, md, md, md, md, md, md));
    TYPE_CHECKS(dnnl::lstm_forward::primitive_desc(
            eng, fwd, dir, md, md, md, md, md, md, md, md, md));
    TYPE_CHECKS(dnnl::lstm_backward::primitive_desc(eng, prop_kind::backward,
            dir, md, md, md, md, md, md, md, md, md, md, md, md, md, md, md,
            md, md, md, md, md, md, md, lstm_pd));
    TYPE_CHECKS(dnnl::lstm_backward::primitive_desc(eng, prop_kind::backward,
            dir, md, md, md, md, md, md, md, md, md, md, md, md, md, md, md,
            md, md, md, md, md, lstm_pd));
    TYPE_CHECKS(dnnl::lstm_backward::primitive_desc(eng, prop_kind::backward,
            dir, md, md, md, md, md, md, md, md, md, md, md, md, md, md, md,
            md, md, md, lstm_pd));
    TYPE_CHECKS(lstm_pd.src_iter_c_desc(), lstm_pd.weights_peephole_desc(),
            lstm_pd.weights_projection_desc(), lstm_pd.dst_iter_c_desc());

    const dnnl::gru_forward::primitive_desc gru_pd;
    TYPE_CHECKS(dnnl::gru_forward::primitive_desc(
            eng, fwd, dir, md, md, md, md, md, md, md, attr, true));
    TYPE_CHECKS(dnnl::gru_backward::primitive_desc(eng, prop_kind::backward,
            dir, md, md, md, md, md, md, md, md, md, md, md, md, md, md,
            gru_pd));
    const dnnl::lbr_gru_forward::primitive_desc lbr_pd;
    TYPE_CHECKS(dnnl::lbr_gru_forward::primitive_desc(
            eng, fwd, dir, md, md, md, md, md, md, md, attr, true));
    TYPE_CHECKS(dnnl::lbr_gru_backward::primitive_desc(eng,
            prop_kind::backward, dir, md, md, md, md, md, md, md, md, md, md,
            md, md, md, md, lbr_pd));
    const dnnl::augru_forward::primitive_desc augru_pd;
    TYPE_CHECKS(dnnl::augru_forward::primitive_desc(
            eng, fwd, dir, md, md, md, md, md, md, md, md, attr, true));
    TYPE_CHECKS(dnnl::augru_backward::primitive_desc(eng,
            prop_kind::backward, dir, md, md, md, md, md, md, md, md, md, md,
            md, md, md, md, md, md, augru_pd));
    TYPE_CHECKS(augru_pd.attention_desc());
    const dnnl::lbr_augru_forward::primitive_desc lbr_augru_pd;
    TYPE_CHECKS(dnnl::lbr_augru_forward::primitive_desc(
            eng, fwd, dir, md, md, md, md, md, md, md, md, attr, true));
    TYPE_CHECKS(dnnl::lbr_augru_backward::primitive_desc(eng,
            prop_kind::backward, dir, md, md, md, md, md, md, md, md, md, md,
            md, md, md, md, md, md, lbr_augru_pd));
    const dnnl::lbr_augru_backward::primitive_desc lbr_augru_bwd;
    TYPE_CHECKS(lbr_augru_bwd.diff_attention_desc(),
            lbr_augru_bwd.get_cell_kind(), lbr_augru_bwd.get_direction(),
            dnnl::lbr_augru_backward(lbr_augru_bwd, blob));

    // Primitive kinds checked when adopting C descriptors.
    dnnl_primitive_desc_t c_pd = nullptr;
    TYPE_CHECKS(dnnl::rnn_primitive_desc_base(
            c_pd, prop_kind::forward_inference, algorithm::vanilla_gru));
    TYPE_CHECKS(dnnl::pooling_forward::primitive_desc(c_pd),
            dnnl::lstm_backward::primitive_desc(c_pd),
            dnnl::reorder::primitive_desc(c_pd));

    // Library-wide functions.
    float fm = 0.f;
    int32_t im = 0;
    const uint8_t u8 = 0;
    const int8_t s8 = 0;
    TYPE_CHECKS(dnnl::sgemm('N', 'N', 1, 1, 1, 1.f, &fm, 1, &fm, 1, 0.f, &fm,
            1));
    TYPE_CHECKS(dnnl::gemm_u8s8s32('N', 'N', 'F', 1, 1, 1, 1.f, &u8, 1, 0,
            &s8, 1, 0, 0.f, &im, 1, &im));
    TYPE_CHECKS(dnnl::gemm_s8s8s32('N', 'N', 'F', 1, 1, 1, 1.f, &s8, 1, 0,
            &s8, 1, 0, 0.f, &im, 1, &im));
    TYPE_CHECKS(dnnl::set_max_cpu_isa(dnnl::cpu_isa::avx512_core));
    TYPE_CHECKS(dnnl::set_cpu_isa_hints(dnnl::cpu_isa_hints::prefer_ymm));
    TYPE_CHECKS(dnnl::set_jit_dump(0), dnnl::set_jit_profiling_flags(0u));
    TYPE_CHECKS(dnnl::set_jit_profiling_jitdumpdir(std::string("/tmp")));
    TYPE_CHECKS(oneapi::dnnl::memory::desc());
}

} // namespace

TEST(cpp_api, whole_api_type_checks) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    memory m;
    // Only unevaluated operands and default constructions run here.
    type_check_whole_api(eng, s, m);
    SUCCEED();
}
