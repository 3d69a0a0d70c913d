#!/usr/bin/env python3
"""Issue 21: `kinetoscope-cli roofline` against TraceLens's perf-model tables in
../shared/reference/tracelens/<folder> (GEMM, SDPA_fwd, CONV_*, *Elementwise, Reduce_*,
Normalization ...). Every TraceLens row must have exactly one row of ours with the same op
name, input dims, dtypes and strides, and: the same calls, FLOPs and bytes (MiB x 2^20),
and kernel time (mean, sum), TFLOP/s and TB/s (means of per-call values) within 0.5 %.
The run uses TraceLens's own MI300X peaks (resources/peaks/mi300x_max_achievable.json):
the peak a row is held against must be TraceLens's Compute Spec and, where TraceLens has a
roofline (mi300_qwen05b), roofline time, bound and % of roofline (mean) agree within 0.5 %.
A trace without input shapes compares the time-only table (calls and kernel time per op
name). Reduce_bwd is TraceLens's attribution of autograd backward kernels to the forward op
through sequence numbers, which roofline does not do: its rows are listed, not compared."""
import csv
import glob
import io
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from conformance_support import verdict  # noqa: E402

import argparse  # noqa: E402

TOLERANCE = 0.005
NOT_COMPARED = {"Reduce_bwd"}
SUMMARY_TABLES = {"gpu_timeline", "gpu_timeline_incl_unlinked", "kernel_summary", "ops_summary",
                  "ops_summary_by_category", "ops_unique_args", "short_kernel_histogram",
                  "short_kernels_summary", "unified_perf_summary", "coll_analysis"}


def close(a, b, tolerance=TOLERANCE):
    a, b = float(a), float(b)
    if a == b:
        return True
    return abs(a - b) <= tolerance * max(abs(a), abs(b))


def run_roofline(cli, traces, peaks):
    done = subprocess.run([cli, "roofline", traces, "--format", "csv", "--peaks", peaks],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"roofline failed ({done.returncode}): {done.stderr.strip()}")
    return list(csv.DictReader(io.StringIO(done.stdout))), done.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cli", required=True)
    parser.add_argument("--shared", required=True)
    parser.add_argument("--folder", required=True)
    parser.add_argument("--peaks", required=True, help="TraceLens's MI300X peaks as a --peaks file")
    args = parser.parse_args()
    traces = os.path.join(args.shared, "traces", args.folder)
    reference = os.path.join(args.shared, "reference", "tracelens", args.folder)
    if not os.path.isdir(traces) or not os.path.isdir(reference):
        print(f"SKIP: {traces} or {reference} is absent")
        return 0
    ours, stderr = run_roofline(args.cli, traces, args.peaks)
    shapes = "no input shapes" not in stderr
    problems, compared = [], 0
    for path in sorted(glob.glob(os.path.join(reference, "*.csv"))):
        table = os.path.basename(path)[:-4]
        if table in SUMMARY_TABLES:
            continue
        rows = list(csv.DictReader(open(path, encoding="utf-8")))
        if table in NOT_COMPARED:
            print(f"  not compared: {table} ({len(rows)} rows: backward kernels by sequence number)")
            continue
        for ref in rows:
            name = ref["name"]
            if shapes:
                key = (name, ref["Input Dims_first"], ref["Input type_first"], ref["Input Strides_first"])
                found = [r for r in ours if (r["name"], r["dims"], r["dtypes"], r["strides"]) == key]
            else:
                found = [r for r in ours if r["name"] == name]
            label = f"{table} {name} {ref['Input Dims_first']}"
            if len(found) != 1:
                problems.append(f"{label}: {len(found)} rows of ours")
                continue
            row = found[0]
            compared += 1
            checks = [("calls", row["calls"], ref["name_count"], 0),
                      ("kernel_time_us_sum", row["kernel_time_us_sum"], ref["Kernel Time (µs)_sum"], TOLERANCE),
                      ("kernel_time_us_mean", row["kernel_time_us_mean"], ref["Kernel Time (µs)_mean"], TOLERANCE)]
            if shapes:
                checks += [("flops", row["flops"], float(ref["GFLOPS_first"]) * 1e9, 1e-9),
                           ("bytes", row["bytes"], float(ref["Data Moved (MB)_first"]) * 2**20, 1e-9),
                           ("tflops_per_s_mean", row["tflops_per_s_mean"], ref["TFLOPS/s_mean"], TOLERANCE),
                           ("tb_per_s_mean", row["tb_per_s_mean"], ref["TB/s_mean"], TOLERANCE)]
                if row["peak"] != ref["Compute Spec"]:
                    problems.append(f"{label}: peak {row['peak']} != Compute Spec {ref['Compute Spec']}")
                if "Roofline Time (µs)_first" in ref:
                    checks += [("roofline_time_us", row["roofline_time_us"], ref["Roofline Time (µs)_first"], TOLERANCE),
                               ("roofline_pct_mean", row["roofline_pct_mean"], ref["Pct Roofline_mean"], TOLERANCE)]
                    bound = ref["Roofline Bound_first"].split("_")[0].lower()
                    if row["bound"] != bound:
                        problems.append(f"{label}: bound {row['bound']} != {ref['Roofline Bound_first']}")
            for what, value, expected, tolerance in checks:
                if value == "" or not close(value, expected, tolerance):
                    problems.append(f"{label}: {what} {value} != {expected}")
    return verdict(f"tracelens_conformance {args.folder}", problems,
                   f" ({compared} TraceLens rows compared{'' if shapes else ', time only: no shapes'})")


if __name__ == "__main__":
    sys.exit(main())
