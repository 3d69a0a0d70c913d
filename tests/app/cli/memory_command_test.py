#!/usr/bin/env python3
"""`kinetoscope-cli memory` as a script uses it: the JSON fields, --device, --curve-points,
--iterations, CSV tables, the one line and exit 3 without [memory] events, usage errors;
and `ops`' key_averages memory columns recounted from the trace's [memory] events."""
import csv
import gzip
import io
import json
import os
import shutil
import sqlite3
import sys
import tempfile
from collections import defaultdict

from cli_test_support import parse_args, run

DEVICE_FIELDS = {"device", "peak_allocated_b", "peak_reserved_b", "peak_time_us", "peak_operator", "peak_stack",
                 "capacity_b", "peak_pct_of_capacity", "allocated_before_trace_b", "allocated_at_end_b",
                 "live_at_end_b", "live_at_end_count", "freed_before_trace_b", "max_cache_overhead_b"}
STATS_FIELDS = {"device", "operator", "calls", "size_increase_b", "self_size_increase_b", "allocation_count",
                "self_allocation_count", "allocation_size_b", "self_allocation_size_b"}
EVENT_FIELDS = {"device", "operator", "size_b", "allocation_time_us", "release_time_us"}
GROWTH_FIELDS = {"device", "step", "allocated_at_start_b", "allocated_at_end_b", "growth_b"}


def memory_json(cli, *args):
    code, out, err = run(cli, "memory", *args, "--format", "json")
    assert code == 0, (args, code, err)
    return json.loads(out)["ranks"][0]


def check_fields(rank):
    assert rank["devices"] and rank["stats"] and rank["events"], rank.keys()
    for d in rank["devices"]:
        assert DEVICE_FIELDS <= set(d), DEVICE_FIELDS - set(d)
    assert all(STATS_FIELDS <= set(r) for r in rank["stats"])
    assert all(EVENT_FIELDS <= set(r) for r in rank["events"])
    assert all(GROWTH_FIELDS <= set(r) for r in rank["growth"]) and rank["growth"]
    gpu = [d for d in rank["devices"] if d["device"] == "GPU0"][0]
    assert gpu["capacity_b"] > gpu["peak_allocated_b"] > 0
    assert gpu["peak_operator"].startswith("aten::"), gpu["peak_operator"]
    assert gpu["peak_stack"][-1] == gpu["peak_operator"] or gpu["peak_operator"] in gpu["peak_stack"]
    # The leaks are the events never released.
    assert rank["leaks"] == [e for e in rank["events"] if e["release_time_us"] is None and e["allocation_time_us"] is not None]


def key_averages_memory(path):
    """CPU Mem / CUDA Mem per op name by PyTorch's MemRecordsAcc rule: the records whose
    time lies in [start, end] of the op, any thread; HIP counted as CUDA."""
    with gzip.open(path) as f:
        events = json.load(f)["traceEvents"]
    memory = sorted((e["ts"], e["args"]["Bytes"], e["args"]["Device Type"]) for e in events
                    if e.get("name") == "[memory]")
    totals = defaultdict(lambda: [0, 0])
    for e in events:
        if e.get("ph") != "X" or e.get("cat") not in ("cpu_op", "user_annotation"):
            continue
        start, end = e["ts"], e["ts"] + e["dur"]
        name = "ProfilerStep*" if e["name"].startswith("ProfilerStep#") else e["name"]
        for ts, nbytes, device in memory:
            if start <= ts <= end:
                totals[name][0 if device == 0 else 1] += nbytes if device in (0, 1, 6, 20) else 0
    return totals


def check_hta_filters(rank, gpu, step):
    """--device and --iterations restrict HTA #223's tables as the others."""
    assert rank["hta_classified"] and {e["device"] for e in rank["hta_classified"]} == {-1, 0}
    assert {e["device"] for e in gpu["hta_classified"]} == {0}
    assert {r["device"] for r in gpu["hta_categories"]} == {0}
    names = {n: i for i, n in enumerate(rank["hta_stack_names"])}
    assert len(gpu["hta_stack_names"]) == len({e["stack_name_id"] for e in gpu["hta_classified"]})
    full = {(e["device"], e["index"]): e for e in rank["hta_classified"]}
    for e in gpu["hta_classified"]:
        same = full[(e["device"], e["index"])]
        assert {k: v for k, v in e.items() if k != "stack_name_id"} == \
            {k: v for k, v in same.items() if k != "stack_name_id"}, e
        assert names[gpu["hta_stack_names"][e["stack_name_id"]]] == same["stack_name_id"]
    # The trace's one step: a subset of the rows (the records inside it), totals unchanged.
    assert 0 < len(step["hta_classified"]) <= len(rank["hta_classified"])
    for e in step["hta_classified"]:
        assert full[(e["device"], e["index"])]["total_allocated"] == e["total_allocated"]


