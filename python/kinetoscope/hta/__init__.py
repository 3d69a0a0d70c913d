"""HTA's API over Kinetoscope: change `from hta.trace_analysis import TraceAnalysis` to
`from kinetoscope.hta import TraceAnalysis` (or `kinetoscope.hta.trace_analysis`). The
methods have HTA 0.6.1's names, arguments, defaults and return types, and give
`kinetoscope-cli --hta-compat`'s numbers; what is not reproduced is listed in
docs/guide/python.md."""
from .critical_path import CPEdge, CPEdgeType, CPGraph
from .trace_analysis import TimeSeriesTypes, TraceAnalysis
from .trace_diff import DeviceType, LabeledTrace, TraceDiff

__all__ = ["TraceAnalysis", "TimeSeriesTypes", "TraceDiff", "LabeledTrace", "DeviceType", "CPGraph", "CPEdge",
           "CPEdgeType"]
