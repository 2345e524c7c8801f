# PyTorch (cuBLAS) side of gemm_h100.sh: the same matmuls, TF32 and reduced-precision
# reductions off. Each case: warm-up, then CUDA-event timings of single launches; prints
# "TORCH|dt|MxNxK|median_ms|TFLOP/s" (or GB/s for M == 1).
# Usage: python3 torch_gemm.py dt:MxNxK ...
import sys

import torch

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
DT = {'f32': torch.float32, 'bf16': torch.bfloat16, 'f16': torch.float16}


def median_ms(fn, reps):
    for _ in range(5):
        fn()
    torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for s, e in zip(starts, ends):
        s.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    t = sorted(s.elapsed_time(e) for s, e in zip(starts, ends))
    return t[len(t) // 2]


print('TORCH|device|' + torch.cuda.get_device_name(0), flush=True)
for case in sys.argv[1:]:
    dt, shape = case.split(':')
    m, n, k = (int(x) for x in shape.split('x'))
    a = torch.randn(m, k, device='cuda', dtype=DT[dt])
    b = torch.randn(k, n, device='cuda', dtype=DT[dt])
    ms = median_ms(lambda: torch.matmul(a, b), 30 if m * n * k < 2**36 else 10)
    rate = (2.0 * m * n * k / ms / 1e9, 'TFLOP/s') if m > 1 else \
        ((m * k + k * n + m * n) * a.element_size() / ms / 1e6, 'GB/s')
    print(f'TORCH|{dt}|{shape}|{ms:.4f}|{rate[0]:.1f} {rate[1]}', flush=True)
