#!/bin/bash
# Builds what the GPU machine needs and copies it into one folder of the checkout that git
# ignores (default .dev), to be carried there:  tools/gpu_bench/prepare.sh [BUILD_DIR] [DEST]
# Then, on the GPU machine:  python3 .dev/gpu_vs_torch.py --check
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
DEST=${2:-.dev}
cmake --build "$BUILD" -j "$(nproc)" --target anydnn benchdnn
mkdir -p "$DEST"
cp -L "$BUILD"/libanydnn.so.3 "$BUILD"/tools/benchdnn/benchdnn tools/gpu_bench/gpu_vs_torch.py \
    tools/gpu_bench/rows_*.py "$DEST"/
strip "$DEST"/libanydnn.so.3 "$DEST"/benchdnn
# A build with SYCL interop links libsycl (its API is C++): the GPU machine needs it beside the
# library (the script puts its own folder on LD_LIBRARY_PATH).
sycl=$(ldd "$BUILD"/libanydnn.so.3 | awk '/libsycl/ {print $3}')
if [ -n "$sycl" ]; then cp -L "$sycl" "$DEST"/; fi
du -sh "$DEST"
