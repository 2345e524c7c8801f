#!/usr/bin/env python3
# The SDPA training forward (the SoftMax's statistics fused with the rest) on an NVIDIA GPU,
# one device call: first the flash kernels' reference check (flash_variants_match_reference of
# tests/gpu/graph_ocl_sdpa_causal_test.cpp: every case as inference and as training forward,
# dst and statistics against a double-precision reference) under each variant that picks other
# entries, within a time budget; then the training forward bf16 b8 h32 s4096 d128 causal
# (tests/inputs/graph/perf/sdpa_bf16_b8h32s4096d128_causal_train.json) against PyTorch's flash
# attention forward that returns the logsumexp, and the inference case beside it. Prints
#   CHECK|variant|PASSED or FAILED|impls the graph compiled to (verbose) and how often|first failure
#   ROW|problem|our impl|ours ms|PyTorch ms|ratio|what PyTorch ran
# ratio = PyTorch's time / ours.
# Usage (GPU machine, after tools/gpu_bench/prepare.sh build .dev-int):
#   python3 .dev-int/sdpa_train.py [--bin .dev-int] [--check-budget 170] [--no-check]
import argparse
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gpu_vs_torch  # noqa: E402 (beside this file)
import rows_sdpa  # noqa: E402
import sdpa_flash  # noqa: E402

# Every entry that writes statistics: the default (pipelined wgmma for inference; its
# training forward takes the plain wgmma entry), mma.sync 4 warps (and head sizes 80, 96, 256
# and the f32 kernels under every variant), wgmma with P through shared memory, mma.sync 8
# warps and 4 warps of 32 rows.
CHECK_ORDER = ['pipe', 'w4', 'wgmma_ps', 'w8', 'w4x2']

ROWS = [  # problem, perf case, causal
    ('train fwd bf16 b8 h32 s4096 d128, causal', 'sdpa_bf16_b8h32s4096d128_causal_train', True),
    ('inference bf16 b8 h32 s4096 d128, causal', 'sdpa_bf16_b8h32s4096d128_causal', False),
]


TRAIN_KEY = ('sdpa', 'bf16', 8, 32, 32, 4096, 128, True, False, 'train')
INFERENCE_KEY = ('sdpa', 'bf16', 8, 32, 32, 4096, 128, True, False)


def torch_row_ms(torch, train):
    if train:
        return rows_sdpa.torch_train_ms(torch, TRAIN_KEY)
    return rows_sdpa.torch_ms(torch, INFERENCE_KEY), 'F.scaled_dot_product_attention(is_causal=True), no grad'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', default=HERE)
    ap.add_argument('--check-budget', type=float, default=170.0)
    ap.add_argument('--no-check', action='store_true')
    a = ap.parse_args()
    start = time.monotonic()
    if not a.no_check:
        for v in CHECK_ORDER:
            left = a.check_budget - (time.monotonic() - start)
            if left < 20:
                print(f'CHECK|{v}|NOT RUN|-|the check budget ({a.check_budget:.0f} s) is spent', flush=True)
                continue
            t0 = time.monotonic()
            sdpa_flash.check(a.bin, v, timeout=left)
            print(f'# {v}: {time.monotonic() - t0:.1f} s', flush=True)
    torch = gpu_vs_torch.Torch()
    print('GPU|' + torch.name(), flush=True)
    for name, case, train in ROWS:
        try:
            theirs, what = torch_row_ms(torch, train)
        except Exception as ex:  # noqa: BLE001 (report and go on)
            theirs, what = None, f'torch failed: {type(ex).__name__}: {ex}'[:200]
        impl, ms, err = sdpa_flash.ours(a.bin, 'pipe', '--graph --case=' + rows_sdpa.case_path(case))
        ratio = f'{theirs / ms:.3f}' if ms and theirs else '-'
        fmt = lambda x: f'{x:.4g}' if x else '-'
        print(f'ROW|{name}|{impl}|{fmt(ms)}|{fmt(theirs)}|{ratio}|{what}{" / " + err if err else ""}',
              flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
