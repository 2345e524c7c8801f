#!/bin/bash
# The GEMM kernel variants on an NVIDIA GPU through OpenCL: their build logs and PTX, checks
# and timings of each variant the tuning table (src/gpu/tuning) can choose, forced through
# ANYDNN_GPU_TUNING. gpu_vs_torch.py gives the ratios against PyTorch. Build here (Release),
# copy libanydnn.so.3, benchdnn, build/ocl_build_dump (tools/ptx_check/ocl_build_dump.cpp),
# tools/ptx_check/expand_cl.py (as D/ptx_check/) and src/gpu's .cl and .h files (as
# D/src_gpu/) into an ignored folder D of the checkout (default .dev-gemm), carry it, and run:
#   bash D/gemm_variants.sh [dump] [quick|check] [perf]
# dump: NVIDIA's build log (-cl-nv-verbose: registers, spills) and PTX of the GEMM kernels into
#       $OUT (tools/ptx_check/ocl_build_dump, sources expanded by expand_cl.py).
# check: benchdnn --mode=C (double-precision reference, dst filled before the run) over the
#        tensor-core and FMA variants: tails, both layouts of A and B, batch broadcast, bias,
#        post-ops, bf16/f16/f32 results; quick: the same in fewer combinations.
# perf: medians (PERF lines) of the table's choice and of other rows.
# tc: the Hopper wgmma TF32 and 8-bit integer kernels (fpmath tf32; u8/s8): verbose dispatch
#     (the wgmma kernel and the K-major copies chosen), the checks below, then medians of
#     f32 TF32 4096^3 / 8192^3, u8s8s32 and s8s8s32 4096^3, narrow shapes (split K), with
#     PyTorch's TF32 mm and torch._int_mm in the same run. quick and check run tc's checks too.
# tc2: after the K-major copy's fused column sums and the GEMM core's int8/TF32 wgmma path:
#      dispatch lines (matmul with src's zero point, inner product int8 and TF32, convolution
#      TF32), tc's checks plus those of the core's new kinds (inner product int8 with scales,
#      bias, post-ops; TF32 inner product and convolution) and of the tf32 tile variants;
#      then medians: matmul with src's zero point (B copied or K-major), tf32 tile and split
#      variants (ANYDNN_GPU_TUNING wgmma section), inner product on wgmma against the core's
#      own kernels (wgmma:core=0), and PyTorch's times. About 3 minutes.
# sgemm: the strict f32 PTX kernels (src/gpu/gemm/sgemm): dispatch lines showing them chosen
#        for matmul, convolution (the implicit GEMM: ocl:convolution:implicit_sgemm_f32),
#        inner product and LSTM; benchdnn --mode=C over tails, both layouts, batch broadcast,
#        bias, scales, post-ops (fused and not), convolutions with strides, padding, dilation,
#        groups and odd IC, on the table's choice, the forced tiles (16-deep K slices, 8 x 16
#        per thread: sgemm:config=128x128k16, 256x128, 128x256) and the fma_8x8 fallback; medians of matmul per tile configuration, of the ResNet-50
#        f32 convolutions implicit vs im2col (sgemm:implicit=0) and per configuration, then
#        PyTorch's (TF32 off). About 3.5 minutes.
# gemv: the skinny kernel (K split over work-groups): checks of its paths, medians of the
#       table's row and of other shapes (work-groups per compute unit, loads in flight, lanes)
#       on GEMV-like products, then PyTorch's times (TF32 off, event timing).
# prepare.sh copies this script: tools/gpu_bench/prepare.sh build .dev-gemv, then carry it and
#   D=.dev-gemv bash .dev-gemv/gemm_variants.sh gemv
D=${D:-.dev-gemm}
export LD_LIBRARY_PATH=$PWD/$D${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export ANYDNN_OCL_DEVICE=${ANYDNN_OCL_DEVICE:-NVIDIA}
BD="timeout 120 $D/benchdnn --engine=gpu"
T='--perf-template=PERF|%impl%|%prb%|%@time%|%-time%|%@Gflops%|%@Gbw%'
P="$BD --mode=P --max-ms-per-prb=${MAXMS:-400} $T --matmul --stag=ab --wtag=ab --dtag=ab"
BIG="4096x4096:4096x4096 8192x8192:8192x8192 128x4096:4096x4096 4096x128:128x4096"

# The wgmma TF32 and int8 checks (double-precision reference): tails of every tile, both
# layouts of A and B (row-major B is copied K-major first), batch with broadcast, bias,
# scales and post-ops through the epilogue, split K, every dst type.
tc_check() {
    $BD --mode=C --matmul --dt=f32,f32:f32:bf16 --attr-fpmath=tf32 --stag=ab,ba --wtag=ab,ba \
        --dtag=ab 256x512:512x384 129x67:67x131 1x8:8x1 7x1000:1000x300 \
        --bia-dt=f32 200x96:96x72 --bia-dt=undef \
        --attr-post-ops=sum+relu 130x72:72x260 --attr-post-ops=gelu_erf 33x40:40x300 \
        --attr-post-ops= --attr-scales=wei:per_oc+dst:common:2 65x72:72x96 --attr-scales= \
        --stag=abc --wtag=abc --dtag=abc 3x33x48:3x48x29 3x33x48:1x48x29 \
        | grep -E "FAILED|UNIMPL|MISTRUSTED|tests:" | sed 's/^/CHECK|tf32|/' | head -6
    $BD --mode=C --matmul --attr-fpmath=any,bf16 --dt=f32 --stag=ab --wtag=ab 130x72:72x260 \
        | grep -E "FAILED|UNIMPL|tests:" | sed 's/^/CHECK|tf32-modes|/' | head -3
    for dt in u8:s8:s32 s8:s8:s32 u8:s8:f32 s8:s8:bf16 u8:u8:u8 s8:u8:s8; do
        $BD --mode=C --matmul --dt=$dt --stag=ab,ba --wtag=ab,ba --dtag=ab \
            256x512:512x384 129x67:67x131 1x8:8x1 7x1000:1000x300 \
            --bia-dt=f32 200x96:96x72 --bia-dt=s32 130x40:40x72 --bia-dt=undef \
            --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 --attr-post-ops=sum+relu \
            130x72:72x260 --attr-post-ops= --attr-scales= \
            --stag=abc --wtag=abc --dtag=abc 3x33x48:3x48x29 3x33x48:1x48x29 \
            | grep -E "FAILED|UNIMPL|MISTRUSTED|tests:" | sed "s/^/CHECK|$dt|/" | head -6
    done
    # Common src and dst zero points in the wgmma epilogue (B's column sums first); weights'
    # zero points are refused there and must still be right on the generic kernel.
    $BD --mode=C --matmul --dt=u8:s8:s32,u8:s8:u8,s8:s8:f32 --stag=ab,ba --wtag=ab,ba \
        --attr-zero-points=src:common:3+dst:common:-2 129x67:67x131 256x512:512x384 \
        --stag=abc --wtag=abc --dtag=abc 3x33x48:3x48x29 3x33x48:1x48x29 \
        | grep -E "FAILED|UNIMPL|tests:" | sed 's/^/CHECK|int8-zp|/' | head -3
    $BD --mode=C --matmul --dt=u8:s8:s32 --attr-zero-points=wei:common:2 129x67:67x131 \
        | grep -E "FAILED|UNIMPL|tests:" | sed 's/^/CHECK|int8-wei-zp (not wgmma)|/' | head -3
}

for s in "$@"; do
    echo "=== $s $(date +%T)"
    case $s in
    dump)
        DT="-DA_DATA_T=ushort -DLOAD_A=load_bf16 -DSTORE_A=store_bf16 -DB_DATA_T=ushort"
        DT="$DT -DLOAD_B=load_bf16 -DSTORE_B=store_bf16 -DC_DATA_T=ushort -DLOAD_C=load_bf16"
        DT="$DT -DSTORE_C=store_bf16 -DBIAS_DATA_T=float -DLOAD_BIAS=load_f32 -DSTORE_BIAS=store_f32"
        F32=$(echo "$DT" | sed 's/ushort/float/g; s/bf16/f32/g')
        for k in "gemm_mma.cl|-DTM=4 -DTN=4 -DKT=32 -DWG_M=2 -DWG_N=4 -DSTAGES=3 -DPENDING=1|$DT" \
                 "gemm_fma.cl|-DTM=8 -DTN=8 -DKT=8|$F32" "gemm_skinny.cl|-DNT=32 -DKS=32 -DMMAX=4|$F32"; do
            IFS='|' read -r f o t <<< "$k"
            python3 $D/ptx_check/expand_cl.py $D/src_gpu gemm/$f > /tmp/$f
            $D/ocl_build_dump NVIDIA /tmp/$f "-cl-std=CL1.2 -cl-nv-verbose -DPO_COUNT=0 $t $o" \
                ${OUT:-/tmp}/$f
            grep -i "registers\|spill\|smem\|error" ${OUT:-/tmp}/$f.log | head -5
        done
        ;;
    quick)
        # The check below in about 20 s: every path of the kernels, fewer combinations.
        nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
        for dt in bf16 f16:f16:f32; do
            $BD --mode=C --matmul --dt=$dt --stag=ab,ba --wtag=ab,ba --dtag=ab \
                256x512:512x384 129x67:67x131 1x8:8x1 --bia-dt=f32 200x96:96x72 --bia-dt=undef \
                --attr-post-ops=sum+relu+mul:f32:per_oc 130x72:72x260 --attr-post-ops= \
                --stag=any --wtag=any --dtag=any 2x1x64x40:1x3x40x56 3x33x47:3x47x29 \
                | grep -E "FAILED|UNIMPL|MISTRUSTED|tests:" | head -6
        done
        ANYDNN_GPU_TUNING=regs=128 $BD --mode=C --matmul --dt=bf16 1024x1024:1024x1024 | tail -1
        # The 128 x 256 two-stage shape (faster, not yet the table's choice).
        ANYDNN_GPU_TUNING=tn=8,stages=2 $BD --mode=C --matmul --dt=bf16 --stag=ab,ba \
            --wtag=ab,ba 256x512:512x384 129x67:67x131 --attr-post-ops=sum+relu \
            300x96:96x520 | grep -E "FAILED|UNIMPL|tests:" | head -4
        for v in "" "regs=128"; do
            ANYDNN_GPU_TUNING=$v $BD --mode=C --matmul --dt=f32 --stag=ab,ba --wtag=ab,ba \
                513x257:257x1023 1x300:300x77 --stag=any --wtag=any --attr-post-ops=sum+relu \
                2x1x33x65:1x3x65x31 2>&1 | grep -E "FAILED|UNIMPL|tests:" | head -4
        done

        tc_check
        ;;
    check)
        nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
        ONEDNN_VERBOSE=dispatch $BD --mode=C --matmul --dt=bf16 --stag=ab --wtag=ab 64x64:64x64 \
            2>&1 | grep -i "gemm\|matmul" | head -5
        for dt in bf16 f16 bf16:bf16:f32 f16:f16:f32; do
            $BD --mode=C --matmul --dt=$dt --stag=ab,ba --wtag=ab,ba --dtag=ab \
                256x512:512x384 129x67:67x131 1x8:8x1 7x1000:1000x300 \
                --bia-dt=f32 200x96:96x72 --bia-dt=undef \
                --attr-post-ops=sum+relu+mul:f32:per_oc 130x72:72x260 --attr-post-ops= \
                --stag=any --wtag=any --dtag=any 2x1x64x40:1x3x40x56 3x33x47:3x47x29 | grep -E "FAILED|UNIMPL|MISTRUSTED|tests:" | head -6
        done
        $BD --mode=C --matmul --dt=bf16 1024x1024:1024x1024 512x2048:2048x256 | tail -1
        for v in "" "variant=tiled_wg" "variant=fma_8x8,kt=16"; do
            ANYDNN_GPU_TUNING=$v $BD --mode=C --matmul --dt=f32 --stag=ab,ba --wtag=ab,ba \
                513x257:257x1023 1x300:300x77 --stag=any --wtag=any --attr-post-ops=sum+relu \
                2x1x33x65:1x3x65x31 2>&1 \
                | grep -E "FAILED|UNIMPL|tests:" | head -4
        done
        ONEDNN_VERBOSE=dispatch,create $BD --mode=C --conv --dt=bf16 \
            mb2ic64ih14oc64oh14kh3ph1 2>&1 | grep -i "gemm,\|conv" | tail -3

        tc_check
        ;;
    tc)
        nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
        for d in "--dt=f32 --attr-fpmath=tf32" "--dt=u8:s8:s32" "--dt=s8:s8:f32 --bia-dt=f32" \
                 "--dt=u8:s8:u8 --attr-zero-points=src:common:3+dst:common:-2"; do
            ONEDNN_VERBOSE=dispatch $BD --mode=C --matmul $d --stag=ab --wtag=ab 256x256:256x256 \
                2>&1 | grep -i "dispatch.*matmul\|tests:" | sed 's/^/DISPATCH|/' | head -3
        done
        ONEDNN_VERBOSE=dispatch $BD --mode=C --matmul --dt=f32 --stag=ab --wtag=ab \
            256x256:256x256 2>&1 | grep -i "dispatch.*matmul" | sed 's/^/DISPATCH|strict|/' | head -2
        tc_check
        $P --dt=f32 --attr-fpmath=tf32 4096x4096:4096x4096 8192x8192:8192x8192 \
            128x4096:4096x4096 4096x4096:4096x128
        $P --dt=f32 --attr-fpmath=tf32 --wtag=ba 8192x8192:8192x8192 | sed 's/^PERF/PERF[wtag=ba]/'
        $P --dt=u8:s8:s32,s8:s8:s32 4096x4096:4096x4096 8192x8192:8192x8192 128x4096:4096x4096
        $P --dt=u8:s8:s32 --wtag=ba 4096x4096:4096x4096 | sed 's/^PERF/PERF[wtag=ba]/'
        $P --dt=u8:s8:s32 --attr-zero-points=src:common:3 4096x4096:4096x4096 \
            | sed 's/^PERF/PERF[zp_src]/'
        python3 - <<'PY'
