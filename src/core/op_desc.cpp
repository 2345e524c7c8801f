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
    void operator()(const char *name, bool v) {
        if (v) add(name, "1");
    }
    void operator()(const char *name, dnnl_alg_kind_t v) {
        if (v != dnnl_alg_kind_undef) add(name, dnnl_alg_kind2str(v));
    }
    void operator()(const char *name, dnnl_rnn_direction_t v) {
        add(name, dnnl_rnn_direction2str(v));
    }
    void operator()(const char *name, dnnl_data_type_t v) { add(name, dnnl_dt2str(v)); }
    void operator()(const char *name, unsigned v) { add(name, std::to_string(v)); }
    void operator()(const char *name, dim_t v) { add(name, std::to_string(v)); }
    void operator()(const char *name, const spatial_t &v) {
        if (v.n == 0) return;
        std::string s;
        for (int i = 0; i < v.n; ++i)
            s += (i ? "x" : "") + std::to_string(v.v[i]);
        add(name, s);
    }
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
    std::visit(
            [&](const auto &d) {
                d.visit([&](const char *, const auto &v) {
                    if constexpr (std::is_same<std::decay_t<decltype(v)>, spatial_t>::value) {
                        s.write(v.n);
                        for (int i = 0; i < v.n; ++i)
                            s.write(v.v[i]);
                    } else {
                        s.write(v);
                    }
                });
            },
            desc);
    return s.bytes();
}

std::string op_aux_string(const op_desc_t &desc) {
    aux_printer_t p;
    std::visit([&](const auto &d) { d.visit(p); }, desc);
    return p.out;
}

namespace {

// Which spatial field a query names.
const char *spatial_query_name(dnnl_query_t what) {
    switch (what) {
        case dnnl_query_strides: return "strides";
        case dnnl_query_dilations: return "dilations";
        case dnnl_query_padding_l: return "padding_l";
        case dnnl_query_padding_r: return "padding_r";
        case dnnl_query_kernel: return "kernel";
        default: return nullptr;
    }
}

bool float_query_matches(dnnl_query_t what, const std::string &n) {
    return (what == dnnl_query_alpha_f32 && n == "alpha")
            || (what == dnnl_query_beta_f32 && n == "beta")
            || (what == dnnl_query_epsilon_f32 && (n == "epsilon" || n == "eps"))
            || (what == dnnl_query_k_f32 && n == "k") || (what == dnnl_query_p_f32 && n == "p");
}

bool alg_query_matches(dnnl_query_t what, const std::string &n) {
    return (what == dnnl_query_alg_kind && n == "alg")
            || (what == dnnl_query_cell_kind && n == "cell_kind")
            || (what == dnnl_query_activation_kind && n == "activation");
}

} // namespace

status_t op_query(const op_desc_t &desc, dnnl_query_t what, int index, void *result) {
    status_t st = dnnl_unimplemented;
    const char *spatial = spatial_query_name(what);
    std::visit(
            [&](const auto &d) {
                d.visit([&](const char *name, const auto &v) {
                    using T = std::decay_t<decltype(v)>;
                    const std::string n = name;
                    bool hit = false;
                    if constexpr (std::is_same<T, dnnl_alg_kind_t>::value) {
                        if ((hit = alg_query_matches(what, n)))
                            *static_cast<dnnl_alg_kind_t *>(result) = v;
                    } else if constexpr (std::is_same<T, float>::value) {
                        if ((hit = float_query_matches(what, n)))
                            *static_cast<float *>(result) = v;
                    } else if constexpr (std::is_same<T, int>::value) {
                        if ((hit = what == dnnl_query_axis_s32 && n == "axis"))
                            *static_cast<int *>(result) = v;
                    } else if constexpr (std::is_same<T, dim_t>::value) {
                        // Group normalization answers group_size_s64 with its groups, as oneDNN.
                        if ((hit = (what == dnnl_query_local_size_s64 && n == "local_size")
                                        || (what == dnnl_query_group_size_s64
                                                && (n == "group_size" || n == "groups"))))
                            *static_cast<dim_t *>(result) = v;
                    } else if constexpr (std::is_same<T, unsigned>::value) {
                        if ((hit = what == dnnl_query_flags && n == "flags"))
                            *static_cast<unsigned *>(result) = v;
                    } else if constexpr (std::is_same<T, dnnl_rnn_direction_t>::value) {
                        if ((hit = what == dnnl_query_direction))
                            *static_cast<dnnl_rnn_direction_t *>(result) = v;
                    } else if constexpr (std::is_same<T, spatial_t>::value) {
                        if ((hit = spatial && n == spatial))
                            *static_cast<const dnnl_dims_t **>(result) = &v.v;
                    } else if constexpr (std::is_same<T, std::vector<float>>::value) {
                        if ((hit = what == dnnl_query_factors && n == "factors"))
                            *static_cast<const float **>(result) = v.data();
                    }
                    if (hit) st = dnnl_success;
                });
            },
            desc);
    (void)index;
    return st;
}

} // namespace anydnn
