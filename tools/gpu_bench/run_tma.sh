#!/bin/bash
# Hopper's bulk tensor copies (TMA) from our PTX kernels loaded through NVIDIA's OpenCL.
#   tools/gpu_bench/prepare.sh build .dev-tma      (here), then on the GPU machine:
#   D=.dev-tma bash .dev-tma/run_tma.sh probe      (under a minute)
#   D=.dev-tma bash .dev-tma/run_tma.sh gemm       (under two minutes)
# probe: tools/tma_probe (libcuda's cuTensorMapEncodeTiled beside NVIDIA's OpenCL; tiles loaded
#   by cp.async.bulk.tensor through a per-CTA copy of a libcuda template re-pointed by
#   tensormap.replace, through a map built from zero bytes by tensormap.replace alone, and
#   through a map passed by value as a 128-byte kernel argument). Seen on the H200 (driver
#   580.159.04): the encoder fails after cuInit (201, no current CUDA context), the map built
#   from zero bytes loads the tiles right: the GEMM builds its maps that way.
# gemm: the TMA-fed wgmma matmul (src/gpu/gemm/hopper/wgmma_tma.cu, tuning config
#   tma_256x64s4): dispatch lines (the table's choice, and the cp.async kernel under
#   wgmma:tma=0); benchdnn --mode=C (double-precision reference, dst poisoned) with each TMA
#   configuration forced (ANYDNN_GPU_TUNING=wgmma:config=tma_256x64s4, and tma_256x64s4o whose
#   next tile's first loads overlap the epilogue; TMA_CONFIGS replaces the list) over bf16/f16
#   tails in M, N, K, both layouts of A and B, batch with broadcast, bias, scales, post-ops,
#   f32 dst, split K; then medians of bf16/f16 4096^3 and 8192^3: the table's choice, cp.async
#   (wgmma:tma=0), each TMA configuration, PyTorch.
# Prints CHECK|name|pass/fail|detail lines (and INFO lines), ROW|problem|impl|ours ms|torch
# ms|ratio (ratio = PyTorch's time / ours), everything into $OUT/run_tma.log.
D=${D:-.dev-tma}
MODE=${1:-probe}
. "$D"/benchdnn_check.sh
device_setup run_tma
say() { echo "$@" | tee -a "$LOG"; }
BD="timeout 100 $D/benchdnn --engine=gpu"
TMA_CONFIGS=${TMA_CONFIGS:-tma_256x64s4 tma_256x64s4o}

say "=== $(date +%T) $MODE $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
case $MODE in
probe)
    if [ ! -x "$D/tma_probe" ]; then
        say "CHECK|tma probe|fail|$D/tma_probe missing (prepare.sh builds it where nvcc is)"
        exit 1
    fi
    timeout 60 "$D/tma_probe" NVIDIA 2>&1 | tee -a "$LOG"
    rc=${PIPESTATUS[0]}
    say "CHECK|tma probe exit|$([ "$rc" = 0 ] && echo pass || echo fail)|status $rc"
    ;;
