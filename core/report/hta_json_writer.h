#pragma once

#include "core/analysis/tables/hta_result.h"

#include <string>

namespace ks::core {

// Writes a call's outcome in the encoding of ../shared/reference:
// {"call", "args", "ok", "error"?, "result": {...}}. NaN is null, +-inf are "inf"/"-inf".
std::string htaCallJson(const std::string& call, const std::string& argsJson, const AnalysisOutput& output);

std::string htaResultJson(const HtaResult& result);

// JSON number text for a double as Python's json writes it (repr).
std::string pythonFloatText(double value);

// A table cell as JSON: null, an integer, pythonFloatText, or a string.
void appendCellJson(std::string& out, const Cell& cell);

} // namespace ks::core
