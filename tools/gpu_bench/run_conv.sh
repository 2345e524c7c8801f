#!/bin/bash
# The ResNet-50 convolutions on an NVIDIA GPU (issue 14's goals): correctness of every new
# kernel and variant first (benchdnn --mode=C, double-precision reference), then mb64 medians
# of the four layers in bf16 and f32, the table's choice and the variants, against PyTorch
# (cuDNN, channels_last or contiguous, whichever is faster; TF32 off) in the same run.
# Prepared with  tools/gpu_bench/prepare.sh build .dev-conv  and run from the checkout's root:
#   D=.dev-conv bash .dev-conv/run_conv.sh
# Prints CHECK|name|pass/fail|detail and ROW|problem|impl|ours ms|torch ms|ratio lines; the
# whole output also goes to $OUT/run_conv.log. About 3 minutes.
D=${D:-.dev-conv}
OUT=$(mkdir -p "${OUT:-/tmp}" && cd "${OUT:-/tmp}" && pwd)
export LD_LIBRARY_PATH=$PWD/$D${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export ANYDNN_OCL_DEVICE=${ANYDNN_OCL_DEVICE:-NVIDIA}
cd "$D" || exit 1
python3 - 2>&1 <<'PY' | tee "$OUT/run_conv.log"
import os, re, subprocess, sys
sys.path.insert(0, '.')
import gpu_vs_torch as g

BIN = '.'

def check(name, args, env=None):
    # benchdnn --mode=C over the problems; the implementations that ran (verbose exec).
    # CONV_ROWS_ONLY=1: the rows alone (the checks passed in an earlier call).
    if os.environ.get('CONV_ROWS_ONLY') == '1':
        return []
    out = g.benchdnn(BIN, args, mode='C', extra_env=dict(env or {}, ONEDNN_VERBOSE='exec'))
    impls = sorted(set(re.findall(r'^onednn_verbose,[^,]*,primitive,exec,[^,]*,[^,]*,([^,]*),',
                                  out, re.M)))
    s = re.search(r'^tests:(\d+) passed:(\d+).*$', out, re.M)
    ok = s is not None and s.group(1) == s.group(2) and s.group(1) != '0'
    bad = re.findall(r'^\d+:(FAILED|UNIMPLEMENTED|MISTRUSTED).*$', out, re.M)
    detail = (s.group(0) if s else out[-200:].replace('\n', ' / ')) + ' impls: ' + ','.join(impls)
    print(f'CHECK|{name}|{"pass" if ok and not bad else "fail"}|{detail}', flush=True)
    return impls

WINO = '--conv --dt=f32 --alg=wino'
# Winograd F(2x2, 3x3): odd and even outputs (tiles past the edge), padding 0/1/2, channels
# under and over the GEMM tiles, bias, scales, post-ops, explicit channels-last tensors.
check('wino shapes', f'{WINO} mb2ic16ih9oc24oh9kh3ph1 mb3ic5ih8oc7oh8kh3ph1 '
      'mb1ic8ih7oc3oh5kh3ph0 mb2ic4ih5oc4oh7kh3ph2 mb1ic1ih1oc1oh1kh3ph1 '
      'mb2ic300ih14oc260oh14kh3ph1 mb4ic64ih13oc128oh13kh3ph1')
check('wino attrs', f'{WINO} --attr-post-ops=sum+relu mb2ic16ih9oc24oh9kh3ph1 '
      '--attr-post-ops=add:f32:per_oc mb3ic5ih8oc7oh8kh3ph1 --attr-post-ops= '
      '--attr-scales=src:common:0.5+wei:per_oc+dst:common:2 mb2ic32ih10oc40oh10kh3ph1')
check('wino nhwc', f'{WINO} --dir=FWD_B,FWD_I --stag=nhwc --wtag=ohwi --dtag=nhwc '
      'mb2ic16ih9oc24oh9kh3ph1')
check('wino resnet 3x3 (mb4)', f'{WINO} mb4ic256ih14oc256oh14kh3ph1 mb4ic64ih56oc64oh56kh3ph1')
impls = check('auto 3x3 256@14', '--conv --dt=f32 --alg=auto mb2ic256ih14oc256oh14kh3ph1')
print(f'CHECK|auto picks winograd for 256@14|{"pass" if any("winograd" in i for i in impls) else "fail"}|{impls}', flush=True)
# The existing paths on the four layers (small batch), bf16 and f32.
check('resnet layers mb2', '--conv --dt=bf16,f32 mb2ic3ih224oc64oh112kh7sh2ph3 '
      'mb2ic64ih56oc64oh56kh3ph1 mb2ic256ih56oc64oh56kh1ph0 mb2ic256ih14oc256oh14kh3ph1')

LAYERS = [('7x7s2 conv1', 3, 224, 64, 7, 2, 3), ('3x3 64@56', 64, 56, 64, 3, 1, 1),
          ('1x1 256->64@56', 256, 56, 64, 1, 1, 0), ('3x3 256@14', 256, 14, 256, 3, 1, 1)]
rows = []  # (label, torch key, benchdnn args, env)
for dt in ('bf16', 'f32'):
    for name, c, h, k, r, s, p in LAYERS:
        oh = (h + 2 * p - r) // s + 1
        prb = f'mb64ic{c}ih{h}oc{k}oh{oh}kh{r}sh{s}ph{p}'
        key = ('conv', dt, 64, c, h, k, r, s, p)
        rows.append((f'{dt} {name}', key, f'--conv --dt={dt} {prb}', {}))
        if dt == 'f32' and r == 3:
            rows.append((f'{dt} {name} alg=auto', key, f'--conv --dt={dt} --alg=auto {prb}', {}))
            for cfg in ('', '128x64', '256x128'):
                env = {'ANYDNN_GPU_TUNING': f'sgemm:config={cfg}'} if cfg else {}
                rows.append((f'{dt} {name} wino {cfg or "table"}', key,
                             f'--conv --dt={dt} --alg=wino {prb}', env))
        if dt == 'bf16' and r == 3 and s == 1 and k > 64:  # 64 wide is the row
            for v in ('tile_n=128',):
                rows.append((f'{dt} {name} {v}', key, f'--conv --dt={dt} {prb}',
                             {'ANYDNN_GPU_TUNING': f'conv_wgmma:{v}'}))

torch = g.Torch()
print(f'GPU|{torch.name()}', flush=True)
theirs = {}
for label, key, args, env in rows:
    out = g.benchdnn(BIN, args, extra_env=env, max_ms=300)
    m = re.search(r'^PERF\|([^|]*)\|([0-9.eE+-]+)\|', out, re.M)
    if key not in theirs:
        theirs[key] = torch.case(key)
    t = theirs[key]
    if not m:
        print(f'ROW|{label}|-|-|{t:.4f}|-|{out.strip().splitlines()[-1][:160] if out.strip() else ""}', flush=True)
        continue
    ms = float(m.group(2))
    print(f'ROW|{label}|{m.group(1)}|{ms:.4f}|{t:.4f}|{t / ms:.2f}', flush=True)
PY
