"""HTA 0.6.1's TraceAnalysis over Kinetoscope's core, in HTA-compatible mode: the same
methods, arguments, defaults and return types; the numbers of `kinetoscope-cli
analyze --hta-compat` (one session computes both). See docs/guide/python.md."""
import os
from enum import Flag, auto

from .. import _native
from .._frames import to_pandas
from ..trace import open as _open
from .critical_path import CPGraph

DEFAULT_TRACE_DIR = "traces"
CUDA_MAX_LAUNCH_QUEUE_PER_STREAM = 1024


class TimeSeriesTypes(Flag):
    QUEUE_LENGTH = auto()
    MEMCPY_BANDWIDTH = auto()


def _plot(df, title, visualize):
    """visualize=True draws with plotly when it is installed; it is ignored otherwise."""
    if not visualize or df is None:
        return
    try:
        import plotly.express as px
    except ImportError:
        return
    numeric = df.select_dtypes("number")
    if len(numeric.columns):
        px.bar(numeric.reset_index(), x=numeric.reset_index().columns[0], y=list(numeric.columns), title=title).show()


def _ranks(ranks):
    """HTA's default rank list: [0]."""
    if ranks is None or (isinstance(ranks, list) and len(ranks) == 0):
        return [0]
    return [ranks] if isinstance(ranks, int) else list(ranks)


class _TraceFiles:
    """The part of HTA's `analyzer.t` (its Trace) that is the load's identity."""

    def __init__(self, trace):
        self.trace_files = dict(zip(trace.ranks, trace.paths))
        self.is_parsed = True

    def get_ranks(self):
        return sorted(self.trace_files)


