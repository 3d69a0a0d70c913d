#!/usr/bin/env python3
"""`critical-path --all-ranks` and `stragglers` (issue 11 items 4-6): on the
real gloo job rank 1 (twice the batch) is named in every iteration with the
ops it spent longer in; on a synthetic 8-rank job with rank 3 slowed down,
rank 3 is named and the path runs through it; --what-if shortens the path;
bad arguments exit 2 with one line, a missing iteration exits 1."""
import csv
import io
import json
import os
import sys
import tempfile

from cli_test_support import parse_args, run_expecting as run


def csv_table(text, name):
    """The rows of table `name` in the multi-table CSV output."""
    lines, inside = [], False
    for line in text.splitlines():
        if line.startswith("# "):
            inside = line == "# " + name
            continue
        if inside and line:
            lines.append(line)
    return list(csv.DictReader(io.StringIO("\n".join(lines))))


def records(doc, name):
    return doc["items"][name]["records"]


def gloo_job(cli, gloo):
    rows = csv_table(run(cli, "stragglers", gloo, "--format", "csv").stdout, "stragglers")
    assert [r["iteration"] for r in rows] == ["10", "11", "12"], rows
    for r in rows:
        assert r["rank"] == "1", r
        assert float(r["wait_caused_ms"]) > 0, r
        assert r["why"].startswith("rank 1: +") and "aten::" in r["why"], r

    doc = json.loads(run(cli, "critical-path", gloo, "--all-ranks", "--format", "json").stdout)
    summary = records(doc, "summary")[0]
    assert summary["collectives_joined"] == 3 and summary["hops"] >= 1, summary
    by_rank = {r["rank"]: r for r in records(doc, "by_rank")}
    assert by_rank[1]["total_ms"] > by_rank[0]["total_ms"], by_rank
    total = sum(r["total_ms"] for r in by_rank.values())
    assert abs(total - summary["path_length_ms"]) < 1e-6 * max(1.0, total), (total, summary)
    notes = " ".join(r["note"] for r in records(doc, "notes"))
    assert "no event graph" in notes and "could not be joined" in notes, notes

    doc = json.loads(run(cli, "critical-path", gloo, "--all-ranks", "--iteration", "11",
                         "--what-if", "aten::(mm|addmm)=0.5", "--format", "json").stdout)
    what_if = {r["quantity"]: r for r in records(doc, "what_if")}
    assert what_if["path_length"]["after_ms"] < what_if["path_length"]["before_ms"], what_if
    none = json.loads(run(cli, "critical-path", gloo, "--all-ranks", "--iteration", "11",
                          "--what-if", "no_such_op=0", "--format", "json").stdout)
    same = {r["quantity"]: r for r in records(none, "what_if")}
    assert same["path_length"]["after_ms"] == same["path_length"]["before_ms"], same

    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "path.json")
        run(cli, "critical-path", gloo, "--all-ranks", "--write-trace", out)
        with open(out) as f:
            events = json.load(f)["traceEvents"]
        names = {e["args"]["name"] for e in events if e["ph"] == "M"}
        assert names == {"rank 0: critical path", "rank 1: critical path"}, names
        slices = [e for e in events if e["ph"] == "X"]
        assert abs(sum(e["dur"] for e in slices) / 1000 - summary["path_length_ms"]) < 0.01, slices[:3]
        flows = [e for e in events if e["ph"] in ("s", "f")]
        assert len(flows) == 2 * summary["hops"], flows

    p = run(cli, "critical-path", gloo, "--all-ranks", "--iteration", "99", code=1)
    assert "iteration 99" in p.stderr, p.stderr


def bad_arguments(cli, folder):
    for args in (["--all-ranks", "--what-if", "gemm"], ["--all-ranks", "--what-if", "gemm(=2"],
                 ["--all-ranks", "--window", "5:1"], ["--iteration", "3"],
                 ["--all-ranks", "--iteration", "1", "--window", "0:5"]):
        p = run(cli, "critical-path", folder, *args, code=2)
        first = p.stderr.splitlines()[0]
        assert first.startswith("kinetoscope-cli critical-path: "), p.stderr
    run(cli, "stragglers", folder, "--format", "xml", code=2)


def synthetic_job(cli):
    with tempfile.TemporaryDirectory() as d:
        run(cli, "synth", "--ranks", "8", "--size-mb", "2", "--stragglers", "3", "--slowdown", "2", "--out", d)
        rows = csv_table(run(cli, "stragglers", d, "--format", "csv").stdout, "stragglers")
        assert rows and all(r["rank"] == "3" for r in rows), rows
        doc = json.loads(run(cli, "critical-path", d, "--all-ranks", "--format", "json").stdout)
        by_rank = records(doc, "by_rank")
        slowest = max(by_rank, key=lambda r: r["total_ms"])
        assert slowest["rank"] == 3 and slowest["gpu_compute_ms"] > 0, by_rank


def main():
    a = parse_args("--shared")
    synthetic_job(a.cli)
    gloo = os.path.join(a.shared, "traces", "ddp_gloo_2ranks")
    if not os.path.isdir(gloo):
        print("SKIP: ../shared/traces/ddp_gloo_2ranks is absent (the synthetic job passed)")
        return 0
    bad_arguments(a.cli, gloo)
    gloo_job(a.cli, gloo)
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
