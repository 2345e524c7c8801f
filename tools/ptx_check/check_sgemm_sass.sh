#!/bin/sh
# Compiles the strict f32 GEMM (src/gpu/gemm/sgemm/sgemm_f32.cu) as the build does (nvcc -ptx,
# sm_80) and then to sm_90a SASS with ptxas, without a GPU: prints each entry's registers and
# spills, and what its main loop (from its barrier to the branch back above it: one K slice)
# holds: FFMA, LDS.128, local-memory (spill) traffic, cp.async copies (LDGSTS), other global
# loads and shared stores, and all instructions. The stack frame outside the loop is the
# output stage's call. cuobjdump must be on PATH (PyPI nvidia-cuda-cuobjdump puts it under
# site-packages/nvidia/cu13/bin); CUOBJDUMP may name it instead.
#   tools/ptx_check/check_sgemm_sass.sh [OUT_DIR]
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$(mktemp -d)}
mkdir -p "$out"
nvcc -ptx -O3 -std=c++17 -gencode=arch=compute_80,code=sm_80 \
    "$root/src/gpu/gemm/sgemm/sgemm_f32.cu" -o "$out/sgemm_f32.ptx"
ptxas -arch=sm_90a -v -o "$out/sgemm_f32.cubin" "$out/sgemm_f32.ptx" 2> "$out/sgemm_f32.log"
# An entry's lines: "Compiling entry function 'NAME'", its spills, then "Used N registers".
awk "/Compiling entry/ { split(\$0, q, \"'\"); name = q[2]; spill = -1 }
     /spill stores/ && name != \"\" && spill < 0 { spill = \$5 }
     /Used [0-9]+ registers/ && name != \"\" { print name \": \" \$5 \" registers, \" spill \" bytes spilled\"; name = \"\" }" \
    "$out/sgemm_f32.log"
for f in $(grep -o "anydnn_sgemm_[a-z]*_[0-9xks]*" "$out/sgemm_f32.log" | sort -u); do
    ${CUOBJDUMP:-cuobjdump} -sass -fun "$f" "$out/sgemm_f32.cubin" > "$out/$f.sass"
    # The loop: from the barrier to the first branch whose target lies at or above it.
    python3 "$root/tools/ptx_check/sass_loop.py" "$out/$f.sass" > "$out/$f.loop"
    printf '%s loop:' "$f"
    for i in FFMA LDS.128 LDL STL LDGSTS "LDG\." "STS"; do
        printf ' %s %s' "$i" "$(grep -cE "(^|[ .])$i" "$out/$f.loop" || true)"
    done
    printf ' all %s\n' "$(wc -l < "$out/$f.loop")"
done
