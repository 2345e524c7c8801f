#!/bin/bash
# Issue 15, resampling nearest forward at bandwidth (branch s10-resamp), one device call of
# under a minute:   D=.dev-resamp bash .dev-resamp/run_resamp.sh
# 1. benchdnn --mode=C (double-precision reference) of ocl:resampling:dense, nearest and
#    linear, FWD_D and BWD_D, f32 and bf16, channels first and last, on odd shapes: widths
#    that are no multiple of 4 or 8 (groups of the nearest forward path running across rows),
#    dst sizes that end in a short group, non-integer factors, 1D and 3D.
# 2. ROW lines against PyTorch (rows_bwb.py): nearest and linear 2x FWD_D f32 (and nearest
#    FWD_D bf16), NCHW 64x256x64x64 -> 128x128.
# Log: $OUT/resamp.log (every benchdnn line).
D=${D:-.dev-int}
. "$D"/benchdnn_check.sh
device_setup resamp
CHECK_TIMEOUT=${CHECK_TIMEOUT:-40}

rs='mb2ic19ih9iw7oh18ow14 mb1ic3ih5iw5oh7ow11 mb2ic16ih16iw16oh32ow32'
benchdnn_check resamp_2d --resampling --dir=FWD_D,BWD_D --alg=nearest,linear --dt=f32,bf16 \
    --tag=abx,axb $rs
benchdnn_check resamp_1d_3d --resampling --dir=FWD_D,BWD_D --alg=nearest,linear \
    --dt=f32,bf16 --tag=abx,axb mb2ic8iw7ow15 mb1ic4id3ih4iw5od6oh5ow9

python3 "$D"/rows_bwb.py --bin "$D" \
    --only '^(f32 resampling (nearest|linear)|bf16 resampling nearest) 2x FWD_D' 2>>"$LOG" \
    | grep --line-buffered -E '^(ROW|GPU)'
