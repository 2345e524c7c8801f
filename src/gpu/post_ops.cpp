#include "gpu/post_ops.hpp"

#include <cstring>

#include "core/ops/post_ops.hpp"
#include "gpu/launch.hpp"

namespace anydnn {
namespace gpu {

namespace {
constexpr int kind_sum = 1, kind_eltwise = 2, kind_binary = 3, kind_prelu = 4;
} // namespace

status_t post_ops_t::init(const primitive_attr_t &attr, const memory_desc_t &dst,
        std::map<int, memory_desc_t> &args) {
    entries_.clear();
    has_sum_ = false;
    source_ = attr.post_ops;
    const auto &list = attr.post_ops.entries;
    if (list.empty()) return dnnl_success;
    ANYDNN_REQUIRE(static_cast<int>(list.size()) <= max_post_ops, dnnl_unimplemented,
            "GPU kernels apply up to %d post-ops, not %zu", max_post_ops, list.size());
    // The CPU chain holds the one definition of what a valid chain is and resolves the
    // operands' layouts; the GPU reads the operands it declared.
    cpu::post_ops_chain_t chain;
    ANYDNN_CHECK(chain.init(attr, dst));
    std::map<int, memory_desc_t> operands;
    chain.add_args(operands);
    for (int i = 0; i < static_cast<int>(list.size()); ++i) {
        const post_op_t &p = list[i];
        entry_t e;
        std::memset(&e.desc, 0, sizeof(e.desc));
        e.alg = static_cast<int>(p.alg);
        switch (p.kind) {
            case dnnl_sum:
                ANYDNN_REQUIRE(p.sum_dt == dnnl_data_type_undef || p.sum_dt == dst.data_type,
                        dnnl_unimplemented, "post-op %d: GPU sum reads dst as its own type", i);
                ANYDNN_REQUIRE(dst.data_type != dnnl_f8_e5m2 && dst.data_type != dnnl_f8_e4m3,
                        dnnl_unimplemented, "post-op %d: GPU sum does not read an f8 dst", i);
                e.kind = kind_sum;
                e.desc.scale = p.sum_scale;
                e.desc.zero_point = static_cast<float>(p.sum_zero_point);
                has_sum_ = true;
                break;
            case dnnl_eltwise:
                e.kind = kind_eltwise;
                e.desc.alpha = p.alpha;
                e.desc.beta = p.beta;
                break;
            case dnnl_binary:
                e.kind = kind_binary;
                e.arg_a = DNNL_ARG_ATTR_MULTIPLE_POST_OP(i) | DNNL_ARG_SRC_1;
                if (p.alg == dnnl_binary_select)
                    e.arg_b = DNNL_ARG_ATTR_MULTIPLE_POST_OP(i) | DNNL_ARG_SRC_2;
                break;
            case dnnl_prelu:
                e.kind = kind_prelu;
                e.arg_a = DNNL_ARG_ATTR_MULTIPLE_POST_OP(i) | DNNL_ARG_WEIGHTS;
                break;
            default:
                return fail(dnnl_unimplemented, __func__, "post-op %d: GPU kernels do not fuse %s",
                        i, dnnl_prim_kind2str(p.kind));
        }
        const int arg[2] = {e.arg_a, e.arg_b};
        for (int k = 0; k < 2; ++k) {
            if (!arg[k]) continue;
            const auto it = operands.find(arg[k]);
            ANYDNN_REQUIRE(it != operands.end(), dnnl_runtime_error,
                    "post-op %d: operand not declared", i);
            const memory_desc_t &md = it->second;
            ANYDNN_CHECK(check_tensors({&md}));
            tensor_layout_t &l = k == 0 ? e.desc.a : e.desc.b;
            ANYDNN_CHECK(make_layout(md, l));
            // Broadcast is decided on logical sizes (a blocked size-1 dimension is padded).
            for (int d = 0; d < md.ndims; ++d) l.dims[d] = md.dims[d];
            (k == 0 ? e.dt_a : e.dt_b) = md.data_type;
            args[arg[k]] = md;
        }
        entries_.push_back(e);
    }
    return dnnl_success;
}

std::string post_ops_t::build_options() const {
    std::string opt = " -DPO_COUNT=" + std::to_string(entries_.size());
    if (has_sum_) opt += " -DPO_SUM";
    for (size_t i = 0; i < entries_.size(); ++i) {
        const std::string n = "PO" + std::to_string(i);
        opt += " -D" + n + "_KIND=" + std::to_string(entries_[i].kind) + " -D" + n
                + "_ALG=" + std::to_string(entries_[i].alg);
        opt += data_type_options((n + "A").c_str(), entries_[i].dt_a);
        opt += data_type_options((n + "B").c_str(), entries_[i].dt_b);
    }
    return opt;
}

status_t post_ops_t::upload(engine_t *engine, std::unique_ptr<memory_storage_t> &buffer) const {
    buffer.reset();
    if (entries_.empty()) return dnnl_success;
    const size_t bytes = entries_.size() * sizeof(post_op_desc_t);
    ANYDNN_CHECK(engine->create_memory_storage(buffer, bytes, DNNL_MEMORY_ALLOCATE));
    void *host = nullptr;
    ANYDNN_CHECK(buffer->map(&host));
    for (size_t i = 0; i < entries_.size(); ++i)
        std::memcpy(static_cast<char *>(host) + i * sizeof(post_op_desc_t), &entries_[i].desc,
                sizeof(post_op_desc_t));
    return buffer->unmap(host);
}

void post_ops_t::add_args(kernel_args_t &args, const exec_ctx_t &ctx,
        const memory_storage_t *buffer) const {
    if (entries_.empty()) return;
    args.add(buffer);
    for (const entry_t &e : entries_) {
        args.add(e.arg_a ? storage_of(ctx, e.arg_a) : nullptr);
        args.add(e.arg_b ? storage_of(ctx, e.arg_b) : nullptr);
    }
}

} // namespace gpu
} // namespace anydnn
