#!/usr/bin/env python3
"""B7: `kinetoscope-cli summarize` on a synthetic job, beside `gzip -dc` of the
same files in the same run (machines are shared and noisy).

    bench/summarize_benchmark.py --cli build/app/cli/kinetoscope-cli --ranks 1000 --size-mb 2 --distinct 100
    bench/summarize_benchmark.py --cli ... --ranks 256 --size-mb 150 --distinct 8   # hard links

Prints one Markdown row: ranks, MB of JSON, `gzip -dc` time, summarize wall
time, JSON MB/s, peak RSS (getrusage of the child, what `/usr/bin/time -v`
reports as "Maximum resident set size"), summary size, and the throughput
target: one rank's load throughput (`kinetoscope-cli info` of one file, on its
own) × cores × 0.9. With `--repeat N`, `gzip -dc`, the one-rank load and
summarize run N times, interleaved, and the row shows medians (and the range).
`--distinct D` generates D ranks and hard-links them to the others' names when
the disk is short (the linked files then claim the same ranks: the summary
lists them as duplicates, which costs the same work). `--job DIR` reuses a job
a previous run kept (`--keep`).
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def timed(cmd, **kwargs):
    """Wall seconds and peak RSS (MB) of one child process."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, **kwargs)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(cmd)} failed ({status})")
    return seconds, usage.ru_maxrss / 1024.0


def make_job(args, job):
    """Synthesises the distinct ranks, hard-links the rest; returns (files, JSON bytes)."""
    distinct = args.distinct or args.ranks
    synth = subprocess.run([args.cli, "synth", "--ranks", str(distinct), "--size-mb", str(args.size_mb), "--gzip",
                            "--out", job], capture_output=True, text=True, check=True)
    sizes = [int(m) for m in re.findall(r"(\d+) bytes JSON", synth.stdout)]
    with open(os.path.join(job, "json_bytes"), "w") as out:
        out.write(" ".join(map(str, sizes)))
    files = sorted(os.path.join(job, f) for f in os.listdir(job) if f.endswith(".gz"))
    for r in range(distinct, args.ranks):
        link = os.path.join(job, f"rank-{r}.pt.trace.json.gz")
        os.link(files[r % distinct], link)


def job_files(job):
    """The job's trace files and their JSON bytes (hard links count again)."""
    with open(os.path.join(job, "json_bytes")) as f:
        sizes = [int(s) for s in f.read().split()]
    files = sorted((os.path.join(job, f) for f in os.listdir(job) if f.endswith(".gz")),
                   key=lambda p: int(re.search(r"rank-(\d+)", p).group(1)))
    distinct = len(sizes)
    return files, sum(sizes[i % distinct] for i in range(len(files))), sizes[0]


def spread(values, fmt):
    med = statistics.median(values)
    if len(values) == 1:
        return fmt.format(med)
    return f"{fmt.format(med)} ({fmt.format(min(values))}–{fmt.format(max(values))})"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--ranks", type=int, required=True)
    parser.add_argument("--size-mb", type=float, required=True)
    parser.add_argument("--distinct", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--workdir", default=None)
    parser.add_argument("--job", default=None, help="reuse this job folder (made by an earlier --keep run)")
    parser.add_argument("--keep", action="store_true", help="keep the job folder for --job")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="ks-bench-summarize-", dir=args.workdir)
    job = args.job or os.path.join(work, "job")
    if not args.job:
        make_job(args, job)
    files, json_bytes, one_rank_bytes = job_files(job)
    cores = args.jobs or os.cpu_count()
    out = os.path.join(work, "job.kssum")
    cmd = [args.cli, "summarize", job, "--out", out] + (["--jobs", str(args.jobs)] if args.jobs else [])
    gzip_s, one_s, summarize_s, rss, loads = [], [], [], [], []
    with open(os.devnull, "wb") as null:
        for _ in range(args.repeat):
            gzip_s.append(timed(["gzip", "-dc", *files], stdout=null)[0])
            one_s.append(timed([args.cli, "info", files[0]], stdout=null)[0])
            seconds, peak = timed(cmd, stdout=null, stderr=null)
            summarize_s.append(seconds)
            rss.append(peak)
            loads.append(os.getloadavg()[0])
            # Each round as it ends, so that a long run interrupted keeps what it measured.
            print(f"round {len(gzip_s)}: gzip -dc {gzip_s[-1]:.1f} s, info of one rank {one_s[-1]:.2f} s,"
                  f" summarize {seconds:.1f} s ({seconds / gzip_s[-1]:.2f} x), peak RSS {peak:.0f} MB,"
                  f" load average {loads[-1]:.1f}", file=sys.stderr, flush=True)
    mb = json_bytes / 1e6
    throughput = [mb / s for s in summarize_s]
    one_rank = [one_rank_bytes / 1e6 / s for s in one_s]
    target = 0.9 * statistics.median(one_rank) * cores
    # The ratio within each round (gzip -dc and summarize ran minutes apart at most): median and worst.
    ratios = [b / a for a, b in zip(gzip_s, summarize_s)]
    print("| ranks × MB | JSON | `gzip -dc` | summarize | JSON MB/s | summarize / gzip (median of rounds, worst) "
          "| peak RSS | .kssum | one rank loads at | target MB/s (0.9 × one rank × cores) | load average |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    print(f"| {args.ranks} × {args.size_mb:g} | {mb:.0f} MB | {spread(gzip_s, '{:.1f}')} s"
          f" | {spread(summarize_s, '{:.1f}')} s | {spread(throughput, '{:.0f}')}"
          f" | {statistics.median(ratios):.2f}, {max(ratios):.2f} | {max(rss):.0f} MB"
          f" | {os.path.getsize(out) / 1e6:.1f} MB | {spread(one_rank, '{:.0f}')} MB/s | {target:.0f} ({cores} cores)"
          f" | {spread(loads, '{:.1f}')} |")
    if args.keep:
        print(f"(job kept in {job})", file=sys.stderr)
    else:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
