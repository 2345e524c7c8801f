#!/bin/bash
# The strict f32 PTX GEMM (src/gpu/gemm/sgemm, variant sgemm_ptx of the tuning table) on an
# NVIDIA GPU, in one device call of under 4 minutes, to pick the tuning table's default tile
# configuration:
# 1. dispatch: verbose lines showing sgemm_ptx (and its tile configuration) chosen for matmul,
#    convolution (ocl:convolution:implicit_sgemm_f32), inner product and LSTM;
# 2. correctness (benchdnn --mode=C: double-precision reference, dst poisoned before the run)
#    of the table's choice and of each configuration forced through ANYDNN_GPU_TUNING: matmul
#    with tails in M, N and K, transposed A and B (ab/ba: the 16-byte and 4-byte copies), batch
#    with broadcast, bias, scales, post-ops; convolutions through the implicit GEMM (strides,
#    padding, dilation, groups, odd IC) and inner products;
# 3. timing: matmul f32 (fpmath strict) 1024^3, 2048^3, 4096^3, 8192^3 per configuration,
#    against PyTorch (cuBLAS, TF32 off) in the same run; both sides are medians of executions
#    timed on the host clock around execute + wait.
# Prints CHECK|name|pass/fail|detail and ROW|problem|impl|ours ms|torch ms|ratio (ratio =
# PyTorch's time / ours) lines, everything into $OUT/run_sgemm.log too.
#   tools/gpu_bench/prepare.sh build .dev-int      (here), then on the GPU machine:
#   D=.dev-int bash .dev-int/run_sgemm.sh
# SGEMM_CONFIGS (space-separated names of sgemm_config[]) replaces the forced configurations,
# SGEMM_SIZES (benchdnn matmul problems) the timed ones.
D=${D:-.dev-int}
OUT=${OUT:-/tmp}
LOG=$OUT/run_sgemm.log
: > "$LOG"
export LD_LIBRARY_PATH=$PWD/$D${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export ANYDNN_OCL_DEVICE=${ANYDNN_OCL_DEVICE:-NVIDIA}
BD="timeout 100 $D/benchdnn --engine=gpu"
CONFIGS=${SGEMM_CONFIGS:-128x256 128x128 128x128s3 128x128k16 128x64k16 256x128 128x64}
say() { echo "$@" | tee -a "$LOG"; }
# One CHECK line from a benchdnn run's output: pass when nothing failed and something passed.
verdict() {
    local name=$1 out=$2 summary
    echo "$out" >> "$LOG"
    summary=$(echo "$out" | grep -E "^tests:" | tail -1)
    if echo "$summary" | grep -qE "failed:0" && ! echo "$summary" | grep -qE "passed:0 " \
        && ! echo "$out" | grep -qE "FAILED|MISTRUSTED"; then
        say "CHECK|$name|pass|$summary"
    else
        say "CHECK|$name|fail|$summary $(echo "$out" | grep -E "FAILED|MISTRUSTED" | head -2 | cut -c1-200)"
    fi
}

say "=== $(date +%T) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
# 1. Dispatch.
for prb in "--matmul --dt=f32 1024x1024:1024x1024" "--conv --dt=f32 mb2ic64ih14oc64oh14kh3ph1" \
           "--ip --dt=f32 mb64ic512oc1000" \
           "--rnn --prop=FWD_I --alg=VANILLA_LSTM l1t2mb16sic64slc64dhc64dic64"; do
    out=$(ONEDNN_VERBOSE=dispatch,create $BD --mode=C $prb 2>&1)
    echo "$out" >> "$LOG"
    # The GEMM core's launch line names the tiles; the convolution's creation its kind.
    line=$(echo "$out" | grep -oE "sgemm_ptx [0-9]+x[0-9]+[ks0-9]*|implicit sgemm_ptx" | sort -u \
        | tr '\n' ' ')
    if [ -n "$line" ]; then say "CHECK|dispatch ${prb%% *}|pass|$line"
    else say "CHECK|dispatch ${prb%% *}|fail|$(echo "$out" | grep -E "gemm,|tests:" | head -2 | cut -c1-200)"; fi
done

# 2. Correctness: the table's choice with everything, each forced configuration with the
# matmul set and a few convolutions.
MATMUL="--matmul --dt=f32 --stag=ab,ba --wtag=ab,ba --dtag=ab 1x1:1x1 17x1:1x9 129x67:67x131
    513x257:257x1023 17x1000:1000x300 256x512:512x384 1536x64:64x1536 260x36:36x1030
    --bia-dt=f32 200x96:96x72 33x8:8x1 --bia-dt=undef
    --attr-post-ops=sum+relu 130x72:72x260 --attr-post-ops=sum:0.5+gelu_tanh 65x9:9x130
    --attr-post-ops=swish:0.5 77x33:33x99 --attr-post-ops=relu+sum 300x200:200x100
    --attr-post-ops=gelu_erf 131x40:40x70
    --attr-post-ops=sum+relu+mul:f32:per_oc 130x72:72x260 --attr-post-ops=
    --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 131x40:40x70
    --attr-scales=src:common:0.25+wei:common:2 64x64:64x64 --attr-scales=
    --stag=any --wtag=any --dtag=any 2x1x64x40:1x3x40x56 3x33x47:3x47x29
    2x3x65x17:1x1x17x129 4x128x128:4x128x128 2x2100x40:2x40x70"
CONV="--conv --dt=f32 --dir=FWD_B,FWD_I mb2ic3ih30oc64oh15kh7sh2ph3 mb2ic64ih14oc64oh14kh3ph1
    g2mb2ic16ih9oc24oh9kh3ph1 mb3ic24ih15oc40oh8kh3sh2ph1 mb2ic13ih11iw9oc70kh3kw2sh1sw2ph1pw0dh1
    mb1ic5ih4oc3kh3ph2 g3mb2ic9ih7oc6kh3dh2ph2 --attr-post-ops=sum+relu mb2ic19ih13oc40kh3sh2ph1
    --attr-post-ops=gelu_erf --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 mb2ic24ih10oc33kh3ph1"
verdict "matmul f32 [table]" "$($BD --mode=C $MATMUL 2>&1)"
verdict "conv f32 [table]" "$($BD --mode=C $CONV mb2ic256ih14oc64oh14kh1ph0 mb2ic32ih14oc48kh1sh2ph0 2>&1)"
verdict "ip f32 [table]" "$($BD --mode=C --ip --dt=f32 --dir=FWD_B,BWD_D,BWD_WB mb64ic512oc1000 mb7ic33oc65 mb3ic4096oc130 2>&1)"
verdict "lstm f32 [table]" "$($BD --mode=C --rnn --prop=FWD_I --alg=VANILLA_LSTM l1t3mb16sic64slc64dhc64dic64 l1t2mb7sic130slc100dhc130dic130 2>&1)"
for c in $CONFIGS; do
    verdict "matmul f32 [$c]" "$(ANYDNN_GPU_TUNING=sgemm:config=$c $BD --mode=C $MATMUL 2>&1)"
    verdict "conv f32 [$c]" "$(ANYDNN_GPU_TUNING=sgemm:config=$c $BD --mode=C $CONV 2>&1)"
done
say "=== $(date +%T) checks done"

# 3. Timing: ours per configuration, then PyTorch's; the ROW lines pair them.
SIZES=${SGEMM_SIZES:-"1024x1024:1024x1024 2048x2048:2048x2048 4096x4096:4096x4096 8192x8192:8192x8192"}
T='--perf-template=PERF|%impl%|%prb%|%@time%'
P="$BD --mode=P --max-ms-per-prb=${MAXMS:-300} $T --matmul --dt=f32 --stag=ab --wtag=ab --dtag=ab"
PERF=$OUT/run_sgemm.perf
: > "$PERF"
for c in table $CONFIGS; do
    v=sgemm:config=$c
    [ "$c" = table ] && v=
    ANYDNN_GPU_TUNING=$v $P $SIZES 2>&1 | grep "^PERF" | sed "s/^PERF/PERF|$c/" | tee -a "$PERF" >> "$LOG"
done
# A transposed (M-major) A: its 16-byte copies.
$P --stag=ba 4096x4096:4096x4096 2>&1 | grep "^PERF" | sed "s/^PERF/PERF|table A^T/" | tee -a "$PERF" >> "$LOG"
say "=== $(date +%T) ours timed"
python3 - "$PERF" <<'PY' | tee -a "$LOG"
import re, sys, time
import torch
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
print(f"=== torch {torch.__version__} on {torch.cuda.get_device_name(0)}")
theirs = {}
for n in (1024, 2048, 4096, 8192):
    for ta in (False, True):
        if ta and n != 4096:
            continue
        a = torch.randn(n, n, device='cuda')
        a = a.t().contiguous().t() if ta else a
        b = torch.randn(n, n, device='cuda')
        for _ in range(3):
            torch.matmul(a, b)
        torch.cuda.synchronize()
        walls, start = [], time.perf_counter()
        while len(walls) < 10 or (time.perf_counter() - start < 0.5 and len(walls) < 500):
            t0 = time.perf_counter()
            torch.matmul(a, b)
            torch.cuda.synchronize()
            walls.append((time.perf_counter() - t0) * 1e3)
        walls.sort()
        theirs[(n, ta)] = walls[len(walls) // 2]
for line in open(sys.argv[1]):
    f = line.strip().split('|')
    if len(f) < 5:
        continue
    cfg, impl, prb, ms = f[1], f[2], f[3], float(f[4])
    dims = re.search(r'(\d+)x(\d+):(\d+)x(\d+)', prb)
    if not dims:
        continue
    n = int(dims.group(4))
    ta = 'A^T' in cfg
    t = theirs[(n, ta)]
    name = f"f32 {n}^3" + (" A^T" if ta else "")
    print(f"ROW|{name}|{impl} [{cfg}]|{ms:.4f}|{t:.4f}|{t / ms:.3f}", flush=True)
PY
say "=== $(date +%T) done"
