#!/usr/bin/env python3
# Resampling (ocl:resampling:dense) and batch norm on nChw16c (ocl:bnorm:flat, blocked) against
# PyTorch on the same GPU, in gpu_vs_torch.py's ROW format:
#   python3 rows_bwb.py --bin DIR [--only REGEX (the rows whose names it matches)]
# Resampling: 2x upsampling 64x256x64x64 -> 64x256x128x128 (dst 1 GiB f32), nearest (PyTorch
# 'nearest-exact': the same half-pixel rule) and bilinear (align_corners=False), forward and
# backward, f32 and bf16, NCHW. Batch norm: nChw16c 64x256x128x128 against PyTorch's NCHW
# (PyTorch has no blocked layout; NCHW is the anchor), FWD_I (f32, bf16), FWD_D and BWD_DW (f32).
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gpu_vs_torch as gvt  # noqa: E402
import rows_bandwidth as rb  # noqa: E402

PERF_MS = 300
NCHW = (64, 256, 128, 128)
SRC = (64, 256, 64, 64)


def rows():
    r = []
    prb = 'mb64ic256ih64iw64oh128ow128'
    for dt in ('f32', 'bf16'):
        for alg, mode in (('nearest', 'nearest-exact'), ('linear', 'bilinear')):
            for d in ('FWD_D', 'BWD_D'):
                r.append((f'{dt} resampling {alg} 2x {d} nchw 64x256x64x64->128x128',
                          f'--resampling --dir={d} --alg={alg} --dt={dt} --tag=abx {prb}',
                          ('resample', dt, mode, d == 'BWD_D')))
    nchw = 'mb%dic%dih%diw%d' % NCHW
    for dt in ('f32', 'bf16'):
        r.append((f'{dt} batch norm FWD_I G+scale+shift nChw16c 64x256x128x128',
                  f'--bnorm --dir=FWD_I --flags=GCH --dt={dt} --tag=aBx16b {nchw}',
                  ('bnorm', dt, NCHW, False, False)))
    r += [
        ('f32 batch norm FWD_D nChw16c 64x256x128x128',
         f'--bnorm --dir=FWD_D --flags=CH --tag=aBx16b {nchw}', ('bnorm', 'f32', NCHW, True, False)),
        ('f32 batch norm BWD_DW nChw16c 64x256x128x128',
         f'--bnorm --dir=BWD_DW --flags=CH --tag=aBx16b {nchw}', ('bnorm_bwd', 'f32', NCHW, False)),
    ]
    return r


def torch_ms(tb, key):
    if key[0] != 'resample':
        return rb.torch_case(tb, key)
    t = tb.t
    F = t.nn.functional
    tb.budget_s = 0.3
    _, dt, mode, bwd = key
    x = tb.rnd(*SRC, dt=dt)
    kw = {} if mode == 'nearest-exact' else {'align_corners': False}
    if not bwd:
        with t.no_grad():
            return tb.time_ms(lambda: F.interpolate(x, scale_factor=2, mode=mode, **kw))
    x.requires_grad_(True)
    y = F.interpolate(x, scale_factor=2, mode=mode, **kw)
    g = t.randn_like(y)
    return tb.time_ms(lambda: t.autograd.grad(y, x, g, retain_graph=True))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', default=HERE)
    ap.add_argument('--only', default='', help='a regular expression: the rows whose names match')
    a = ap.parse_args()
    torch = gvt.Torch()
    print('GPU|' + torch.name(), flush=True)
    for name, args, key in rows():
        if not re.search(a.only, name):
            continue
        impl, ms, err = gvt.ours(a.bin, args, PERF_MS)
        try:
            theirs = torch_ms(torch, key)
        except Exception as ex:  # report and go on
            theirs, err = None, f'{err} torch failed: {type(ex).__name__}: {ex}'
        ratio = f'{theirs / ms:.3f}' if ms and theirs else '-'
        fmt = lambda v: f'{v:.4g}' if v else '-'
        print(f'ROW|bwb|{name}|{impl}|{fmt(ms)}|{fmt(theirs)}|{ratio}|{err.strip()}', flush=True)


if __name__ == '__main__':
    sys.exit(main())
