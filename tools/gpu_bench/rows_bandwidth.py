# Memory-bound primitives (issue 15, item 1) for gpu_vs_torch.py: group "bw". Each row is one
# benchdnn problem (--engine=gpu --mode=P) next to the same operation in PyTorch on 1 GiB f32
# tensors (the bf16 rows keep the element count: 0.5 GiB), plus a plain copy as the bandwidth
# ceiling. CHECKS run the kernels these rows reach in benchdnn's correctness mode on small
# shapes with tails, odd widths and size-1 dimensions.
import os
import re

GROUP = 'bw'
PERF_MS = 300  # benchdnn --max-ms-per-prb for these rows (1 GiB each: many repetitions anyway)

N1G = 262144 * 1024  # f32 elements in 1 GiB
NCHW = (64, 256, 128, 128)  # 1 GiB f32 in four dimensions


def _nchw(d=NCHW):
    return 'mb%dic%dih%diw%d' % d


def _rows():
    rows = []
    for dt in ('f32', 'bf16'):
        t = f'--sdt={dt} --ddt={dt}'
        rows += [
            (f'{dt} copy 262144x1024 (reorder ab->ab)',
             f'--reorder {t} --stag=ab --dtag=ab 262144x1024', ('copy', dt, 262144, 1024)),
            (f'{dt} sum of 2 sources 262144x1024',
             f'--sum --sdt={dt}:{dt} --ddt={dt} --stag=ab:ab --dtag=ab 262144x1024',
             ('add', dt, (262144, 1024), (262144, 1024), False)),
            (f'{dt} batch norm FWD_I G+scale+shift nchw 64x256x128x128',
             f'--bnorm --dir=FWD_I --flags=GCH --dt={dt} --tag=abx {_nchw()}',
             ('bnorm', dt, NCHW, False, False)),
            (f'{dt} batch norm FWD_D (statistics) nchw 64x256x128x128',
             f'--bnorm --dir=FWD_D --flags=CH --dt={dt} --tag=abx {_nchw()}',
             ('bnorm', dt, NCHW, True, False)),
            (f'{dt} batch norm FWD_D (statistics) nhwc 64x256x128x128',
             f'--bnorm --dir=FWD_D --flags=CH --dt={dt} --tag=axb {_nchw()}',
             ('bnorm', dt, NCHW, True, True)),
            (f'{dt} softmax rows of 1024',
             f'--softmax {t} --axis=1 --stag=ab 262144x1024', ('softmax', dt, 262144, 1024, False)),
            (f'{dt} softmax rows of 4096',
             f'--softmax {t} --axis=1 --stag=ab 65536x4096', ('softmax', dt, 65536, 4096, False)),
            (f'{dt} layer norm 65536x4096 FWD_I scale+shift',
             f'--lnorm --dir=FWD_I --flags=CH --dt={dt} 65536x4096', ('lnorm', dt, 65536, 4096, False)),
            (f'{dt} RMS norm 65536x4096 FWD_I scale',
             f'--lnorm --dir=FWD_I --flags=CM --dt={dt} 65536x4096', ('lnorm', dt, 65536, 4096, True)),
            (f'{dt} relu 262144x1024', f'--eltwise --alg=relu --dt={dt} 262144x1024',
             ('relu', dt, 262144, 1024)),
            (f'{dt} add 262144x1024 + same',
             f'--binary --alg=ADD --sdt={dt}:{dt} --ddt={dt} 262144x1024:262144x1024',
             ('add', dt, (262144, 1024), (262144, 1024), False)),
            (f'{dt} reorder nchw->nhwc 64x256x128x128',
             f'--reorder {t} --stag=abcd --dtag=acdb 64x256x128x128', ('reorder', dt, NCHW)),
            (f'{dt} group norm FWD_I 32 groups nchw 64x256x128x128',
             f'--gnorm --dir=FWD_I --flags=CH --g=32 --dt={dt} {_nchw()}', ('gnorm', dt, NCHW, 32)),
            (f'{dt} max pool 3x3 s2 nchw 64x256x128x128',
             f'--pool --alg=max --dir=FWD_I --dt={dt} --tag=abx mb64ic256ih128iw128kh3kw3sh2sw2ph1pw1',
             ('maxpool', dt, NCHW, 3, 2, 1)),
            (f'{dt} max pool 3x3 s2 BWD_D nchw 64x256x128x128',
             f'--pool --alg=max --dir=BWD_D --dt={dt} --tag=abx mb64ic256ih128iw128kh3kw3sh2sw2ph1pw1',
             ('pool_bwd', dt, NCHW, 3, 2, 1, 'max')),
            (f'{dt} avg pool 3x3 s2 BWD_D nchw 64x256x128x128',
             f'--pool --alg=avg_p --dir=BWD_D --dt={dt} --tag=abx mb64ic256ih128iw128kh3kw3sh2sw2ph1pw1',
             ('pool_bwd', dt, NCHW, 3, 2, 1, 'avg')),
            (f'{dt} softmax BWD_D rows of 4096',
             f'--softmax --dir=BWD_D {t} --axis=1 --stag=ab 65536x4096',
             ('softmax_bwd', dt, 65536, 4096)),
            (f'{dt} add nchw + per-channel 1x256x1x1',
             f'--binary --alg=ADD --sdt={dt}:{dt} --ddt={dt} --stag=abcd:abcd 64x256x128x128:1x256x1x1',
             ('add', dt, NCHW, (1, 256, 1, 1), False)),
        ]
    rows += [
        ('f32 softmax rows of 32768', '--softmax --axis=1 --stag=ab 8192x32768',
         ('softmax', 'f32', 8192, 32768, False)),
        ('f32 logsoftmax rows of 4096', '--softmax --alg=LOGSOFTMAX --axis=1 --stag=ab 65536x4096',
         ('softmax', 'f32', 65536, 4096, True)),
        ('f32 add nhwc + per-channel 1x256x1x1',
         '--binary --alg=ADD --stag=acdb:acdb 64x256x128x128:1x256x1x1',
         ('add', 'f32', NCHW, (1, 256, 1, 1), True)),
        ('f32 batch norm BWD_DW nchw 64x256x128x128',
         f'--bnorm --dir=BWD_DW --flags=CH --tag=abx {_nchw()}', ('bnorm_bwd', 'f32', NCHW, False)),
        ('f32 batch norm BWD_DW nhwc 64x256x128x128',
         f'--bnorm --dir=BWD_DW --flags=CH --tag=axb {_nchw()}', ('bnorm_bwd', 'f32', NCHW, True)),
        ('f32 layer norm BWD_DW 65536x4096', '--lnorm --dir=BWD_DW --flags=CH 65536x4096',
         ('lnorm_bwd', 'f32', 65536, 4096)),
    ]
    return rows


