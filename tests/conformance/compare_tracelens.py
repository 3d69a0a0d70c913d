#!/usr/bin/env python3
"""Issues 21 and 35: `kinetoscope-cli roofline --tracelens-compat` against TraceLens's perf-model
tables in ../shared/reference/tracelens/<folder>. EVERY row of EVERY perf-model sheet (every CSV
but TraceLens's summary tables: GEMM, SDPA_*, CONV_*, *Elementwise, Reduce_*, Normalization,
RMSNorm_*, RoPE_*, InferenceAttention_*, ... and the _bwd sheets) must have exactly one row of ours
with the same op name, the same first call's input dims, dtypes and strides (the same name alone
on a trace without shapes), and: the same calls, FLOPs and bytes (MiB x 2^20), and kernel time
(mean, sum), TFLOP/s and TB/s (means of per-call values) within 0.5 %. Where TraceLens has NaN
(no bytes for a dtype without a size, no rate for a row whose calls launched no GPU work) ours
must be empty. A sheet named *_bwd holds TraceLens's backward rows of forward ops (the autograd
backward's kernels under the forward op's name, by sequence number): they match our rows with
direction "backward"; its rows named after a backward op (aten::convolution_backward) are our
ordinary rows. The run uses TraceLens's own MI300X peaks
(resources/peaks/mi300x_max_achievable.json): the peak a row is held against must be TraceLens's
Compute Spec and, where TraceLens has a roofline, roofline time, bound and % of roofline (mean)
agree within 0.5 %."""
import argparse
import csv
import glob
import io
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from conformance_support import verdict  # noqa: E402

TOLERANCE = 0.005
SUMMARY_TABLES = {"gpu_timeline", "gpu_timeline_incl_unlinked", "kernel_summary", "ops_summary",
                  "ops_summary_by_category", "ops_unique_args", "short_kernel_histogram",
                  "short_kernels_summary", "unified_perf_summary", "coll_analysis"}


def missing(value):
    """TraceLens's NaN / None as pandas writes them: an empty cell or "nan"."""
    return value is None or value.strip() in ("", "nan", "NaN", "None")


def close(a, b, tolerance=TOLERANCE):
    a, b = float(a), float(b)
    if a == b:
        return True
    return abs(a - b) <= tolerance * max(abs(a), abs(b))


def run_roofline(cli, traces, peaks):
    done = subprocess.run([cli, "roofline", traces, "--tracelens-compat", "--format", "csv", "--peaks", peaks],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"roofline failed ({done.returncode}): {done.stderr.strip()}")
    return list(csv.DictReader(io.StringIO(done.stdout))), done.stderr


def backward_op(name):
    return name.endswith("_backward") or name.endswith("Backward")


def compare_row(label, row, ref, shapes, problems):
    checks = [("calls", row["calls"], ref["name_count"], 0),
              ("kernel_time_us_sum", row["kernel_time_us_sum"], ref["Kernel Time (µs)_sum"], TOLERANCE),
              ("kernel_time_us_mean", row["kernel_time_us_mean"], ref["Kernel Time (µs)_mean"], TOLERANCE)]
    if shapes:
        flops = ref["GFLOPS_first"]
        bytes_ = ref["Data Moved (MB)_first"]
        checks += [("flops", row["flops"], None if missing(flops) else float(flops) * 1e9, 1e-9),
                   ("bytes", row["bytes"], None if missing(bytes_) else float(bytes_) * 2**20, 1e-9),
                   ("tflops_per_s_mean", row["tflops_per_s_mean"], ref["TFLOPS/s_mean"], TOLERANCE),
                   ("tb_per_s_mean", row["tb_per_s_mean"], ref["TB/s_mean"], TOLERANCE)]
        if row["peak"] != ref["Compute Spec"]:
            problems.append(f"{label}: peak {row['peak']!r} != Compute Spec {ref['Compute Spec']!r}")
        if "Roofline Time (µs)_first" in ref:
            checks += [("roofline_time_us", row["roofline_time_us"], ref["Roofline Time (µs)_first"], TOLERANCE),
                       ("roofline_pct_mean", row["roofline_pct_mean"], ref["Pct Roofline_mean"], TOLERANCE)]
            bound = "" if missing(ref["Roofline Bound_first"]) else ref["Roofline Bound_first"].split("_")[0].lower()
            if row["bound"] != bound:
                problems.append(f"{label}: bound {row['bound']!r} != {ref['Roofline Bound_first']!r}")
    for what, value, expected, tolerance in checks:
        if expected is None or (isinstance(expected, str) and missing(expected)):
            if value != "":
                problems.append(f"{label}: {what} {value} where TraceLens has none")
        elif value == "" or not close(value, expected, tolerance):
            problems.append(f"{label}: {what} {value!r} != {expected}")


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
    problems, compared, sheets = [], 0, 0
    for path in sorted(glob.glob(os.path.join(reference, "*.csv"))):
        table = os.path.basename(path)[:-4]
        if table in SUMMARY_TABLES:
            continue
        sheets += 1
        rows = list(csv.DictReader(open(path, encoding="utf-8")))
        for ref in rows:
            name = ref["name"]
            direction = "backward" if table.endswith("_bwd") and not backward_op(name) else ""
            candidates = [r for r in ours if r["name"] == name and r.get("direction", "") == direction]
            if shapes:
                key = (ref["Input Dims_first"], ref["Input type_first"], ref["Input Strides_first"])
                found = [r for r in candidates if (r["dims"], r["dtypes"], r["strides"]) == key]
            else:
                found = candidates
            label = f"{table} {name} {ref['Input Dims_first']}"
            if len(found) != 1:
                problems.append(f"{label}: {len(found)} rows of ours")
                continue
            compared += 1
            compare_row(label, found[0], ref, shapes, problems)
    if sheets == 0:
        problems.append(f"no perf-model sheet in {reference}")
    return verdict(f"tracelens_conformance {args.folder}", problems,
                   f" ({compared} TraceLens rows of {sheets} sheets compared"
                   f"{'' if shapes else ', time only: no shapes'})")


if __name__ == "__main__":
    sys.exit(main())
