#!/usr/bin/env python3
"""`kinetoscope-cli ops` GPU columns recounted from the trace JSON itself.

PyTorch gives each kernel, memcpy, memset and CUDA sync event (its profiler
gives all four the CUDA device type) to the operator whose correlation id was
pushed when it was launched: the innermost `cpu_op` around the launching runtime
call (user annotations push theirs apart, so they never own one).
An event's GPU total is its own kernels plus its children's totals, so a kernel
counts in the total of its owner and of every CPU event holding the owner.

No shared trace has a reference key_averages table with CUDA columns, so this
script recounts those rules straight from the events (by time containment on
the launching thread, not by the CLI's nesting code) and compares every row of
`kinetoscope-cli ops --format csv` on every shared trace with GPU work.
"""
import bisect
import csv
import decimal
import glob
import gzip
import io
import json
import os
import subprocess
import sys
from collections import defaultdict

from cli_test_support import parse_args

GPU_CATS = {"kernel", "gpu_memcpy", "gpu_memset", "cuda_sync"}
RUNTIME_CATS = {"cuda_runtime", "cuda_driver"}
HOLDER_CATS = {"cpu_op", "user_annotation"}
TRACES = ["critical_path_simple_add", "critical_path_alexnet", "two_ranks_sampled", "ns_resolution",
          "amd_rocm", "cuda_event_sync", "h100_qwen05b", "mi300_qwen05b"]


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    # Exact decimals: a float holds a 16-digit µs timestamp only to 0.25 µs,
    # which would nest ns-resolution events differently from the trace.
    with opener(path, "rt") as f:
        return json.load(f, parse_float=decimal.Decimal)["traceEvents"]


class Thread:
    """One thread's cpu_op and user_annotation spans, nested by containment."""

    def __init__(self, spans):
        self.spans = sorted(spans, key=lambda s: (s[0], -s[1]))  # (start, end, name, cat)
        self.starts = [s[0] for s in self.spans]
        self.parent = []
        stack = []
        for i, s in enumerate(self.spans):
            while stack and not (s[0] < self.spans[stack[-1]][1] and s[1] <= self.spans[stack[-1]][1]):
                stack.pop()
            self.parent.append(stack[-1] if stack else None)
            stack.append(i)

    def chain(self, i):
        while i is not None:
            yield i
            i = self.parent[i]

    def innermost_op_at(self, ts):
        """The innermost cpu_op holding instant ts, or None."""
        last = bisect.bisect_right(self.starts, ts) - 1
        for i in self.chain(last if last >= 0 else None):
            s = self.spans[i]
            if s[0] <= ts < s[1] and s[3] == "cpu_op":
                return i
        return None


def key_name(name):
    """key_averages' row name: every ProfilerStep#N is one ProfilerStep* row."""
    return "ProfilerStep*" if name.startswith("ProfilerStep#") else name


def expected_gpu(events):
    """Per operator name: (GPU self us, GPU total us, kernels)."""
    launches = {}
    spans = defaultdict(list)
    for e in events:
        if e.get("ph") != "X":
            continue
        cat = e.get("cat")
        if cat in RUNTIME_CATS and "correlation" in e.get("args", {}):
            launches[e["args"]["correlation"]] = e
        elif cat in HOLDER_CATS:
            spans[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"], key_name(e["name"]), cat))
    threads = {key: Thread(v) for key, v in spans.items()}
    gpu_self = defaultdict(int)
    gpu_total = defaultdict(int)
    kernels = defaultdict(int)
    for e in events:
        if e.get("ph") != "X" or e.get("cat") not in GPU_CATS:
            continue
        launch = launches.get(e.get("args", {}).get("correlation"))
        thread = threads.get((launch["pid"], launch["tid"])) if launch else None
        owner = thread.innermost_op_at(launch["ts"]) if thread else None
        if owner is None:
            continue
        gpu_self[thread.spans[owner][2]] += e["dur"]
        kernels[thread.spans[owner][2]] += 1
        for i in thread.chain(owner):
            gpu_total[thread.spans[i][2]] += e["dur"]
    return gpu_self, gpu_total, kernels


def check_trace(cli, path):
    gpu_self, gpu_total, kernels = expected_gpu(load(path))
    if not kernels:
        sys.exit(f"FAIL: no launched GPU work in {path}: the test would check nothing")
    out = subprocess.run([cli, "ops", path, "--format", "csv"], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"FAIL: ops {path} exited {out.returncode}: {out.stderr.strip()}")
    rows = {r["name"]: r for r in csv.DictReader(io.StringIO(out.stdout))}
    for name in set(kernels) | set(gpu_total):
        if name not in rows:
            sys.exit(f"FAIL: {path}: {name} has GPU work but no ops row")
    for name, r in rows.items():
        got = (float(r["gpu_self_us"]), float(r["gpu_total_us"]), int(r["kernels"]))
        want = (float(gpu_self.get(name, 0)), float(gpu_total.get(name, 0)), kernels.get(name, 0))
        if abs(got[0] - want[0]) > 0.01 or abs(got[1] - want[1]) > 0.01 or got[2] != want[2]:
            sys.exit(f"FAIL: {path}: {name}: ops says GPU self {got[0]} us, total {got[1]} us, "
                     f"{got[2]} kernels; the trace {want[0]} us, {want[1]} us, {want[2]}")
    return sum(1 for n in kernels if kernels[n])


def main():
    args = parse_args("--shared")
    checked = 0
    for trace in TRACES:
        files = sorted(glob.glob(os.path.join(args.shared, "traces", trace, "*.json*")))
        if not files:
            print(f"SKIP: {trace} is missing from {args.shared}/traces")
            return
        for path in files:
            owners = check_trace(args.cli, path)
            print(f"{os.path.basename(path)}: {owners} operators' GPU self, total and kernels equal the trace's")
            checked += owners
    print(f"{checked} operator rows with GPU work checked")


if __name__ == "__main__":
    main()
