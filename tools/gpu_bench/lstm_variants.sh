#!/bin/bash
# The lstm rows of gpu_vs_torch.py under several splits of the RNN's per-step recurrent
# product (the ops tuning table's rnn_split_elems: C elements per compute unit below which K is
# split; 0: never), each forced through ANYDNN_GPU_TUNING, to choose the table's GPU default:
#   bash D/lstm_variants.sh "" "ops:rnn_split_elems=0" "ops:rnn_split_elems=8192"
# ("" is the table as built). Prints ROW lines prefixed by the variant. D: the folder
# tools/gpu_bench/prepare.sh filled (default .dev).
D=${D:-.dev}
for v in "$@"; do
    ANYDNN_GPU_TUNING="$v" python3 "$D"/gpu_vs_torch.py --bin "$D" --only lstm 2>&1 \
        | grep '^ROW' | sed "s/^/VARIANT ${v:-table}|/"
done
