#!/usr/bin/env python3
"""`kinetoscope-cli critical-path` on small traces written here, in both modes:
a launch whose kernel starts 3 µs before it (HTA still finds the path, the edge
weighs 0 in the graph) and a 4-byte memset between two GEMMs (GPU work with its
own kernel-kernel delays). Checks the JSON result and the warning lines."""
import json
import os
import subprocess
import sys
import tempfile

from cli_test_support import parse_args

BASE = 1_000_000  # µs, added to every ts


def event(cat, name, pid, tid, ts, dur, args):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid, "ts": BASE + ts, "dur": dur, "args": args}


def launch(name, ts, dur, correlation):
    return event("cuda_runtime", name, 1, 1, ts, dur, {"correlation": correlation})


def gpu(cat, name, pid, ts, dur, correlation, **extra):
    return event(cat, name, pid, 7, ts, dur, {"stream": 7, "correlation": correlation, **extra})


def write_trace(folder, events):
    os.makedirs(folder)
    doc = {"schemaVersion": 1, "distributedInfo": {"rank": 0},
           "traceEvents": [{"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "python"}}]
           + events}
    with open(os.path.join(folder, "rank-0.pt.trace.json"), "w") as f:
        json.dump(doc, f)
    return folder


def run(cli, folder, *args):
    p = subprocess.run([cli, "critical-path", folder, *args], capture_output=True, text=True)
    assert p.returncode == 0, (args, p.returncode, p.stderr)
    return p.stdout


def result(cli, folder, compat):
    out = run(cli, folder, "--format", "json", *(["--hta-compat"] if compat else []))
    doc = json.loads(out)
    assert doc["ok"], doc
    return doc


def edge(res, src, src_start, dst, dst_start):
    found = [e for e in res["all_edges"] if e[:4] == [src, src_start, dst, dst_start]]
    assert len(found) == 1, (src, dst, res["all_edges"])
    return found[0]


def negative_launch_delay(cli, tmp):
    # Two GPUs in one rank: stream 7 of GPU 2 keeps HTA's per-stream queue at 1 when
    # GPU 0's kernel (event 4), its clock 3 µs ahead, starts before its launch (event 3).
    folder = write_trace(os.path.join(tmp, "negative_launch"), [
        launch("cudaLaunchKernel", 0, 4, 1),                # 1
        gpu("kernel", "k0", 2, 30, 10, 1),                  # 2
        launch("cudaLaunchKernel", 10, 4, 2),               # 3
        gpu("kernel", "k1", 0, 7, 12, 2),                   # 4: 7..19
    ])
    for compat in (True, False):
        doc = result(cli, folder, compat)
        res = doc["result"]
        assert res["success"] and res["problems"] == [], res["problems"]
        # launch 1 (4), chained to launch 2 (0), the delay (0 in the graph), k1 (12), gap (11), k0 (10)
        assert res["critical_path_total_weight"] == 37, res["critical_path_total_weight"]
        assert edge(res, 3, True, 4, True)[4:] == ["kernel_launch_delay", 0, -3], edge(res, 3, True, 4, True)
        assert res["edge_type_weight_sum"]["critical_path_kernel_launch_delay"] == 0, res["edge_type_weight_sum"]
        expected = "1 edge of -1 us or less counts as 0" if compat else "1 negative kernel-kernel or launch delay counts as 0"
        assert any(expected in w for w in doc["warnings"]), doc["warnings"]
        table = run(cli, folder, *(["--hta-compat"] if compat else []))
        assert any(line.startswith("warning: " + expected) for line in table.splitlines()), table
        assert "problem:" not in table, table


def memset_between_gemms(cli, tmp):
    folder = write_trace(os.path.join(tmp, "memset"), [
        launch("cudaLaunchKernel", 0, 4, 1),                        # 1
        gpu("kernel", "gemm1", 0, 10, 50, 1),                       # 2: 10..60
        launch("cudaMemsetAsync", 20, 3, 2),                        # 3
        gpu("gpu_memset", "Memset (Device)", 0, 62.5, 0.4, 2, bytes=4),  # 4: HTA 63..62
        launch("cudaLaunchKernel", 25, 4, 3),                       # 5
        gpu("kernel", "gemm2", 0, 65, 50, 3),                       # 6: 65..115
    ])
    for compat, path, into, out_of in ((True, 116, 3, 3), (False, 115, 2.5, 2.1)):
        res = result(cli, folder, compat)["result"]
        assert res["success"], res
        assert res["n_nodes"] == 12 and res["n_edges"] == 11, (res["n_nodes"], res["n_edges"])
        assert res["edge_type_counts"]["critical_path_kernel_kernel_delay"] == 2, res["edge_type_counts"]
        assert edge(res, 2, False, 4, True)[4:6] == ["kernel_kernel_delay", into]
        assert edge(res, 4, False, 6, True)[4:6] == ["kernel_kernel_delay", out_of]
        assert res["critical_path_total_weight"] == path, (compat, res["critical_path_total_weight"])
        assert any(e["dst_name"] == "Memset (Device)" for e in res["critical_path_edges"]), res["critical_path_edges"]


def main():
    a = parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        negative_launch_delay(a.cli, tmp)
        memset_between_gemms(a.cli, tmp)
    print("critical-path command: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
