// transform against the layout docs/ukernel.md documents, written out here: from ab and from
// ba input, every B type, odd K and N, out_ld wider than N (zero columns), K padded to the group.
#include <string>

#include "ukernel/ukernel_test_util.hpp"

using namespace ukernel_test;

namespace {

// The layout a brgemm with this B type asks for on this CPU.
dnnl_pack_type_t expected_pack(dnnl_data_type_t dt) {
    const dnnl_data_type_t a = dt == dnnl_u8 ? dnnl_s8 : dt;
    dnnl_pack_type_t p = dnnl_pack_type_undef;
    EXPECT_EQ(dnnl_brgemm_get_B_pack_type(&p, a, dt), dnnl_success);
    return p;
}

} // namespace

TEST(ukernel_transform, packs_ab_and_ba_into_the_documented_layout) {
    std::mt19937 gen(5);
    for (dnnl_data_type_t dt : {dnnl_f32, dnnl_bf16, dnnl_f16, dnnl_s8, dnnl_u8})
        for (auto kn : {std::pair<int, int>{1, 1}, {5, 7}, {64, 48}, {33, 130}, {7, 64}})
            for (int ld_extra : {0, 5}) {
                const dnnl_dim_t K = kn.first, N = kn.second, out_ld = N + ld_extra;
                SCOPED_TRACE(std::string(dnnl_dt2str(dt)) + " K" + std::to_string(K) + " N"
                        + std::to_string(N) + " out_ld" + std::to_string(out_ld));
                const dnnl_pack_type_t pack = expected_pack(dt);
                const dnnl_dim_t g
                        = pack == dnnl_pack_type_pack32 ? 4 / dnnl_dim_t(dt_size(dt)) : 1;
                const dnnl_dim_t kp = (K + g - 1) / g * g;
                const size_t out_n = size_t(pack == dnnl_pack_type_pack32 ? kp * out_ld : K * out_ld);
                // B as ab (rows N + 3 apart) and the same B as ba (columns K + 2 apart).
                buffer_t ab(dt, size_t(K * (N + 3))), ba(dt, size_t(N * (K + 2)));
                ab.fill(gen);
                for (dnnl_dim_t k = 0; k < K; ++k)
                    for (dnnl_dim_t n = 0; n < N; ++n)
                        ba.put(size_t(n * (K + 2) + k), ab.at(size_t(k * (N + 3) + n)));
                for (int from_ba = 0; from_ba < 2; ++from_ba) {
                    dnnl_transform_t tr = nullptr;
                    ASSERT_EQ(dnnl_transform_create(&tr, K, N,
                                      from_ba ? dnnl_pack_type_trans : dnnl_pack_type_no_trans,
                                      from_ba ? K + 2 : N + 3, out_ld, dt, dt),
                            dnnl_success);
                    ASSERT_EQ(dnnl_transform_generate(tr), dnnl_success);
                    buffer_t out(dt, out_n);
                    for (size_t i = 0; i < out_n; ++i)
                        out.put(i, 9); // anything the transform does not write stays 9
                    ASSERT_EQ(dnnl_transform_execute(tr, from_ba ? ba.ptr() : ab.ptr(), out.ptr()),
                            dnnl_success);
                    for (dnnl_dim_t k = 0; k < (pack == dnnl_pack_type_pack32 ? kp : K); ++k)
                        for (dnnl_dim_t n = 0; n < out_ld; ++n) {
                            const bool in_b = k < K && n < N;
                            if (pack == dnnl_pack_type_pack32) {
                                const size_t at = size_t((k / g) * out_ld * g + n * g + k % g);
                                ASSERT_EQ(out.at(at), in_b ? ab.at(size_t(k * (N + 3) + n)) : 0.0)
                                        << "k " << k << " n " << n;
                            } else {
                                const size_t at = size_t(k * out_ld + n);
                                ASSERT_EQ(out.at(at), in_b ? ab.at(size_t(k * (N + 3) + n)) : 9.0)
                                        << "k " << k << " n " << n;
                            }
                        }
                    dnnl_transform_destroy(tr);
                }
            }
}
