#pragma once

#include "core/analysis/tables/table.h"

#include <string>
#include <utility>
#include <vector>

namespace ks::core {

// The shape of one HTA call's return value, as ../shared/reference encodes it:
// a data frame, a tuple or list of values, a dict keyed by rank, a scalar, or None.
struct HtaResult
{
    enum class Kind : std::uint8_t
    {
        DataFrame,
        Tuple,
        List,
        Dict,
        Scalar,
        None,
        RawJson
    };

    Kind kind = Kind::None;
    Table frame; // DataFrame
    std::vector<HtaResult> items; // Tuple, List
    std::vector<std::pair<std::string, HtaResult>> entries; // Dict
    Cell scalar; // Scalar
    std::string rawJson; // RawJson

    HtaResult();
    static HtaResult dataFrame(Table table);
    static HtaResult none();
};

// Defined once HtaResult is complete: with an implicit constructor, clang (with
// libstdc++ 12) instantiates pair<string, HtaResult> of `entries` while the
// struct is still incomplete and refuses it (a static_assert in <type_traits>),
// which also stopped clang-tidy on every file that includes this header.
inline HtaResult::HtaResult() = default;

inline HtaResult HtaResult::dataFrame(Table table)
{
    HtaResult r;
    r.kind = Kind::DataFrame;
    r.frame = std::move(table);
    return r;
}

inline HtaResult HtaResult::none()
{
    return {};
}

// One analysis call's outcome: a result, or why it does not apply.
struct AnalysisOutput
{
    bool ok = true;
    std::string error; // when !ok: a clear "not applicable" reason
    HtaResult result;

    static AnalysisOutput notApplicable(std::string why)
    {
        AnalysisOutput o;
        o.ok = false;
        o.error = std::move(why);
        return o;
    }

    static AnalysisOutput of(HtaResult r)
    {
        AnalysisOutput o;
        o.result = std::move(r);
        return o;
    }
};

} // namespace ks::core
