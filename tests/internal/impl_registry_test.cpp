// The per-kind implementation lists expanded from core/impl_registry.def: a row placed under
// the wrong kind or the wrong engine shows in the names verbose prints
// ("<engine>:<op>:<technique>"), and a kind left without rows dispatches nothing.
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/impl_lists.hpp"
#include "core/impl_table.hpp"

using namespace anydnn;

namespace {

struct kind_name_t {
    dnnl_primitive_kind_t kind;
    const char *op; // the <op> part of its implementations' names
};

// Every kind a primitive descriptor can be created for (dnnl_gemm has no primitive).
const std::vector<kind_name_t> &creatable_kinds() {
    static const std::vector<kind_name_t> kinds = {{dnnl_reorder, "reorder"},
            {dnnl_shuffle, "shuffle"}, {dnnl_concat, "concat"}, {dnnl_sum, "sum"},
            {dnnl_convolution, "convolution"}, {dnnl_deconvolution, "deconvolution"},
            {dnnl_eltwise, "eltwise"}, {dnnl_lrn, "lrn"}, {dnnl_batch_normalization, "bnorm"},
            {dnnl_inner_product, "inner_product"}, {dnnl_rnn, "rnn"}, {dnnl_binary, "binary"},
            {dnnl_matmul, "matmul"}, {dnnl_resampling, "resampling"},
            {dnnl_pooling, "pooling"}, {dnnl_reduction, "reduction"}, {dnnl_prelu, "prelu"},
            {dnnl_softmax, "softmax"}, {dnnl_layer_normalization, "lnorm"},
            {dnnl_group_normalization, "gnorm"}};
    return kinds;
}

void expect_list(const std::vector<impl_entry_t> &list, const std::string &prefix) {
    EXPECT_FALSE(list.empty()) << prefix;
    std::set<decltype(impl_entry_t::create)> creates;
    for (const impl_entry_t &e : list) {
        EXPECT_EQ(std::string(e.name).rfind(prefix, 0), 0u) << e.name << " listed as " << prefix;
        EXPECT_TRUE(creates.insert(e.create).second) << e.name << " listed twice";
    }
}

} // namespace

TEST(ImplRegistry, every_creatable_kind_lists_cpu_implementations_named_for_it) {
    for (const kind_name_t &k : creatable_kinds())
        expect_list(cpu_impl_list(k.kind), std::string("cpu:") + k.op + ":");
}

TEST(ImplRegistry, every_creatable_kind_lists_gpu_implementations_named_for_it) {
    for (const kind_name_t &k : creatable_kinds())
        expect_list(gpu_impl_list(k.kind), std::string("ocl:") + k.op + ":");
}

TEST(ImplRegistry, kinds_without_rows_get_empty_lists) {
    for (dnnl_primitive_kind_t kind : {dnnl_undefined_primitive, dnnl_gemm,
                 static_cast<dnnl_primitive_kind_t>(22), dnnl_primitive_kind_max}) {
        EXPECT_TRUE(cpu_impl_list(kind).empty()) << kind;
        EXPECT_TRUE(gpu_impl_list(kind).empty()) << kind;
    }
}

TEST(ImplRegistry, table_keeps_each_kinds_rows_in_order_when_kinds_interleave) {
    const impl_entry_t a {"a", nullptr}, b {"b", nullptr}, c {"c", nullptr};
    const impl_table_t table = {{dnnl_sum, b}, {dnnl_concat, c}, {dnnl_sum, a}, {dnnl_sum, c}};
    const auto &sum = table.list(dnnl_sum);
    ASSERT_EQ(sum.size(), 3u);
    EXPECT_STREQ(sum[0].name, "b");
    EXPECT_STREQ(sum[1].name, "a");
    EXPECT_STREQ(sum[2].name, "c");
    ASSERT_EQ(table.list(dnnl_concat).size(), 1u);
    EXPECT_STREQ(table.list(dnnl_concat)[0].name, "c");
    EXPECT_TRUE(table.list(dnnl_shuffle).empty());
}
