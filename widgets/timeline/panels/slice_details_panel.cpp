#include "widgets/timeline/panels/slice_details_panel.h"

#include "widgets/common/format.h"
#include "widgets/timeline/model/slice_queries.h"
#include "widgets/timeline/model/time_axis.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_view_state.h"

#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace ks::widgets {

namespace {

    QString esc(const QString& s)
    {
        return s.toHtmlEscaped();
    }

    QString row(const QString& key, const QString& value)
    {
        return QStringLiteral("<tr><td class='k'>%1</td><td>%2</td></tr>").arg(esc(key), value);
    }

    QString sliceLink(const SliceDetails::Related& r)
    {
        return QStringLiteral("<tr><td class='k'>%1</td><td><a href='slice:%2:%3'>%4</a><br>"
                              "<span class='m'>%5 · +%6 · %7</span></td></tr>")
            .arg(esc(r.role))
            .arg(r.ref.rank)
            .arg(r.ref.slice)
            .arg(esc(r.name), esc(r.track), formatPreciseTime(r.start), formatDuration(r.duration));
    }

    // The user annotations a kernel ran under, where the rank has any.
    QString annotationsHtml(const SliceDetails& d)
    {
        if (!d.gpuWork || !d.rankHasAnnotations)
            return {};
        QString html = QStringLiteral("<h4>User annotation</h4>");
        if (d.annotations.isEmpty())
            return html
                + QStringLiteral("<p class='m'>none: no GPU annotation on its stream overlaps it and no "
                                 "CPU annotation is around its launch</p>");
        html += QStringLiteral("<table>");
        for (const auto& r : d.annotations)
            html += sliceLink(r);
        return html + QStringLiteral("</table>");
    }

    // A counter as people read it: whole numbers grouped ("1,200,000"), others to 3-4 digits.
    QString counterText(double value)
    {
        const bool whole = value == static_cast<double>(static_cast<qint64>(value)) && std::abs(value) < 9e15;
        if (!whole)
            return formatReal(value);
        const QString digits = formatCount(static_cast<std::uint64_t>(std::abs(value)));
        return value < 0 ? QStringLiteral("−") + digits : digits;
    }

    // A CUPTI range's counters, with the launch and operators they belong to. The
    // value leads and the name may wrap after its '_' and '.' (CUPTI's metric names are one
    // long word: unbroken, they would widen the panel past its dock).
    QString countersHtml(const SliceDetails& d)
    {
        if (!d.counterRange)
            return {};
        QString html = QStringLiteral("<h4>CUPTI counters</h4>");
        if (d.counters.isEmpty())
            html += QStringLiteral("<p class='m'>none in its args</p>");
        else
            html += QStringLiteral("<table>");
        for (const auto& [name, value] : d.counters) {
            QString breakable = esc(name);
            breakable.replace(QChar(u'_'), QStringLiteral("_&#8203;"))
                .replace(QChar(u'.'), QStringLiteral(".&#8203;"));
            html += QStringLiteral(
                "<tr><td align='right' style='white-space:nowrap'>%1</td><td class='m'>%2</td></tr>")
                        .arg(counterText(value), breakable);
        }
        if (!d.counters.isEmpty())
            html += QStringLiteral("</table>");
        if (d.counterLaunch.isEmpty() && d.opStack.isEmpty())
            return html;
        html += QStringLiteral("<table>");
        for (const auto& r : d.counterLaunch)
            html += sliceLink(r);
        if (!d.opStack.isEmpty())
            html += row(QStringLiteral("Operators"), esc(d.opStack));
        return html + QStringLiteral("</table>");
    }

