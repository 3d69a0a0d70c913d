#!/usr/bin/env python3
"""Issue 21: `kinetoscope-cli roofline` as a script uses it: the exact column names, the
family and grouping options, --device and --peaks (a bad file is one line naming the key),
--out, and bad input (no shapes -> the one-line message and the time-only table)."""
import csv
import io
import json
import os
import sys
import tempfile

from cli_test_support import parse_args, run_expecting

COLUMNS = ["name", "family", "dims", "dtypes", "calls", "flops", "bytes", "intensity", "kernel_time_us_sum",
           "kernel_time_us_mean", "tflops_per_s_mean", "tb_per_s_mean", "tflops_per_s", "peak",
           "roofline_time_us", "bound", "roofline_pct_mean"]


def rows(cli, *args):
    p = run_expecting(cli, "roofline", *args, "--format", "csv")
    return list(csv.DictReader(io.StringIO(p.stdout))), p.stderr


def main():
    args = parse_args("--shared")
    cli = args.cli
    h100 = os.path.join(args.shared, "traces", "h100_qwen05b")
    nccl = os.path.join(args.shared, "traces", "nccl_ns_resolution")
    if not os.path.isdir(h100) or not os.path.isdir(nccl):
        print("SKIP: shared traces absent")
        return 0

    table, err = rows(cli, h100)
    assert list(table[0].keys())[:len(COLUMNS)] == COLUMNS, list(table[0].keys())
    assert "device: NVIDIA H100 SXM5 80GB" in err, err
    assert "MFU" in err, err
    top = table[0]
    assert top["name"] == "aten::mm" and top["peak"] == "matrix_bf16" and top["bound"] == "compute", top
    assert 0 < float(top["roofline_pct_mean"]) < 100, top

    gemm, _ = rows(cli, h100, "--family", "gemm")
    assert gemm and {r["family"] for r in gemm} == {"gemm"}, gemm
    by_name, _ = rows(cli, h100, "--by", "name")
    names = [r["name"] for r in by_name]
    assert len(names) == len(set(names)) and sum(int(r["calls"]) for r in by_name) == sum(int(r["calls"]) for r in table)

    # --iterations keeps the calls inside those ProfilerStep spans (the trace has step 6 only).
    step6, _ = rows(cli, h100, "--iterations", "6")
    assert len(step6) == len(table), (len(step6), len(table))
    p = run_expecting(cli, "roofline", h100, "--iterations", "7")
    assert "not applicable" in p.stdout, p.stdout
    # No row left: machine formats stay parseable (an empty table), the note goes to stderr.
    p = run_expecting(cli, "roofline", h100, "--iterations", "7", "--format", "json")
    assert json.loads(p.stdout)["records"] == [] and "not applicable" in p.stderr, (p.stdout, p.stderr)
    p = run_expecting(cli, "roofline", h100, "--iterations", "7", "--format", "csv")
    assert p.stdout.splitlines()[0].startswith("name,family,dims") and len(p.stdout.splitlines()) == 1, p.stdout

    # --tracelens-compat: the same table on a trace where TraceLens reads nothing differently,
    # with the direction column; a capture trace (no kernel ran) keeps its rows and its shapes.
    compat, _ = rows(cli, h100, "--tracelens-compat")
    assert "direction" in compat[0] and len(compat) == len(table), (len(compat), len(table))
    # ../shared is there (checked above), so a missing capture trace is a broken checkout, not a skip.
    capture = os.path.join(args.shared, "traces", "sglang_decode_capture")
    if not os.path.isdir(capture):
        print(f"FAIL: {capture} is missing though {args.shared} is there: the capture-trace checks "
              "cannot run (restore the shared traces)", file=sys.stderr)
        return 1
    captured, err = rows(cli, capture, "--tracelens-compat")
    assert captured and "no input shapes" not in err, err
    mm = [r for r in captured if r["name"] == "aten::mm" and int(r["calls"]) == 36]
    assert mm and all(float(r["kernel_time_us_sum"]) == 0 and r["tflops_per_s_mean"] == "" for r in mm), mm

    # --device forces a row; an unknown one gives the table without a roofline and says which.
    forced, err = rows(cli, h100, "--device", "MI300X")
    assert "device: AMD Instinct MI300X (--device)" in err, err
    unknown, err = rows(cli, h100, "--device", "Z9000")
    assert 'unknown device "Z9000"' in err and all(r["peak"] == "" for r in unknown), err
    assert unknown[0]["flops"] != ""

    with tempfile.TemporaryDirectory() as tmp:
        bad = os.path.join(tmp, "peaks.json")
        with open(bad, "w") as f:
            json.dump({"name": "mine", "matrix_tflops": {"bf16": 708}}, f)
        p = run_expecting(cli, "roofline", h100, "--peaks", bad, code=2)
        assert p.stderr.count("\n") == 1 and "memory_bandwidth_gbps" in p.stderr and bad in p.stderr, p.stderr
        good = os.path.join(tmp, "good.json")
        with open(good, "w") as f:
            json.dump({"name": "mine", "memory_bandwidth_gbps": 1000, "matrix_tflops": {"bf16": 100}}, f)
        mine, err = rows(cli, h100, "--peaks", good, "--family", "gemm")
        assert "peaks: mine (--peaks)" in err and mine[0]["peak"] == "matrix_bf16", err
        out = os.path.join(tmp, "out")
        run_expecting(cli, "roofline", h100, "--out", out, "--format", "json")
        with open(os.path.join(out, "roofline.json")) as f:
            json.load(f)
        assert "MFU" in open(os.path.join(out, "roofline_summary.txt")).read()

    # overview carries the steps' MFU under its table.
    p = run_expecting(cli, "overview", h100)
    assert "MFU: " in p.stdout and "% (" in p.stdout, p.stdout[-500:]

    # No shapes recorded: the one line, then calls and kernel time per op without FLOPs.
    time_only, err = rows(cli, nccl)
    assert "no input shapes: record with record_shapes=True" in err.splitlines(), err
    # (calls that launched nothing keep their rows with 0 µs, as TraceLens's do)
    assert time_only and all(r["flops"] == "" and float(r["kernel_time_us_sum"]) >= 0 for r in time_only)
    assert any(float(r["kernel_time_us_sum"]) > 0 for r in time_only)
    backward = [r for r in time_only if r["direction"] == "backward"]
    assert {r["name"] for r in backward} == {"aten::mean", "aten::sum"}, backward
    print("roofline command: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
