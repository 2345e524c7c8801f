#!/bin/bash
# Correctness of the graph API's training ops on the GPU machine: the training cases of
# tests/graph (every backward op against plain formulas, OpenCL engine) and the two training
# programs of tests/programs, each one CHECK line. Here, after building the binaries:
#   cmake --build build --target anydnn_gpu_tests program_mlp_graph_training \
#       program_transformer_block_training && tools/gpu_bench/prepare.sh build .dev-gbwd
# there:  bash .dev-gbwd/graph_training_check.sh
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export ANYDNN_OCL_DEVICE=${ANYDNN_OCL_DEVICE:-NVIDIA}
check() { # name, command...
    local name=$1 out rc
    shift
    out=$(timeout 100 "$@" 2>&1)
    rc=$?
    echo "CHECK|$name|$([ $rc -eq 0 ] && echo PASS || echo "FAIL rc=$rc")|$(echo "$out" | tail -1)"
    [ $rc -eq 0 ] || echo "$out" | grep -E "Failure|expected|evaluates|at [0-9]|error" | head -8
}
check graph_ocl_training_cases ./anydnn_gpu_tests \
    --gtest_filter='graph_ocl_t.training_cases_match_their_references'
check mlp_graph_training ./program_mlp_graph_training gpu
check transformer_block_training ./program_transformer_block_training gpu
