#!/usr/bin/env python3
# Timed rows of run_ipbf16.sh: inner product mb256 4096 -> 4096 (bf16 and f16; FWD_I, BWD_D,
# BWD_W) under the wgmma table's tiles and the 64-row / split-K candidates, and the f32 GEMV
# rows (1 x 4096 x 4096, 4 x 4096 x 4096, 1 x 4096 x 1024, inner product mb1) under the table
# (one-launch skinny shape for one wide row) and the K-split shape it had before, each beside
# PyTorch (TF32 and reduced-precision reductions off). Candidates: the CANDIDATES list below
# (ANYDNN_GPU_TUNING sections), shared with run_ipbf16.sh's checks.
# Prints ROW|problem|impl|ours ms|torch ms|ratio|tuning lines (ratio = torch / ours).
# Usage: python3 D/ipbf16_rows.py [--bin D] [--print-candidates]
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ipgemv_rows as ig  # noqa: E402 (beside this file: torch_ip, torch_mm, row)

# The wgmma core's candidates for the inner product beside the table's (128 x 128 tiles, BN 128
# and BK 64 in the name "128x64s4p1", K split 2 for FWD and BWD_D): 64-row tiles ("m64_", BN
# 64 or 128) unsplit and split 2, and 128 x 256 tiles split 4 (fewest bytes through L2).
CANDIDATES = ['wgmma:config=m64_64x64s4p1,splits=1', 'wgmma:config=m64_128x64s4p1,splits=1',
              'wgmma:config=m64_128x64s4p1,splits=2', 'wgmma:config=m64_64x64s4p1,splits=2',
              'wgmma:config=256x64s4p1,splits=4']
# IPBF16_CANDIDATES (';'-separated, may be empty) replaces the list: the table's rows alone.
if 'IPBF16_CANDIDATES' in os.environ:
    CANDIDATES = [c for c in os.environ['IPBF16_CANDIDATES'].split(';') if c]
# The skinny row the f32 GEMV of one row had before (K split into slices).
KSPLIT = 'variant=skinny,wg_m=8,wg_n=32,kt=256,stages=4'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument('--print-candidates', action='store_true')
    a = ap.parse_args()
    if a.print_candidates:
        print('\n'.join(CANDIDATES))
        return 0
    tt = ig.g.Torch()
    tt.budget_s = 0.3
    print('GPU|' + tt.name(), flush=True)
    for dt in ('bf16', 'f16'):
        for d in ('FWD_I', 'BWD_D', 'BWD_W'):
            theirs = ig.torch_ip(tt, dt, d)
            name = f'ip {dt} mb256 4096->4096 {d}'
            args = ig.IP.format(dt=dt, d=d)
            ig.row(a.bin, name, args, theirs)
            for v in CANDIDATES if dt == 'bf16' else CANDIDATES[:2]:
                ig.row(a.bin, name, args, theirs, v)
    for m, k, n in ((1, 4096, 4096), (4, 4096, 4096), (1, 4096, 1024)):
        theirs = ig.torch_mm(tt, 'f32', m, k, n)
        name = f'matmul f32 {m}x{k}x{n}'
        args = ig.MM.format(dt='f32', m=m, k=k, n=n)
        ig.row(a.bin, name, args, theirs)
        if m == 1:
            ig.row(a.bin, name, args, theirs, KSPLIT)
    # Inner product mb1 (B K-major: the weights' rows) under the same two shapes.
    x, w = tt.rnd(1, 4096, dt='f32'), tt.rnd(4096, 4096, dt='f32')
    theirs = tt.time_ms(lambda: tt.t.nn.functional.linear(x, w))
    args = '--ip --dt=f32 --dir=FWD_I mb1ic4096oc4096'
    ig.row(a.bin, 'ip f32 mb1 4096->4096 FWD_I', args, theirs)
    ig.row(a.bin, 'ip f32 mb1 4096->4096 FWD_I', args, theirs, KSPLIT)
    return 0


if __name__ == '__main__':
    sys.exit(main())
