"""The core's result shapes as pandas objects, once and generically.

The native module hands every result over in one form (python/src/table_to_python.h):
a table is {"kind": "dataframe", "columns", "index", "data"}, the others tuples, lists,
dicts (keyed by rank where HTA keys them by rank), scalars or None. Every analysis of
the package goes through ``to_pandas``.
"""
import json

import pandas as pd

from . import _native


def frame(table):
    """A native table as a DataFrame: its columns in order, its index columns as the index."""
    columns = list(table["columns"])
    data = {i: column for i, column in enumerate(table["data"])}
    df = pd.DataFrame(data, columns=list(range(len(columns))))
    df.columns = columns
    index = list(table["index"])
    if index:
        df = df.set_index(index if len(index) > 1 else index[0])
    return df


def _key(text):
    """Dict keys: ranks (the reference's "0", "1") as ints, other names as they are."""
    stripped = text[1:] if text.startswith("-") else text
    return int(text) if stripped.isdigit() else text


def to_pandas(result):
    """A native result as HTA returns the same call's: DataFrame, tuple, list, dict, value or None.
    Raises NotApplicableError with the CLI's reason where the analysis has no result."""
    kind = result["kind"]
    if kind == "dataframe":
        return frame(result)
    if kind == "tuple":
        return tuple(to_pandas(item) for item in result["items"])
    if kind == "list":
        return [to_pandas(item) for item in result["items"]]
    if kind == "dict":
        return {_key(key): to_pandas(item) for key, item in result["items"]}
    if kind == "scalar":
        return result["value"]
    if kind == "json":
        return json.loads(result["text"])
    if kind == "not_applicable":
        raise _native.NotApplicableError(result["why"])
    return None


def or_none(result):
    """to_pandas, None where the analysis does not apply (HTA's Optional returns)."""
    if result["kind"] == "not_applicable":
        return None
    return to_pandas(result)
