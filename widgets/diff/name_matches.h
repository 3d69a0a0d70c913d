#pragma once

#include "widgets/timeline/model/timeline_search.h"

#include <QString>

#include <memory>

namespace ks::widgets {

class TimelineData;

// D3: the slices of one diff table row on one trace, as search results the
// timeline highlights and steps through. With short names a row stands for
// every full name that shortens to it, so the query is an exact-match regex
// over those full names, run through the timeline's own search.
std::shared_ptr<const SearchResults> nameMatches(
    const TimelineData& data, const QString& rowName, bool shortNames, const Alignment& alignment);

} // namespace ks::widgets
