"""HTA's CPGraph, as far as notebooks use it, over one rank's critical path
(kinetoscope.CriticalPath): the path's edges and events, its breakdown and summary.

Nodes are named (event index, is_start) — the event's position in the trace file's
traceEvents and whether the node is its start — where HTA numbers them in its own
order; HTA's networkx graph itself is not reproduced (docs/guide/python.md)."""
import dataclasses
from enum import Enum

import pandas as pd


class CPEdgeType(Enum):
    """HTA's edge types, with HTA's values."""

    OPERATOR_KERNEL = "critical_path_operator"
    DEPENDENCY = "critical_path_dependency"
    KERNEL_LAUNCH_DELAY = "critical_path_kernel_launch"
    KERNEL_KERNEL_DELAY = "critical_path_kernel_kernel_delay"
    SYNC_DEPENDENCY = "critical_path_sync_dependency"


def _edge_type(text):
    try:
        return CPEdgeType(text)
    except ValueError:
        return text


@dataclasses.dataclass(frozen=True)
class CPEdge:
    """One edge: from node `begin` to node `end` ((event index, is_start) each), its weight (ns as HTA's µs
    integers are, see critical_path edges) and type; `attributed_event` the event its time is charged to."""

    begin: tuple
    end: tuple
    weight: int
    type: object
    attributed_event: object = None


def _frame_of(table):
    """A result table of the reference's encoding (records) as a DataFrame."""
    if not table:
        return pd.DataFrame()
    df = pd.DataFrame(table.get("records", []), columns=table.get("columns"))
    index = table.get("index_columns") or []
    if index:
        df = df.set_index(index if len(index) > 1 else index[0])
    return df


class CPGraph:
    """What critical_path_analysis returns first: see the module's text."""

    def __init__(self, path):
        self._path = path  # kinetoscope.CriticalPath
        result = path.result
        self.rank = path.rank
        self.success = bool(result.get("success"))
        self.critical_path_edges_list = [
            CPEdge((e["src_event"], bool(e["src_is_start"])), (e["dst_event"], bool(e["dst_is_start"])),
                   e["weight"], _edge_type(e["type"]), e.get("attributed_event"))
            for e in result.get("critical_path_edges") or []
        ]
        self.critical_path_edges_set = set(self.critical_path_edges_list)
        nodes = []
        for e in self.critical_path_edges_list:
            if not nodes:
                nodes.append(e.begin)
            nodes.append(e.end)
        self.critical_path_nodes = nodes
        self.critical_path_events_set = {n[0] for n in nodes}

    @property
    def kinetoscope_path(self):
        """The kinetoscope.CriticalPath behind it (tables, warnings, write_trace)."""
        return self._path

    def get_critical_path_breakdown(self):
        """One row per path edge: event_idx, duration, type, s_name, cat, pid, tid, stream, index, bound_by."""
        return _frame_of(self._path.result.get("breakdown"))

    def summary(self):
        """Percent of the path's time by bound_by (HTA's Series)."""
        table = self._path.result.get("summary_pct_by_bound_type") or {}
        records = table.get("records", [])
        return pd.Series({r["bound_by"]: r["duration"] for r in records}, name="duration", dtype="float64").rename_axis(
            "bound_by")

    def get_edges_attributed_to_event(self, ev_idx):
        """The path's edges whose time is charged to event `ev_idx`."""
        return [e for e in self.critical_path_edges_list if e.attributed_event == ev_idx]

    def get_nodes_for_event(self, ev_idx):
        """The event's start and end nodes."""
        return ((ev_idx, True), (ev_idx, False))

    def number_of_nodes(self):
        return self._path.result.get("n_nodes")

    def number_of_edges(self):
        return self._path.result.get("n_edges")

    def __repr__(self):
        return f"<kinetoscope.hta.CPGraph rank {self.rank}: {len(self.critical_path_edges_list)} path edges>"
