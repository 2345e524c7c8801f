#!/usr/bin/env python3
# anydnn's benchdnn (OpenCL engine on the GPU) against PyTorch (cuBLAS / cuDNN) on the same GPU,
# in one process run: each case runs ours (a benchdnn subprocess, --mode=P) and theirs (torch,
# TF32 and reduced-precision reductions off unless the case asks for TF32), then prints
# "ROW|group|case|our impl|ours ms|theirs ms|ratio|note" lines and a markdown table last.
# ratio = their time / ours (> 1: we are faster). Times are medians of repeated executions on
# the host clock around execute + wait (benchdnn's P mode; torch: launch + synchronize).
#
# Usage (on the GPU machine, with benchdnn and libanydnn beside this file, see README.md):
#   python3 gpu_vs_torch.py [--bin DIR] [--only GROUP,...] [--check | --check-only]
# Groups: matmul gemv conv ip lstm cold sdpa, and those of the rows_*.py modules (bw).  --check first
# runs the CHECKS of those groups, smaller problems of the same
# kinds with tails, in benchdnn's correctness mode (--mode=C: double-precision reference,
# output poisoned before the run) and prints one CHECK line each.
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# (group, case name, benchdnn arguments after the driver, torch case key)
MATMUL = [
    ('bf16 4096^3', '--matmul --dt=bf16 --stag=ab --wtag=ab --dtag=ab 4096x4096:4096x4096', ('mm', 'bf16', 4096, 4096, 4096)),
    ('bf16 8192^3', '--matmul --dt=bf16 --stag=ab --wtag=ab --dtag=ab 8192x8192:8192x8192', ('mm', 'bf16', 8192, 8192, 8192)),
    ('f16 4096^3', '--matmul --dt=f16 --stag=ab --wtag=ab --dtag=ab 4096x4096:4096x4096', ('mm', 'f16', 4096, 4096, 4096)),
    ('f16 8192^3', '--matmul --dt=f16 --stag=ab --wtag=ab --dtag=ab 8192x8192:8192x8192', ('mm', 'f16', 8192, 8192, 8192)),
    ('bf16 4096^3 wei any', '--matmul --dt=bf16 --stag=ab --wtag=any --dtag=ab 4096x4096:4096x4096', ('mm', 'bf16', 4096, 4096, 4096)),
    ('bf16 128x4096x4096', '--matmul --dt=bf16 --stag=ab --wtag=ab --dtag=ab 128x4096:4096x4096', ('mm', 'bf16', 128, 4096, 4096)),
    ('bf16 4096x4096x128', '--matmul --dt=bf16 --stag=ab --wtag=ab --dtag=ab 4096x4096:4096x128', ('mm', 'bf16', 4096, 4096, 128)),
    ('f32 strict 4096^3', '--matmul --dt=f32 --stag=ab --wtag=ab --dtag=ab 4096x4096:4096x4096', ('mm', 'f32', 4096, 4096, 4096)),
    ('f32 strict 8192^3', '--matmul --dt=f32 --stag=ab --wtag=ab --dtag=ab 8192x8192:8192x8192', ('mm', 'f32', 8192, 8192, 8192)),
    ('f32 tf32 8192^3', '--matmul --dt=f32 --attr-fpmath=tf32 --stag=ab --wtag=ab --dtag=ab 8192x8192:8192x8192', ('mm', 'tf32', 8192, 8192, 8192)),
    ('u8s8s32 4096^3 (torch s8s8)', '--matmul --dt=u8:s8:s32 --stag=ab --wtag=ab --dtag=ab 4096x4096:4096x4096', ('mm', 'int8', 4096, 4096, 4096)),
    ('f32 1x4096x4096', '--matmul --dt=f32 --stag=ab --wtag=ab --dtag=ab 1x4096:4096x4096', ('mm', 'f32', 1, 4096, 4096)),
    ('bf16 16x4096x4096', '--matmul --dt=bf16 --stag=ab --wtag=ab --dtag=ab 16x4096:4096x4096', ('mm', 'bf16', 16, 4096, 4096)),
]

