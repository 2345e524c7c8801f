#!/bin/bash
# Issue 15 part 1, one device call (about 3 minutes):  D=.dev bash .dev/bw_access.sh
# 1. benchdnn --mode=C (double-precision reference) of the kernels changed, with 16-byte bf16
#    accesses forced (ops:access_bytes=16): eltwise, binary, layer/RMS norm forward, pooling
#    backward (ocl:pooling:dense), softmax backward (rows).
# 2. The table as built (8-byte bf16 accesses): bf16 relu / add / layer and RMS norm, f32 layer
#    and RMS norm (RMS now one reduction a row), and the new backward rows.
# 3. The bf16 rows again with 16-byte accesses, and layer / RMS norm with 32 elements a
#    work-item (rows of 4096: 128 work-items, not 256).
D=${D:-.dev}
ANYDNN_GPU_TUNING=ops:access_bytes=16 \
    BW_CHECKS='--eltwise|--binary|--lnorm --dir=FWD|--pool --dir=BWD|--softmax --dir=BWD' \
    python3 "$D"/gpu_vs_torch.py --bin "$D" --only bw --check-only 2>&1 | grep '^CHECK'
bf16='^bf16 (relu|add 262144|add nchw|layer norm|RMS)'
BW_ROWS="$bf16|^f32 (layer norm 65536x4096 FWD|RMS)|BWD_D " D="$D" bash "$D"/bw_variants.sh ""
BW_ROWS="$bf16" D="$D" bash "$D"/bw_variants.sh "ops:access_bytes=16"
BW_ROWS='^bf16 (layer norm|RMS)' D="$D" bash "$D"/bw_variants.sh "ops:access_bytes=16,row_elems=32"
