"""kinetoscope.hta against HTA 0.6.1's own outputs (../shared/reference): every call the
reference holds, on every shared trace folder, with the reference's arguments, through
the Python API, judged by the conformance scripts' comparison (compare_hta.check_call,
compare_critical_path.compare_result)."""
import glob
import json
import os
import re
import tempfile

import pytest

import compare_critical_path
import compare_hta
from conftest import REFERENCE, TRACES, analyzer, as_reference, need_shared

# The folders tests/conformance checks the CLI on (its CMakeLists.txt), TraceLens's two among them.
FOLDERS = ["amd_rocm", "cpu_only", "critical_path_alexnet", "critical_path_simple_add", "cuda_event_sync",
           "cuda_event_sync_multi_stream", "diff_control", "diff_test", "mtia_inference", "nccl_ns_resolution",
           "no_distributed_info", "no_gpu_no_rank", "ns_resolution", "two_ranks_sampled", "h100_qwen05b",
           "mi300_qwen05b"]
# Compared elsewhere in this folder (critical path below; counters write a trace) or not calls.
NOT_HERE = {"critical_path_analysis", "generate_trace_with_counters", "TraceAnalysis", None}


def reference_files():
    if not os.path.isdir(REFERENCE):
        return []
    out = []
    for folder in FOLDERS:
        for path in sorted(glob.glob(os.path.join(REFERENCE, folder, "*.json"))):
            name = os.path.basename(path)
            if name.startswith(("get_",)):
                out.append((folder, name))
    return out


def ranks_in(text):
    """The ranks of the harness's "get_queue_length_time_series(ranks=[0, 1])"."""
    match = re.search(r"ranks=\[([^\]]*)\]", text)
    return [int(r) for r in match.group(1).split(",") if r.strip()] if match else [0]


def call(ta, ref, tmp):
    """The reference's call on our analyzer, with the reference's arguments."""
    name = ref["call"]
    args = {k: v for k, v in (ref.get("args") or {}).items() if not k.startswith("_")}
    if "queue_length_dict" in args:
        args["queue_length_dict"] = ta.get_queue_length_time_series(ranks=ranks_in(args["queue_length_dict"]))
    if name == "get_frequent_cuda_kernel_sequences":
        args["output_dir"] = tmp
    if name == "get_gpu_kernels_with_user_annotations" and "shorten_names" in args:
        args["shortern_names"] = args.pop("shorten_names")
    return getattr(ta, name)(**args)


@pytest.mark.parametrize("folder,name", reference_files())
def test_call_matches_hta(folder, name):
    need_shared()
    with open(os.path.join(REFERENCE, folder, name)) as f:
        ref = json.load(f)
    if ref.get("skipped"):
        pytest.skip(f"{name}: the harness did not call HTA ({ref.get('error', '')[:60]})")
    if ref.get("call") in NOT_HERE:
        pytest.skip(f"{name}: compared elsewhere")
    from kinetoscope import NotApplicableError

    ta = analyzer(folder)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            ours = {"ok": True, "result": as_reference(call(ta, ref, tmp))}
        except NotApplicableError as e:
            ours = {"ok": False, "error": str(e)}
    problems = []
    compare_hta.check_call(ref, ours, problems)
    assert not problems, f"{folder}/{name}:\n" + "\n".join(problems[:5])


def critical_path_files():
    if not os.path.isdir(REFERENCE):
        return []
    return [(os.path.basename(os.path.dirname(p)), os.path.basename(p))
            for p in sorted(glob.glob(os.path.join(REFERENCE, "*", "critical_path_analysis__*.json")))
            if os.path.isdir(os.path.join(TRACES, os.path.basename(os.path.dirname(p))))]


