#!/usr/bin/env python3
"""Issue 38's speed row: kinetoscope.hta.TraceAnalysis load + get_temporal_breakdown()
beside `kinetoscope-cli analyze --only temporal` on the same folder (and beside HTA's own
TraceAnalysis when `hta` imports), each a fresh process, best of N; then one rank's event
frame (Trace.events) timed, with the memory it adds beside the store's bytes. Prints
Markdown tables. Run with Debian's python3 and PYTHONPATH=<build>/python (run_benchmarks.sh
does); never a timed test."""
import argparse
import os
import subprocess
import sys
import time

KINETOSCOPE_CALL = """
import sys, time
t0 = time.perf_counter()
from kinetoscope.hta import TraceAnalysis
TraceAnalysis(trace_dir=sys.argv[1], progress=False).get_temporal_breakdown(visualize=False)
print(time.perf_counter() - t0)
"""

HTA_CALL = """
import sys, time
t0 = time.perf_counter()
from hta.trace_analysis import TraceAnalysis
TraceAnalysis(trace_dir=sys.argv[1]).get_temporal_breakdown(visualize=False)
print(time.perf_counter() - t0)
"""

FRAME_CALL = """
import resource, sys, time
import kinetoscope
trace = kinetoscope.open(sys.argv[1], progress=False)
table = trace.rank_table()
rank = int(table["slices"].idxmax())
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
t0 = time.perf_counter()
frame = trace.events(rank)
elapsed = time.perf_counter() - t0
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(len(frame), elapsed, after - before, int(table.loc[rank, "store_bytes"]))
"""


def best_of(runs, command, env=None):
    best = None
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        elapsed = time.perf_counter() - t0
        best = elapsed if best is None else min(best, elapsed)
    return best


def has_hta(python):
    return subprocess.run([python, "-c", "import hta"], capture_output=True).returncode == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("cli")
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--python", default="/usr/bin/python3")
    args = ap.parse_args()
    env = dict(os.environ)
    hta = has_hta(args.python)
    print("| folder | analyze --only temporal (s) | kinetoscope.hta load + temporal (s) | ratio to the CLI |"
          + (" HTA (s) | HTA / kinetoscope.hta |" if hta else ""))
    print("|---|---|---|---|" + ("---|---|" if hta else ""))
    for folder in args.folders:
        cli = best_of(args.runs, [args.cli, "analyze", folder, "--only", "temporal"])
        ours = best_of(args.runs, [args.python, "-c", KINETOSCOPE_CALL, folder], env)
        row = f"| {os.path.basename(folder.rstrip('/'))} | {cli:.2f} | {ours:.2f} | {ours / cli:.2f}x |"
        if hta:
            theirs = best_of(1, [args.python, "-c", HTA_CALL, folder], env)
            row += f" {theirs:.1f} | {theirs / ours:.0f}x |"
        print(row)
    print()
    print("| folder | events of the largest rank | Trace.events (s) | memory added (MB) | store (MB) |")
    print("|---|---|---|---|---|")
    for folder in args.folders:
        out = subprocess.run([args.python, "-c", FRAME_CALL, folder], check=True, capture_output=True, text=True, env=env)
        n, elapsed, added, store = out.stdout.split()
        print(f"| {os.path.basename(folder.rstrip('/'))} | {int(n):,} | {float(elapsed):.3f} | {int(added) / 1e6:.0f} | "
              f"{int(store) / 1e6:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
