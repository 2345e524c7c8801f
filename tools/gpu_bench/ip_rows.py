#!/usr/bin/env python3
# Timed rows of run_ip.sh, each beside PyTorch (TF32 and reduced-precision reductions off):
# the bf16 inner product mb256 4096 -> 4096 (FWD_I, BWD_D, BWD_W) on the GEMM core's wgmma
# kernels under the tuning table; the bf16 matmuls whose table rows the same change touches
# (128 x 4096 x 4096, 4096 x 4096 x 128, 256 x 4096 x 4096, 4096^3; M x K x N); then, unless
# --no-sweep, the forward and backward data under the CANDIDATES the table does not take yet
# (ANYDNN_GPU_TUNING "wgmma" sections), for the next choice.
# Prints ROW|problem|impl|ours ms|torch ms|ratio|tuning lines (ratio = torch / ours).
# Usage: python3 D/ip_rows.py [--bin D] [--no-sweep]
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ipgemv_rows as ig  # noqa: E402 (beside this file: torch_ip, torch_mm, row, IP, MM)

# Measured on the H200 (call 1 of this session), the table's TMA 128 x 128 tiles, K whole,
# were best; not yet timed: 64 x 128 TMA tiles K whole (128 CTAs, a quarter fewer bytes per
# SM, no slice pass), and the K splits again now that the slice sum reads four columns per
# thread. The matmul of 128 rows under the 64-row TMA tiles too (64 of them, K whole).
CANDIDATES = ['wgmma:config=tma_m64_128x64s8,splits=1', 'wgmma:config=tma_128x64s6,splits=2',
              'wgmma:config=tma_256x64s4,splits=4']
MATMULS = ((128, 4096, 4096), (4096, 4096, 128), (256, 4096, 4096), (4096, 4096, 4096))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument('--no-sweep', action='store_true')
    a = ap.parse_args()
    tt = ig.g.Torch()
    tt.budget_s = 0.3
    print('GPU|' + tt.name(), flush=True)
    theirs = {}
    for d in ('FWD_I', 'BWD_D', 'BWD_W'):
        theirs[d] = ig.torch_ip(tt, 'bf16', d)
        ig.row(a.bin, f'ip bf16 mb256 4096->4096 {d}', ig.IP.format(dt='bf16', d=d), theirs[d])
    for m, k, n in MATMULS:
        name, args = f'matmul bf16 {m}x{k}x{n}', ig.MM.format(dt='bf16', m=m, k=k, n=n)
        mm = ig.torch_mm(tt, 'bf16', m, k, n)
        ig.row(a.bin, name, args, mm)
        if m == 128 and not a.no_sweep:
            ig.row(a.bin, name, args, mm, CANDIDATES[0])
    for d in [] if a.no_sweep else ('FWD_I', 'BWD_D'):
        for v in CANDIDATES:
            ig.row(a.bin, f'ip bf16 mb256 4096->4096 {d}', ig.IP.format(dt='bf16', d=d),
                   theirs[d], v)
    return 0


if __name__ == '__main__':
    sys.exit(main())
