// A SYCL application that hands its own objects to the library, as oneDNN's SYCL interop
// examples do: the engine comes from its sycl::device and sycl::context, streams from its
// in-order and out-of-order sycl::queues, memory from its USM pointers (device, shared and
// host allocations) and from its sycl::buffers. Its own host tasks write the inputs and
// transform an intermediate between two primitives; ordering comes from the in-order queue,
// from sycl::events passed to dnnl::sycl_interop::execute, or from SYCL's accessor tracking
// for buffers. Then a buffer is swapped under a memory object, and memory the library
// allocates itself (USM and buffer) is filled and read through map/unmap.
//
// h = relu(x W + b) (a matmul with a bias and a ReLU post-op), then y = h + r (binary add),
// checked against plain loops. Usage: sycl_interop_flow gpu; the device is the SYCL CPU device
// (Intel's CPU OpenCL runtime under ctest). Exits 0 when the results match, 1 when they do
// not, 77 without a SYCL device (1 when ANYDNN_SYCL_TEST_REQUIRE_DEVICE=1).
#include <sycl/sycl.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_sycl.hpp"

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;

namespace {

// Odd sizes: no tile of any kernel divides them.
const memory::dim M = 7, K = 19, N = 13;

int failures = 0;

struct inputs_t {
    std::vector<float> x, w, b, r;
};

inputs_t make_inputs() {
    inputs_t in{std::vector<float>(M * K), std::vector<float>(K * N), std::vector<float>(N),
            std::vector<float>(M * N)};
    for (size_t i = 0; i < in.x.size(); ++i)
        in.x[i] = float((i * 37) % 41) / 20.f - 1.f;
    for (size_t i = 0; i < in.w.size(); ++i)
        in.w[i] = float((i * 23) % 29) / 14.f - 1.f;
    for (size_t i = 0; i < in.b.size(); ++i)
        in.b[i] = float(i % 5) / 4.f - 0.5f;
    for (size_t i = 0; i < in.r.size(); ++i)
        in.r[i] = float((i * 11) % 13) / 6.f - 1.f;
    return in;
}

// y = relu(x W + b) * h_scale + r: h_scale is what the application's task between the two
// primitives multiplies h by (1 where there is no such task).
std::vector<double> expected(const inputs_t &in, double h_scale) {
    std::vector<double> y(M * N);
    for (memory::dim m = 0; m < M; ++m)
        for (memory::dim n = 0; n < N; ++n) {
            double acc = in.b[n];
            for (memory::dim k = 0; k < K; ++k)
                acc += double(in.x[m * K + k]) * in.w[k * N + n];
            y[m * N + n] = (acc > 0 ? acc : 0) * h_scale + in.r[m * N + n];
        }
    return y;
}

void check(
        const std::string &what, const std::vector<float> &got, const std::vector<double> &want) {
    const double tol = 4e-7 * K; // f32 sums of K products of values below 1
    for (size_t i = 0; i < want.size(); ++i)
        if (std::fabs(got[i] - want[i]) > tol * (1.0 + std::fabs(want[i]))) {
            std::printf(
                    "%s: element %zu is %.8g, expected %.8g\n", what.c_str(), i, got[i], want[i]);
            ++failures;
            return;
        }
}

// A pause inside the application's first task, so that a primitive started before the task
// finished would read inputs not yet written.
void pause() {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
}

struct model_t {
    memory::desc x_md{{M, K}, dt::f32, tag::ab}, w_md{{K, N}, dt::f32, tag::ab},
            b_md{{1, N}, dt::f32, tag::ab}, y_md{{M, N}, dt::f32, tag::ab};
    matmul mm;
    binary add;

