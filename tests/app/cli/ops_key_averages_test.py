#!/usr/bin/env python3
"""`kinetoscope-cli ops` against the tables PyTorch itself printed with
prof.key_averages().table() for the same profiles (../shared/reference/rpc_recipe,
../shared/reference/ddp_gloo_2ranks, and tests/data/rpc_workers: a folder of three RPC
workers, each file alone and the folder by rank). Every row of the by-name tables is compared,
each number formatted as PyTorch formats it (profiler_util._format_time and
_format_time_share), so it matches to the printed precision.

The Qwen traces (no key_averages reference) start ProfilerStep#6 inside a Python
call it overlaps without nesting (the timeline puts it on an extra lane): its
self CPU time is still what PyTorch's nesting (a thread's non-Python events by
(start, -end) on a stack, profiler_util._populate_cpu_children) gives, computed
here from the raw events."""
import csv
import glob
import gzip
import io
import json
import os
import re
import sys

from cli_test_support import parse_args, run


def fmt_time(us):
    if us >= 1e6:
        return "{:.3f}s".format(us / 1e6)
    if us >= 1e3:
        return "{:.3f}ms".format(us / 1e3)
    return "{:.3f}us".format(us)


def fmt_share(pct):
    return "{:.2f}%".format(pct)


def parse_tables(path):
    """Each table of a key_averages text: (header, rows as dicts, self CPU total)."""
    tables = []
    lines = open(path).read().splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("---") and i + 2 < len(lines) and lines[i + 2].startswith("---"):
            header = re.split(r"\s{2,}", lines[i + 1].strip())
            rows = []
            j = i + 3
            while not lines[j].startswith("---"):
                cells = re.split(r"\s{2,}", lines[j].strip())
                assert len(cells) == len(header), (path, lines[j])
                rows.append(dict(zip(header, cells)))
                j += 1
            total = lines[j + 1].split(":", 1)[1].strip()
            tables.append((header, rows, total))
            i = j + 2
        else:
            i += 1
    return tables


def ops(cli, trace, by):
    code, out, err = run(cli, "ops", trace, "--by", by, "--format", "csv")
    assert code == 0, err
    text = out.split("\n", 1)[1] if not out.startswith("name,") else out
    return list(csv.DictReader(io.StringIO(text)))


def printings(fmt, value):
    """How PyTorch may print a value: ours are exact integer ns, PyTorch sums the
    legacy exporter's float µs (24.89699999999999), which moves an exact half
    (14.1615) to either side. A femtosecond either way covers that and nothing else."""
    return {fmt(value), fmt(value - 1e-9), fmt(value + 1e-9)}


def printed(row):
    """Our row as PyTorch prints it: the set of acceptable texts per column."""
    calls = int(row["calls"])
    total = float(row["cpu_total_us"])
    return {
        "Self CPU %": printings(fmt_share, float(row["self_cpu_pct"])),
        "Self CPU": printings(fmt_time, float(row["self_cpu_us"])),
        "CPU total %": {"0"} if row["async"] == "1" else printings(fmt_share, float(row["cpu_total_pct"])),
        "CPU total": printings(fmt_time, total),
        "CPU time avg": printings(fmt_time, total / calls),
        "# of Calls": {str(calls)},
    }


def compare_by_name(cli, trace, reference):
    header, rows, total = parse_tables(reference)[0]
    ours = ops(cli, trace, "name")
    assert len(ours) == len(rows), (trace, len(ours), len(rows))
    by_key = {(r["name"], r["node"]): r for r in ours}
    self_sum = 0.0
    for ref in rows:
        node = ref.get("Node ID")
        matches = [r for (n, nd), r in by_key.items() if n == ref["Name"] and (node is None or nd == node)]
        assert len(matches) == 1, (trace, ref["Name"], node, len(matches))
        got = printed(matches[0])
        for column, value in got.items():
            assert ref[column] in value, (trace, ref["Name"], column, ref[column], value)
        self_sum += float(matches[0]["self_cpu_us"])
    assert total in printings(fmt_time, self_sum), (trace, total, fmt_time(self_sum))
    return len(rows)


def compare_by_shapes(cli, trace, reference):
    """The legacy exporter wrote no "Input Dims", so only ops that PyTorch also
    listed without input shapes and with a single shape group are comparable."""
    tables = parse_tables(reference)
    if len(tables) < 2:
        return 0
    by_name = {r["Name"]: r for r in tables[0][1]}
    ours = {(r["name"], r["input_shapes"]): r for r in ops(cli, trace, "shapes")}
    compared = 0
    for ref in tables[1][1]:
        if ref["Input Shapes"] != "[]" or by_name[ref["Name"]]["# of Calls"] != ref["# of Calls"]:
            continue
        got = printed(ours[(ref["Name"], "[]")])
        for column, value in got.items():
            assert ref[column] in value, (trace, ref["Name"], column, ref[column], value)
        compared += 1
    assert compared >= 5, (trace, compared)
    return compared


