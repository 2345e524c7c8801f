#!/usr/bin/env python3
# The timed LSTM row of gpu_vs_torch.py (f32, 50 steps, mb64, 512 channels, FWD_I) under
# several ANYDNN_GPU_TUNING variants in one process: PyTorch (cuDNN, TF32 off) is timed before
# and after our variants, the ratio takes the lower of its two medians. Prints
#   ROW|lstm f32 t50 mb64 512 FWD_I [variant]|impl|ours ms|torch ms|ratio
# Usage: python3 lstm2_rows.py --bin DIR VARIANT...   ("" is the table as built)
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_vs_torch as g  # noqa: E402 (beside this file)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', default=g.HERE)
    ap.add_argument('--max-ms', type=int, default=1000)
    ap.add_argument('variants', nargs='*', default=[''])
    a = ap.parse_args()
    name, args, key = g.LSTM[0]
    torch = g.Torch()
    print('GPU|' + torch.name(), flush=True)
    theirs = [torch.case(key)]
    rows = []
    for v in a.variants:
        out = g.benchdnn(a.bin, args, max_ms=a.max_ms, extra_env={'ANYDNN_GPU_TUNING': v})
        m = re.search(r'^PERF\|([^|]*)\|([0-9.eE+-]+)\|', out, re.M)
        if m:
            rows.append((v, m.group(1), float(m.group(2)), ''))
        else:
            last = [l for l in out.splitlines() if l.strip()][-2:]
            rows.append((v, '-', None, ' / '.join(last)[:200]))
    theirs.append(torch.case(key))
    best = min(theirs)
    for v, impl, ms, err in rows:
        ratio = f'{best / ms:.3f}' if ms else '-'
        ours = f'{ms:.4g}' if ms else '-'
        print(f'ROW|lstm {name} [{v or "table"}]|{impl}|{ours}|{best:.4g}|{ratio}|'
              f'torch {theirs[0]:.4g} then {theirs[1]:.4g} {err}'.rstrip(), flush=True)


if __name__ == '__main__':
    sys.exit(main())
