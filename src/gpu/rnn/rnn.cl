// The element-wise parts of the RNN cells (forward step with its recurrent dot products,
// backward step), strided copies between user tensors and f32 state (int8: dequantizing and
// quantizing on the way), and gradient sums.
// State is f32 in the workspace/scratch laid out as core/ops/rnn/conf.hpp says; one build.
#include "cl/common.h"

// dnnl_data_type_t values of the storage types the copies read and write.
#define DT_F16 1
#define DT_BF16 2
#define DT_F32 3
#define DT_S8 5
#define DT_U8 6

// What rnn_copy does to the values it moves (gpu/rnn/rnn.hpp mirrors it).
#define QUANT_NONE 0
#define QUANT_DEQUANTIZE 1 // u8 or s8 data to f32: (v - shift) * scale, scale = 1 / data scale
#define QUANT_QUANTIZE 2 // f32 to u8 or s8 data: v * scale + shift

// Cell kinds (gpu/rnn/rnn.hpp mirrors them).
#define CELL_VANILLA 0
#define CELL_LSTM 1
#define CELL_GRU 2
#define CELL_LBR 3

// Vanilla activations (mirrored too).
#define ACT_RELU 0
#define ACT_TANH 1
#define ACT_LOGISTIC 2

float load_any(const global uchar *p, int dt, long i) {
    if (dt == DT_BF16) return load_bf16((const global ushort *)p, i);
    if (dt == DT_F16) return load_f16((const global half *)p, i);
    if (dt == DT_S8) return load_s8((const global char *)p, i);
    if (dt == DT_U8) return load_u8(p, i);
    return ((const global float *)p)[i];
}

void store_any(global uchar *p, int dt, long i, float v) {
    if (dt == DT_BF16)
        store_bf16((global ushort *)p, i, v);
    else if (dt == DT_F16)
        store_f16((global half *)p, i, v);
    else if (dt == DT_U8)
        store_u8(p, i, v);
    else if (dt == DT_S8)
        store_s8((global char *)p, i, v);
    else
        ((global float *)p)[i] = v;
}

// Mirrors copy_params_t of gpu/rnn/rnn.hpp.
typedef struct {
    long dims[5];
    long dst_off, dst_s[5];
    long src_off, src_s[5];
    long src2_off, src2_s[5];
    int dst_dt, src_dt, src2_dt, accumulate;
    int quant;
    float data_scale, data_shift;
    int run; // elements along dimension 4 per work-item
} copy_params_t;

// dst = src (+ src2) (+ dst when accumulating) over a 5D box of any (also negative) element
// strides; absent sources read as zero. Then p.quant applies, and with col_scales the value
// is divided by the scale of its column (g, o) = (idx 3, idx 4): int8 weights dequantized as
// the CPU engine does. One work-item per run of p.run elements along dimension 4 (one on
// GPUs: neighbours access neighbours; a row on CPU devices: the index math once per row).
kernel void rnn_copy(global uchar *dst, const global uchar *src, const global uchar *src2,
        const global float *col_scales, copy_params_t p) {
    long i = get_global_id(0);
    const long runs = (p.dims[4] + p.run - 1) / p.run;
    const long j0 = i % runs * p.run, j1 = min(p.dims[4], j0 + p.run);
    i /= runs;
    long idx[4];
    for (int d = 3; d >= 0; --d) {
        idx[d] = i % p.dims[d];
        i /= p.dims[d];
    }
    if (i > 0) return;
    long od = p.dst_off, os = p.src_off, os2 = p.src2_off;
    for (int d = 0; d < 4; ++d) {
        od += idx[d] * p.dst_s[d];
        os += idx[d] * p.src_s[d];
        os2 += idx[d] * p.src2_s[d];
    }
    for (long j = j0; j < j1; ++j) {
        float v = src ? load_any(src, p.src_dt, os + j * p.src_s[4]) : 0.f;
        if (src2) v += load_any(src2, p.src2_dt, os2 + j * p.src2_s[4]);
        if (p.accumulate) v += load_any(dst, p.dst_dt, od + j * p.dst_s[4]);
        if (p.quant == QUANT_DEQUANTIZE) v = (v - p.data_shift) * p.data_scale;
        if (p.quant == QUANT_QUANTIZE) v = v * p.data_scale + p.data_shift;
        if (col_scales) v /= col_scales[idx[3] * p.dims[4] + j];
        store_any(dst, p.dst_dt, od + j * p.dst_s[4], v);
    }
}

