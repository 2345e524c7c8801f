#!/bin/bash
# Sparse matmul on the GPU (ocl:matmul:sparse), correctness only: oneDNN's GPU sparse batch
# (COO src, f32/f16, weights ab and ba) on its 4 x 10^6 shapes, CSR src as well, and small odd
# shapes; each problem checked by benchdnn's reference. Prints one CHECK line per problem and
# a total. D: the folder tools/gpu_bench/prepare.sh filled (default .dev). Under 4 minutes.
D=${D:-.dev}
export LD_LIBRARY_PATH="$D${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export ANYDNN_OCL_DEVICE=${ANYDNN_OCL_DEVICE:-NVIDIA}
run() {
    timeout 100 "$D"/benchdnn --engine=gpu --mode=C --matmul --dtag=ab "$@" 2>&1 \
        | sed -n 's/^[0-9]*:\([A-Z]*\).*__REPRO: \(.*\)$/CHECK|sparse|\2|\1/p'
}
{
    run --dt=f32,f16 --wtag=ab,ba --encoding=coo+0.9::,csr+0.9:: \
        4x1000005:1000005x6 4x1000100:1000100x64 4x1000800:1000800x131
    run --dt=f32,f16,bf16 --wtag=ab,ba --encoding=coo+0.5::,csr+0.99:: \
        1x1:1x1 5x7:7x3 13x64:64x9 257x300:300x129
} | tee /tmp/sparse_check.out
echo "CHECK|sparse|total|$(grep -c '|PASSED$' /tmp/sparse_check.out) passed of $(grep -c '^CHECK' /tmp/sparse_check.out)"
