// The K-major copy the Hopper tf32 and 8-bit wgmma matmul runs before its GEMM
// (gpu/gemm/kmajor_copy): on any OpenCL device (PoCL in CI), every element of a batch of
// strided matrices lands at (b, r, k) of rows kmajor_ld apart, bit for bit, for row-major B
// (a transpose through local memory), K-major sources with misaligned rows and general
// strides; columns past k are left as they were. And the s32 row sums of 8-bit sources
// (B's column sums for src's zero point), signed and unsigned, alone (row-major and K-major
// sources, several tiles along K adding into one sum) and from the copy's own pass.
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "core/memory.hpp"
#include "gpu/gemm/kmajor_copy.hpp"
#include "oneapi/dnnl/dnnl.h"

namespace {

using namespace anydnn::gpu;

struct gpu_t {
    dnnl_engine_t engine = nullptr;
    dnnl_stream_t stream = nullptr;
    gpu_t() {
        if (dnnl_engine_get_count(dnnl_gpu) == 0) return;
        if (dnnl_engine_create(&engine, dnnl_gpu, 0) != dnnl_success) return;
        dnnl_stream_create(&stream, engine, dnnl_stream_default_flags);
    }
    ~gpu_t() {
        if (stream) dnnl_stream_destroy(stream);
        if (engine) dnnl_engine_destroy(engine);
    }
};

// A byte buffer on the GPU engine holding `bytes`.
struct buffer_t {
    dnnl_memory_t mem = nullptr;
    dnnl_memory_desc_t md = nullptr;
    buffer_t(dnnl_engine_t engine, size_t bytes) {
        const int64_t dims[] = {static_cast<int64_t>(bytes)};
        EXPECT_EQ(dnnl_memory_desc_create_with_tag(&md, 1, dims, dnnl_u8, dnnl_a), dnnl_success);
        EXPECT_EQ(dnnl_memory_create(&mem, md, engine, DNNL_MEMORY_ALLOCATE), dnnl_success);
    }
    ~buffer_t() {
        dnnl_memory_destroy(mem);
        dnnl_memory_desc_destroy(md);
    }
    void put(const std::vector<uint8_t> &v) {
        void *p = nullptr;
        ASSERT_EQ(dnnl_memory_map_data(mem, &p), dnnl_success);
        std::memcpy(p, v.data(), v.size());
        ASSERT_EQ(dnnl_memory_unmap_data(mem, p), dnnl_success);
    }
    std::vector<uint8_t> get(size_t bytes) {
        std::vector<uint8_t> v(bytes);
        void *p = nullptr;
        EXPECT_EQ(dnnl_memory_map_data(mem, &p), dnnl_success);
        std::memcpy(v.data(), p, bytes);
        EXPECT_EQ(dnnl_memory_unmap_data(mem, p), dnnl_success);
        return v;
    }
};

// The s32 sum over k of row (b, r) of the bytes `in` as `s` lays them out.
int64_t row_sum(const std::vector<uint8_t> &in, const kmajor_source_t &s, int64_t b, int64_t r,
        bool is_signed) {
    int64_t sum = 0;
    for (int64_t k = 0; k < s.k; ++k) {
        const uint8_t v = in[size_t(s.off + b * s.sb + r * s.sr + k * s.sk)];
        sum += is_signed ? int64_t(int8_t(v)) : int64_t(v);
    }
    return sum;
}

// Checks `batches * rows` s32 sums at element `to` of `out` (bytes), and that the element
// before them kept its poison.
void check_sums(const std::vector<uint8_t> &out, const std::vector<uint8_t> &in,
        const kmajor_source_t &s, int64_t to, bool is_signed) {
    for (int64_t b = 0; b < s.batches; ++b)
        for (int64_t r = 0; r < s.rows; ++r) {
            int32_t got;
            std::memcpy(&got, &out[size_t(to + b * s.rows + r) * 4], 4);
            ASSERT_EQ(got, row_sum(in, s, b, r, is_signed))
                    << "b " << b << " r " << r << " signed " << is_signed;
        }
    int32_t before;
    std::memcpy(&before, &out[size_t(to - 1) * 4], 4);
    EXPECT_EQ(uint32_t(before), 0xa5a5a5a5u); // nothing written before `to`
}

// Copies `s` (elements of es bytes, random bits) to element `to` of a poisoned buffer and
// checks every element of the result and that the padding columns kept the poison; with
// `sums` (1-byte elements), also the row sums the copy gives into a poisoned buffer.
void check_copy(gpu_t &g, const kmajor_source_t &s, int es, int64_t to,
        row_sums_kind_t sums = row_sums_kind_t::none) {
    int64_t last = s.off; // the source's furthest element
    last += (s.batches - 1) * s.sb + (s.rows - 1) * s.sr + (s.k - 1) * s.sk;
    const size_t in_bytes = static_cast<size_t>(last + 1) * es;
    const int64_t ld = kmajor_ld(s.k, es);
    const size_t out_bytes = static_cast<size_t>(to) * es + kmajor_bytes(s, es);
    std::mt19937 rng(7);
    std::vector<uint8_t> in(in_bytes), poison(out_bytes, 0xa5);
    for (uint8_t &b : in)
        b = static_cast<uint8_t>(rng());
    buffer_t x(g.engine, in_bytes), y(g.engine, out_bytes);
    x.put(in);
    y.put(poison);
    const int64_t sums_to = 3, sums_bytes = (sums_to + s.batches * s.rows) * 4;
    buffer_t z(g.engine, size_t(sums_bytes));
    z.put(std::vector<uint8_t>(size_t(sums_bytes), 0xa5));
    const bool with_sums = sums != row_sums_kind_t::none;
    kmajor_copy_t copy;
    ASSERT_EQ(copy.init(g.engine, es, sums), dnnl_success);
    ASSERT_EQ(copy.launch(g.stream, x.mem->storage(), s, y.mem->storage(), to,
                      with_sums ? z.mem->storage() : nullptr, sums_to),
            dnnl_success);
    ASSERT_EQ(dnnl_stream_wait(g.stream), dnnl_success);
    const std::vector<uint8_t> out = y.get(out_bytes);
    if (with_sums) check_sums(z.get(size_t(sums_bytes)), in, s, sums_to, sums == row_sums_kind_t::s8);
    for (int64_t b = 0; b < s.batches; ++b)
        for (int64_t r = 0; r < s.rows; ++r)
            for (int64_t k = 0; k < ld; ++k) {
                const uint8_t *got = &out[((to + (b * s.rows + r) * ld + k)) * es];
                if (k >= s.k) {
                    for (int i = 0; i < es; ++i)
                        ASSERT_EQ(got[i], 0xa5) << "padding written at b " << b << " r " << r;
                    continue;
                }
                const uint8_t *want = &in[(s.off + b * s.sb + r * s.sr + k * s.sk) * es];
                ASSERT_EQ(std::memcmp(got, want, es), 0)
                        << "b " << b << " r " << r << " k " << k << " es " << es;
            }
}

} // namespace

