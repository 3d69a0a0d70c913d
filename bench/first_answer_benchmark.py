#!/usr/bin/env python3
"""Issue 39's B10: the first answers in the app, from `kinetoscope PATH` to the timeline drawn
and to the Overview's findings shown, beside `gzip -dc` of the same files in the same round.

Each round runs `gzip -dc` over every .json.gz under PATH (to /dev/null), then the app offscreen
with its hidden `--dock-report`, which records when each view was first in (ms since main()
began: viewReady = the timeline prepared and drawn, analysesReady = the docks, jobPathReady,
overviewReady = the Overview's findings) and quits once the Overview is shown. Prints a Markdown
row per milestone: median and worst of the rounds, and the median's ratio to the round's
`gzip -dc`; the machine's load average before the first round. Never a timed test.

  python3 bench/first_answer_benchmark.py --app build/app/gui/kinetoscope PATH [--runs 5]
"""
import argparse
import glob
import os
import statistics
import subprocess
import sys
import tempfile
import time

MILESTONES = [("viewReady", "timeline drawn"), ("analysesReady", "analysis docks"),
              ("jobPathReady", "job critical path"), ("overviewReady", "Overview findings")]


def gzip_seconds(path):
    files = sorted(glob.glob(os.path.join(path, "**", "*.json.gz"), recursive=True)) if os.path.isdir(path) else [path]
    start = time.monotonic()
    for f in files:
        with open(os.devnull, "wb") as null:
            subprocess.run(["gzip", "-dc", f], stdout=null, check=True)
    return time.monotonic() - start


def app_round(app, path, report, size):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    start = time.monotonic()
    p = subprocess.run([app, path, "--dock-report", report, "--window-size", size], env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - start
    if p.returncode != 0:
        sys.exit(f"first_answer_benchmark.py: the app exited {p.returncode}: {p.stderr.strip()[-400:]}")
    times = {}
    with open(report) as f:
        for line in f.read().splitlines():
            parts = line.split("\t")
            if parts[0] == "time" and len(parts) == 3:
                times[parts[1]] = float(parts[2].split()[0]) / 1000.0
    return wall, times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path")
    parser.add_argument("--app", required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--size", default="1280x800")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores, {args.runs} rounds")
    gz, walls, seen = [], [], {key: [] for key, _ in MILESTONES}
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "docks.txt")
        for _ in range(args.runs):
            gz.append(gzip_seconds(args.path))
            wall, times = app_round(args.app, args.path, report, args.size)
            walls.append(wall)
            for key, _ in MILESTONES:
                if times.get(key, -1) >= 0:
                    seen[key].append(times[key])
    g = statistics.median(gz)
    print(f"\n`gzip -dc` median {g:.2f} s\n")
    print("| milestone | median s | worst s | median / gzip -dc |")
    print("|---|---|---|---|")
    for key, label in MILESTONES:
        v = seen[key]
        if not v:
            print(f"| {label} | — | — | — |")
            continue
        print(f"| {label} | {statistics.median(v):.2f} | {max(v):.2f} | {statistics.median(v) / g:.2f} × |")
    print(f"| whole process (until it quits) | {statistics.median(walls):.2f} | {max(walls):.2f} | "
          f"{statistics.median(walls) / g:.2f} × |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
