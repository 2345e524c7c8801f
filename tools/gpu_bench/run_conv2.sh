#!/bin/bash
# The strict f32 convolutions on an NVIDIA GPU loading sm_90a PTX (issue 14: >= 0.8 of cuDNN):
# the sm_90a tile configurations of the implicit-GEMM convolution and the 1x1 GEMM
# (256x64k16, 512x64k16, 128x64k16, 192x128k16 and the matmul ones), the table's pick
# (conv_sgemm_tiles) and the size's old pick (conv_sgemm:tiles=size), the Winograd GEMMs'
# tiles (auto: the table's, now 256x64k16 / 256x128k16; 'wino 128x64' and 'wino 256x128' the
# old ones). Correctness first for every forced configuration (benchdnn --mode=C, double
# reference: ResNet shapes at mb1-2, tails, IC not a multiple of 16, groups, strides,
# dilation, post-ops), then mb64 medians of the four layers against PyTorch (cuDNN, TF32 off,
# channels_last or contiguous, whichever is faster) in the same run.
# Prepared with  tools/gpu_bench/prepare.sh build .dev-conv  and run from the checkout's root:
#   D=.dev-conv bash .dev-conv/run_conv2.sh
# Prints CHECK|name|pass/fail|detail and ROW|problem|impl|ours ms|torch ms|ratio lines, then a
# short table (best candidate per layer); the output also goes to $OUT/run_conv2.log. At
# d3a5a3c on an H200: 130 s with every check; the default checks now are fewer (CONV2_CHECKS).
D=${D:-.dev-conv}
OUT=$(mkdir -p "${OUT:-/tmp}" && cd "${OUT:-/tmp}" && pwd)
export LD_LIBRARY_PATH=$PWD/$D${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export ANYDNN_OCL_DEVICE=${ANYDNN_OCL_DEVICE:-NVIDIA}
cd "$D" || exit 1
python3 - 2>&1 <<'PY' | tee "$OUT/run_conv2.log"
import os, re, sys, time
sys.path.insert(0, '.')
import gpu_vs_torch as g

BIN = '.'
T0 = time.time()

def check(name, args, env=None, want=None):
    # want: a configuration name; the count of launches (dispatch lines) naming it is added.
    out = g.benchdnn(BIN, args, mode='C',
                     extra_env=dict(env or {}, ONEDNN_VERBOSE='exec,dispatch' if want else 'exec'))
    impls = sorted(set(re.findall(r'^onednn_verbose,[^,]*,primitive,exec,[^,]*,[^,]*,([^,]*),',
                                  out, re.M)))
    s = re.search(r'^tests:(\d+) passed:(\d+).*$', out, re.M)
    ok = s is not None and s.group(1) == s.group(2) and s.group(1) != '0'
    bad = re.findall(r'^\d+:(?:FAILED|UNIMPLEMENTED|MISTRUSTED).*$', out, re.M)
    detail = (s.group(0) if s else out[-200:].replace('\n', ' / ')) + ' impls: ' + ','.join(impls)
    if want:
        hits = len([l for l in out.splitlines() if ':dispatch' in l and f'sgemm_ptx {want},' in l])
        detail += f'; {hits} launches on {want}'
    if bad:
        detail += ' first: ' + bad[0][:160]
    print(f'CHECK|{name}|{"pass" if ok and not bad else "fail"}|{detail}', flush=True)

# ResNet shapes at small batch, tails in M and N, IC 19 (divisions) and 32 (whole slices),
# groups, stride 2, dilation, 1x1 (gemm_nhwc on the same kernels), bias and sum+relu.
PROBLEMS = ('--conv --dt=f32 mb1ic64ih56oc64oh56kh3ph1 mb2ic256ih14oc256oh14kh3ph1 '
            'mb1ic256ih56oc64oh56kh1ph0 mb1ic3ih64oc64oh32kh7sh2ph3 '
            'mb3ic32ih9oc70oh9kh3ph1 mb2ic19ih11oc33oh11kh3ph1 g2mb2ic32ih10oc48oh10kh3ph1 '
            'mb2ic48ih13oc64oh7kh3sh2ph1 mb2ic16ih12oc64oh10kh3dh1ph1 mb2ic64ih7oc200oh7kh1ph0 '
            '--attr-post-ops=sum+relu mb2ic32ih9oc130oh9kh3ph1 mb1ic64ih15oc64oh15kh1ph0 '
            '--dir=FWD_B --attr-post-ops= mb2ic64ih14oc96oh14kh3ph1')
# The matmul tiles' convolution entries (checked before through matmul only) on fewer.
SHORT = ('--conv --dt=f32 mb2ic256ih14oc256oh14kh3ph1 mb3ic32ih9oc70oh9kh3ph1 '
         'mb2ic19ih11oc33oh11kh3ph1 g2mb2ic32ih10oc48oh10kh3ph1 mb2ic64ih7oc200oh7kh1ph0 '
         '--attr-post-ops=sum+relu mb2ic32ih9oc130oh9kh3ph1')
NEW = ['256x64k16_sm90', '512x64k16_sm90', '128x64k16_sm90', '192x128k16_sm90']
# CONV2_CHECKS: 'none' (the rows alone), 'new' (default: the table, the configuration added
# since the first device call and the Winograd tiles the table now takes), 'all' (every
# forced configuration: all passed on the H200 at d3a5a3c).
which = os.environ.get('CONV2_CHECKS', 'new')
if which != 'none':
    check('table', PROBLEMS)
    check('forced 128x64k16m3_sm90', PROBLEMS,
          {'ANYDNN_GPU_TUNING': 'sgemm:config=128x64k16m3_sm90'}, '128x64k16m3_sm90')
if which == 'all':
    for cfg in NEW:
        check(f'forced {cfg}', PROBLEMS, {'ANYDNN_GPU_TUNING': f'sgemm:config={cfg}'}, cfg)
    for cfg in ['128x256k16_sm90', '128x128k16_sm90']:
        check(f'forced {cfg}', SHORT, {'ANYDNN_GPU_TUNING': f'sgemm:config={cfg}'}, cfg)
# The Winograd GEMMs on the sm_90a tiles (forced: small problems' blocks would not fill the
# units, where the table's preference gives way to the size's pick).
WINO = ('--conv --dt=f32 --alg=wino mb2ic256ih14oc256oh14kh3ph1 mb2ic64ih13oc130oh13kh3ph1 '
        'mb2ic64ih13oc64oh13kh3ph1 --attr-post-ops=sum+relu mb2ic32ih9oc128oh9kh3ph1')
if which != 'none':
    for cfg in ['256x64k16_sm90', '192x128k16_sm90']:
        check(f'wino {cfg}', WINO, {'ANYDNN_GPU_TUNING': f'sgemm:config={cfg}'}, cfg)
print(f'TIME|checks {time.time() - T0:.0f} s', flush=True)

SIZE = {'ANYDNN_GPU_TUNING': 'conv_sgemm:tiles=size'}
def cfg(name):
    return {'ANYDNN_GPU_TUNING': f'sgemm:config={name}'}
# Candidates per layer: the table's pick (after the H200 call at d3a5a3c: 7x7 and 1x1
# 256->64 256x64k16, 3x3 64@56 128x64k16, 1x1 K 64 128x128k16, 256@14 192x128k16; auto takes
# Winograd on 256x64k16 / 192x128k16), the new 128x64k16m3, the runner-up measured there.
LAYERS = [('7x7s2 conv1', 3, 224, 64, 7, 2, 3, ['table', '128x64k16_sm90']),
          ('3x3 64@56', 64, 56, 64, 3, 1, 1,
           ['table', '256x64k16_sm90', '128x64k16m3_sm90', 'auto']),
          ('1x1 256->64@56', 256, 56, 64, 1, 1, 0, ['table', '128x64k16m3_sm90', '128x64k16_sm90']),
          ('1x1 64->256@56 (K 64)', 64, 56, 256, 1, 1, 0, ['table']),
          ('3x3 256@14', 256, 14, 256, 3, 1, 1, ['table', 'auto', 'wino 256x128'])]
torch = g.Torch()
print(f'GPU|{torch.name()}', flush=True)
best = []
for name, c, h, k, r, s, p, cands in LAYERS:
    oh = (h + 2 * p - r) // s + 1
    prb = f'mb64ic{c}ih{h}oc{k}oh{oh}kh{r}sh{s}ph{p}'
    t = torch.case(('conv', 'f32', 64, c, h, k, r, s, p))
    results = []
    for cand in cands:
        if cand == 'table':
            args, env = f'--conv --dt=f32 {prb}', {}
        elif cand == 'size':
            args, env = f'--conv --dt=f32 {prb}', SIZE
        elif cand == 'auto':
            args, env = f'--conv --dt=f32 --alg=auto {prb}', {}
        elif cand.startswith('wino '):
            args, env = f'--conv --dt=f32 --alg=wino {prb}', cfg(cand[5:])
        else:
            args, env = f'--conv --dt=f32 {prb}', cfg(cand)
        out = g.benchdnn(BIN, args, extra_env=env, max_ms=250)
        m = re.search(r'^PERF\|([^|]*)\|([0-9.eE+-]+)\|', out, re.M)
        if not m:
            tail = out.strip().splitlines()[-1][:160] if out.strip() else ''
            print(f'ROW|f32 {name} {cand}|-|-|{t:.4f}|-|{tail}', flush=True)
            continue
        ms = float(m.group(2))
        print(f'ROW|f32 {name} {cand}|{m.group(1)}|{ms:.4f}|{t:.4f}|{t / ms:.2f}', flush=True)
        results.append((t / ms, cand, ms))
    direct = [x for x in results if x[1] != 'auto' and not x[1].startswith('wino')]
    wino = [x for x in results if x[1] == 'auto' or x[1].startswith('wino')]
    best.append((name, t, max(direct) if direct else None, max(wino) if wino else None,
                 next((x for x in results if x[1] == 'table'), None),
                 next((x for x in results if x[1] == 'size'), None)))
print(f'TIME|all {time.time() - T0:.0f} s', flush=True)
print('\n| layer | cuDNN ms | table | best direct | best Winograd |')
print('|---|---|---|---|---|')
f = lambda x: f'{x[2]:.4f} ms ({x[0]:.2f}) {x[1]}' if x else '-'
for name, t, d, w, tab, _ in best:
    print(f'| {name} | {t:.4f} | {f(tab)} | {f(d)} | {f(w)} |')
PY
