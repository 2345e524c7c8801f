// The ukernel API answers bad input with a status (never a crash): null pointers, bad sizes,
// unsupported type pairs and post-ops, calls out of order (query before finalize, execute
// before generate, configure after finalize), destroyed handles, missing run-time arguments.
#include "ukernel/ukernel_test_util.hpp"

namespace {

dnnl_brgemm_t make(dnnl_dim_t M = 4, dnnl_dim_t N = 8, dnnl_dim_t K = 16,
        dnnl_data_type_t a = dnnl_f32, dnnl_data_type_t b = dnnl_f32,
        dnnl_data_type_t c = dnnl_f32) {
    dnnl_brgemm_t br = nullptr;
    EXPECT_EQ(dnnl_brgemm_create(&br, M, N, K, 1, K, N, N, a, b, c), dnnl_success);
    return br;
}

} // namespace

TEST(ukernel_bad_input, create_checks_sizes_and_types) {
    dnnl_brgemm_t br = reinterpret_cast<dnnl_brgemm_t>(0x1);
    EXPECT_EQ(dnnl_brgemm_create(nullptr, 4, 8, 16, 1, 16, 8, 8, dnnl_f32, dnnl_f32, dnnl_f32),
            dnnl_invalid_arguments);
    for (dnnl_dim_t bad : {0, -1}) {
        EXPECT_EQ(dnnl_brgemm_create(&br, bad, 8, 16, 1, 16, 8, 8, dnnl_f32, dnnl_f32, dnnl_f32),
                dnnl_invalid_arguments);
        EXPECT_EQ(br, nullptr);
        EXPECT_EQ(dnnl_brgemm_create(&br, 4, 8, 16, bad, 16, 8, 8, dnnl_f32, dnnl_f32, dnnl_f32),
                dnnl_invalid_arguments);
    }
    // Leading dimensions below the row lengths.
    EXPECT_EQ(dnnl_brgemm_create(&br, 4, 8, 16, 1, 15, 8, 8, dnnl_f32, dnnl_f32, dnnl_f32),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_brgemm_create(&br, 4, 8, 16, 1, 16, 7, 8, dnnl_f32, dnnl_f32, dnnl_f32),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_brgemm_create(&br, 4, 8, 16, 1, 16, 8, 7, dnnl_f32, dnnl_f32, dnnl_f32),
            dnnl_invalid_arguments);
    // Type pairs no kernel computes.
    const dnnl_data_type_t bad_types[][3] = {{dnnl_f32, dnnl_bf16, dnnl_f32},
            {dnnl_bf16, dnnl_bf16, dnnl_bf16}, {dnnl_u8, dnnl_s8, dnnl_f32},
            {dnnl_f32, dnnl_f32, dnnl_s32}, {dnnl_f64, dnnl_f64, dnnl_f32},
            {dnnl_s8, dnnl_f32, dnnl_f32}, {dnnl_f16, dnnl_bf16, dnnl_f32},
            {dnnl_f8_e5m2, dnnl_f32, dnnl_f32}, {dnnl_f8_e4m3, dnnl_bf16, dnnl_f32}};
    for (const auto &t : bad_types)
        EXPECT_EQ(dnnl_brgemm_create(&br, 4, 8, 16, 1, 16, 8, 8, t[0], t[1], t[2]),
                dnnl_unimplemented)
                << dnnl_dt2str(t[0]) << " x " << dnnl_dt2str(t[1]) << " -> " << dnnl_dt2str(t[2]);
    EXPECT_EQ(br, nullptr);
}

