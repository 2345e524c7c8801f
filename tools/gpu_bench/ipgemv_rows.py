#!/usr/bin/env python3
# Timed rows of run_ipgemv.sh: inner product mb256 4096 -> 4096 (bf16, f16; FWD_I, BWD_D, BWD_W,
# BWD_WB) on the wgmma core with its K split, and the GEMV / skinny matmuls (f32, bf16; M = 1,
# 2, 4, 8, 16), each beside PyTorch (TF32 and reduced-precision reductions off), then the same
# problems under other rows of the tuning table (ANYDNN_GPU_TUNING) to pick its defaults.
# Prints ROW|problem|impl|ours ms|torch ms|ratio|tuning lines (ratio = torch / ours).
# Usage: python3 D/ipgemv_rows.py [--bin D]
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_vs_torch as g  # noqa: E402 (beside this file)

IP = '--ip --dt={dt} --dir={d} mb256ic4096oc4096'
MM = '--matmul --dt={dt} --stag=ab --wtag=ab --dtag=ab {m}x{k}:{k}x{n}'


def torch_ip(tt, dt, d, mb=256, ic=4096, oc=4096):
    t, F = tt.t, tt.t.nn.functional
    x, w, dy = tt.rnd(mb, ic, dt=dt), tt.rnd(oc, ic, dt=dt), tt.rnd(mb, oc, dt=dt)
    if d == 'FWD_I':
        return tt.time_ms(lambda: F.linear(x, w))
    if d == 'BWD_D':
        return tt.time_ms(lambda: t.matmul(dy, w))
    if d == 'BWD_W':
        return tt.time_ms(lambda: t.matmul(dy.t(), x))
    return tt.time_ms(lambda: (t.matmul(dy.t(), x), dy.sum(0)))  # BWD_WB


def torch_mm(tt, dt, m, k, n):
    return tt.case(('mm', dt, m, k, n))


def row(bindir, name, args, theirs, tuning=''):
    if tuning:
        os.environ['ANYDNN_GPU_TUNING'] = tuning
    else:
        os.environ.pop('ANYDNN_GPU_TUNING', None)
    impl, ms, err = g.ours(bindir, args, max_ms=300)
    os.environ.pop('ANYDNN_GPU_TUNING', None)
    ratio = f'{theirs / ms:.3f}' if ms and theirs else '-'
    fmt = lambda v: f'{v:.4g}' if v else '-'
    print(f'ROW|{name}|{impl or "-"}|{fmt(ms)}|{fmt(theirs)}|{ratio}|{tuning or "table"} {err}'.rstrip(),
          flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', default=os.path.dirname(os.path.abspath(__file__)))
    a = ap.parse_args()
    tt = g.Torch()
    tt.budget_s = 0.3
    print('GPU|' + tt.name(), flush=True)

    # Inner product: the table's choice (K split 2 for FWD/BWD_D), then the tiles alone
    # (splits=1, the core before this change) and other splits.
    for dt in ('bf16', 'f16'):
        for d in ('FWD_I', 'BWD_D', 'BWD_W', 'BWD_WB') if dt == 'bf16' else ('FWD_I', 'BWD_D', 'BWD_W'):
            theirs = torch_ip(tt, dt, d)
            row(a.bin, f'ip {dt} mb256 4096->4096 {d}', IP.format(dt=dt, d=d), theirs)
            if dt == 'bf16' and d in ('FWD_I', 'BWD_D'):
                for v in ('wgmma:splits=1', 'wgmma:splits=4',
                          'wgmma:config=256x64s4p1,splits=4'):
                    row(a.bin, f'ip {dt} mb256 4096->4096 {d}', IP.format(dt=dt, d=d), theirs, v)
            if dt == 'bf16' and d == 'BWD_W':
                row(a.bin, f'ip {dt} mb256 4096->4096 {d}', IP.format(dt=dt, d=d), theirs,
                    'wgmma:config=128x64s4p1')

    # GEMV and skinny: M = 1, 2, 4 on the skinny kernel, 8 and 16 on the table's next rows.
    for dt in ('f32', 'bf16'):
        for m in (1, 2, 4, 8, 16):
            row(a.bin, f'matmul {dt} {m}x4096x4096', MM.format(dt=dt, m=m, k=4096, n=4096),
                torch_mm(tt, dt, m, 4096, 4096))
    theirs = torch_mm(tt, 'f32', 1, 8192, 8192)
    row(a.bin, 'matmul f32 1x8192x8192', MM.format(dt='f32', m=1, k=8192, n=8192), theirs)
    # The skinny row's shape for f32 1 x 4096 x 4096: fewer K slices (tn), none (kt large: one
    # launch, no slice-sum pass) with narrower work-groups of more K lanes, more loads in flight.
    theirs = torch_mm(tt, 'f32', 1, 4096, 4096)
    for v in ('variant=skinny,tn=1', 'variant=skinny,tn=2',
              'variant=skinny,wg_m=32,wg_n=8,kt=100000',
              'variant=skinny,wg_m=32,wg_n=8,kt=100000,stages=8',
              'variant=skinny,wg_m=64,wg_n=4,kt=100000,stages=8',
              'variant=skinny,wg_m=32,wg_n=8,tn=2,stages=8',
              'variant=skinny,wg_m=16,wg_n=16,tn=2,stages=8'):
        row(a.bin, 'matmul f32 1x4096x4096', MM.format(dt='f32', m=1, k=4096, n=4096), theirs, v)
    theirs = torch_mm(tt, 'f32', 4, 4096, 4096)
    for v in ('variant=skinny,wg_m=32,wg_n=8,kt=100000,stages=8',
              'variant=skinny,wg_m=32,wg_n=8,tn=2,stages=8'):
        row(a.bin, 'matmul f32 4x4096x4096', MM.format(dt='f32', m=4, k=4096, n=4096), theirs, v)
    theirs = torch_mm(tt, 'f32', 1, 8192, 8192)
    row(a.bin, 'matmul f32 1x8192x8192', MM.format(dt='f32', m=1, k=8192, n=8192), theirs,
        'variant=skinny,wg_m=32,wg_n=8,kt=100000,stages=8')
    # 8 and 16 rows on the skinny kernel (the rows before change 4ff1c1e took up to 16).
    for m in (8, 16):
        for dt in ('f32', 'bf16'):
            row(a.bin, f'matmul {dt} {m}x4096x4096', MM.format(dt=dt, m=m, k=4096, n=4096),
                torch_mm(tt, dt, m, 4096, 4096), f'variant=skinny,tm={m}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
