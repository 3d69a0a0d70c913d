"""kinetoscope.hta's surface as HTA 0.6.1's users rely on it: the methods' names,
arguments and defaults (from HTA's hta/trace_analysis.py and hta/trace_diff.py), the
return types, and the DataFrames' columns, index and dtypes of HTA's own answers
(../shared/reference)."""
import glob
import inspect
import json
import os

import pandas as pd
import pytest

from conftest import REFERENCE, analyzer, need_shared
from test_hta_conformance import call

# HTA 0.6.1's public methods: (argument, default) after self; `...` for no default.
HTA_SIGNATURES = {
    "__init__": [("trace_files", None), ("trace_dir", "traces"), ("include_last_profiler_step", False)],
    "get_comm_comp_overlap": [("visualize", True)],
    "get_profiler_steps": [],
    "get_potential_stragglers": [("profiler_steps", None), ("num_candidates", 2), ("visualize", False),
                                 ("straggler_identification_impl", None)],
    "get_gpu_kernel_breakdown": [("visualize", True), ("duration_ratio", 0.8), ("num_kernels", 10),
                                 ("include_memory_kernels", True), ("image_renderer", "")],
    "get_gpu_kernels_with_user_annotations": [("rank", ...), ("expand_names", True), ("shortern_names", True)],
    "get_gpu_user_annotation_breakdown": [("use_gpu_annotation", True), ("visualize", True), ("duration_ratio", 0.8),
                                          ("num_kernels", 1000), ("allowlist_patterns", None), ("image_renderer", None)],
    "get_temporal_breakdown": [("visualize", True)],
    "get_frequent_cuda_kernel_sequences": [("operator_name", ...), ("output_dir", ...), ("min_pattern_len", 3),
                                           ("rank", 0), ("top_k", 5), ("visualize", False),
                                           ("compress_other_kernels", True)],
    "get_aten_op_kernels_and_delay": [("ranks", None), ("sort_by", None)],
    "get_cuda_kernel_launch_stats": [("ranks", None), ("runtime_cutoff", 50), ("launch_delay_cutoff", 100),
                                     ("include_memory_events", True), ("visualize", True)],
    "generate_trace_with_counters": [("time_series", None), ("ranks", None), ("output_suffix", "_with_counters")],
    "get_queue_length_summary": [("ranks", None)],
    "get_queue_length_summary_from_time_series": [("queue_length_dict", ...)],
    "get_queue_length_time_series": [("ranks", None)],
    "get_time_spent_blocked_on_full_queue": [("queue_length_dict", ...), ("max_queue_length", 1024)],
    "get_memory_bw_summary": [("ranks", None)],
    "get_memory_bw_time_series": [("ranks", None)],
    "get_idle_time_breakdown": [("ranks", None), ("streams", None), ("visualize", True), ("visualize_pctg", True),
                                ("show_idle_interval_stats", False), ("consecutive_kernel_delay", 30)],
    "get_cupti_counter_data_with_operators": [("ranks", None)],
    "critical_path_analysis": [("rank", ...), ("annotation", ...), ("instance_id", ...), ("data_load_events", None)],
    "overlay_critical_path_analysis": [("rank", ...), ("critical_path_graph", ...), ("output_dir", ...),
                                       ("only_show_critical_events", True), ("show_all_edges", False)],
}


@pytest.mark.parametrize("method", sorted(HTA_SIGNATURES))
def test_hta_signature(method):
    from kinetoscope.hta import TraceAnalysis

    parameters = [p for p in inspect.signature(getattr(TraceAnalysis, method)).parameters.values()
                  if p.name != "self" and p.kind is not inspect.Parameter.KEYWORD_ONLY]
    ours = [(p.name, ... if p.default is inspect.Parameter.empty else p.default) for p in parameters]
    expected = HTA_SIGNATURES[method]
    assert ours[: len(expected)] == expected
    assert all(default is not ... for _, default in ours[len(expected):]), "extra arguments must be optional"