TEST(kmajor_copy, pitch_is_k_in_16_byte_pieces) {
    EXPECT_EQ(kmajor_ld(1, 4), 4);
    EXPECT_EQ(kmajor_ld(33, 4), 36);
    EXPECT_EQ(kmajor_ld(32, 4), 32);
    EXPECT_EQ(kmajor_ld(1, 1), 16);
    EXPECT_EQ(kmajor_ld(129, 1), 144);
    kmajor_source_t s;
    s.batches = 3, s.rows = 5, s.k = 7;
    EXPECT_EQ(kmajor_bytes(s, 4), 512u); // 3 * 5 * 8 * 4 = 480, rounded up to 256 bytes
    EXPECT_EQ(kmajor_bytes(s, 1), 256u); // 3 * 5 * 16 = 240
}

TEST(kmajor_copy, row_major_b_is_transposed_batch_by_batch) {
    gpu_t g;
    if (!g.stream) GTEST_SKIP() << "no GPU engine";
    for (int es : {4, 1}) {
        // B (K x N) row-major, N = 45 columns in rows of 48, K = 37, 2 batches 2000 apart.
        kmajor_source_t s;
        s.batches = 2, s.rows = 45, s.k = 37;
        s.off = 5, s.sb = 2000, s.sr = 1, s.sk = 48;
        check_copy(g, s, es, 0);
        // Tails of both tile dimensions, one matrix, written past element 64.
        s.batches = 1, s.rows = 70, s.k = 33, s.off = 0, s.sb = 0, s.sk = 70;
        check_copy(g, s, es, 64);
    }
}

