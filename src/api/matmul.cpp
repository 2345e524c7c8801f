// dnnl_matmul_primitive_desc_create: argument checks and the descriptor.
#include "api/api.hpp"
#include "core/primitive_desc.hpp"

using namespace anydnn;

namespace {

status_t check_tensor(const memory_desc_t *md, const char *name) {
    ANYDNN_REQUIRE(md != nullptr, dnnl_invalid_arguments, "%s descriptor is null", name);
    ANYDNN_REQUIRE(md->ndims >= 2 && md->ndims <= DNNL_MAX_NDIMS, dnnl_invalid_arguments,
            "%s has %d dimensions (2 to %d)", name, md->ndims, DNNL_MAX_NDIMS);
    ANYDNN_REQUIRE(md->data_type != dnnl_data_type_undef, dnnl_invalid_arguments,
            "%s has no data type", name);
    for (int d = 0; d < md->ndims; ++d)
        ANYDNN_REQUIRE(md->dims[d] >= 0 || md->dims[d] == DNNL_RUNTIME_DIM_VAL,
                dnnl_invalid_arguments, "%s has a negative dimension", name);
    return dnnl_success;
}

bool agree(dim_t a, dim_t b) {
    return a == b || a == DNNL_RUNTIME_DIM_VAL || b == DNNL_RUNTIME_DIM_VAL;
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_matmul_primitive_desc_create(dnnl_primitive_desc_t *primitive_desc,
        dnnl_engine_t engine, const_dnnl_memory_desc_t src_desc,
        const_dnnl_memory_desc_t weights_desc, const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_desc, const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE_NOT_NULL(primitive_desc);
        ANYDNN_REQUIRE_LIVE(engine, engine);
        if (attr) ANYDNN_REQUIRE_READABLE_ATTR(attr);
        ANYDNN_CHECK(check_tensor(src_desc, "src"));
        ANYDNN_CHECK(check_tensor(weights_desc, "weights"));
        ANYDNN_CHECK(check_tensor(dst_desc, "dst"));
        const int nd = dst_desc->ndims;
        ANYDNN_REQUIRE(src_desc->ndims == nd && weights_desc->ndims == nd,
                dnnl_invalid_arguments, "src (%d), weights (%d) and dst (%d) ranks differ",
                src_desc->ndims, weights_desc->ndims, nd);
        const dim_t *s = src_desc->dims, *w = weights_desc->dims, *d = dst_desc->dims;
        ANYDNN_REQUIRE(agree(s[nd - 1], w[nd - 2]), dnnl_invalid_arguments,
                "K differs: src has %ld, weights %ld", (long)s[nd - 1], (long)w[nd - 2]);
        ANYDNN_REQUIRE(agree(s[nd - 2], d[nd - 2]), dnnl_invalid_arguments,
                "M differs: src has %ld, dst %ld", (long)s[nd - 2], (long)d[nd - 2]);
        ANYDNN_REQUIRE(agree(w[nd - 1], d[nd - 1]), dnnl_invalid_arguments,
                "N differs: weights have %ld, dst %ld", (long)w[nd - 1], (long)d[nd - 1]);
        for (int i = 0; i < nd - 2; ++i) {
            // Batch dimensions broadcast: src and weights have dst's extent or one.
            ANYDNN_REQUIRE(agree(s[i], d[i]) || s[i] == 1, dnnl_invalid_arguments,
                    "src batch dimension %d does not broadcast to dst", i);
            ANYDNN_REQUIRE(agree(w[i], d[i]) || w[i] == 1, dnnl_invalid_arguments,
                    "weights batch dimension %d does not broadcast to dst", i);
            if (s[i] != DNNL_RUNTIME_DIM_VAL && w[i] != DNNL_RUNTIME_DIM_VAL)
                // A one broadcasts to the other extent, zero included (an empty batch).
                ANYDNN_REQUIRE(agree(d[i], s[i] == 1 ? w[i] : s[i]), dnnl_invalid_arguments,
                        "dst batch dimension %d is not the broadcast of src and weights", i);
        }
        const bool has_bias = bias_desc && bias_desc->ndims != 0;
        if (has_bias) {
            ANYDNN_CHECK(check_tensor(bias_desc, "bias"));
            ANYDNN_REQUIRE(bias_desc->ndims == nd, dnnl_invalid_arguments,
                    "bias has %d dimensions, dst %d", bias_desc->ndims, nd);
            for (int i = 0; i < nd; ++i)
                ANYDNN_REQUIRE(bias_desc->dims[i] == 1 || agree(bias_desc->dims[i], d[i]),
                        dnnl_invalid_arguments, "bias dimension %d does not broadcast to dst",
                        i);
        }

        matmul_desc_t md {};
        md.src_md = *src_desc;
        md.weights_md = *weights_desc;
        md.bias_md = has_bias ? *bias_desc : zero_md();
        md.dst_md = *dst_desc;
        return primitive_desc_create(primitive_desc, md, attr, engine, nullptr);
    });
}

} // extern "C"
