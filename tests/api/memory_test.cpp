// Contracts of memory objects through the C API: allocation modes, handles, mapping,
// multi-handle memory, host scalars and bad input.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"

namespace {

struct memory_fixture : public ::testing::Test {
    void SetUp() override {
        ASSERT_EQ(dnnl_engine_create(&engine, dnnl_cpu, 0), dnnl_success);
        dnnl_dims_t dims = {2, 3, 4, 5};
        ASSERT_EQ(dnnl_memory_desc_create_with_tag(&md, 4, dims, dnnl_f32, dnnl_nchw),
                dnnl_success);
    }
    void TearDown() override {
        dnnl_memory_desc_destroy(md);
        dnnl_engine_destroy(engine);
    }
    dnnl_engine_t engine = nullptr;
    dnnl_memory_desc_t md = nullptr;
};

} // namespace

TEST_F(memory_fixture, allocate_gives_aligned_writable_buffer) {
    dnnl_memory_t m = nullptr;
    ASSERT_EQ(dnnl_memory_create(&m, md, engine, DNNL_MEMORY_ALLOCATE), dnnl_success);
    void *p = nullptr;
    ASSERT_EQ(dnnl_memory_get_data_handle(m, &p), dnnl_success);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
    static_cast<float *>(p)[2 * 3 * 4 * 5 - 1] = 1.f; // whole size is usable (ASan checks)
    const_dnnl_memory_desc_t got = nullptr;
    ASSERT_EQ(dnnl_memory_get_memory_desc(m, &got), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_equal(got, md), 1);
    dnnl_engine_t e = nullptr;
    EXPECT_EQ(dnnl_memory_get_engine(m, &e), dnnl_success);
    EXPECT_EQ(e, engine);
    EXPECT_EQ(dnnl_memory_destroy(m), dnnl_success);
}

TEST_F(memory_fixture, none_then_user_handle) {
    dnnl_memory_t m = nullptr;
    ASSERT_EQ(dnnl_memory_create(&m, md, engine, DNNL_MEMORY_NONE), dnnl_success);
    void *p = reinterpret_cast<void *>(1);
    ASSERT_EQ(dnnl_memory_get_data_handle(m, &p), dnnl_success);
    EXPECT_EQ(p, nullptr);
    std::vector<float> buf(120);
    ASSERT_EQ(dnnl_memory_set_data_handle(m, buf.data()), dnnl_success);
    ASSERT_EQ(dnnl_memory_get_data_handle(m, &p), dnnl_success);
    EXPECT_EQ(p, buf.data());
    void *mapped = nullptr;
    ASSERT_EQ(dnnl_memory_map_data(m, &mapped), dnnl_success);
    EXPECT_EQ(mapped, buf.data());
    EXPECT_EQ(dnnl_memory_unmap_data(m, mapped), dnnl_success);
    EXPECT_EQ(dnnl_memory_destroy(m), dnnl_success); // does not free the user's buffer
}

TEST_F(memory_fixture, v2_single_handle_and_index_checks) {
    std::vector<float> buf(120);
    void *handles[] = {buf.data()};
    dnnl_memory_t m = nullptr;
    ASSERT_EQ(dnnl_memory_create_v2(&m, md, engine, 1, handles), dnnl_success);
    void *p = nullptr;
    EXPECT_EQ(dnnl_memory_get_data_handle_v2(m, &p, 0), dnnl_success);
    EXPECT_EQ(p, buf.data());
    EXPECT_EQ(dnnl_memory_get_data_handle_v2(m, &p, 1), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_get_data_handle_v2(m, &p, -1), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_map_data_v2(m, &p, 3), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_destroy(m), dnnl_success);
    EXPECT_EQ(dnnl_memory_create_v2(&m, md, engine, 2, handles), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_create_v2(&m, md, engine, 1, nullptr), dnnl_invalid_arguments);
}

TEST_F(memory_fixture, zero_size_memory_is_valid) {
    dnnl_dims_t dims = {2, 0, 4};
    dnnl_memory_desc_t zmd = nullptr;
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&zmd, 3, dims, dnnl_f32, dnnl_abc),
            dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_get_size(zmd), 0u);
    dnnl_memory_t m = nullptr;
    ASSERT_EQ(dnnl_memory_create(&m, zmd, engine, DNNL_MEMORY_ALLOCATE), dnnl_success);
    EXPECT_EQ(dnnl_memory_destroy(m), dnnl_success);
    dnnl_memory_desc_destroy(zmd);
}

