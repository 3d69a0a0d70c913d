#pragma once

#include "widgets/timeline/model/timeline_types.h"

#include <QString>

#include <memory>
#include <vector>

namespace ks::widgets {

class TimelineData;

// The matches of one rank: which names match, and the matching slices.
struct RankMatches
{
    std::vector<char> byName; // by NameId value
    std::vector<std::uint32_t> slices; // matching slice indices, ascending

    bool matches(std::uint32_t slice) const;
    // Matching slices among [a, b): O(log m) because slice indices are sorted.
    std::size_t countIn(std::uint32_t a, std::uint32_t b) const;
};

struct SearchQuery
{
    QString text;
    bool regex = false;
    bool caseSensitive = false;

    bool isEmpty() const { return text.isEmpty(); }
};

// T6: every slice whose name matches, per rank and in time order over all ranks.
// Names are matched once each (a rank has far fewer names than slices).
class SearchResults
{
public:
    SearchQuery query;
    QString error; // invalid regular expression
    std::vector<RankMatches> ranks;
    std::vector<SliceRef> ordered; // by display start, then rank
    Alignment alignment = Alignment::AsRecorded;
    std::uint64_t generation = 0;

    std::size_t size() const { return ordered.size(); }

    const RankMatches* rank(int r) const
    {
        return r >= 0 && static_cast<std::size_t>(r) < ranks.size() ? &ranks[static_cast<std::size_t>(r)]
                                                                    : nullptr;
    }

    // The match to step to from `current` (by display start); -1 when none.
    std::ptrdiff_t nextIndex(const TimelineData& data, SliceRef current, bool forward) const;
    std::ptrdiff_t indexOf(const TimelineData& data, SliceRef ref) const;
};

// Runs a search. An empty query gives empty results (no highlight).
std::shared_ptr<const SearchResults> runSearch(
    const TimelineData& data, const SearchQuery& query, const Alignment& alignment);

} // namespace ks::widgets