// Mirrors step_params_t of gpu/rnn/rnn.hpp: element offsets (floats) of one step's state.
typedef struct {
    long N, H, DIC, SIC, G;
    long gates, hprev, hout, cprev, cout, rh, hu; // workspace
    long bias, peep, att; // forward scratch (att: this step's time, N values)
    long w_off, w_si, w_sj; // recurrent weights (f32) as (input channel, gate column)
    long dg, dhp, dc, dhu, dh_prev, drh, datt_part; // backward scratch
    int cell, act, peephole, augru;
    float alpha;
    int gemm_done; // the host's GEMM already added the recurrent products (LBR: o part in hu)
    long part, part_s; // with slices: the K slices' partial products (scratch), slice pitch
    int slices, pad; // 0: the GEMM added into the gates; else partial sums to add, in order
} step_params_t;

float sigmoid(float x) { return 1.f / (1.f + exp(-x)); }

float vanilla_act(const step_params_t *p, float x) {
    if (p->act == ACT_TANH) return tanh(x);
    if (p->act == ACT_LOGISTIC) return sigmoid(x);
    return x > 0.f ? x : x * p->alpha;
}

float vanilla_act_bwd(const step_params_t *p, float dd, float x) {
    if (p->act == ACT_TANH) {
        const float t = tanh(x);
        return dd * (1.f - t) * (1.f + t);
    }
    if (p->act == ACT_LOGISTIC) {
        const float s = sigmoid(x);
        return dd * s * (1.f - s);
    }
    return x > 0.f ? dd : dd * p->alpha;
}

// acc[g] = sum_i in[n, i] * W[i, g * H + j] for gates [g0, g1) (row pitch ld, K inputs);
// zeros when the host's GEMM added them into the gates, the sum of its K slices' partial
// products (in slice order: the same result every run) when it split K.
void recurrent_dots(const global float *in, long ld, long K, const global float *w,
        const global float *scr, const step_params_t *p, long n, long j, int g0, int g1,
        float *acc) {
    // Loops over all four gates with constant indices keep acc in registers.
    for (int g = 0; g < 4; ++g) acc[g] = 0.f;
    if (p->gemm_done) {
        const global float *part = scr + p->part + n * p->G * p->H + j;
        for (int s = 0; s < p->slices; ++s, part += p->part_s)
            for (int g = 0; g < 4; ++g)
                if (g >= g0 && g < g1) acc[g] += part[g * p->H];
        return;
    }
    const global float *row = in + n * ld;
    for (long i = 0; i < K; ++i) {
        const float h = row[i];
        const global float *wr = w + p->w_off + i * p->w_si + j * p->w_sj;
        for (int g = g0; g < g1; ++g) acc[g] = fma(h, wr[g * p->H * p->w_sj], acc[g]);
    }
}

// h = u' hprev + (1 - u') o with u' = u, or (1 - a) u for AUGRU.
float gru_blend(const step_params_t *p, const global float *scr, long n, float u, float o,
        float hp) {
    if (p->augru) u *= 1.f - scr[p->att + n];
    return u * hp + (1.f - u) * o;
}

