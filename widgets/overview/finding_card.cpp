#include "widgets/overview/finding_card.h"

#include "core/insights/insights_format.h"
#include "core/insights/rule.h"

#include <QLabel>
#include <QPainter>
#include <QProgressBar>
#include <QVBoxLayout>

#include <algorithm>

namespace ks::widgets {

namespace {

    QColor severityColor(core::Severity s)
    {
        switch (s) {
        case core::Severity::Critical:
            return QColor(0xc6, 0x28, 0x28);
        case core::Severity::Warning:
            return QColor(0xef, 0x8f, 0x00);
        case core::Severity::Info:
            break;
        }
        return QColor(0x42, 0x7a, 0xc4);
    }

    QString joinInts(const std::vector<std::int64_t>& v, std::size_t limit = 12)
    {
        QStringList parts;
        for (std::size_t i = 0; i < std::min(limit, v.size()); ++i)
            parts << QString::number(v[i]);
        if (v.size() > limit)
            parts << QStringLiteral("… (%1 in all)").arg(v.size());
        return parts.join(QStringLiteral(", "));
    }

    // "12.3 %", or "12.3–45.6 %" when the gain's model gives a range (ranked by its low end).
    QString gainText(const core::Finding& f)
    {
        const double high = std::max(f.gainPct, f.gainHighPct);
        if (high - f.gainPct < 0.05)
            return QStringLiteral("%1 %").arg(f.gainPct, 0, 'f', 1);
        return QStringLiteral("%1–%2 %").arg(f.gainPct, 0, 'f', 1).arg(high, 0, 'f', 1);
    }

} // namespace

QString FindingCard::proofViewOf(const std::string& rule)
{
    for (const core::Rule& r : core::insightRules())
        if (r.info.id == rule)
            return QString::fromUtf8(
                r.info.proofView.data(), static_cast<qsizetype>(r.info.proofView.size()));
    return {};
}

FindingCard::FindingCard(const core::Finding& finding, int position, bool timelineLinks, QWidget* parent)
    : QFrame(parent)
    , m_finding(finding)
{
    setObjectName(QStringLiteral("findingCard"));
    setFrameShape(QFrame::StyledPanel);
    const QColor color = severityColor(finding.severity);
    setStyleSheet(QStringLiteral("#findingCard { border-left: 5px solid %1; background: palette(base); }")
                      .arg(color.name()));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 8, 10, 8);
    layout->setSpacing(4);

    auto* title = new QLabel(this);
    title->setObjectName(QStringLiteral("findingTitle"));
    title->setTextFormat(Qt::RichText);
    title->setWordWrap(true);
    title->setText(
        QStringLiteral("<b>%1. %2</b> &nbsp;<span style='color:%3'>%4 · %5</span> &nbsp;<code>%6</code>")
            .arg(position)
            .arg(QString::fromStdString(finding.title).toHtmlEscaped())
            .arg(color.name())
            .arg(gainText(finding))
            .arg(QString::fromLatin1(core::severityName(finding.severity).data()))
            .arg(QString::fromStdString(finding.rule)));
    layout->addWidget(title);

    auto* gain = new QProgressBar(this);
    gain->setObjectName(QStringLiteral("findingGain"));
    gain->setRange(0, 1000);
    gain->setValue(static_cast<int>(std::clamp(finding.gainPct, 0.0, 100.0) * 10));
    gain->setTextVisible(false);
    gain->setMaximumHeight(6);
    gain->setStyleSheet(QStringLiteral("QProgressBar { border: none; background: palette(midlight); }"
                                       "QProgressBar::chunk { background: %1; }")
                            .arg(color.name()));
    gain->setToolTip(tr("Estimated gain: %1 % of the step time (the low end of its model: %2 % at most). %3")
                         .arg(finding.gainPct, 0, 'f', 2)
                         .arg(std::max(finding.gainPct, finding.gainHighPct), 0, 'f', 2)
                         .arg(QString::fromStdString(finding.gainBasis)));
    layout->addWidget(gain);