# GEMV and skinny products (the skinny kernel, K split over work-groups): both layouts of the
# weights, f32/bf16/f16, N small (C^T), inner product with one row.
GEMV = [
    ('f32 1x4096x4096', '--matmul --dt=f32 --stag=ab --wtag=ab --dtag=ab 1x4096:4096x4096', ('mm', 'f32', 1, 4096, 4096)),
    ('f32 1x4096x4096 wei ba', '--matmul --dt=f32 --stag=ab --wtag=ba --dtag=ab 1x4096:4096x4096', ('mmt', 'f32', 1, 4096, 4096)),
    ('f32 1x8192x8192', '--matmul --dt=f32 --stag=ab --wtag=ab --dtag=ab 1x8192:8192x8192', ('mm', 'f32', 1, 8192, 8192)),
    ('f32 8x4096x4096', '--matmul --dt=f32 --stag=ab --wtag=ab --dtag=ab 8x4096:4096x4096', ('mm', 'f32', 8, 4096, 4096)),
    ('f32 16x4096x4096', '--matmul --dt=f32 --stag=ab --wtag=ab --dtag=ab 16x4096:4096x4096', ('mm', 'f32', 16, 4096, 4096)),
    ('bf16 1x4096x4096', '--matmul --dt=bf16 --stag=ab --wtag=ab --dtag=ab 1x4096:4096x4096', ('mm', 'bf16', 1, 4096, 4096)),
    ('bf16 16x4096x4096', '--matmul --dt=bf16 --stag=ab --wtag=ab --dtag=ab 16x4096:4096x4096', ('mm', 'bf16', 16, 4096, 4096)),
    ('bf16 16x4096x4096 wei ba', '--matmul --dt=bf16 --stag=ab --wtag=ba --dtag=ab 16x4096:4096x4096', ('mmt', 'bf16', 16, 4096, 4096)),
    ('f16 16x4096x4096', '--matmul --dt=f16 --stag=ab --wtag=ab --dtag=ab 16x4096:4096x4096', ('mm', 'f16', 16, 4096, 4096)),
    ('f32 4096x4096x16 (N small)', '--matmul --dt=f32 --stag=ab --wtag=ab --dtag=ab 4096x4096:4096x16', ('mm', 'f32', 4096, 4096, 16)),
    ('bf16 4096x4096x1 (N small)', '--matmul --dt=bf16 --stag=ab --wtag=ab --dtag=ab 4096x4096:4096x1', ('mm', 'bf16', 4096, 4096, 1)),
    ('ip f32 mb1 4096->4096 FWD_I', '--ip --dt=f32 --dir=FWD_I mb1ic4096oc4096', ('mmt', 'f32', 1, 4096, 4096)),
    ('ip bf16 mb16 4096->4096 FWD_I', '--ip --dt=bf16 --dir=FWD_I mb16ic4096oc4096', ('mmt', 'bf16', 16, 4096, 4096)),
]

# ResNet-50 layers, mb64: name, C, H, K, R, stride, pad
CONV_LAYERS = [
    ('7x7s2 conv1', 3, 224, 64, 7, 2, 3),
    ('3x3 64@56', 64, 56, 64, 3, 1, 1),
    ('1x1 256->64@56', 256, 56, 64, 1, 1, 0),
    ('3x3 256@14', 256, 14, 256, 3, 1, 1),
]
CONV = []
for dt in ('bf16', 'f32'):
    for name, c, h, k, r, s, p in CONV_LAYERS:
        oh = (h + 2 * p - r) // s + 1
        prb = f'mb64ic{c}ih{h}oc{k}oh{oh}kh{r}sh{s}ph{p}'
        # FWD_I: no bias, as PyTorch's conv2d below (benchdnn's default, FWD_B, adds one).
        CONV.append((f'{dt} {name} any', f'--conv --dir=FWD_I --dt={dt} {prb}', ('conv', dt, 64, c, h, k, r, s, p)))
        if dt == 'f32' and r == 3: # cuDNN may pick Winograd for these; `auto` lets us too
            CONV.append((f'{dt} {name} any auto', f'--conv --dir=FWD_I --alg=auto --dt={dt} {prb}',
                         ('conv', dt, 64, c, h, k, r, s, p)))

