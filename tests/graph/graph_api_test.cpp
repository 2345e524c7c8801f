// Every dnnl_graph_* entry point: success paths, queries, and bad arguments.
#include <atomic>
#include <cstdlib>
#include <cstring>

#include "graph/graph_runner.hpp"
#include "oneapi/dnnl/dnnl_graph.h"

using namespace graph_test;

namespace {

std::atomic<int> allocs {0}, frees {0};
void *counting_malloc(size_t size, size_t alignment) {
    ++allocs;
    return std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
}
void counting_free(void *p) {
    ++frees;
    std::free(p);
}

dnnl_graph_logical_tensor_t c_lt(size_t id, std::vector<dnnl_dim_t> dims,
        dnnl_data_type_t dt = dnnl_f32,
        dnnl_graph_layout_type_t layout = dnnl_graph_layout_type_strided) {
    dnnl_graph_logical_tensor_t lt;
    EXPECT_EQ(dnnl_graph_logical_tensor_init_with_dims(&lt, id, dt, (int32_t)dims.size(),
                      dims.data(), layout, dnnl_graph_tensor_property_undef),
            dnnl_success);
    return lt;
}

} // namespace

TEST(graph_api, allocator_and_engine_with_allocator_count_every_allocation) {
    allocs = frees = 0;
    {
        allocator alloc(counting_malloc, counting_free);
        dnnl::engine eng = make_engine_with_allocator(dnnl::engine::kind::cpu, 0, alloc);
        // A two-op partition needs a temporary between its primitives.
        graph g(dnnl::engine::kind::cpu);
        op ln(1, op::kind::LayerNorm, {lt(0, {4, 8}), lt(1, {8}), lt(2, {8})}, {lt(3, {4, 8})});
        ln.set_attr(op::attr::keep_stats, false);
        op relu(2, op::kind::ReLU, {lt(3, {4, 8})}, {lt(4, {4, 8})});
        g.add_op(ln);
        g.add_op(relu);
        g.finalize();
        runner_t r(eng);
        r.set(0, random_floats(32, 1));
        r.set(1, random_floats(8, 2));
        r.set(2, random_floats(8, 3));
        EXPECT_EQ(r.run(g, partition::policy::fusion), 1u);
        EXPECT_GT(allocs.load(), 0);
        // A tensor allocated by the library comes from the allocator too.
        const int before = allocs.load();
        tensor t(lt(9, {16}), eng);
        EXPECT_NE(t.get_data_handle(), nullptr);
        EXPECT_EQ(allocs.load(), before + 1);
    }
    EXPECT_EQ(allocs.load(), frees.load());
}

