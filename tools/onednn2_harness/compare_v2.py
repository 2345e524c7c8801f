#!/usr/bin/env python3
"""Ratio table of anydnn against Debian's oneDNN 2.6.3 (libdnnl-dev, v2 API) on the shapes of
the performance goals. Each problem runs on our benchdnn (--mode=P) and on onednn2_harness,
interleaved for several rounds with the same thread count; the table shows medians of the
per-round medians, their spread, and speed-up = oneDNN time / our time (>= 1.0: as fast).

  tools/onednn2_harness/compare_v2.py --ours build/tools/benchdnn/benchdnn \\
      --harness build/tools/onednn2_harness/onednn2_harness [--rounds 3] [--only conv]

Without --harness the script builds the harness against the extracted Debian packages in
--onednn2-root (default /tmp/dnnl26: `apt-get download libdnnl2 libdnnl-dev` + `dpkg -x`).
"""
import argparse
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MARK = "@@perf@@"

# (label, our benchdnn arguments, harness arguments)
RESNET = [("conv1", "mb{mb}ic3ih224oc64oh112kh7sh2ph3", "{mb} 3 224 64 112 7 2 3"),
          ("res2_3x3", "mb{mb}ic64ih56oc64oh56kh3ph1", "{mb} 64 56 64 56 3 1 1"),
          ("res2_1x1", "mb{mb}ic256ih56oc64oh56kh1", "{mb} 256 56 64 56 1 1 0")]
PROBLEMS = [
    ("matmul f32 1024^3", "--matmul --dt=f32 1024x1024:1024x1024", "matmul f32 1024 1024 1024"),
    ("matmul f32 2048^3", "--matmul --dt=f32 2048x2048:2048x2048", "matmul f32 2048 2048 2048"),
    ("matmul f32 128x4096x4096", "--matmul --dt=f32 128x4096:4096x4096",
     "matmul f32 128 4096 4096"),
    ("matmul f32 1x4096x4096", "--matmul --dt=f32 1x4096:4096x4096", "matmul f32 1 4096 4096"),
    ("matmul bf16 2048^3", "--matmul --dt=bf16 2048x2048:2048x2048",
     "matmul bf16 2048 2048 2048"),
    ("matmul u8s8s32 2048^3", "--matmul --dt=u8:s8:s32 2048x2048:2048x2048",
     "matmul int8 2048 2048 2048"),
] + [("conv %s mb%d %s" % (name, mb, lay),
      "--conv --dir=FWD_I %s%s" % ("" if lay == "any" else "--stag=abx --wtag=abx --dtag=abx ",
                                   ours.format(mb=mb)),
      "conv %s %s" % (lay, theirs.format(mb=mb)))
     for lay in ("any", "plain") for mb in (1, 16) for name, ours, theirs in RESNET] + [
    ("eltwise relu 16384x1024", "--eltwise --dir=FWD_I --alg=relu 16384x1024",
     "eltwise relu 16384 1024"),
    ("eltwise gelu_erf 16384x1024", "--eltwise --dir=FWD_I --alg=gelu_erf 16384x1024",
     "eltwise gelu_erf 16384 1024"),
    ("softmax 16384x1024", "--softmax --dir=FWD_I --alg=SOFTMAX --axis=1 16384x1024",
     "softmax 16384 1024"),
    ("lnorm FWD_I 16384x1024", "--lnorm --dir=FWD_I --flags=CH 16384x1024",
     "lnorm fwd_i 16384 1024"),
    ("lnorm FWD_D 16384x1024", "--lnorm --dir=FWD_D --flags=CH 16384x1024",
     "lnorm fwd_d 16384 1024"),
    ("reorder nchw->nChw16c 16x256x56x56",
     "--reorder --stag=nchw --dtag=nChw16c 16x256x56x56", "reorder 16 256 56 56"),
] + [("pool max %s %s" % (d, t), "--pool --dir=%s --alg=max --tag=%s mb16ic64ih112oh56kh3sh2ph1"
      % (d, t), "pool max %s %s 16 64 112 56 3 2 1" % (d.lower(), t))
     for d in ("FWD_I", "FWD_D") for t in ("nChw16c", "nhwc")] + [
    ("pool avg_np FWD_I nChw16c 2048@7", "--pool --dir=FWD_I --alg=avg_np --tag=nChw16c "
     "mb16ic2048ih7oh1kh7sh1ph0", "pool avg_np fwd_i nChw16c 16 2048 7 1 7 1 0"),
] + [("bnorm %s %s ic%d" % (d, t, c), "--bnorm --dir=%s --flags=%s --tag=%s mb16ic%dih56"
      % (d, "CHG" if d == "FWD_I" else "CH", t, c), "bnorm %s %s 16 %d 56" % (d.lower(), t, c))
     for d in ("FWD_I", "FWD_D") for t in ("nChw16c", "nhwc") for c in (64, 256)]


