#pragma once

#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/tables/table.h"
#include "core/common/result.h"

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ks::core {

// HTA's frame carries one column per parser argument (hta-semantics §1.2): the event's
// raw `args[key]` where the key is there, the argument's default otherwise. Kinetoscope
// keeps no args in its frame, so the calls that return slices of HTA's frame
// (gpuKernelsWithUserAnnotations, cuptiCounterData) read them back for their rows here.
namespace frame_args {

    struct ArgColumn
    {
        std::string_view column; // HTA's column name
        std::string_view key; // the raw args key
        Cell fallback; // HTA's default
    };

    // Whether HTA's frame of the trace has the parser-argument columns at all: only when some
    // traceEvents element has "args" (trace_parser.py _compress_df, `if "args" in columns`). A
    // trace without any has none of defaultArgColumns (nor stream, correlation, index_correlation),
    // and HTA fails to load it (analysis_catalog.cpp htaLoadFailure).
    bool hasArgColumns(const RankTrace& trace);

    // The default parser arguments after `stream` and `correlation`, in HTA's column order
    // (event_args_yaml_parser.py ARGS_DEFAULT, defaults of event_args_1.0.0.yaml).
    const std::vector<ArgColumn>& defaultArgColumns();

    // The top-level members of an args object: key and the raw JSON text of its value
    // (a later duplicate key replaces an earlier one, as Python's json does). Empty when
    // `args` is not an object.
    std::vector<std::pair<std::string, std::string_view>> members(std::string_view args);

    // A raw JSON value as HTA's frame holds it: text, integer (double beyond int64), real,
    // null, and lists, objects and booleans as JSON (they stay Python objects in HTA's frame).
    Cell valueCell(std::string_view json);

    // Per requested slice: the cells of `columns` (default when a key is absent or the
    // slice has no args), in the order of `columns`.
    Result<std::map<std::uint32_t, std::vector<Cell>>> argCells(
        const RankTrace& trace, std::vector<std::uint32_t> slices, const std::vector<ArgColumn>& columns);

} // namespace frame_args

} // namespace ks::core