def test_trace_diff_signatures():
    from kinetoscope.hta import DeviceType, TraceDiff

    names = list(inspect.signature(TraceDiff.compare_traces).parameters)
    assert names == ["control", "test", "control_rank", "test_rank", "control_iteration", "test_iteration",
                     "device_type", "use_short_name"]
    assert inspect.signature(TraceDiff.ops_diff).parameters["device_type"].default is DeviceType.ALL


def python_type(values):
    kinds = {type(v) for v in values if v is not None}
    if not kinds:
        return None
    if kinds <= {int}:
        return "int"
    if kinds <= {int, float} or kinds <= {float, str} and all(v in ("inf", "-inf") for v in values if isinstance(v, str)):
        return "float"
    return "object"


def check_frame_types(ref, ours, where):
    """HTA's columns, index columns and dtypes (from the reference's values) on our frame."""
    assert isinstance(ours, pd.DataFrame), f"{where}: {type(ours)} where HTA returns a DataFrame"
    index = [n for n in ours.index.names if n is not None]
    assert index == (ref.get("index_columns") or []), f"{where}: index {index}"
    flat = ours.reset_index() if index else ours
    symbol_ids = (ref.get("_args") or {}).get("_symbol_id_columns")
    if not symbol_ids:
        assert list(flat.columns) == ref["columns"], f"{where}: columns {list(flat.columns)} != {ref['columns']}"
    for column in flat.columns:
        if column not in ref["columns"]:
            continue
        expected = python_type([r.get(column) for r in ref["records"]])
        dtype = flat[column].dtype
        if expected == "int" and ref["n_rows"]:
            has_null = any(r.get(column) is None for r in ref["records"])
            assert pd.api.types.is_integer_dtype(dtype) or has_null and pd.api.types.is_float_dtype(dtype), \
                f"{where}: column {column} is {dtype}, HTA's integers"
        elif expected == "float":
            assert pd.api.types.is_float_dtype(dtype), f"{where}: column {column} is {dtype}, HTA's floats"
        elif expected == "object":
            assert dtype == object, f"{where}: column {column} is {dtype}, HTA's text"


def check_types(ref, ours, where):
    kind = ref["type"]
    if kind == "dataframe":
        check_frame_types(ref, ours, where)
    elif kind == "tuple":
        assert isinstance(ours, tuple) and len(ours) == len(ref["items"]), where
        for i, (r, o) in enumerate(zip(ref["items"], ours)):
            check_types(r, o, f"{where}[{i}]")
    elif kind == "list":
        assert isinstance(ours, list), where
        for i, (r, o) in enumerate(zip(ref["items"], ours)):
            check_types(r, o, f"{where}[{i}]")
    elif kind == "dict":
        assert isinstance(ours, dict), where
        assert sorted(str(k) for k in ours) == sorted(ref["items"]), where
        for k, o in ours.items():
            check_types(ref["items"][str(k)], o, f"{where}[{k}]")
    elif kind == "none":
        assert ours is None, f"{where}: HTA returns None"


def typed_files():
    out = []
    for folder in ("two_ranks_sampled", "h100_qwen05b", "cuda_event_sync"):
        for p in sorted(glob.glob(os.path.join(REFERENCE, folder, "get_*.json"))):
            out.append((folder, os.path.basename(p)))
    return out


@pytest.mark.parametrize("folder,name", typed_files())
def test_return_types_columns_and_dtypes(folder, name, tmp_path):
    need_shared()
    with open(os.path.join(REFERENCE, folder, name)) as f:
        ref = json.load(f)
    if not ref.get("ok"):
        pytest.skip("HTA raised here")
    if ref["result"].get("type") == "dataframe":
        ref["result"]["_args"] = ref.get("args") or {}
    ours = call(analyzer(folder), ref, str(tmp_path))
    check_types(ref["result"], ours, f"{folder}/{name}")
