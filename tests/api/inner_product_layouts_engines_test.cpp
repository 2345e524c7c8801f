// Inner product whose src and weights do not flatten to the same dense rows (a blocked
// convolution output into a fully connected layer, blocked or channels-last weights), as
// programs run it: on the CPU engine and on the first GPU engine when one is present, with
// memory filled and read through map_data at physical offsets computed here from the queried
// descriptors, against loops over logical positions. Forward with bias, backward data and
// backward weights; padding of blocked outputs must read zero.
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"

#include "api/engine_list.hpp"

namespace {

using namespace dnnl;
using namespace engine_list;
using dt = memory::data_type;
using tag = memory::format_tag;
using dims = memory::dims;

// Physical element offset of a logical (or padding) position of a blocked descriptor.
memory::dim offset_of(const memory::desc &md, const dims &pos) {
    const dims strides = md.get_strides(), blks = md.get_inner_blks(), idxs = md.get_inner_idxs();
    dims p = pos;
    memory::dim block_off = 0, block_size = 1;
    for (int i = md.get_inner_nblks() - 1; i >= 0; --i) {
        block_off += (p[idxs[i]] % blks[i]) * block_size;
        p[idxs[i]] /= blks[i];
        block_size *= blks[i];
    }
    memory::dim off = md.get_submemory_offset() + block_off;
    for (size_t d = 0; d < p.size(); ++d)
        off += p[d] * strides[d];
    return off;
}

bool next(dims &pos, const dims &extent) {
    for (int d = static_cast<int>(pos.size()) - 1; d >= 0; --d) {
        if (++pos[d] < extent[d]) return true;
        pos[d] = 0;
    }
    return false;
}

// A tensor's values by logical position (row-major), written to and read from memory.
struct tensor_t {
    memory mem;
    dims d;
    std::vector<float> v;

