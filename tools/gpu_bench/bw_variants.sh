#!/bin/bash
# The bandwidth rows of gpu_vs_torch.py (group bw) under several rows of the ops tuning table,
# each forced through ANYDNN_GPU_TUNING, to choose the table's GPU defaults:
#   BW_ROWS='bf16 (relu|copy)' bash D/bw_variants.sh "" "ops:item_bytes=32" "ops:row_elems=32"
# ("" is the table as built). Prints ROW lines prefixed by the variant. D: the folder
# tools/gpu_bench/prepare.sh filled (default .dev).
D=${D:-.dev}
for v in "$@"; do
    ANYDNN_GPU_TUNING="$v" python3 "$D"/gpu_vs_torch.py --bin "$D" --only bw 2>&1 \
        | grep '^ROW' | sed "s/^/VARIANT ${v:-table}|/"
done
