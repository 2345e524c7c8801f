# The PyTorch (cuBLAS) side of `wgmma_check perf`: bf16 row-major matmul M x N x K, bf16 out,
# reduced-precision reductions off. Prints the median wall time of one call to completion
# (like wgmma_check's "one"), of back-to-back calls, and the CUDA-event median.
# Usage: python3 torch_matmul.py M,N,K [M,N,K ...]
import sys
import time

import torch

torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False


def median(v):
    v = sorted(v)
    return v[len(v) // 2]


def main():
    print('TORCH gpu', torch.cuda.get_device_name(0), 'torch', torch.__version__, flush=True)
    for shape in sys.argv[1:]:
        M, N, K = (int(x) for x in shape.split(','))
        a = torch.randn(M, K, device='cuda').to(torch.bfloat16)
        b = torch.randn(K, N, device='cuda').to(torch.bfloat16)
        for _ in range(5):
            torch.matmul(a, b)
        torch.cuda.synchronize()
        one, many, ev = [], [], []
        for _ in range(7):
            for _ in range(5):
                t = time.perf_counter()
                torch.matmul(a, b)
                torch.cuda.synchronize()
                one.append((time.perf_counter() - t) * 1e3)
            t = time.perf_counter()
            for _ in range(20):
                torch.matmul(a, b)
            torch.cuda.synchronize()
            many.append((time.perf_counter() - t) * 1e3 / 20)
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            torch.matmul(a, b)
            e.record()
            torch.cuda.synchronize()
            ev.append(s.elapsed_time(e))
        flop = 2.0 * M * N * K
        print(f'TORCH {M}x{N}x{K} bf16 one {median(one):.4f} ms ({flop / median(one) * 1e-9:.1f} '
              f'TFLOP/s)  back-to-back {median(many):.4f} ms ({flop / median(many) * 1e-9:.1f} '
              f'TFLOP/s)  event {median(ev):.4f} ms', flush=True)


if __name__ == '__main__':
    main()
