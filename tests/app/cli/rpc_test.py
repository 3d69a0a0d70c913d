#!/usr/bin/env python3
"""RPC traces (issue 12): on ../shared/traces/rpc_recipe the remote ops of worker1
get their node's own threads ("node 1 — worker1 · thread 9") and a link from
the rpc_async call that caused them; `info` lists the node; `ops` puts them on
node 1. Bad RPC input (names that do not parse, remote ops whose call is absent,
a node naming no worker the caller called) gives a diagnostic and keeps every event."""
import csv
import io
import json
import os
import sys
import tempfile

from cli_test_support import parse_args, run


def info_json(cli, path):
    code, out, err = run(cli, "info", path, "--json")
    assert code == 0, err
    return json.loads(out)


def real_trace(cli, shared):
    folder = os.path.join(shared, "traces", "rpc_recipe")
    if not os.path.isdir(folder):
        return False
    rank = info_json(cli, folder)["ranks"][0]
    remote = [t for t in rank["tracks"] if "rpc_node" in t]
    assert sorted(t["name"] for t in remote) == [
        "node 1 \u2014 worker1 \u00b7 thread 8", "node 1 \u2014 worker1 \u00b7 thread 9"], remote
    assert all(t["rpc_group"] == "node 1 \u2014 worker1" and t["slices"] == 1 for t in remote)
    # Two calls, each linked to the one remote op it caused; nothing unresolved.
    assert rank["links"] == 2, rank["links"]
    assert "rpc-unresolved" not in rank["diagnostics"], rank["diagnostics"]
    code, out, err = run(cli, "info", folder)
    assert "node 1 \u2014 worker1: 2 threads, 2 remote ops" in out, out
    code, out, err = run(cli, "ops", folder, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out.split("\n", 1)[1] if not out.startswith("name,") else out)))
    nodes = {r["name"]: r["node"] for r in rows}
    assert nodes["rpc_async#aten::add(worker0 -> worker1)#remote_op: aten::add"] == "1"
    assert nodes["rpc_async#aten::add(worker0 -> worker1)"] == "0"
    return True


def several_workers(cli):
    """A folder of three workers, each profiling its calls to the next: every
    rank puts the remote ops of its calls in the callee's node group, named from
    the caller's "(A -> B)", each linked to its call."""
    folder = os.path.join(os.path.dirname(__file__), "..", "..", "data", "rpc_workers")
    ranks = info_json(cli, folder)["ranks"]
    assert [r["rank"] for r in ranks] == [0, 1, 2], [r["rank"] for r in ranks]
    for r in ranks:
        callee = (r["rank"] + 1) % 3
        remote = [t for t in r["tracks"] if "rpc_node" in t]
        assert remote, r["path"]
        assert all(t["rpc_node"] == callee and t["rpc_group"] == f"node {callee} \u2014 worker{callee}"
                   for t in remote), remote
        assert r["links"] == sum(t["slices"] for t in remote), (r["path"], r["links"])
        assert "rpc-unresolved" not in r["diagnostics"], r["diagnostics"]


def bad_input(cli):
    events = [
        {"name": "rpc_async#aten::add(worker0 -> worker1)", "ph": "X", "ts": 10, "dur": 100, "tid": 1, "pid": "CPU functions"},
        {"name": "rpc_async#broken(worker0 worker1", "ph": "X", "ts": 200, "dur": 5, "tid": 1, "pid": "CPU functions"},
        {"name": "rpc_async#aten::add(worker0 -> worker1)#remote_op: aten::add", "ph": "X", "ts": 20, "dur": 5,
         "tid": " node_id:1, thread_id:3 ", "pid": "CPU functions"},
        {"name": "rpc_sync#aten::mul(worker0 -> worker7)#remote_op: aten::mul", "ph": "X", "ts": 30, "dur": 5,
         "tid": " node_id:7, thread_id:4 ", "pid": "CPU functions"},
        {"name": "rpc_async#???#remote_op: x", "ph": "X", "ts": 40, "dur": 5,
         "tid": " node_id:1, thread_id:3 ", "pid": "CPU functions"},
    ]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "rpc_bad.json")
        json.dump(events, open(path, "w"))
        rank = info_json(cli, path)["ranks"][0]
        assert rank["slices"] == len(events), rank["slices"]  # every event kept
        diag = rank["diagnostics"]["rpc-unresolved"]
        # the broken call, the remote op whose call is absent, its unknown node, the unparsable remote op
        assert diag["count"] == 4, diag
        assert rank["links"] == 1, rank["links"]
        names = sorted(t["name"] for t in rank["tracks"] if "rpc_node" in t)
        assert names == ["node 1 \u2014 worker1 \u00b7 thread 3", "node 7 \u2014 worker7 \u00b7 thread 4"], names
        code, out, err = run(cli, "ops", path, "--format", "csv")
        assert code == 0, err
        assert out.count("\n") >= len(events), out


def main():
    a = parse_args("--shared")
    bad_input(a.cli)
    several_workers(a.cli)
    if not real_trace(a.cli, a.shared):
        print("SKIP: no shared rpc_recipe trace (bad-input cases passed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