IP = []
for d, key in (('FWD_I', 'fwd'), ('BWD_D', 'bwd_d'), ('BWD_W', 'bwd_w')):
    IP.append((f'bf16 mb256 4096->4096 {d}', f'--ip --dt=bf16 --dir={d} mb256ic4096oc4096', ('ip', key, 256, 4096, 4096)))

LSTM = [('f32 t50 mb64 512 FWD_I', '--rnn --prop=FWD_I --alg=VANILLA_LSTM l1t50mb64sic512slc512dhc512dic512', ('lstm', 50, 64, 512))]

# Correctness on the GPU, shapes with tails (M, N, K not multiples of any tile), batches,
# both operand layouts and post-ops; small enough for the host reference.
CHECKS = [
    '--matmul --dt=bf16,f16 --stag=ab --wtag=ab --dtag=ab 1000x2056:2056x520 1x8:8x8 77x1000:1000x96',
    '--matmul --dt=bf16,f16 --stag=ab,ba --wtag=ab,ba --dtag=ab 200x136:136x328',
    '--matmul --dt=bf16 --stag=abc --wtag=abc --dtag=abc 3x129x200:3x200x65 3x64x64:1x64x72',
    '--matmul --dt=bf16 --attr-post-ops=sum+relu --stag=ab --wtag=ab --dtag=ab 515x333:333x260',
    '--matmul --dt=bf16:bf16:f32 --stag=ab --wtag=ab --dtag=ab 300x512:512x264',
    '--matmul --dt=f32 --stag=ab --wtag=ab --dtag=ab 1x4096:4096x1000 513x257:257x1031 16x4096:4096x130',
    '--matmul --dt=f32 --attr-fpmath=tf32 --stag=ab --wtag=ab --dtag=ab 513x257:257x1031',
    '--matmul --dt=u8:s8:s32,s8:s8:f32 --stag=ab --wtag=ab --dtag=ab 260x520:520x130',
    '--matmul --dt=bf16 --stag=ab --wtag=ab --dtag=ab 16x4096:4096x130',
    '--conv --dt=bf16,f32 mb2ic3ih30oc64oh15kh7sh2ph3 mb2ic64ih14oc64oh14kh3ph1 mb2ic256ih14oc64oh14kh1ph0',
    # Implicit-GEMM wgmma convolution: tails in M and N, strides, dilation, 1D, post-ops and
    # scales in its epilogue; groups and a binary post-op take the channels-last GEMM core.
    '--conv --dt=bf16,f16 --attr-post-ops=sum+relu mb2ic16ih9oc24oh9kh3ph1 mb3ic32ih11oc130oh11kh3dh1ph2 mb1ic64ih13oc200oh7kh3sh2ph1 mb2ic8iw17oc5ow17kw3pw1',
    '--conv --dt=bf16:bf16:f32,f16 mb2ic64ih14oc72oh14kh1ph0 mb1ic264ih7oc260oh7kh3ph1 g2mb2ic16ih9oc24oh9kh3ph1 mb2ic24ih15oc40oh8kh3sh2ph1',
    '--conv --dt=bf16 --stag=nhwc --wtag=ohwi --dtag=nhwc --attr-scales=src:common:0.5+dst:common:2 mb2ic32ih12oc48oh12kh3ph1',
    '--conv --dt=bf16,f32 --attr-post-ops=add:f32:per_oc mb2ic16ih9oc24oh9kh3ph1 mb2ic3ih30oc64oh15kh7sh2ph3',
    '--ip --dt=bf16 --dir=FWD_B,BWD_D,BWD_WB mb33ic260oc130',
    '--rnn --prop=FWD_I --alg=VANILLA_LSTM l1t3mb5sic64slc64dhc64dic64',
    # The timed LSTM's shape in few steps (its recurrent product split along K on the GPU),
    # one row, odd channels (a tail slice), one step; GRU, LBR-GRU, vanilla; bf16.
    '--rnn --prop=FWD_I --alg=VANILLA_LSTM l1t4mb64sic512slc512dhc512dic512 l1t3mb1sic512slc300dhc512dic512 l1t3mb7sic200slc130dhc200dic200 l1t1mb3sic200slc64dhc200dic200',
    '--rnn --prop=FWD_I --alg=VANILLA_GRU,LBR_GRU,VANILLA_RNN l1t3mb16sic256slc100dhc256dic256 l1t2mb1sic130slc130dhc130dic130',
    '--rnn --prop=FWD_I,FWD_D --cfg=bf16 --alg=VANILLA_LSTM,LBR_GRU l1t3mb64sic512slc512dhc512dic512',
]

