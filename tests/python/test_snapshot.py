"""kinetoscope.Snapshot: the per-device numbers equal memory_viz's in
../shared/reference/snapshots (stats.json), the by-frame table at the peak equals
by_frame.csv, compare() adds up, and bad pickles raise LoadError with one line."""
import csv
import json
import os

import pytest

import kinetoscope
from conftest import SHARED

SNAPSHOTS = os.path.join(SHARED, "snapshots")
REFERENCE = os.path.join(SHARED, "reference", "snapshots")


def cases():
    if not os.path.isdir(SNAPSHOTS):
        return []
    out = []
    for name in sorted(os.listdir(SNAPSHOTS)):
        folder = os.path.join(SNAPSHOTS, name)
        if os.path.isdir(folder):
            out.append((name, os.path.join(folder, next(f for f in os.listdir(folder) if f.endswith(".pickle")))))
    return out


def need_snapshots():
    if not cases():
        pytest.skip(f"{SNAPSHOTS} is absent")


def expected(name):
    with open(os.path.join(REFERENCE, name, "stats.json")) as f:
        stats = json.load(f)
    want = {}
    for device, d in stats["devices"].items():
        seg = d["segments"]
        want[int(device)] = {
            "device": int(device), "reserved_b": seg["reserved"], "allocated_b": seg["allocated"],
            "active_b": seg["active"], "requested_b": seg["requested_active"], "segments": seg["n_segments"],
            "blocks": seg["n_blocks"], "peak_allocated_b": d["active_memory_timeline"]["peak_allocated"],
            "peak_reserved_b": d["active_cached_segment_timeline"]["peak_reserved"],
            "oom_events": len(d["trace"]["oom_events"])}
    return want


def reference_frames(name, when, rule):
    with open(os.path.join(REFERENCE, name, "by_frame.csv")) as f:
        return [r for r in csv.DictReader(f) if r["when"] == when and r["rule"] == rule]


@pytest.mark.parametrize("name,path", cases() or [pytest.param("none", "", marks=pytest.mark.skip("no snapshots"))])
def test_summary_equals_memoryviz(name, path):
    snap = kinetoscope.load_snapshot(path)
    assert isinstance(snap, kinetoscope.Snapshot) and snap.path == path
    want = expected(name)
    summary = snap.summary()
    assert list(summary.columns) == list(kinetoscope.snapshot.SNAPSHOT_FIELDS)
    assert sorted(summary["device"]) == sorted(want)
    for row in summary.to_dict("records"):
        assert {k: int(v) for k, v in row.items()} == want[row["device"]], (name, row)
        assert snap.device(row["device"]) == want[row["device"]]
    with pytest.raises(kinetoscope.InvalidArgumentError, match="no memory on device 7"):
        snap.device(7)


@pytest.mark.parametrize("name,path", cases() or [pytest.param("none", "", marks=pytest.mark.skip("no snapshots"))])
def test_by_frame_equals_memoryviz(name, path):
    snap = kinetoscope.Snapshot(path)
    for when, rule in (("peak", "user"), ("end", "user"), ("peak", "memoryviz")):
        ref = reference_frames(name, when, rule)
        df = snap.by_frame(when=when, rule=rule)
        assert len(df) == len(ref) > 0, (name, when, rule, len(df), len(ref))
        assert list(df["frame"]) == [r["frame"] for r in ref]
        assert [int(b) for b in df["bytes_b"]] == [int(r["bytes"]) for r in ref]
        assert [int(c) for c in df["count"]] == [int(r["count"]) for r in ref]
        if when == "end":
            assert [int(b) for b in df["block_bytes_b"]] == [int(r["block_bytes"]) for r in ref]
    # What is live at the peak adds up to the peak.
    peak = snap.by_frame()
    assert int(peak["bytes_b"].sum()) == snap.device(snap.default_device)["peak_allocated_b"]
    with pytest.raises(kinetoscope.InvalidArgumentError):
        snap.by_frame(when="middle")
    with pytest.raises(ValueError):
        snap.by_frame(rule="nope")


def test_compare_adds_up():
    need_snapshots()
    (_, a), (_, b) = cases()[:2]
    comparison = kinetoscope.Snapshot(a).compare(b)
    before, after = kinetoscope.Snapshot(a).summary(), kinetoscope.Snapshot(b).summary()
    assert comparison.before.equals(before) and comparison.after.equals(after)
    frames = comparison.by_frame("peak")
    assert list(frames.columns) == ["device", "frame", "before_b", "after_b", "delta_b", "count_before",
                                    "count_after"]
    assert (frames["delta_b"] == frames["after_b"] - frames["before_b"]).all()
    change = int(after["peak_allocated_b"][0]) - int(before["peak_allocated_b"][0])
    assert int(frames["delta_b"].sum()) == change
    assert len(comparison.by_frame("end")) > 0


def test_bad_pickles_raise_one_line(tmp_path):
    need_snapshots()
    cases_ = {
        "global.pickle": (b"\x80\x02cos\nsystem\n(S'touch /tmp/ks-pwned-py'\ntR.", "refused, nothing was run"),
        "json.pickle": (b'{"traceEvents": []}', "looks like JSON"),
        "empty.pickle": (b"", "empty"),
    }
    with open(cases()[0][1], "rb") as f:
        cases_["truncated.pickle"] = (f.read()[:5000], "truncated")
    for name, (data, text) in cases_.items():
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(kinetoscope.LoadError) as e:
            kinetoscope.Snapshot(path)
        message = str(e.value)
        assert "\n" not in message and str(path) in message and text in message, (name, message)
    assert not os.path.exists("/tmp/ks-pwned-py")
    with pytest.raises(kinetoscope.LoadError, match="cannot open"):
        kinetoscope.load_snapshot(tmp_path / "missing.pickle")