def compare_folder_by_rank(cli, folder):
    """A folder of RPC workers, each with its own table: `ops FOLDER --by rank`
    gives each worker's rows as its own table lists them (times, calls, node;
    the shares differ, their base being the whole folder)."""
    refs = sorted(glob.glob(os.path.join(folder, "worker*.key_averages.txt")))
    assert len(refs) >= 2, folder
    ours = ops(cli, folder, "rank")
    for ref in refs:
        rank = re.search(r"worker(\d+)", os.path.basename(ref)).group(1)
        header, rows, total = parse_tables(ref)[0]
        mine = {(r["name"], r["node"]): r for r in ours if r["rank"] == rank}
        assert len(mine) == len(rows), (ref, len(mine), len(rows))
        for ref_row in rows:
            got = printed(mine[(ref_row["Name"], ref_row["Node ID"])])
            for column in ("Self CPU", "CPU total", "CPU time avg", "# of Calls"):
                assert ref_row[column] in got[column], (ref, ref_row["Name"], column, ref_row[column], got[column])
    return len(refs)


def shapes_from_input_dims(cli):
    """--by shapes reads Kineto's "Input Dims" and prints it as PyTorch does;
    a value that is not a list is a note on stderr, the op kept under "?"."""
    import json
    import tempfile
    def op(ts, dims):
        return {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": ts, "dur": 2,
                "args": {"Input Dims": dims}}
    doc = {"traceEvents": [op(0, [[2, 3], []]), op(10, [[2,3],[]]), op(20, [[4]]), op(30, "oops")]}
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "shapes.json")
        json.dump(doc, open(path, "w"))
        code, out, err = run(cli, "ops", path, "--by", "shapes", "--format", "csv")
        assert code == 0, err
        rows = {r["input_shapes"]: int(r["calls"]) for r in ops(cli, path, "shapes")}
        assert rows == {"[[2, 3], []]": 2, "[[4]]": 1, "?": 1}, rows
        assert "not a list" in err and "shapes.json" in err, err


def pytorch_self_us(trace, name_prefix):
    """Self time (us) of the first event named name_prefix* as PyTorch nests a thread's
    events: sorted by (start, -end), a child is inside its parent's span; Python
    functions are not profiler events."""
    opener = gzip.open if trace.endswith(".gz") else open
    with opener(trace, "rt") as f:
        events = json.load(f)["traceEvents"]
    cpu = [e for e in events if e.get("ph") == "X" and e.get("cat") in ("cpu_op", "user_annotation", "cuda_runtime",
                                                                      "cuda_driver")]
    threads = {}
    for e in cpu:
        threads.setdefault((e["pid"], e["tid"]), []).append(e)
    children = {}
    for thread in threads.values():
        thread.sort(key=lambda e: (e["ts"], -(e["ts"] + e.get("dur", 0))))
        stack = []
        for e in thread:
            start, end = e["ts"], e["ts"] + e.get("dur", 0)
            while stack:
                parent = stack[-1]
                parent_end = parent["ts"] + parent.get("dur", 0)
                if start >= parent_end or end > parent_end:
                    stack.pop()
                    continue
                children[id(parent)] = children.get(id(parent), 0) + e.get("dur", 0)
                break
            stack.append(e)
    step = next(e for e in cpu if e["name"].startswith(name_prefix))
    return step["dur"] - children.get(id(step), 0), step["dur"]


def laned_step_self_time(cli, shared):
    checked = 0
    for folder in ("h100_qwen05b", "mi300_qwen05b"):
        traces = glob.glob(os.path.join(shared, "traces", folder, "*.json.gz"))
        if not traces:
            continue
        expected, total = pytorch_self_us(traces[0], "ProfilerStep#")
        row = next(r for r in ops(cli, traces[0], "name") if r["name"] == "ProfilerStep*")
        # The step's children count: its self time is well under its total.
        assert expected < 0.5 * total, (folder, expected, total)
        assert abs(float(row["self_cpu_us"]) - expected) < 1, (folder, row["self_cpu_us"], expected)
        assert abs(float(row["cpu_total_us"]) - total) < 1, (folder, row["cpu_total_us"], total)
        checked += 1
    return checked


def main():
    a = parse_args("--shared", "--data")
    refs = sorted(glob.glob(os.path.join(a.shared, "reference", "rpc_recipe", "*.key_averages.txt"))
                  + glob.glob(os.path.join(a.shared, "reference", "ddp_gloo_2ranks", "*.key_averages.txt")))
    if not refs:
        print("SKIP: no key_averages references under", a.shared)
        return 0
    shapes_from_input_dims(a.cli)
    print(f"laned ProfilerStep: self CPU time as PyTorch nests it on {laned_step_self_time(a.cli, a.shared)} traces")
    workers = os.path.join(a.data, "rpc_workers")
    for ref in sorted(glob.glob(os.path.join(workers, "worker*.key_averages.txt"))):
        n = compare_by_name(a.cli, ref.replace(".key_averages.txt", ".json"), ref)
        print(f"rpc_workers/{os.path.basename(ref)}: {n} rows by name equal PyTorch's")
    print(f"rpc_workers: ops --by rank on the folder gives each of {compare_folder_by_rank(a.cli, workers)} "
          "workers' rows as its own table")
    for ref in refs:
        folder = os.path.basename(os.path.dirname(ref))
        trace = os.path.join(a.shared, "traces", folder, os.path.basename(ref).replace(".key_averages.txt", ".json"))
        n = compare_by_name(a.cli, trace, ref)
        m = compare_by_shapes(a.cli, trace, ref)
        print(f"{folder}/{os.path.basename(trace)}: {n} rows by name, {m} by name and shapes equal PyTorch's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