# The skinny kernel (group gemv): tails, both layouts of B, N small (C^T), bias and post-ops.
GEMV_CHECKS = [
    '--matmul --dt=f32,bf16,f16 --stag=ab,ba --wtag=ab,ba --dtag=ab 1x4096:4096x1000 3x257:257x1031 130x64:64x5 4096x777:777x16',
    '--matmul --dt=f32,bf16:bf16:f32 --bia-dt=f32 --attr-post-ops=sum+relu --stag=ab --wtag=ab,ba --dtag=ab 1x301:301x72 7x129:129x45',
    '--ip --dt=f32,bf16 --dir=FWD_B mb1ic4096oc4096 mb3ic777oc130',
]

GROUPS = {'matmul': MATMUL, 'gemv': GEMV, 'conv': CONV, 'ip': IP, 'lstm': LSTM}
import rows_sdpa  # noqa: E402 (beside this file)
GROUPS['sdpa'] = rows_sdpa.ROWS

# Row modules beside this file (rows_*.py): each names its GROUP, its ROWS (as above), its
# CHECKS and torch_case(Torch, key); its rows and checks run when --only names the group.
sys.path.insert(0, HERE)
ROW_MODULES = {}
for _name in ('rows_bandwidth', 'rows_reduce'):
    try:
        _mod = __import__(_name)
        ROW_MODULES[_mod.GROUP] = _mod
        GROUPS[_mod.GROUP] = _mod.ROWS
    except ImportError:
        pass


def benchdnn(bindir, args, mode='P', extra_env=None, timeout=300, max_ms=1000):
    tmpl = '--perf-template=PERF|%impl%|%@time%|%-time%|%times%'
    cmd = [os.path.join(bindir, 'benchdnn'), '--engine=gpu', f'--mode={mode}',
           f'--max-ms-per-prb={max_ms}', tmpl] + args.split()
    env = dict(os.environ)
    env['LD_LIBRARY_PATH'] = bindir + ':' + env.get('LD_LIBRARY_PATH', '')
    env.setdefault('ANYDNN_OCL_DEVICE', 'NVIDIA')
    env.update(extra_env or {})
    try:
        r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
        return r.stdout + r.stderr
    except subprocess.TimeoutExpired:
        return 'TIMEOUT'


def ours(bindir, args, max_ms=1000):
    out = benchdnn(bindir, args, max_ms=max_ms)
    m = re.search(r'^PERF\|([^|]*)\|([0-9.eE+-]+)\|', out, re.M)
    if not m:
        last = [l for l in out.splitlines() if l.strip()][-3:]
        return None, None, ' / '.join(last)[:200]
    return m.group(1), float(m.group(2)), ''


def check(bindir, args):
    # One CHECK line per problem: state, implementation (verbose), repro.
    out = benchdnn(bindir, '--verbose=1 ' + args, mode='C', extra_env={'ONEDNN_VERBOSE': 'exec'})
    impls = re.findall(r'^onednn_verbose,[^,]*,primitive,exec,[^,]*,[^,]*,([^,]*),', out, re.M)
    lines = re.findall(r'^\d+:(\w+)(.*__REPRO: .*)$', out, re.M)
    for state, rest in lines:
        print(f'CHECK|{state}|{rest.strip()[:200]}', flush=True)
    summary = re.search(r'^tests:.*$', out, re.M)
    print(f'CHECK|summary|{summary.group(0) if summary else out[-300:]}|impls: '
          f'{",".join(sorted(set(impls)))}', flush=True)
    return all(st in ('PASSED', 'UNIMPLEMENTED') for st, _ in lines) and lines


