"""What the kinetoscope module's tests share: the shared traces and references
(KS_SHARED_DIR), the CLI (KS_CLI) for the tests that compare with it, one load per
folder, and the conversion of our results to the reference's encoding, so that the
conformance scripts' comparison (tests/conformance/) judges them."""
import functools
import math
import os
import sys

import pandas as pd
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "conformance"))

SHARED = os.environ.get("KS_SHARED_DIR", os.path.join(HERE, "..", "..", "..", "shared"))
TRACES = os.path.join(SHARED, "traces")
REFERENCE = os.path.join(SHARED, "reference")
CLI = os.environ.get("KS_CLI")


def need_shared():
    if not os.path.isdir(TRACES) or not os.path.isdir(REFERENCE):
        pytest.skip(f"{SHARED} (traces/, reference/) is absent")


def need_cli():
    if not CLI or not os.path.exists(CLI):
        pytest.skip("KS_CLI (kinetoscope-cli) is not set")
    return CLI


def trace_folder(name):
    need_shared()
    return os.path.join(TRACES, name)


@functools.lru_cache(maxsize=None)
def loaded(name):
    """One kinetoscope.Trace per shared folder, for the whole run."""
    import kinetoscope

    return kinetoscope.open(trace_folder(name), progress=False)


@functools.lru_cache(maxsize=None)
def analyzer(name):
    """One kinetoscope.hta.TraceAnalysis per shared folder."""
    from kinetoscope.hta import TraceAnalysis

    return TraceAnalysis(trace_dir=trace_folder(name), progress=False)


def _cell(v):
    if v is None:
        return None
    if isinstance(v, float):
        if math.isnan(v):
            return None
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return v
    if hasattr(v, "item"):
        return _cell(v.item())
    return v


def as_reference(value):
    """A result of ours in ../shared/reference's encoding (its README): what
    compare_hta.compare_results reads."""
    if value is None:
        return {"type": "none"}
    if isinstance(value, pd.DataFrame):
        index = [n for n in value.index.names if n is not None]
        flat = value.reset_index() if index else value
        records = [{c: _cell(v) for c, v in zip(flat.columns, row)} for row in flat.itertuples(index=False)]
        return {"type": "dataframe", "columns": list(flat.columns), "index_columns": index, "n_rows": len(flat),
                "records": records}
    if isinstance(value, tuple):
        return {"type": "tuple", "items": [as_reference(v) for v in value]}
    if isinstance(value, list):
        return {"type": "list", "items": [as_reference(v) for v in value]}
    if isinstance(value, dict):
        return {"type": "dict", "items": {str(k): as_reference(v) for k, v in value.items()}}
    return {"type": "scalar", "value": _cell(value)}
