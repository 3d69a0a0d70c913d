"""Typed results of the analyses that answer with more than one table: one rank's
critical path, the job's, the roofline and the insights."""
import dataclasses
import json
from typing import Any, Dict, List

import pandas as pd

from ._frames import frame, or_none, to_pandas


class CriticalPath:
    """One rank's critical path (A8; `kinetoscope-cli critical-path`).

    success, rank, warnings, problems; `tables` (summary, edge_types,
    summary_pct_by_bound_type, critical_path_edges, sync_dependency_edges, breakdown:
    DataFrames), `edges` (the path's edges in order), `result` (the dict HTA's reference
    files hold) and write_trace(path) (HTA's overlay)."""

    def __init__(self, native):
        self._native = native
        self._result = None
        self._tables = None

    success = property(lambda self: self._native.success)
    rank = property(lambda self: self._native.rank)
    warnings = property(lambda self: list(self._native.warnings))
    problems = property(lambda self: list(self._native.problems))

    @property
    def result(self):
        if self._result is None:
            self._result = json.loads(self._native.result_json())
        return self._result

    @property
    def tables(self):
        if self._tables is None:
            self._tables = to_pandas(self._native.tables())
        return self._tables

    @property
    def edges(self):
        """The path's edges in path order (src/dst event index into traceEvents, ts, name, type, weight)."""
        return pd.DataFrame(self.result.get("critical_path_edges") or [])

    @property
    def total_weight(self):
        return self.result.get("critical_path_total_weight")

    def write_trace(self, path):
        """Writes the rank's trace with the path overlaid as HTA draws it; (events, marked, path edges)."""
        return self._native.write_trace(str(path))

    def __repr__(self):
        return f"<kinetoscope.CriticalPath rank {self.rank} success={self.success} weight={self.total_weight}>"


class JobPath:
    """The job's critical path across ranks (X3): `tables` (a dict of DataFrames as
    `critical-path --all-ranks` prints them), `stragglers`, `notes`, and with what-if
    rules `what_if` (the tables of the path before and after)."""

    def __init__(self, native):
        self.tables = to_pandas(native["tables"])
        self.stragglers = or_none(native["stragglers"])
        self.notes = list(native["notes"])
        self.what_if = to_pandas(native["what_if"]) if "what_if" in native else None
        self.what_if_notes = list(native.get("what_if_notes", []))

    def __repr__(self):
        return f"<kinetoscope.JobPath tables {sorted(self.tables) if isinstance(self.tables, dict) else '?'}>"


class Roofline:
    """Efficiency (`kinetoscope-cli roofline`): `table` (one row per op shape or name),
    `mfu` (model FLOPs, step time, peak, MFU), the device note, notes and skipped lines."""

    def __init__(self, native):
        self.table = frame(native["table"])
        self.shapes_recorded = native["shapes_recorded"]
        self.device_note = native["device_note"]
        self.notes = list(native["notes"])
        self.skipped = list(native["skipped"])
        self.mfu = dict(native["mfu"])

    def __repr__(self):
        return f"<kinetoscope.Roofline {len(self.table)} rows; {self.device_note}>"


@dataclasses.dataclass
class Finding:
    """One insight: its rule, title, the share of step time fixing it gives back
    (gain_pct), severity, ranks and iterations, evidence, suggestion, where (per rank:
    events and time ranges), how the gain was estimated, the what-if rules that test it."""

    rule: str
    title: str
    gain_pct: float
    severity: str
    ranks: List[int]
    iterations: List[int]
    evidence: List[str]
    suggestion: str
    where: List[Dict[str, Any]]
    gain_basis: str = ""
    what_if: List[str] = dataclasses.field(default_factory=list)
    extra: Dict[str, Any] = dataclasses.field(default_factory=dict)  # fields added after this module

    @classmethod
    def from_dict(cls, d):
        names = {f.name for f in dataclasses.fields(cls)} - {"extra"}
        known = {k: v for k, v in d.items() if k in names}
        for f in dataclasses.fields(cls):
            if f.name not in known and f.name != "extra" and f.default is dataclasses.MISSING \
                    and f.default_factory is dataclasses.MISSING:
                known[f.name] = None
        return cls(**known, extra={k: v for k, v in d.items() if k not in names})


class InsightsReport:
    """The findings, largest gain first; `frame()` as a DataFrame."""

    def __init__(self, findings):
        self.findings = findings

    @classmethod
    def from_json(cls, text):
        return cls([Finding.from_dict(d) for d in json.loads(text)])

    def __iter__(self):
        return iter(self.findings)

    def __len__(self):
        return len(self.findings)

    def __getitem__(self, i):
        return self.findings[i]

    def frame(self):
        rows = [{"rule": f.rule, "gain_pct": f.gain_pct, "severity": f.severity, "ranks": f.ranks, "title": f.title,
                 "suggestion": f.suggestion} for f in self.findings]
        return pd.DataFrame(rows, columns=["rule", "gain_pct", "severity", "ranks", "title", "suggestion"])

    def __repr__(self):
        return f"<kinetoscope.InsightsReport {len(self.findings)} finding(s)>"
