#include "widgets/job_path/job_path_panel.h"

#include "widgets/common/not_computed_notice.h"
#include "widgets/common/table_view_utils.h"
#include "widgets/job_path/path_segments_table.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ks::widgets {

namespace {

    QString pathSummary(const core::JobCriticalPath& job)
    {
        return QObject::tr("Path %1 ms over %2 rank(s), %3 hop(s); measured %4 ms")
            .arg(pathMs(job.path.length))
            .arg(job.ranks.size())
            .arg(job.path.hops.size())
            .arg(pathMs(job.measuredTime));
    }

} // namespace

JobPathPanel::JobPathPanel(QWidget* parent)
    : QWidget(parent)
{
    m_summary = new QLabel(tr("No trace loaded"), this);
    m_summary->setWordWrap(true);
    m_summary->setObjectName(QStringLiteral("jobPathSummary"));
    m_notice = new NotComputedNotice(this);
    m_notice->setObjectName(QStringLiteral("jobPathNotice"));
    m_notice->hide();
    m_showOnTimeline = new QPushButton(tr("Show on timeline"), this);
    m_showOnTimeline->setCheckable(true);
    m_showOnTimeline->setToolTip(tr("Colour the timeline by this path: its slices on every rank by bound "
                                    "type, arrows where it hops between ranks (Shift+P)"));
    m_segments = makePathSegmentsView(this);
    m_segments->setObjectName(QStringLiteral("jobPathSegments"));
    m_stragglers = makeReadOnlyTable({ tr("Iteration"), tr("Rank"), tr("Wait caused"), tr("Why") }, this);
    m_rules = new QLineEdit(this);
    m_rules->setPlaceholderText(tr("What-if: REGEX=F or kind:gpu_compute=F, several separated by ';'"));
    m_apply = new QPushButton(tr("Recompute"), this);
    m_whatIf = new QLabel(this);
    m_whatIf->setWordWrap(true);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    m_splitter = splitter;
    splitter->addWidget(m_segments);
    splitter->addWidget(m_stragglers);
    splitter->setChildrenCollapsible(false);
    auto* whatIfRow = new QHBoxLayout;
    whatIfRow->addWidget(m_rules, 1);
    whatIfRow->addWidget(m_apply);
    auto* openDialog = new QPushButton(tr("What-if…"), this);
    openDialog->setToolTip(tr("Edit what-if rules in a dialog and compare before and after"));
    whatIfRow->addWidget(openDialog);
    connect(openDialog, &QPushButton::clicked, this, &JobPathPanel::whatIfDialogRequested);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* summaryRow = new QHBoxLayout;
    summaryRow->addWidget(m_summary, 1);
    summaryRow->addWidget(m_showOnTimeline);
    layout->addLayout(summaryRow);
    layout->addWidget(m_notice);
    layout->addWidget(splitter, 1);
    layout->addLayout(whatIfRow);
    layout->addWidget(m_whatIf);

    auto activate = [this](const QModelIndex& index) {
        if (const core::PathSegment* s = pathSegmentAt(m_segments, index.row()))
            emit segmentActivated(s->rank, s->piece.eventIndex);
    };
    connect(m_segments, &QTableView::activated, this, activate);
    connect(m_segments, &QTableView::clicked, this, activate);
    auto request = [this] {
        QStringList rules;
        for (const QString& r : m_rules->text().split(QLatin1Char(';'), Qt::SkipEmptyParts))
            rules.append(r.trimmed());
        if (!rules.isEmpty())
            emit whatIfRequested(rules);
    };
    connect(m_apply, &QPushButton::clicked, this, request);
    connect(m_showOnTimeline, &QPushButton::clicked, this, &JobPathPanel::showOnTimelineToggled);
    connect(m_rules, &QLineEdit::returnPressed, this, request);
}

void JobPathPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // Side by side when the panel is wider than tall (under the timeline at
    // 1280x800 two stacked tables showed a row and a half each), stacked otherwise.
    m_splitter->setOrientation(width() > 2 * height() ? Qt::Horizontal : Qt::Vertical);
}

