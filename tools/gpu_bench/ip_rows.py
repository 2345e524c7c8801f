#!/usr/bin/env python3
# Timed rows of run_ip.sh: inner product mb256 4096 -> 4096 bf16 (FWD_I, BWD_D, BWD_W) on the
# GEMM core's wgmma kernels under the tuning table, then under the candidates of SWEEP
# (ANYDNN_GPU_TUNING "wgmma" sections: the TMA kernels, 128 x 256, 128 x 128 and 64 x 128
# tiles, K split or whole, the "o" forms that load the next tile during the epilogue), each beside PyTorch
# (TF32 and reduced-precision reductions off); the bf16 matmuls of 256 and 128 rows (the
# matmul's own choice, for comparison; 128 rows under the narrow TMA candidates too). With
# --no-sweep, the table alone and the f16 rows.
# Prints ROW|problem|impl|ours ms|torch ms|ratio|tuning lines (ratio = torch / ours).
# Usage: python3 D/ip_rows.py [--bin D] [--no-sweep]
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ipgemv_rows as ig  # noqa: E402 (beside this file: torch_ip, torch_mm, row, IP, MM)

# Forward and backward data are 256 x 4096 x 4096 (64-row tiles, K whole, in the table before
# this sweep); backward weights 4096 x 4096 x 256 (128 x 256 tiles fill the GPU).
NARROW = ['wgmma:config=tma_256x64s4,splits=4', 'wgmma:config=tma_256x64s4o,splits=4',
          'wgmma:config=tma_128x64s6,splits=2', 'wgmma:config=tma_128x64s6o,splits=2',
          'wgmma:config=tma_m64_128x64s8,splits=1',
          'wgmma:config=tma_m64_128x64s8o,splits=1']
SWEEP = {'FWD_I': NARROW, 'BWD_D': NARROW,
         'BWD_W': ['wgmma:tma=0', 'wgmma:config=tma_256x64s4o', 'wgmma:config=tma_128x64s6',
                   'wgmma:config=tma_128x64s6o']}

# The matmul of 128 rows (16 tiles of 128 x 256, 32 of 128 x 128), split as the table's narrow
# rule would split those tiles: which narrow TMA row the table may take for both.
MATMUL128 = ['wgmma:config=tma_256x64s4,splits=8', 'wgmma:config=tma_128x64s6,splits=4']


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument('--no-sweep', action='store_true')
    a = ap.parse_args()
    tt = ig.g.Torch()
    tt.budget_s = 0.3
    print('GPU|' + tt.name(), flush=True)
    for d in ('FWD_I', 'BWD_D', 'BWD_W'):
        theirs = ig.torch_ip(tt, 'bf16', d)
        name = f'ip bf16 mb256 4096->4096 {d}'
        args = ig.IP.format(dt='bf16', d=d)
        ig.row(a.bin, name, args, theirs)
        for v in [] if a.no_sweep else SWEEP[d]:
            ig.row(a.bin, name, args, theirs, v)
    for m in (256, 128):
        theirs = ig.torch_mm(tt, 'bf16', m, 4096, 4096)
        name = f'matmul bf16 {m}x4096x4096'
        args = ig.MM.format(dt='bf16', m=m, k=4096, n=4096)
        ig.row(a.bin, name, args, theirs)
        for v in [] if a.no_sweep or m != 128 else MATMUL128:
            ig.row(a.bin, name, args, theirs, v)
    if a.no_sweep:
        for d in ('FWD_I', 'BWD_D', 'BWD_W'):
            ig.row(a.bin, f'ip f16 mb256 4096->4096 {d}', ig.IP.format(dt='f16', d=d),
                   ig.torch_ip(tt, 'f16', d))
    return 0


if __name__ == '__main__':
    sys.exit(main())