# BW_ROWS / BW_CHECKS (regular expressions, searched in the row's name / the check's
# arguments) keep a subset, e.g. to measure again only what changed.
ROWS = [r for r in _rows() if re.search(os.environ.get('BW_ROWS', ''), r[0])]

CHECKS = [
    '--bnorm --dir=FWD_D,FWD_I,BWD_DW --flags=,G,CH,GCH,CHR --tag=abx,axb --dt=f32,bf16 '
    'mb4ic32ih13iw13 mb2ic20ih8iw8 mb3ic5ih7iw3 mb8ic64ih1iw1 mb1ic1ih1iw1',
    '--bnorm --dir=FWD_D,BWD_DW --flags=CH --tag=abx,axb mb16ic64ih56iw56',
    '--softmax --alg=SOFTMAX,LOGSOFTMAX --sdt=f32,bf16 --ddt=f32,bf16 --axis=1 --stag=ab '
    '100x1024 64x4096 3x32768 7x33 5x32 2x50000 1x1',
    '--softmax --sdt=f32 --ddt=f32 --attr-scales=src:common:2+dst:common:0.5 --axis=2 --stag=abc 3x5x1000',
    '--lnorm --dir=FWD_D,FWD_I --flags=,CH,GCH,M,CM --dt=f32,bf16 100x4096 7x33 3x1024 2x32768 1x1',
    '--lnorm --dir=BWD_DW,BWD_D --flags=,CH,GCH,CM --dt=f32,bf16 100x4096 7x33 3x1024 2x32768 1x1 0x8',
    '--reorder --sdt=f32,bf16 --ddt=f32,bf16,s8 --stag=ab --dtag=ab 1000x1027 1x3 64x64',
    '--eltwise --alg=relu,gelu_tanh --dt=f32,bf16 1000x1027 512x1024 1x3',
    '--sum --sdt=f32:f32,bf16:bf16,bf16:f32:s8 --ddt=f32,bf16 --stag=ab:ab --dtag=ab 1000x1027 1x3 64x64',
    '--binary --alg=ADD,MUL --sdt=f32:f32,bf16:bf16 --ddt=f32,bf16 --stag=abcd:abcd,acdb:acdb '
    '4x32x13x13:1x32x1x1 4x32x13x13:4x32x13x13 4x32x13x13:1x1x1x1 4x32x13x13:1x1x13x13 3x5x7x9:3x1x7x1',
    '--pool --dir=FWD_D,FWD_I --alg=max,avg_p,avg_np --tag=abx,axb --dt=f32,bf16 '
    'mb2ic19ih9iw9kh3kw3sh2sw2ph1pw1 mb3ic5id4ih5iw4kd2kh3kw2sd2sh1sw2 mb1ic1iw7kw3sw1pw1 '
    'mb2ic3ih6iw6kh2kw2sh2sw2dh1dw1',
    '--pool --dir=BWD_D --alg=max,avg_p,avg_np --tag=abx,axb --dt=f32,bf16 '
    'mb2ic19ih9iw9kh3kw3sh2sw2ph1pw1 mb3ic5id4ih5iw4kd2kh3kw2sd2sh1sw2 mb1ic1iw7kw3sw1pw1 '
    'mb2ic3ih6iw6kh2kw2sh2sw2dh1dw1',
    '--softmax --dir=BWD_D --alg=SOFTMAX,LOGSOFTMAX --sdt=f32,bf16 --ddt=f32,bf16 --axis=1 '
    '--stag=ab 100x1024 64x4096 3x32768 7x33 1x1',
    '--gnorm --dir=FWD_D,FWD_I --flags=,CH,G,GCH --g=4 --tag=abx --dt=f32,bf16 '
    'mb2ic16ih5iw4 mb3ic32ih3iw3 mb1ic8ih1iw1',
]
CHECKS = [c for c in CHECKS if re.search(os.environ.get('BW_CHECKS', ''), c)]


