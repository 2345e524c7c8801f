#!/bin/bash
# The strict f32 1x1 convolution 256->64@56 mb64 (issue 14: 0.72 of cuDNN at 256x64k16_sm90)
# on an NVIDIA GPU loading sm_90a PTX, in one device call of under 2 minutes. The first call
# (H200) showed the same GEMM as a matmul without bias at 0.210 ms against the convolution's
# 0.263: benchdnn's convolutions run FWD_B, and a bias sent every output element through the
# kernels' finish(); the output stage now adds a per-column bias inline. Also measured: the
# configurations keeping K-major A as rows in shared memory (256x64r_sm90, 256x64rk32_sm90,
# 128x64r_sm90, 128x128r_sm90; forced only: slower than the table's tiles there on the 1x1)
# and their convolution entries, which gather whole pixels' quads in 16-byte copies.
# 1. correctness (benchdnn --mode=C, double-precision reference): convolutions (FWD_B, FWD_D
#    with sum+relu; 1x1 with IC 256, 64, 35, 17; OC 64, 24, 130, 72, 96; odd M; 3x3 with
#    IC 32, 64, 19, stride 2, groups) on the table's tiles and on each configuration forced
#    through ANYDNN_GPU_TUNING=sgemm:config=NAME; matmul with a bias per column and over
#    M x N, tails in M, N and K; matmul on 256x64r_sm90;
# 2. ROW lines against PyTorch (cuDNN / cuBLAS, TF32 off, gpu_vs_torch.py's conventions):
#    1x1 256->64@56 FWD_B (the table) and FWD_I, and on two rows configurations; the same GEMM
#    as a matmul without and with bias on 256x64k16_sm90; 3x3 64@56 direct (the table, two rows
#    configurations) and alg=auto; 7x7 s2; 3x3 256@14 alg=auto; 1x1 64->256@56.
# Prepared with  tools/gpu_bench/prepare.sh build .dev-c1x1  and run from the checkout's root:
#   D=.dev-c1x1 bash .dev-c1x1/run_c1x1.sh
# Prints CHECK|name|pass/fail|detail and ROW|problem|impl [config]|ours ms|torch ms|ratio
# (PyTorch's time / ours); the whole output also goes to $OUT/run_c1x1.log.
# C1X1_CONFIGS replaces the candidates' list, C1X1_ROWS_ONLY=1 skips the checks.
D=${D:-.dev-c1x1}
OUT=$(mkdir -p "${OUT:-/tmp}" && cd "${OUT:-/tmp}" && pwd)
export LD_LIBRARY_PATH=$PWD/$D${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export ANYDNN_OCL_DEVICE=${ANYDNN_OCL_DEVICE:-NVIDIA}
export C1X1_CONFIGS=${C1X1_CONFIGS:-256x64r_sm90 256x64rk32_sm90 128x64r_sm90 128x128r_sm90}
cd "$D" || exit 1
timeout 115 python3 - 2>&1 <<'PY' | tee "$OUT/run_c1x1.log"
import os, re, sys, time
sys.path.insert(0, '.')
import gpu_vs_torch as g

BIN = '.'
CONFIGS = os.environ['C1X1_CONFIGS'].split()
T0 = time.time()


def tuning(cfg):
    return {'ANYDNN_GPU_TUNING': f'sgemm:config={cfg}'} if cfg else {}


def check(name, args, env=None, want=None):
    # benchdnn --mode=C; pass when every problem passed and, with `want`, a dispatch line
    # names it (the forced configuration really ran).
    out = g.benchdnn(BIN, args, mode='C', timeout=40,
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


# K-major A (stag ab) with both B layouts; tails in M, N (24, 72, 130) and K (35, 33: rows
# not 4-float aligned, 4-byte copies); bias, scales, post-ops; M-major A (stag ba) falls back.
MATMUL = ('--matmul --dt=f32 --stag=ab --wtag=ab,ba --dtag=ab 1x1:1x1 129x67:67x131 '
          '520x64:64x72 257x35:35x24 300x256:256x130 77x33:33x64 --bia-dt=f32 200x96:96x72 '
          '--bia-dt=undef --attr-post-ops=sum+relu 130x72:72x260 --attr-post-ops= '
          '--attr-scales=src:common:0.5+wei:per_oc+dst:common:2 131x40:40x70 --attr-scales= '
          '--stag=ba --wtag=ab 129x67:67x131')
# 1x1 convolutions on src itself (gemm_nhwc): IC 256 / 64 (aligned rows), 35 and 17 (not),
# OC 64, 24, 130, 72, odd M; bias, sum+relu; 3x3 ones through the implicit GEMM, whose
# entries of these configurations gather whole pixels' quads (IC 32, 64: 16-byte copies;
# IC 19: k by k), stride 2, groups.
CONV = ('--conv --dt=f32 mb2ic256ih14oc64oh14kh1ph0 mb1ic35ih9oc24oh9kh1ph0 '
        'mb2ic64ih7oc130oh7kh1ph0 mb3ic17ih5oc72oh5kh1ph0 mb1ic256ih30oc64oh30kh1ph0 '
        'mb1ic64ih13oc64oh7kh3sh2ph1 g2mb2ic32ih10oc48oh10kh3ph1 '
        '--attr-post-ops=sum+relu mb2ic33ih9oc72oh9kh1ph0 mb1ic256ih11oc64oh11kh1ph0 '
        'mb2ic19ih11oc33oh11kh3ph1 '
        '--dir=FWD_B --attr-post-ops= mb2ic64ih14oc96oh14kh1ph0 mb2ic32ih9oc70oh9kh3ph1')
# Matmul with a bias per column (the output stage's inline bias) and one over M x N
# (bia_mask 3: finish()).
MATMUL_BIAS = ('--matmul --dt=f32 --stag=ab --wtag=ab,ba --dtag=ab --bia-dt=f32 '
               '520x64:64x72 257x35:35x24 300x256:256x130 --bia_mask=3 200x96:96x72 '
               '257x35:35x24')
if os.environ.get('C1X1_ROWS_ONLY') != '1':
    # The convolutions' default direction is FWD_B (bias): the table's tiles, then the
    # 1x1 and 3x3 rows' configurations forced; the rows entries' gathering convolutions.
    check('conv f32 [table]', CONV)
    for cfg in ['256x64k16_sm90', '128x64k16_sm90'] + CONFIGS:
        check(f'conv f32 [{cfg}]', CONV, tuning(cfg), want=cfg)
    for cfg in ['', '256x64k16_sm90']:
        check(f'matmul f32 bias [{cfg or "table"}]', MATMUL_BIAS, tuning(cfg), want=cfg or None)
    check('matmul f32 [256x64r_sm90]', MATMUL, tuning('256x64r_sm90'), want='256x64r_sm90')
    print(f'=== checks done in {time.time() - T0:.0f} s', flush=True)

torch = g.Torch()
torch.budget_s = 0.3
print(f'GPU|{torch.name()}', flush=True)
rows = []  # (label, torch key, benchdnn args, tuning config)
# benchdnn's convolutions run FWD_B (with bias) unless told otherwise; PyTorch's rows have no
# bias. FWD_I: the same without bias.
C1 = 'mb64ic256ih56oc64oh56kh1ph0'
K1 = ('conv', 'f32', 64, 256, 56, 64, 1, 1, 0)
rows.append(('conv f32 1x1 256->64@56', K1, f'--conv --dt=f32 {C1}', ''))
rows.append(('conv f32 1x1 256->64@56 FWD_I', K1, f'--conv --dt=f32 --dir=FWD_I {C1}', ''))
for cfg in ['256x64r_sm90', '128x64r_sm90']:
    rows.append(('conv f32 1x1 256->64@56', K1, f'--conv --dt=f32 {C1}', cfg))
# The same GEMM as a matmul (A K-major, B K-major as the weights), without and with bias.
MM = ('mm', 'f32', 200704, 256, 64)
for bias, name in (('', ''), ('--bia-dt=f32 ', ' bias')):
    rows.append((f'matmul f32 200704x256x64 A ab B ba{name}', MM,
                 f'--matmul --dt=f32 --stag=ab --wtag=ba --dtag=ab {bias}200704x256:256x64',
                 '256x64k16_sm90'))
K3 = ('conv', 'f32', 64, 64, 56, 64, 3, 1, 1)
for cfg in ['', '128x64r_sm90', '256x64r_sm90']:
    rows.append(('conv f32 3x3 64@56 direct', K3, '--conv --dt=f32 mb64ic64ih56oc64oh56kh3ph1',
                 cfg))
# The other f32 rows.
for label, key, args in (
        ('conv f32 3x3 64@56 alg=auto', K3,
         '--conv --dt=f32 --alg=auto mb64ic64ih56oc64oh56kh3ph1'),
        ('conv f32 7x7s2 conv1', ('conv', 'f32', 64, 3, 224, 64, 7, 2, 3),
         '--conv --dt=f32 mb64ic3ih224oc64oh112kh7sh2ph3'),
        ('conv f32 3x3 256@14 alg=auto', ('conv', 'f32', 64, 256, 14, 256, 3, 1, 1),
         '--conv --dt=f32 --alg=auto mb64ic256ih14oc256oh14kh3ph1'),
        ('conv f32 1x1 64->256@56', ('conv', 'f32', 64, 64, 56, 256, 1, 1, 0),
         '--conv --dt=f32 mb64ic64ih56oc256oh56kh1ph0')):
    rows.append((label, key, args, ''))
theirs = {}
for label, key, args, cfg in rows:
    if time.time() - T0 > 108:
        print(f'ROW|{label}|skipped [{cfg or "table"}]|-|-|-', flush=True)
        continue
    out = g.benchdnn(BIN, args, extra_env=tuning(cfg), max_ms=150, timeout=25)
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
