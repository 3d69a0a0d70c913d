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


def test_align_with_a_trace_of_the_same_run(tmp_path):
    """Snapshot.align: the silmont snapshot's Optimizer.zero_grad annotation matched with a
    trace built to its times, 7 ms behind (ts relative to baseTimeNanoseconds)."""
    need_snapshots()
    path = os.path.join(SNAPSHOTS, "silmont_fwd_fp32_annotations", "memory_forward_fp32_128.pickle")
    name = "Optimizer.zero_grad#AdamW.zero_grad"
    start, end = 1772552953882198, 1772552953882257  # the pickle's START and END time_us
    base_us = 10 ** 15
    events = [
        {"ph": "X", "cat": "user_annotation", "name": name, "pid": 1, "tid": 1, "ts": start - 7000 - base_us,
         "dur": end - start, "args": {}},
        {"ph": "X", "cat": "cpu_op", "name": "ProfilerStep#3", "pid": 1, "tid": 1,
         "ts": start - 7000 - base_us - 500, "dur": end - start + 1000, "args": {}},
    ]
    trace_path = tmp_path / "rank0.json"
    trace_path.write_text(json.dumps({"schemaVersion": 1, "baseTimeNanoseconds": base_us * 1000,
                                      "traceEvents": events}))
    snap = kinetoscope.load_snapshot(path)
    aligned = snap.align(str(trace_path))
    assert isinstance(aligned, kinetoscope.SnapshotAlignment)
    assert (aligned.offset_us, aligned.spread_us, aligned.matched) == (7000, 0, 1)
    assert aligned.snapshot_annotations == 1 and aligned.diagnostics == []
    assert list(aligned.matches["name"]) == [name]
    assert int(aligned.matches["difference_us"][0]) == 7000
    ranges = aligned.ranges.set_index("name")
    assert list(aligned.ranges["name"]) == ["ProfilerStep#3", name]  # trace order
    # The same numbers as the CLI and the core's test: 500 MB live before the trace; zero_grad
    # (set_to_none) allocates nothing, the step around it allocates 5 blocks in embedding.py.
    assert int(ranges.loc[name, "requested_start_b"]) == 523811840
    assert int(ranges.loc[name, "allocations"]) == 0
    assert int(ranges.loc["ProfilerStep#3", "requested_start_b"]) == 523811840
    assert int(ranges.loc["ProfilerStep#3", "requested_end_b"]) == 525391872
    assert int(ranges.loc["ProfilerStep#3", "allocations"]) == 5
    assert ranges.loc["ProfilerStep#3", "top_frame"].endswith("embedding.py:14:forward")
    assert int(ranges.loc[name, "start_us"]) == start - 7000
    assert (aligned.rank, aligned.rank_told) == (0, True)  # the only rank


def test_align_chooses_the_rank_the_snapshot_fits(tmp_path):
    """Snapshot.align on a job folder, no rank given: the rank whose annotation times fit the
    snapshot's (rank 1 here, exact; rank 0's annotation ends 3 ms late) as the app's Steps tab
    chooses it; a rank given is the one aligned, whatever it fits."""
    need_snapshots()
    path = os.path.join(SNAPSHOTS, "silmont_fwd_fp32_annotations", "memory_forward_fp32_128.pickle")
    name = "Optimizer.zero_grad#AdamW.zero_grad"
    start, end = 1772552953882198, 1772552953882257
    base_us = 10 ** 15
    for rank, late_end_us in ((0, 3000), (1, 0)):
        events = [{"ph": "X", "cat": "user_annotation", "name": name, "pid": 1, "tid": 1,
                   "ts": start - 7000 - base_us, "dur": end - start + late_end_us, "args": {}}]
        (tmp_path / f"rank{rank}.json").write_text(json.dumps({
            "schemaVersion": 1, "baseTimeNanoseconds": base_us * 1000,
            "distributedInfo": {"rank": rank, "world_size": 2}, "traceEvents": events}))
    snap = kinetoscope.load_snapshot(path)
    job = kinetoscope.open(str(tmp_path), progress=False)
    chosen = snap.align(job)
    assert (chosen.rank, chosen.rank_told) == (1, True)
    assert (chosen.offset_us, chosen.spread_us) == (7000, 0)
    told = snap.align(job, rank=0)
    assert (told.rank, told.rank_told) == (0, True)
    assert (told.offset_us, told.spread_us) == (7000, 3000)
    with pytest.raises(ValueError, match="rank index 2 is not loaded"):
        snap.align(job, rank=2)


def test_align_refuses_what_it_cannot(tmp_path):
    need_snapshots()
    path = os.path.join(SNAPSHOTS, "silmont_fwd_fp32_annotations", "memory_forward_fp32_128.pickle")
    trace_path = tmp_path / "rank0.json"
    trace_path.write_text(json.dumps({"schemaVersion": 1, "traceEvents": [
        {"ph": "X", "cat": "user_annotation", "name": "other", "pid": 1, "tid": 1, "ts": 10, "dur": 5,
         "args": {}}]}))
    with pytest.raises(kinetoscope.NotApplicableError, match="none of the snapshot's 1 external_annotations"):
        kinetoscope.load_snapshot(path).align(kinetoscope.open(str(trace_path), progress=False))
