#!/bin/sh
# Builds this benchdnn against an installed oneDNN v3 for side-by-side runs.
#   tools/benchdnn/build_against_onednn.sh PREFIX BUILD_DIR
# PREFIX holds include/oneapi/dnnl and lib/libdnnl.so. With PREFIX "pypi-3.2" it first
# installs PyPI's oneDNN 3.2 (onednn-devel-cpu-gomp + onednn-cpu-gomp 2023.2.0, native
# OpenMP) into a venv at /tmp/onednn32 (or $ONEDNN32_VENV) and builds against that. Entry
# points newer than the library are looked up at run time (dnnl_compat.hpp): problems that
# need one report UNIMPLEMENTED "library has no ...".
set -eu
if [ $# -ne 2 ]; then
    echo "usage: $0 PREFIX|pypi-3.2 BUILD_DIR" >&2
    exit 2
fi
prefix=$1
build=$2
src=$(cd "$(dirname "$0")" && pwd)
if [ "$prefix" = pypi-3.2 ]; then
    prefix=${ONEDNN32_VENV:-/tmp/onednn32}
    if [ ! -e "$prefix/lib/libdnnl.so" ]; then
        python3 -m venv "$prefix"
        "$prefix/bin/pip" install -q onednn-devel-cpu-gomp==2023.2.0 onednn-cpu-gomp==2023.2.0
    fi
fi
cmake -S "$src" -B "$build" -DDNNL_ROOT="$prefix" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j"$(nproc)"
echo "built $build/benchdnn against $prefix"
