#!/usr/bin/env python3
"""`memory --snapshot` as scripts use it: the JSON fields per device equal
memory_viz's numbers in ../shared/reference/snapshots (stats.json), the CSV has
the same fields, --compare gives the difference by frame, and bad input (a
hostile, truncated or foreign pickle, a folder, a missing file) is one line
naming the file with exit 1, never a crash; usage errors exit 2."""
import csv
import io
import json
import os
import sys
import tempfile

from cli_test_support import parse_args, run, run_expecting

FIELDS = ["device", "reserved_b", "allocated_b", "active_b", "requested_b", "segments", "blocks",
          "peak_allocated_b", "peak_reserved_b", "oom_events"]


def snapshot_files(shared):
    root = os.path.join(shared, "snapshots")
    out = {}
    for name in sorted(os.listdir(root)):
        folder = os.path.join(root, name)
        if os.path.isdir(folder):
            out[name] = os.path.join(folder, next(f for f in os.listdir(folder) if f.endswith(".pickle")))
    return out


def expected(shared, name):
    with open(os.path.join(shared, "reference", "snapshots", name, "stats.json")) as f:
        stats = json.load(f)
    d = stats["devices"]["0"]
    seg = d["segments"]
    return {"device": 0, "reserved_b": seg["reserved"], "allocated_b": seg["allocated"], "active_b": seg["active"],
            "requested_b": seg["requested_active"], "segments": seg["n_segments"], "blocks": seg["n_blocks"],
            "peak_allocated_b": d["active_memory_timeline"]["peak_allocated"],
            "peak_reserved_b": d["active_cached_segment_timeline"]["peak_reserved"],
            "oom_events": len(d["trace"]["oom_events"])}, d


def check_reference(cli, shared, name, path):
    want, dev = expected(shared, name)
    doc = json.loads(run_expecting(cli, "memory", "--snapshot", path, "--format", "json").stdout)
    assert doc["path"] == path, doc["path"]
    got = doc["devices"][0]
    for field in FIELDS:
        assert got[field] == want[field], (name, field, got[field], want[field])
    amt = dev["active_memory_timeline"]
    assert got["peak_event_idx"] == amt["peak_event_idx"], (got["peak_event_idx"], amt["peak_event_idx"])
    assert got["peak_time_us"] == amt["peak_time_us"]
    assert got["peak_live_allocations"] == amt["peak_live_allocations"]
    assert abs(got["fragmentation"] - dev["segments"]["fragmentation_memoryviz"]) < 1e-5
    top = [(a["size_b"], a["addr"], a["origin"]) for a in got["peak_allocations"]]
    assert top == [(a["size"], a["addr"], a["origin"]) for a in amt["peak_top10"]], top
    with open(os.path.join(shared, "reference", "snapshots", name, "by_frame.csv")) as f:
        ref = [r for r in csv.DictReader(f) if r["when"] == "peak" and r["rule"] == "user"]
    assert [(g["frame"], g["bytes_b"]) for g in got["peak_by_frame"]] == [(r["frame"], int(r["bytes"])) for r in ref][:10]

    rows = list(csv.DictReader(io.StringIO(run_expecting(cli, "memory", "--snapshot", path, "--format", "csv").stdout)))
    assert len(rows) == 1, rows
    for field in FIELDS:
        assert int(rows[0][field]) == want[field], (field, rows[0][field])
    table = run_expecting(cli, "memory", "--snapshot", path).stdout
    assert "peak allocated" in table and str(want["peak_allocated_b"]) in table, table


