"""kinetoscope.open and the Trace: what a load holds, a rank's events over the store
(zero-copy where the layout allows), args on demand, and the analyses equal to the
CLI's output for the same call (one session computes both)."""
import json
import os
import subprocess

import numpy as np
import pandas as pd
import pytest

from conftest import SHARED, as_reference, loaded, need_cli, trace_folder

import compare_hta


def cli_json(*args):
    run = subprocess.run([need_cli(), *args], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_open_lists_ranks_devices_and_iterations():
    trace = loaded("two_ranks_sampled")
    assert trace.ranks == [0, 1]
    assert len(trace.paths) == 2 and all(os.path.exists(p) for p in trace.paths)
    table = trace.rank_table()
    assert list(table.index) == [0, 1] and (table["events"] > 0).all()
    info = cli_json("info", trace_folder("two_ranks_sampled"), "--json")
    assert {r["rank"]: r["events"] for r in info["ranks"]} == table["events"].to_dict()
    assert trace.iterations == trace.frames_info()["iterations"]
    assert isinstance(trace.devices, pd.DataFrame)
    assert list(trace.diagnostics.columns)[:3] == ["rank", "kind", "count"]


def test_events_are_views_over_the_store():
    trace = loaded("h100_qwen05b")
    arrays = trace.event_arrays()
    again = trace.event_arrays()
    # The same memory both times, not writable: the store's own columns.
    assert np.shares_memory(arrays["ts"], again["ts"])
    assert not arrays["ts"].flags.writeable
    gpu = trace.event_arrays(kind="gpu")
    assert np.shares_memory(gpu["ts"], arrays["ts"]), "one kind is one run of tracks: a view"
    df = trace.events()
    assert np.shares_memory(df["ts"].to_numpy(), arrays["ts"]), "the frame's ts column is the store's"
    assert len(df) == len(arrays["ts"])
    assert isinstance(df["name"].dtype, pd.CategoricalDtype)
    # Names read back as the strings the trace has.
    assert (df["name"].astype(str) != "").all()
    assert df["ts"].is_monotonic_increasing or len(df["track"].unique()) > 1


def test_event_filters_select_what_they_say():
    trace = loaded("h100_qwen05b")
    tracks = trace.tracks()
    gpu = trace.events(kind="gpu", track_columns=True)
    cpu = trace.events(kind="cpu", track_columns=True)
    assert gpu["is_gpu"].all() and not cpu["is_gpu"].any()
    assert len(gpu) + len(cpu) == len(trace.events())
    stream = int(tracks[tracks["is_gpu"]]["stream"].iloc[0])
    one = trace.events(stream=stream, track_columns=True)
    assert (one["stream"] == stream).all() and len(one) > 0
    start = int(trace.events()["ts"].median())
    later = trace.events(start=start)
    assert (later["ts"] >= start).all() and len(later) < len(trace.events())


def test_args_on_demand():
    trace = loaded("h100_qwen05b")
    df = trace.events(kind="gpu")
    slice_index = int(df.index[0])
    args = trace.args(slice_index)
    assert isinstance(args, dict) and "correlation" in args
    many = trace.many_args(list(df.index[:5]))
    assert many[slice_index] == args


def test_outputs_equal_the_cli():
    trace = loaded("two_ranks_sampled")
    folder = trace_folder("two_ranks_sampled")
    import tempfile

    with tempfile.TemporaryDirectory() as out:
        run = subprocess.run([need_cli(), "analyze", folder, "--hta-compat", "--format", "json", "--out", out,
                              "--only", "temporal,idle,kernels,overlap,launch-stats,steps"], capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        for name in sorted(os.listdir(out)):
            with open(os.path.join(out, name)) as f:
                cli = json.load(f)
            stem = name[:-5]
            mine = trace.output(stem, hta_compat=True)
            problems = []
            compare_hta.check_call(cli, {"ok": True, "result": as_reference(mine)}, problems)
            assert not problems, f"{name}: " + "\n".join(problems[:3])


def test_operators_equal_ops_command():
    trace = loaded("rpc_recipe")
    ops = trace.key_averages()
    cli = cli_json("ops", trace_folder("rpc_recipe"), "--format", "json")
    problems = []
    compare_hta.compare_results(cli, as_reference(ops), "ops", problems)
    assert not problems, "\n".join(problems[:3])
    by_shapes = trace.operators(by="shapes")
    assert len(by_shapes) >= len(ops)


def test_memory_equals_the_plugin_and_the_cli():
    trace = loaded("h100_qwen05b")
    memory = trace.memory()
    assert set(memory) == set(trace.MEMORY_TABLES)
    # The plugin's Memory Statistics, row for row (the reference the CLI's conformance test reads).
    reference = pd.read_csv(os.path.join(SHARED, "reference", "h100_qwen05b", "memory",
                                         "tb_memory_stats.csv"))
    stats = memory["stats"].drop(columns=["rank"])
    key = ["device", "operator"]
    merged = reference.merge(stats, on=key, how="outer", suffixes=("_ref", ""), indicator=True)
    assert (merged["_merge"] == "both").all(), merged[merged["_merge"] != "both"][key].head()
    for column in reference.columns:
        if column not in key:
            assert np.allclose(merged[column + "_ref"].astype(float), merged[column].astype(float)), column
    # The devices' peaks are the CLI's.
    cli = cli_json("memory", trace_folder("h100_qwen05b"), "--format", "json")
    peaks = {d["device"]: d["peak_allocated_b"] for d in cli["ranks"][0]["devices"]}
    assert dict(zip(memory["devices"]["device"], memory["devices"]["peak_allocated_b"])) == peaks
    assert len(memory["events"]) == len(cli["ranks"][0]["events"])
    assert len(memory["hta_stack_names"]) > 0 and "category" in memory["hta_categories"].columns


def test_critical_path_and_overlay(tmp_path):
    trace = loaded("critical_path_simple_add")
    path = trace.critical_path()
    assert path.success and path.total_weight > 0
    assert set(path.tables) >= {"summary", "critical_path_edges", "breakdown"}
    assert len(path.edges) == len(path.result["critical_path_edges"])
    out = tmp_path / "overlaid.json"
    events, marked, edges = path.write_trace(out)
    assert out.exists() and marked > 0 and edges == len(path.edges[path.edges["weight"] >= 0]) or edges > 0


def test_job_path_stragglers_roofline_insights():
    trace = loaded("two_ranks_sampled")
    job = trace.job_critical_path()
    assert isinstance(job.tables, dict) and job.tables
    what_if = trace.job_critical_path(what_if="kind:gpu_compute=0.5")
    assert what_if.what_if is not None
    roofline = trace.roofline()
    assert isinstance(roofline.table, pd.DataFrame) and "mfu" in roofline.mfu
    report = trace.insights()
    for finding in report:
        assert finding.rule and isinstance(finding.gain_pct, float)
    assert list(report.frame().columns)[:2] == ["rule", "gain_pct"]


def test_collectives_and_diff():
    import kinetoscope

    assert isinstance(loaded("ddp_gloo_2ranks").collectives(), pd.DataFrame)
    with pytest.raises(kinetoscope.NotApplicableError, match="two ranks"):
        loaded("nccl_ns_resolution").collectives()
    diff = loaded("diff_control").compare(loaded("diff_test"))
    assert {"diff_counts", "diff_duration"} <= set(diff.columns)


def test_summary_round_trip(tmp_path):
    import kinetoscope

    summary = kinetoscope.summarize(trace_folder("two_ranks_sampled"), tmp_path / "job.kssum", progress=False)
    assert list(summary.ranks["status"]) == ["ok", "ok"]
    assert isinstance(summary.rank_overview(), pd.DataFrame)
    assert isinstance(summary.insights(), kinetoscope.InsightsReport)
