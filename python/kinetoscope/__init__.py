"""Kinetoscope in Python: PyTorch profiler (Kineto) traces loaded by Kinetoscope's core,
its analyses as pandas DataFrames, and HTA's API (kinetoscope.hta).

    import kinetoscope
    trace = kinetoscope.open("traces/")          # a file, or a folder with one file per rank
    trace.temporal_breakdown(hta_compat=True)    # HTA's numbers; hta_compat=False: Kinetoscope's

The analyses are the CLI's (the same core session computes them, each once per load);
errors are TraceError subclasses with the CLI's one-line message; long work releases the
GIL, shows progress (tqdm when installed) and stops on Ctrl+C. See docs/guide/python.md.
"""
from ._native import InvalidArgumentError, LoadError, NotApplicableError, TraceError, TraceMemoryError
from .results import CriticalPath, Finding, InsightsReport, JobPath, Roofline
from .snapshot import Snapshot, SnapshotAlignment, SnapshotComparison, load_snapshot
from .summary import JobSummary, open_summary, summarize
from .trace import OUTPUT_NAMES, Trace, open

__version__ = "0.1.0"

__all__ = [
    "open", "open_summary", "summarize", "Trace", "JobSummary", "CriticalPath", "JobPath", "Roofline", "Finding",
    "InsightsReport", "OUTPUT_NAMES", "TraceError", "LoadError", "NotApplicableError", "InvalidArgumentError",
    "TraceMemoryError", "Snapshot", "SnapshotAlignment", "SnapshotComparison", "load_snapshot",
]
