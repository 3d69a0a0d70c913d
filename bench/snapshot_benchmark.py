#!/usr/bin/env python3
"""Issue 37's snapshot target: a 100 MB memory snapshot opens in <= 2 s and <= 3 x its size
in memory. Makes the snapshot by scaling a shared one (its trace repeated with shifted
addresses and times, its segments repeated at shifted addresses; frames stay shared as
PyTorch shares them), then runs `kinetoscope-cli memory --snapshot BIG --format json` --
reading, the model and every analysis -- and reports wall time and peak RSS. Prints a
table; never a timed test. Needs a quiet machine for the times.

  python3 bench/snapshot_benchmark.py --cli build/app/cli/kinetoscope-cli \
      --snapshot ../shared/snapshots/hpc_octree_snapshot_event/my_snapshot.pickle --mb 100
"""
import argparse
import copy
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import time


def scaled(snapshot, copies):
    """The snapshot `copies` times over: each copy's addresses are shifted past the last, times too."""
    segs = snapshot["segments"]
    span = max(s["address"] + s["total_size"] for s in segs) - min(s["address"] for s in segs)
    trace = snapshot["device_traces"][0]
    times = [e["time_us"] for e in trace if "time_us" in e]
    duration = (max(times) - min(times) + 1) if times else 0
    out = dict(snapshot)
    out["segments"], new_trace = [], []
    for k in range(copies):
        shift = k * span
        for s in segs:
            s2 = dict(s, address=s["address"] + shift)
            s2["blocks"] = [dict(b, address=b["address"] + shift) for b in s["blocks"]]
            out["segments"].append(s2)
        for e in trace:
            e2 = dict(e)
            if e.get("addr"):
                e2["addr"] = e["addr"] + shift
            if "time_us" in e:
                e2["time_us"] = e["time_us"] + k * duration
            new_trace.append(e2)
    out["device_traces"] = [new_trace] + snapshot["device_traces"][1:]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--snapshot", required=True, help="a shared snapshot to scale (trusted data: read with pickle)")
    ap.add_argument("--mb", type=float, default=100)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--keep", help="also write the scaled snapshot here (to profile it)")
    args = ap.parse_args()
    with open(args.snapshot, "rb") as f:
        base = pickle.load(f)  # the shared snapshots hold plain data only (see their README)
    # Pickle's memo writes each shared frame once: a copy costs what a second copy adds.
    one = len(pickle.dumps(scaled(base, 1), protocol=4))
    per_copy = max(1, len(pickle.dumps(scaled(base, 2), protocol=4)) - one)
    copies = max(1, 1 + int((args.mb * 1e6 - one) / per_copy))
    with tempfile.TemporaryDirectory() as tmp:
        big = os.path.join(tmp, "big.pickle")
        with open(big, "wb") as f:
            pickle.dump(scaled(base, copies), f, protocol=4)
        size = os.path.getsize(big)
        if args.keep:
            import shutil
            shutil.copyfile(big, args.keep)
        events = len(base["device_traces"][0]) * copies
        print(f"snapshot: {size / 1e6:.1f} MB, {copies} copies of {os.path.basename(args.snapshot)}, {events} trace events")
        print("| run | wall s | peak RSS MB | RSS / file size |")
        print("|---|---|---|---|")
        walls, ratios = [], []
        for run in range(args.runs):
            # Peak RSS from /usr/bin/time, not this process's RUSAGE_CHILDREN: a child forked
            # from this Python (which holds the scaled snapshot) counts Python's pages too.
            with tempfile.NamedTemporaryFile("r", suffix=".time") as times:
                t0 = time.perf_counter()
                p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", times.name, args.cli, "memory", "--snapshot",
                                    big, "--format", "json"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                   text=True)
                wall = time.perf_counter() - t0
                if p.returncode != 0:
                    print(p.stderr, file=sys.stderr)
                    return 1
                rss_kib = int(times.read().split()[-1])
            print(f"| {run + 1} | {wall:.2f} | {rss_kib / 1024:.0f} | {rss_kib * 1024 / size:.2f} |")
            walls.append(wall)
            ratios.append(rss_kib * 1024 / size)
        print(f"median {statistics.median(walls):.2f} s, worst {max(walls):.2f} s (goal 2 s); "
              f"RSS median {statistics.median(ratios):.2f} x, worst {max(ratios):.2f} x the file (goal 3 x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
