#!/usr/bin/env python3
"""Times anydnn and upstream oneDNN side by side on one batch and prints ours/oneDNN ratios.

Both binaries are tools/benchdnn built from the same source: one linked to anydnn, one to an
upstream oneDNN v3 (cmake -S tools/benchdnn -DDNNL_ROOT=...). Every problem of the batch runs
on both, interleaved and alternating which goes first, with the same thread count; the table
shows the best median of the rounds.

  tools/benchdnn/compare.py --ours build/tools/benchdnn/benchdnn \\
      --onednn-root /tmp/onednn [--batch tests/inputs/perf] [--threads 2]

--setup-onednn DIR installs PyPI's oneDNN (wheels `onednn`, `onednn-devel`) into a venv at DIR
first. That build runs its CPU engine through SYCL on Intel's OpenCL CPU runtime, so the
script also puts the OpenCL adapter of the Unified Runtime beside it and points the ICD
loader at that runtime. Nothing is installed outside DIR.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MARK = "@@perf@@"
TEMPLATE = MARK + "%impl%|%-time%|%@time%|%@Gbw%|%@Gflops%"
# The Unified Runtime package whose OpenCL adapter matches PyPI's oneDNN 2026.1 runtime.
UR_ADAPTER_PKG = "intel-cmplr-lib-ur==2026.1.2"


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def run(cmd, env=None, check=True):
    return subprocess.run(cmd, env=env, check=check, text=True, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT)


def setup_onednn(prefix):
    """PyPI oneDNN in a venv at prefix; returns the prefix that holds include/ and lib/."""
    py = os.path.join(prefix, "bin", "python")
    if not os.path.exists(py):
        log("creating venv", prefix)
        run([sys.executable, "-m", "venv", prefix])
    if not glob.glob(os.path.join(prefix, "lib", "libdnnl.so*")):
        log("pip install onednn onednn-devel (large download)")
        run([py, "-m", "pip", "install", "-q", "onednn", "onednn-devel"])
    extra = os.path.join(prefix, "extra-lib")
    if not glob.glob(os.path.join(prefix, "lib", "libur_adapter_opencl.so*")) and \
            not glob.glob(os.path.join(extra, "libur_adapter_opencl.so*")):
        wheels = os.path.join(prefix, "wheels")
        os.makedirs(extra, exist_ok=True)
        log("fetching the Unified Runtime OpenCL adapter:", UR_ADAPTER_PKG)
        run([py, "-m", "pip", "download", "-q", "--no-deps", "-d", wheels, UR_ADAPTER_PKG])
        for whl in glob.glob(os.path.join(wheels, "intel_cmplr_lib_ur-*.whl")):
            with zipfile.ZipFile(whl) as z:
                for name in z.namelist():
                    base = os.path.basename(name)
                    if base.startswith("libur_adapter_opencl.so"):
                        with z.open(name) as src, open(os.path.join(extra, base), "wb") as dst:
                            shutil.copyfileobj(src, dst)
    return prefix


def onednn_env(root, threads):
    env = dict(os.environ)
    libs = [os.path.join(root, "lib"), os.path.join(root, "extra-lib")]
    env["LD_LIBRARY_PATH"] = ":".join(libs + [env.get("LD_LIBRARY_PATH", "")]).rstrip(":")
    ocl = os.path.join(root, "lib", "libintelocl.so")
    if os.path.exists(ocl):
        env["OCL_ICD_FILENAMES"] = ocl
    env["OMP_NUM_THREADS"] = str(threads)
    env.pop("ONEDNN_VERBOSE", None)
    return env


def build_onednn_benchdnn(root, build_dir):
    exe = os.path.join(build_dir, "benchdnn")
    log("building benchdnn against", root, "in", build_dir)
    run(["cmake", "-S", HERE, "-B", build_dir, "-DDNNL_ROOT=" + root,
         "-DCMAKE_BUILD_TYPE=Release"])
    run(["cmake", "--build", build_dir, "-j", str(os.cpu_count() or 2)])
    return exe


def version(exe, env):
    out = run([exe, "--version"], env=env, check=False).stdout
    m = re.search(r"library: (\S+) \((\S*)\)", out)
    return (m.group(1) + (" " + m.group(2)[:12] if m.group(2) else "")) if m else "unknown"


def list_problems(exe, env, batch):
    out = run([exe, "--mode=L", "--batch=" + batch], env=env).stdout
    return [m.group(1) for m in re.finditer(r"__REPRO: (.*)", out)]


def time_one(exe, env, repro, max_ms, pin):
    cmd = pin + [exe, "--mode=P", "--max-ms-per-prb=%g" % max_ms,
                 "--perf-template=" + TEMPLATE] + repro.split()
    out = run(cmd, env=env, check=False).stdout
    for line in out.splitlines():
        if line.startswith(MARK):
            impl, tmin, tmed, gbw, gflops = line[len(MARK):].split("|")
            return {"impl": impl, "min": float(tmin), "med": float(tmed), "gbw": float(gbw),
                    "gflops": float(gflops)}
    m = re.search(r"\d+:(UNIMPLEMENTED|SKIPPED|FAILED)( \(([^)]*)\))?", out)
    return {"error": m.group(1) if m else "no result"}


def best(results):
    ok = [r for r in results if "med" in r]
    return min(ok, key=lambda r: r["med"]) if ok else results[-1]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ours", default=os.path.join(ROOT, "build", "tools", "benchdnn", "benchdnn"))
    ap.add_argument("--onednn", help="benchdnn already built against oneDNN")
    ap.add_argument("--onednn-root", help="oneDNN prefix (include/, lib/)")
    ap.add_argument("--setup-onednn", metavar="DIR", help="install PyPI oneDNN into a venv at DIR")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build-onednn-benchdnn"))
    ap.add_argument("--batch", default=os.path.join(ROOT, "tests", "inputs", "perf"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--max-ms", type=float, default=1500, help="timing per problem and run")
    args = ap.parse_args()

    root = args.onednn_root
    if args.setup_onednn:
        root = setup_onednn(os.path.abspath(args.setup_onednn))
    if not args.onednn and not root:
        sys.exit("compare.py: give --onednn BIN, --onednn-root PREFIX or --setup-onednn DIR")
    env_up = onednn_env(root, args.threads) if root else dict(os.environ)
    exe_up = args.onednn or build_onednn_benchdnn(root, args.build_dir)
    env_ours = dict(os.environ, OMP_NUM_THREADS=str(args.threads))
    env_ours.pop("ONEDNN_VERBOSE", None)
    # The same cores for both; oneDNN's TBB sizes itself from the affinity mask.
    pin = []
    if shutil.which("taskset") and args.threads <= (os.cpu_count() or 1):
        pin = ["taskset", "-c", "0-%d" % (args.threads - 1)]

    problems = list_problems(args.ours, env_ours, args.batch)
    v_ours, v_up = version(args.ours, env_ours), version(exe_up, env_up)
    print("# ours: anydnn %s   oneDNN: %s   threads: %d   rounds: %d x %g ms   batch: %s"
          % (v_ours, v_up, args.threads, args.rounds, args.max_ms,
             os.path.relpath(args.batch, ROOT)))
    rows = []
    for p in problems:
        res = {"ours": [], "onednn": []}
        for r in range(args.rounds):
            order = [("ours", args.ours, env_ours), ("onednn", exe_up, env_up)]
            if r % 2:
                order.reverse()
            for name, exe, env in order:
                res[name].append(time_one(exe, env, p, args.max_ms, pin))
        o, u = best(res["ours"]), best(res["onednn"])
        rows.append((p, o, u))
        log("done:", p)

    def cell(r):
        if "med" not in r:
            return r["error"], "-", "-"
        rate = "%.1f GFLOP/s" % r["gflops"] if r["gflops"] > 0 else "%.2f GB/s" % r["gbw"]
        return r["impl"], "%.3f" % r["med"], rate

    head = ("problem", "ours impl", "ours ms", "ours rate", "oneDNN impl", "oneDNN ms",
            "oneDNN rate", "ours/oneDNN")
    table = [head]
    for p, o, u in rows:
        ratio = "%.2f" % (o["med"] / u["med"]) if "med" in o and "med" in u and u["med"] > 0 \
            else "-"
        table.append((p,) + cell(o) + cell(u) + (ratio,))
    widths = [max(len(r[i]) for r in table) for i in range(len(head))]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(head, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in table[1:]:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |")
    print("# times: median ms of one execution (best of the rounds); ratio < 1: anydnn faster")


if __name__ == "__main__":
    main()
