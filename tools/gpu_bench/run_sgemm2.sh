#!/bin/bash
# The strict f32 GEMM's sm_90a entries (sgemm_f32.cu built a second time with
# ANYDNN_SGEMM_SM90: 16-deep K slices in 3 or 4 stages past 48 KiB of shared memory, the next
# k's pieces read under this k's FMAs) against the table's sm_80 choice and PyTorch (cuBLAS /
# cuDNN, TF32 off), and 128x256p (sm_80, 8-deep slices, the same register pipelining: which
# part of a gain is the pipelining and which the deeper slices), in one device call of under
# 2 minutes:
# 1. correctness (benchdnn --mode=C, double-precision reference) of each new configuration
#    forced through ANYDNN_GPU_TUNING=sgemm:config=NAME: matmul with tails in M, N and K, A
#    and B transposed, batch broadcast, bias, scales, post-ops; convolutions through the
#    implicit GEMM and through Winograd (whose batched GEMMs run on the same kernels); the
#    Winograd GEMMs' new tile rule (256x128 for OC 128 and 256) on its own;
# 2. ROW lines: matmul f32 1024^3 .. 8192^3, the table's choice and each new configuration;
#    the Winograd 3x3 256@14, 128@28 and 64@56 mb64 convolutions, the table's tiles, the
#    earlier pick and the new configurations.
# Prepared with  tools/gpu_bench/prepare.sh build .dev-sgemm2  and run from the checkout's root:
#   D=.dev-sgemm2 bash .dev-sgemm2/run_sgemm2.sh
# Prints CHECK|name|pass/fail|detail and ROW|problem|impl [config]|ours ms|torch ms|ratio
# (PyTorch's time / ours); the whole output also goes to $OUT/run_sgemm2.log.
# SGEMM2_CONFIGS replaces the new configurations' list, SGEMM2_ROWS_ONLY=1 skips the checks.
D=${D:-.dev-int}
OUT=$(mkdir -p "${OUT:-/tmp}" && cd "${OUT:-/tmp}" && pwd)
export LD_LIBRARY_PATH=$PWD/$D${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export ANYDNN_OCL_DEVICE=${ANYDNN_OCL_DEVICE:-NVIDIA}
export SGEMM2_CONFIGS=${SGEMM2_CONFIGS:-128x256k16_sm90 128x256k16s4_sm90 256x128k16_sm90 128x128k16_sm90 128x256p}
cd "$D" || exit 1
timeout 115 python3 - 2>&1 <<'PY' | tee "$OUT/run_sgemm2.log"
import os, re, sys, time
sys.path.insert(0, '.')
import gpu_vs_torch as g

BIN = '.'
CONFIGS = os.environ['SGEMM2_CONFIGS'].split()
T0 = time.time()


def tuning(cfg):
    return {'ANYDNN_GPU_TUNING': f'sgemm:config={cfg}'} if cfg else {}


def check(name, args, env=None, want=None):
    # benchdnn --mode=C; pass when every problem passed and, with `want`, a dispatch line
    # names it (the forced configuration really ran).
    out = g.benchdnn(BIN, args, mode='C', timeout=60,
                     extra_env=dict(env or {}, ONEDNN_VERBOSE='dispatch'))
    s = re.search(r'^tests:(\d+) passed:(\d+).*$', out, re.M)
    ok = s is not None and s.group(1) == s.group(2) and s.group(1) != '0'
    bad = re.findall(r'^\d+:(?:FAILED|MISTRUSTED|UNIMPLEMENTED).*$', out, re.M)
    tiles = sorted(set(re.findall(r'sgemm_ptx ([0-9]+x[0-9a-z_]+)', out)))
    ran = want is None or want in tiles
    detail = (s.group(0) if s else out[-200:].replace('\n', ' / ')) + f' tiles: {",".join(tiles)}'
    if bad:
        detail += ' | ' + bad[0][:160]
    print(f'CHECK|{name}|{"pass" if ok and not bad and ran else "fail"}|{detail}', flush=True)


MATMUL = ('--matmul --dt=f32 --stag=ab,ba --wtag=ab,ba --dtag=ab 1x1:1x1 129x67:67x131 '
          '513x257:257x1023 17x1000:1000x300 260x36:36x1030 --bia-dt=f32 200x96:96x72 '
          '--bia-dt=undef --attr-post-ops=sum+relu 130x72:72x260 --attr-post-ops=gelu_erf '
          '131x40:40x70 --attr-post-ops= --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 '
          '131x40:40x70 --attr-scales= --stag=any --wtag=any --dtag=any 3x33x47:3x47x29 '
          '2x3x65x17:1x1x17x129 2x300x200:2x200x520')
CONV = ('--conv --dt=f32 mb2ic64ih14oc64oh14kh3ph1 mb3ic24ih15oc40oh8kh3sh2ph1 '
        'mb2ic13ih11iw9oc70kh3kw2sh1sw2ph1pw0dh1 g2mb2ic16ih9oc24oh9kh3ph1 '
        '--attr-post-ops=sum+relu mb2ic19ih13oc300kh3sh2ph1')
WINO = ('--alg=wino --attr-post-ops= mb2ic16ih9oc24oh9kh3ph1 mb2ic300ih14oc260oh14kh3ph1 '
        'mb4ic64ih13oc128oh13kh3ph1 mb2ic256ih14oc256oh14kh3ph1 --attr-post-ops=sum+relu '
        'mb2ic40ih10oc136oh10kh3ph1')
if os.environ.get('SGEMM2_ROWS_ONLY') != '1':
    for cfg in CONFIGS:
        check(f'matmul f32 [{cfg}]', MATMUL, tuning(cfg), want=cfg)
        check(f'conv implicit + wino f32 [{cfg}]', CONV + ' ' + WINO, tuning(cfg), want=cfg)
    # The Winograd GEMMs' tile rule: OC 256 and 128 take 256x128 where its blocks fill the
    # compute units (1176 and 2352 tiles here; few IC keeps the reference quick), 64 the
    # size's pick.
    check('wino OC 256 table tiles', '--conv --dt=f32 --alg=wino mb24ic16ih14oc256oh14kh3ph1',
          want='256x128')
    check('wino OC 128 table tiles', '--conv --dt=f32 --alg=wino mb12ic16ih28oc128oh28kh3ph1',
          want='256x128')
    check('wino 3x3 64@56 table tiles', '--conv --dt=f32 --alg=wino mb2ic64ih56oc64oh56kh3ph1')
    print(f'=== checks done in {time.time() - T0:.0f} s', flush=True)

torch = g.Torch()
torch.budget_s = 0.4
print(f'GPU|{torch.name()}', flush=True)
rows = []  # (label, torch key, benchdnn args, tuning config)


def matmul_rows(sizes):
    for n in sizes:
        for cfg in [''] + CONFIGS:
            rows.append((f'f32 {n}^3', ('mm', 'f32', n, n, n),
                         f'--matmul --dt=f32 --stag=ab --wtag=ab --dtag=ab {n}x{n}:{n}x{n}', cfg))


# The goal's sizes first (rows past the time budget are skipped, not cut).
matmul_rows((4096, 8192))
# Winograd: the table's tiles (now 256x128 for OC 128 and 256), the size's earlier pick,
# the new configurations; alg=auto is what users get.
for name, c, h, old in (('3x3 256@14', 256, 14, '64x64'), ('3x3 128@28', 128, 28, '128x128'),
                        ('3x3 64@56', 64, 56, '')):
    prb = f'mb64ic{c}ih{h}oc{c}oh{h}kh3ph1'
    key = ('conv', 'f32', 64, c, h, c, 3, 1, 1)
    rows.append((f'conv f32 {name} alg=auto', key, f'--conv --dt=f32 --alg=auto {prb}', ''))
    # OC 64: the size's pick (128x64) stays; the new tiles are 128 or 256 wide.
    for cfg in ([old] if old else []) + (CONFIGS[:3] if c > 64 else []):
        rows.append((f'conv f32 {name} wino', key, f'--conv --dt=f32 --alg=wino {prb}', cfg))
matmul_rows((1024, 2048))
theirs = {}
for label, key, args, cfg in rows:
    if time.time() - T0 > 105:
        print(f'ROW|{label}|skipped [{cfg or "table"}]|-|-|-', flush=True)
        continue
    # No verbose here (a line per launch would weigh on the small sizes' times): the checks
    # above show which tiles each setting runs.
    out = g.benchdnn(BIN, args, extra_env=tuning(cfg), max_ms=150, timeout=30)
    m = re.search(r'^PERF\|([^|]*)\|([0-9.eE+-]+)\|', out, re.M)
    if key not in theirs:
        theirs[key] = torch.case(key)
    t = theirs[key]
    impl = f'{m.group(1) if m else "-"} [{cfg or "table"}]'
    if not m:
        last = out.strip().splitlines()[-1][:160] if out.strip() else ''
        print(f'ROW|{label}|{impl}|-|{t:.4f}|-|{last}', flush=True)
        continue
    ms = float(m.group(2))
    print(f'ROW|{label}|{impl}|{ms:.4f}|{t:.4f}|{t / ms:.3f}', flush=True)
print(f'=== done in {time.time() - T0:.0f} s', flush=True)
PY
