#!/usr/bin/env bash
# Installs the build into a scratch prefix, then builds and runs a consumer through the CMake
# package and through pkg-config.
set -euo pipefail
build_dir=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build_dir" --prefix "$work/prefix" > /dev/null
test -L "$work/prefix/lib/libdnnl.so" || test -L "$work/prefix/lib64/libdnnl.so"

cmake -S "$here/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$work/prefix" > /dev/null
cmake --build "$work/consumer" > /dev/null
libdir=$(dirname "$(find "$work/prefix" -name 'libanydnn.so*' | head -1)")
LD_LIBRARY_PATH="$libdir" "$work/consumer/consumer"

pc_dir=$(dirname "$(find "$work/prefix" -name dnnl.pc | head -1)")
flags=$(PKG_CONFIG_PATH="$pc_dir" pkg-config --cflags --libs dnnl)
g++ -std=c++11 "$here/consumer/consumer.cpp" $flags -o "$work/pc_consumer"
LD_LIBRARY_PATH="$libdir" "$work/pc_consumer"
echo "install, find_package(dnnl) and pkg-config: OK"
