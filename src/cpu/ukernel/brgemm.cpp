// The brgemm ukernel's configuration rules: supported types, B layout, post-ops, finalize and
// the choice of kernel in generate.
#include "cpu/ukernel/brgemm_kernels.hpp"

#include "core/ops/binary/binary_math.hpp"
#include "core/ops/eltwise/eltwise_math.hpp"
#include "runtime/cpu/isa.hpp"

namespace anydnn {
namespace cpu {
namespace ukernel {

namespace {

bool is_int8(dnnl_data_type_t dt) {
    return dt == dnnl_u8 || dt == dnnl_s8;
}

bool is_f8(dnnl_data_type_t dt) {
    return dt == dnnl_f8_e5m2 || dt == dnnl_f8_e4m3;
}

// f32 and f16 mix freely (f16 is computed as f32); so do the two 8-bit floats.
bool is_f32_or_f16(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_f16;
}

bool is_d_type(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16 || dt == dnnl_s32 || dt == dnnl_s8
            || dt == dnnl_u8 || is_f8(dt);
}

// A binary post-op's second operand: a 2D plain tensor broadcasting to M x N.
status_t check_binary_src(const memory_desc_t &md, dim_t M, dim_t N) {
    ANYDNN_REQUIRE(md.ndims == 2, dnnl_unimplemented,
            "brgemm binary post-op takes a 2D tensor (got %d dimensions)", md.ndims);
    ANYDNN_REQUIRE((md.dims[0] == 1 || md.dims[0] == M) && (md.dims[1] == 1 || md.dims[1] == N),
            dnnl_invalid_arguments,
            "brgemm binary post-op tensor %lldx%lld does not broadcast to %lldx%lld",
            (long long)md.dims[0], (long long)md.dims[1], (long long)M, (long long)N);
    ANYDNN_REQUIRE(md.format_kind == dnnl_blocked && md.blocking.inner_nblks == 0,
            dnnl_unimplemented, "brgemm binary post-op tensor must have a plain strided layout");
    ANYDNN_REQUIRE(is_d_type(md.data_type), dnnl_unimplemented,
            "brgemm binary post-op tensor of type %s", dnnl_dt2str(md.data_type));
    return dnnl_success;
}

} // namespace

status_t brgemm_check_types(dnnl_data_type_t a_dt, dnnl_data_type_t b_dt, dnnl_data_type_t c_dt) {
    const bool fp = ((a_dt == dnnl_bf16 && b_dt == dnnl_bf16)
                            || (is_f32_or_f16(a_dt) && is_f32_or_f16(b_dt))
                            || (is_f8(a_dt) && is_f8(b_dt)))
            && c_dt == dnnl_f32;
    const bool int8 = is_int8(a_dt) && is_int8(b_dt) && c_dt == dnnl_s32;
    ANYDNN_REQUIRE(fp || int8, dnnl_unimplemented,
            "brgemm computes bf16 x bf16, f32/f16 x f32/f16 and f8 x f8 -> f32, u8/s8 x u8/s8 "
            "-> s32 (got %s x %s -> %s)",
            dnnl_dt2str(a_dt), dnnl_dt2str(b_dt), dnnl_dt2str(c_dt));
    return dnnl_success;
}

int pack32_group(dnnl_data_type_t dt) {
    return is_int8(dt) ? 4 : dt == dnnl_bf16 || dt == dnnl_f16 ? 2 : 1;
}

// Packed only where a dot-product instruction wants k in groups: bf16 (vdpbf16ps) and int8
// (vpdpbusd). f32 is read in place; f16 and f8 are computed as f32 (no f16 or f8 arithmetic
// here).
dnnl_pack_type_t brgemm_b_pack_type(dnnl_data_type_t b_dt) {
    switch (b_dt) {
        case dnnl_f32:
        case dnnl_f16:
        case dnnl_f8_e5m2:
        case dnnl_f8_e4m3: return dnnl_pack_type_no_trans;
        case dnnl_bf16:
            return isa_enabled(dnnl_cpu_isa_avx512_core_bf16) ? dnnl_pack_type_pack32
                                                              : dnnl_pack_type_no_trans;
        case dnnl_u8:
        case dnnl_s8:
            return isa_enabled(dnnl_cpu_isa_avx512_core_vnni) ? dnnl_pack_type_pack32
                                                              : dnnl_pack_type_no_trans;
        default: return dnnl_pack_type_undef;
    }
}

status_t brgemm_b_pack_type_for(
        dnnl_data_type_t a_dt, dnnl_data_type_t b_dt, dnnl_pack_type_t *pack_type) {
    // The accumulator type follows from the pair, so the pair check is the create-time one.
    const dnnl_data_type_t c_dt = is_int8(a_dt) ? dnnl_s32 : dnnl_f32;
    ANYDNN_CHECK(brgemm_check_types(a_dt, b_dt, c_dt));
    *pack_type = brgemm_b_pack_type(b_dt);
    return dnnl_success;
}

status_t brgemm_set_post_ops(
        brgemm_conf_t &c, dim_t ldd, dnnl_data_type_t d_dt, const post_ops_t *po) {
    ANYDNN_REQUIRE(ldd >= c.N, dnnl_invalid_arguments, "ldd %lld is below N %lld",
            (long long)ldd, (long long)c.N);
    ANYDNN_REQUIRE(is_d_type(d_dt), dnnl_unimplemented, "brgemm D of type %s",
            dnnl_dt2str(d_dt));
    std::vector<post_op_t> entries;
    int binaries = 0;
    if (po)
        for (const post_op_t &e : po->entries) {
            if (e.kind == dnnl_eltwise) {
                ANYDNN_REQUIRE(is_eltwise_alg(e.alg), dnnl_unimplemented,
                        "brgemm eltwise post-op algorithm %s", dnnl_alg_kind2str(e.alg));
            } else if (e.kind == dnnl_binary) {
                ANYDNN_REQUIRE(is_binary_alg(e.alg) && e.alg != dnnl_binary_select,
                        dnnl_unimplemented, "brgemm binary post-op algorithm %s",
                        dnnl_alg_kind2str(e.alg));
                ANYDNN_CHECK(check_binary_src(e.src1_md, c.M, c.N));
                ++binaries;
            } else if (e.kind == dnnl_sum) {
                // D's previous value is read as D's type (the only one it can have here).
                ANYDNN_REQUIRE(e.sum_dt == dnnl_data_type_undef || e.sum_dt == d_dt,
                        dnnl_unimplemented, "brgemm sum post-op reads D as %s, D is %s",
                        dnnl_dt2str(e.sum_dt), dnnl_dt2str(d_dt));
            } else {
                return fail(dnnl_unimplemented, __func__,
                        "brgemm post-ops are sum, eltwise and binary (got %s)",
                        dnnl_prim_kind2str(e.kind));
            }
            entries.push_back(e);
        }
    c.has_d = true;
    c.ldd = ldd;
    c.d_dt = d_dt;
    c.post_ops = std::move(entries);
    c.binary_count = binaries;
    return dnnl_success;
}

status_t brgemm_finalize(brgemm_conf_t &c) {
    c.b_pack = brgemm_b_pack_type(c.b_dt);
    c.b_group = c.b_pack == dnnl_pack_type_pack32 ? pack32_group(c.b_dt) : 1;
    const bool scales = c.a_scale_mask >= 0 || c.b_scale_mask >= 0 || c.d_scale_mask >= 0;
    c.postops_valid = !c.post_ops.empty() || scales || (c.has_d && c.d_dt != c.c_dt);
    ANYDNN_REQUIRE(!scales || c.has_d, dnnl_invalid_arguments,
            "brgemm scales apply on the way to D: set post-ops (D's type and ldd) too");
    // execute_postops accumulates all of M x N before the post-ops see it.
    c.scratchpad_size = c.postops_valid ? static_cast<size_t>(c.M * c.N) * 4 : 0;
    return dnnl_success;
}

status_t brgemm_generate(brgemm_conf_t &c) {
    const brgemm_kernel_fn picks[] = {brgemm_f32_avx512(c), brgemm_bf16_avx512(c),
            brgemm_int8_vnni(c), brgemm_generic(c)};
    const char *names[] = {"brgemm:avx512", "brgemm:avx512_bf16", "brgemm:avx512_vnni",
            "brgemm:generic"};
    for (int i = 0; i < 4; ++i)
        if (picks[i]) {
            c.kernel = picks[i];
            c.kernel_name = names[i];
            return dnnl_success;
        }
    return fail(dnnl_unimplemented, __func__, "no brgemm kernel for %s x %s",
            dnnl_dt2str(c.a_dt), dnnl_dt2str(c.b_dt));
}

} // namespace ukernel
} // namespace cpu
} // namespace anydnn
