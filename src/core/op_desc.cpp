#include "core/op_desc.hpp"

#include <cstdio>
#include <string>
#include <type_traits>

#include "core/serializer.hpp"

namespace anydnn {

namespace {

// Verbose text of one non-tensor field; tensors are printed by the pd's argument list.
struct aux_printer_t {
    std::string out;
    void add(const char *name, const std::string &value) {
        if (!out.empty()) out += " ";
        out += name;
        out += ":";
        out += value;
    }
    void operator()(const char *, const memory_desc_t &) {}
    void operator()(const char *, const std::vector<memory_desc_t> &) {}
    void operator()(const char *name, dnnl_prop_kind_t) {}
    void operator()(const char *, dnnl_engine_kind_t) {}
    void operator()(const char *name, dnnl_alg_kind_t v) { add(name, dnnl_alg_kind2str(v)); }
    void operator()(const char *name, float v) {
        char buf[32];
        std::snprintf(buf, sizeof(buf), "%g", v);
        add(name, buf);
    }
    void operator()(const char *name, int v) { add(name, std::to_string(v)); }
    void operator()(const char *name, const std::vector<float> &v) {
        std::string s;
        for (size_t i = 0; i < v.size(); ++i)
            s += (i ? ":" : "") + std::to_string(v[i]);
        add(name, s);
    }
};

} // namespace

dnnl_primitive_kind_t op_kind(const op_desc_t &desc) {
    return std::visit([](const auto &d) { return std::decay_t<decltype(d)>::kind; }, desc);
}

dnnl_prop_kind_t op_prop_kind(const op_desc_t &desc) {
    return std::visit(
            [](const auto &d) {
                dnnl_prop_kind_t prop = dnnl_prop_kind_undef;
                d.visit([&](const char *, const auto &v) {
                    if constexpr (std::is_same<std::decay_t<decltype(v)>,
                                          dnnl_prop_kind_t>::value)
                        prop = v;
                });
                return prop;
            },
            desc);
}

std::string op_serialize(const op_desc_t &desc) {
    serializer_t s;
    s.write(static_cast<int>(op_kind(desc)));
    std::visit([&](const auto &d) { d.visit([&](const char *, const auto &v) { s.write(v); }); },
            desc);
    return s.bytes();
}

std::string op_aux_string(const op_desc_t &desc) {
    aux_printer_t p;
    std::visit([&](const auto &d) { d.visit(p); }, desc);
    return p.out;
}

status_t op_query(const op_desc_t &desc, dnnl_query_t what, int index, void *result) {
    status_t st = dnnl_unimplemented;
    std::visit(
            [&](const auto &d) {
                d.visit([&](const char *name, const auto &v) {
                    using T = std::decay_t<decltype(v)>;
                    const std::string n = name;
                    if constexpr (std::is_same<T, dnnl_alg_kind_t>::value) {
                        if (what == dnnl_query_alg_kind) {
                            *static_cast<dnnl_alg_kind_t *>(result) = v;
                            st = dnnl_success;
                        }
                    } else if constexpr (std::is_same<T, float>::value) {
                        if ((what == dnnl_query_alpha_f32 && n == "alpha")
                                || (what == dnnl_query_beta_f32 && n == "beta")
                                || (what == dnnl_query_epsilon_f32 && n == "epsilon")
                                || (what == dnnl_query_k_f32 && n == "k")
                                || (what == dnnl_query_p_f32 && n == "p")) {
                            *static_cast<float *>(result) = v;
                            st = dnnl_success;
                        }
                    } else if constexpr (std::is_same<T, int>::value) {
                        if (what == dnnl_query_axis_s32 && n == "axis") {
                            *static_cast<int *>(result) = v;
                            st = dnnl_success;
                        }
                    }
                });
            },
            desc);
    (void)index;
    return st;
}

} // namespace anydnn