@pytest.mark.parametrize("folder,name", critical_path_files())
def test_critical_path_matches_hta(folder, name):
    need_shared()
    with open(os.path.join(REFERENCE, folder, name)) as f:
        ref = json.load(f)
    args = ref["args"]
    instance = args.get("instance_id")
    instance = tuple(instance) if isinstance(instance, list) else instance
    answer = analyzer(folder).critical_path_analysis(args.get("rank", 0), args.get("annotation", ""), instance)
    if not ref["ok"]:
        assert answer is None, f"HTA raised ({ref.get('error', '')[:80]}) but an answer came back"
        return
    assert answer is not None, "HTA answered, kinetoscope.hta returned None"
    graph, success = answer
    assert success == ref["result"]["success"]
    problems, notes = [], []
    compare_critical_path.compare_result(ref["result"], graph.kinetoscope_path.result, problems, notes)
    assert not problems, "\n".join(problems[:5])
    # The CPGraph side people read: the path's edges, its breakdown and summary.
    assert len(graph.critical_path_edges_list) == len(ref["result"]["critical_path_edges"])
    summary = graph.summary()
    expected = {r["bound_by"]: r["duration"] for r in ref["result"]["summary_pct_by_bound_type"]["records"]}
    assert summary.to_dict() == pytest.approx(expected)
    assert len(graph.get_critical_path_breakdown()) == ref["result"]["breakdown"]["n_rows"]


def diff_files():
    folder = os.path.join(REFERENCE, "diff_control_vs_test")
    return sorted(os.path.basename(p) for p in glob.glob(os.path.join(folder, "compare_traces*.json"))) + ["ops_diff.json"] \
        if os.path.isdir(folder) else []


@pytest.mark.parametrize("name", diff_files())
def test_trace_diff_matches_hta(name):
    need_shared()
    from kinetoscope.hta import DeviceType, LabeledTrace, TraceDiff

    with open(os.path.join(REFERENCE, "diff_control_vs_test", name)) as f:
        ref = json.load(f)
    control = LabeledTrace(label="Control", trace_dir=os.path.join(TRACES, "diff_control"))
    test = LabeledTrace(label="Test", trace_dir=os.path.join(TRACES, "diff_test"))
    args = ref["args"]
    if ref["call"] == "ops_diff":
        result = TraceDiff.ops_diff(control, test)
        ours = {"ok": True, "result": as_reference(result)}
    else:
        device = DeviceType[args.get("device_type", "DeviceType.ALL").split(".")[-1]]
        result = TraceDiff.compare_traces(control, test, device_type=device,
                                          use_short_name=bool(args.get("use_short_name", False)))
        ours = {"ok": True, "result": as_reference(result)}
    problems = []
    compare_hta.check_call(ref, ours, problems)
    assert not problems, "\n".join(problems[:5])


def counter_folders():
    return [f for f in FOLDERS if os.path.exists(os.path.join(REFERENCE, f, "generate_trace_with_counters.json"))]


@pytest.mark.parametrize("folder", counter_folders())
def test_trace_with_counters_matches_hta(folder, tmp_path):
    """generate_trace_with_counters writes next to each rank's file: on a copy of the folder."""
    need_shared()
    import shutil

    import compare_issue4
    from kinetoscope.hta import TraceAnalysis

    with open(os.path.join(REFERENCE, folder, "generate_trace_with_counters.json")) as f:
        ref = json.load(f)
    expected = ref["result"]["value"]
    copy = tmp_path / folder
    shutil.copytree(os.path.join(TRACES, folder), copy)
    before = set(os.listdir(copy))
    ta = TraceAnalysis(trace_dir=str(copy), progress=False)
    ta.generate_trace_with_counters(ranks=(ref.get("args") or {}).get("ranks", ta.t.get_ranks()))
    written = sorted(set(os.listdir(copy)) - before)
    assert written == sorted(expected["new_files"])
    problems = []
    for name in written:
        if name not in expected["per_file"]:
            continue
        want = expected["per_file"][name]
        ours = compare_issue4.counter_summary(str(copy / name))
        for key in ("gzip_compressed", "n_events_total", "n_counter_events", "counter_events_by_name"):
            if want[key] != ours[key]:
                problems.append(f"{name}: {key} HTA {want[key]!r}, here {ours[key]!r}")
        compare_issue4.compare_event_lists(want["counter_events_first_200"], ours["counter_events_first_200"],
                                           name + " first 200", problems)
    assert not problems, "\n".join(problems[:5])