TEST(graph_api, allocator_bad_arguments) {
    dnnl_graph_allocator_t a = nullptr;
    EXPECT_EQ(dnnl_graph_allocator_create(nullptr, nullptr, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_allocator_create(&a, counting_malloc, nullptr), dnnl_invalid_arguments);
    ASSERT_EQ(dnnl_graph_allocator_create(&a, nullptr, nullptr), dnnl_success);
    dnnl_engine_t e = nullptr;
    EXPECT_EQ(dnnl_graph_make_engine_with_allocator(&e, dnnl_cpu, 0, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_make_engine_with_allocator(&e, dnnl_cpu, 7, a), dnnl_invalid_arguments);
    ASSERT_EQ(dnnl_graph_make_engine_with_allocator(&e, dnnl_cpu, 0, a), dnnl_success);
    EXPECT_EQ(dnnl_graph_allocator_destroy(a), dnnl_success);
    EXPECT_EQ(dnnl_graph_allocator_destroy(a), dnnl_invalid_arguments); // already destroyed
    EXPECT_EQ(dnnl_engine_destroy(e), dnnl_success);
}

TEST(graph_api, logical_tensor_init_mem_size_and_equality) {
    dnnl_graph_logical_tensor_t a, b, c;
    ASSERT_EQ(dnnl_graph_logical_tensor_init(&a, 1, dnnl_f32, -1, dnnl_graph_layout_type_any,
                      dnnl_graph_tensor_property_variable),
            dnnl_success);
    EXPECT_EQ(a.ndims, -1);
    size_t size = 0;
    EXPECT_EQ(dnnl_graph_logical_tensor_get_mem_size(&a, &size), dnnl_invalid_arguments);
    b = c_lt(2, {2, 3, 4});
    EXPECT_EQ(b.layout.strides[0], 12);
    EXPECT_EQ(b.layout.strides[2], 1);
    ASSERT_EQ(dnnl_graph_logical_tensor_get_mem_size(&b, &size), dnnl_success);
    EXPECT_EQ(size, 2u * 3 * 4 * 4);
    const dnnl_dims_t dims = {2, 3}, strides = {1, 4};
    ASSERT_EQ(dnnl_graph_logical_tensor_init_with_strides(
                      &c, 2, dnnl_bf16, 2, dims, strides, dnnl_graph_tensor_property_constant),
            dnnl_success);
    ASSERT_EQ(dnnl_graph_logical_tensor_get_mem_size(&c, &size), dnnl_success);
    EXPECT_EQ(size, (2u - 1 + (3 - 1) * 4 + 1) * 2);
    uint8_t eq = 9;
    ASSERT_EQ(dnnl_graph_logical_tensor_is_equal(&b, &b, &eq), dnnl_success);
    EXPECT_EQ(eq, 1);
    ASSERT_EQ(dnnl_graph_logical_tensor_is_equal(&b, &c, &eq), dnnl_success);
    EXPECT_EQ(eq, 0);
    EXPECT_EQ(dnnl_graph_logical_tensor_init(nullptr, 1, dnnl_f32, 2,
                      dnnl_graph_layout_type_any, dnnl_graph_tensor_property_undef),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_logical_tensor_init(&a, 1, dnnl_f32, 13, dnnl_graph_layout_type_any,
                      dnnl_graph_tensor_property_undef),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_logical_tensor_init(&a, 1, (dnnl_data_type_t)99, 1,
                      dnnl_graph_layout_type_any, dnnl_graph_tensor_property_undef),
            dnnl_invalid_arguments);
    const dnnl_dims_t neg = {-3};
    EXPECT_EQ(dnnl_graph_logical_tensor_init_with_dims(&a, 1, dnnl_f32, 1, neg,
                      dnnl_graph_layout_type_strided, dnnl_graph_tensor_property_undef),
            dnnl_invalid_arguments);
    // C++ wrapper agrees.
    logical_tensor w(5, dt::s8, lt_dims {3, 5}, logical_tensor::layout_type::strided,
            logical_tensor::property_type::constant);
    EXPECT_EQ(w.get_mem_size(), 15u);
    EXPECT_EQ(w.get_strides(), (lt_dims {5, 1}));
    EXPECT_EQ(w.get_property_type(), logical_tensor::property_type::constant);
    EXPECT_TRUE(w.is_equal(w));
    EXPECT_FALSE(w.is_equal(lt(5, {3, 5})));
}

TEST(graph_api, tensors_and_scalars) {
    dnnl_engine_t e = nullptr;
    ASSERT_EQ(dnnl_engine_create(&e, dnnl_cpu, 0), dnnl_success);
    auto l = c_lt(3, {4});
    float buf[4] = {1, 2, 3, 4};
    dnnl_graph_tensor_t t = nullptr;
    ASSERT_EQ(dnnl_graph_tensor_create(&t, &l, e, buf), dnnl_success);
    void *h = nullptr;
    EXPECT_EQ(dnnl_graph_tensor_get_data_handle(t, &h), dnnl_success);
    EXPECT_EQ(h, buf);
    float other[4];
    EXPECT_EQ(dnnl_graph_tensor_set_data_handle(t, other), dnnl_success);
    EXPECT_EQ(dnnl_graph_tensor_get_data_handle(t, &h), dnnl_success);
    EXPECT_EQ(h, other);
    dnnl_engine_t got = nullptr;
    EXPECT_EQ(dnnl_graph_tensor_get_engine(t, &got), dnnl_success);
    EXPECT_EQ(got, e);
    dnnl_graph_logical_tensor_t back;
    EXPECT_EQ(dnnl_graph_tensor_get_logical_tensor(t, &back), dnnl_success);
    EXPECT_EQ(back.id, 3u);
    EXPECT_EQ(dnnl_graph_tensor_destroy(t), dnnl_success);
    // Library-allocated buffer.
    ASSERT_EQ(dnnl_graph_tensor_create(&t, &l, e, DNNL_MEMORY_ALLOCATE), dnnl_success);
    EXPECT_EQ(dnnl_graph_tensor_get_data_handle(t, &h), dnnl_success);
    EXPECT_NE(h, nullptr);
    EXPECT_EQ(dnnl_graph_tensor_destroy(t), dnnl_success);
    // Scalar.
    dnnl_graph_logical_tensor_t s;
    ASSERT_EQ(dnnl_graph_logical_tensor_init_with_dims(&s, 4, dnnl_f32, 0, nullptr,
                      dnnl_graph_layout_type_strided, dnnl_graph_tensor_property_host_scalar),
            dnnl_success);
    float v = 2.5f;
    ASSERT_EQ(dnnl_graph_tensor_create_scalar(&t, &s, &v), dnnl_success);
    EXPECT_EQ(dnnl_graph_tensor_get_data_handle(t, &h), dnnl_success);
    EXPECT_EQ(*static_cast<float *>(h), 2.5f);
    EXPECT_EQ(dnnl_graph_tensor_get_engine(t, &got), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_tensor_destroy(t), dnnl_success);
    // Bad arguments.
    EXPECT_EQ(dnnl_graph_tensor_create(&t, &l, nullptr, buf), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_tensor_create(&t, &s, e, buf), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_tensor_create_scalar(&t, &l, &v), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_tensor_get_data_handle(nullptr, &h), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_tensor_destroy(reinterpret_cast<dnnl_graph_tensor_t>(buf)),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_engine_destroy(e), dnnl_success);
}

TEST(graph_api, ops_ids_kinds_and_attributes) {
    dnnl_graph_op_t o = nullptr;
    ASSERT_EQ(dnnl_graph_op_create(&o, 42, dnnl_graph_op_matmul, "mm"), dnnl_success);
    size_t id = 0;
    dnnl_graph_op_kind_t kind;
    EXPECT_EQ(dnnl_graph_op_get_id(o, &id), dnnl_success);
    EXPECT_EQ(id, 42u);
    EXPECT_EQ(dnnl_graph_op_get_kind(o, &kind), dnnl_success);
    EXPECT_EQ(kind, dnnl_graph_op_matmul);
    auto a = c_lt(0, {2, 3}), b = c_lt(1, {3, 4}), c = c_lt(2, {2, 4});
    EXPECT_EQ(dnnl_graph_op_add_input(o, &a), dnnl_success);
    EXPECT_EQ(dnnl_graph_op_add_input(o, &b), dnnl_success);
    EXPECT_EQ(dnnl_graph_op_add_output(o, &c), dnnl_success);
    const uint8_t yes = 1;
    EXPECT_EQ(dnnl_graph_op_set_attr_bool(o, dnnl_graph_op_attr_transpose_a, &yes, 1),
            dnnl_success);
    EXPECT_EQ(dnnl_graph_op_set_attr_bool(o, dnnl_graph_op_attr_transpose_a, &yes, 2),
            dnnl_invalid_arguments);
    const float f = 1.f;
    const int64_t s = 3;
    EXPECT_EQ(dnnl_graph_op_set_attr_f32(o, dnnl_graph_op_attr_alpha, &f, 1), dnnl_success);
    EXPECT_EQ(dnnl_graph_op_set_attr_s64(o, dnnl_graph_op_attr_axis, &s, 1), dnnl_success);
    EXPECT_EQ(dnnl_graph_op_set_attr_str(o, dnnl_graph_op_attr_mode, "x", 1), dnnl_success);
    EXPECT_EQ(dnnl_graph_op_set_attr_f32(o, (dnnl_graph_op_attr_t)0x7, &f, 1),
            dnnl_invalid_arguments);
    // A scalar attribute takes value[0] whatever value_len says (oneDNN decides by the
    // attribute's definition); list attributes stay lists.
    {
        dnnl_graph_op_t elu = nullptr, pool = nullptr;
        ASSERT_EQ(dnnl_graph_op_create(&elu, 7, dnnl_graph_op_elu, "elu"), dnnl_success);
        auto x = c_lt(10, {2, 3}), y = c_lt(11, {2, 3});
        EXPECT_EQ(dnnl_graph_op_add_input(elu, &x), dnnl_success);
        EXPECT_EQ(dnnl_graph_op_add_output(elu, &y), dnnl_success);
        const float alpha[] = {0.5f};
        EXPECT_EQ(dnnl_graph_op_set_attr_f32(elu, dnnl_graph_op_attr_alpha, alpha, 0),
                dnnl_success);
        EXPECT_EQ(dnnl_graph_op_set_attr_f32(elu, dnnl_graph_op_attr_alpha, nullptr, 0),
                dnnl_invalid_arguments);
        ASSERT_EQ(dnnl_graph_op_create(&pool, 8, dnnl_graph_op_max_pool, "pool"), dnnl_success);
        auto px = c_lt(12, {1, 1, 4, 4}), py = c_lt(13, {1, 1, 2, 2});
        EXPECT_EQ(dnnl_graph_op_add_input(pool, &px), dnnl_success);
        EXPECT_EQ(dnnl_graph_op_add_output(pool, &py), dnnl_success);
        const int64_t two[] = {2, 2}, zero[] = {0, 0};
        EXPECT_EQ(dnnl_graph_op_set_attr_s64(pool, dnnl_graph_op_attr_strides, two, 2), dnnl_success);
        EXPECT_EQ(dnnl_graph_op_set_attr_s64(pool, dnnl_graph_op_attr_kernel, two, 2), dnnl_success);
        EXPECT_EQ(dnnl_graph_op_set_attr_s64(pool, dnnl_graph_op_attr_pads_begin, zero, 2), dnnl_success);
        EXPECT_EQ(dnnl_graph_op_set_attr_s64(pool, dnnl_graph_op_attr_pads_end, zero, 2), dnnl_success);
        const int64_t one[] = {1, 1};
        EXPECT_EQ(dnnl_graph_op_set_attr_s64(pool, dnnl_graph_op_attr_dilations, one, 2), dnnl_success);
        EXPECT_EQ(dnnl_graph_op_set_attr_str(pool, dnnl_graph_op_attr_data_format, "NCX", 3),
                dnnl_success);
        dnnl_graph_graph_t g = nullptr;
        ASSERT_EQ(dnnl_graph_graph_create(&g, dnnl_cpu), dnnl_success);
        EXPECT_EQ(dnnl_graph_add_op(g, elu), dnnl_success);
        EXPECT_EQ(dnnl_graph_add_op(g, pool), dnnl_success);
        dnnl_graph_graph_destroy(g);
        dnnl_graph_op_destroy(pool);
        dnnl_graph_op_destroy(elu);
    }
    EXPECT_EQ(dnnl_graph_op_create(&o, 1, (dnnl_graph_op_kind_t)1000, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_op_add_input(o, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_op_destroy(o), dnnl_success);
    EXPECT_EQ(dnnl_graph_op_get_id(o, &id), dnnl_invalid_arguments);
    // Every op kind can be created; the C++ names line up with the C values.
    for (int k = 0; k < dnnl_graph_op_last_symbol; ++k) {
        ASSERT_EQ(dnnl_graph_op_create(&o, k, (dnnl_graph_op_kind_t)k, nullptr), dnnl_success);
        EXPECT_EQ(dnnl_graph_op_destroy(o), dnnl_success);
    }
    static_assert((int)op::kind::Dropout == 87 && (int)op::kind::LastSymbol == 88, "op kinds");
    static_assert((int)op::attr::accumulation_mode == 0x88 && (int)op::attr::end == 0xFF, "attrs");
}

TEST(graph_api, graph_partitions_ports_and_queries) {
    dnnl_graph_graph_t g = nullptr;
    ASSERT_EQ(dnnl_graph_graph_create_with_fpmath_mode(&g, dnnl_cpu, dnnl_fpmath_mode_bf16),
            dnnl_success);
    dnnl_fpmath_mode_t mode;
    int to_int = 7;
    EXPECT_EQ(dnnl_graph_graph_get_fpmath_mode(g, &mode, &to_int), dnnl_success);
    EXPECT_EQ(mode, dnnl_fpmath_mode_bf16);
    EXPECT_EQ(to_int, 0);
    EXPECT_EQ(dnnl_graph_graph_set_fpmath_mode(g, dnnl_fpmath_mode_strict, 1), dnnl_success);
    EXPECT_EQ(dnnl_graph_graph_get_fpmath_mode(g, &mode, &to_int), dnnl_success);
    EXPECT_EQ(mode, dnnl_fpmath_mode_strict);
    EXPECT_EQ(to_int, 1);
    dnnl_graph_op_t relu = nullptr, wild = nullptr;
    ASSERT_EQ(dnnl_graph_op_create(&relu, 1, dnnl_graph_op_relu, "relu"), dnnl_success);
    auto x = c_lt(0, {8}), y = c_lt(1, {8}), z = c_lt(2, {8});
    dnnl_graph_op_add_input(relu, &x);
    dnnl_graph_op_add_output(relu, &y);
    ASSERT_EQ(dnnl_graph_op_create(&wild, 2, dnnl_graph_op_wildcard, "w"), dnnl_success);
    dnnl_graph_op_add_input(wild, &y);
    dnnl_graph_op_add_output(wild, &z);
    EXPECT_EQ(dnnl_graph_add_op(g, relu), dnnl_success);
    EXPECT_EQ(dnnl_graph_add_op(g, relu), dnnl_invalid_graph); // same id twice
    EXPECT_EQ(dnnl_graph_add_op(g, wild), dnnl_success);
    uint8_t fin = 9;
    EXPECT_EQ(dnnl_graph_graph_is_finalized(g, &fin), dnnl_success);
    EXPECT_EQ(fin, 0);
    EXPECT_EQ(dnnl_graph_graph_filter(g, dnnl_graph_partition_policy_fusion), dnnl_invalid_graph);
    EXPECT_EQ(dnnl_graph_graph_finalize(g), dnnl_success);
    EXPECT_EQ(dnnl_graph_graph_is_finalized(g, &fin), dnnl_success);
    EXPECT_EQ(fin, 1);
    EXPECT_EQ(dnnl_graph_graph_filter(g, (dnnl_graph_partition_policy_t)5),
            dnnl_invalid_arguments);
    ASSERT_EQ(dnnl_graph_graph_filter(g, dnnl_graph_partition_policy_fusion), dnnl_success);
    size_t n = 0;
    ASSERT_EQ(dnnl_graph_graph_get_partition_num(g, &n), dnnl_success);
    ASSERT_EQ(n, 2u);
    dnnl_graph_partition_t parts[2];
    EXPECT_EQ(dnnl_graph_graph_get_partitions(g, 1, parts), dnnl_invalid_arguments);
    ASSERT_EQ(dnnl_graph_graph_get_partitions(g, 2, parts), dnnl_success);
    uint8_t supported = 9;
    EXPECT_EQ(dnnl_graph_partition_is_supported(parts[0], &supported), dnnl_success);
    EXPECT_EQ(supported, 1);
    EXPECT_EQ(dnnl_graph_partition_is_supported(parts[1], &supported), dnnl_success);
    EXPECT_EQ(supported, 0); // Wildcard: the library cannot run it
    size_t num = 0, ids[1] = {0}, pid = 0;
    EXPECT_EQ(dnnl_graph_partition_get_op_num(parts[0], &num), dnnl_success);
    EXPECT_EQ(num, 1u);
    EXPECT_EQ(dnnl_graph_partition_get_ops(parts[0], 1, ids), dnnl_success);
    EXPECT_EQ(ids[0], 1u);
    EXPECT_EQ(dnnl_graph_partition_get_id(parts[0], &pid), dnnl_success);
    dnnl_engine_kind_t ek;
    EXPECT_EQ(dnnl_graph_partition_get_engine_kind(parts[0], &ek), dnnl_success);
    EXPECT_EQ(ek, dnnl_cpu);
    EXPECT_EQ(dnnl_graph_partition_get_input_ports_num(parts[0], &num), dnnl_success);
    EXPECT_EQ(num, 1u);
    dnnl_graph_logical_tensor_t port;
    EXPECT_EQ(dnnl_graph_partition_get_input_ports(parts[0], 1, &port), dnnl_success);
    EXPECT_EQ(port.id, 0u);
    EXPECT_EQ(dnnl_graph_partition_get_output_ports_num(parts[0], &num), dnnl_success);
    EXPECT_EQ(num, 1u);
    EXPECT_EQ(dnnl_graph_partition_get_output_ports(parts[0], 1, &port), dnnl_success);
    EXPECT_EQ(port.id, 1u);
    EXPECT_EQ(dnnl_graph_partition_get_output_ports(parts[0], 2, &port), dnnl_invalid_arguments);

    // Compile with an `any` output, query the resolved layout, execute (v1 and v2).
    dnnl_engine_t e = nullptr;
    dnnl_stream_t s = nullptr;
    ASSERT_EQ(dnnl_engine_create(&e, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_stream_create(&s, e, dnnl_stream_default_flags), dnnl_success);
    dnnl_graph_compiled_partition_t cp = nullptr;
    ASSERT_EQ(dnnl_graph_compiled_partition_create(&cp, parts[0]), dnnl_success);
    dnnl_graph_logical_tensor_t out_any;
    dnnl_graph_logical_tensor_init(&out_any, 1, dnnl_f32, -1, dnnl_graph_layout_type_any,
            dnnl_graph_tensor_property_undef);
    const dnnl_graph_logical_tensor_t *ins[] = {&x}, *outs[] = {&out_any};
    dnnl_graph_logical_tensor_t q;
    EXPECT_EQ(dnnl_graph_compiled_partition_query_logical_tensor(cp, 1, &q),
            dnnl_invalid_arguments); // not compiled yet
    ASSERT_EQ(dnnl_graph_partition_compile(parts[0], cp, 1, ins, 1, outs, e), dnnl_success);
    ASSERT_EQ(dnnl_graph_compiled_partition_query_logical_tensor(cp, 1, &q), dnnl_success);
    EXPECT_EQ(q.layout_type, dnnl_graph_layout_type_strided);
    EXPECT_EQ(q.ndims, 1);
    EXPECT_EQ(q.dims[0], 8);
    EXPECT_EQ(dnnl_graph_compiled_partition_query_logical_tensor(cp, 77, &q),
            dnnl_invalid_arguments);
    size_t npairs = 9;
    const dnnl_graph_inplace_pair_t *pairs = nullptr;
    EXPECT_EQ(dnnl_graph_compiled_partition_get_inplace_ports(cp, &npairs, &pairs), dnnl_success);
    EXPECT_EQ(npairs, 0u);
    dnnl_graph_logical_tensor_t sp;
    EXPECT_EQ(dnnl_graph_compiled_partition_get_scratchpad_logical_tensor(cp, &sp), dnnl_success);
    EXPECT_EQ(sp.data_type, dnnl_u8);
    float xin[8] = {-1, 2, -3, 4, -5, 6, -7, 8}, yout[8] = {0};
    dnnl_graph_tensor_t tx, ty;
    dnnl_graph_tensor_create(&tx, &x, e, xin);
    dnnl_graph_tensor_create(&ty, &q, e, yout);
    const_dnnl_graph_tensor_t tin[] = {tx}, tout[] = {ty};
    ASSERT_EQ(dnnl_graph_compiled_partition_execute(cp, s, 1, tin, 1, tout), dnnl_success);
    for (int i = 0; i < 8; ++i)
        EXPECT_EQ(yout[i], std::max(0.f, xin[i]));
    std::memset(yout, 0, sizeof(yout));
    ASSERT_EQ(dnnl_graph_compiled_partition_execute_v2(cp, s, 1, tin, 1, tout, nullptr),
            dnnl_success);
    EXPECT_EQ(yout[7], 8.f);
    EXPECT_EQ(dnnl_graph_compiled_partition_execute(cp, s, 0, tin, 1, tout),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_compiled_partition_execute(cp, s, 1, tout, 1, tout),
            dnnl_invalid_arguments); // input tensor with the output's id
    // An unsupported partition does not compile.
    dnnl_graph_compiled_partition_t cp2 = nullptr;
    ASSERT_EQ(dnnl_graph_compiled_partition_create(&cp2, parts[1]), dnnl_success);
    const dnnl_graph_logical_tensor_t *ins2[] = {&y}, *outs2[] = {&z};
    EXPECT_EQ(dnnl_graph_partition_compile(parts[1], cp2, 1, ins2, 1, outs2, e),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_partition_compile(parts[0], cp2, 1, ins, 1, outs, e),
            dnnl_invalid_arguments); // compiled partition made for another partition

    dnnl_graph_tensor_destroy(tx);
    dnnl_graph_tensor_destroy(ty);
    EXPECT_EQ(dnnl_graph_compiled_partition_destroy(cp), dnnl_success);
    EXPECT_EQ(dnnl_graph_compiled_partition_destroy(cp2), dnnl_success);
    EXPECT_EQ(dnnl_graph_partition_destroy(parts[0]), dnnl_success);
    EXPECT_EQ(dnnl_graph_partition_destroy(parts[1]), dnnl_success);
    EXPECT_EQ(dnnl_graph_partition_destroy(parts[1]), dnnl_invalid_arguments);
    dnnl_graph_op_destroy(relu);
    dnnl_graph_op_destroy(wild);
    EXPECT_EQ(dnnl_graph_graph_destroy(g), dnnl_success);
    dnnl_stream_destroy(s);
    dnnl_engine_destroy(e);
}

TEST(graph_api, partition_with_one_op_and_user_scratchpad) {
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream strm(eng);
    op sm(1, op::kind::SoftMax, {lt(0, {3, 5})}, {lt_any(1)});
    sm.set_attr(op::attr::axis, int64_t(1));
    partition p(sm, dnnl::engine::kind::cpu);
    EXPECT_TRUE(p.is_supported());
    EXPECT_EQ(p.get_ops(), std::vector<size_t> {1});
    auto cp = p.compile({lt(0, {3, 5})}, {lt_any(1)}, eng);
    auto out = cp.query_logical_tensor(1);
    EXPECT_EQ(out.get_dims(), (lt_dims {3, 5}));
    auto sp_lt = cp.get_scratchpad_logical_tensor();
    std::vector<uint8_t> sp_buf(sp_lt.get_mem_size() + 1);
    std::vector<float> x = random_floats(15, 9), y(15);
    tensor tx(lt(0, {3, 5}), eng, x.data()), ty(out, eng, y.data());
    tensor tsp(sp_lt, eng, sp_buf.data());
    cp.execute(strm, {tx}, {ty}, tsp);
    for (int r = 0; r < 3; ++r) {
        float sum = 0;
        for (int c = 0; c < 5; ++c)
            sum += y[r * 5 + c];
        EXPECT_NEAR(sum, 1.f, 1e-5f);
    }
    EXPECT_TRUE(cp.get_inplace_ports().empty());
}

TEST(graph_api, caches_and_dump_mode) {
    const int cap = get_compiled_partition_cache_capacity();
    set_compiled_partition_cache_capacity(7);
    EXPECT_EQ(get_compiled_partition_cache_capacity(), 7);
    EXPECT_EQ(dnnl_graph_set_compiled_partition_cache_capacity(-1), dnnl_invalid_arguments);
    set_compiled_partition_cache_capacity(cap);
    const int flag = get_constant_tensor_cache();
    set_constant_tensor_cache(0);
    EXPECT_EQ(get_constant_tensor_cache(), 0);
    set_constant_tensor_cache(flag);
    const size_t cc = get_constant_tensor_cache_capacity(dnnl::engine::kind::cpu);
    set_constant_tensor_cache_capacity(dnnl::engine::kind::cpu, 1234);
    EXPECT_EQ(get_constant_tensor_cache_capacity(dnnl::engine::kind::cpu), 1234u);
    set_constant_tensor_cache_capacity(dnnl::engine::kind::cpu, cc);
    EXPECT_EQ(dnnl_graph_set_constant_tensor_cache_capacity((dnnl_engine_kind_t)9, 1),
            dnnl_invalid_arguments);
    EXPECT_EQ(set_dump_mode(graph_dump_mode::none), status::success);
    EXPECT_EQ(dnnl_graph_set_dump_mode((dnnl_graph_dump_mode_t)8), dnnl_invalid_arguments);

    // Dump files: graph at partitioning, partition at compile.
    EXPECT_EQ(set_dump_mode(graph_dump_mode::graph | graph_dump_mode::subgraph), status::success);
    graph g(dnnl::engine::kind::cpu);
    op relu(1, op::kind::ReLU, {lt(0, {4})}, {lt(1, {4})});
    g.add_op(relu);
    g.finalize();
    auto parts = g.get_partitions();
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    parts[0].compile({lt(0, {4})}, {lt(1, {4})}, eng);
    set_dump_mode(graph_dump_mode::none);
    const std::string name = "graph-partition-" + std::to_string(parts[0].get_id()) + ".json";
    FILE *f = std::fopen(name.c_str(), "r");
    ASSERT_NE(f, nullptr);
    char text[4096] = {0};
    const size_t n = std::fread(text, 1, sizeof(text) - 1, f);
    std::fclose(f);
    std::remove(name.c_str());
    EXPECT_GT(n, 0u);
    EXPECT_NE(std::strstr(text, "\"kind\": \"ReLU\""), nullptr);
    EXPECT_NE(std::strstr(text, "\"shape\": [4]"), nullptr);
}

TEST(graph_api, compiled_partition_cache_returns_the_same_compilation) {
    graph g(dnnl::engine::kind::cpu);
    op relu(1, op::kind::Tanh, {lt(0, {6})}, {lt(1, {6})});
    g.add_op(relu);
    g.finalize();
    auto parts = g.get_partitions();
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    auto a = parts[0].compile({lt(0, {6})}, {lt(1, {6})}, eng);
    auto b = parts[0].compile({lt(0, {6})}, {lt(1, {6})}, eng);
    EXPECT_TRUE(a.query_logical_tensor(1).is_equal(b.query_logical_tensor(1)));
}
