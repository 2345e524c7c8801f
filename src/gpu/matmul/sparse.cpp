// GPU sparse matmul: CSR or COO src (COO sorted by row, as oneDNN documents for GPU engines)
// times dense weights, f32/f16/bf16 values and s32 metadata; sparse weights are refused (a
// work-item per dst element would scan every entry). Rules shared with the CPU engine in
// core/ops/matmul/sparse.hpp; metadata is checked by the kernel's guards, not on the host.
#include "core/ops/matmul/sparse.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"

namespace anydnn {
namespace gpu {

namespace {

using matmul_sparse::conf_t;

struct sparse_t;

struct sparse_pd_t : public primitive_desc_impl_t<sparse_pd_t, sparse_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "ocl:matmul:sparse"; }
    conf_t conf;

    static status_t init(sparse_pd_t &pd) {
        ANYDNN_CHECK(matmul_sparse::init_conf(
                std::get<matmul_desc_t>(pd.desc), pd.attr, pd.conf, pd.args));
        ANYDNN_REQUIRE(pd.conf.src_sparse, dnnl_unimplemented,
                "GPU sparse matmul takes a sparse src only (oneDNN: COO src), not sparse "
                "weights");
        return dnnl_success;
    }
};

// Storage type and load/store helper (cl/common.h) of a value type, as build options.
void type_options(dnnl_data_type_t dt, bool is_dst, std::string &out) {
    const char *t = dt == dnnl_f32 ? "float" : dt == dnnl_f16 ? "half" : "ushort";
    const char *s = dt == dnnl_f32 ? "f32" : dt == dnnl_f16 ? "f16" : "bf16";
    out += std::string(is_dst ? " -DDST_T=" : " -DVAL_T=") + t;
    out += std::string(is_dst ? " -DSTORE_DST=store_" : " -DLOAD_VAL=load_") + s;
}

struct sparse_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t init() override {
        const conf_t &c = static_cast<const sparse_pd_t &>(pd()).conf;
        std::string opt = c.encoding == dnnl_csr ? " -DENC_CSR=1" : " -DENC_CSR=0";
        type_options(c.dt, false, opt);
        type_options(c.dst_dt, true, opt);
        return create_kernel(pd().engine, "matmul/sparse.cl", opt, "sparse_matmul_src", kernel_);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const conf_t &c = static_cast<const sparse_pd_t &>(pd()).conf;
        if (c.M == 0 || c.N == 0) return dnnl_success;
        const memory_t *src = ctx.arg(DNNL_ARG_SRC);
        const memory_desc_t &w = pd().arg_md(DNNL_ARG_WEIGHTS);
        const memory_desc_t &d = pd().arg_md(DNNL_ARG_DST);
        const bool any = c.nnz > 0;
        // Buffers the kernel reads must be there (an empty CSR matrix still has pointers).
        for (int h = 0; h < src->nhandles(); ++h) {
            const bool read = any || (c.encoding == dnnl_csr && h == 2);
            ANYDNN_REQUIRE(!read || (src->storage(h) && src->storage(h)->data_handle()),
                    dnnl_invalid_arguments, "sparse matmul: buffer %d of src is missing", h);
        }
        kernel_args_t args;
        args.add(any ? src->storage(0) : nullptr);
        args.add(any ? src->storage(1) : nullptr);
        args.add(c.encoding == dnnl_csr || any ? src->storage(2) : nullptr);
        args.add(c.K > 0 ? storage_of(ctx, DNNL_ARG_WEIGHTS) : nullptr);
        args.add(storage_of(ctx, DNNL_ARG_DST));
        for (int64_t v : {c.M, c.N, c.K, c.nnz, w.blocking.strides[0], w.blocking.strides[1],
                     w.offset0, d.blocking.strides[0], d.offset0})
            args.add_value<int64_t>(v);
        return kernel_->launch(ctx.stream, args, range_1d(static_cast<size_t>(c.M * c.N)));
    }

private:
    std::shared_ptr<kernel_t> kernel_;
};

} // namespace

impl_entry_t matmul_sparse_entry() {
    return make_impl_entry<sparse_pd_t>("ocl:matmul:sparse");
}

} // namespace gpu
} // namespace anydnn
