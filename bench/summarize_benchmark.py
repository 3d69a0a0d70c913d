#!/usr/bin/env python3
"""B7: `kinetoscope-cli summarize` on a synthetic job, beside `gzip -dc` of the
same files in the same run (machines are shared and noisy).

    bench/summarize_benchmark.py --cli build/app/cli/kinetoscope-cli --ranks 1000 --size-mb 2
    bench/summarize_benchmark.py --cli ... --ranks 256 --size-mb 150 --distinct 16   # hard links

Prints one Markdown row: ranks, MB of JSON, synth time, gzip -dc time, summarize
wall time, JSON MB/s, peak RSS (getrusage of the child), summary size.
`--distinct D` generates D ranks and hard-links them to the others' names when
the disk is short (the linked files then claim the same ranks: the summary
lists them as duplicates, which costs the same work).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time


def timed(cmd, **kwargs):
    start = time.monotonic()
    proc = subprocess.Popen(cmd, **kwargs)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(cmd)} failed ({status})")
    return seconds, usage.ru_maxrss / 1024.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--ranks", type=int, required=True)
    parser.add_argument("--size-mb", type=float, required=True)
    parser.add_argument("--distinct", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=0)
    parser.add_argument("--workdir", default=None)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="ks-bench-summarize-", dir=args.workdir)
    job = os.path.join(work, "job")
    distinct = args.distinct or args.ranks
    start = time.monotonic()
    synth = subprocess.run([args.cli, "synth", "--ranks", str(distinct), "--size-mb", str(args.size_mb), "--gzip",
                            "--out", job], capture_output=True, text=True, check=True)
    synth_s = time.monotonic() - start
    json_bytes = sum(int(m) for m in re.findall(r"(\d+) bytes JSON", synth.stdout))
    files = sorted(os.path.join(job, f) for f in os.listdir(job))
    for r in range(distinct, args.ranks):
        link = os.path.join(job, f"rank-{r}.pt.trace.json.gz")
        os.link(files[r % distinct], link)
        files.append(link)
    json_bytes = json_bytes * args.ranks // distinct
    with open(os.devnull, "wb") as null:
        gzip_s, _ = timed(["gzip", "-dc", *files], stdout=null)
    out = os.path.join(work, "job.kssum")
    cmd = [args.cli, "summarize", job, "--out", out] + (["--jobs", str(args.jobs)] if args.jobs else [])
    with open(os.devnull, "wb") as null:
        summarize_s, rss_mb = timed(cmd, stdout=null)
    mb = json_bytes / 1e6
    print("| ranks × MB | JSON | synth | `gzip -dc` | summarize | JSON MB/s | summarize / gzip | peak RSS | .kssum |")
    print("|---|---|---|---|---|---|---|---|---|")
    print(f"| {args.ranks} × {args.size_mb:g} | {mb:.0f} MB | {synth_s:.1f} s | {gzip_s:.1f} s | {summarize_s:.1f} s"
          f" | {mb / summarize_s:.0f} | {summarize_s / gzip_s:.2f} | {rss_mb:.0f} MB"
          f" | {os.path.getsize(out) / 1e6:.1f} MB |")
    print(f"(files kept in {work})", file=sys.stderr)


if __name__ == "__main__":
    main()