def torch_case(tb, key):
    """PyTorch time (ms) of row `key`; tb is gpu_vs_torch.Torch (time_ms, rnd, dt)."""
    t = tb.t
    F = t.nn.functional
    tb.budget_s = 0.3
    kind, dt = key[0], key[1]
    tdt = tb.dt[dt]
    dev = tb.dev

    def params(c):
        return (t.randn(c, device=dev), t.randn(c, device=dev))

    with t.no_grad():
        if kind == 'copy':
            x, y = tb.rnd(key[2], key[3], dt=dt), tb.rnd(key[2], key[3], dt=dt)
            return tb.time_ms(lambda: y.copy_(x))
        if kind == 'relu':
            x, y = tb.rnd(key[2], key[3], dt=dt), tb.rnd(key[2], key[3], dt=dt)
            return tb.time_ms(lambda: t.clamp_min(x, 0, out=y))
        if kind == 'add':
            _, _, s0, s1, cl = key
            fmt = t.channels_last if cl else t.contiguous_format
            a = tb.rnd(*s0, dt=dt).contiguous(memory_format=fmt) if cl else tb.rnd(*s0, dt=dt)
            b = tb.rnd(*s1, dt=dt)
            c = t.empty_like(a)
            return tb.time_ms(lambda: t.add(a, b, out=c))
        if kind == 'reorder':
            x = tb.rnd(*key[2], dt=dt)
            y = t.empty_like(x).contiguous(memory_format=t.channels_last)
            return tb.time_ms(lambda: y.copy_(x))
        if kind == 'softmax':
            _, _, rows, c, log = key
            x = tb.rnd(rows, c, dt=dt)
            f = t.log_softmax if log else t.softmax
            return tb.time_ms(lambda: f(x, dim=-1))
        if kind == 'lnorm':
            _, _, rows, c, rms = key
            x = tb.rnd(rows, c, dt=dt)
            w, b = (p.to(tdt) for p in params(c))
            if rms:
                return tb.time_ms(lambda: F.rms_norm(x, (c,), w, 1e-5))
            return tb.time_ms(lambda: F.layer_norm(x, (c,), w, b, 1e-5))
        if kind == 'bnorm':
            _, _, shape, training, cl = key
            x = tb.rnd(*shape, dt=dt)
            if cl:
                x = x.contiguous(memory_format=t.channels_last)
            c = shape[1]
            w, b = params(c)
            rm, rv = t.zeros(c, device=dev), t.ones(c, device=dev)
            return tb.time_ms(lambda: F.batch_norm(x, rm, rv, w, b, training, 0.1, 1e-5))
    if kind == 'bnorm_bwd':
        _, _, shape, cl = key
        x = tb.rnd(*shape, dt=dt)
        if cl:
            x = x.contiguous(memory_format=t.channels_last)
        g = t.randn_like(x)
        c = shape[1]
        w, b = params(c)
        rm, rv = t.zeros(c, device=dev), t.ones(c, device=dev)
        _, sm, si = t.ops.aten.native_batch_norm(x, w, b, rm, rv, True, 0.1, 1e-5)
        return tb.time_ms(lambda: t.ops.aten.native_batch_norm_backward(
            g, x, w, rm, rv, sm, si, True, 1e-5, [True, True, True]))
    if kind == 'lnorm_bwd':
        _, _, rows, c = key
        x = tb.rnd(rows, c, dt=dt)
        g = t.randn_like(x)
        w, b = params(c)
        _, m, rstd = t.ops.aten.native_layer_norm(x, [c], w, b, 1e-5)
        return tb.time_ms(lambda: t.ops.aten.native_layer_norm_backward(
            g, x, [c], m, rstd, w, b, [True, True, True]))
    if kind == 'pool_bwd':
        _, _, shape, k, st, p, alg = key
        x = tb.rnd(*shape, dt=dt)
        if alg == 'max':
            y, idx = F.max_pool2d(x, k, st, p, return_indices=True)
            g = t.randn_like(y)
            return tb.time_ms(lambda: t.ops.aten.max_pool2d_with_indices_backward(
                g, x, [k, k], [st, st], [p, p], [1, 1], False, idx))
        g = t.randn_like(F.avg_pool2d(x, k, st, p))
        return tb.time_ms(lambda: t.ops.aten.avg_pool2d_backward(
            g, x, [k, k], [st, st], [p, p], False, True, None))
    if kind == 'softmax_bwd':
        _, _, rows, c = key
        y = t.softmax(tb.rnd(rows, c, dt=dt), dim=-1)
        g = t.randn_like(y)
        return tb.time_ms(lambda: t.ops.aten._softmax_backward_data(g, y, -1, tdt))
    with t.no_grad():
        if kind == 'gnorm':
            _, _, shape, groups = key
            x = tb.rnd(*shape, dt=dt)
            w, b = (p.to(tdt) for p in params(shape[1]))  # PyTorch wants one type
            return tb.time_ms(lambda: F.group_norm(x, groups, w, b, 1e-5))
        if kind == 'maxpool':
            _, _, shape, k, s, p = key
            x = tb.rnd(*shape, dt=dt)
            return tb.time_ms(lambda: F.max_pool2d(x, k, s, p))
    raise ValueError(key)