def reference_min_ts(shared_trace):
    folder = shared_trace.replace(os.sep + "traces" + os.sep, os.sep + "reference" + os.sep)
    with open(os.path.join(folder, "memory", "run.json")) as f:
        return json.load(f)["hta"]["min_ts_us"]


def reference_ts(shared_trace):
    folder = shared_trace.replace(os.sep + "traces" + os.sep, os.sep + "reference" + os.sep)
    with open(os.path.join(folder, "memory", "hta_memory_events_classified.csv")) as f:
        return {(int(r["device"]), int(r["index"])): int(r["ts"]) for r in csv.DictReader(f)}


def check_hta_time_base(a, h100, mi300):
    """Two ranks (the H100 and MI300 traces): HTA #223's ts count from each rank's own first
    event by default (HTA's run on that rank alone: its ts), and with --hta-compat from the
    earliest of both, as HTA's Trace subtracts the min ts of all ranks (run.json min_ts_us)."""
    if not os.path.isdir(mi300):
        return
    files = [os.path.join(d, sorted(os.listdir(d))[0]) for d in (h100, mi300)]
    mins = [reference_min_ts(d) for d in (h100, mi300)]
    refs = [reference_ts(d) for d in (h100, mi300)]
    job_min = min(mins)
    own = json.loads(run(a.cli, "memory", *files, "--format", "json")[1])
    code, out, err = run(a.cli, "memory", *files, "--format", "json", "--hta-compat")
    assert code == 0, err
    hta = json.loads(out)
    assert own["hta_time_base"] == "rank" and hta["hta_time_base"] == "all_ranks", (own["hta_time_base"], hta["hta_time_base"])
    assert [r["path"] for r in own["ranks"]] == files == [r["path"] for r in hta["ranks"]], [r["path"] for r in own["ranks"]]
    for k in range(2):
        assert own["ranks"][k]["hta_time_base_us"] == mins[k]
        assert hta["ranks"][k]["hta_time_base_us"] == job_min
        assert len(own["ranks"][k]["hta_classified"]) == len(refs[k]) > 0
        for e in own["ranks"][k]["hta_classified"]:
            assert e["ts"] == refs[k][(e["device"], e["index"])], e
        for e in hta["ranks"][k]["hta_classified"]:
            assert e["ts"] == refs[k][(e["device"], e["index"])] + mins[k] - job_min, e
    assert any(mins[k] != job_min for k in range(2))
    code, out, err = run(a.cli, "memory", *files, "--format", "csv", "--table", "classified")
    assert code == 0 and "each rank's own first event" in err, err
    code, out, err = run(a.cli, "memory", *files, "--format", "csv", "--table", "classified", "--hta-compat")
    assert code == 0 and "earliest event of all loaded ranks" in err, err


