#!/usr/bin/env python3
"""Issue 37's memory target: the memory analysis of a large rank with profile_memory costs at most
0.3 x `kinetoscope-cli info` on the same file (info = the load alone).

Each round runs `info PATH` and `memory PATH` as whole processes, alternating, and notes wall and
CPU seconds (user + system) and peak RSS. The analysis's cost is memory minus info; printed as a
Markdown table with medians and the worst round, and the ratio of the analysis's median cost to
info's median. CPU seconds say more than wall seconds on a loaded machine. Never a timed test.

Make a large real-derived rank first (h100_qwen05b has 2450 [memory] events a copy):

  build/app/cli/kinetoscope-cli synth --from ../shared/traces/h100_qwen05b/*.json.gz --copies 115 --out /tmp/big
  python3 bench/memory_analysis_benchmark.py --cli build/app/cli/kinetoscope-cli /tmp/big [--runs 5]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile


def timed(command):
    """(wall s, cpu s, peak RSS MB) of one whole process."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as times:
        p = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", "-o", times.name] + command,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            sys.exit(f"memory_analysis_benchmark.py: {' '.join(command)} exited {p.returncode}: "
                     f"{p.stderr.strip()[-300:]}")
        wall, user, system, rss_kib = times.read().split()[-4:]
    return float(wall), float(user) + float(system), int(rss_kib) / 1000.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path")
    parser.add_argument("--cli", required=True)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores, {args.runs} rounds")
    runs = {"info": [], "memory": []}
    for _ in range(args.runs):
        for command in runs:
            runs[command].append(timed([args.cli, command, args.path]))
    print("\n| command | wall s (median / worst) | CPU s (median / worst) | peak RSS MB (median / worst) |")
    print("|---|---|---|---|")
    for command, rounds in runs.items():
        wall, cpu, rss = zip(*rounds)
        print(f"| `{command}` | {statistics.median(wall):.2f} / {max(wall):.2f} | "
              f"{statistics.median(cpu):.2f} / {max(cpu):.2f} | {statistics.median(rss):.0f} / {max(rss):.0f} |")
    info_wall = statistics.median(r[0] for r in runs["info"])
    info_cpu = statistics.median(r[1] for r in runs["info"])
    extra_wall = statistics.median(r[0] for r in runs["memory"]) - info_wall
    extra_cpu = statistics.median(r[1] for r in runs["memory"]) - info_cpu
    print(f"\nthe analysis alone (memory - info): {extra_wall:.2f} s wall = {extra_wall / info_wall:.2f} x info, "
          f"{extra_cpu:.2f} CPU s = {extra_cpu / info_cpu:.2f} x info (goal <= 0.3 x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
