#!/bin/sh
# Compiles the Hopper GEMM and convolution kernels (src/gpu/gemm/hopper/*.cu) as the build
# does (nvcc -ptx, sm_90a) and then to SASS with ptxas, without a GPU, and checks each entry:
# the bf16, f16 and tf32 kernels must hold HGMMA, the 8-bit integer ones IGMMA, and none may
# spill; the TMA-fed ones (wgmma_tma.cu, anydnn_wgmma_tma_*) must also hold UTMALDG (bulk
# tensor loads) and both USETMAXREG (the producer's and the consumers' register counts; none
# in the 64-row ones, anydnn_wgmma_tma_*_m64_*, of one consumer warpgroup). Prints one line
# per entry (registers, spills, HGMMA/IGMMA counts) and exits 1 on a
# failed check. cuobjdump must be on PATH (PyPI nvidia-cuda-cuobjdump puts it under
# site-packages/nvidia/cu13/bin); CUOBJDUMP may name it instead.
#   tools/ptx_check/check_wgmma_sass.sh [OUT_DIR]
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$(mktemp -d)}
mkdir -p "$out"
status=0
for name in wgmma_gemm wgmma_tma wgmma_conv wgmma_conv_halo; do
    nvcc -ptx -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a \
        "$root/src/gpu/gemm/hopper/$name.cu" -o "$out/$name.ptx"
    ptxas -arch=sm_90a -v -o "$out/$name.cubin" "$out/$name.ptx" 2> "$out/$name.log"
    ${CUOBJDUMP:-cuobjdump} -sass "$out/$name.cubin" > "$out/$name.sass"
    # Per entry: registers and spill bytes from ptxas, tensor-core instructions from the SASS.
    if ! awk -v sass="$out/$name.sass" '
        /Compiling entry function/ { match($0, /\047[^\047]*\047/); e = substr($0, RSTART + 1, RLENGTH - 2) }
        /spill stores/ { split($0, w, " "); for (i = 1; i <= NF; ++i) if (w[i] == "spill" && w[i + 1] == "stores,") spill[e] = w[i - 2] }
        /Used [0-9]+ registers/ { match($0, /Used [0-9]+/); regs[e] = substr($0, RSTART + 5, RLENGTH - 5) }
        END {
            while ((getline line < sass) > 0) {
                if (line ~ /Function : /) { split(line, w, " "); f = w[3] }
                if (line ~ /HGMMA/) h[f]++
                if (line ~ /IGMMA/) g[f]++
                if (line ~ /UTMALDG/) t[f]++
                if (line ~ /USETMAXREG/) r[f]++
            }
            bad = 0
            for (e in regs) {
                if (e ~ /splitk_reduce/) { printf "  %s: %s registers, %d bytes spilled\n", e, regs[e], spill[e]; continue }
                want = e ~ /_(s8|u8)(s8|u8)_/ ? "IGMMA" : "HGMMA"
                n = want == "IGMMA" ? g[e] + 0 : h[e] + 0
                ok = n > 0 && spill[e] + 0 == 0
                if (e ~ /_tma_.*_m64_/) { want = want ", UTMALDG, no USETMAXREG"; ok = ok && t[e] > 0 && r[e] + 0 == 0 }
                else if (e ~ /_tma_/) { want = want ", UTMALDG, 2 USETMAXREG"; ok = ok && t[e] > 0 && r[e] == 2 }
                printf "  %s: %s registers, %d bytes spilled, HGMMA %d, IGMMA %d, UTMALDG %d, USETMAXREG %d%s\n", e, regs[e],
                    spill[e], h[e] + 0, g[e] + 0, t[e] + 0, r[e] + 0, ok ? "" : "  <-- FAIL (wants " want ", no spills)"
                if (!ok) bad = 1
            }
            exit bad
        }' "$out/$name.log" > "$out/$name.check"; then
        status=1
    fi
    sort "$out/$name.check"
    echo "$name: $(grep -c 'Compiling entry' "$out/$name.log") entries"
done
[ $status -eq 0 ] && echo "wgmma SASS check: ok" || echo "wgmma SASS check: FAILED"
exit $status