TEST(ukernel_bad_input, b_pack_type_of_unsupported_pairs) {
    // The pack type query takes the types alone; a pair no brgemm computes has no layout.
    const dnnl_data_type_t bad_pairs[][2] = {{dnnl_f32, dnnl_bf16}, {dnnl_f64, dnnl_f64},
            {dnnl_s8, dnnl_f32}, {dnnl_f32, dnnl_u8}, {dnnl_f16, dnnl_bf16},
            {dnnl_f8_e5m2, dnnl_f32}, {dnnl_data_type_undef, dnnl_f32},
            {dnnl_f32, dnnl_data_type_undef}, {dnnl_s32, dnnl_s32}};
    for (const auto &t : bad_pairs) {
        dnnl_pack_type_t pack = dnnl_pack_type_pack32;
        EXPECT_EQ(dnnl_brgemm_get_B_pack_type(&pack, t[0], t[1]), dnnl_unimplemented)
                << dnnl_dt2str(t[0]) << " x " << dnnl_dt2str(t[1]);
        EXPECT_EQ(pack, dnnl_pack_type_pack32) << "written although refused";
    }
    EXPECT_EQ(dnnl_brgemm_get_B_pack_type(nullptr, dnnl_f32, dnnl_f32), dnnl_invalid_arguments);
    // Every pair brgemm computes has one, the same for either int8 sign of A.
    const dnnl_data_type_t good_pairs[][2] = {{dnnl_f32, dnnl_f32}, {dnnl_bf16, dnnl_bf16},
            {dnnl_f16, dnnl_f16}, {dnnl_f16, dnnl_f32}, {dnnl_f8_e4m3, dnnl_f8_e5m2},
            {dnnl_u8, dnnl_s8}, {dnnl_s8, dnnl_s8}, {dnnl_s8, dnnl_u8}};
    for (const auto &t : good_pairs) {
        dnnl_pack_type_t pack = dnnl_pack_type_undef;
        EXPECT_EQ(dnnl_brgemm_get_B_pack_type(&pack, t[0], t[1]), dnnl_success)
                << dnnl_dt2str(t[0]) << " x " << dnnl_dt2str(t[1]);
        EXPECT_TRUE(pack == dnnl_pack_type_no_trans || pack == dnnl_pack_type_pack32);
    }
}

