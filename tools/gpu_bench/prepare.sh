#!/bin/bash
# Builds what the GPU machine needs and copies it into one folder of the checkout that git
# ignores (default .dev), to be carried there:  tools/gpu_bench/prepare.sh [BUILD_DIR] [DEST]
# Then, on the GPU machine:  python3 .dev/gpu_vs_torch.py --check
# and the concurrency stress test (many threads, one engine, creating and executing):
#   LD_LIBRARY_PATH=.dev ANYDNN_OCL_DEVICE=NVIDIA .dev/anydnn_concurrency_stress --engine=gpu --seconds=30
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
DEST=${2:-.dev}
cmake --build "$BUILD" -j "$(nproc)" --target anydnn benchdnn anydnn_concurrency_stress
mkdir -p "$DEST"
cp -L "$BUILD"/libanydnn.so.3 "$BUILD"/tools/benchdnn/benchdnn tools/gpu_bench/gpu_vs_torch.py \
    tools/gpu_bench/rows_*.py tools/gpu_bench/bw_variants.sh tools/gpu_bench/sparse_check.sh "$BUILD"/tests/concurrency/anydnn_concurrency_stress "$DEST"/
strip "$DEST"/libanydnn.so.3 "$DEST"/benchdnn "$DEST"/anydnn_concurrency_stress
# A build with SYCL interop links libsycl (its API is C++): the GPU machine needs it beside the
# library (the script puts its own folder on LD_LIBRARY_PATH).
sycl=$(ldd "$BUILD"/libanydnn.so.3 | awk '/libsycl/ {print $3}')
if [ -n "$sycl" ]; then cp -L "$sycl" "$DEST"/; fi
du -sh "$DEST"
