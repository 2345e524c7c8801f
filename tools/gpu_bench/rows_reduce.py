# Dense reductions, softmax along a non-innermost axis and PReLU (issue 15, item 1) for
# gpu_vs_torch.py: group "bwr". Each row is one benchdnn problem (--engine=gpu --mode=P) next
# to the same operation in PyTorch on 1 GiB f32 tensors (bf16 rows keep the element count).
# CHECKS run those kernels in benchdnn's correctness mode on small shapes with tails.
import os
import re

GROUP = 'bwr'
PERF_MS = 300

NCHW = (64, 256, 128, 128)  # 1 GiB f32
ROWS2 = (262144, 1024)


def _rows():
    rows = []
    n, c, h, w = NCHW
    nchw = 'x'.join(str(v) for v in NCHW)
    for dt in ('f32', 'bf16'):
        t = f'--sdt={dt} --ddt={dt}'
        rows += [
            (f'{dt} reduction sum innermost 262144x1024 -> 262144x1',
             f'--reduction {t} --alg=sum --stag=ab --dtag=ab 262144x1024:262144x1',
             ('reduce', dt, ROWS2, (1,))),
            (f'{dt} reduction sum over N,H,W nchw 64x256x128x128 -> 1x256x1x1',
             f'--reduction {t} --alg=sum --stag=abcd --dtag=abcd {nchw}:1x{c}x1x1',
             ('reduce', dt, NCHW, (0, 2, 3))),
            (f'{dt} softmax axis 1 nchw 64x256x128x128',
             f'--softmax {t} --axis=1 --stag=abcd {nchw}', ('softmax_axis', dt, NCHW, False)),
            (f'{dt} prelu per-channel FWD nchw 64x256x128x128',
             f'--prelu --dir=FWD_D --sdt={dt}:{dt} --stag=abcd:abcd {nchw}:1x{c}x1x1',
             ('prelu', dt, NCHW)),
            (f'{dt} prelu per-channel BWD_DW nchw 64x256x128x128',
             f'--prelu --dir=BWD_DW --sdt={dt}:{dt} --stag=abcd:abcd {nchw}:1x{c}x1x1',
             ('prelu_bwd', dt, NCHW)),
        ]
    rows += [
        ('f32 reduction sum over N,H,W nhwc 64x256x128x128 -> 1x256x1x1',
         f'--reduction --alg=sum --stag=acdb --dtag=acdb {nchw}:1x{c}x1x1',
         ('reduce_cl', 'f32', NCHW, (0, 2, 3))),
        ('f32 logsoftmax axis 1 nchw 64x256x128x128',
         f'--softmax --alg=LOGSOFTMAX --axis=1 --stag=abcd {nchw}', ('softmax_axis', 'f32', NCHW, True)),
        ('f32 softmax BWD_D axis 1 nchw 64x256x128x128',
         f'--softmax --dir=BWD_D --axis=1 --stag=abcd {nchw}', ('softmax_axis_bwd', 'f32', NCHW)),
    ]
    return rows


ROWS = [r for r in _rows() if re.search(os.environ.get('BWR_ROWS', ''), r[0])]

CHECKS = [
    '--reduction --sdt=f32,bf16 --ddt=f32 --alg=sum,mean,max,min,mul,norm_lp_sum,'
    'norm_lp_power_p_max --p=2 --stag=abx '
    '7x37:7x1 3x1000:3x1 2x3x4099:2x3x1 3x5x7x9:1x5x1x1 2x3x33x40:1x3x1x1 4x6x130:1x6x130 4x6x130:4x1x130 '
    '2x3x517:1x1x1 1x1:1x1 64x256x9x9:1x256x1x1',
    '--reduction --alg=sum,max,norm_lp_max --p=1 --stag=axb --dtag=axb 3x5x7x9:1x5x1x1 '
    '16x64x9x9:1x64x1x1',
    '--reduction --alg=sum --attr-post-ops=linear:0.5:-1 --stag=abx 3x5x7x9:1x5x1x1',
    '--softmax --dir=FWD_D,BWD_D --alg=SOFTMAX,LOGSOFTMAX --sdt=f32,bf16 --ddt=f32,bf16 '
    '--axis=1 --stag=abcd 2x5x3x7 3x17x8x8 2x9x4x4 4x256x16x16 1x1x1x5',
    '--softmax --sdt=f32 --ddt=f32 --attr-scales=src:common:2+dst:common:0.5 --axis=1 '
    '--stag=abcd 3x40x5x8',
    '--prelu --dir=FWD_D,BWD_DW --sdt=f32:f32,bf16:bf16 --stag=abx:abx,axb:axb '
    '2x5x3x7:1x5x1x1 2x16x9x8:1x16x1x1 3x4x5x6:1x1x1x1 2x3x5x7:2x3x5x7 16x64x17x17:1x64x1x1',
]
CHECKS = [c for c in CHECKS if re.search(os.environ.get('BWR_CHECKS', ''), c)]


def torch_case(tb, key):
    """PyTorch time (ms) of row `key`; tb is gpu_vs_torch.Torch (time_ms, rnd, dt)."""
    t = tb.t
    tb.budget_s = 0.3
    kind, dt = key[0], key[1]
    tdt = tb.dt[dt]
    dev = tb.dev
    with t.no_grad():
        if kind in ('reduce', 'reduce_cl'):
            _, _, shape, axes = key
            x = tb.rnd(*shape, dt=dt)
            if kind == 'reduce_cl':
                x = x.contiguous(memory_format=t.channels_last)
            return tb.time_ms(lambda: t.sum(x, dim=axes, keepdim=True))
        if kind == 'softmax_axis':
            _, _, shape, log = key
            x = tb.rnd(*shape, dt=dt)
            f = t.log_softmax if log else t.softmax
            return tb.time_ms(lambda: f(x, dim=1))
        if kind == 'prelu':
            x = tb.rnd(*key[2], dt=dt)
            w = t.rand(key[2][1], device=dev).to(tdt)
            return tb.time_ms(lambda: t.nn.functional.prelu(x, w))
    if kind == 'softmax_axis_bwd':
        y = t.softmax(tb.rnd(*key[2], dt=dt), dim=1)
        g = t.randn_like(y)
        return tb.time_ms(lambda: t.ops.aten._softmax_backward_data(g, y, 1, tdt))
    if kind == 'prelu_bwd':
        # What autograd runs for F.prelu: the element-wise kernel, then the weights' sum.
        x = tb.rnd(*key[2], dt=dt)
        w = t.rand(key[2][1], 1, 1, device=dev).to(tdt)
        g = t.randn_like(x)

        def bwd():
            gi, gw = t.ops.aten._prelu_kernel_backward(g, x, w)
            return gi, gw.sum((0, 2, 3))
        return tb.time_ms(bwd)
    raise ValueError(key)