TEST(ukernel_bad_input, calls_out_of_order) {
    dnnl_brgemm_t br = make();
    ASSERT_NE(br, nullptr);
    size_t size;
    int valid;
    // Queries and generate need finalize.
    EXPECT_EQ(dnnl_brgemm_get_scratchpad_size(br, &size), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_brgemm_is_execute_postops_valid(br, &valid), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_brgemm_generate(br), dnnl_invalid_arguments);
    ASSERT_EQ(dnnl_brgemm_finalize(br), dnnl_success);
    // Configuration is fixed after finalize.
    EXPECT_EQ(dnnl_brgemm_set_add_C(br, 1), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_brgemm_set_A_scales(br, 0), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_brgemm_set_post_ops(br, 8, dnnl_f32, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_brgemm_finalize(br), dnnl_invalid_arguments);
    // Execute before generate.
    std::vector<float> A(64), B(128), C(32);
    const dnnl_dim_t offs[2] = {0, 0};
    EXPECT_EQ(dnnl_brgemm_execute(br, A.data(), B.data(), offs, C.data(), nullptr),
            dnnl_invalid_arguments);
    ASSERT_EQ(dnnl_brgemm_generate(br), dnnl_success);
    EXPECT_EQ(dnnl_brgemm_generate(br), dnnl_success); // a second generate changes nothing
    // Null pointers of execution.
    EXPECT_EQ(dnnl_brgemm_execute(nullptr, A.data(), B.data(), offs, C.data(), nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_brgemm_execute(br, nullptr, B.data(), offs, C.data(), nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_brgemm_execute(br, A.data(), nullptr, offs, C.data(), nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_brgemm_execute(br, A.data(), B.data(), nullptr, C.data(), nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_brgemm_execute(br, A.data(), B.data(), offs, nullptr, nullptr),
            dnnl_invalid_arguments);
    // No post-ops: execute_postops is not the call for this brgemm.
    std::vector<float> D(32), scratch(64);
    EXPECT_EQ(dnnl_brgemm_execute_postops(br, A.data(), B.data(), offs, C.data(), D.data(),
                      scratch.data(), nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_brgemm_execute(br, A.data(), B.data(), offs, C.data(), nullptr),
            dnnl_success);
    // Null out-parameters of queries.
    EXPECT_EQ(dnnl_brgemm_get_scratchpad_size(br, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_brgemm_is_execute_postops_valid(br, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_brgemm_set_hw_context(nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_brgemm_destroy(br), dnnl_success);
    // A destroyed handle is refused by configuration calls.
    EXPECT_EQ(dnnl_brgemm_set_add_C(br, 1), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_brgemm_finalize(br), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_brgemm_destroy(br), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_brgemm_destroy(nullptr), dnnl_success);
}

TEST(ukernel_bad_input, scales_and_post_ops) {
    dnnl_brgemm_t br = make();
    ASSERT_NE(br, nullptr);
    EXPECT_EQ(dnnl_brgemm_set_A_scales(br, -1), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_brgemm_set_A_scales(br, 2), dnnl_unimplemented);
    EXPECT_EQ(dnnl_brgemm_set_B_scales(br, 1), dnnl_unimplemented);
    EXPECT_EQ(dnnl_brgemm_set_D_scales(br, 2), dnnl_unimplemented);
    EXPECT_EQ(dnnl_brgemm_set_post_ops(br, 7, dnnl_f32, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_brgemm_set_post_ops(br, 8, dnnl_f64, nullptr), dnnl_unimplemented);

    dnnl_post_ops_t po = nullptr;
    ASSERT_EQ(dnnl_post_ops_create(&po), dnnl_success);
    // A sum reads D as D's own type only.
    ASSERT_EQ(dnnl_post_ops_append_sum(po, 1.f, 0, dnnl_s32), dnnl_success);
    EXPECT_EQ(dnnl_brgemm_set_post_ops(br, 8, dnnl_f32, po), dnnl_unimplemented);
    dnnl_post_ops_destroy(po);
    // A binary operand that does not broadcast to M x N.
    ASSERT_EQ(dnnl_post_ops_create(&po), dnnl_success);
    dnnl_memory_desc_t md = nullptr;
    const dnnl_dims_t dims = {3, 8};
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&md, 2, dims, dnnl_f32, dnnl_ab), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_binary(po, dnnl_binary_add, md), dnnl_success);
    EXPECT_EQ(dnnl_brgemm_set_post_ops(br, 8, dnnl_f32, po), dnnl_invalid_arguments);
    dnnl_post_ops_destroy(po);
    dnnl_memory_desc_destroy(md);

    // A good binary post-op; then execution without its argument.
    ASSERT_EQ(dnnl_post_ops_create(&po), dnnl_success);
    const dnnl_dims_t ok_dims = {1, 8};
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&md, 2, ok_dims, dnnl_f32, dnnl_ab), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_binary(po, dnnl_binary_add, md), dnnl_success);
    ASSERT_EQ(dnnl_brgemm_set_post_ops(br, 8, dnnl_f32, po), dnnl_success);
    ASSERT_EQ(dnnl_brgemm_set_B_scales(br, 2), dnnl_success);
    ASSERT_EQ(dnnl_brgemm_finalize(br), dnnl_success);
    ASSERT_EQ(dnnl_brgemm_generate(br), dnnl_success);
    size_t size = 0;
    ASSERT_EQ(dnnl_brgemm_get_scratchpad_size(br, &size), dnnl_success);
    EXPECT_GE(size, 4 * 8 * sizeof(float));
    std::vector<float> A(64), B(128), C(32), D(32), bin(8, 1.f), scales(8, 1.f);
    std::vector<uint8_t> scratch(size);
    const dnnl_dim_t offs[2] = {0, 0};
    EXPECT_EQ(dnnl_brgemm_execute_postops(br, A.data(), B.data(), offs, C.data(), D.data(),
                      scratch.data(), nullptr),
            dnnl_invalid_arguments);
    dnnl_ukernel_attr_params_t params = nullptr;
    ASSERT_EQ(dnnl_ukernel_attr_params_create(&params), dnnl_success);
    EXPECT_EQ(dnnl_brgemm_execute_postops(br, A.data(), B.data(), offs, C.data(), D.data(),
                      scratch.data(), params),
            dnnl_invalid_arguments); // no binary argument set
    const void *args[] = {bin.data()};
    ASSERT_EQ(dnnl_ukernel_attr_params_set_post_ops_args(params, args), dnnl_success);
    EXPECT_EQ(dnnl_brgemm_execute_postops(br, A.data(), B.data(), offs, C.data(), D.data(),
                      scratch.data(), params),
            dnnl_invalid_arguments); // B scales configured but not set
    ASSERT_EQ(dnnl_ukernel_attr_params_set_B_scales(params, scales.data()), dnnl_success);
    EXPECT_EQ(dnnl_brgemm_execute_postops(br, A.data(), B.data(), offs, C.data(), D.data(),
                      nullptr, params),
            dnnl_invalid_arguments); // no scratchpad
    EXPECT_EQ(dnnl_brgemm_execute_postops(br, A.data(), B.data(), offs, C.data(), nullptr,
                      scratch.data(), params),
            dnnl_invalid_arguments); // no D
    EXPECT_EQ(dnnl_brgemm_execute_postops(br, A.data(), B.data(), offs, C.data(), D.data(),
                      scratch.data(), params),
            dnnl_success);
    EXPECT_EQ(dnnl_ukernel_attr_params_destroy(params), dnnl_success);
    EXPECT_EQ(dnnl_ukernel_attr_params_set_A_scales(params, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ukernel_attr_params_create(nullptr), dnnl_invalid_arguments);
    dnnl_post_ops_destroy(po);
    dnnl_memory_desc_destroy(md);
    dnnl_brgemm_destroy(br);
}

TEST(ukernel_bad_input, scales_need_post_ops) {
    dnnl_brgemm_t br = make();
    ASSERT_EQ(dnnl_brgemm_set_A_scales(br, 0), dnnl_success);
    EXPECT_EQ(dnnl_brgemm_finalize(br), dnnl_invalid_arguments);
    dnnl_brgemm_destroy(br);
}

TEST(ukernel_bad_input, transform) {
    dnnl_transform_t tr = nullptr;
    EXPECT_EQ(dnnl_transform_create(nullptr, 8, 8, dnnl_pack_type_no_trans, 8, 8, dnnl_bf16,
                      dnnl_bf16),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_transform_create(&tr, 0, 8, dnnl_pack_type_no_trans, 8, 8, dnnl_bf16,
                      dnnl_bf16),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_transform_create(&tr, 8, 8, dnnl_pack_type_pack32, 8, 8, dnnl_bf16,
                      dnnl_bf16),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_transform_create(&tr, 8, 8, dnnl_pack_type_undef, 8, 8, dnnl_bf16,
                      dnnl_bf16),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_transform_create(&tr, 8, 8, dnnl_pack_type_no_trans, 7, 8, dnnl_bf16,
                      dnnl_bf16),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_transform_create(&tr, 8, 9, dnnl_pack_type_trans, 7, 9, dnnl_bf16,
                      dnnl_bf16),
            dnnl_invalid_arguments); // ba input: in_ld >= K
    EXPECT_EQ(dnnl_transform_create(&tr, 8, 8, dnnl_pack_type_no_trans, 8, 7, dnnl_bf16,
                      dnnl_bf16),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_transform_create(&tr, 8, 8, dnnl_pack_type_no_trans, 8, 8, dnnl_f32,
                      dnnl_bf16),
            dnnl_unimplemented);
    EXPECT_EQ(dnnl_transform_create(&tr, 8, 8, dnnl_pack_type_no_trans, 8, 8, dnnl_s32,
                      dnnl_s32),
            dnnl_unimplemented);
    EXPECT_EQ(tr, nullptr);
    ASSERT_EQ(dnnl_transform_create(&tr, 8, 8, dnnl_pack_type_no_trans, 8, 8, dnnl_bf16,
                      dnnl_bf16),
            dnnl_success);
    std::vector<uint16_t> in(64), out(64);
    EXPECT_EQ(dnnl_transform_execute(tr, in.data(), out.data()), dnnl_invalid_arguments);
    ASSERT_EQ(dnnl_transform_generate(tr), dnnl_success);
    EXPECT_EQ(dnnl_transform_execute(tr, nullptr, out.data()), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_transform_execute(tr, in.data(), nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_transform_execute(nullptr, in.data(), out.data()), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_transform_execute(tr, in.data(), out.data()), dnnl_success);
    EXPECT_EQ(dnnl_transform_destroy(tr), dnnl_success);
    EXPECT_EQ(dnnl_transform_generate(tr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_transform_destroy(nullptr), dnnl_success);
}
