#!/bin/bash
# Builds what the GPU machine needs and copies it into one folder of the checkout that git
# ignores (default .dev), to be carried there:  tools/gpu_bench/prepare.sh [BUILD_DIR] [DEST]
# Then, on the GPU machine:  python3 .dev/gpu_vs_torch.py --check
# the flash attention variants (checked, then timed against PyTorch):  python3 .dev/sdpa_flash.py
# or the GEMM variants' modes (gemm_variants.sh header):  D=.dev bash .dev/gemm_variants.sh tc
# and the concurrency stress test (many threads, one engine, creating and executing):
#   LD_LIBRARY_PATH=.dev ANYDNN_OCL_DEVICE=NVIDIA .dev/anydnn_concurrency_stress --engine=gpu --seconds=30
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
DEST=${2:-.dev}
cmake --build "$BUILD" -j "$(nproc)" --target anydnn benchdnn anydnn_concurrency_stress
mkdir -p "$DEST"
# Every script of this folder goes along: a new device script needs no line here.
cp -L "$BUILD"/libanydnn.so.3 "$BUILD"/tools/benchdnn/benchdnn tools/gpu_bench/*.py \
    tools/gpu_bench/*.sh "$BUILD"/tests/concurrency/anydnn_concurrency_stress "$DEST"/
strip "$DEST"/libanydnn.so.3 "$DEST"/benchdnn "$DEST"/anydnn_concurrency_stress
# The GPU tests (sdpa_flash.py runs the flash kernels' reference check from them) and the graph
# training programs (graph_training_check.sh), built where the build has them.
cmake --build "$BUILD" -j "$(nproc)" --target anydnn_gpu_tests program_mlp_graph_training \
    program_transformer_block_training >/dev/null 2>&1 || true
# The TMA probe (tools/tma_probe, built where nvcc is): run_tma.sh probe.
cmake --build "$BUILD" -j "$(nproc)" --target tma_probe >/dev/null 2>&1 || true
for bin in tests/anydnn_gpu_tests tests/programs/program_mlp_graph_training \
        tests/programs/program_transformer_block_training tools/tma_probe/tma_probe; do
    if [ -x "$BUILD/$bin" ]; then
        cp -L "$BUILD/$bin" "$DEST"/
        strip "$DEST/$(basename "$bin")"
    fi
done
# A build with SYCL interop links libsycl (its API is C++): the GPU machine needs it beside the
# library (the script puts its own folder on LD_LIBRARY_PATH).
sycl=$(ldd "$BUILD"/libanydnn.so.3 | awk '/libsycl/ {print $3}')
if [ -n "$sycl" ]; then cp -L "$sycl" "$DEST"/; fi
du -sh "$DEST"
