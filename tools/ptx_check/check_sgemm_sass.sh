#!/bin/sh
# Compiles the strict f32 GEMM (src/gpu/gemm/sgemm/sgemm_f32.cu) as the build does (to PTX
# for sm_80, and for sm_90a with ANYDNN_SGEMM_SM90: the entries past 48 KiB of shared memory),
# then to sm_90a SASS with ptxas, without a GPU: prints each entry's registers, spills and
# shared memory, and what its main loop (the shortest backward branch around its barrier: one
# K slice) holds: FFMA, LDS.128, local-memory (spill) traffic, cp.async copies (LDGSTS), other
# global loads and shared stores, barriers, and all instructions (both the predicated and the
# plain copies of edge and inner slices are in the loop's text; one of them runs). The stack
# frame outside the loop is the output stage's call. cuobjdump must be on PATH (PyPI
# nvidia-cuda-cuobjdump puts it under site-packages/nvidia/cu13/bin); CUOBJDUMP may name it.
#   tools/ptx_check/check_sgemm_sass.sh [OUT_DIR] [sm80|sm90|both (default)]
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$(mktemp -d)}
mkdir -p "$out"
which=${2:-both}
for mod in sm80 sm90; do
    [ "$which" = both ] || [ "$which" = $mod ] || continue
    if [ $mod = sm80 ]; then flags="-gencode=arch=compute_80,code=sm_80"
    else flags="-DANYDNN_SGEMM_SM90 -gencode=arch=compute_90a,code=sm_90a"; fi
    base=$out/sgemm_f32_$mod
    nvcc -ptx -O3 -std=c++17 $flags "$root/src/gpu/gemm/sgemm/sgemm_f32.cu" -o "$base.ptx"
    ptxas -arch=sm_90a -v -o "$base.cubin" "$base.ptx" 2> "$base.log"
    # An entry's lines: "Compiling entry function 'NAME'", its spills, then "Used N registers".
    awk "/Compiling entry/ { split(\$0, q, \"'\"); name = q[2]; spill = -1 }
         /spill stores/ && name != \"\" && spill < 0 { spill = \$5 }
         /Used [0-9]+ registers/ && name != \"\" { print name \": \" \$5 \" registers, \" spill \" bytes spilled, \" \$(NF-2) \" bytes smem\"; name = \"\" }" \
        "$base.log"
    for f in $(grep -o "anydnn_sgemm_[a-z]*_[0-9a-z_]*" "$base.log" | sort -u); do
        ${CUOBJDUMP:-cuobjdump} -sass -fun "$f" "$base.cubin" > "$out/$f.sass"
        python3 "$root/tools/ptx_check/sass_loop.py" "$out/$f.sass" > "$out/$f.loop"
        printf '%s loop:' "$f"
        for i in FFMA LDS.128 LDL STL LDGSTS "LDG\." "STS" "BAR"; do
            printf ' %s %s' "$i" "$(grep -cE "(^|[ .])$i" "$out/$f.loop" || true)"
        done
        printf ' all %s\n' "$(wc -l < "$out/$f.loop")"
    done
done
