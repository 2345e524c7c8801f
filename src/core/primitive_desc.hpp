// An implementation's primitive descriptor (primitive_desc_t) and the C object around it
// (dnnl_primitive_desc), which remembers where in the implementation list it stands.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/op_desc.hpp"
#include "core/primitive_attr.hpp"

namespace anydnn {

struct primitive_t;

// What one implementation decided for one problem: the resolved memory descriptors of every
// argument, the scratchpad it needs, and how to build the primitive.
struct primitive_desc_t {
    primitive_desc_t(const op_desc_t &desc, const primitive_attr_t &attr, engine_t *engine)
        : desc(desc), attr(attr), engine(engine) {}
    virtual ~primitive_desc_t() = default;

    virtual const char *name() const = 0;
    virtual std::unique_ptr<primitive_desc_t> clone() const = 0;
    virtual status_t create_primitive(std::shared_ptr<primitive_t> &prim) const = 0;

    dnnl_primitive_kind_t kind() const { return op_kind(desc); }
    // Resolved descriptor of DNNL_ARG_* `arg`, or the zero md when the primitive has none.
    const memory_desc_t &arg_md(int arg) const;

    op_desc_t desc;
    primitive_attr_t attr;
    engine_t *engine;
    std::map<int, memory_desc_t> args; // every tensor argument, filled by the implementation
    size_t scratchpad_size = 0; // bytes
    const primitive_desc_t *hint = nullptr; // forward pd, set only while init runs
};

// Stamps out clone() and create_primitive() for an implementation's pd and primitive types.
template <typename pd_type, typename primitive_type>
struct primitive_desc_impl_t : public primitive_desc_t {
    using primitive_desc_t::primitive_desc_t;
    std::unique_ptr<primitive_desc_t> clone() const override {
        return std::make_unique<pd_type>(static_cast<const pd_type &>(*this));
    }
    status_t create_primitive(std::shared_ptr<primitive_t> &prim) const override;
};

// One entry of an engine's ordered implementation list.
struct impl_entry_t {
    const char *name;
    // Returns dnnl_unimplemented (with a verbose reason through fail()) when it does not apply.
    status_t (*create)(std::unique_ptr<primitive_desc_t> &pd, const op_desc_t &desc,
            const primitive_attr_t &attr, engine_t *engine, const primitive_desc_t *hint);
};

// Entry for an implementation whose pd type has `static status_t init(pd_type &)`, run on a
// freshly constructed pd; init fills args and scratchpad or says why it does not apply.
template <typename pd_type>
impl_entry_t make_impl_entry(const char *name) {
    return {name,
            [](std::unique_ptr<primitive_desc_t> &pd, const op_desc_t &desc,
                    const primitive_attr_t &attr, engine_t *engine,
                    const primitive_desc_t *hint) -> status_t {
                auto p = std::make_unique<pd_type>(desc, attr, engine);
                p->hint = hint;
                status_t st = pd_type::init(*p);
                if (st != dnnl_success) return st;
                p->hint = nullptr;
                pd = std::move(p);
                return dnnl_success;
            }};
}

// Creates the C object: walks `engine`'s list for the op from the start.
status_t primitive_desc_create(dnnl_primitive_desc **pd, const op_desc_t &desc,
        const primitive_attr_t *attr, engine_t *engine, const dnnl_primitive_desc *hint);

// Moves pd to the next implementation that accepts; dnnl_last_impl_reached at the end.
status_t primitive_desc_next_impl(dnnl_primitive_desc &pd);
// "cpu,eltwise,cpu:eltwise:avx512,forward_training,src:f32::blocked:ab::f0 ...,attrs,aux,dims"
std::string primitive_desc_info(const primitive_desc_t &pd);
// Short name of DNNL_ARG_* `arg` for verbose lines ("src", "wei", "src3"...).
std::string arg_name(int arg);
// Whether DNNL_ARG_* `arg` is an output of a primitive with this prop kind.
bool is_output_arg(int arg, dnnl_prop_kind_t prop);

} // namespace anydnn

struct dnnl_primitive_desc {
    anydnn::engine_ref_t engine;
    // A reorder's source and destination engines (dnnl_query_reorder_*_engine); empty for
    // other primitives.
    anydnn::engine_ref_t reorder_src_engine, reorder_dst_engine;
    anydnn::op_desc_t desc; // as the user gave it (format any unresolved)
    anydnn::primitive_attr_t attr;
    std::shared_ptr<anydnn::primitive_desc_t> hint; // forward pd of a backward primitive
    size_t impl_index = 0; // position of `impl` in the engine's list
    std::unique_ptr<anydnn::primitive_desc_t> impl;
    std::string info; // impl_info_str, built on first query
    std::string cache_blob_id; // dnnl_query_cache_blob_id, built on first query
    bool owned_by_primitive = false; // from get_primitive_desc: the user must not destroy it

    dnnl_primitive_desc();
    ~dnnl_primitive_desc();
    dnnl_primitive_desc(const dnnl_primitive_desc &) = delete;
    dnnl_primitive_desc &operator=(const dnnl_primitive_desc &) = delete;
};