// One forward step of vanilla, LSTM and LBR cells: recurrent products, gates, new state.
// Gates hold the x part on entry and are left activated (vanilla: pre-activation).
// x: output channel j, y: row n.
kernel void rnn_fwd_step(global float *ws, const global float *scr, const global float *w,
        step_params_t p) {
    const long j = get_global_id(0), n = get_global_id(1);
    if (j >= p.H || n >= p.N) return;
    const long H = p.H, GC = p.G * H;
    float acc[4];
    recurrent_dots(ws + p.hprev, p.DIC, p.SIC, w, scr, &p, n, j, 0, (int)p.G, acc);
    global float *g = ws + p.gates + n * GC + j;
    const global float *b = scr + p.bias + j;
    global float *h = ws + p.hout + n * H + j;
    if (p.cell == CELL_VANILLA) {
        const float x = g[0] + acc[0] + b[0];
        g[0] = x;
        *h = vanilla_act(&p, x);
    } else if (p.cell == CELL_LSTM) {
        const float cp = ws[p.cprev + n * H + j];
        float gi = g[0] + acc[0] + b[0], gf = g[H] + acc[1] + b[H];
        float gc = g[2 * H] + acc[2] + b[2 * H], go = g[3 * H] + acc[3] + b[3 * H];
        const global float *pp = scr + p.peep + j;
        if (p.peephole) {
            gi += pp[0] * cp;
            gf += pp[H] * cp;
        }
        gi = sigmoid(gi);
        gf = sigmoid(gf);
        gc = tanh(gc);
        const float ct = gf * cp + gi * gc;
        if (p.peephole) go += pp[2 * H] * ct;
        go = sigmoid(go);
        g[0] = gi;
        g[H] = gf;
        g[2 * H] = gc;
        g[3 * H] = go;
        ws[p.cout + n * H + j] = ct;
        *h = go * tanh(ct);
    } else { // LBR
        const float u = sigmoid(g[0] + acc[0] + b[0]);
        const float r = sigmoid(g[H] + acc[1] + b[H]);
        const float hu = (p.gemm_done && !p.slices ? ws[p.hu + n * H + j] : acc[2]) + b[3 * H];
        const float o = tanh(g[2 * H] + b[2 * H] + r * hu);
        g[0] = u;
        g[H] = r;
        g[2 * H] = o;
        ws[p.hu + n * H + j] = hu;
        *h = gru_blend(&p, scr, n, u, o, ws[p.hprev + n * p.DIC + j]);
    }
}

// GRU forward, first half: u, r and r * hprev.
kernel void rnn_fwd_gru_gates(global float *ws, const global float *scr, const global float *w,
        step_params_t p) {
    const long j = get_global_id(0), n = get_global_id(1);
    if (j >= p.H || n >= p.N) return;
    const long H = p.H, GC = p.G * H;
    float acc[4];
    recurrent_dots(ws + p.hprev, p.DIC, p.SIC, w, scr, &p, n, j, 0, 2, acc);
    global float *g = ws + p.gates + n * GC + j;
    const global float *b = scr + p.bias + j;
    const float u = sigmoid(g[0] + acc[0] + b[0]), r = sigmoid(g[H] + acc[1] + b[H]);
    g[0] = u;
    g[H] = r;
    ws[p.rh + n * H + j] = r * ws[p.hprev + n * p.DIC + j];
}

// GRU forward, second half: o from r * hprev of every channel, and h.
kernel void rnn_fwd_gru_state(global float *ws, const global float *scr, const global float *w,
        step_params_t p) {
    const long j = get_global_id(0), n = get_global_id(1);
    if (j >= p.H || n >= p.N) return;
    const long H = p.H, GC = p.G * H;
    float acc[4];
    recurrent_dots(ws + p.rh, H, H, w, scr, &p, n, j, 2, 3, acc);
    global float *g = ws + p.gates + n * GC + j;
    const float o = tanh(g[2 * H] + acc[2] + scr[p.bias + 2 * H + j]);
    g[2 * H] = o;
    ws[p.hout + n * H + j] = gru_blend(&p, scr, n, g[0], o, ws[p.hprev + n * p.DIC + j]);
}