def run_ours(binary, args, threads):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    cmd = [binary, "--mode=P", "--perf-template=" + MARK + "%-time%|%@time%"] + args.split()
    out = subprocess.run(cmd, env=env, text=True, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT).stdout
    for line in out.splitlines():
        if line.startswith(MARK):
            mn, med = line[len(MARK):].split("|")[:2]
            return float(med)
    return None


def run_theirs(harness, args, threads, libdir):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    if libdir:
        env["LD_LIBRARY_PATH"] = libdir + ":" + env.get("LD_LIBRARY_PATH", "")
    r = subprocess.run([harness] + args.split(), env=env, text=True, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    if r.returncode != 0:
        return None
    return float(r.stdout.split()[1])


def build_harness(root, out):
    inc = os.path.join(root, "usr", "include")
    lib = os.path.join(root, "usr", "lib", "x86_64-linux-gnu")
    subprocess.run(["g++", "-std=c++17", "-O2", "-I", inc, os.path.join(HERE, "onednn2_harness.cpp"),
                    "-L", lib, "-ldnnl", "-o", out], check=True)
    return out, lib


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--ours", required=True)
    ap.add_argument("--harness")
    ap.add_argument("--onednn2-root", default="/tmp/dnnl26/root")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--only", default="", help="run problems whose label contains this")
    a = ap.parse_args()
    libdir = os.path.join(a.onednn2_root, "usr", "lib", "x86_64-linux-gnu")
    harness = a.harness or build_harness(a.onednn2_root, "/tmp/onednn2_harness")[0]
    print("anydnn vs oneDNN 2.6.3 (Debian libdnnl-dev), %d threads, %d interleaved rounds"
          % (a.threads, a.rounds))
    print("%-36s %10s %10s %8s  %s" % ("problem", "ours ms", "2.6.3 ms", "speedup", "spread"))
    for label, ours_args, theirs_args in PROBLEMS:
        if a.only not in label:
            continue
        ours, theirs = [], []
        for r in range(a.rounds):
            pair = [("o", ours_args), ("t", theirs_args)]
            if r % 2:
                pair.reverse()
            for who, args in pair:
                v = run_ours(a.ours, args, a.threads) if who == "o" else \
                    run_theirs(harness, args, a.threads, libdir)
                if v is not None:
                    (ours if who == "o" else theirs).append(v)
        if not ours or not theirs:
            print("%-36s %10s %10s %8s" % (label, "%.3f" % statistics.median(ours) if ours else "n/a",
                                            "%.3f" % statistics.median(theirs) if theirs else "n/a", "-"))
            continue
        mo, mt = statistics.median(ours), statistics.median(theirs)
        spread = "ours %.0f%%, theirs %.0f%%" % (100 * (max(ours) - min(ours)) / mo,
                                                 100 * (max(theirs) - min(theirs)) / mt)
        print("%-36s %10.3f %10.3f %8.2f  %s" % (label, mo, mt, mt / mo, spread), flush=True)


if __name__ == "__main__":
    sys.exit(main())
