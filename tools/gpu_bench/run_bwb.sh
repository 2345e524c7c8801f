#!/bin/bash
# Issue 15 item 1, the rest (branch issue-bwb), one device call of about 3 minutes:
#   D=.dev-bwb bash .dev-bwb/run_bwb.sh [checks] [rows]   (D: the folder prepare.sh filled;
#   no part named: both; BWB_ROWS, a regular expression, keeps the rows of part 2 it matches)
# 1. benchdnn --mode=C (double-precision reference, outputs poisoned) of the new paths:
#    resampling ocl:resampling:dense (nearest/linear, FWD/BWD, nchw/nhwc/ncw/ncdhw, f32/bf16,
#    odd sizes and size 1), batch norm ocl:bnorm:flat on nChw16c / nChw8c (every flag, channel
#    tails), layer norm bf16 rows of 32768 (the precision finding), group norm and max pool bf16.
#    One CHECK|name|pass/fail|detail line per batch.
# 2. ROW lines against PyTorch: resampling 2x upsample, batch norm nChw16c (rows_bwb.py), and
#    the bf16 rows of rows_bandwidth.py for group norm, max pool and the nchw->nhwc reorder.
# Logs: $OUT/bwb.log (every benchdnn line).
D=${D:-.dev-int}
. "$D"/benchdnn_check.sh
device_setup bwb

parts=" ${*:-checks rows} "
if [[ $parts == *" checks "* ]]; then
    rs='mb2ic19ih9iw7oh18ow14 mb3ic16ih5iw5oh10ow10 mb1ic1ih1iw1oh3ow2 mb2ic8ih8iw8oh4ow4'
    rs="$rs mb2ic5ih7iw9oh11ow13"
    benchdnn_check resampling_2d --resampling --dir=FWD_D,BWD_D --alg=nearest,linear \
        --dt=f32,bf16 --tag=abx,axb $rs
    benchdnn_check resampling_1d_3d --resampling --dir=FWD_D,BWD_D --alg=nearest,linear \
        --dt=f32,bf16 --tag=abx,axb mb2ic8iw7ow15 mb1ic4id3ih4iw5od6oh5ow9
    benchdnn_check bnorm_blocked --bnorm --dir=FWD_D,FWD_I,BWD_DW \
        --flags=,G,CH,GCH,CHR,GCHR,CHA --tag=aBx16b,aBx8b --dt=f32,bf16 mb4ic32ih13iw13 mb2ic17ih8iw8 mb2ic35ih5iw3 mb1ic1ih1iw1
    benchdnn_check bnorm_blocked_bwd_d --bnorm --dir=BWD_D --flags=CH,CHR --tag=aBx16b \
        --dt=f32,bf16 mb2ic17ih8iw8 mb3ic5ih7iw3
    benchdnn_check bnorm_blocked_big --bnorm --dir=FWD_D,BWD_DW --flags=CH --tag=aBx16b \
        mb16ic64ih56iw56
    benchdnn_check lnorm_bf16_32768 --lnorm --dir=FWD_D,FWD_I,BWD_DW --flags=,CH,M,CM --dt=bf16 \
        2x32768 3x32767
    benchdnn_check gnorm_bf16 --gnorm --dir=FWD_D,FWD_I,BWD_DW --flags=,CH,G,GCH --g=4 \
        --tag=abx --dt=bf16 mb2ic16ih5iw4 mb3ic32ih3iw3 mb1ic8ih1iw1
    benchdnn_check maxpool_bf16 --pool --dir=FWD_D,FWD_I,BWD_D --alg=max --tag=abx,axb --dt=bf16 \
        mb2ic19ih9iw9kh3kw3sh2sw2ph1pw1 mb3ic5id4ih5iw4kd2kh3kw2sd2sh1sw2 mb1ic1iw7kw3sw1pw1
fi

if [[ $parts == *" rows "* ]]; then
    python3 "$D"/rows_bwb.py --bin "$D" --only "${BWB_ROWS:-}" 2>>"$LOG" \
        | grep --line-buffered -E '^(ROW|GPU)'
    if [ -z "${BWB_ROWS:-}" ]; then
        BW_ROWS='^bf16 (group norm|max pool 3x3 s2 nchw|reorder nchw)' \
            python3 "$D"/gpu_vs_torch.py --bin "$D" --only bw 2>>"$LOG" \
            | grep --line-buffered -E '^ROW'
    fi
fi