    QString detailsHtml(const SliceDetails& d)
    {
        QString html =
            QStringLiteral("<style>td{padding:1px 6px 1px 0; vertical-align:top} td.k{color:#7a7a7a;"
                           "white-space:nowrap} .m{color:gray} h4{margin:10px 0 2px 0}</style>");
        html += QStringLiteral("<p><b>%1</b></p><table>").arg(esc(d.name));
        html += row(QStringLiteral("Kind"), esc(d.kind) + QStringLiteral(" · ") + esc(d.category));
        html += row(QStringLiteral("Rank"), esc(d.rank));
        html += row(QStringLiteral("Track"), esc(d.track) + QStringLiteral(" · depth %1").arg(d.level));
        html += row(QStringLiteral("Start"),
            QStringLiteral("+") + formatPreciseTime(d.start)
                + QStringLiteral(" <span class='m'>(%1 ns as recorded)</span>").arg(d.absoluteStart));
        html += row(QStringLiteral("Duration"),
            formatDuration(d.duration) + QStringLiteral(" <span class='m'>(%1 ns)</span>").arg(d.duration));
        html += row(QStringLiteral("Event"), QStringLiteral("#%1 in traceEvents").arg(d.eventIndex));
        for (const QString& note : d.notes)
            html += row(QStringLiteral("Note"), esc(note));
        html += QStringLiteral("</table>");
        html += annotationsHtml(d) + countersHtml(d);
        if (!d.links.isEmpty()) {
            html += QStringLiteral("<h4>Flows</h4><table>");
            for (const auto& r : d.links)
                html += sliceLink(r);
            html += QStringLiteral("</table>");
        }
        if (!d.collective.isEmpty()) {
            html += QStringLiteral("<h4>Same collective on every rank</h4><p class='m'>%1</p><table>")
                        .arg(esc(d.collectiveSummary));
            for (const auto& r : d.collective)
                html += sliceLink(r);
            html += QStringLiteral("</table>");
        }
        if (!d.parents.isEmpty()) {
            html += QStringLiteral("<h4>Call stack (outermost first)</h4><table>");
            for (const auto& r : d.parents)
                html += sliceLink(r);
            html += QStringLiteral("</table>");
        }
        html += QStringLiteral("<h4>Args</h4>");
        if (!d.argsError.isEmpty())
            html += QStringLiteral("<p class='m'>%1</p>").arg(esc(d.argsError));
        else if (d.args.isEmpty())
            html += QStringLiteral("<p class='m'>none</p>");
        else {
            html += QStringLiteral("<table>");
            for (const auto& [k, v] : d.args) {
                const bool counter = std::any_of(
                    d.counters.begin(), d.counters.end(), [&k = k](const auto& c) { return c.first == k; });
                if (!counter) // a CUPTI range's counters are listed above
                    html += row(k, esc(v));
            }
            html += QStringLiteral("</table>");
        }
        return html;
    }

} // namespace

SliceDetailsPanel::SliceDetailsPanel(TimelineViewState* state, QWidget* parent)
    : QWidget(parent)
    , m_state(state)
    , m_browser(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("sliceDetailsPanel"));
    m_browser->setOpenLinks(false);
    m_browser->setFrameShape(QFrame::NoFrame);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_browser);
    connect(m_browser, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        const QStringList parts = url.toString().split(QChar(u':'));
        if (parts.size() == 3 && parts[0] == QStringLiteral("slice"))
            emit sliceActivated({ parts[1].toInt(), parts[2].toUInt() });
    });
    connect(m_state, &TimelineViewState::selectedSliceChanged, this, &SliceDetailsPanel::refresh);
    connect(m_state, &TimelineViewState::alignmentChanged, this, &SliceDetailsPanel::refresh);
    refresh();
}

void SliceDetailsPanel::setData(std::shared_ptr<const TimelineData> timeline)
{
    m_data = std::move(timeline);
    refresh();
}

QString SliceDetailsPanel::plainText() const
{
    return m_browser->toPlainText();
}

void SliceDetailsPanel::refresh()
{
    const SliceRef ref = m_state->selectedSlice();
    if (!m_data || !ref.valid()) {
        m_browser->setHtml(
            QStringLiteral("<p style='color:gray'>Click a slice on the timeline to see its details: "
                           "args, launch or GPU work, call stack.</p>"));
        return;
    }
    m_browser->setHtml(detailsHtml(describeSlice(*m_data, ref, m_state->alignment()))
        + (m_extra ? m_extra(ref) : QString()));
}

void SliceDetailsPanel::setExtraSection(std::function<QString(SliceRef)> extra)
{
    m_extra = std::move(extra);
    refresh();
}

} // namespace ks::widgets