gemm)
    # 1. Dispatch: the table's choice for tiles that fill the GPU, and the old kernel.
    for v in "" wgmma:tma=0; do
        out=$(ANYDNN_GPU_TUNING=$v ONEDNN_VERBOSE=dispatch $BD --mode=C --matmul --dt=bf16 \
            1536x64:64x3072 2>&1)
        echo "$out" >> "$LOG"
        k=$(echo "$out" | grep -oE "anydnn_wgmma_[a-z0-9_]+" | sort -u | tr '\n' ' ')
        want=$([ -z "$v" ] && echo anydnn_wgmma_tma_ || echo anydnn_wgmma_bf16_)
        say "CHECK|dispatch [${v:-table}]|$(echo "$k" | grep -q "$want" && echo pass || echo fail)|$k"
    done
    # 2. Correctness of the TMA kernels, forced for every shape.
    M16="--matmul --dt=bf16,f16,bf16:bf16:f32,f16:f16:f32 --stag=ab,ba --wtag=ab,ba --dtag=ab
        1x8:8x1 129x67:67x131 256x512:512x384 513x257:257x1023 17x1000:1000x300
        300x64:64x600 260x36:36x1030"
    M16E="--matmul --dt=bf16,f16:f16:f32 --stag=ab --wtag=ab,ba --dtag=ab
        --bia-dt=f32 200x96:96x72 130x72:72x260 --bia-dt=undef
        --attr-post-ops=sum+relu 130x72:72x260 --attr-post-ops=gelu_erf 131x40:40x300
        --attr-post-ops=sum:0.5+gelu_tanh 65x9:9x130 --attr-post-ops=
        --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 131x40:40x70 --attr-scales=
        --stag=abc --wtag=abc --dtag=abc 3x129x200:3x200x65 3x64x64:1x64x72 2x33x47:1x47x29"
    for c in $TMA_CONFIGS; do
        export ANYDNN_GPU_TUNING=wgmma:config=$c CHECK_WANT=anydnn_wgmma_tma_
        benchdnn_check "matmul 16-bit [$c]" $M16 | tee -a "$LOG"
        benchdnn_check "matmul 16-bit epilogue [$c]" $M16E | tee -a "$LOG"
        ANYDNN_GPU_TUNING=$ANYDNN_GPU_TUNING,splits=3 benchdnn_check "matmul split K [$c]" \
            --matmul --dt=bf16,f16 --stag=ab,ba --wtag=ab,ba 130x1000:1000x300 \
            100x100:100x70 --bia-dt=f32 --attr-post-ops=relu 64x777:777x200 | tee -a "$LOG"
        unset ANYDNN_GPU_TUNING CHECK_WANT
    done
    CHECK_WANT=anydnn_wgmma_tma_ benchdnn_check "matmul 16-bit [table]" --matmul \
        --dt=bf16,f16 --stag=ab,ba --wtag=ab,ba 1536x72:72x3100 1100x40:40x4000 \
        | tee -a "$LOG"
    say "=== $(date +%T) checks done"
    # 3. Timing: the table's choice (TMA), the cp.async kernel, then PyTorch.
    T='--perf-template=PERF|%impl%|%prb%|%@time%'
    PERF=$OUT/run_tma.perf
    : > "$PERF"
    for v in table wgmma:tma=0 $(for c in $TMA_CONFIGS; do echo wgmma:config=$c; done); do
        for dt in bf16 f16; do
            ANYDNN_GPU_TUNING=$([ $v = table ] || echo $v) $BD --mode=P \
                --max-ms-per-prb=${MAXMS:-300} "$T" --matmul --dt=$dt --stag=ab --wtag=ab \
                --dtag=ab 4096x4096:4096x4096 8192x8192:8192x8192 2>&1 | grep "^PERF" \
                | sed "s/^PERF/PERF|$v|$dt/" | tee -a "$PERF" >> "$LOG"
        done
    done
    say "=== $(date +%T) ours timed"
    python3 - "$PERF" <<'PY' | tee -a "$LOG"
import re, sys, time
import torch
torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
print(f"INFO|torch {torch.__version__} on {torch.cuda.get_device_name(0)}", flush=True)
theirs = {}
for dt, tdt in (('bf16', torch.bfloat16), ('f16', torch.float16)):
    for n in (4096, 8192):
        a = torch.randn(n, n, device='cuda').to(tdt)
        b = torch.randn(n, n, device='cuda').to(tdt)
        c = torch.empty(n, n, device='cuda', dtype=tdt)
        for _ in range(3):
            torch.matmul(a, b, out=c)
        torch.cuda.synchronize()
        walls, start = [], time.perf_counter()
        while len(walls) < 10 or (time.perf_counter() - start < 0.5 and len(walls) < 500):
            t0 = time.perf_counter()
            torch.matmul(a, b, out=c)
            torch.cuda.synchronize()
            walls.append((time.perf_counter() - t0) * 1e3)
        walls.sort()
        theirs[(dt, n)] = walls[len(walls) // 2]
for line in open(sys.argv[1]):
    f = line.strip().split('|')
    if len(f) < 6:
        continue
    variant, dt, impl, prb, ms = f[1], f[2], f[3], f[4], float(f[5])
    dims = re.search(r'(\d+)x(\d+):(\d+)x(\d+)', prb)
    if not dims:
        continue
    n = int(dims.group(4))
    t = theirs[(dt, n)]
    print(f"ROW|{dt} {n}^3|{impl} [{variant}]|{ms:.4f}|{t:.4f}|{t / ms:.3f}", flush=True)
PY
    ;;
*)
    say "CHECK|run_tma mode|fail|unknown mode $MODE (probe, gemm)"
    exit 1
    ;;
esac
say "=== $(date +%T) done"
