# SDPA rows of gpu_vs_torch.py (group "sdpa"): ours is the graph partition of a perf case of
# tests/inputs/graph/perf (benchdnn --graph --mode=P), theirs F.scaled_dot_product_attention on
# the same shapes (is_causal for a causal mask computed in the graph, enable_gqa for 5D GQA,
# attn_mask for an explicit one; a training forward, whose statistics PyTorch's flash
# attention forward returns as its logsumexp: torch_train_ms).
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def case_path(name):
    # Beside this file, then the checkout's copy: this file in tools/gpu_bench or in a folder
    # at the checkout's root (prepare.sh's .dev).
    perf = os.path.join('tests', 'inputs', 'graph', 'perf')
    for d in (HERE, os.path.join(HERE, '..', '..', perf), os.path.join(HERE, '..', perf)):
        p = os.path.join(d, name + '.json')
        if os.path.exists(p):
            return os.path.abspath(p)
    return name + '.json'


# (problem, perf case, torch key: ('sdpa', dt, batch, q heads, kv heads, seq, head, causal, mask))
_CASES = [
    ('f32 b1 h16 s1024 d64, additive mask', 'sdpa_f32_b1h16s1024d64', ('f32', 1, 16, 16, 1024, 64, False, True)),
    ('f32 b1 h16 s1024 d64', 'sdpa_f32_b1h16s1024d64_nomask', ('f32', 1, 16, 16, 1024, 64, False, False)),
    ('bf16 b1 h16 s1024 d64', 'sdpa_bf16_b1h16s1024d64_nomask', ('bf16', 1, 16, 16, 1024, 64, False, False)),
    ('f32 b1 h16 s1024 d80', 'sdpa_f32_b1h16s1024d80_nomask', ('f32', 1, 16, 16, 1024, 80, False, False)),
    ('f32 b1 h16 s1024 d256', 'sdpa_f32_b1h16s1024d256_nomask', ('f32', 1, 16, 16, 1024, 256, False, False)),
    ('bf16 b8 h32 s4096 d128, causal', 'sdpa_bf16_b8h32s4096d128_causal', ('bf16', 8, 32, 32, 4096, 128, True, False)),
    ('GQA bf16 b8 h32 kv8 s4096 d128, causal', 'gqa_bf16_b8h32kv8s4096d128_causal', ('bf16', 8, 32, 8, 4096, 128, True, False)),
    ('train fwd bf16 b8 h32 s4096 d128, causal (dst and stats)', 'sdpa_bf16_b8h32s4096d128_causal_train', ('bf16', 8, 32, 32, 4096, 128, True, False, 'train')),
]
ROWS = [(name, '--graph --case=' + case_path(case), ('sdpa',) + key) for name, case, key in _CASES]


def torch_train_ms(torch, key):
    """(median ms, what ran) of PyTorch's training forward for a ROWS key without a mask:
    the flash attention forward that returns the logsumexp (the statistics), else SDPA on
    inputs that need grad (which keeps what its backward needs)."""
    _, dt, b, hq, hkv, s, d, causal = key[:8]
    t = torch.t
    q = torch.rnd(b, hq, s, d, dt=dt)
    k, v = torch.rnd(b, hkv, s, d, dt=dt), torch.rnd(b, hkv, s, d, dt=dt)
    scale = 1 / math.sqrt(d)
    why = 'GQA' if hq != hkv else ''
    if not why:
        try:
            flash = t.ops.aten._scaled_dot_product_flash_attention
            fn = lambda: flash(q, k, v, 0.0, causal, False, scale=scale)
            assert fn()[1].shape[-1] == s  # the logsumexp, one per query row
            return torch.time_ms(fn), 'aten._scaled_dot_product_flash_attention (out, logsumexp)'
        except Exception as ex:  # noqa: BLE001 (not reachable in this build)
            why = type(ex).__name__
    qg, kg, vg = (x.detach().requires_grad_() for x in (q, k, v))
    extra = {'enable_gqa': True} if hq != hkv else {}
    fn = lambda: t.nn.functional.scaled_dot_product_attention(
        qg, kg, vg, is_causal=causal, scale=scale, **extra)
    return torch.time_ms(fn), f'F.scaled_dot_product_attention, inputs requiring grad ({why})'


def torch_ms(torch, key):
    """Median ms of PyTorch's SDPA for a ROWS key (torch: gpu_vs_torch.Torch)."""
    if len(key) > 9 and key[9] == 'train':
        return torch_train_ms(torch, key)[0]
    _, dt, b, hq, hkv, s, d, causal, mask = key
    t = torch.t
    F = t.nn.functional
    q = torch.rnd(b, hq, s, d, dt=dt)
    k, v = torch.rnd(b, hkv, s, d, dt=dt), torch.rnd(b, hkv, s, d, dt=dt)
    attn = torch.rnd(1, 1, s, s, dt=dt) if mask else None
    extra = {'enable_gqa': True} if hq != hkv else {}
    with t.no_grad():
        return torch.time_ms(lambda: F.scaled_dot_product_attention(
            q, k, v, attn_mask=attn, is_causal=causal, scale=1 / math.sqrt(d), **extra))