import torch
def med(f, n=30):
    for _ in range(3): f()
    ts = []
    for _ in range(n):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); f(); e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
    ts.sort()
    return ts[len(ts) // 2]
torch.backends.cuda.matmul.allow_tf32 = True
for m, k, n in [(4096, 4096, 4096), (8192, 8192, 8192), (128, 4096, 4096), (4096, 128, 4096)]:
    a = torch.randn(m, k, device='cuda'); b = torch.randn(k, n, device='cuda')
    print(f"TORCH|tf32|{m}x{k}:{k}x{n}|{med(lambda: torch.mm(a, b)):.4f} ms")
for m, k, n in [(4096, 4096, 4096), (8192, 8192, 8192), (128, 4096, 4096)]:
    a = torch.randint(-8, 8, (m, k), device='cuda', dtype=torch.int8)
    b = torch.randint(-8, 8, (k, n), device='cuda', dtype=torch.int8)
    print(f"TORCH|int8|{m}x{k}:{k}x{n}|{med(lambda: torch._int_mm(a, b)):.4f} ms")
PY
        ;;
    tc2)
        nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
        for prb in "--matmul --dt=u8:s8:s32 --attr-zero-points=src:common:3 256x256:256x256" \
                   "--matmul --dt=u8:s8:s32 --wtag=ba --attr-zero-points=src:common:3 256x256:256x256" \
                   "--ip --dt=u8:s8:s8 --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 mb256ic512oc1024" \
                   "--ip --dt=f32 --attr-fpmath=tf32 mb256ic512oc1024" \
                   "--conv --dt=f32 --attr-fpmath=tf32 mb2ic64ih14oc64oh14kh3ph1"; do
            ONEDNN_VERBOSE=dispatch,create $BD --mode=C $prb 2>&1 \
                | grep -E "wgmma|gemm,|tests:" | cut -c1-400 | sort -u | sed "s/^/DISPATCH[${prb%% *}] /" | head -5
        done
        tc_check
        # The core's int8 kinds: inner product forward (src and weights K-major; ic 33 and
        # 100 are not 16-byte rows: the core's own kernels), scales, bias, post-ops.
        for dt in u8:s8:s8 s8:s8:f32 u8:s8:s32; do
            $BD --mode=C --ip --dt=$dt --dir=FWD_I mb256ic512oc1024 mb7ic33oc65 mb129ic272oc131 \
                --dir=FWD_B --bia-dt=f32 mb64ic256oc96 mb33ic100oc70 \
                --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 --attr-post-ops=sum+relu \
                mb130ic128oc260 --attr-post-ops=gelu_erf mb64ic64oc64 \
                2>&1 | grep -E "FAILED|UNIMPL|MISTRUSTED|tests:" | sed "s/^/CHECK|ip $dt|/" | head -4
        done
        # The core's TF32 kind: inner product forward and convolution (fpmath tf32).
        $BD --mode=C --ip --dt=f32,f32:f32:bf16 --attr-fpmath=tf32 --dir=FWD_B mb256ic512oc1024 \
            mb7ic33oc65 mb129ic260oc131 --attr-post-ops=sum+relu mb64ic64oc96 2>&1 \
            | grep -E "FAILED|UNIMPL|MISTRUSTED|tests:" | sed "s/^/CHECK|ip tf32|/" | head -4
        $BD --mode=C --conv --dt=f32 --attr-fpmath=tf32 mb2ic3ih30oc64oh15kh7sh2ph3 \
            mb2ic64ih14oc64oh14kh3ph1 mb2ic256ih14oc64oh14kh1ph0 g2mb2ic16ih9oc24oh9kh3ph1 \
            --attr-post-ops=sum+relu mb2ic64ih14oc72oh14kh1ph0 2>&1 \
            | grep -E "FAILED|UNIMPL|MISTRUSTED|tests:" | sed "s/^/CHECK|conv tf32|/" | head -4
        # The tf32 tile variants (and split K) the table may take.
        for v in "wgmma:config=128x32s6p1" "wgmma:config=64x32s8p1" "wgmma:config=64x32s8p1,splits=3"; do
            ANYDNN_GPU_TUNING=$v $BD --mode=C --matmul --dt=f32 --attr-fpmath=tf32 \
                --stag=ab,ba --wtag=ab,ba 256x512:512x384 129x67:67x131 7x1000:1000x300 \
                --bia-dt=f32 --attr-post-ops=sum+relu 130x72:72x260 2>&1 \
                | grep -E "FAILED|UNIMPL|MISTRUSTED|tests:" | sed "s/^/CHECK|tf32 $v|/" | head -4
        done
        # Medians. src's zero point: B row-major (copied, its sums in the copy) and K-major.
        # int8 without zero points: B copied K-major (its copy now in 32 x 128 byte tiles) or
        # already K-major (the difference is the copy's cost).
        $P --dt=u8:s8:s32 4096x4096:4096x4096 8192x8192:8192x8192 | sed 's/^PERF/PERF[plain]/'
        $P --dt=u8:s8:s32 --wtag=ba 4096x4096:4096x4096 8192x8192:8192x8192 \
            | sed 's/^PERF/PERF[plain,wtag=ba]/'
        $P --dt=u8:s8:s32 --attr-zero-points=src:common:3 4096x4096:4096x4096 8192x8192:8192x8192 \
            128x4096:4096x4096 | sed 's/^PERF/PERF[zp_src]/'
        $P --dt=u8:s8:s32 --wtag=ba --attr-zero-points=src:common:3 4096x4096:4096x4096 \
            | sed 's/^PERF/PERF[zp_src,wtag=ba]/'
        # tf32: the table's row and variants; --wtag=ba shows the kernel without B's copy.
        for v in "" "wgmma:config=128x32s6p1" "wgmma:config=64x32s8p1" \
                 "wgmma:config=128x32s4p1,splits=2" "wgmma:config=128x32s4p1,splits=8" \
                 "wgmma:config=64x32s8p1,splits=2"; do
            ANYDNN_GPU_TUNING=$v $P --dt=f32 --attr-fpmath=tf32 4096x4096:4096x4096 \
                128x4096:4096x4096 | sed "s/^PERF/PERF[$v]/"
            ANYDNN_GPU_TUNING=$v $P --dt=f32 --attr-fpmath=tf32 --wtag=ba 128x4096:4096x4096 \
                | sed "s/^PERF/PERF[$v,wtag=ba]/"
        done
        # Inner product forward on the core: wgmma against its own kernels (core=0).
        for v in "" "wgmma:core=0"; do
            ANYDNN_GPU_TUNING=$v $BD --mode=P --max-ms-per-prb=${MAXMS:-400} "$T" --ip \
                --dir=FWD_I --dt=u8:s8:s8 --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 \
                mb256ic4096oc4096 mb4096ic4096oc4096 | sed "s/^PERF/PERF[$v]/"
            ANYDNN_GPU_TUNING=$v $BD --mode=P --max-ms-per-prb=${MAXMS:-400} "$T" --ip \
                --dir=FWD_I --dt=f32 --attr-fpmath=tf32 mb256ic4096oc4096 mb4096ic4096oc4096 \
                | sed "s/^PERF/PERF[$v]/"
            ANYDNN_GPU_TUNING=$v $BD --mode=P --max-ms-per-prb=${MAXMS:-400} "$T" --conv \
                --dt=f32 --attr-fpmath=tf32 mb64ic64ih56oc64oh56kh3ph1 mb64ic256ih56oc64oh56kh1ph0 \
                | sed "s/^PERF/PERF[$v]/"
        done
        python3 - <<'PY'
