#include "gpu/zero_padding.hpp"

#include "gpu/launch.hpp"

namespace anydnn {
namespace gpu {

const char *bits_type(dnnl_data_type_t dt) {
    const size_t size = data_type_size(dt);
    return size == 1 ? "uchar" : size == 2 ? "ushort" : "uint";
}

status_t zero_padding_t::init(engine_t *engine, const memory_desc_t &md) {
    if (nelems(md, true) == nelems(md)) return dnnl_success;
    // concat.cl's padding kernel in its plain-copy form: the same bits for any data type.
    const std::string opt = std::string(" -DCOPY -DSRC_DATA_T=") + bits_type(md.data_type)
            + " -DDST_DATA_T=" + bits_type(md.data_type);
    return create_kernel(engine, "concat/concat.cl", opt, "concat_zero_padding", kernel_);
}

status_t zero_padding_t::launch(const exec_ctx_t &ctx, int arg, const memory_desc_t &md) const {
    if (!kernel_) return dnnl_success;
    const int64_t padded = nelems(md, true);
    kernel_args_t args;
    args.add(storage_of(ctx, arg));
    add_layout(args, md);
    args.add_value(padded);
    add_logical_dims(args, md);
    return kernel_->launch(ctx.stream, args, range_1d(static_cast<size_t>(padded)));
}

} // namespace gpu
} // namespace anydnn