    explicit model_t(const engine &eng) {
        post_ops po;
        po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
        primitive_attr attr;
        attr.set_post_ops(po);
        mm = matmul(matmul::primitive_desc(eng, x_md, w_md, b_md, y_md, attr));
        add = binary(binary::primitive_desc(eng, algorithm::binary_add, y_md, y_md, y_md));
    }
};

// USM of every kind on the application's in-order queue: no event is passed, the queue's
// order alone puts its task before the primitives and its copy after them.
void usm_on_in_order_queue(
        const engine &eng, sycl::queue &q, const model_t &model, const inputs_t &in) {
    const sycl::context ctx = q.get_context();
    const sycl::device dev = q.get_device();
    stream s = sycl_interop::make_stream(eng, q);
    if (!(sycl_interop::get_queue(s) == q)) {
        std::printf("the stream does not hand back the application's queue\n");
        ++failures;
    }
    float *x = sycl::malloc_shared<float>(M * K, dev, ctx);
    float *w = sycl::malloc_device<float>(K * N, dev, ctx);
    float *b = sycl::malloc_host<float>(N, ctx);
    float *h = sycl::malloc_device<float>(M * N, dev, ctx);
    float *r = sycl::malloc_device<float>(M * N, dev, ctx);
    float *y = sycl::malloc_shared<float>(M * N, dev, ctx);
    q.memcpy(w, in.w.data(), in.w.size() * sizeof(float));
    q.memcpy(r, in.r.data(), in.r.size() * sizeof(float));
    const std::vector<float> xs = in.x, bs = in.b;
    q.submit([&](sycl::handler &cgh) {
        cgh.host_task([=] {
            pause();
            std::copy(xs.begin(), xs.end(), x);
            std::copy(bs.begin(), bs.end(), b);
        });
    });
    using sycl_interop::memory_kind;
    memory x_mem = sycl_interop::make_memory(model.x_md, eng, memory_kind::usm, x),
           w_mem = sycl_interop::make_memory(model.w_md, eng, memory_kind::usm, w),
           b_mem = sycl_interop::make_memory(model.b_md, eng, memory_kind::usm, b),
           h_mem = sycl_interop::make_memory(model.y_md, eng, memory_kind::usm, h),
           r_mem = sycl_interop::make_memory(model.y_md, eng, memory_kind::usm, r),
           y_mem = sycl_interop::make_memory(model.y_md, eng, memory_kind::usm, y);
    if (sycl_interop::get_memory_kind(x_mem) != memory_kind::usm || x_mem.get_data_handle() != x) {
        std::printf("USM memory does not hand back the application's pointer\n");
        ++failures;
    }
    sycl_interop::execute(model.mm, s,
            {{DNNL_ARG_SRC, x_mem}, {DNNL_ARG_WEIGHTS, w_mem}, {DNNL_ARG_BIAS, b_mem},
                    {DNNL_ARG_DST, h_mem}});
    sycl_interop::execute(model.add, s,
            {{DNNL_ARG_SRC_0, h_mem}, {DNNL_ARG_SRC_1, r_mem}, {DNNL_ARG_DST, y_mem}});
    std::vector<float> got(M * N);
    q.memcpy(got.data(), y, got.size() * sizeof(float));
    q.wait();
    check("USM, in-order queue", got, expected(in, 1.0));
    for (float *p : {x, w, b, h, r, y})
        sycl::free(p, ctx);
}

// An out-of-order queue: every step names the events it waits for, and the application's
// own task between the two primitives negates h.
void usm_chained_by_events(const engine &eng, const sycl::context &ctx, const sycl::device &dev,
        const model_t &model, const inputs_t &in) {
    sycl::queue q(ctx, dev);
    stream s = sycl_interop::make_stream(eng, q);
    float *x = sycl::malloc_shared<float>(M * K, dev, ctx);
    float *w = sycl::malloc_shared<float>(K * N, dev, ctx);
    float *b = sycl::malloc_shared<float>(N, dev, ctx);
    float *h = sycl::malloc_shared<float>(M * N, dev, ctx);
    float *r = sycl::malloc_shared<float>(M * N, dev, ctx);
    float *y = sycl::malloc_shared<float>(M * N, dev, ctx);
    const inputs_t ins = in;
    sycl::event written = q.submit([&](sycl::handler &cgh) {
        cgh.host_task([=] {
            pause();
            std::copy(ins.x.begin(), ins.x.end(), x);
            std::copy(ins.w.begin(), ins.w.end(), w);
            std::copy(ins.b.begin(), ins.b.end(), b);
            std::copy(ins.r.begin(), ins.r.end(), r);
        });
    });
    memory x_mem(model.x_md, eng, x), w_mem(model.w_md, eng, w), b_mem(model.b_md, eng, b),
            h_mem(model.y_md, eng, h), r_mem(model.y_md, eng, r), y_mem(model.y_md, eng, y);
    sycl::event mm_done = sycl_interop::execute(model.mm, s,
            {{DNNL_ARG_SRC, x_mem}, {DNNL_ARG_WEIGHTS, w_mem}, {DNNL_ARG_BIAS, b_mem},
                    {DNNL_ARG_DST, h_mem}},
            {written});
    sycl::event negated = q.submit([&](sycl::handler &cgh) {
        cgh.depends_on(mm_done);
        cgh.host_task([=] {
            pause();
            for (memory::dim i = 0; i < M * N; ++i)
                h[i] = -h[i];
        });
    });
    sycl::event add_done = sycl_interop::execute(model.add, s,
            {{DNNL_ARG_SRC_0, h_mem}, {DNNL_ARG_SRC_1, r_mem}, {DNNL_ARG_DST, y_mem}}, {negated});
    add_done.wait();
    check("USM, out-of-order queue with events", std::vector<float>(y, y + M * N),
            expected(in, -1.0));
    for (float *p : {x, w, b, h, r, y})
        sycl::free(p, ctx);
}

// sycl::buffers: the application writes x through an accessor and passes no event; SYCL's
// dependency tracking orders it before the matmul, and the host accessor after the add.
void buffers_tracked_by_accessors(
        const engine &eng, sycl::queue &q, const model_t &model, const inputs_t &in) {
    stream s = sycl_interop::make_stream(eng, q);
    sycl::buffer<float, 1> x_buf{sycl::range<1>(M * K)}, w_buf{in.w.data(), sycl::range<1>(K * N)},
            b_buf{in.b.data(), sycl::range<1>(N)}, h_buf{sycl::range<1>(M * N)},
            r_buf{in.r.data(), sycl::range<1>(M * N)}, y_buf{sycl::range<1>(M * N)};
    const std::vector<float> xs = in.x;
    q.submit([&](sycl::handler &cgh) {
        sycl::accessor acc(x_buf, cgh, sycl::write_only);
        cgh.host_task([=] {
            pause();
            for (size_t i = 0; i < xs.size(); ++i)
                acc[i] = xs[i];
        });
    });
    memory x_mem = sycl_interop::make_memory(model.x_md, eng, x_buf),
           w_mem = sycl_interop::make_memory(model.w_md, eng, w_buf),
           b_mem = sycl_interop::make_memory(model.b_md, eng, b_buf),
           h_mem = sycl_interop::make_memory(model.y_md, eng, h_buf),
           r_mem = sycl_interop::make_memory(model.y_md, eng, r_buf),
           y_mem = sycl_interop::make_memory(model.y_md, eng, y_buf);
    if (sycl_interop::get_memory_kind(y_mem) != sycl_interop::memory_kind::buffer
            || !(sycl_interop::get_buffer<float>(y_mem) == y_buf)) {
        std::printf("buffer memory does not hand back the application's buffer\n");
        ++failures;
    }
    sycl_interop::execute(model.mm, s,
            {{DNNL_ARG_SRC, x_mem}, {DNNL_ARG_WEIGHTS, w_mem}, {DNNL_ARG_BIAS, b_mem},
                    {DNNL_ARG_DST, h_mem}});
    sycl_interop::execute(model.add, s,
            {{DNNL_ARG_SRC_0, h_mem}, {DNNL_ARG_SRC_1, r_mem}, {DNNL_ARG_DST, y_mem}});
    {
        sycl::host_accessor out(y_buf, sycl::read_only);
        check("sycl::buffer", std::vector<float>(out.begin(), out.end()), expected(in, 1.0));
    }

    // Another destination buffer under the same memory object.
    sycl::buffer<float, 1> y2_buf{sycl::range<1>(M * N)};
    sycl_interop::set_buffer(y_mem, y2_buf);
    sycl_interop::execute(model.add, s,
            {{DNNL_ARG_SRC_0, h_mem}, {DNNL_ARG_SRC_1, r_mem}, {DNNL_ARG_DST, y_mem}});
    sycl::host_accessor out(y2_buf, sycl::read_only);
    check("sycl::buffer swapped in", std::vector<float>(out.begin(), out.end()), expected(in, 1.0));
}

void fill(memory &m, const std::vector<float> &v) {
    float *p = m.map_data<float>();
    std::copy(v.begin(), v.end(), p);
    m.unmap_data(p);
}

// Memory the library allocates, of each kind, filled and read through map/unmap.
void library_allocated(
        const engine &eng, sycl::queue &q, const model_t &model, const inputs_t &in) {
    stream s = sycl_interop::make_stream(eng, q);
    for (auto kind : {sycl_interop::memory_kind::usm, sycl_interop::memory_kind::buffer}) {
        memory x_mem = sycl_interop::make_memory(model.x_md, eng, kind),
               w_mem = sycl_interop::make_memory(model.w_md, eng, kind),
               b_mem = sycl_interop::make_memory(model.b_md, eng, kind),
               h_mem = sycl_interop::make_memory(model.y_md, eng, kind),
               r_mem = sycl_interop::make_memory(model.y_md, eng, kind),
               y_mem = sycl_interop::make_memory(model.y_md, eng, kind);
        fill(x_mem, in.x);
        fill(w_mem, in.w);
        fill(b_mem, in.b);
        fill(r_mem, in.r);
        model.mm.execute(s, {{DNNL_ARG_SRC, x_mem}, {DNNL_ARG_WEIGHTS, w_mem},
                                    {DNNL_ARG_BIAS, b_mem}, {DNNL_ARG_DST, h_mem}});
        model.add.execute(
                s, {{DNNL_ARG_SRC_0, h_mem}, {DNNL_ARG_SRC_1, r_mem}, {DNNL_ARG_DST, y_mem}});
        s.wait();
        const float *p = y_mem.map_data<float>();
        check(kind == sycl_interop::memory_kind::usm ? "library USM" : "library buffer",
                std::vector<float>(p, p + M * N), expected(in, 1.0));
        y_mem.unmap_data(const_cast<float *>(p));
    }
}

} // namespace

