"""PyTorch memory snapshots: the pickle torch.cuda.memory._dump_snapshot() writes (the file
pytorch.org/memory_viz opens), read with Kinetoscope's restricted unpickler (nothing in it
runs), as `kinetoscope-cli memory --snapshot` reads it (docs/guide/memory.md#snapshots)."""
import os

import pandas as pd

from . import _native
from ._frames import frame

# The per-device fields of `memory --snapshot --format json`, in its order.
SNAPSHOT_FIELDS = ("device", "reserved_b", "allocated_b", "active_b", "requested_b", "segments", "blocks",
                   "peak_allocated_b", "peak_reserved_b", "oom_events")


def load_snapshot(path):
    """A Snapshot of the pickle at `path`; LoadError with the CLI's one line when it is not one."""
    return Snapshot(path)


def _totals(rows):
    return pd.DataFrame(list(rows), columns=list(SNAPSHOT_FIELDS))


class Snapshot:
    """One memory snapshot. `summary()`: per device (one row each) reserved_b, allocated_b,
    active_b, requested_b, segments, blocks, peak_allocated_b (the Active Memory Timeline's peak,
    in requested bytes, as memory_viz draws it), peak_reserved_b, oom_events; `by_frame()`: the
    live bytes by frame at the peak; `compare(other)`: two snapshots, the difference by frame."""

    def __init__(self, path):
        self.path = os.fspath(path)
        self._native = _native.load_snapshot(self.path)

    @property
    def devices(self):
        """The devices with memory, ascending (memory_viz's choices)."""
        return [d["device"] for d in self._native.devices()]

    @property
    def default_device(self):
        """The device memory_viz opens on (the one with the longest trace)."""
        return self._native.default_device

    def summary(self):
        """One row per device with the CLI JSON's fields (SNAPSHOT_FIELDS)."""
        return _totals(self._native.devices())

    def device(self, device):
        """One device's fields as a dict; InvalidArgumentError when it has no memory."""
        for d in self._native.devices():
            if d["device"] == device:
                return dict(d)
        raise _native.InvalidArgumentError(f"{self.path}: no memory on device {device}")

    def by_frame(self, device=None, *, when="peak", rule="user"):
        """Live bytes grouped by frame, largest first: when="peak" the allocations live at the
        timeline's peak (bytes_b requested), "end" the snapshot's blocks (also block_bytes_b);
        rule="user" the program's own line, "memoryviz" the first line memory_viz prints.
        device: default_device when None."""
        return frame(self._native.by_frame(device, when, rule))

    def compare(self, other):
        """This snapshot (before) beside `other` (after, a Snapshot or a path)."""
        if not isinstance(other, Snapshot):
            other = Snapshot(other)
        return SnapshotComparison(self, other, self._native.compare(other._native))

    def align(self, trace, *, rank=None, top=5):
        """This snapshot on the clock of `trace` (a Trace or a path: the Kineto trace of the same
        run): its external_annotations matched by name and occurrence with the trace's
        ProfilerStep#N and user_annotation ranges. A SnapshotAlignment: offset_us (snapshot time
        = trace time + offset_us), spread_us, matched, diagnostics, `matches` and `ranges` (per
        device and range the memory at its start, end and peak, the allocations inside it and
        their top frame) as DataFrames. NotApplicableError when it cannot align (no time_us, no
        annotations, nothing matched). rank: the index of the rank among the trace's loaded ones;
        None: the rank the snapshot fits (most annotations matched, then the smallest spread, as
        the app's Steps tab chooses it); the alignment's `rank` and `rank_told` say which and
        whether it stood out from the others."""
        if not hasattr(trace, "_session"):
            from .trace import open as open_trace
            trace = open_trace(trace)
        return SnapshotAlignment(self, self._native.align(trace._session, rank, top))

    def __repr__(self):
        return f"<kinetoscope.Snapshot {self.path}: devices {self.devices}>"


class SnapshotComparison:
    """`memory --snapshot A --compare B`: `before` and `after` (one row per device, as
    Snapshot.summary()), and `by_frame(when)`: per device and frame before_b, after_b, delta_b,
    count_before, count_after, largest change first (when="peak" at each one's peak, "end" at
    their ends)."""

    def __init__(self, before, after, native):
        self.before_snapshot = before
        self.after_snapshot = after
        self.before = _totals(native["before"])
        self.after = _totals(native["after"])
        self._frames = {"peak": native["peak_by_frame"], "end": native["end_by_frame"]}

    def by_frame(self, when="peak"):
        if when not in self._frames:
            raise _native.InvalidArgumentError(f'when takes peak or end, got "{when}"')
        return frame(self._frames[when])

    def __repr__(self):
        return f"<kinetoscope.SnapshotComparison {self.before_snapshot.path} -> {self.after_snapshot.path}>"


class SnapshotAlignment:
    """`memory --snapshot FILE --trace TRACE`: rank (the trace's rank it is aligned with),
    rank_told (False when every rank fit alike), offset_us, spread_us, matched,
    snapshot_annotations, diagnostics (a list of lines), and the DataFrames `matches` (name,
    device, occurrence, snapshot_start_us, trace_start_us, difference_us) and `ranges` (device,
    name, start_us, end_us on the trace's clock, requested_start_b, requested_end_b,
    requested_peak_b, requested_peak_time_us, allocated_start_b, allocated_end_b,
    allocated_peak_b, reserved_start_b, reserved_end_b, allocations, allocated_in_range_b,
    top_frame, top_frame_b)."""

    def __init__(self, snapshot, native):
        self.snapshot = snapshot
        self.rank = native["rank"]
        self.rank_told = native["rank_told"]
        self.offset_us = native["offset_us"]
        self.spread_us = native["spread_us"]
        self.matched = native["matched"]
        self.snapshot_annotations = native["snapshot_annotations"]
        self.diagnostics = list(native["diagnostics"])
        self.matches = frame(native["matches"])
        self.ranges = frame(native["ranges"])

    def __repr__(self):
        return (f"<kinetoscope.SnapshotAlignment {self.snapshot.path}: offset {self.offset_us} us, "
                f"{self.matched} matched>")
