"""HTA 0.6.1's TraceDiff and LabeledTrace over Kinetoscope's trace diff (D1,
`kinetoscope-cli diff --hta-compat`)."""
import os
from enum import Enum

from .. import _native
from .._frames import to_pandas
from ..trace import open as _open


class DeviceType(Enum):
    CPU = 1
    GPU = 2
    ALL = 3


class LabeledTrace:
    """A trace folder with a label (the diff's column prefix), loaded as HTA's diff loads it."""

    def __init__(self, label=None, t=None, trace_dir=None):
        if t is not None:
            raise NotImplementedError("kinetoscope.hta: LabeledTrace(t=Trace) is not reproduced; give trace_dir")
        if trace_dir is None or not os.path.isdir(trace_dir):
            raise ValueError("either a trace object or a valid trace dir must be provided in LabeledTrace.__init__()")
        self.label = label if label else "t0"
        self.trace_dir = trace_dir
        self._trace = _open(trace_dir, progress=False)
        self._side = self._trace._diff_side(True, False)

    def ranks(self):
        return sorted(self._trace.ranks)

    def iterations(self):
        return sorted(self._side.iterations)


def _labeled(t, default_label):
    if isinstance(t, LabeledTrace):
        return t
    if isinstance(t, (str, os.PathLike)):
        return LabeledTrace(label=default_label, trace_dir=os.fspath(t))
    raise ValueError(f"Invalid argument type for ({t}).")


def _list(value):
    if value is None:
        return None
    if isinstance(value, int):
        return [value]
    if isinstance(value, list):
        return value
    raise ValueError(f"Invalid type for argument {value!r}.")


def _labels(control, test):
    test_label = test.label
    if control.label == test.label:
        test_label = f"{test.label}_control_test"
    return control.label, test_label


class TraceDiff:
    @classmethod
    def compare_traces(cls, control, test, control_rank=None, test_rank=None, control_iteration=None,
                       test_iteration=None, device_type=DeviceType.ALL, use_short_name=False):
        c, t = _labeled(control, "Control"), _labeled(test, "Test")
        control_label, test_label = _labels(c, t)
        return to_pandas(_native.compare_traces(c._side, t._side, True, device_type.name, bool(use_short_name),
                                                control_label, test_label, _list(control_rank),
                                                _list(control_iteration), _list(test_rank), _list(test_iteration)))

    @classmethod
    def ops_diff(cls, control, test, control_rank=None, test_rank=None, control_iteration=None, test_iteration=None,
                 device_type=DeviceType.ALL):
        if device_type != DeviceType.ALL:
            raise NotImplementedError("kinetoscope.hta: ops_diff with a device_type other than ALL is not reproduced")
        c, t = _labeled(control, "Control"), _labeled(test, "Test")
        control_label, test_label = _labels(c, t)
        result = to_pandas(_native.ops_diff(c._side, t._side, True, control_label, test_label, _list(control_rank),
                                            _list(control_iteration), _list(test_rank), _list(test_iteration)))
        if isinstance(result, dict):
            return {k: (v.iloc[:, 0].tolist() if hasattr(v, "iloc") else v) for k, v in result.items()}
        return result

    @classmethod
    def visualize_counts_diff(cls, df, show_image=True, export_image_path=None):
        cls._bars(df, "counts", show_image, export_image_path)

    @classmethod
    def visualize_duration_diff(cls, df, show_image=True, export_image_path=None):
        cls._bars(df, "duration", show_image, export_image_path)

    @staticmethod
    def _bars(df, what, show_image, export_image_path):
        """Draws the diff with plotly when it is installed; ignored otherwise."""
        try:
            import plotly.express as px
        except ImportError:
            return
        column = "diff_counts" if what == "counts" else "diff_duration"
        fig = px.bar(df.reset_index(), x=df.reset_index().columns[0], y=column, title=f"{what} difference")
        if export_image_path:
            fig.write_image(export_image_path)
        if show_image:
            fig.show()
