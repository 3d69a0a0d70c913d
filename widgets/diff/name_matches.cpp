#include "widgets/diff/name_matches.h"

#include "core/analysis/hta/trace_diff.h"
#include "widgets/timeline/model/timeline_data.h"

#include <QRegularExpression>
#include <QSet>
#include <QStringList>

namespace ks::widgets {

std::shared_ptr<const SearchResults> nameMatches(
    const TimelineData& data, const QString& rowName, bool shortNames, const Alignment& alignment)
{
    QSet<QString> names;
    if (!shortNames) {
        names.insert(rowName);
    } else {
        const std::string wanted = rowName.toStdString();
        for (int r = 0; r < data.rankCount(); ++r) {
            const core::RankTrace& trace = data.trace(r);
            for (std::uint32_t n = 0; n < trace.strings.size(); ++n) {
                const std::string_view name = trace.strings.view(core::NameId(n));
                if (core::shortenName(name) == wanted)
                    names.insert(QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())));
            }
        }
    }
    QStringList alternatives;
    for (const QString& name : names)
        alternatives.append(QRegularExpression::escape(name));
    SearchQuery query;
    // No name at all (a row of the other trace only): a pattern that matches nothing.
    query.text = alternatives.isEmpty()
        ? QStringLiteral("(?!)")
        : QStringLiteral("^(?:") + alternatives.join(u'|') + QStringLiteral(")$");
    query.regex = true;
    query.caseSensitive = true;
    return runSearch(data, query, alignment);
}

} // namespace ks::widgets