int main(int argc, char **argv) {
    (void)argc, (void)argv; // SYCL only: the kind argument is always gpu
    sycl::device dev;
    try {
        dev = sycl::device(sycl::cpu_selector_v);
    } catch (const sycl::exception &e) {
        std::printf("no SYCL CPU device: %s\n", e.what());
        const char *req = std::getenv("ANYDNN_SYCL_TEST_REQUIRE_DEVICE");
        return req && std::string(req) == "1" ? 1 : 77;
    }
    try {
        sycl::context ctx(dev);
        sycl::queue q(ctx, dev, sycl::property::queue::in_order{});
        engine eng = sycl_interop::make_engine(dev, ctx);
        if (!(sycl_interop::get_device(eng) == dev) || !(sycl_interop::get_context(eng) == ctx)) {
            std::printf("the engine does not hand back the application's device and context\n");
            ++failures;
        }
        const inputs_t in = make_inputs();
        const model_t model(eng);
        usm_on_in_order_queue(eng, q, model, in);
        usm_chained_by_events(eng, ctx, dev, model, in);
        buffers_tracked_by_accessors(eng, q, model, in);
        library_allocated(eng, q, model, in);
    } catch (const dnnl::error &e) {
        std::printf("dnnl::error: %s (status %d)\n", e.what(), int(e.status));
        return 1;
    } catch (const sycl::exception &e) {
        std::printf("sycl::exception: %s\n", e.what());
        return 1;
    }
    std::printf("sycl_interop_flow: %s\n", failures ? "MISMATCH" : "all match");
    return failures ? 1 : 0;
}
