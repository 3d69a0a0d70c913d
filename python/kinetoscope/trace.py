"""kinetoscope.open: a loaded trace (a file, or a folder with one file per rank), its
events as DataFrames over the columnar store and every analysis the CLI has, each
computed once per load by the core's session (the CLI's path to the same numbers)."""
import json
import os
import warnings

import numpy as np
import pandas as pd

from . import _native
from ._frames import frame, or_none, to_pandas
from ._progress import reporter
from .results import CriticalPath, InsightsReport, JobPath, Roofline

# The names of the outputs `Trace.output` takes (the reference's file stems).
OUTPUT_NAMES = tuple(_native.output_names())


def _paths(path):
    if isinstance(path, (str, os.PathLike)):
        return [os.fspath(path)]
    return [os.fspath(p) for p in path]


def open(path, ranks=None, *, threads=0, progress=True):  # noqa: A001 (kinetoscope.open, like io.open)
    """Loads trace files and folders (each folder: its .json/.json.gz files, one per rank).

    ranks: the ranks every analysis of the Trace covers (default: all). threads: 0 for
    every core. progress: True for a tqdm bar when tqdm is installed, a callable(stage,
    done, total), or False. A file that fails beside others that load is a warning;
    nothing loaded raises LoadError with the CLI's line. Ctrl+C stops the load.
    """
    with reporter(progress, "loading") as callback:
        session, problems = _native.open(_paths(path), threads, callback)
    for line in problems:
        warnings.warn(line, stacklevel=2)
    return Trace(session, ranks=ranks)


