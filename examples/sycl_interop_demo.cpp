// `make demo`, SYCL part: an application that owns its sycl::queue, USM and a sycl::buffer
// hands them to anydnn. On one in-order queue the application's own host task and our
// primitives alternate, with no waits between them; the result is checked against the same
// steps on the CPU engine. (Host code only: no SYCL kernel compiler is needed.)
#include <cmath>
#include <cstdio>
#include <vector>

#include <sycl/sycl.hpp>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_sycl.hpp"

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

int main() {
    sycl::device dev;
    try {
        dev = sycl::device(sycl::default_selector_v);
    } catch (const sycl::exception &e) {
        std::printf("SYCL interop demo: no SYCL device (%s), skipped\n", e.what());
        return 0;
    }
    sycl::queue q(dev, sycl::property::queue::in_order {});
    std::printf("SYCL interop demo on %s\n", dev.get_info<sycl::info::device::name>().c_str());
    engine eng = sycl_interop::make_engine(q.get_device(), q.get_context());
    stream strm = sycl_interop::make_stream(eng, q);

    const memory::dim N = 2, C = 13, H = 5, W = 3;
    const size_t count = N * C * H * W;
    memory::desc md({N, C, H, W}, dt::f32, tag::nchw), bias_md({1, C, 1, 1}, dt::f32, tag::nchw);
    std::vector<float> bias(C);
    for (memory::dim c = 0; c < C; ++c)
        bias[c] = 0.25f * c - 1.f;

    // The application's data: x in device USM, the bias in a sycl::buffer, y in shared USM.
    float *x = sycl::malloc_device<float>(count, q);
    float *y = sycl::malloc_shared<float>(count, q);
    sycl::buffer<float, 1> bias_buf(bias.data(), sycl::range<1>(C));
    memory x_mem(md, eng, x), y_mem(md, eng, y);
    memory bias_mem = sycl_interop::make_memory(bias_md, eng, bias_buf);

    std::vector<float> x_host(count);
    for (size_t i = 0; i < count; ++i)
        x_host[i] = std::sin(0.37f * i) * 4.f;
    q.memcpy(x, x_host.data(), count * sizeof(float));
    eltwise_forward relu(eltwise_forward::primitive_desc(
            eng, prop_kind::forward_inference, algorithm::eltwise_relu, md, md, 0.f));
    binary add(binary::primitive_desc(eng, algorithm::binary_add, md, bias_md, md));
    // relu in place, the application's own task (y = x * 0.5 + 1), + bias[c] into y.
    relu.execute(strm, {{DNNL_ARG_SRC, x_mem}, {DNNL_ARG_DST, x_mem}});
    q.submit([&](sycl::handler &h) {
        h.host_task([=] {
            // The CPU device's USM is host memory; a GPU's would need a copy here.
            for (size_t i = 0; i < count; ++i)
                y[i] = x[i] * 0.5f + 1.f;
        });
    });
    sycl::event done = sycl_interop::execute(
            add, strm, {{DNNL_ARG_SRC_0, y_mem}, {DNNL_ARG_SRC_1, bias_mem}, {DNNL_ARG_DST, y_mem}});
    done.wait();

    // The same steps on the CPU engine.
    engine cpu(engine::kind::cpu, 0);
    stream cpu_strm(cpu);
    memory cx(md, cpu, x_host.data()), cb(bias_md, cpu, bias.data());
    std::vector<float> want(count);
    memory cy(md, cpu, want.data());
    eltwise_forward(eltwise_forward::primitive_desc(
                            cpu, prop_kind::forward_inference, algorithm::eltwise_relu, md, md, 0.f))
            .execute(cpu_strm, {{DNNL_ARG_SRC, cx}, {DNNL_ARG_DST, cx}});
    for (size_t i = 0; i < count; ++i)
        want[i] = x_host[i] * 0.5f + 1.f;
    binary(binary::primitive_desc(cpu, algorithm::binary_add, md, bias_md, md))
            .execute(cpu_strm, {{DNNL_ARG_SRC_0, cy}, {DNNL_ARG_SRC_1, cb}, {DNNL_ARG_DST, cy}});
    cpu_strm.wait();

    size_t bad = 0;
    for (size_t i = 0; i < count; ++i)
        if (std::fabs(y[i] - want[i]) > 1e-6f * (1.f + std::fabs(want[i]))) ++bad;
    std::printf("relu -> application task -> add(bias buffer) on the application's queue: "
                "%zu values, %zu mismatches against the CPU engine\n",
            count, bad);
    sycl::free(x, q);
    sycl::free(y, q);
    return bad == 0 ? 0 : 1;
}
