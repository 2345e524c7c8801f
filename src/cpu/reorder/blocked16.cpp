// Plain layout <-> the same tensor blocked by 16 (or 8) innermost on one dimension, and
// possibly once more further out on others: nchw <-> nChw16c, nhwc <-> nChw8c,
// oihw <-> OIhw16i16o... Where the plain side is contiguous along another dimension, 16x16
// tiles go through an AVX-512 transpose; where it is contiguous along the blocked dimension,
// each point moves as one vector. Any pair of vector data types, with common or
// per-blocked-dimension scales and zero points and the sum post-op.
#include <cstdint>

#include "core/parallel.hpp"
#include "cpu/reorder/blocked16.hpp"
#include "cpu/reorder/vec_avx512.hpp"

namespace anydnn {
namespace cpu {
namespace reorder {

namespace {

// One execution: pointers, types and quantization values, and the work item body.
struct exec_t {
    const plan_t *p;
    const quant_t *q;
    quant_data_t qd;
    const char *src;
    char *dst;
    dnnl_data_type_t sdt, ddt;
    size_t ses, des; // element sizes
    bool stream;     // dst is far larger than the cache: full-line stores bypass it
};

// One quantization term for channels [c0, c0 + 16) as lanes, or of channel c0 broadcast.
ANYDNN_AVX512 inline void make_term(const quant_arg_t &a, const void *data, dim_t c0, bool lanes,
        __mmask16 m, bool &flag, __m512 &out) {
    flag = a.present;
    if (!flag) return;
    if (a.mask == 0) {
        out = _mm512_set1_ps(quant_value(a, data, 0));
    } else if (lanes) {
        const char *base = static_cast<const char *>(data) + c0 * data_type_size(a.dt);
        out = avx512::load_f32(a.dt, base, m);
    } else {
        out = _mm512_set1_ps(quant_value(a, data, c0));
    }
}

ANYDNN_AVX512 void make_qvec(
        const exec_t &e, dim_t c0, bool lanes, __mmask16 m, avx512::qvec_t &v) {
    const quant_t &q = *e.q;
    make_term(q.src_scale, e.qd.src_scale, c0, lanes, m, v.ss, v.ss_v);
    make_term(q.src_zp, e.qd.src_zp, c0, lanes, m, v.szp, v.szp_v);
    make_term(q.dst_scale, e.qd.dst_scale, c0, lanes, m, v.ds, v.ds_v);
    make_term(q.dst_zp, e.qd.dst_zp, c0, lanes, m, v.dzp, v.dzp_v);
    v.sum = q.sum;
    v.sum_scale_v = _mm512_set1_ps(q.sum_scale);
    v.sum_zp_v = _mm512_set1_ps(q.sum_zp);
}

// Element moves of one kernel instance: src elements of type S to dst elements of type D,
// through f32 lanes, or as raw bits when nothing converts them. S = D = undef is the
// generic instance, which reads the types at run time (less common pairs, fewer copies of
// this code).
template <dnnl_data_type_t S, dnnl_data_type_t D, bool raw> struct io_t {
    static constexpr bool generic = S == dnnl_data_type_undef;
    dnnl_data_type_t sdt, ddt;

    ANYDNN_AVX512 __m512 load(const char *p, __mmask16 m) const {
        if constexpr (raw)
            return avx512::load_bits<avx512::dt_bytes(S)>(p, m);
        else if constexpr (generic)
            return avx512::load_f32(sdt, p, m);
        else
            return avx512::load_as<S>(p, m);
    }
    // Full 64-byte lines of a streamed dst skip the cache (no read for ownership of lines
    // that are entirely overwritten).
    ANYDNN_AVX512 void store(char *p, __m512 v, __mmask16 m, bool stream) const {
        const bool wide =
                generic ? ddt == dnnl_f32 : avx512::dt_bytes(D) == 4 && (raw || D == dnnl_f32);
        if (wide && stream && m == 0xffff && (reinterpret_cast<uintptr_t>(p) & 63) == 0) {
            _mm512_stream_ps(reinterpret_cast<float *>(p), v);
            return;
        }
        if constexpr (raw)
            avx512::store_bits<avx512::dt_bytes(D)>(p, v, m);
        else if constexpr (generic)
            avx512::store_f32(ddt, p, v, m);
        else
            avx512::store_as<D>(p, v, m);
    }
};

// Offsets in B of consecutive run points, from a starting point on.
struct bwalk_t {
    bwalk_t(const plan_t &p, dim_t r) : p(p), lo(r % p.len0), hi_off(r / p.len0 * p.bs_hi) {}
    dim_t next() {
        const dim_t off = hi_off + lo * p.bs;
        if (++lo == p.len0) {
            lo = 0;
            hi_off += p.bs_hi;
        }
        return off;
    }
    // The next n points are equally spaced (no jump to the next outer part in between).
    bool linear(int n) const {
        return lo + n <= p.len0;
    }
    dim_t peek() const {
        return hi_off + lo * p.bs;
    }
    void skip(int n) {
        for (int k = 0; k < n; ++k)
            next();
    }
    const plan_t &p;
    dim_t lo, hi_off;
};

template <dnnl_data_type_t S, dnnl_data_type_t D, bool raw>
ANYDNN_AVX512 void run_item(const exec_t &e, dim_t item) {
    const io_t<S, D, raw> io{e.sdt, e.ddt};
    const plan_t &p = *e.p;
    // Transposes: item = ((outer position) * nblocks + block) * nchunks + chunk, so a thread
    // reads a few channel rows along the run. Point by point, P holds all channels of a
    // point together: blocks vary fastest so consecutive items reuse the lines just read.
    const dim_t nchunks = (p.len + p.chunk - 1) / p.chunk;
    dim_t ci, cb;
    if (p.transpose) {
        ci = item % nchunks;
        item /= nchunks;
        cb = item % p.nblocks;
        item /= p.nblocks;
    } else {
        cb = item % p.nblocks;
        item /= p.nblocks;
        ci = item % nchunks;
        item /= nchunks;
    }
    dim_t poff = 0, boff = 0;
    for (int k = p.nouter - 1; k >= 0; --k) {
        const dim_t x = item % p.osize[k];
        item /= p.osize[k];
        poff += x * p.op[k];
        boff += x * p.ob[k];
    }
    const dim_t c0 = cb * p.b;
    const int nc = static_cast<int>(std::min<dim_t>(p.b, p.channels - c0));
    const __mmask16 cmask = static_cast<__mmask16>((1u << nc) - 1);
    const __mmask16 bmask = static_cast<__mmask16>((1u << p.b) - 1);
    poff += c0 * p.pc;
    boff += cb * p.cbs;
    const dim_t s0 = ci * p.chunk, s1 = std::min(p.len, s0 + p.chunk);

    const size_t pes = p.to_blocked ? e.ses : e.des, bes = p.to_blocked ? e.des : e.ses;
    const char *psrc = e.src + poff * pes;
    const char *bsrc = e.src + boff * bes;
    char *pdst = e.dst + poff * pes;
    char *bdst = e.dst + boff * bes;
    const dnnl_data_type_t old_dt = e.q->sum_dt;
    const bool clear_tail = !raw && nc < p.b; // quantization can make padding non-zero

    avx512::qvec_t qv;
    if (!raw && (p.to_blocked || !p.transpose)) make_qvec(e, c0, true, cmask, qv);
    bwalk_t bw(p, s0);

    if (!p.transpose) {
        // Each point of the run is one vector of channels. Plain copies of runs without a
        // jump in B go four points at a time at fixed strides.
        if (raw && bw.linear(static_cast<int>(s1 - s0))) {
            const dim_t pstep = p.ps * pes, bstep = p.bs * bes;
            const char *in = p.to_blocked ? psrc + s0 * pstep : bsrc + bw.peek() * bes;
            char *out = p.to_blocked ? bdst + bw.peek() * bes : pdst + s0 * pstep;
            const dim_t istep = p.to_blocked ? pstep : bstep;
            const dim_t ostep = p.to_blocked ? bstep : pstep;
            const __mmask16 omask = p.to_blocked ? bmask : cmask;
            dim_t j = s0;
            for (; j + 4 <= s1; j += 4, in += 4 * istep, out += 4 * ostep) {
                const __m512 v0 = io.load(in, cmask), v1 = io.load(in + istep, cmask);
                const __m512 v2 = io.load(in + 2 * istep, cmask);
                const __m512 v3 = io.load(in + 3 * istep, cmask);
                io.store(out, v0, omask, e.stream);
                io.store(out + ostep, v1, omask, e.stream);
                io.store(out + 2 * ostep, v2, omask, e.stream);
                io.store(out + 3 * ostep, v3, omask, e.stream);
            }
            for (; j < s1; ++j, in += istep, out += ostep)
                io.store(out, io.load(in, cmask), omask, e.stream);
            return;
        }
        for (dim_t j = s0; j < s1; ++j) {
            const dim_t bj = bw.next();
            if (p.to_blocked) {
                __m512 v = io.load(psrc + j * p.ps * pes, cmask);
                char *o = bdst + bj * bes;
                if (!raw) {
                    __m512 old = qv.sum ? avx512::load_f32(old_dt, o, cmask) : v;
                    v = avx512::quantize(qv, v, old);
                    if (clear_tail) v = _mm512_maskz_mov_ps(cmask, v);
                }
                io.store(o, v, bmask, e.stream);
            } else {
                __m512 v = io.load(bsrc + bj * bes, cmask);
                char *o = pdst + j * p.ps * pes;
                if (!raw) {
                    __m512 old = qv.sum ? avx512::load_f32(old_dt, o, cmask) : v;
                    v = avx512::quantize(qv, v, old);
                }
                io.store(o, v, cmask, e.stream);
            }
        }
        return;
    }

    __m512 r[16];
    for (dim_t s = s0; s < s1; s += 16) {
        const int ns = static_cast<int>(std::min<dim_t>(16, s1 - s));
        const __mmask16 smask = static_cast<__mmask16>((1u << ns) - 1);
        const bool full = ns == 16 && nc == p.b && bw.linear(16);
        if (p.to_blocked && full) {
            // Whole tile: unmasked loads, stores at a fixed stride.
#pragma GCC unroll 16
            for (int i = 0; i < 16; ++i)
                r[i] = i < p.b ? io.load(psrc + (i * p.pc + s) * pes, 0xffff) : _mm512_setzero_ps();
            avx512::transpose16(r);
            char *o = bdst + bw.peek() * bes;
            const dim_t step = p.bs * bes;
            bw.skip(16);
#pragma GCC unroll 16
            for (int j = 0; j < 16; ++j, o += step) {
                __m512 v = r[j];
                if (!raw)
                    v = avx512::quantize(qv, v, qv.sum ? avx512::load_f32(old_dt, o, bmask) : v);
                io.store(o, v, bmask, e.stream);
            }
        } else if (p.to_blocked) {
            // Rows are channels along the run; after the transpose, rows are run points.
#pragma GCC unroll 16
            for (int i = 0; i < 16; ++i)
                r[i] = i < nc ? io.load(psrc + (i * p.pc + s) * pes, smask) : _mm512_setzero_ps();
            avx512::transpose16(r);
            // A partial tile: its rows go through memory (a variable index would keep every
            // tile's registers on the stack).
            alignas(64) float rows[16][16];
#pragma GCC unroll 16
            for (int j = 0; j < 16; ++j)
                _mm512_store_ps(rows[j], r[j]);
            for (int j = 0; j < ns; ++j) {
                char *o = bdst + bw.next() * bes;
                __m512 v = _mm512_load_ps(rows[j]);
                if (!raw) {
                    __m512 old = qv.sum ? avx512::load_f32(old_dt, o, cmask) : v;
                    v = avx512::quantize(qv, v, old);
                    if (clear_tail) v = _mm512_maskz_mov_ps(cmask, v);
                }
                io.store(o, v, bmask, e.stream);
            }
        } else if (full) {
            const char *in = bsrc + bw.peek() * bes;
            const dim_t step = p.bs * bes;
            bw.skip(16);
#pragma GCC unroll 16
            for (int j = 0; j < 16; ++j, in += step)
                r[j] = io.load(in, bmask);
            avx512::transpose16(r);
#pragma GCC unroll 16
            for (int i = 0; i < 16; ++i) {
                if (i == 8 && p.b == 8) break;
                char *o = pdst + (i * p.pc + s) * pes;
                __m512 v = r[i];
                if (!raw) {
                    make_qvec(e, c0 + i, false, cmask, qv);
                    v = avx512::quantize(qv, v, qv.sum ? avx512::load_f32(old_dt, o, 0xffff) : v);
                }
                io.store(o, v, 0xffff, e.stream);
            }
        } else {
#pragma GCC unroll 16
            for (int j = 0; j < 16; ++j)
                r[j] = j < ns ? io.load(bsrc + bw.next() * bes, cmask) : _mm512_setzero_ps();
            avx512::transpose16(r);
            alignas(64) float rows[16][16];
#pragma GCC unroll 16
            for (int i = 0; i < 16; ++i)
                _mm512_store_ps(rows[i], r[i]);
            for (int i = 0; i < nc; ++i) {
                char *o = pdst + (i * p.pc + s) * pes;
                __m512 v = _mm512_load_ps(rows[i]);
                if (!raw) {
                    make_qvec(e, c0 + i, false, cmask, qv);
                    __m512 old = qv.sum ? avx512::load_f32(old_dt, o, smask) : v;
                    v = avx512::quantize(qv, v, old);
                }
                io.store(o, v, smask, e.stream);
            }
        }
    }
}

// A thread's share of the work items.
template <dnnl_data_type_t S, dnnl_data_type_t D, bool raw>
ANYDNN_AVX512 void run_items(const exec_t &e, dim_t start, dim_t end) {
    for (dim_t it = start; it < end; ++it)
        run_item<S, D, raw>(e, it);
    if (e.stream) _mm_sfence();
}

using items_fn_t = void (*)(const exec_t &, dim_t, dim_t);

// The kernel instance for a type pair: raw moves by element size, the frequent conversions
// typed, the rest generic.
items_fn_t pick(dnnl_data_type_t s, dnnl_data_type_t d, bool raw) {
    if (raw) {
        switch (data_type_size(s)) {
        case 4: return run_items<dnnl_f32, dnnl_f32, true>;
        case 2: return run_items<dnnl_bf16, dnnl_bf16, true>;
        default: return run_items<dnnl_u8, dnnl_u8, true>;
        }
    }
    constexpr auto f32 = dnnl_f32;
    if (s == f32 && d == f32) return run_items<f32, f32, false>;
    if (s == f32 && d == dnnl_bf16) return run_items<f32, dnnl_bf16, false>;
    if (s == dnnl_bf16 && d == f32) return run_items<dnnl_bf16, f32, false>;
    if (s == f32 && d == dnnl_f16) return run_items<f32, dnnl_f16, false>;
    if (s == dnnl_f16 && d == f32) return run_items<dnnl_f16, f32, false>;
    if (s == f32 && d == dnnl_s8) return run_items<f32, dnnl_s8, false>;
    if (s == dnnl_s8 && d == f32) return run_items<dnnl_s8, f32, false>;
    if (s == f32 && d == dnnl_u8) return run_items<f32, dnnl_u8, false>;
    if (s == dnnl_u8 && d == f32) return run_items<dnnl_u8, f32, false>;
    return run_items<dnnl_data_type_undef, dnnl_data_type_undef, false>;
}

} // namespace

status_t blocked16_t::execute(const exec_ctx_t &ctx) const {
    const auto &pd = static_cast<const blocked16_pd_t &>(this->pd());
    const plan_t &p = pd.plan;
    const memory_desc_t &smd = ctx.md(DNNL_ARG_SRC), &dmd = ctx.md(DNNL_ARG_DST);
    exec_t e;
    e.p = &p;
    e.q = &pd.q;
    ANYDNN_CHECK(quant_data(pd.q, ctx, e.qd));
    e.sdt = smd.data_type;
    e.ddt = dmd.data_type;
    e.ses = data_type_size(e.sdt);
    e.des = data_type_size(e.ddt);
    e.src = ctx.host_ptr<const char>(DNNL_ARG_SRC) + smd.offset0 * e.ses;
    e.dst = ctx.host_ptr<char>(DNNL_ARG_DST) + dmd.offset0 * e.des;
    const bool raw = e.sdt == e.ddt && pd.q.trivial();
    // Streaming pays off once dst cannot stay in the last-level cache anyway; the sum
    // post-op reads dst first, so its lines are cached already.
    e.stream = !pd.q.sum && size_in_bytes(dmd) >= streaming_threshold();

    dim_t outer = 1;
    for (int k = 0; k < p.nouter; ++k)
        outer *= p.osize[k];
    const dim_t items = outer * p.nblocks * ((p.len + p.chunk - 1) / p.chunk);
    const dim_t work = items * p.chunk * p.b;
    const int nthr =
            static_cast<int>(std::min<dim_t>(max_threads(), std::max<dim_t>(1, work / 32768)));
    const items_fn_t run = pick(e.sdt, e.ddt, raw);
    parallel(nthr, [&](int ithr, int nt) {
        dim_t start, end;
        balance211(items, nt, ithr, start, end);
        run(e, start, end);
    });
    return dnnl_success;
}

} // namespace reorder
} // namespace cpu
} // namespace anydnn
