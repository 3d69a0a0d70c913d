#pragma once

// The core's result shapes (HtaResult, AnalysisOutput: what every CLI command
// prints, core/analysis/tables/) as plain Python values, once and generically,
// for kinetoscope/_frames.py to make DataFrames of. A table becomes
// {"kind": "dataframe", "name", "columns", "units", "index", "data"} where each
// column of `data` is a NumPy array (int64 when every cell is an integer,
// float64 when numbers with nulls as NaN, as pandas reads them) or a list
// (text, None for null).

#include "core/analysis/tables/hta_result.h"

#include <pybind11/pybind11.h>

namespace ks::python {

pybind11::dict tableToPython(const core::Table& table);
pybind11::dict resultToPython(const core::HtaResult& result);
// A result, or {"kind": "not_applicable", "why": ...} for one that does not apply.
pybind11::dict outputToPython(const core::AnalysisOutput& output);

} // namespace ks::python