TEST(kmajor_copy, k_major_and_general_strides_are_copied) {
    gpu_t g;
    if (!g.stream) GTEST_SKIP() << "no GPU engine";
    for (int es : {4, 1}) {
        // K-major rows of 41 (not 16-byte rows): realigned.
        kmajor_source_t s;
        s.batches = 1, s.rows = 33, s.k = 40;
        s.off = 3, s.sr = 41, s.sk = 1;
        check_copy(g, s, es, 16);
        // Neither dimension contiguous; one row, one column.
        s.batches = 2, s.rows = 9, s.k = 11, s.off = 1, s.sb = 300, s.sr = 3, s.sk = 27;
        check_copy(g, s, es, 0);
        s.batches = 1, s.rows = 1, s.k = 1, s.off = 0, s.sb = 0, s.sr = 1, s.sk = 1;
        check_copy(g, s, es, 0);
    }
}

TEST(kmajor_copy, refuses_other_element_sizes_and_skips_empty_copies) {
    gpu_t g;
    if (!g.stream) GTEST_SKIP() << "no GPU engine";
    kmajor_copy_t copy;
    EXPECT_EQ(copy.init(g.engine, 2), dnnl_unimplemented);
    ASSERT_EQ(copy.init(g.engine, 4), dnnl_success);
    kmajor_source_t s; // zero rows: nothing launched, not even with null buffers
    EXPECT_EQ(copy.launch(g.stream, nullptr, s, nullptr, 0), dnnl_success);
}

TEST(kmajor_copy, row_sums_of_signed_and_unsigned_bytes) {
    gpu_t g;
    if (!g.stream) GTEST_SKIP() << "no GPU engine";
    for (bool is_signed : {true, false}) {
        // B (K x N) row-major, 2 batches: N = 37 rows of sums, K = 300 (sums past 2^15, ten
        // tiles along K); then K-major rows (B given N x K, K contiguous), one tile wide.
        kmajor_source_t rm;
        rm.batches = 2, rm.rows = 37, rm.k = 300;
        rm.off = 3, rm.sb = 37 * 300 + 5, rm.sr = 1, rm.sk = 37;
        kmajor_source_t km;
        km.batches = 1, km.rows = 65, km.k = 1000;
        km.off = 1, km.sr = 1003, km.sk = 1;
        for (const kmajor_source_t &s : {rm, km}) {
            const size_t in_bytes = size_t(s.off + (s.batches - 1) * s.sb
                    + (s.rows - 1) * s.sr + (s.k - 1) * s.sk + 1);
            std::mt19937 rng(5);
            std::vector<uint8_t> in(in_bytes);
            for (uint8_t &b : in)
                b = static_cast<uint8_t>(rng());
            const int64_t to = 8, count = s.batches * s.rows;
            buffer_t x(g.engine, in_bytes), y(g.engine, size_t(to + count) * 4);
            x.put(in);
            y.put(std::vector<uint8_t>(size_t(to + count) * 4, 0xa5));
            row_sums_t sums;
            ASSERT_EQ(sums.init(g.engine, is_signed), dnnl_success);
            // Twice: the sums start from zero at each launch, not from the last ones.
            for (int run = 0; run < 2; ++run)
                ASSERT_EQ(sums.launch(g.stream, x.mem->storage(), s, y.mem->storage(), to),
                        dnnl_success);
            ASSERT_EQ(dnnl_stream_wait(g.stream), dnnl_success);
            check_sums(y.get(size_t(to + count) * 4), in, s, to, is_signed);
        }
    }
}

TEST(kmajor_copy, copies_of_bytes_also_give_their_row_sums) {
    gpu_t g;
    if (!g.stream) GTEST_SKIP() << "no GPU engine";
    for (row_sums_kind_t kind : {row_sums_kind_t::s8, row_sums_kind_t::u8}) {
        // Row-major B (the transpose), tails of both tile dimensions (tiles of bytes are
        // 128 columns long: K 297 is three of them), 2 batches.
        kmajor_source_t s;
        s.batches = 2, s.rows = 45, s.k = 297;
        s.off = 5, s.sb = 297 * 48 + 7, s.sr = 1, s.sk = 48;
        check_copy(g, s, 1, 0, kind);
        // Misaligned K-major rows, two tiles along K.
        s.batches = 1, s.rows = 33, s.k = 170, s.off = 3, s.sb = 0, s.sr = 171, s.sk = 1;
        check_copy(g, s, 1, 16, kind);
    }
    kmajor_copy_t copy; // 4-byte elements have no sums
    EXPECT_EQ(copy.init(g.engine, 4, row_sums_kind_t::s8), dnnl_unimplemented);
}
