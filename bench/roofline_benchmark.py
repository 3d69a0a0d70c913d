#!/usr/bin/env python3
"""Issue 21's speed target: `kinetoscope-cli roofline` on a rank against
`analyze --only temporal` on the same file, in the same run (best of N each, whole
process: load included). Prints one Markdown row per file: both times and the ratio
(the target is <= 2x on the 1 GB real-derived rank)."""
import argparse
import subprocess
import time


def best_of(runs, command):
    best = None
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        elapsed = time.perf_counter() - t0
        best = elapsed if best is None else min(best, elapsed)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("cli")
    ap.add_argument("files", nargs="+")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    print("| file | analyze --only temporal (s) | roofline (s) | roofline / temporal |")
    print("|---|---|---|---|")
    for f in args.files:
        temporal = best_of(args.runs, [args.cli, "analyze", f, "--only", "temporal"])
        roofline = best_of(args.runs, [args.cli, "roofline", f, "--format", "csv"])
        print(f"| {f.split('/')[-1]} | {temporal:.2f} | {roofline:.2f} | {roofline / temporal:.2f}x |")


if __name__ == "__main__":
    main()
