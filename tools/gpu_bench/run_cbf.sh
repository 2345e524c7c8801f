#!/bin/bash
# The bf16 ResNet-50 convolutions on Hopper (issue 14: 3x3 64@56 at >= 0.7 of cuDNN, aim 0.8):
# the persistent implicit-GEMM kernel that loads each tile's input pixels once for all taps
# (gpu/gemm/hopper/wgmma_conv_halo.cu, ANYDNN_GPU_TUNING conv_wgmma:halo=m1s1|m1s2|m1s3|m2s2|m2s3,
# the ping-pong m1s1p|m1s2p|m2s1p whose warpgroups walk tiles apart, and m1s1t|m1s2t|m2s1t,
# the same with the product swapped to channels by pixels)
# against the tile kernels (halo=off). Correctness first (benchdnn --mode=C, double-precision
# reference) with the table's choice (m1s1) and each candidate forced (CBF_MODE=sweep: every
# configuration; the default, final: the table and FINAL_CANDIDATES): tails in spatial size
# and output channels, more
# output channels than one CTA's 64, 1x3 / 2x2 windows, no padding, asymmetric padding, more
# tiles than CTAs, bias, post-ops, scales, f32 dst, f16, and shapes the kernel refuses (stride
# 2, 5x5, IC 32, dilation) that must fall back to the tile kernels; dispatch lines count the
# primitives created on the forced kernel. Then the four bf16 layers at mb64 (the table's
# choice) and 3x3 64@56 per configuration, against PyTorch (cuDNN, channels_last or
# contiguous, whichever is faster).
# Prepared with  tools/gpu_bench/prepare.sh build .dev-cbf  and run from the checkout's root:
#   D=.dev-cbf bash .dev-cbf/run_cbf.sh
# Prints CHECK|name|pass/fail|detail and ROW|problem|impl|ours ms|torch ms|ratio lines; the
# output also goes to $OUT/run_cbf.log. Measured on the H200 at ffb630b (CBF_MODE=sweep, 117 s):
# every check passed; 3x3 64@56 ms (cuDNN 0.0601): tile kernel 0.0953, m1s1 0.0711 (0.84),
# m2s3 0.0766, m1s2p 0.0787, m2s2 0.0794, m1s1p 0.0808, m1s2 0.0838, m1s3 0.0838.
D=${D:-.dev-cbf}
OUT=$(mkdir -p "${OUT:-/tmp}" && cd "${OUT:-/tmp}" && pwd)
export LD_LIBRARY_PATH=$PWD/$D${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export ANYDNN_OCL_DEVICE=${ANYDNN_OCL_DEVICE:-NVIDIA}
cd "$D" || exit 1
python3 - 2>&1 <<'PY' | tee "$OUT/run_cbf.log"
import os, re, sys, time
sys.path.insert(0, '.')
import gpu_vs_torch as g

BIN = '.'
T0 = time.time()
CONFIGS = ['m1s1', 'm1s2', 'm1s3', 'm2s2', 'm2s3', 'm1s1p', 'm1s2p', 'm2s1p', 'm1s1t', 'm1s2t',
           'm2s1t']
# Checked and timed beside the table in the final mode (added since the first call): the
# swapped products (m64n256 / m64n128 wgmma, channels by pixels) and m2s1p, m2s1t unswapped.
FINAL_CANDIDATES = ['m2s1t', 'm1s2t', 'm2s1p']


def check(name, args, cfg=None):
    # cfg: a halo configuration forced through the tuning override (none: the table's
    # choice); the primitives created on the halo kernels (dispatch lines) are counted.
    env = {'ONEDNN_VERBOSE': 'exec,dispatch'}
    if cfg:
        env['ANYDNN_GPU_TUNING'] = f'conv_wgmma:halo={cfg}'
    out = g.benchdnn(BIN, args, mode='C', extra_env=env, timeout=100)
    impls = sorted(set(re.findall(r'^onednn_verbose,[^,]*,primitive,exec,[^,]*,[^,]*,([^,]*),',
                                  out, re.M)))
    s = re.search(r'^tests:(\d+) passed:(\d+).*$', out, re.M)
    ok = s is not None and s.group(1) == s.group(2) and s.group(1) != '0'
    bad = re.findall(r'^\d+:(?:FAILED|UNIMPLEMENTED|MISTRUSTED).*$', out, re.M)
    detail = (s.group(0) if s else out[-200:].replace('\n', ' / ')) + ' impls: ' + ','.join(impls)
    halo = len([l for l in out.splitlines() if ':dispatch' in l and 'wgmma_conv_halo_' in l])
    detail += f'; {halo} halo primitives'
    if bad:
        detail += ' first: ' + bad[0][:200]
    print(f'CHECK|{name}|{"pass" if ok and not bad else "fail"}|{detail}', flush=True)


# Shapes the kernel takes (64 input channels, stride 1, K <= 576).
TAKEN = ('--conv --dt=bf16 mb1ic64ih56oc64oh56kh3ph1 mb3ic64ih13oc64oh13kh3ph1 '
         'mb2ic64ih9iw17oc40kh3ph1 mb2ic64ih10oc130oh10kh3ph1 mb2ic64ih12oc64oh10kh3ph0 '
         'mb2ic64ih11oc64oh12kh2ph1 mb2ic64ih9oc64kh1kw3ph0pw1 mb150ic64ih7oc64oh7kh3ph1 '
         'mb280ic64ih5oc64oh5kh3ph1 '
         '--dir=FWD_B mb2ic64ih14oc64oh14kh3ph1 '
         '--dir=FWD_I --attr-post-ops=sum+relu mb2ic64ih9oc48oh9kh3ph1 --attr-post-ops= '
         '--attr-scales=src:common:0.5+wei:per_oc+dst:common:2 mb2ic64ih9oc64oh9kh3ph1 '
         '--attr-scales= --dt=bf16:bf16:f32 mb2ic64ih9oc64oh9kh3ph1 '
         '--dt=f16 mb2ic64ih13oc72oh13kh3ph1')
# A short set for the other configurations: the layer, walking tiles, the epilogue, a tail.
# mb150 at 7x7 and mb280 at 5x5: one tile an image, more tiles than the CTAs (132, 264
# for m1s1) or warpgroups of the ping-pong configurations (264) take at once.
SHORT = ('--conv --dt=bf16 mb1ic64ih56oc64oh56kh3ph1 mb150ic64ih7oc64oh7kh3ph1 '
         'mb280ic64ih5oc64oh5kh3ph1 '
         'mb2ic64ih9iw17oc40kh3ph1 --attr-post-ops=sum+relu mb2ic64ih9oc48oh9kh3ph1 '
         '--attr-post-ops= --dt=bf16:bf16:f32 mb2ic64ih9oc64oh9kh3ph1')
# Asymmetric padding (right 2, left 1): output wider than the input.
ASYM = '--conv --dt=bf16 mb2ic64ih10oc64oh11kh3ph1'
# Shapes it refuses: the tile kernels run them (0 halo launches expected).
REFUSED = ('--conv --dt=bf16 mb2ic64ih13oc64oh7kh3sh2ph1 mb2ic64ih12oc64oh12kh5ph2 '
           'mb2ic32ih12oc64oh12kh3ph1 mb2ic64ih14oc64oh14kh3dh1ph2 mb2ic64ih14oc256oh14kh1ph0')
# CBF_MODE: 'final' (default: the table's choice, m1s1 since the first call, on every check
# set once, then the four layers and 3x3 64@56 with the halo kernel off), 'sweep' (every
# configuration forced, checked and timed: the first call's run), 'rows' (no checks).
mode = os.environ.get('CBF_MODE', 'final')
if mode == 'sweep':
    check('halo m1s2 taken', TAKEN, 'm1s2')
    check('halo m2s3 taken', TAKEN, 'm2s3')
    check('halo m1s2p taken', TAKEN, 'm1s2p')
    for cfg in ('m1s1', 'm1s3', 'm2s2', 'm1s1p', 'm2s1p', 'm1s1t', 'm1s2t', 'm2s1t'):
        check(f'halo {cfg} short', SHORT, cfg)
if mode == 'final':
    for cfg in FINAL_CANDIDATES:
        check(f'halo {cfg} short', SHORT, cfg)
if mode in ('final', 'sweep'):
    check('table (halo m1s1) taken', TAKEN)
    check('table asymmetric padding', ASYM)
    check('table refused shapes (tile kernels)', REFUSED)
    check('table: resnet bf16 layers mb2', '--conv --dt=bf16 mb2ic3ih224oc64oh112kh7sh2ph3 '
          'mb2ic64ih56oc64oh56kh3ph1 mb2ic256ih56oc64oh56kh1ph0 mb2ic256ih14oc256oh14kh3ph1')
print(f'TIME|checks {time.time() - T0:.0f} s', flush=True)

LAYERS = [('7x7s2 conv1', 3, 224, 64, 7, 2, 3), ('3x3 64@56', 64, 56, 64, 3, 1, 1),
          ('1x1 256->64@56', 256, 56, 64, 1, 1, 0), ('3x3 256@14', 256, 14, 256, 3, 1, 1)]
torch = g.Torch()
print(f'GPU|{torch.name()}', flush=True)
for name, c, h, k, r, s, p in LAYERS:
    oh = (h + 2 * p - r) // s + 1
    prb = f'mb64ic{c}ih{h}oc{k}oh{oh}kh{r}sh{s}ph{p}'
    t = torch.case(('conv', 'bf16', 64, c, h, k, r, s, p))
    cands = [('table', {})]
    if name == '3x3 64@56':
        cands += [('halo=off', {'ANYDNN_GPU_TUNING': 'conv_wgmma:halo=off'})]
        swept = CONFIGS if mode == 'sweep' else FINAL_CANDIDATES
        cands += [(f'halo={x}', {'ANYDNN_GPU_TUNING': f'conv_wgmma:halo={x}'}) for x in swept]
    for cand, env in cands:
        out = g.benchdnn(BIN, f'--conv --dt=bf16 {prb}', extra_env=env, max_ms=300)
        m = re.search(r'^PERF\|([^|]*)\|([0-9.eE+-]+)\|', out, re.M)
        if not m:
            tail = out.strip().splitlines()[-1][:160] if out.strip() else ''
            print(f'ROW|bf16 {name} {cand}|-|-|{t:.4f}|-|{tail}', flush=True)
            continue
        ms = float(m.group(2))
        print(f'ROW|bf16 {name} {cand}|{m.group(1)}|{ms:.4f}|{t:.4f}|{t / ms:.2f}', flush=True)
print(f'TIME|all {time.time() - T0:.0f} s', flush=True)
PY