    QString ranks = QString::fromStdString(core::rankRuns(finding.ranks));
    if (ranks.size() > 80)
        ranks = ranks.left(80) + QStringLiteral("…");
    QString scope = finding.ranks.size() > 1 ? tr("Ranks (%1): %2").arg(finding.ranks.size()).arg(ranks)
                                             : tr("Rank %1").arg(ranks);
    if (!finding.iterations.empty())
        scope += tr(" · iterations: %1").arg(joinInts(finding.iterations));
    auto* where = new QLabel(scope, this);
    where->setForegroundRole(QPalette::PlaceholderText); // secondary text, light or dark
    layout->addWidget(where);

    QStringList evidence;
    for (std::size_t i = 0; i < std::min<std::size_t>(4, finding.evidence.size()); ++i)
        evidence << QStringLiteral("• ") + QString::fromStdString(finding.evidence[i]).toHtmlEscaped();
    if (finding.evidence.size() > 4)
        evidence << tr("• … %1 more").arg(finding.evidence.size() - 4);
    auto* evidenceLabel = new QLabel(evidence.join(QStringLiteral("<br>")), this);
    evidenceLabel->setTextFormat(Qt::RichText);
    evidenceLabel->setWordWrap(true);
    evidenceLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(evidenceLabel);

    auto* suggestion = new QLabel(
        tr("<i>Suggestion:</i> %1").arg(QString::fromStdString(finding.suggestion).toHtmlEscaped()), this);
    suggestion->setTextFormat(Qt::RichText);
    suggestion->setWordWrap(true);
    layout->addWidget(suggestion);

    QStringList links;
    const bool hasEvent = std::any_of(finding.where.begin(), finding.where.end(),
        [](const core::RankWhere& w) { return !w.events.empty(); });
    const bool hasRange = std::any_of(finding.where.begin(), finding.where.end(),
        [](const core::RankWhere& w) { return !w.ranges.empty(); });
    if (timelineLinks && hasEvent)
        links << QStringLiteral("<a href='event'>%1</a>").arg(tr("Select on the timeline"));
    if (timelineLinks && hasRange)
        links << QStringLiteral("<a href='range'>%1</a>").arg(tr("Zoom to it"));
    if (timelineLinks && !proofViewOf(finding.rule).isEmpty()) // job mode has no analysis docks
        links << QStringLiteral("<a href='analysis'>%1</a>").arg(tr("Open the analysis"));
    if (!links.isEmpty()) {
        auto* linkLabel = new QLabel(links.join(QStringLiteral(" &nbsp;·&nbsp; ")), this);
        linkLabel->setObjectName(QStringLiteral("findingLinks"));
        linkLabel->setTextFormat(Qt::RichText);
        connect(linkLabel, &QLabel::linkActivated, this, &FindingCard::onLink);
        layout->addWidget(linkLabel);
    }
}

void FindingCard::onLink(const QString& link)
{
    if (link == QLatin1String("analysis")) {
        emit analysisRequested(proofViewOf(m_finding.rule));
        return;
    }
    for (const core::RankWhere& w : m_finding.where) {
        if (link == QLatin1String("event") && !w.events.empty()) {
            emit eventRequested(w.rank, w.events.front());
            return;
        }
        if (link == QLatin1String("range") && !w.ranges.empty()) {
            // Every range of the rank the finding names first, with a margin of a tenth.
            core::TimeNs start = w.ranges.front().start;
            core::TimeNs end = w.ranges.front().end;
            for (const core::TimeRange& r : w.ranges) {
                start = std::min(start, r.start);
                end = std::max(end, r.end);
            }
            const core::TimeNs margin = std::max<core::TimeNs>((end - start) / 10, 1000);
            emit rangeRequested(start - margin, end + margin);
            return;
        }
    }
}

} // namespace ks::widgets
