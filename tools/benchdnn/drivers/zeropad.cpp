// --zeropad: the zero padding of blocked memory (a 17-channel tensor in nChw16c holds 32
// channels; the 15 past the end must read as zero). oneDNN's benchdnn calls the library's
// internal zero-pad routine; through the public API it is what dnnl_memory_set_data_handle
// does to the buffer it is given (that of another memory object). A problem "NxCxDxHxW" (fewer dims allowed), --dt, --tag:
// the whole buffer is filled with a byte pattern, set as the memory's handle, and then every
// element past the dims must be zero and every element within them untouched.
#include <cstring>

#include "capture.hpp"
#include "data_types.hpp"
#include "driver.hpp"
#include "harness.hpp"
#include "knob_table.hpp"
#include "names.hpp"
#include "perf.hpp"

namespace benchdnn {
namespace {

constexpr unsigned char pattern = 0xa5;

class mapped_t {
public:
    explicit mapped_t(dnnl_memory_t m) : m_(m) { BENCHDNN_CHECK(dnnl_memory_map_data(m, &p_)); }
    ~mapped_t() { dnnl_memory_unmap_data(m_, p_); }
    unsigned char *ptr() const { return static_cast<unsigned char *>(p_); }

private:
    dnnl_memory_t m_;
    void *p_ = nullptr;
};

// Element of the padded extent at index i: counts what is wrong.
struct tally_t {
    int64_t pad_not_zero = 0, data_changed = 0;
};

tally_t inspect(const test_mem_t &m) {
    tally_t t;
    mapped_t map(m.get());
    const size_t esz = dt_size(m.dt());
    const dims_t &pd = m.padded_dims();
    const int nd = m.ndims();
    const int64_t n = product(pd);
    int64_t pos[DNNL_MAX_NDIMS] = {0};
    for (int64_t i = 0; i < n; ++i) {
        logical_position(pd, i, pos);
        bool in_pad = false;
        for (int d = 0; d < nd; ++d) in_pad = in_pad || pos[d] >= m.dims()[d];
        const unsigned char *e = map.ptr() + m.offset(pos) * esz;
        for (size_t b = 0; b < esz; ++b) {
            if (in_pad && e[b] != 0) {
                ++t.pad_not_zero;
                break;
            }
            if (!in_pad && e[b] != pattern) {
                ++t.data_changed;
                break;
            }
        }
    }
    return t;
}

class zeropad_prb_t {
public:
    zeropad_prb_t(dnnl_data_type_t dt, const std::string &tag, const dims_t &dims,
            const std::string &repro)
        : dt_(dt), tag_(tag), dims_(dims), repro_(repro) {}

    void run() {
        const auto &s = settings();
        const int idx = begin_problem();
        if (s.list) return report_problem(idx, outcome_t::listed, "", repro_);
        if (before_start(idx))
            return report_problem(idx, outcome_t::skipped, "before --start", repro_);
        if (!test_engine())
            return report_problem(
                    idx, outcome_t::skipped, engine_name() + " engine not found", repro_);
        if (!dt_supported(dt_) || dt_is_4bit(dt_))
            return report_problem(
                    idx, outcome_t::skipped, "data type not handled by the tester", repro_);
        try {
            md_h md;
            std::string why;
            dnnl_status_t st;
            {
                stdout_capture_t capture;
                st = make_md(md, dims_, dt_, tag_);
                why = capture.finish();
            }
            // A tag of another rank than the problem is an invalid problem, not a failure.
            if (st != dnnl_success)
                return report_problem(idx,
                        st == dnnl_unimplemented ? outcome_t::unimplemented
                                : st == dnnl_invalid_arguments ? outcome_t::skipped
                                                               : outcome_t::failed,
                        std::string("memory descriptor: ") + status_name(st)
                                + (why.empty() ? "" : ": " + why),
                        repro_);
            // The buffer belongs to `owner`; `m` takes it as its handle (a memory given its own
            // handle back would free it first). m goes before owner.
            test_mem_t owner(md.get(), test_engine());
            test_mem_t m(md.get(), test_engine());
            if (!m.direct())
                return report_problem(idx, outcome_t::skipped,
                        "layout not addressed by the tester", repro_);
            if (s.fast) return report_problem(idx, outcome_t::passed, "", repro_);
            void *handle = nullptr;
            BENCHDNN_CHECK(dnnl_memory_get_data_handle(owner.get(), &handle));
            {
                mapped_t map(owner.get());
                std::memset(map.ptr(), pattern, owner.size());
            }
            BENCHDNN_CHECK(dnnl_memory_set_data_handle(m.get(), handle));
            std::string msg;
            if (s.correctness) {
                const tally_t t = inspect(m);
                if (t.pad_not_zero || t.data_changed)
                    msg = std::to_string(t.pad_not_zero) + " padded elements not zero, "
                            + std::to_string(t.data_changed) + " elements within the dims changed";
            }
            if (msg.empty() && s.performance) {
                perf_result_t r;
                r.bytes = static_cast<double>(m.size());
                r.impl = "set_data_handle";
                r.engine = engine_name();
                r.driver = "zeropad";
                r.prb = repro_.substr(repro_.find(' ') + 1);
                time_and_print([&] { return dnnl_memory_set_data_handle(m.get(), handle); }, r);
            }
            if (!msg.empty()) return report_problem(idx, outcome_t::failed, msg, repro_);
            report_problem(idx, s.correctness ? outcome_t::passed : outcome_t::executed, "", repro_);
        } catch (const missing_entry_error &e) {
            report_problem(idx, outcome_t::unimplemented, e.what(), repro_);
        } catch (const dnnl_error &e) {
            report_problem(idx, outcome_t::failed, e.what(), repro_);
        } catch (const std::exception &e) {
            report_problem(idx, outcome_t::failed, std::string("tester: ") + e.what(), repro_);
        }
    }

private:
    dnnl_data_type_t dt_;
    std::string tag_;
    dims_t dims_;
    std::string repro_;
};

class zeropad_driver_t : public knob_driver_t {
public:
    void run(const std::string &text) override {
        const dims_t dims = parse_dims(text);
        if (dims.empty() || dims.size() > 5)
            throw std::invalid_argument("zeropad takes N[xC[xD[xH[xW]]]], got '" + text + "'");
        for_each_problem([&] {
            const auto &s = settings();
            repro_t r("zeropad");
            r.knob("dt", dt2str(dt_), "f32").knob("tag", tag_, "abx");
            zeropad_prb_t(dt_, tag_, dims,
                    r.str(text + (s.problem_name.empty() ? "" : "n\"" + s.problem_name + "\"")))
                    .run();
        });
    }

private:
    const dnnl_data_type_t &dt_ = knob({"--dt"}, {dnnl_f32}, str2dt);
    const std::string &tag_ = knob({"--tag"}, {"abx"}, checked_tag);
};

} // namespace

BENCHDNN_REGISTER_DRIVER("zeropad", zeropad_driver_t);

} // namespace benchdnn