    tensor_t(const memory::desc &md, const engine &eng, unsigned seed)
        : mem(md, eng), d(md.get_dims()) {
        size_t n = 1;
        for (auto x : d)
            n *= x;
        v.resize(n);
        for (size_t i = 0; i < n; ++i)
            v[i] = seed ? float(int((i * 7 + seed * 13) % 17) - 8) / 4 : 0.f;
        float *p = mem.map_data<float>();
        // Padding and unused bytes get garbage; outputs must overwrite it.
        for (size_t i = 0; i < md.get_size() / sizeof(float); ++i)
            p[i] = 1e9f;
        dims pos(d.size(), 0);
        size_t i = 0;
        if (n) do
                p[offset_of(md, pos)] = v[i++];
            while (next(pos, d));
        mem.unmap_data(p);
    }
    // Logical values now in memory; `padding_zero` tells whether padded positions read 0.
    std::vector<float> read(bool &padding_zero) const {
        const memory::desc md = mem.get_desc();
        std::vector<float> out;
        float *p = mem.map_data<float>();
        dims pos(d.size(), 0);
        if (!v.empty()) do
                out.push_back(p[offset_of(md, pos)]);
            while (next(pos, d));
        padding_zero = true;
        const dims padded = md.get_padded_dims();
        pos.assign(d.size(), 0);
        do {
            bool inside = true;
            for (size_t k = 0; k < d.size(); ++k)
                inside = inside && pos[k] < d[k];
            if (!inside && p[offset_of(md, pos)] != 0.f) padding_zero = false;
        } while (next(pos, padded));
        mem.unmap_data(p);
        return out;
    }
};

struct ip_case_t {
    dims src; // {MB, IC, spatial...}
    memory::dim oc;
    tag src_tag, wei_tag;
};

// sum over the inner positions r of a[m, r] * b[o, r] (both row-major logical values).
double dot(const std::vector<float> &a, memory::dim m, const std::vector<float> &b, memory::dim o,
        memory::dim k) {
    double s = 0;
    for (memory::dim r = 0; r < k; ++r)
        s += double(a[m * k + r]) * b[o * k + r];
    return s;
}

void check_case(const engine &eng, const ip_case_t &c) {
    SCOPED_TRACE(testing::Message()
                 << where(eng) << " ic" << c.src[1] << " oc" << c.oc << " src tag "
                 << int(c.src_tag) << " wei tag " << int(c.wei_tag));
    stream strm(eng);
    const memory::dim mb = c.src[0];
    memory::dim k = 1;
    for (size_t d = 1; d < c.src.size(); ++d)
        k *= c.src[d];
    dims wd = c.src;
    wd[0] = c.oc;
    memory::desc src_md(c.src, dt::f32, c.src_tag), wei_md(wd, dt::f32, c.wei_tag);
    memory::desc bia_md({c.oc}, dt::f32, tag::a), dst_md({mb, c.oc}, dt::f32, tag::ab);
    inner_product_forward::primitive_desc fwd(
            eng, prop_kind::forward_training, src_md, wei_md, bia_md, dst_md);
    bool pad_ok = true;
    {
        tensor_t s(fwd.src_desc(), eng, 1), w(fwd.weights_desc(), eng, 2), b(bia_md, eng, 3);
        tensor_t y(fwd.dst_desc(), eng, 0);
        inner_product_forward(fwd).execute(
                strm, {{DNNL_ARG_SRC, s.mem}, {DNNL_ARG_WEIGHTS, w.mem}, {DNNL_ARG_BIAS, b.mem},
                              {DNNL_ARG_DST, y.mem}});
        strm.wait();
        const std::vector<float> got = y.read(pad_ok);
        for (memory::dim m = 0; m < mb; ++m)
            for (memory::dim o = 0; o < c.oc; ++o)
                ASSERT_NEAR(got[m * c.oc + o], dot(s.v, m, w.v, o, k) + b.v[o], 1e-4)
                        << "forward " << m << "," << o;
    }
    {
        inner_product_backward_data::primitive_desc bwd(eng, src_md, wei_md, dst_md, fwd);
        tensor_t ds(bwd.diff_src_desc(), eng, 0), w(bwd.weights_desc(), eng, 4);
        tensor_t dd(dst_md, eng, 5);
        inner_product_backward_data(bwd).execute(
                strm, {{DNNL_ARG_DIFF_SRC, ds.mem}, {DNNL_ARG_WEIGHTS, w.mem},
                              {DNNL_ARG_DIFF_DST, dd.mem}});
        strm.wait();
        const std::vector<float> got = ds.read(pad_ok);
        EXPECT_TRUE(pad_ok) << "diff_src padding";
        for (memory::dim m = 0; m < mb; ++m)
            for (memory::dim r = 0; r < k; ++r) {
                double want = 0;
                for (memory::dim o = 0; o < c.oc; ++o)
                    want += double(dd.v[m * c.oc + o]) * w.v[o * k + r];
                ASSERT_NEAR(got[m * k + r], want, 1e-4) << "backward data " << m << "," << r;
            }
    }
    {
        inner_product_backward_weights::primitive_desc bwd(
                eng, src_md, wei_md, bia_md, dst_md, fwd);
        tensor_t s(bwd.src_desc(), eng, 6), dw(bwd.diff_weights_desc(), eng, 0);
        tensor_t db(bia_md, eng, 0), dd(dst_md, eng, 7);
        inner_product_backward_weights(bwd).execute(
                strm, {{DNNL_ARG_SRC, s.mem}, {DNNL_ARG_DIFF_WEIGHTS, dw.mem},
                              {DNNL_ARG_DIFF_BIAS, db.mem}, {DNNL_ARG_DIFF_DST, dd.mem}});
        strm.wait();
        const std::vector<float> got = dw.read(pad_ok);
        EXPECT_TRUE(pad_ok) << "diff_weights padding";
        for (memory::dim o = 0; o < c.oc; ++o)
            for (memory::dim r = 0; r < k; ++r) {
                double want = 0;
                for (memory::dim m = 0; m < mb; ++m)
                    want += double(dd.v[m * c.oc + o]) * s.v[m * k + r];
                ASSERT_NEAR(got[o * k + r], want, 1e-4) << "backward weights " << o << "," << r;
            }
        const std::vector<float> gb = db.read(pad_ok);
        for (memory::dim o = 0; o < c.oc; ++o) {
            double want = 0;
            for (memory::dim m = 0; m < mb; ++m)
                want += dd.v[m * c.oc + o];
            ASSERT_NEAR(gb[o], want, 1e-4) << "diff bias " << o;
        }
    }
}

TEST(inner_product_layouts, blocked_and_mixed_layouts_run_on_every_engine) {
    const ip_case_t cases[] = {
            {{2, 32, 3, 3}, 10, tag::nChw16c, tag::any},
            {{3, 3, 5, 2}, 7, tag::nChw16c, tag::any}, // channels padded to 16
            {{2, 17, 2, 3}, 5, tag::nChw16c, tag::ohwi},
            {{2, 16, 2, 2}, 16, tag::nchw, tag::OIhw16i16o},
            {{2, 19, 3, 3}, 18, tag::any, tag::OIhw16i16o}, // both padded
            {{3, 5, 3, 1}, 9, tag::nchw, tag::ohwi},
            {{1, 20, 1, 1}, 1, tag::nChw8c, tag::oihw},
    };
    for (const engine &eng : engines())
        for (const ip_case_t &c : cases)
            check_case(eng, c);
}

} // namespace
