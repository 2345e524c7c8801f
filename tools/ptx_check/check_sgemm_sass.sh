#!/bin/sh
# Compiles the strict f32 GEMM (src/gpu/gemm/sgemm/sgemm_f32.cu) as the build does (nvcc -ptx,
# sm_80) and then to sm_90a SASS with ptxas, without a GPU: prints each entry's registers and
# spills, and what its main loop (between its two barriers) holds: FFMA, LDS.128, local-memory
# (spill) traffic, global loads and shared stores per K slice. Spills outside the loop are the
# output stage's calls. cuobjdump must be on PATH (PyPI nvidia-cuda-cuobjdump puts it under
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
for f in $(grep -o "anydnn_sgemm_[a-z]*_[0-9xk]*" "$out/sgemm_f32.log" | sort -u); do
    ${CUOBJDUMP:-cuobjdump} -sass -fun "$f" "$out/sgemm_f32.cubin" > "$out/$f.sass"
    set -- $(grep -n "BAR.SYNC" "$out/$f.sass" | cut -d: -f1)
    sed -n "$1,$2p" "$out/$f.sass" > "$out/$f.loop"
    printf '%s loop:' "$f"
    for i in FFMA LDS.128 LDL STL LDG STS; do
        printf ' %s %s' "$i" "$(grep -c "$i" "$out/$f.loop" || true)"
    done
    echo
done
