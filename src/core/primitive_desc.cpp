#include "core/primitive_desc.hpp"

#include "core/object.hpp"
#include "core/verbose.hpp"

namespace anydnn {

const memory_desc_t &primitive_desc_t::arg_md(int arg) const {
    static const memory_desc_t zero = zero_md();
    auto it = args.find(arg);
    return it == args.end() ? zero : it->second;
}

namespace {

// Tries the engine's implementations from `start`; the first that accepts becomes pd.impl.
status_t dispatch(dnnl_primitive_desc &pd, size_t start) {
    const auto &list = pd.engine->impl_list(op_kind(pd.desc));
    for (size_t i = start; i < list.size(); ++i) {
        std::unique_ptr<primitive_desc_t> impl;
        status_t st = list[i].create(impl, pd.desc, pd.attr, pd.engine.get(), pd.hint.get());
        if (st == dnnl_success) {
            pd.impl = std::move(impl);
            pd.impl_index = i;
            pd.info.clear();
            return dnnl_success;
        }
        if (st != dnnl_unimplemented) return st;
        if (verbose_on(verbose_flag::dispatch))
            verbose_print("primitive,create:dispatch",
                    std::string(dnnl_prim_kind2str(op_kind(pd.desc))) + "," + list[i].name
                            + ",skipped: " + last_failure_reason());
    }
    return dnnl_unimplemented;
}

} // namespace

status_t primitive_desc_create(dnnl_primitive_desc **out, const op_desc_t &desc,
        const primitive_attr_t *attr, engine_t *engine, const dnnl_primitive_desc *hint) {
    auto pd = std::make_unique<dnnl_primitive_desc>();
    pd->engine = engine_ref_t(engine);
    pd->desc = desc;
    if (attr) pd->attr = *attr;
    if (hint && hint->impl) pd->hint = hint->impl->clone();
    if (engine->impl_list(op_kind(desc)).empty())
        return fail(dnnl_unimplemented, "primitive_desc_create",
                "%s: this %s engine has no implementation of it yet",
                dnnl_prim_kind2str(op_kind(desc)), dnnl_engine_kind2str(engine->kind()));
    status_t st = dispatch(*pd, 0);
    if (st == dnnl_unimplemented)
        return fail(st, "primitive_desc_create", "%s: no implementation on this engine (%s)",
                dnnl_prim_kind2str(op_kind(desc)), last_failure_reason().c_str());
    if (st != dnnl_success) return st;
    registry_add(object_kind::primitive_desc, pd.get());
    *out = pd.release();
    return dnnl_success;
}

status_t primitive_desc_next_impl(dnnl_primitive_desc &pd) {
    status_t st = dispatch(pd, pd.impl_index + 1);
    return st == dnnl_unimplemented ? dnnl_last_impl_reached : st;
}

} // namespace anydnn

dnnl_primitive_desc::dnnl_primitive_desc() {
    anydnn::registry_add(anydnn::object_kind::attr_view, &attr);
}

dnnl_primitive_desc::~dnnl_primitive_desc() {
    anydnn::registry_remove(anydnn::object_kind::attr_view, &attr);
    anydnn::registry_remove(anydnn::object_kind::primitive_desc, this);
}

namespace anydnn {

bool is_output_arg(int arg, dnnl_prop_kind_t prop) {
    if (arg >= DNNL_ARG_MULTIPLE_DST && arg < DNNL_ARG_MULTIPLE_DST + DNNL_ARG_MULTIPLE_SRC)
        return true;
    if (arg >= DNNL_ARG_DST_0 && arg < DNNL_ARG_WEIGHTS_0) return true;
    if (arg >= DNNL_ARG_DIFF_SRC_0 && arg < DNNL_ARG_DIFF_DST_0) return true;
    if (arg >= DNNL_ARG_DIFF_WEIGHTS_0 && arg <= DNNL_ARG_DIFF_BIAS) return true;
    bool forward = prop == dnnl_forward_training || prop == dnnl_forward_inference;
    if (arg == DNNL_ARG_WORKSPACE) return forward;
    return false;
}

std::string arg_name(int arg) {
    switch (arg) {
        case DNNL_ARG_SRC_0: return "src";
        case DNNL_ARG_SRC_1: return "src1";
        case DNNL_ARG_SRC_2: return "src2";
        case DNNL_ARG_DST_0: return "dst";
        case DNNL_ARG_WEIGHTS_0: return "wei";
        case DNNL_ARG_BIAS: return "bia";
        case DNNL_ARG_DIFF_SRC_0: return "diff_src";
        case DNNL_ARG_DIFF_DST_0: return "diff_dst";
        case DNNL_ARG_DIFF_WEIGHTS_0: return "diff_wei";
        case DNNL_ARG_DIFF_BIAS: return "diff_bia";
        case DNNL_ARG_WORKSPACE: return "ws";
        default: break;
    }
    if (arg >= DNNL_ARG_MULTIPLE_SRC && arg < DNNL_ARG_MULTIPLE_DST)
        return "src" + std::to_string(arg - DNNL_ARG_MULTIPLE_SRC);
    return "arg" + std::to_string(arg);
}

std::string primitive_desc_info(const primitive_desc_t &pd) {
    std::string s = dnnl_engine_kind2str(pd.engine->kind());
    s += ",";
    s += dnnl_prim_kind2str(pd.kind());
    s += ",";
    s += pd.name();
    s += ",";
    s += dnnl_prop_kind2str(op_prop_kind(pd.desc));
    s += ",";
    char buf[256];
    bool first = true;
    std::string dims;
    for (const auto &a : pd.args) {
        if (a.first & (DNNL_ARG_ATTR_SCALES | DNNL_ARG_ATTR_ZERO_POINTS)) continue;
        if (a.first >= DNNL_ARG_ATTR_MULTIPLE_POST_OP_BASE) continue;
        if (!first) s += " ";
        first = false;
        s += arg_name(a.first) + ":";
        md_to_string(a.second, buf, sizeof(buf));
        s += buf;
        if (dims.empty()) {
            dims_to_string(a.second, buf, sizeof(buf));
            dims = buf;
        }
    }
    s += ",";
    s += attr_to_string(pd.attr);
    s += ",";
    s += op_aux_string(pd.desc);
    s += ",";
    s += dims;
    return s;
}

} // namespace anydnn
