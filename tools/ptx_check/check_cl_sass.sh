#!/bin/sh
# Compiles one of our OpenCL C kernels to PTX with clang-15 (nvptx64) and then to sm_90 SASS
# with ptxas, to catch inline-PTX syntax errors without a GPU, and prints the counts of the
# tensor-core (HMMA), ldmatrix (LDSM) and cp.async (LDGSTS) instructions.
# cuobjdump and nvdisasm must be on PATH (PyPI nvidia-cuda-cuobjdump, nvidia-cuda-nvdisasm put
# them under site-packages/nvidia/cu13/bin); CUOBJDUMP may name cuobjdump instead.
# NVIDIA's own OpenCL compiler is not here: this checks the asm, not that compiler's output
# (ocl_build_dump.cpp dumps that compiler's PTX on the GPU machine). OPTIONS are the build
# options the library would pass (types, tile sizes), e.g. for gemm/gemm_mma.cl:
#   tools/ptx_check/check_cl_sass.sh src/gpu/gemm/gemm_mma.cl "-DA_DATA_T=ushort
#     -DLOAD_A=load_bf16 ... -DWG_M=2 -DWG_N=4 -DTM=4 -DTN=4 -DKT=32 -DSTAGES=3 -DPENDING=1"
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
src=$1
opts=$2
out=${3:-$(mktemp -d)}
mkdir -p "$out"
python3 - "$root/src/gpu" "$src" > "$out/kernel.cl" <<'PY'
import os, sys
sys.path.insert(0, os.path.join(sys.argv[1], '..', '..', 'scripts'))
from embed_cl import expand
root = sys.argv[1]
print(expand(root, os.path.relpath(os.path.abspath(sys.argv[2]), root), set()))
PY
ren="-Dget_local_id=ptx_local_id -Dget_local_size=ptx_local_size -Dget_group_id=ptx_group_id"
ren="$ren -Dget_num_groups=ptx_num_groups -Dget_global_id=ptx_global_id -Dbarrier=ptx_barrier"
clang-15 -target nvptx64-nvidia-nvcl -cl-std=CL1.2 -Xclang -finclude-default-header \
    -Dasm=__asm__ $ren -include "$here/nvptx_prelude.h" -O3 $opts -S -o "$out/kernel.ptx" \
    "$out/kernel.cl"
sed -e 's/^\.target.*/.target sm_90/' -e 's/^\.version.*/.version 8.0/' "$out/kernel.ptx" \
    > "$out/kernel_sm90.ptx"
ptxas -arch=sm_90 -v -o "$out/kernel.cubin" "$out/kernel_sm90.ptx"
${CUOBJDUMP:-cuobjdump} -sass "$out/kernel.cubin" > "$out/kernel.sass"
for i in HMMA LDSM LDGSTS; do
    echo "$i: $(grep -c "$i" "$out/kernel.sass" || true)"
done
