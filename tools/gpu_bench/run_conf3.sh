#!/bin/bash
# Correctness only, on the GPU through OpenCL: f4_e2m1/f4_e3m0 reorders (ocl:reorder:nibbles
# writing a 4-bit dst a byte per work-item; f4 src through rows/generic; blocked layouts with
# padding, scales) and int8 RNN inference on s8 data and with s8 LSTM projection weights
# (ocl:rnn:gemm), each problem checked by benchdnn's double-precision reference, then the GPU
# tests of both (reorder_f4_gpu.*, rnn_int8_gpu.*). Prints CHECK lines and totals; writes its log
# to $OUT/conf3.log. D: the folder tools/gpu_bench/prepare.sh filled (default .dev-int). Under
# 4 minutes.
D=${D:-.dev-int}
OUT=${OUT:-/tmp}
export LD_LIBRARY_PATH="$D${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export ANYDNN_OCL_DEVICE=${ANYDNN_OCL_DEVICE:-NVIDIA}
LOG="$OUT/conf3.log"
: > "$LOG"
bench() { # name, then benchdnn arguments
    local name=$1
    shift
    timeout 100 "$D"/benchdnn --engine=gpu --mode=C "$@" >> "$LOG" 2>&1
    local sum
    sum=$(grep '^tests:' "$LOG" | tail -1)
    case "$sum" in
    *"failed:0"*unimplemented:0*|*unimplemented:0*"failed:0"*) echo "CHECK|$name|pass|$sum" ;;
    *) echo "CHECK|$name|fail|${sum:-no summary (timeout?)}" ;;
    esac
}
bench reorder_f4_to --reorder --sdt=f32,bf16,f16 --ddt=f4_e2m1,f4_e3m0 --stag=abx,acdb \
    --dtag=abx,aBx16b,acdb 2x17x3x5 2x64x14x14 1x1x1x1 \
    --attr-scales=src:common:0.5+dst:per_dim_1 2x20x3x3
bench reorder_f4_from --reorder --sdt=f4_e2m1,f4_e3m0 --ddt=f32,bf16,f16 --stag=abx,aBx16b \
    --dtag=abx,acdb 2x17x3x5 2x64x14x14 1x1x1x1
bench rnn_int8_s8_projection --rnn --alg=VANILLA_LSTM --activation=UNDEF --prop=FWD_I \
    --direction=left2right,concat,sum --cfg=s8s8s8s8,f32s8f32s8,u8u8u8f32 \
    --scaling=common,per_oc --with-projection=false,true l1t2mb2sic8slc8dhc12dic8 \
    l2t3mb16sic64slc64dhc96dic64
bench rnn_int8_s8_gru --rnn --alg=VANILLA_GRU,LBR_GRU --activation=UNDEF --prop=FWD_I \
    --direction=left2right,concat --cfg=s8s8s8s8,s8s8s8f32 --scaling=per_oc \
    l1t3mb4sic17slc17 l2t2mb8sic64slc64
if [ -x "$D"/anydnn_gpu_tests ]; then
    res=$(timeout 120 "$D"/anydnn_gpu_tests --gtest_filter='*reorder_f4*:*rnn_int8*' 2>&1 \
        | tee -a "$LOG" | grep -E '^\[  (PASSED|FAILED) ' | head -2 | tr '\n' ' ')
    case "$res" in
    *PASSED*) echo "CHECK|gpu_tests_f4_rnn_int8|pass|$res" ;;
    *) echo "CHECK|gpu_tests_f4_rnn_int8|fail|${res:-no result (timeout?)}" ;;
    esac
fi
