"""Job summaries (.kssum, docs/summary_schema.md): summarize() writes one from a job's
traces, open_summary() reads what job mode shows of it, without the traces."""
import os

import pandas as pd

from . import _native
from ._frames import frame, or_none
from ._progress import reporter
from .results import InsightsReport


def summarize(paths, out, *, hta_compat=False, bins=2048, jobs=0, progress=True):
    """`kinetoscope-cli summarize`: every rank summarised into `out` (SQLite), a rank at a
    time per job thread; returns a JobSummary over it. Files that fail are recorded (warnings)."""
    import warnings

    paths = [os.fspath(paths)] if isinstance(paths, (str, os.PathLike)) else [os.fspath(p) for p in paths]
    with reporter(progress, "summarising") as callback:
        report = _native.summarize(paths, os.fspath(out), bool(hta_compat), int(bins), int(jobs), callback)
    for line in report["failures"]:
        warnings.warn(line, stacklevel=2)
    return open_summary(out)


def open_summary(path):
    """Reads a job summary: its ranks, rank overview (X1), collectives (X2) and insights."""
    return JobSummary(os.fspath(path))


class JobSummary:
    def __init__(self, path):
        self.path = path
        native = _native.open_summary(path)
        self.ranks = pd.DataFrame(native["ranks"], columns=["rank", "file", "status", "error", "size_bytes", "events",
                                                            "start_ns", "end_ns"])
        self._overview = native["rank_overview"]
        self._collectives = native["collectives"]

    def rank_overview(self):
        """X1 per rank and iteration, as `overview` prints it from the summary."""
        return frame(self._overview)

    def collectives(self):
        """X2 from the summary's collectives table (None where it does not apply)."""
        return or_none(self._collectives)

    def insights(self, *, rules=(), ranks=()):
        """The rank rules' findings the summary stores (`insights JOB.kssum`)."""
        text = _native.summary_insights(self.path, [rules] if isinstance(rules, str) else list(rules), list(ranks))
        return InsightsReport.from_json(text)

    def __repr__(self):
        return f"<kinetoscope.JobSummary {self.path}: {len(self.ranks)} file(s)>"
