#!/bin/bash
# Sparse matmul and 4-bit integer reorders on an NVIDIA GPU through OpenCL, correctness only
# (issue 19): ocl:matmul:sparse on CSR and row-sorted COO src (small odd shapes and one long
# K) and on CSR and COO weights, each problem against benchdnn's double-precision reference;
# the s4/u4 reorders of ocl:reorder:nibbles and the element kernels (benchdnn, and the cases of
# tests/gpu/reorder_int4_test.cpp, against the formula written there), the GPU's f4 reorder
# and sparse matmul tests; packed sparse weights still refused on the GPU with their reason.
# Prepared with  tools/gpu_bench/prepare.sh build .dev-sparse  and run from the checkout's
# root as  D=.dev-sparse bash .dev-sparse/run_sparse.sh
# Prints CHECK|name|pass/fail|detail lines; the whole output also goes to $OUT/run_sparse.log.
# Under a minute expected (PoCL here: 30 s with a cold kernel cache); the timeouts cap it
# at 135 s.
D=${D:-.dev-sparse}
. "$D"/benchdnn_check.sh
device_setup run_sparse
CHECK_TIMEOUT=20

benchdnn_check "sparse matmul small" --matmul --dtag=ab --dt=f32,f16,bf16 --wtag=ab,ba \
    --encoding=coo+0.5::,csr+0.99:: 1x1:1x1 5x7:7x3 13x64:64x9 257x300:300x129
benchdnn_check "sparse weights" --matmul --dtag=ab --dt=f32,f16,bf16 \
    --encoding=:coo+0.5:,:csr+0.9: 1x1:1x1 5x7:7x3 13x64:64x9 64x300:300x129
benchdnn_check "sparse matmul long K" --matmul --dtag=ab --dt=f32 --wtag=ab \
    --encoding=coo+0.9::,csr+0.9:: 4x100005:100005x64

benchdnn_check "int4 reorders" --reorder --sdt=f32,bf16,f16,s8 --ddt=s4,u4 --stag=abcd \
    --dtag=abcd,acdb 2x3x5x7 1x1x1x3 --sdt=s4,u4 --ddt=f32,bf16,f16,s8,s4,u4 2x3x5x7 \
    --sdt=f32 --ddt=s4,u4 --dtag=aBcd16b 2x20x3x3 --dtag=abcd --attr-scales=dst:common:0.5 \
    --attr-zero-points=dst:common:2 2x3x5x7 --sdt=s4,u4 --ddt=f32 \
    --attr-scales=src:per_dim_1 --attr-zero-points=src:common:1 2x3x5x7

# Packed sparse weights are a CPU engine layout: refused on the GPU with the reason.
out=$(timeout 10 "$D"/benchdnn --engine=gpu --mode=C --matmul --dt=u8:s8:f32 \
    --encoding=:packed+0.9: 5x70:70x67 2>&1)
echo "$out" >> "$LOG"
if echo "$out" | grep -q 'UNIMPLEMENTED' && ! echo "$out" | grep -q 'FAILED'; then
    echo "CHECK|packed weights refused on gpu|pass|$(echo "$out" | grep -m1 -o 'UNIMPLEMENTED.*' | cut -c1-160)"
else
    echo "CHECK|packed weights refused on gpu|fail|$(echo "$out" | tail -2 | tr '\n' ' ')"
fi

# The GPU tests of the 4-bit reorders and of sparse matmul (gtest, on the NVIDIA device).
if [ -x "$D"/anydnn_gpu_tests ]; then
    out=$(timeout 45 "$D"/anydnn_gpu_tests \
        --gtest_filter='reorder_int4.*:reorder_f4_gpu.*:*sparse*' 2>&1)
    echo "$out" >> "$LOG"
    summary=$(echo "$out" | grep -E '^\[  PASSED  \]|^\[  FAILED  \]|tests? ran' | tr '\n' ' ')
    if echo "$out" | grep -q '^\[  PASSED  \]' && ! echo "$out" | grep -q '^\[  FAILED  \]'; then
        echo "CHECK|gpu tests int4 f4 sparse|pass|$summary"
    else
        echo "CHECK|gpu tests int4 f4 sparse|fail|$summary $(echo "$out" | grep -m3 'Failure\|FAILED')"
    fi
else
    echo "CHECK|gpu tests int4 f4 sparse|fail|anydnn_gpu_tests not in $D"
fi