void JobPathPanel::setPath(std::shared_ptr<const core::JobCriticalPath> job,
    std::optional<std::int64_t> iteration, std::optional<std::vector<core::Straggler>> stragglers)
{
    m_job = std::move(job);
    m_whatIf->clear();
    if (!m_job || !m_job->path.ok) {
        showMessage(m_job && !m_job->notes.empty() ? QString::fromStdString(m_job->notes.back())
                                                   : tr("No cross-rank path"));
        return;
    }
    m_notice->hide();
    m_summary->setText(
        iteration ? tr("Iteration %1: %2").arg(*iteration).arg(pathSummary(*m_job)) : pathSummary(*m_job));
    showPathSegments(m_segments, m_job);
    fillStragglers(stragglers ? *stragglers : core::findStragglers(*m_job));
}

void JobPathPanel::setShownOnTimeline(bool shown)
{
    m_showOnTimeline->setChecked(shown);
}

void JobPathPanel::showMessage(const QString& text)
{
    m_notice->hide();
    m_summary->setText(text);
    showPathSegments(m_segments, nullptr);
    m_stragglers->setRowCount(0);
}

void JobPathPanel::showNotComputed(std::uint64_t needBytes, std::uint64_t budgetBytes,
    std::optional<std::uint64_t> iterationBytes, std::optional<std::int64_t> iteration)
{
    m_job.reset();
    m_whatIf->clear();
    showMessage(tr("The job's critical path over the whole trace was not started."));
    m_notice->setPrefix(QString());
    m_notice->showNotComputed(needBytes, budgetBytes, iterationBytes, iteration);
    m_notice->show();
}

void JobPathPanel::showWholeTraceNotComputed(std::uint64_t needBytes, std::uint64_t budgetBytes)
{
    m_notice->setPrefix(tr("Whole trace: "));
    m_notice->showNotComputed(needBytes, budgetBytes);
    m_notice->show();
}

QString JobPathPanel::summaryText() const
{
    return m_summary->text();
}

void JobPathPanel::fillStragglers(const std::vector<core::Straggler>& found)
{
    m_stragglers->setRowCount(static_cast<int>(found.size()));
    int row = 0;
    for (const core::Straggler& s : found) {
        m_stragglers->setItem(row, 0,
            s.iteration < 0 ? new QTableWidgetItem(QStringLiteral("-")) : identifierItem(s.iteration));
        m_stragglers->setItem(row, 1, identifierItem(s.rank));
        m_stragglers->setItem(row, 2, durationItem(s.waitCaused));
        auto* why = new QTableWidgetItem(QString::fromStdString(s.why));
        why->setToolTip(QString::fromStdString(s.why));
        m_stragglers->setItem(row++, 3, why);
    }
    m_stragglers->resizeColumnsToContents();
}

void JobPathPanel::showWhatIf(std::shared_ptr<const core::JobCriticalPath> after)
{
    if (!m_job || !after || !after->path.ok) {
        showWhatIfError(tr("no path after scaling"));
        return;
    }
    const core::TimeNs before = m_job->path.length;
    const core::TimeNs estimated = core::whatIfMeasuredTime(*m_job, *after);
    m_whatIf->setText(
        tr("What-if: path %1 → %2 ms (%3%), iteration %4 → %5 ms. The segments show the new path.")
            .arg(pathMs(before), pathMs(after->path.length))
            .arg(before > 0
                    ? 100.0 * static_cast<double>(after->path.length - before) / static_cast<double>(before)
                    : 0.0,
                0, 'f', 1)
            .arg(pathMs(m_job->measuredTime), pathMs(estimated)));
    showPathSegments(m_segments, std::move(after));
}

void JobPathPanel::showWhatIfError(const QString& text)
{
    m_whatIf->setText(tr("What-if: %1").arg(text));
}

} // namespace ks::widgets