import torch
def med(f, n=30):
    for _ in range(3): f()
    ts = []
    for _ in range(n):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); f(); e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
    ts.sort()
    return ts[len(ts) // 2]
torch.backends.cuda.matmul.allow_tf32 = True
torch.backends.cudnn.allow_tf32 = True
for m, k, n in [(4096, 4096, 4096), (128, 4096, 4096), (256, 4096, 4096)]:
    a = torch.randn(m, k, device='cuda'); b = torch.randn(k, n, device='cuda')
    print(f"TORCH|tf32|{m}x{k}:{k}x{n}|{med(lambda: torch.mm(a, b)):.4f} ms")
for m, k, n in [(4096, 4096, 4096), (8192, 8192, 8192), (128, 4096, 4096), (256, 4096, 4096)]:
    a = torch.randint(-8, 8, (m, k), device='cuda', dtype=torch.int8)
    b = torch.randint(-8, 8, (k, n), device='cuda', dtype=torch.int8)
    print(f"TORCH|int8|{m}x{k}:{k}x{n}|{med(lambda: torch._int_mm(a, b)):.4f} ms")
for ic, ih, oc, kh, ph in [(64, 56, 64, 3, 1), (256, 56, 64, 1, 0)]:
    x = torch.randn(64, ic, ih, ih, device='cuda').to(memory_format=torch.channels_last)
    conv = torch.nn.Conv2d(ic, oc, kh, 1, ph, bias=False).cuda().to(memory_format=torch.channels_last)
    with torch.no_grad():
        print(f"TORCH|conv tf32 mb64ic{ic}ih{ih}oc{oc}kh{kh}ph{ph}|{med(lambda: conv(x)):.4f} ms")
PY
        ;;
    perf)
        $P --dt=bf16,f16 $BIG
        $P --dt=bf16 16x4096:4096x4096
        $P --dt=f32 4096x4096:4096x4096 8192x8192:8192x8192 1x4096:4096x4096
        for v in "regs=128" "regs=128,stages=2" "tn=8,stages=2"; do
            ANYDNN_GPU_TUNING=$v $P --dt=bf16 4096x4096:4096x4096 8192x8192:8192x8192 \
                | sed "s/^PERF/PERF[$v]/"
        done
        for v in "variant=tiled_wg" "regs=128" "regs=128,kt=16"; do
            ANYDNN_GPU_TUNING=$v $P --dt=f32 4096x4096:4096x4096 | sed "s/^PERF/PERF[$v]/"
        done
        ;;
    sgemm)
        nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
        # Dispatch: the table's row and each launch's kernel and tiles.
        for prb in "--matmul --dt=f32 1024x1024:1024x1024" "--conv --dt=f32 mb2ic64ih14oc64oh14kh3ph1" \
                   "--ip --dt=f32 mb64ic512oc1000" \
                   "--rnn --prop=FWD_I --alg=VANILLA_LSTM l1t2mb16sic64slc64dhc64dic64"; do
            ONEDNN_VERBOSE=dispatch,create $BD --mode=C $prb 2>&1 | grep -E "gemm,|tests:" \
                | sed "s/^/DISPATCH[${prb%% *}] /" | sort -u | head -4
        done
        M="$BD --mode=C --matmul --dt=f32"
        for v in "" "sgemm:config=128x128k16" "sgemm:config=256x128" "sgemm:config=128x256" \
                 "variant=fma_8x8"; do
            (export ANYDNN_GPU_TUNING=$v
            $M --stag=ab,ba --wtag=ab,ba --dtag=ab 1x1:1x1 17x1:1x9 129x67:67x131 \
                513x257:257x1023 17x1000:1000x300 256x512:512x384 1536x64:64x1536 \
                --bia-dt=f32 200x96:96x72 33x8:8x1 --bia-dt=undef \
                --attr-post-ops=sum+relu 130x72:72x260 --attr-post-ops=sum:0.5+gelu_tanh 65x9:9x130 \
                --attr-post-ops=swish:0.5 77x33:33x99 --attr-post-ops=relu+sum 300x200:200x100 \
                --attr-post-ops=sum+relu+mul:f32:per_oc 130x72:72x260 --attr-post-ops= \
                --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 131x40:40x70 \
                --attr-scales=src:common:0.25+wei:common:2 64x64:64x64 --attr-scales= \
                --stag=any --wtag=any --dtag=any 2x1x64x40:1x3x40x56 3x33x47:3x47x29 \
                2x3x65x17:1x1x17x129 4x128x128:4x128x128
            # Convolutions: every kind of gather (stride, padding of 2 on a 4x4 image,
            # dilation, IC 3 and 13, groups, 1x1 stride 2), bias, scales, post-ops.
            $BD --mode=C --conv --dt=f32 --dir=FWD_B,FWD_I mb2ic3ih30oc64oh15kh7sh2ph3 \
                mb2ic64ih14oc64oh14kh3ph1 mb2ic256ih14oc64oh14kh1ph0 g2mb2ic16ih9oc24oh9kh3ph1 \
                mb3ic24ih15oc40oh8kh3sh2ph1 mb2ic13ih11iw9oc70kh3kw2sh1sw2ph1pw0dh1 \
                mb1ic5ih4oc3kh3ph2 mb2ic32ih14oc48kh1sh2ph0 g3mb2ic9ih7oc6kh3dh2ph2 \
                mb2ic256ih14oc256oh14kh3ph1 \
                --attr-post-ops=sum+relu mb2ic64ih14oc72oh14kh1ph0 mb2ic19ih13oc40kh3sh2ph1 \
                --attr-post-ops=gelu_erf --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 \
                mb2ic24ih10oc33kh3ph1
            $BD --mode=C --ip --dt=f32 --dir=FWD_B,BWD_D,BWD_WB mb64ic512oc1000 mb7ic33oc65
            $BD --mode=C --rnn --prop=FWD_I --alg=VANILLA_LSTM l1t3mb16sic64slc64dhc64dic64) 2>&1 \
                | grep -E "FAILED|UNIMPL|MISTRUSTED|tests:" | sed "s/^/CHECK[$v] /" | head -12
        done
        # The convolutions' implementation: implicit where the table gives sgemm_ptx, gemm_nhwc
        # when turned off.
        for v in "" "sgemm:implicit=0"; do
            ANYDNN_GPU_TUNING=$v ONEDNN_VERBOSE=dispatch,create $BD --mode=C --conv --dt=f32 \
                mb2ic3ih30oc64oh15kh7sh2ph3 2>&1 | grep -E "create:(dispatch|cache_miss)" \
                | grep -oE "ocl:convolution:[a-z_0-9]*|implicit sgemm_ptx" | sort -u \
                | sed "s/^/IMPL[$v] /"
        done
        for v in "" "sgemm:config=128x128k16" "sgemm:config=128x64k16" "sgemm:config=256x128" \
                 "sgemm:config=128x256"; do
            ANYDNN_GPU_TUNING=$v $P --dt=f32 4096x4096:4096x4096 8192x8192:8192x8192 \
                1024x1024:1024x1024 2048x2048:2048x2048 --stag=ba 4096x4096:4096x4096 \
                | sed "s/^PERF/PERF[$v]/"
        done
        # ResNet-50 f32 convolutions (mb64, the gpu_vs_torch.py rows): implicit (the table's
        # choice), im2col + GEMM (implicit=0), and the implicit kernel per configuration.
        for v in "" "sgemm:implicit=0" "sgemm:config=128x64" "sgemm:config=128x128" \
                 "sgemm:config=128x64k16" "sgemm:config=128x128k16" "sgemm:config=256x128" \
                 "sgemm:config=128x256"; do
            ANYDNN_GPU_TUNING=$v $BD --mode=P --max-ms-per-prb=${MAXMS:-400} "$T" --conv --dt=f32 \
                mb64ic3ih224oc64oh112kh7sh2ph3 mb64ic64ih56oc64oh56kh3ph1 \
                mb64ic256ih56oc64oh56kh1ph0 mb64ic256ih14oc256oh14kh3ph1 | sed "s/^PERF/PERF[$v]/"
        done
        python3 - <<'PY'