// One backward step, element-wise: gradients of the pre-activation gates from the gradient
// of the cell output dhp (and of c for LSTM); GRU kinds also the direct part of dh_{t-1}
// and each element's share of the attention gradient.
kernel void rnn_bwd_step(const global float *ws, global float *bs, const global float *scr,
        step_params_t p) {
    const long j = get_global_id(0), n = get_global_id(1);
    if (j >= p.H || n >= p.N) return;
    const long H = p.H, GC = p.G * H, e = n * H + j;
    const global float *g = ws + p.gates + n * GC + j;
    global float *dg = bs + p.dg + n * GC + j;
    const float dh = bs[p.dhp + e];
    if (p.cell == CELL_VANILLA) {
        dg[0] = vanilla_act_bwd(&p, dh, g[0]);
    } else if (p.cell == CELL_LSTM) {
        const float i = g[0], f = g[H], cc = g[2 * H], o = g[3 * H];
        const float cp = ws[p.cprev + e], tc = tanh(ws[p.cout + e]);
        const global float *pp = scr + p.peep + j;
        const float dgo = dh * tc * o * (1.f - o);
        float dct = bs[p.dc + e] + dh * o * (1.f - tc * tc);
        if (p.peephole) dct += dgo * pp[2 * H];
        const float dgi = dct * cc * i * (1.f - i), dgf = dct * cp * f * (1.f - f);
        dg[0] = dgi;
        dg[H] = dgf;
        dg[2 * H] = dct * i * (1.f - cc * cc);
        dg[3 * H] = dgo;
        float dcp = dct * f;
        if (p.peephole) dcp += dgi * pp[0] + dgf * pp[H];
        bs[p.dc + e] = dcp;
    } else {
        const float u = g[0], o = g[2 * H], hp = ws[p.hprev + n * p.DIC + j];
        const float keep = p.augru ? 1.f - scr[p.att + n] : 1.f, ue = keep * u;
        const float due = dh * (hp - o);
        if (p.augru) bs[p.datt_part + e] = -due * u;
        dg[0] = due * keep * u * (1.f - u);
        const float dgo = dh * (1.f - ue) * (1.f - o * o);
        dg[2 * H] = dgo;
        bs[p.dh_prev + n * p.DIC + j] = dh * ue;
        if (p.cell == CELL_LBR) {
            const float r = g[H], hu = ws[p.hu + e];
            dg[H] = dgo * hu * r * (1.f - r);
            bs[p.dhu + e] = dgo * r;
        }
    }
}

// GRU backward, second half: dr from the gradient of r * hprev, and its part of dh_{t-1}.
kernel void rnn_bwd_gru_gates(const global float *ws, global float *bs, const global float *scr,
        step_params_t p) {
    const long j = get_global_id(0), n = get_global_id(1);
    if (j >= p.H || n >= p.N) return;
    const long H = p.H, GC = p.G * H, e = n * H + j;
    const float r = ws[p.gates + n * GC + H + j], hp = ws[p.hprev + n * p.DIC + j];
    const float drh = bs[p.drh + e];
    bs[p.dg + n * GC + H + j] = drh * hp * r * (1.f - r);
    bs[p.dh_prev + n * p.DIC + j] += drh * r;
}

// out[n] += sum_j part[n, j] (the attention gradient of one step). One work-item per row.
kernel void rnn_row_sums(global float *bs, long part, long out, long N, long H) {
    const long n = get_global_id(0);
    if (n >= N) return;
    float s = 0.f;
    for (long j = 0; j < H; ++j) s += bs[part + n * H + j];
    bs[out + n] += s;
}

// Mirrors sums_params_t of gpu/rnn/rnn.hpp.
typedef struct {
    long rows, cols; // columns summed over rows
    long a_off, a_ld; // a(r, col) at a_off + r * a_ld + col
    long b_off, b_ld; // optional factor b(r, col) (peephole: the cell states)
    long out_off, out_sg, out_sj, H; // out column col = g * H + j at out_off + g*sg + j*sj
    int with_b, pad;
} sums_params_t;

// out(col) += sum_r a(r, col) (* b(r, col)): bias and peephole gradients, one work-item per
// column.
kernel void rnn_column_sums(const global float *a, const global float *b, global float *out,
        sums_params_t p) {
    const long col = get_global_id(0);
    if (col >= p.cols) return;
    float s = 0.f;
    for (long r = 0; r < p.rows; ++r) {
        const float x = a[p.a_off + r * p.a_ld + col];
        s += p.with_b ? x * b[p.b_off + r * p.b_ld + col] : x;
    }
    out[p.out_off + col / p.H * p.out_sg + col % p.H * p.out_sj] += s;
}
