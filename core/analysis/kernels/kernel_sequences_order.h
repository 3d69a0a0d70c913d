#pragma once

// The order in which HTA's call stack walks the start and end points of a
// thread's operators (hta/common/trace_call_stack.py::_less_than, sort_events).

#include "core/common/result.h"

#include <cstdint>
#include <vector>

namespace ks::core::sequences {

constexpr int kOpenEnd = -1;
constexpr int kCloseEnd = 1;

struct EndPoint
{
    std::int64_t index = 0; // event index
    std::int64_t dur = 0;
    int kind = kOpenEnd;
    std::int64_t time = 0;
};

// HTA's order: by time; at equal time closes before opens, longer operators
// open first and close last, zero-length operators inside the others. Sorted
// the way HTA sorts (numpy quicksort by time, then CPython's list sort with
// HTA's comparator), so ties where the comparator is not transitive come out
// as in HTA. Fails as HTA does ("Unexpected case") when it compares a
// zero-length with a negative-length operator (ns-rounded traces, Q1).
Result<std::vector<EndPoint>> sortEndPointsLikeHta(std::vector<EndPoint> points);

// Kinetoscope's order: by time; at equal time closes (shorter first), then
// opens (longer first), then zero-length operators, each opening and closing
// at once so they nest inside whatever is open and never inside each other.
Result<std::vector<EndPoint>> sortEndPoints(std::vector<EndPoint> points);

} // namespace ks::core::sequences