TEST_F(memory_fixture, bad_input_returns_status) {
    dnnl_memory_t m = nullptr;
    EXPECT_EQ(dnnl_memory_create(nullptr, md, engine, DNNL_MEMORY_ALLOCATE),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_create(&m, nullptr, engine, DNNL_MEMORY_ALLOCATE),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_create(&m, md, nullptr, DNNL_MEMORY_ALLOCATE),
            dnnl_invalid_arguments);
    dnnl_dims_t dims = {2, 3};
    dnnl_memory_desc_t any_md = nullptr;
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&any_md, 2, dims, dnnl_f32, dnnl_format_tag_any),
            dnnl_success);
    EXPECT_EQ(dnnl_memory_create(&m, any_md, engine, DNNL_MEMORY_ALLOCATE),
            dnnl_invalid_arguments);
    dnnl_memory_desc_destroy(any_md);
    dnnl_dims_t rt_dims = {DNNL_RUNTIME_DIM_VAL, 3};
    dnnl_memory_desc_t rt_md = nullptr;
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&rt_md, 2, rt_dims, dnnl_f32, dnnl_ab),
            dnnl_success);
    EXPECT_EQ(dnnl_memory_create(&m, rt_md, engine, DNNL_MEMORY_ALLOCATE),
            dnnl_invalid_arguments);
    dnnl_memory_desc_destroy(rt_md);
    void *p = nullptr;
    EXPECT_EQ(dnnl_memory_get_data_handle(nullptr, &p), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_set_data_handle(nullptr, p), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_map_data(nullptr, &p), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_destroy(nullptr), dnnl_success);

    ASSERT_EQ(dnnl_memory_create(&m, md, engine, DNNL_MEMORY_ALLOCATE), dnnl_success);
    EXPECT_EQ(dnnl_memory_get_data_handle(m, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_map_data(m, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_set_data_handle(m, DNNL_MEMORY_ALLOCATE), dnnl_invalid_arguments);
    ASSERT_EQ(dnnl_memory_destroy(m), dnnl_success);
    EXPECT_EQ(dnnl_memory_get_data_handle(m, &p), dnnl_invalid_arguments); // destroyed
    EXPECT_EQ(dnnl_memory_destroy(m), dnnl_invalid_arguments);
}

TEST_F(memory_fixture, memory_keeps_engine_alive) {
    dnnl_engine_t e = nullptr;
    ASSERT_EQ(dnnl_engine_create(&e, dnnl_cpu, 0), dnnl_success);
    dnnl_memory_t m = nullptr;
    ASSERT_EQ(dnnl_memory_create(&m, md, e, DNNL_MEMORY_ALLOCATE), dnnl_success);
    ASSERT_EQ(dnnl_engine_destroy(e), dnnl_success);
    void *p = nullptr;
    EXPECT_EQ(dnnl_memory_map_data(m, &p), dnnl_success);
    EXPECT_EQ(dnnl_memory_unmap_data(m, p), dnnl_success);
    EXPECT_EQ(dnnl_memory_destroy(m), dnnl_success);
}

TEST(host_scalar_memory, value_round_trip) {
    dnnl_memory_desc_t md = nullptr;
    ASSERT_EQ(dnnl_memory_desc_create_host_scalar(&md, dnnl_f32), dnnl_success);
    float v = 2.5f;
    dnnl_memory_t m = nullptr;
    ASSERT_EQ(dnnl_memory_create_host_scalar(&m, md, &v), dnnl_success);
    float got = 0;
    EXPECT_EQ(dnnl_memory_get_host_scalar_value(m, &got), dnnl_success);
    EXPECT_EQ(got, 2.5f);
    float nv = -1.f;
    EXPECT_EQ(dnnl_memory_set_host_scalar_value(m, &nv), dnnl_success);
    EXPECT_EQ(dnnl_memory_get_host_scalar_value(m, &got), dnnl_success);
    EXPECT_EQ(got, -1.f);
    EXPECT_EQ(dnnl_memory_get_host_scalar_value(m, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_create_host_scalar(&m, md, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_destroy(m), dnnl_success);
    dnnl_memory_desc_destroy(md);
}

// set_data_handle zeroes the padding of a blocked layout in the buffer it is given (oneDNN
// documents that it may; primitives read the padding as zero) and leaves every element within
// the dimensions as it was; a layout without padding is not written at all.
TEST(memory_zero_padding, set_data_handle_zeroes_only_the_padding) {
    dnnl_engine_t engine = nullptr;
    ASSERT_EQ(dnnl_engine_create(&engine, dnnl_cpu, 0), dnnl_success);
    const struct {
        int ndims;
        dnnl_dims_t dims;
        dnnl_data_type_t dt;
        dnnl_format_tag_t tag;
    } cases[] = {{4, {2, 17, 3, 2}, dnnl_f32, dnnl_nChw16c}, {4, {1, 1, 1, 1}, dnnl_s8, dnnl_nChw8c},
            {2, {5, 33}, dnnl_f16, dnnl_AB16b16a}, {3, {3, 17, 5}, dnnl_f32, dnnl_ABc4a4b},
            {4, {2, 16, 3, 2}, dnnl_f32, dnnl_nChw16c}, {4, {2, 17, 3, 2}, dnnl_f32, dnnl_nchw}};
    for (const auto &c : cases) {
        dnnl_memory_desc_t md = nullptr;
        ASSERT_EQ(dnnl_memory_desc_create_with_tag(&md, c.ndims, c.dims, c.dt, c.tag),
                dnnl_success);
        const size_t bytes = dnnl_memory_desc_get_size(md);
        const size_t esz = dnnl_data_type_size(c.dt);
        std::vector<uint8_t> buf(bytes, 0xa5);
        dnnl_memory_t m = nullptr;
        ASSERT_EQ(dnnl_memory_create(&m, md, engine, DNNL_MEMORY_NONE), dnnl_success);
        ASSERT_EQ(dnnl_memory_set_data_handle(m, buf.data()), dnnl_success);
        // Which elements are data: write a marker through a plain reorder-free walk of the
        // logical positions, using the queried strides and blocks (all layouts here block at
        // most dimensions 0 and 1 by powers of two: padded dims are the rounded-up ones).
        const dnnl_dims_t *padded = nullptr, *strides = nullptr, *blks = nullptr, *idxs = nullptr;
        int nblks = 0;
        ASSERT_EQ(dnnl_memory_desc_query(md, dnnl_query_padded_dims, &padded), dnnl_success);
        ASSERT_EQ(dnnl_memory_desc_query(md, dnnl_query_strides, &strides), dnnl_success);
        ASSERT_EQ(dnnl_memory_desc_query(md, dnnl_query_inner_nblks_s32, &nblks), dnnl_success);
        ASSERT_EQ(dnnl_memory_desc_query(md, dnnl_query_inner_blks, &blks), dnnl_success);
        ASSERT_EQ(dnnl_memory_desc_query(md, dnnl_query_inner_idxs, &idxs), dnnl_success);
        int64_t total = 1;
        for (int d = 0; d < c.ndims; ++d) total *= (*padded)[d];
        int64_t zeroed = 0, pad_elems = 0;
        for (int64_t i = 0; i < total; ++i) {
            int64_t pos[DNNL_MAX_NDIMS], r = i;
            for (int d = c.ndims - 1; d >= 0; --d) {
                pos[d] = r % (*padded)[d];
                r /= (*padded)[d];
            }
            bool in_pad = false;
            for (int d = 0; d < c.ndims; ++d) in_pad = in_pad || pos[d] >= c.dims[d];
            // Offset: outer blocks by strides, inner blocks innermost last.
            int64_t rem[DNNL_MAX_NDIMS], off = 0, blk[DNNL_MAX_NDIMS];
            for (int d = 0; d < c.ndims; ++d) blk[d] = 1;
            for (int k = 0; k < nblks; ++k) blk[(*idxs)[k]] *= (*blks)[k];
            for (int d = 0; d < c.ndims; ++d) {
                off += pos[d] / blk[d] * (*strides)[d];
                rem[d] = pos[d] % blk[d];
            }
            int64_t mult = 1;
            for (int k = nblks - 1; k >= 0; --k) {
                const int64_t d = (*idxs)[k], b = (*blks)[k];
                off += rem[d] % b * mult;
                rem[d] /= b;
                mult *= b;
            }
            bool all_zero = true, all_pattern = true;
            for (size_t b = 0; b < esz; ++b) {
                all_zero = all_zero && buf[size_t(off) * esz + b] == 0;
                all_pattern = all_pattern && buf[size_t(off) * esz + b] == 0xa5;
            }
            if (in_pad) {
                ++pad_elems;
                zeroed += all_zero;
            } else
                EXPECT_TRUE(all_pattern) << "data element " << i << " was written";
        }
        EXPECT_EQ(zeroed, pad_elems) << "tag " << c.tag;
        if (c.tag == dnnl_nchw || pad_elems == 0)
            for (uint8_t b : buf) ASSERT_EQ(b, 0xa5);
        EXPECT_EQ(dnnl_memory_destroy(m), dnnl_success);
        dnnl_memory_desc_destroy(md);
    }
    dnnl_engine_destroy(engine);
}