def check_summary(a, h100, rank):
    """`memory JOB.kssum`: the summary's peaks, growth and top operators are `memory`'s on the
    folder; a summary without the memory tables says so in one line (exit 3)."""
    work = tempfile.mkdtemp()
    try:
        summary = os.path.join(work, "job.kssum")
        code, out, err = run(a.cli, "summarize", h100, "--out", summary)
        assert code == 0, (code, out, err)
        code, out, err = run(a.cli, "memory", summary, "--format", "json")
        assert code == 0, (code, out, err)
        stored = json.loads(out)["ranks"]
        assert len(stored) == 1 and stored[0]["rank"] == rank["rank"], stored
        got = {d["device"]: d for d in stored[0]["devices"]}
        assert set(got) == {d["device"] for d in rank["devices"]}, got.keys()
        for d in rank["devices"]:
            for field in ("peak_allocated_b", "peak_reserved_b", "peak_time_us", "peak_operator", "capacity_b"):
                assert got[d["device"]][field] == d[field], (d["device"], field, got[d["device"]][field], d[field])
        growth = {(g["device"], g["step"]): g for g in stored[0]["growth"]}
        assert len(growth) == len(rank["growth"]) > 0
        for g in rank["growth"]:
            for field in ("allocated_at_start_b", "allocated_at_end_b", "growth_b", "start_us"):
                assert growth[(g["device"], g["step"])][field] == g[field], (g, field)
        for device in got:
            sizes = sorted((r["self_allocation_size_b"] for r in rank["stats"]
                            if r["device"] == device and r["self_allocation_size_b"] > 0), reverse=True)[:10]
            top = [o["self_allocation_size_b"] for o in stored[0]["top_operators"] if o["device"] == device]
            assert top == sizes, (device, top, sizes)
        code, out, err = run(a.cli, "memory", summary, "--device", "GPU0", "--format", "csv")
        assert code == 0 and out.count("GPU0") == 1 and "CPU" not in out, (out, err)
        code, out, err = run(a.cli, "memory", summary)
        assert code == 0 and "memory per rank" in out and "top operators" in out, (out, err)
        code, out, err = run(a.cli, "memory", summary, "--events")
        assert code == 2 and "--events" in err, (code, err)
        # Written before summaries stored memory: the tables are not there.
        old = os.path.join(work, "old.kssum")
        shutil.copy(summary, old)
        with sqlite3.connect(old) as db:
            for table in ("memory_peaks", "memory_steps", "memory_top_ops"):
                db.execute(f"DROP TABLE {table}")
        code, out, err = run(a.cli, "memory", old)
        assert code == 3 and out.count("\n") == 1 and "no memory data" in out, (code, out, err)
        code, out, err = run(a.cli, "overview", old)
        assert code == 0, (code, err)
    finally:
        shutil.rmtree(work)


def main():
    a = parse_args("--shared")
    h100 = os.path.join(a.shared, "traces", "h100_qwen05b")
    if not os.path.isdir(h100):
        print(f"SKIP: {h100} is absent")
        return 0

    rank = memory_json(a.cli, h100, "--curve-points", "50")
    check_fields(rank)
    assert all(len(d["curve"]) == 50 for d in rank["devices"] if d["device"] == "GPU0")
    gpu = memory_json(a.cli, h100, "--device", "GPU0")
    assert {d["device"] for d in gpu["devices"]} == {"GPU0"}
    assert {r["device"] for r in gpu["stats"]} == {"GPU0"} and {r["device"] for r in gpu["events"]} == {"GPU0"}
    assert memory_json(a.cli, h100, "--device", "0")["devices"] == gpu["devices"]
    # The trace's one step holds every record: the same events as the whole trace.
    step = memory_json(a.cli, h100, "--iterations", "6")
    assert len(step["events"]) == len(rank["events"]), (len(step["events"]), len(rank["events"]))
    none = run(a.cli, "memory", h100, "--iterations", "99", "--format", "json")
    assert none[0] == 0 and "none of the iterations" in none[2], none
    assert not json.loads(none[1])["ranks"][0]["hta_classified"], "HTA #223's rows outside the steps"
    check_hta_filters(rank, gpu, step)

    code, out, err = run(a.cli, "memory", h100, "--format", "csv", "--table", "events")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == len(rank["events"]) and "allocation_time_us" in rows[0]
    code, out, err = run(a.cli, "memory", h100)
    assert code == 0 and "memory statistics per operator" in out and "at the peak:" in out, err

    # No [memory] events: one line, exit 3.
    cpu_only = os.path.join(a.shared, "traces", "cpu_only")
    code, out, err = run(a.cli, "memory", cpu_only)
    assert code == 3 and out.count("\n") == 1 and "no [memory] events" in out, (code, out, err)
    # Usage errors: exit 2.
    for bad in (["--device", "XPU"], ["--curve-points", "x"], ["--table", "nope"]):
        code, out, err = run(a.cli, "memory", h100, *bad)
        assert code == 2 and bad[0] in err, (bad, code, err)

    check_summary(a, h100, rank)
    check_hta_time_base(a, h100, os.path.join(a.shared, "traces", "mi300_qwen05b"))

    # ops: key_averages' memory columns, recounted.
    trace = [os.path.join(h100, f) for f in os.listdir(h100)][0]
    expected = key_averages_memory(trace)
    code, out, err = run(a.cli, "ops", h100, "--format", "csv")
    assert code == 0, err
    checked = 0
    for row in csv.DictReader(io.StringIO(out)):
        want = expected.get(row["name"])
        if want is None:
            continue
        assert int(row["cpu_mem_b"]) == want[0] and int(row["cuda_mem_b"]) == want[1], (row, want)
        checked += 1
    assert checked > 20, checked
    print(f"memory command: ok ({len(rank['stats'])} stats rows, {len(rank['events'])} events, "
          f"{checked} ops rows recounted)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