class Torch:
    def __init__(self):
        import torch
        self.t = torch
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
        torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
        torch.backends.cudnn.benchmark = True
        self.dev = torch.device('cuda')
        self.budget_s = 1.0
        self.dt = {'f32': torch.float32, 'tf32': torch.float32, 'bf16': torch.bfloat16,
                   'f16': torch.float16}

    def name(self):
        t = self.t
        return (f'{t.cuda.get_device_name(0)}, torch {t.__version__}, cuda {t.version.cuda}, '
                f'cudnn {t.backends.cudnn.version()}')

    def time_ms(self, fn, budget_s=None):
        budget_s = self.budget_s if budget_s is None else budget_s
        t = self.t
        for _ in range(3):
            fn()
        t.cuda.synchronize()
        walls = []
        start = time.perf_counter()
        while len(walls) < 10 or (time.perf_counter() - start < budget_s and len(walls) < 2000):
            t0 = time.perf_counter()
            fn()
            t.cuda.synchronize()
            walls.append((time.perf_counter() - t0) * 1e3)
        walls.sort()
        return walls[len(walls) // 2]

    def rnd(self, *shape, dt='f32'):
        return self.t.randn(*shape, device=self.dev).to(self.dt[dt])

    def case(self, key):
        t = self.t
        F = t.nn.functional
        kind = key[0]
        if kind == 'mmt':  # B stored transposed (N x K, as inner-product weights)
            _, dt, m, k, n = key
            a, b = self.rnd(m, k, dt=dt), self.rnd(n, k, dt=dt).t()
            c = t.empty(m, n, device=self.dev, dtype=self.dt[dt])
            return self.time_ms(lambda: t.matmul(a, b, out=c))
        if kind == 'mm':
            _, dt, m, k, n = key
            if dt == 'int8':
                a = t.randint(-8, 8, (m, k), device=self.dev, dtype=t.int8)
                b = t.randint(-8, 8, (k, n), device=self.dev, dtype=t.int8)
                return self.time_ms(lambda: t._int_mm(a, b))
            a, b = self.rnd(m, k, dt=dt), self.rnd(k, n, dt=dt)
            c = t.empty(m, n, device=self.dev, dtype=self.dt[dt])
            t.backends.cuda.matmul.allow_tf32 = dt == 'tf32'
            try:
                return self.time_ms(lambda: t.matmul(a, b, out=c))
            finally:
                t.backends.cuda.matmul.allow_tf32 = False
        if kind == 'conv':
            _, dt, mb, c, h, k, r, s, p = key
            best = None
            for fmt in (t.channels_last, t.contiguous_format):
                x = self.rnd(mb, c, h, h, dt=dt).contiguous(memory_format=fmt)
                w = self.rnd(k, c, r, r, dt=dt).contiguous(memory_format=fmt)
                with t.no_grad():
                    ms = self.time_ms(lambda: F.conv2d(x, w, None, s, p))
                best = ms if best is None else min(best, ms)
            return best
        if kind == 'ip':
            _, d, mb, ic, oc = key
            x, w, dy = self.rnd(mb, ic, dt='bf16'), self.rnd(oc, ic, dt='bf16'), self.rnd(mb, oc, dt='bf16')
            if d == 'fwd':
                return self.time_ms(lambda: F.linear(x, w))
            if d == 'bwd_d':
                return self.time_ms(lambda: t.matmul(dy, w))
            return self.time_ms(lambda: t.matmul(dy.t(), x))
        if kind == 'lstm':
            _, steps, mb, ch = key
            lstm = t.nn.LSTM(ch, ch, num_layers=1).to(self.dev).eval()
            x, h0, c0 = self.rnd(steps, mb, ch), self.rnd(1, mb, ch), self.rnd(1, mb, ch)
            with t.no_grad():
                return self.time_ms(lambda: lstm(x, (h0, c0)))
        if kind == 'sdpa':
            return rows_sdpa.torch_ms(self, key)
        if kind in ROW_MODULES:
            return ROW_MODULES[kind].torch_case(self, key[1:])
        raise ValueError(key)


def cold_creation(bindir):
    # First creation of a 4096^3 bf16 matmul in a new process with empty kernel caches (ours
    # and NVIDIA's compute cache), then again with warm caches: whole-process wall times.
    rows = []
    with tempfile.TemporaryDirectory() as d:
        env = {'HOME': d, 'XDG_CACHE_HOME': d + '/xdg', 'CUDA_CACHE_PATH': d + '/nv',
               'ONEDNN_KERNEL_CACHE_DIR': d + '/kc'}
        for label in ('cold caches', 'warm caches'):
            t0 = time.perf_counter()
            out = benchdnn(bindir, '--matmul --dt=bf16 --stag=ab --wtag=ab --dtag=ab 4096x4096:4096x4096',
                           mode='F', extra_env=env)
            ms = (time.perf_counter() - t0) * 1e3
            ok = 'passed:1' in out or 'failed:0' in out
            rows.append((f'create bf16 4096^3 matmul, {label}', ms, '' if ok else out[-200:]))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', default=HERE)
    ap.add_argument('--only', default='matmul,conv,ip,lstm,cold')
    ap.add_argument('--check', action='store_true')
    ap.add_argument('--check-only', action='store_true', help='the checks, no timed rows')
    a = ap.parse_args()
    a.check = a.check or a.check_only
    groups = a.only.split(',')
    torch = Torch()
    print('GPU|' + torch.name(), flush=True)
    table = []
    if a.check:
        # The checks of the groups measured (by benchdnn driver), then the row modules'.
        drivers = {'matmul': '--matmul', 'conv': '--conv', 'ip': '--ip', 'lstm': '--rnn'}
        mine = [c for c in CHECKS if any(c.startswith(drivers.get(g, '?') + ' ') for g in groups)]
        mine += [c for g in groups if g in ROW_MODULES for c in ROW_MODULES[g].CHECKS]
        mine += GEMV_CHECKS if 'gemv' in groups else []
        bad = [c for c in mine if not check(a.bin, c)]
        print(f'CHECKS|{len(mine) - len(bad)} of {len(mine)} batches passed', flush=True)
        if a.check_only:
            return 0
    for g in groups:
        if g == 'cold':
            for name, ms, note in cold_creation(a.bin):
                print(f'ROW|cold|{name}|-|{ms:.0f}|-|-|{note}', flush=True)
                table.append(('cold', name, '-', f'{ms:.0f} ms (process)', '-', '-', note))
            continue
        for name, args, key in GROUPS[g]:
            note = ''
            mod = ROW_MODULES.get(g)
            impl, ms, err = ours(a.bin, args, getattr(mod, 'PERF_MS', 1000))
            try:
                theirs = torch.case((g,) + key if mod else key)
            except Exception as ex:  # report and go on
                theirs, note = None, f'{note} torch failed: {type(ex).__name__}'
            ratio = f'{theirs / ms:.3f}' if ms and theirs else '-'
            note = (note + ' ' + err).strip()
            fmt = lambda v: f'{v:.4g}' if v else '-'
            print(f'ROW|{g}|{name}|{impl}|{fmt(ms)}|{fmt(theirs)}|{ratio}|{note}', flush=True)
            table.append((g, name, impl or '-', fmt(ms), fmt(theirs), ratio, note))
    print('\n| group | problem | anydnn impl | ours ms | PyTorch ms | ratio | note |')
    print('|---|---|---|---|---|---|---|')
    for row in table:
        print('| ' + ' | '.join(str(c) for c in row) + ' |')


if __name__ == '__main__':
    sys.exit(main())
