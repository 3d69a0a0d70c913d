#!/usr/bin/env python3
"""Issue 27: peak RSS and time of every CLI command (and the app) on one job.

For a trace folder (or file), runs each command RUNS times as a whole process under
/usr/bin/time and prints a Markdown table: wall seconds (median / worst), peak RSS
(median / worst), and the worst peak against the target "store + 1 GB", the store being
the sum of `bytes_in_memory` that `info --json` reports. With --app, also the desktop
app offscreen: it opens the job, computes every dock it computes on its own and the job's
critical path, writes its hidden `--dock-report` (when the docks and the job path came in) and
quits; its target is 2 GB in all.

Usage: command_memory.py CLI PATH [--app APP] [--runs N] [--diff-with PATH]
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile

TIME_FORMAT = "%e %M"  # wall s, peak RSS KiB


def timed(command, env=None):
    """(wall s, peak RSS MB of 10^6 bytes, exit code) of one whole process."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as times, open(os.devnull, "wb") as null:
        p = subprocess.run(["/usr/bin/time", "-f", TIME_FORMAT, "-o", times.name] + command,
                           stdout=null, stderr=subprocess.PIPE, env=env)
        wall, rss_kib = times.read().split()[-2:]
    return float(wall), int(rss_kib) * 1024 / 1e6, p.returncode


def store_mb(cli, path):
    out = subprocess.run([cli, "info", path, "--json"], capture_output=True, text=True, check=True).stdout
    return sum(r["bytes_in_memory"] for r in json.loads(out)["ranks"]) / 1e6


def commands(cli, path, diff_with, tmp):
    os.makedirs(os.path.join(tmp, "counters"), exist_ok=True)  # one file per rank of a folder
    rows = [
        ("info", [cli, "info", path]),
        ("analyze", [cli, "analyze", path]),
        ("overview", [cli, "overview", path]),
        ("collectives", [cli, "collectives", path]),
        ("ops", [cli, "ops", path]),
        ("counters --write-trace", [cli, "counters", path, "--write-trace", "--out", os.path.join(tmp, "counters")]),
        ("critical-path (rank 0, ProfilerStep instance 0)", [cli, "critical-path", path, "--annotation", "ProfilerStep"]),
        ("critical-path --all-ranks (whole trace)", [cli, "critical-path", path, "--all-ranks"]),
        ("stragglers (whole trace)", [cli, "stragglers", path]),
        ("summarize", [cli, "summarize", path, "--out", os.path.join(tmp, "job.kssum")]),
    ]
    if diff_with:
        rows.append(("diff", [cli, "diff", diff_with, path]))
    return rows


def main(argv):
    runs, app, diff_with, args = 3, None, None, []
    i = 0
    while i < len(argv):
        if argv[i] in ("--runs", "--app", "--diff-with") and i + 1 < len(argv):
            value = argv[i + 1]
            if argv[i] == "--runs":
                runs = int(value)
            elif argv[i] == "--app":
                app = value
            else:
                diff_with = value
            i += 2
        else:
            args.append(argv[i])
            i += 1
    if len(args) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    cli, path = args
    store = store_mb(cli, path)
    print(f"{os.path.basename(os.path.normpath(path))}: store {store:.0f} MB; target per command: "
          f"store + 1000 MB = {store + 1000:.0f} MB ({os.cpu_count()} cores)\n")
    print(f"| command | wall s (median / worst of {runs}) | peak RSS MB (median / worst) | target MB | met |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        rows = commands(cli, path, diff_with, tmp)
        if app:
            env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
            report = os.path.join(tmp, "docks.txt")
            rows.append(("app: open + every dock + job path (offscreen)", [app, path, "--dock-report", report], env))
        for row in rows:
            label, command = row[0], row[1]
            env = row[2] if len(row) > 2 else None
            results = []
            arrivals = []
            for _ in range(runs):
                results.append(timed(command, env))
                if label.startswith("app"):
                    with open(os.path.join(tmp, "docks.txt")) as f:
                        times = dict(l.split("\t")[1:3] for l in f.read().splitlines() if l.startswith("time\t"))
                    arrivals.append(f"docks {times.get('analysesReady')}, path {times.get('jobPathReady')}")
            codes = {r[2] for r in results}
            walls = [r[0] for r in results]
            peaks = [r[1] for r in results]
            target = 2000 if label.startswith("app") else store + 1000
            met = "yes" if max(peaks) <= target else "**no**"
            note = "" if codes == {0} else f" (exit {sorted(codes)})"
            if arrivals:
                note += " (" + "; ".join(arrivals) + ")"
            print(f"| {label}{note} | {statistics.median(walls):.2f} / {max(walls):.2f} | "
                  f"{statistics.median(peaks):.0f} / {max(peaks):.0f} | {target:.0f} | {met} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