class TraceAnalysis:
    def __init__(self, trace_files=None, trace_dir=DEFAULT_TRACE_DIR, include_last_profiler_step=False, *,
                 threads=0, progress=True):
        """Loads `trace_dir` (every .json/.json.gz in it, one per rank), or only `trace_files`
        ({rank: file}, relative to trace_dir unless absolute)."""
        if trace_files:
            paths = [f if os.path.isabs(f) or os.path.exists(f) else os.path.join(trace_dir, f)
                     for _, f in sorted(trace_files.items())]
        else:
            paths = [trace_dir]
        self._trace = _open(paths, threads=threads, progress=progress)
        self._include_last = bool(include_last_profiler_step)
        self._progress = progress
        self.t = _TraceFiles(self._trace)

    @property
    def trace(self):
        """The kinetoscope.Trace behind the analyzer (events, Kinetoscope's own analyses)."""
        return self._trace

    def _raw(self, name, **options):
        if self._include_last:
            options["include_last_profiler_step"] = True
        return self._trace.outputs([name], hta_compat=True, progress=self._progress, **options)[name]

    def _call(self, name, **options):
        return to_pandas(self._raw(name, **options))

    # Breakdowns.
    def get_temporal_breakdown(self, visualize=True):
        df = self._call("get_temporal_breakdown")
        _plot(df, "Temporal breakdown", visualize)
        return df

    def get_idle_time_breakdown(self, ranks=None, streams=None, visualize=True, visualize_pctg=True,
                                show_idle_interval_stats=False, consecutive_kernel_delay=30):
        result = self._call("get_idle_time_breakdown", ranks=_ranks(ranks), consecutive_kernel_delay=consecutive_kernel_delay,
                            show_idle_interval_stats=bool(show_idle_interval_stats))
        idle, stats = (result[0], result[1] if len(result) > 1 else None) if isinstance(result, tuple) else (result, None)
        if streams is not None:
            idle = idle[idle["stream"].isin(streams)]
            if stats is not None and "stream" in stats.columns:
                stats = stats[stats["stream"].isin(streams)]
        _plot(idle, "Idle time breakdown", visualize)
        return idle, (stats if show_idle_interval_stats else None)

    def get_gpu_kernel_breakdown(self, visualize=True, duration_ratio=0.8, num_kernels=10, include_memory_kernels=True,
                                 image_renderer=""):
        result = self._call("get_gpu_kernel_breakdown", kernels_duration_ratio=duration_ratio,
                            kernels_num_kernels=num_kernels, include_memory_kernels=include_memory_kernels)
        if isinstance(result, tuple) and result:
            _plot(result[0], "Kernel type breakdown", visualize)
        return result

    def get_gpu_kernels_with_user_annotations(self, rank, expand_names=True, shortern_names=True, shorten_names=None):
        if not expand_names or not (shortern_names if shorten_names is None else shorten_names):
            raise NotImplementedError("kinetoscope.hta: only expand_names=True with shortened names is reproduced")
        return self._call("get_gpu_kernels_with_user_annotations", ranks=[rank])

    def get_gpu_user_annotation_breakdown(self, use_gpu_annotation=True, visualize=True, duration_ratio=0.8,
                                          num_kernels=1000, allowlist_patterns=None, image_renderer=None):
        name = "get_gpu_user_annotation_breakdown" if use_gpu_annotation else "get_gpu_user_annotation_breakdown__cpu"
        df = self._call(name, annotations_duration_ratio=duration_ratio, annotations_num_kernels=num_kernels,
                            allowlist_patterns=list(allowlist_patterns or []))
        _plot(df, "User annotation breakdown", visualize)
        return df

    def get_comm_comp_overlap(self, visualize=True):
        df = self._call("get_comm_comp_overlap")
        _plot(df, "Communication-computation overlap", visualize)
        return df

    # Kernels.
    def get_frequent_cuda_kernel_sequences(self, operator_name, output_dir, min_pattern_len=3, rank=0, top_k=5,
                                           visualize=False, compress_other_kernels=True):
        return self._trace.kernel_sequences(operator_name, rank, min_pattern_len=min_pattern_len, top_k=top_k,
                                            output_dir=output_dir, compress_other_kernels=compress_other_kernels,
                                            hta_compat=True, progress=self._progress)

    def get_aten_op_kernels_and_delay(self, ranks=None, sort_by=None):
        return self._call("get_aten_op_kernels_and_delay", ranks=_ranks(ranks), sort_by=sort_by)

    def get_op_kernels_and_delay(self, op_name_pattern=None, ranks=None, sort_by=None):
        """HTA's later name of get_aten_op_kernels_and_delay; only its default pattern is reproduced."""
        if op_name_pattern not in (None, "::aten", "aten::"):
            raise NotImplementedError("kinetoscope.hta: only the default op_name_pattern (aten ops) is reproduced")
        return self.get_aten_op_kernels_and_delay(ranks, sort_by)

    def get_cuda_kernel_launch_stats(self, ranks=None, runtime_cutoff=50, launch_delay_cutoff=100,
                                     include_memory_events=True, visualize=True):
        return self._call("get_cuda_kernel_launch_stats", ranks=_ranks(ranks), runtime_cutoff=runtime_cutoff,
                          launch_delay_cutoff=launch_delay_cutoff, include_memory_events=include_memory_events)

    def get_cupti_counter_data_with_operators(self, ranks=None):
        return self._call("get_cupti_counter_data_with_operators", ranks=_ranks(ranks))

    # Counters.
    def generate_trace_with_counters(self, time_series=None, ranks=None, output_suffix="_with_counters"):
        """Writes each rank's trace with its counters appended next to it (gzip, as HTA). Both
        series are written whatever `time_series` asks (HTA's default)."""
        suffix = output_suffix or "_with_counters"
        for rank in _ranks(ranks):
            path = self.t.trace_files.get(rank)
            if path is None:
                raise _native.InvalidArgumentError(f"no rank {rank} in this trace")
            out = path.replace(".json", f"{suffix}.json")
            if not out.endswith(".gz"):
                out += ".gz"
            # HTA writes a file only for a rank with counter events (none on a CPU-only trace).
            if self._trace._session.counters_trace(rank, out, {"hta_compat": True}, None) == 0:
                os.remove(out)

    def get_queue_length_time_series(self, ranks=None):
        return self._call("get_queue_length_time_series", ranks=_ranks(ranks))

    def get_queue_length_summary(self, ranks=None):
        return self._call("get_queue_length_summary", ranks=_ranks(ranks))

    def get_queue_length_summary_from_time_series(self, queue_length_dict):
        return self._call("get_queue_length_summary_from_time_series", ranks=sorted(queue_length_dict))

    def get_time_spent_blocked_on_full_queue(self, queue_length_dict, max_queue_length=CUDA_MAX_LAUNCH_QUEUE_PER_STREAM):
        """From the same ranks' series, recomputed by the core (queue_length_dict's keys choose the ranks)."""
        return self._call("get_time_spent_blocked_on_full_queue", ranks=sorted(queue_length_dict),
                              max_queue_length=max_queue_length)

    def get_memory_bw_time_series(self, ranks=None):
        return self._call("get_memory_bw_time_series", ranks=_ranks(ranks))

    def get_memory_bw_summary(self, ranks=None):
        return self._call("get_memory_bw_summary", ranks=_ranks(ranks))

    # Steps and stragglers.
    def get_profiler_steps(self):
        return self._call("get_profiler_steps")

    def get_potential_stragglers(self, profiler_steps=None, num_candidates=2, visualize=False,
                                 straggler_identification_impl=None):
        if straggler_identification_impl is not None:
            raise NotImplementedError("kinetoscope.hta: straggler_identification_impl is not reproduced")
        return self._call("get_potential_stragglers", num_candidates=num_candidates,
                          iterations=None if profiler_steps is None else list(profiler_steps))

    # Critical path.
    def critical_path_analysis(self, rank, annotation, instance_id, data_load_events=None):
        """(CPGraph, success). HTA returns None where the annotation is not found; so does this."""
        if data_load_events:
            raise NotImplementedError("kinetoscope.hta: data_load_events is not reproduced")
        if instance_id is None:
            instance_id = 0
        try:
            path = self._trace.critical_path(rank, annotation, instance_id, hta_compat=True, progress=self._progress)
        except _native.NotApplicableError:
            return None
        graph = CPGraph(path)
        return graph, graph.success

    def overlay_critical_path_analysis(self, rank, critical_path_graph, output_dir, only_show_critical_events=True,
                                       show_all_edges=False):
        """Writes overlaid_critical_path_<file> into output_dir: every event kept, those on the path
        marked (HTA's only_show_critical_events=False); returns its path."""
        if show_all_edges:
            raise NotImplementedError("kinetoscope.hta: show_all_edges is not reproduced")
        source = self.t.trace_files[rank]
        os.makedirs(output_dir, exist_ok=True)
        out = os.path.join(output_dir, "overlaid_critical_path_" + os.path.basename(source))
        critical_path_graph.kinetoscope_path.write_trace(out)
        return out
