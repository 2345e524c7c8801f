// cpu:rnn:gemm — every cell kind, direction and layer count, forward (training and
// inference) and backward, f32 and bf16 tensors computed in f32, int8 LSTM (with projection)
// and GRU inference on u8 or s8 data dequantized to f32: gate GEMMs on the shared GEMM,
// element-wise cells threaded.
#include "core/ops/rnn/conf.hpp"
#include "core/primitive.hpp"
#include "cpu/impl_entries.hpp"
#include "cpu/rnn/drivers.hpp"
#include "runtime/cpu/isa.hpp"

namespace anydnn {
namespace cpu {

namespace {

using namespace rnn;

struct rnn_gemm_t;

struct rnn_gemm_pd_t : public primitive_desc_impl_t<rnn_gemm_pd_t, rnn_gemm_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:rnn:gemm"; }

    conf_t conf;

    static status_t init(rnn_gemm_pd_t &pd) {
        ANYDNN_REQUIRE(pd.attr.has_default_values(attr_skip::rnn_qparams), dnnl_unimplemented,
                "attributes other than RNN quantization are not supported by cpu:rnn:gemm");
        ANYDNN_CHECK(init_conf(pd.conf, desc_of(pd), pd.attr));
        pd.conf.avx512 = isa_enabled(dnnl_cpu_isa_avx512_core);
        ANYDNN_REQUIRE(pd.conf.int8 || pd.attr.has_default_values(), dnnl_unimplemented,
                "RNN quantization parameters need s8 weights");
        return init_args(pd, pd.conf);
    }
};

struct rnn_gemm_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = static_cast<const rnn_gemm_pd_t &>(this->pd());
        const conf_t &c = pd.conf;
        tensors_t t;
        for (int k = 0; k < rnn_tensor_count; ++k) {
            if (!is_zero_md(pd.arg_md(fwd_arg[k])))
                t.fwd[k] = plain_t(pd.arg_md(fwd_arg[k]), ctx.host_ptr(fwd_arg[k]));
            if (c.backward && !is_zero_md(pd.arg_md(diff_arg[k])))
                t.diff[k] = plain_t(pd.arg_md(diff_arg[k]), ctx.host_ptr(diff_arg[k]));
        }
        float *scratch = static_cast<float *>(ctx.scratchpad);
        if (c.backward) {
            run_backward(c, t, ctx.host_ptr<const float>(DNNL_ARG_WORKSPACE), scratch);
        } else if (c.training) {
            run_forward(c, t, ctx.host_ptr<float>(DNNL_ARG_WORKSPACE), scratch);
        } else {
            run_forward(c, t, scratch, scratch + c.ws_floats, &pd.attr);
        }
        return dnnl_success;
    }
};

} // namespace

impl_entry_t rnn_gemm_entry() { return make_impl_entry<rnn_gemm_pd_t>("cpu:rnn:gemm"); }

} // namespace cpu
} // namespace anydnn