import torch
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
for b, m, k, n in [(1, 4096, 4096, 4096), (1, 8192, 8192, 8192), (1, 1024, 1024, 1024),
                   (1, 2048, 2048, 2048), (8, 1024, 1024, 1024)]:
    a = torch.randn(b, m, k, device='cuda'); w = torch.randn(b, k, n, device='cuda')
    ts = []
    for _ in range(30):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); torch.matmul(a, w); e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
    ts.sort()
    t = ts[len(ts) // 2]
    print(f"TORCH|f32 {b}x{m}x{k}x{n}|{t:.4f} ms|{2 * b * m * n * k / t / 1e9:.1f} TFLOP/s")
for ic, ih, oc, kh, sh, ph in [(3, 224, 64, 7, 2, 3), (64, 56, 64, 3, 1, 1), (256, 56, 64, 1, 1, 0),
                               (256, 14, 256, 3, 1, 1)]:
    x = torch.randn(64, ic, ih, ih, device='cuda').to(memory_format=torch.channels_last)
    conv = torch.nn.Conv2d(ic, oc, kh, sh, ph, bias=False).cuda().to(memory_format=torch.channels_last)
    ts = []
    with torch.no_grad():
        for _ in range(30):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record(); conv(x); e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
    ts.sort()
    print(f"TORCH|conv f32 mb64ic{ic}ih{ih}oc{oc}kh{kh}sh{sh}ph{ph}|{ts[len(ts) // 2]:.4f} ms")
PY
        ;;
    gemv)
        # The skinny kernel (gemm_skinny.cl): checks of the table's row and of forced shapes
        # (K split many times, small work-groups, one load in flight) over tails, both layouts
        # of B, N small (C^T), bf16/f16, bias and post-ops; then medians of the table's row and
        # of other rows on GEMV shapes, and PyTorch's times (TF32 off). ONEDNN_VERBOSE shows
        # the kernel (columns- or K-dense W) and the K slices of one launch.
        nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
        ONEDNN_VERBOSE=dispatch $BD --mode=C --matmul --dt=f32 --stag=ab --wtag=ab,ba \
            1x4096:4096x4096 2>&1 | grep -E "skinny" | cut -c1-300 | head -4
        for v in "" "variant=skinny,tn=64,kt=8" "variant=skinny,wg_m=2,wg_n=16,tm=12,stages=1"; do
            for dt in f32 bf16 f16 bf16:bf16:f32; do
                ANYDNN_GPU_TUNING=$v $BD --mode=C --matmul --dt=$dt --stag=ab,ba --wtag=ab,ba \
                    --dtag=ab 1x4096:4096x1000 3x257:257x1031 16x300:300x77 1x1:1x1 \
                    130x64:64x5 4096x777:777x16 --bia-dt=f32 --attr-post-ops=sum+relu \
                    1x301:301x72 7x129:129x45 --bia-dt=undef --attr-post-ops= \
                    --stag=abc --wtag=abc --dtag=abc 3x2x200:1x200x40 2>&1 \
                    | grep -E "FAILED|UNIMPL|MISTRUSTED|tests:" | sed "s/^/CHECK[$v] $dt /" | tail -3
            done
        done
        $BD --mode=C --ip --dt=f32,bf16 --dir=FWD_B,FWD_I mb1ic4096oc4096 mb3ic777oc130 \
            --attr-post-ops=relu mb1ic300oc70 2>&1 | grep -E "FAILED|UNIMPL|tests:" \
            | sed "s/^/CHECK[ip] /" | tail -3
        G="1x4096:4096x4096 1x4096:4096x1000 4x4096:4096x4096 16x4096:4096x4096 1x8192:8192x8192"
        for v in "" "variant=skinny,tn=2" "variant=skinny,tn=8" "variant=skinny,tn=16" \
                 "variant=skinny,stages=8" "variant=skinny,stages=2" "variant=skinny,stages=1" \
                 "variant=skinny,regs=64" "variant=skinny,regs=128" \
                 "variant=skinny,wg_m=4,wg_n=32" "variant=skinny,wg_m=16,wg_n=16" \
                 "variant=skinny,wg_m=4,wg_n=64" "variant=skinny,tn=1,kt=100000"; do
            ANYDNN_GPU_TUNING=$v $P --dt=f32 $G | sed "s/^PERF/PERF[$v]/"
            ANYDNN_GPU_TUNING=$v $P --dt=f32 --wtag=ba 1x4096:4096x4096 | sed "s/^PERF/PERF[$v]/"
        done
        $P --dt=bf16,f16 1x4096:4096x4096 16x4096:4096x4096
        $P --dt=bf16 --wtag=ba 16x4096:4096x4096
        $P --dt=f32,bf16 4096x4096:4096x16 4096x4096:4096x1
        $BD --mode=P --max-ms-per-prb=${MAXMS:-400} "$T" --ip --dt=f32,bf16 --dir=FWD_I \
            mb1ic4096oc4096 mb16ic4096oc4096
        python3 - <<'PY'
