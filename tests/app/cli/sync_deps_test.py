#!/usr/bin/env python3
"""`critical-path --sync-deps` on ../shared/traces/cuda_event_sync and critical_path_alexnet
(issue 12 part 4, seed 004; issue 28): in --hta-compat, --all-sync-edges lists HTA's
sync_dependency_edges (../shared/reference/<folder>) and the default lists those on HTA's
critical path; External ids, names and the next CPU operator are checked against the
trace file itself; the Chakra map {end External id: [start External id...]} holds every
pair listed. On a CPU-only trace, --format json answers {"ok": false, "error": ...}.
(Chakra's own maps: tests/conformance/compare_chakra_sync_deps.py.)"""
import csv
import gzip
import io
import json
import os
import sys

from cli_test_support import parse_args, run

KINDS = {"cudaStreamSynchronize": "stream_sync", "cudaEventSynchronize": "event_sync",
         "cudaEventQuery": "event_sync", "cudaDeviceSynchronize": "device_sync"}


def next_cpu_op(events, waiter):
    """The first cpu_op on the waiter's thread starting at or after its end."""
    w = events[waiter]
    end = w["ts"] + w["dur"]
    best = None
    for i, e in enumerate(events):
        if e.get("ph") == "X" and e.get("cat") == "cpu_op" and e["tid"] == w["tid"] and e["pid"] == w["pid"] \
                and e["ts"] >= end and (best is None or e["ts"] < events[best]["ts"]):
            best = i
    return best


def load_events(folder):
    name = next(f for f in sorted(os.listdir(folder)) if f.endswith((".json", ".json.gz")))
    path = os.path.join(folder, name)
    return json.load(gzip.open(path) if name.endswith(".gz") else open(path))["traceEvents"]


def check(cli, shared, folder_name, reference):
    """Returns how many dependencies had a next CPU operator."""
    folder = os.path.join(shared, "traces", folder_name)
    ref = json.load(open(os.path.join(shared, "reference", folder_name, reference)))
    events = load_events(folder)
    args = ["critical-path", folder, "--hta-compat", "--annotation", ref["args"]["annotation"],
            "--instance", str(ref["args"]["instance_id"]), "--rank", str(ref["args"]["rank"]), "--sync-deps"]
    code, out, err = run(cli, *args, "--format", "json")
    assert code == 0, err
    on_path = json.loads(out)
    assert on_path["ok"] is True and on_path["sync_edges"] == "critical_path", on_path
    args.append("--all-sync-edges")
    code, out, err = run(cli, *args, "--format", "json")
    assert code == 0, err
    got = json.loads(out)
    assert got["ok"] is True and got["sync_edges"] == "all", got
    deps = got["sync_dependencies"]
    expected = [(e["src_event"], e["dst_event"]) for e in ref["result"]["sync_dependency_edges"]]
    assert sorted((d["start"]["event_index"], d["end"]["event_index"]) for d in deps) == sorted(expected), deps
    # on_critical_path: the edge is one of HTA's critical_path_edges.
    path = {(e["src_event"], e["dst_event"]) for e in ref["result"]["critical_path_edges"]
            if e["type"] == "critical_path_sync_dependency"}
    for d in deps:
        assert d["on_critical_path"] == ((d["start"]["event_index"], d["end"]["event_index"]) in path), (d, path)
    assert sorted((d["start"]["event_index"], d["end"]["event_index"]) for d in on_path["sync_dependencies"]) \
        == sorted(path), (on_path, path)
    ext = lambda i: events[i].get("args", {}).get("External id", -1)
    chakra = {int(k): v for k, v in got["chakra_sync_deps"].items()}
    pairs = []
    with_op = 0
    for d in deps:
        s, w = d["start"]["event_index"], d["end"]["event_index"]
        assert d["start"]["name"] == events[s]["name"] and d["end"]["name"] == events[w]["name"], d
        assert d["start"]["external_id"] == ext(s) and d["end"]["external_id"] == ext(w), d
        on_gpu = events[w].get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")
        # A GPU waiter is a stream waiting on another stream (cudaStreamWaitEvent).
        assert d["kind"] == ("stream_wait" if on_gpu else KINDS.get(events[w]["name"], "other")), d
        assert d["inferred"] is False  # HTA-compatible: only recorded syncs
        op = None if on_gpu else next_cpu_op(events, w)
        assert d["next_cpu_op"]["event_index"] == (op if op is not None else -1), (d, op)
        if op is not None:
            with_op += 1
            assert d["next_cpu_op"]["external_id"] == ext(op) and d["next_cpu_op"]["name"] == events[op]["name"]
        if ext(w) != -1 and ext(s) != -1 and ext(w) != ext(s):  # seed 004 keys by the waiting event
            assert ext(s) in chakra[ext(w)], (ext(w), chakra)
            pairs.append((ext(w), ext(s)))
    # One entry per dependency, repeats kept, as Chakra appends them.
    assert pairs and sorted((k, v) for k, vs in chakra.items() for v in vs) == sorted(pairs), (chakra, pairs)
    # csv: one row per dependency, columns named as documented.
    code, out, err = run(cli, *args, "--format", "csv")
    assert code == 0, err
    text = out.split("\n", 1)[1] if not out.startswith("kind,") else out
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == len(deps) and "next_cpu_op_external_id" in rows[0] and "on_critical_path" in rows[0], rows
    print(f"{folder_name}: {len(deps)} sync dependencies equal HTA's, {with_op} with a next CPU operator")
    return with_op


def main():
    a = parse_args("--shared")
    if not os.path.isdir(os.path.join(a.shared, "reference", "cuda_event_sync")):
        print("SKIP: no shared references")
        return 0
    with_op = check(a.cli, a.shared, "cuda_event_sync", "critical_path_analysis__default.json")
    with_op += check(a.cli, a.shared, "critical_path_alexnet", "critical_path_analysis__default.json")
    assert with_op > 0  # the next-operator rule was exercised
    # Not applicable (no kernel launches): JSON with --format json, never plain text.
    cpu_only = os.path.join(a.shared, "traces", "cpu_only")
    if os.path.isdir(cpu_only):
        code, out, err = run(a.cli, "critical-path", cpu_only, "--hta-compat", "--sync-deps", "--format", "json")
        got = json.loads(out)
        assert code == 0 and got["ok"] is False and got["error"], (code, out, err)
        code, out, err = run(a.cli, "critical-path", cpu_only, "--sync-deps")
        assert code == 0 and "not applicable" in out, (code, out, err)
        print(f"cpu_only: {out.strip()}")
    # --all-sync-edges alone is a usage error.
    code, out, err = run(a.cli, "critical-path", cpu_only, "--all-sync-edges")
    assert code == 2 and "--all-sync-edges needs --sync-deps" in err, (code, err)
    return 0


if __name__ == "__main__":
    sys.exit(main())
