#include "widgets/timeline/model/timeline_search.h"

#include "widgets/common/format.h"
#include "widgets/timeline/model/timeline_data.h"

#include <QRegularExpression>

#include <algorithm>
#include <atomic>

namespace ks::widgets {

bool RankMatches::matches(std::uint32_t slice) const
{
    return std::binary_search(slices.begin(), slices.end(), slice);
}

std::size_t RankMatches::countIn(std::uint32_t a, std::uint32_t b) const
{
    const auto lo = std::lower_bound(slices.begin(), slices.end(), a);
    const auto hi = std::lower_bound(lo, slices.end(), b);
    return static_cast<std::size_t>(hi - lo);
}

namespace {

    std::uint64_t nextGeneration()
    {
        static std::atomic<std::uint64_t> g { 0 };
        return ++g;
    }

    TimeNs displayStart(const TimelineData& data, const SearchResults& r, SliceRef ref)
    {
        return data.trace(ref.rank).slices.start[ref.slice] - data.offset(ref.rank, r.alignment);
    }

} // namespace

std::shared_ptr<const SearchResults> runSearch(
    const TimelineData& data, const SearchQuery& query, const Alignment& alignment)
{
    auto results = std::make_shared<SearchResults>();
    results->query = query;
    results->alignment = alignment;
    results->generation = nextGeneration();
    if (query.isEmpty())
        return results;
    QRegularExpression re;
    if (query.regex) {
        re.setPattern(query.text);
        re.setPatternOptions(query.caseSensitive ? QRegularExpression::NoPatternOption
                                                 : QRegularExpression::CaseInsensitiveOption);
        if (!re.isValid()) {
            results->error = re.errorString();
            return results;
        }
        re.optimize();
    }
    const Qt::CaseSensitivity cs = query.caseSensitive ? Qt::CaseSensitive : Qt::CaseInsensitive;
    results->ranks.resize(static_cast<std::size_t>(data.rankCount()));
    for (int r = 0; r < data.rankCount(); ++r) {
        const core::RankTrace& trace = data.trace(r);
        RankMatches& m = results->ranks[static_cast<std::size_t>(r)];
        m.byName.assign(trace.strings.size(), 0);
        bool any = false;
        for (std::uint32_t n = 0; n < trace.strings.size(); ++n) {
            const QString name = toQString(trace.strings.view(core::NameId(n)));
            const bool hit = query.regex ? re.match(name).hasMatch() : name.contains(query.text, cs);
            m.byName[n] = hit ? 1 : 0;
            any = any || hit;
        }
        if (!any)
            continue;
        for (std::uint32_t s = 0; s < trace.slices.size(); ++s) {
            if (m.byName[trace.slices.name[s].value]) {
                m.slices.push_back(s);
                results->ordered.push_back({ r, s });
            }
        }
    }
    std::stable_sort(results->ordered.begin(), results->ordered.end(), [&](SliceRef a, SliceRef b) {
        const TimeNs ta = displayStart(data, *results, a);
        const TimeNs tb = displayStart(data, *results, b);
        return ta != tb ? ta < tb : a.rank < b.rank;
    });
    return results;
}

std::ptrdiff_t SearchResults::indexOf(const TimelineData& data, SliceRef ref) const
{
    if (!ref.valid() || ref.rank >= data.rankCount() || ref.slice >= data.trace(ref.rank).slices.size())
        return -1;
    // `ordered` is sorted by display start: find the time, then the ref among equal times.
    const TimeNs t = displayStart(data, *this, ref);
    auto it = std::lower_bound(ordered.begin(), ordered.end(), t,
        [&](SliceRef r, TimeNs v) { return displayStart(data, *this, r) < v; });
    for (; it != ordered.end() && displayStart(data, *this, *it) == t; ++it) {
        if (*it == ref)
            return it - ordered.begin();
    }
    return -1;
}

std::ptrdiff_t SearchResults::nextIndex(const TimelineData& data, SliceRef current, bool forward) const
{
    if (ordered.empty())
        return -1;
    const auto n = static_cast<std::ptrdiff_t>(ordered.size());
    if (!current.valid())
        return forward ? 0 : n - 1;
    const std::ptrdiff_t at = indexOf(data, current);
    if (at >= 0)
        return forward ? (at + 1) % n : (at - 1 + n) % n;
    // Not a match: the first match after (or last before) the current slice's start.
    const TimeNs t = displayStart(data, *this, current);
    const auto it = std::lower_bound(ordered.begin(), ordered.end(), t,
        [&](SliceRef ref, TimeNs v) { return displayStart(data, *this, ref) < v; });
    const std::ptrdiff_t idx = it - ordered.begin();
    if (forward)
        return idx % n;
    return (idx - 1 + n) % n;
}

} // namespace ks::widgets