import torch
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
dts = {'f32': torch.float32, 'bf16': torch.bfloat16, 'f16': torch.float16}
cases = [(dt, m, k, n, False) for dt in ('f32',) for m, k, n in
         [(1, 4096, 4096), (1, 4096, 1000), (4, 4096, 4096), (16, 4096, 4096), (1, 8192, 8192)]]
cases += [('f32', 1, 4096, 4096, True)]
cases += [(dt, m, 4096, 4096, False) for dt in ('bf16', 'f16') for m in (1, 16)]
cases += [('bf16', 16, 4096, 4096, True)]
cases += [(dt, 4096, 4096, n, False) for dt in ('f32', 'bf16') for n in (16, 1)]
for dt, m, k, n, bt in cases:
    a = torch.randn(m, k, device='cuda').to(dts[dt])
    b = torch.randn(n, k, device='cuda').to(dts[dt]).t() if bt else torch.randn(k, n, device='cuda').to(dts[dt])
    ts = []
    for _ in range(200):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); torch.mm(a, b); e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
    ts.sort()
    gbs = (m * k + k * n + m * n) * a.element_size() / (ts[len(ts) // 2] * 1e-3) / 1e9
    print(f"TORCH|{dt}|{m}x{k}:{k}x{n}{' wei ba' if bt else ''}|{ts[len(ts)//2]:.4f} ms|{gbs:.0f} GB/s|spread {ts[20]:.4f}-{ts[-20]:.4f}")
PY
        ;;
    esac
done
