#!/usr/bin/env python3
# The flash attention kernels on an NVIDIA GPU, one device call: each variant (chosen by the
# environment variables the library reads) first checked against the double-precision
# reference of tests/gpu/graph_ocl_sdpa_causal_test.cpp (flash_variants_match_reference:
# every type and head size, causal top-left and bottom-right, GQA, additive masks, odd
# lengths; each case also as the training forward, its softmax statistics checked), then
# the SDPA rows of rows_sdpa.py timed against PyTorch's SDPA. Prints
#   CHECK|variant|PASSED, FAILED or TIMEOUT|impls the graph compiled to (verbose) and how
#         often|first failure
#   ROW|sdpa|variant|problem|our impl|ours ms|PyTorch ms|ratio
# ratio = PyTorch's time / ours. f32 rows run for the first variant only (f32pf picks the f32
# kernel's one variant).
#
# Usage (GPU machine, after tools/gpu_bench/prepare.sh build .dev):
#   python3 .dev/sdpa_flash.py [--bin .dev] [--variants wgmma,pipe (or w4, w8, w4x2,
#                              wgmma_ps, f32pf, default)] [--no-check] [--no-rows] [--max-ms MS]
#                              [--rows 'PROBLEM;PROBLEM' (rows_sdpa.py's names; default all)]
#                              [--test GTEST_CASE (default flash_variants_match_reference)]
#                              [--timeout S (each check; default 150)]
import argparse
import collections
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gpu_vs_torch  # noqa: E402 (beside this file)
import rows_sdpa  # noqa: E402

# variant: environment. Where sm_90a PTX loads, head sizes 64 and 128 take the wgmma kernel
# unless ANYDNN_SDPA_FLASH_WGMMA=0 or ANYDNN_SDPA_FLASH_WARPS picks mma.sync entries; other
# head sizes stay on the mma.sync 4-warp entries.
VARIANTS = {
    'w4': {'ANYDNN_SDPA_FLASH_WGMMA': '0'},
    'w8': {'ANYDNN_SDPA_FLASH_WARPS': '8'},
    'w4x2': {'ANYDNN_SDPA_FLASH_WARPS': '4x2'},
    'wgmma': {'ANYDNN_SDPA_FLASH_WGMMA': '1'}, # not pipelined
    'wgmma_ps': {'ANYDNN_SDPA_FLASH_WGMMA': 'ps'}, # P through shared memory
    'pipe': {'ANYDNN_SDPA_FLASH_WGMMA': 'pipe'}, # the default: softmax overlapping the tensor cores
    'f32pf': {'ANYDNN_SDPA_FLASH_F32': 'pf'}, # f32 head size 64: K, V fetched during the compute
    'default': {}, # what the library picks unasked
}
TEST = 'graph_ocl_sdpa_causal_t.flash_variants_match_reference'


def env_for(bindir, variant):
    env = dict(os.environ)
    env['LD_LIBRARY_PATH'] = bindir + ':' + env.get('LD_LIBRARY_PATH', '')
    env.setdefault('ANYDNN_OCL_DEVICE', 'NVIDIA')
    env.update(VARIANTS[variant])
    return env


def check(bindir, variant, timeout=150, test=TEST):
    env = env_for(bindir, variant)
    env.update({'ANYDNN_SDPA_FLASH_CHECK': '1', 'ONEDNN_VERBOSE': 'create'})
    cmd = [os.path.join(bindir, 'anydnn_gpu_tests'), '--gtest_filter=' + test]
    try:
        r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
        out = r.stdout + r.stderr
    except subprocess.TimeoutExpired as ex:
        out = (ex.stdout or b'').decode(errors='replace') + '\nTIMEOUT'
    impls = collections.Counter(re.findall(r'(sdpa:ocl:[a-z0-9_]+)', out))
    state = 'PASSED' if re.search(r'^\[\s+PASSED\s+\] 1 test', out, re.M) else \
        'SKIPPED' if 'SKIPPED' in out else 'TIMEOUT' if out.endswith('TIMEOUT') else 'FAILED'
    first = ''
    if state != 'PASSED':
        bad = [l for l in out.splitlines() if 'Failure' in l or 'at ' in l or 'Trace' in l
               or 'B ' in l or 'TIMEOUT' in l]
        first = ' / '.join(bad[:6])[:600] or out[-600:].replace('\n', ' / ')
    used = ','.join(f'{k}={v}' for k, v in sorted(impls.items()))
    print(f'CHECK|{variant}|{state}|{used}|{first}', flush=True)
    return state == 'PASSED'


def ours(bindir, variant, args, max_ms=None):
    env = dict(VARIANTS[variant], ONEDNN_VERBOSE='create')
    out = gpu_vs_torch.benchdnn(bindir, args, extra_env=env,
                                max_ms=max_ms or getattr(rows_sdpa, 'PERF_MS', 1000))
    m = re.search(r'^PERF\|([^|]*)\|([0-9.eE+-]+)\|', out, re.M)
    if not m:
        return None, None, ' / '.join([l for l in out.splitlines() if l.strip()][-3:])[:200]
    kernels = sorted(set(re.findall(r'(sdpa:ocl:[a-z0-9_]+)', out))) # what the partition ran
    return ','.join(kernels) or m.group(1), float(m.group(2)), ''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', default=HERE)
    ap.add_argument('--variants', default='wgmma,pipe')
    ap.add_argument('--no-check', action='store_true')
    ap.add_argument('--no-rows', action='store_true')
    ap.add_argument('--rows', default='', help="the problems to time, ';'-separated")
    ap.add_argument('--test', default=TEST, help='the gtest case that checks (default: %(default)s)')
    ap.add_argument('--max-ms', type=int, default=None, help="benchdnn's time per row and variant")
    ap.add_argument('--timeout', type=int, default=150, help='seconds each check may take')
    a = ap.parse_args()
    variants = a.variants.split(',')
    if not a.no_check:
        for v in variants:
            check(a.bin, v, timeout=a.timeout, test=a.test)
    if a.no_rows:
        return 0
    torch = gpu_vs_torch.Torch()
    print('GPU|' + torch.name(), flush=True)
    only = [x for x in a.rows.split(';') if x]
    for name, args, key in rows_sdpa.ROWS:
        if only and name not in only:
            continue
        try:
            theirs = torch.case(key)
        except Exception as ex:  # report and go on
            theirs = None
            print(f'ROW|sdpa|-|{name}|-|-|-|-|torch failed: {type(ex).__name__}', flush=True)
        for v in variants:
            if key[1] == 'f32' and v != variants[0]:
                continue
            impl, ms, err = ours(a.bin, v, args, a.max_ms)
            ratio = f'{theirs / ms:.3f}' if ms and theirs else '-'
            fmt = lambda x: f'{x:.4g}' if x else '-'
            print(f'ROW|sdpa|{v}|{name}|{impl}|{fmt(ms)}|{fmt(theirs)}|{ratio}|{err}', flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
