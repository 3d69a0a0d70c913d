#!/usr/bin/env python3
"""Runs every kinetoscope-cli command that reads traces over every shared trace folder.

For `bash dev.sh sanitize`: the CLI there is built with AddressSanitizer and
UndefinedBehaviorSanitizer, which end the program with exit code 86
(ASAN_OPTIONS/UBSAN_OPTIONS exitcode=86) on any report. A command may fail
for a good reason (a folder with no GPU has no critical path), but it must
never crash, report undefined behaviour or exit non-zero without a message.
Exit 0 when every run is clean, 1 otherwise.
"""

import argparse
import concurrent.futures
import os
import subprocess
import sys
import tempfile

SANITIZER_EXIT = 86
SANITIZER_MARKS = ("runtime error:", "ERROR: AddressSanitizer", "ERROR: LeakSanitizer")


def commands(folder, scratch):
    """The argument lists run on one folder."""
    out = os.path.join(scratch, os.path.basename(folder))
    return [
        ["info", folder],
        ["info", folder, "--json", "--zlib"],
        ["check", folder, "--max", "idle_pct=100"],
        ["analyze", folder, "--format", "json"],
        ["analyze", folder, "--hta-compat", "--format", "csv"],
        ["analyze", folder, "--kernel-sequences", "aten::linear", "--out", out + "-sequences"],
        ["overview", folder],
        ["overview", folder, "--hta-compat", "--format", "json"],
        ["collectives", folder],
        ["roofline", folder, "--format", "csv"],
        ["roofline", folder, "--by", "name", "--device", "MI300X"],
        ["insights", folder, "--format", "markdown"],
        ["memory", folder, "--format", "json", "--curve-points", "100"],
        ["memory", folder, "--tb-compat", "--events"],
        ["critical-path", folder, "--write-trace", out + "-cp.json"],
        ["critical-path", folder, "--hta-compat", "--format", "json"],
        ["counters", folder, "--write-trace", "--out", out + "-counters"],
        ["summarize", folder, "--out", out + ".kssum"],
        ["synth", "--from", folder, "--copies", "2", "--out", out + "-synth"],
    ]


def run(cli, args):
    """None when the run is clean, else why not."""
    try:
        done = subprocess.run([cli] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    except subprocess.TimeoutExpired:
        return "did not finish in 300 s"
    err = done.stderr.decode(errors="replace")
    if done.returncode == SANITIZER_EXIT or any(mark in err for mark in SANITIZER_MARKS):
        return "sanitizer report:\n" + err[-4000:]
    if done.returncode < 0:
        return "killed by signal %d\n%s" % (-done.returncode, err[-2000:])
    if done.returncode != 0 and not err.strip() and not done.stdout.strip():
        return "exit %d without a message" % done.returncode
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cli", required=True)
    parser.add_argument("--traces", required=True)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="runs at once (default: cores)")
    args = parser.parse_args()
    if not os.path.isdir(args.traces):
        print("SKIP: no traces folder at %s" % args.traces)
        return 0
    folders = sorted(os.path.join(args.traces, f) for f in os.listdir(args.traces)
                     if os.path.isdir(os.path.join(args.traces, f)))
    with tempfile.TemporaryDirectory(prefix="ks-cli-sweep-") as scratch:
        runs = [argv for folder in folders for argv in commands(folder, scratch)]
        control, test = (os.path.join(args.traces, f) for f in ("diff_control", "diff_test"))
        if os.path.isdir(control) and os.path.isdir(test):
            runs.append(["diff", control, test])
        # The memory snapshots beside the traces (../shared/snapshots): every format, and compared.
        snapshots_dir = os.path.join(os.path.dirname(os.path.abspath(args.traces)), "snapshots")
        pickles = sorted(os.path.join(root, f) for root, _, files in os.walk(snapshots_dir)
                         for f in files if f.endswith(".pickle"))
        for pickle in pickles:
            runs += [["memory", "--snapshot", pickle, "--format", fmt] for fmt in ("table", "csv", "json")]
        if len(pickles) >= 2:
            runs.append(["memory", "--snapshot", pickles[0], "--compare", pickles[1], "--format", "json"])
        # Runs are independent (each writes its own scratch names): one per core.
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            outcomes = list(pool.map(lambda argv: run(args.cli, argv), runs))
    problems = ["kinetoscope-cli %s: %s" % (" ".join(argv), why) for argv, why in zip(runs, outcomes) if why]
    for p in problems:
        print(p, file=sys.stderr)
    print("CLI sweep: %d runs over %d folders, %d problems" % (len(runs), len(folders), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
