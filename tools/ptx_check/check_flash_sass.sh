#!/bin/sh
# Compiles the flash attention kernels (src/gpu/sdpa/cuda/*.cu) as the build does (nvcc -ptx,
# sm_80 or sm_90a) and then to sm_90a SASS with ptxas, without a GPU: prints each entry's
# registers and spills and the counts of tensor-core (HMMA, HGMMA), ldmatrix (LDSM), cp.async
# (LDGSTS) and FMA (FFMA) instructions, then checks the wgmma kernels' register A operands
# (check_hgmma.py). cuobjdump must be on PATH (PyPI nvidia-cuda-cuobjdump
# puts it under site-packages/nvidia/cu13/bin); CUOBJDUMP may name it instead.
#   tools/ptx_check/check_flash_sass.sh [OUT_DIR]
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$(mktemp -d)}
mkdir -p "$out"
for spec in flash_attention:80 flash_attention_f32:80 flash_attention_f32_sm90:90a \
        flash_attention_sm90:90a flash_attention_sm90_pipe:90a; do
    name=${spec%%:*}
    sm=${spec#*:}
    nvcc -ptx -O3 -std=c++17 -gencode=arch=compute_$sm,code=sm_$sm \
        "$root/src/gpu/sdpa/cuda/$name.cu" -o "$out/$name.ptx"
    ptxas -arch=sm_90a -v -o "$out/$name.cubin" "$out/$name.ptx" 2> "$out/$name.log"
    ${CUOBJDUMP:-cuobjdump} -sass "$out/$name.cubin" > "$out/$name.sass"
    echo "$name (sm_$sm PTX):"
    grep -E "Compiling entry|registers|spill" "$out/$name.log" | paste - - - \
        | sed -E "s/.*entry function '([^']*)'.*[^0-9]([0-9]+) bytes spill stores.*Used ([0-9]+) registers.*/  \1: \3 registers, \2 bytes spilled/"
    for i in HMMA HGMMA LDSM LDGSTS FFMA; do
        printf '  %s %s' "$i" "$(grep -c "$i" "$out/$name.sass" || true)"
    done
    echo
done
for name in flash_attention_sm90 flash_attention_sm90_pipe; do
    CUOBJDUMP=${CUOBJDUMP:-cuobjdump} python3 "$root/tools/ptx_check/check_hgmma.py" "$out/$name.sass"
done
