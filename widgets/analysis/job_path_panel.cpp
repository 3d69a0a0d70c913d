#include "widgets/analysis/job_path_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ks::widgets {

namespace {

    QString ms(core::TimeNs ns)
    {
        return QString::number(static_cast<double>(ns) / 1e6, 'f', 3);
    }

    QTableWidget* table(const QStringList& headers, QWidget* parent)
    {
        auto* t = new QTableWidget(0, static_cast<int>(headers.size()), parent);
        t->setHorizontalHeaderLabels(headers);
        t->setEditTriggers(QAbstractItemView::NoEditTriggers);
        t->setSelectionBehavior(QAbstractItemView::SelectRows);
        t->verticalHeader()->hide();
        t->horizontalHeader()->setStretchLastSection(true);
        return t;
    }

    void setRow(QTableWidget* t, int row, const QStringList& cells)
    {
        for (int c = 0; c < cells.size(); ++c)
            t->setItem(row, c, new QTableWidgetItem(cells[c]));
    }

    QString summaryText(const core::JobCriticalPath& job)
    {
        return QObject::tr("Path %1 ms over %2 rank(s), %3 hop(s); measured %4 ms")
            .arg(ms(job.path.length))
            .arg(job.ranks.size())
            .arg(job.path.hops.size())
            .arg(ms(job.measuredTime));
    }

} // namespace

JobPathPanel::JobPathPanel(QWidget* parent)
    : QWidget(parent)
{
    m_summary = new QLabel(tr("No trace loaded"), this);
    m_summary->setWordWrap(true);
    m_segments =
        table({ tr("At (ms)"), tr("Rank"), tr("Bound"), tr("Duration (ms)"), tr("Op / kernel") }, this);
    m_stragglers = table({ tr("Iteration"), tr("Rank"), tr("Wait caused (ms)"), tr("Why") }, this);
    m_rules = new QLineEdit(this);
    m_rules->setPlaceholderText(tr("What-if: REGEX=F or kind:gpu_compute=F, several separated by ';'"));
    m_apply = new QPushButton(tr("Recompute"), this);
    m_whatIf = new QLabel(this);
    m_whatIf->setWordWrap(true);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_segments);
    splitter->addWidget(m_stragglers);
    auto* whatIfRow = new QHBoxLayout;
    whatIfRow->addWidget(m_rules, 1);
    whatIfRow->addWidget(m_apply);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_summary);
    layout->addWidget(splitter, 1);
    layout->addLayout(whatIfRow);
    layout->addWidget(m_whatIf);

    auto activate = [this](int row) {
        if (!m_shown || row < 0 || static_cast<std::size_t>(row) >= m_shown->path.segments.size())
            return;
        const core::PathSegment& s = m_shown->path.segments[static_cast<std::size_t>(row)];
        emit segmentActivated(s.rank, s.piece.eventIndex);
    };
    connect(m_segments, &QTableWidget::cellActivated, this, [activate](int row, int) { activate(row); });
    connect(m_segments, &QTableWidget::cellClicked, this, [activate](int row, int) { activate(row); });
    auto request = [this] {
        QStringList rules;
        for (const QString& r : m_rules->text().split(QLatin1Char(';'), Qt::SkipEmptyParts))
            rules.append(r.trimmed());
        if (!rules.isEmpty())
            emit whatIfRequested(rules);
    };
    connect(m_apply, &QPushButton::clicked, this, request);
    connect(m_rules, &QLineEdit::returnPressed, this, request);
}

void JobPathPanel::setPath(std::shared_ptr<const core::JobCriticalPath> job)
{
    m_job = std::move(job);
    m_shown = m_job;
    m_whatIf->clear();
    if (!m_job || !m_job->path.ok) {
        showMessage(m_job && !m_job->notes.empty() ? QString::fromStdString(m_job->notes.back())
                                                   : tr("No cross-rank path"));
        return;
    }
    m_summary->setText(summaryText(*m_job));
    fillSegments(*m_job);
    fillStragglers(*m_job);
}

void JobPathPanel::showMessage(const QString& text)
{
    m_summary->setText(text);
    m_segments->setRowCount(0);
    m_stragglers->setRowCount(0);
}

void JobPathPanel::fillSegments(const core::JobCriticalPath& job)
{
    m_segments->setRowCount(static_cast<int>(job.path.segments.size()));
    int row = 0;
    for (const core::PathSegment& s : job.path.segments)
        setRow(m_segments, row++,
            { ms(s.pathOffset), QString::number(s.rank),
                QString::fromUtf8(core::pathBoundName(s.piece.bound).data(),
                    static_cast<qsizetype>(core::pathBoundName(s.piece.bound).size())),
                ms(s.piece.duration), QString::fromStdString(s.piece.name) });
    m_segments->resizeColumnsToContents();
}

void JobPathPanel::fillStragglers(const core::JobCriticalPath& job)
{
    const std::vector<core::Straggler> found = core::findStragglers(job);
    m_stragglers->setRowCount(static_cast<int>(found.size()));
    int row = 0;
    for (const core::Straggler& s : found)
        setRow(m_stragglers, row++,
            { s.iteration < 0 ? QStringLiteral("-") : QString::number(s.iteration), QString::number(s.rank),
                ms(s.waitCaused), QString::fromStdString(s.why) });
    m_stragglers->resizeColumnsToContents();
}

void JobPathPanel::showWhatIf(std::shared_ptr<const core::JobCriticalPath> after)
{
    if (!m_job || !after || !after->path.ok) {
        showWhatIfError(tr("no path after scaling"));
        return;
    }
    const core::TimeNs before = m_job->path.length;
    const core::TimeNs estimated = m_job->measuredTime + (after->path.length - before);
    m_whatIf->setText(
        tr("What-if: path %1 → %2 ms (%3%), iteration %4 → %5 ms. The segments show the new path.")
            .arg(ms(before), ms(after->path.length))
            .arg(before > 0
                    ? 100.0 * static_cast<double>(after->path.length - before) / static_cast<double>(before)
                    : 0.0,
                0, 'f', 1)
            .arg(ms(m_job->measuredTime), ms(estimated)));
    fillSegments(*after);
    m_shown = std::move(after);
}

void JobPathPanel::showWhatIfError(const QString& text)
{
    m_whatIf->setText(tr("What-if: %1").arg(text));
}

} // namespace ks::widgets