def check_compare(cli, paths):
    a, b = paths
    doc = json.loads(run_expecting(cli, "memory", "--snapshot", a, "--compare", b, "--format", "json").stdout)
    c = doc["compare"][0]
    assert c["before"]["peak_allocated_b"] == doc["before"]["devices"][0]["peak_allocated_b"]
    assert c["after"]["peak_allocated_b"] == doc["after"]["devices"][0]["peak_allocated_b"]
    # The frames' changes add up to the change of what is live at the peak.
    total = sum(f["delta_b"] for f in c["peak_by_frame"])
    assert total == c["after"]["peak_allocated_b"] - c["before"]["peak_allocated_b"], total
    assert all(f["delta_b"] == f["after_b"] - f["before_b"] for f in c["peak_by_frame"])
    # Both Active Memory Timelines on one axis: down-sampled to at most 1000 points each,
    # x ascending from each one's origin, the peak and the last total kept.
    o = doc["overlay"][0]
    # The shared pair annotates no range in common: x is memory_viz's step, not each one's clock.
    assert o["device"] == 0 and o["x"] == "step" and o["aligned_by"] is None, (o["x"], o["aligned_by"])
    for side in ("before", "after"):
        points, dev = o[side], doc[side]["devices"][0]
        assert 2 <= len(points) <= 1000, (side, len(points))
        xs = [x for x, _ in points]
        assert xs[0] == 0 and xs == sorted(xs), (side, xs[:5])
        assert max(b for _, b in points) == dev["peak_allocated_b"], side
        assert points[0][1] == dev["initial_allocated_b"] and points[-1][1] == dev["final_allocated_b"], side
    out = run_expecting(cli, "memory", "--snapshot", a, "--compare", b, "--format", "csv").stdout
    assert out.startswith("device,when,frame,before_b,after_b,delta_b"), out[:100]


def check_bad_input(cli, tmp, a_snapshot):
    cases = {
        "global.pickle": (b"\x80\x02cos\nsystem\n(S'touch /tmp/ks-pwned'\ntR.", "refused, nothing was run"),
        "reduce.pickle": (b"\x80\x04\x8c\x05posix\x8c\x06system\x93\x8c\x04true\x85R.", "STACK_GLOBAL"),
        "protocol9.pickle": (b"\x80\x09K\x01.", "protocol 9 is newer"),
        "json.pickle": (b'{"traceEvents": []}', "looks like JSON"),
        "list_of_ints.pickle": (b"\x80\x04](K\x01K\x02e.", "segments[0] is of type int, not dict"),
        "empty.pickle": (b"", "empty"),
    }
    with open(a_snapshot, "rb") as f:
        cases["truncated.pickle"] = (f.read()[:5000], "truncated")
    for name, (data, text) in cases.items():
        path = os.path.join(tmp, name)
        with open(path, "wb") as f:
            f.write(data)
        code, out, err = run(cli, "memory", "--snapshot", path)
        assert code == 1, (name, code, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and path in lines[0] and text in lines[0], (name, err)
        assert out == "", (name, out)
    assert not os.path.exists("/tmp/ks-pwned")
    for args, text in ((["--snapshot", tmp], "is a folder"), (["--snapshot", os.path.join(tmp, "nope.pickle")], "cannot open")):
        code, _, err = run(cli, "memory", *args)
        assert code == 1 and text in err, (args, code, err)
    for args in (["--snapshot", a_snapshot, "--format", "xml"], ["--snapshot", a_snapshot, "--top", "0"],
                 ["--snapshot", a_snapshot, "extra.json"], []):
        code, _, err = run(cli, "memory", *args)
        assert code == 2 and "usage: kinetoscope-cli memory" in err, (args, code, err)
    code, _, err = run(cli, "memory", "--snapshot", a_snapshot, "--device", "5")
    assert code == 1 and "no memory on device 5" in err, err


def main():
    a = parse_args("--shared")
    if not os.path.isdir(os.path.join(a.shared, "snapshots")):
        print("SKIP: no ../shared/snapshots")
        return 0
    files = snapshot_files(a.shared)
    for name, path in files.items():
        check_reference(a.cli, a.shared, name, path)
    check_compare(a.cli, list(files.values())[:2])
    with tempfile.TemporaryDirectory() as tmp:
        check_bad_input(a.cli, tmp, next(iter(files.values())))
    print("ok:", len(files), "snapshots")
    return 0


if __name__ == "__main__":
    sys.exit(main())