class Trace:
    """One load: ranks, iterations, devices, diagnostics, events, and the analyses."""

    def __init__(self, session, ranks=None):
        self._session = session
        self._ranks = None if ranks is None else [int(r) for r in ([ranks] if isinstance(ranks, int) else ranks)]
        self._info = [session.rank_info(i) for i in range(session.rank_count)]
        self._columns = {}
        if self._ranks is not None:
            missing = sorted(set(self._ranks) - {i["rank"] for i in self._info})
            if missing:
                raise _native.InvalidArgumentError(f"no rank {missing[0]} in {', '.join(session.inputs())}")

    def __repr__(self):
        return f"<kinetoscope.Trace {len(self._info)} rank(s): {', '.join(self.paths[:3])}{' ...' if len(self._info) > 3 else ''}>"

    # What was loaded.
    @property
    def ranks(self):
        """The ranks loaded (the ones analysed when open() was given ranks=)."""
        loaded = [i["rank"] for i in self._info]
        return loaded if self._ranks is None else [r for r in loaded if r in self._ranks]

    @property
    def paths(self):
        return [i["path"] for i in self._info]

    @property
    def start_ns(self):
        """The earliest timestamp of the load (ns on the trace's clock, as the `ts` columns)."""
        return self._session.start_ns()

    @property
    def end_ns(self):
        return self._session.end_ns()

    def rank_table(self):
        """One row per rank: its file, events, bytes and where its rank number came from."""
        rows = [{k: v for k, v in i.items() if k != "devices"} for i in self._info]
        return pd.DataFrame(rows).set_index("rank")

    @property
    def devices(self):
        """The GPUs the traces' deviceProperties describe, per rank."""
        rows = [dict(rank=i["rank"], **d) for i in self._info for d in i["devices"]]
        columns = ["rank", "id", "name", "total_global_mem", "compute_major", "compute_minor", "num_sms", "gcn_arch_name"]
        return pd.DataFrame(rows, columns=columns)

    @property
    def diagnostics(self):
        """What the reader met (check's and the Diagnostics panel's list): kind, count, first example."""
        rows = list(self._session.folder_diagnostics())
        for i in range(self._session.rank_count):
            rows += self._session.rank_diagnostics(i)
        columns = ["rank", "kind", "count", "example", "event_index", "note", "description"]
        return pd.DataFrame(rows, columns=columns)

    @property
    def notes(self):
        return list(self._session.notes())

    @property
    def iterations(self):
        """The ProfilerStep numbers present (HTA's loading drops the last; hta_compat=True shows that)."""
        return self.frames_info()["iterations"]

    def frames_info(self, *, hta_compat=False, progress=True):
        """The analysed frames: ranks, iterations, device type and HTA's min_ts (ns)."""
        with reporter(progress, "frames") as callback:
            return self._session.frames_info(self._options(hta_compat=hta_compat), callback)

    # Events.
    def _rank_index(self, rank):
        if rank is None:
            if not self._info:
                raise _native.InvalidArgumentError("no rank loaded")
            return 0 if self._ranks is None else next(i for i, r in enumerate(self._info) if r["rank"] in self._ranks)
        for i, info in enumerate(self._info):
            if info["rank"] == rank:
                return i
        raise _native.InvalidArgumentError(f"no rank {rank} in this trace (ranks {[i['rank'] for i in self._info]})")

    def _columns_of(self, index):
        if index not in self._columns:
            self._columns[index] = self._session.slice_columns(index)
        return self._columns[index]

    def _track_and_level(self, index):
        """Each slice's track and nesting level (4 bytes each a slice, made once per rank):
        a track's slices are stored level after level, so the levels' ranges cover the
        slices in order."""
        c = self._columns_of(index)
        if "track_of" not in c:
            lv = c["levels"]
            order = np.argsort(lv["begin"], kind="stable")
            counts = (lv["end"] - lv["begin"]).astype(np.int64)[order]
            n = len(c["ts"])
            if counts.sum() != n:
                raise _native.TraceError(f"rank {self._info[index]['rank']}: the store's levels do not cover its slices")
            c["track_of"] = np.repeat(lv["track"][order], counts)
            c["level_of"] = np.repeat(lv["level"][order], counts)
        return c["track_of"], c["level_of"]

    def tracks(self, rank=None):
        """The rank's tracks (GPU streams first, then CPU threads) with the slices each holds."""
        c = self._columns_of(self._rank_index(rank))
        t = c["tracks"]
        return pd.DataFrame({"is_gpu": t["is_gpu"], "pid": t["pid"], "tid": t["tid"], "device": t["device"],
                             "stream": t["stream"], "name": t["name"], "process_name": t["process_name"],
                             "slice_begin": t["slice_begin"], "slice_end": t["slice_end"]})

    def _selected_tracks(self, c, kind, stream, thread):
        t = c["tracks"]
        keep = np.ones(len(t["pid"]), dtype=bool)
        if kind is not None:
            if kind not in ("gpu", "cpu"):
                raise _native.InvalidArgumentError(f"kind takes 'gpu' or 'cpu', got {kind!r}")
            keep &= t["is_gpu"] if kind == "gpu" else ~t["is_gpu"]
        if stream is not None:
            keep &= np.isin(t["stream"], np.atleast_1d(stream)) & t["is_gpu"]
        if thread is not None:
            keep &= np.isin(t["tid"], np.atleast_1d(thread)) & ~t["is_gpu"]
        return np.flatnonzero(keep)

    def event_arrays(self, rank=None, *, kind=None, start=None, end=None, stream=None, thread=None):
        """A rank's slices as a dict of NumPy arrays: ts, dur (ns), name and category codes
        (into "names" and "categories"), flags, event_index (position in traceEvents),
        track, level. Views over the store (no copy, read-only) where the selection is one
        run of tracks and no time range is given: every slice, kind="gpu" or "cpu", one stream
        or thread; copies otherwise."""
        index = self._rank_index(rank)
        c = self._columns_of(index)
        tracks = self._selected_tracks(c, kind, stream, thread)
        t = c["tracks"]
        begins, ends = t["slice_begin"][tracks], t["slice_end"][tracks]
        track, level = self._track_and_level(index)
        if len(tracks) == len(t["pid"]):
            select = slice(0, len(c["ts"]))
        elif len(tracks) > 0 and np.all(begins[1:] == ends[:-1]):
            select = slice(int(begins[0]), int(ends[-1]))
        else:
            select = np.concatenate([np.arange(b, e) for b, e in zip(begins, ends)]) if len(tracks) else np.zeros(0, np.int64)
        out = {name: c[name][select] for name in ("ts", "dur", "name", "category", "flags", "event_index")}
        out["track"] = track[select]
        out["level"] = level[select]
        if start is not None or end is not None:
            ts = out["ts"]
            mask = np.ones(len(ts), dtype=bool)
            if start is not None:
                mask &= ts >= start
            if end is not None:
                mask &= ts < end
            out = {k: v[mask] for k, v in out.items()}
            if isinstance(select, slice):
                select = np.arange(select.start, select.stop)[mask]
            else:
                select = select[mask]
        out["slice"] = np.arange(select.start, select.stop, dtype=np.uint32) if isinstance(select, slice) else select.astype(np.uint32)
        out["names"] = c["names"]
        out["categories"] = c["categories"]
        return out

    def events(self, rank=None, *, kind=None, start=None, end=None, stream=None, thread=None, track_columns=False,
               typed_args=False):
        """A rank's slices as a DataFrame (see event_arrays): name and category as
        pandas.Categorical, the rest NumPy columns over the store where they can be;
        track_columns=True adds the track's is_gpu, pid, tid and stream beside each slice
        (copies; tracks() has them once per track); typed_args=True adds correlation and
        the stream arg from the typed args (a copy).
        start/end: ns on the trace's clock (Trace.start_ns), events starting in [start, end)."""
        index = self._rank_index(rank)
        a = self.event_arrays(rank, kind=kind, start=start, end=end, stream=stream, thread=thread)
        columns = {
            "ts": a["ts"],
            "dur": a["dur"],
            "name": pd.Categorical.from_codes(a["name"].astype(np.int32), categories=_unique(a["names"])),
            "category": pd.Categorical.from_codes(a["category"].astype(np.int16), categories=_unique(a["categories"])),
            "track": a["track"],
            "level": a["level"],
            "flags": a["flags"],
            "event_index": a["event_index"],
        }
        if track_columns:
            t = self._columns_of(index)["tracks"]
            columns.update(is_gpu=t["is_gpu"][a["track"]], pid=t["pid"][a["track"]], tid=t["tid"][a["track"]],
                           stream=t["stream"][a["track"]])
        if typed_args:
            activity = self._session.slice_activity(index, 0, 2**32 - 1)
            columns["correlation"] = activity["correlation"][a["slice"]]
            columns["stream_arg"] = activity["stream"][a["slice"]]
        df = pd.DataFrame(columns, copy=False)
        df.index = pd.Index(a["slice"], name="slice")
        return df

    def args(self, slice, rank=None):
        """The args of one slice (the `slice` index of events()), re-read from its file."""
        text = self._session.slice_args(self._rank_index(rank), int(slice))
        return json.loads(text) if text else {}

    def many_args(self, slices, rank=None):
        """The args of many slices, {slice: dict}, reading each stretch of the file once."""
        found = self._session.many_slice_args(self._rank_index(rank), [int(s) for s in slices])
        return {s: json.loads(text) for s, text in found}

    def counters(self, rank=None):
        """The rank's counter events (ph C): one row per point."""
        c = self._session.counter_columns(self._rank_index(rank))
        parts = [pd.DataFrame({"pid": s["pid"], "name": s["name"], "key": s["key"], "ts": s["ts"], "value": s["value"]})
                 for s in c["counters"]]
        return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=["pid", "name", "key", "ts", "value"])

    # The analyses.
    def _options(self, hta_compat=False, ranks=None, iterations=None, **calls):
        options = {"hta_compat": bool(hta_compat)}
        chosen = self._ranks if ranks is None else ([ranks] if isinstance(ranks, int) else list(ranks))
        if chosen is not None:
            options["ranks"] = chosen
        if iterations is not None:
            options["iterations"] = [iterations] if isinstance(iterations, int) else list(iterations)
        options.update({k: v for k, v in calls.items() if v is not None})
        return options

    def outputs(self, names, *, progress=True, **options):
        """Several outputs by name (OUTPUT_NAMES), computed side by side: {name: result}."""
        with reporter(progress, "analysing") as callback:
            native = self._session.outputs(list(names), self._options(**options), callback)
        return native

    def output(self, name, *, progress=True, **options):
        """One output by name (OUTPUT_NAMES: HTA's call file stems and rank_overview,
        kernels_by_annotation, operator_stats) with the CLI's options as keyword arguments:
        hta_compat, ranks, iterations and the calls' own (see docs/guide/python.md)."""
        return to_pandas(self.outputs([name], progress=progress, **options)[name])

    def temporal_breakdown(self, **options):
        return self.output("get_temporal_breakdown", **options)

    def idle_time_breakdown(self, *, consecutive_kernel_delay=None, show_idle_interval_stats=None, **options):
        return self.output("get_idle_time_breakdown", consecutive_kernel_delay=consecutive_kernel_delay,
                           show_idle_interval_stats=show_idle_interval_stats, **options)

    def kernel_breakdown(self, *, duration_ratio=None, num_kernels=None, include_memory_kernels=None, **options):
        return self.output("get_gpu_kernel_breakdown", kernels_duration_ratio=duration_ratio,
                           kernels_num_kernels=num_kernels, include_memory_kernels=include_memory_kernels, **options)

    def comm_comp_overlap(self, **options):
        return self.output("get_comm_comp_overlap", **options)

    def memory_bw_time_series(self, **options):
        return self.output("get_memory_bw_time_series", **options)

    def memory_bw_summary(self, **options):
        return self.output("get_memory_bw_summary", **options)

    def queue_length_time_series(self, **options):
        return self.output("get_queue_length_time_series", **options)

    def queue_length_summary(self, **options):
        return self.output("get_queue_length_summary", **options)

    def kernel_launch_stats(self, *, runtime_cutoff=None, launch_delay_cutoff=None, include_memory_events=None, **options):
        return self.output("get_cuda_kernel_launch_stats", runtime_cutoff=runtime_cutoff,
                           launch_delay_cutoff=launch_delay_cutoff, include_memory_events=include_memory_events, **options)

    def profiler_steps(self, **options):
        return self.output("get_profiler_steps", **options)

    def user_annotation_breakdown(self, *, use_gpu_annotation=True, duration_ratio=None, num_kernels=None,
                                  allowlist_patterns=None, **options):
        name = "get_gpu_user_annotation_breakdown" if use_gpu_annotation else "get_gpu_user_annotation_breakdown__cpu"
        return self.output(name, annotations_duration_ratio=duration_ratio, annotations_num_kernels=num_kernels,
                           allowlist_patterns=allowlist_patterns, **options)

    def time_blocked_on_full_queue(self, *, max_queue_length=None, **options):
        return self.output("get_time_spent_blocked_on_full_queue", max_queue_length=max_queue_length, **options)

    def potential_stragglers(self, *, num_candidates=None, **options):
        return self.output("get_potential_stragglers", num_candidates=num_candidates, **options)

    def aten_op_kernels_and_delay(self, *, sort_by=None, **options):
        return self.output("get_aten_op_kernels_and_delay", sort_by=sort_by, **options)

    def cupti_counters(self, **options):
        return self.output("get_cupti_counter_data_with_operators", **options)

    def kernels_with_user_annotations(self, **options):
        return self.output("get_gpu_kernels_with_user_annotations", **options)

    def rank_overview(self, **options):
        """X1: per rank and iteration, the busy, idle and communication times (the Overview's heat map)."""
        return self.output("rank_overview", **options)

    def kernels_by_annotation(self, **options):
        return self.output("kernels_by_annotation", **options)

    MEMORY_TABLES = ("devices", "stats", "events", "steps", "out_of_memory", "hta_classified", "hta_categories",
                     "hta_stack_names")

    def memory(self, *, tb_compat=False, ranks=None, iterations=None, progress=True):
        """The memory analysis of the [memory] events, the CLI's `memory` (docs/guide/memory.md):
        a dict of DataFrames, `devices` (peak allocated and reserved per device, when, the op),
        `stats` (the TensorBoard plugin's Memory Statistics), `events` (allocations with their
        lifetimes), `steps` (growth per ProfilerStep), `out_of_memory`, and HTA #223's
        `hta_classified` events, `hta_categories` timelines and `hta_stack_names`. tb_compat=True gives
        the plugin's own numbers where it is wrong and HTA #223's tables timed from HTA's base (the
        earliest event of all loaded ranks; by default each rank's own start); iterations keeps
        those ProfilerSteps (HTA #223's rows too)."""
        frames = self.output("memory", hta_compat=tb_compat, ranks=ranks, iterations=iterations,
                             progress=progress)
        return dict(zip(self.MEMORY_TABLES, frames))

    def critical_path(self, rank=None, annotation="", instance=0, *, hta_compat=False, progress=True):
        """A8: one rank's critical path over an annotation's instance (an int, or (first, last)
        inclusive); annotation "" covers the whole trace. As `kinetoscope-cli critical-path`."""
        first, last = (instance, instance) if isinstance(instance, int) else tuple(instance)
        with reporter(progress, "critical path") as callback:
            native = self._session.critical_path(rank, annotation, int(first), int(last),
                                                 self._options(hta_compat=hta_compat), callback)
        return CriticalPath(native)

    def kernel_sequences(self, operator_name, rank=None, *, regex=False, min_pattern_len=3, top_k=5,
                         output_dir=None, compress_other_kernels=True, hta_compat=False, progress=True):
        """A7: the frequent kernel sequences `operator_name` launches on one rank; with
        output_dir the rank's trace with the top_k patterns marked is written there."""
        with reporter(progress, "kernel sequences") as callback:
            native, _written = self._session.kernel_sequences(
                rank, operator_name, self._options(hta_compat=hta_compat), regex, int(min_pattern_len), int(top_k),
                None if output_dir is None else os.fspath(output_dir), compress_other_kernels, callback)
        return to_pandas(native)

    def operators(self, by="name", *, ranks=None, window=None, progress=True):
        """PyTorch's key_averages over the traces (`kinetoscope-cli ops`): by name, shapes,
        node, rank or iteration; window=(from_us, to_us) from the load's start."""
        chosen = self._ranks if ranks is None else ([ranks] if isinstance(ranks, int) else list(ranks))
        with reporter(progress, "operators") as callback:
            return frame(self._session.operators(by, chosen or [], window, callback))

    key_averages = operators

    def collectives(self, *, top=20, estimated_clocks=False, progress=True):
        """X2: the collectives matched across ranks, by skew (`kinetoscope-cli collectives`)."""
        with reporter(progress, "collectives") as callback:
            native = self._session.collectives(int(top), bool(estimated_clocks), callback)
        return to_pandas(native)

    def job_critical_path(self, iteration=None, *, what_if=(), progress=True):
        """X3: the job's critical path across ranks (`critical-path --all-ranks`): a JobPath
        with its tables, stragglers and, given what_if rules ("REGEX=F"), the path re-timed."""
        rules = [what_if] if isinstance(what_if, str) else list(what_if)
        with reporter(progress, "job critical path") as callback:
            return JobPath(self._session.job_path(iteration, rules, callback))

    def stragglers(self, iteration=None, *, progress=True):
        """The ranks the job's path waits for, per iteration (`kinetoscope-cli stragglers`)."""
        return self.job_critical_path(iteration, progress=progress).stragglers

    def roofline(self, *, by="shape", families=(), ranks=None, iterations=None, device=None, progress=True):
        """Efficiency (`kinetoscope-cli roofline`): FLOPs and bytes of modelled ops, against the device."""
        chosen = self._ranks if ranks is None else ([ranks] if isinstance(ranks, int) else list(ranks))
        its = [] if iterations is None else ([iterations] if isinstance(iterations, int) else list(iterations))
        with reporter(progress, "roofline") as callback:
            return Roofline(self._session.roofline(by, list(families), chosen or [], its, device, callback))

    def insights(self, *, rules=(), device=None, ranks=None, iterations=None, progress=True):
        """The insights (`kinetoscope-cli insights`): findings ranked by the step time fixing each gives back."""
        with reporter(progress, "insights") as callback:
            text = self._session.insights(self._options(ranks=ranks, iterations=iterations),
                                          [rules] if isinstance(rules, str) else list(rules), device, callback)
        return InsightsReport.from_json(text)

    def compare(self, test, *, hta_compat=False, device_type="ALL", use_short_name=False, control_rank=None,
                test_rank=None, control_iteration=None, test_iteration=None, progress=True):
        """D1: this trace (control) against `test` (`kinetoscope-cli diff`): HTA's compare_traces."""
        control_side = self._diff_side(hta_compat, progress)
        test_side = test._diff_side(hta_compat, progress)
        return to_pandas(_native.compare_traces(control_side, test_side, hta_compat, device_type, use_short_name,
                                                "Control", "Test", _list(control_rank), _list(control_iteration),
                                                _list(test_rank), _list(test_iteration)))

    def _diff_side(self, hta_compat, progress=True):
        with reporter(progress, "diff") as callback:
            return self._session.diff_side(bool(hta_compat), callback)


def _list(value):
    if value is None:
        return None
    return [value] if isinstance(value, int) else list(value)


def _unique(names):
    """Categories must be unique; the string pool's are, a category list may repeat one."""
    if len(set(names)) == len(names):
        return names
    seen, out = {}, []
    for n in names:
        out.append(n if n not in seen else f"{n} ({len(seen)})")
        seen[n] = True
    return out


__all__ = ["open", "Trace", "OUTPUT_NAMES", "or_none"]
