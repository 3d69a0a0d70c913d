#include "widgets/overview/overview_page.h"

#include "core/summary/job_overview.h"
#include "widgets/overview/finding_card.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_view_state.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

namespace ks::widgets {

namespace {

    constexpr int kNoIteration = -1; // the selector's "All iterations"

    QString formatUs(double us)
    {
        if (us >= 1e6)
            return QStringLiteral("%1 s").arg(us / 1e6, 0, 'f', 2);
        if (us >= 1e3)
            return QStringLiteral("%1 ms").arg(us / 1e3, 0, 'f', 2);
        return QStringLiteral("%1 µs").arg(us, 0, 'f', 1);
    }

    // One headline number: a caption above a large value and a line of detail.
    QWidget* tile(const QString& caption, const QString& value, const QString& detail, QWidget* parent)
    {
        auto* frame = new QFrame(parent);
        frame->setObjectName(QStringLiteral("headlineTile"));
        frame->setFrameShape(QFrame::StyledPanel);
        auto* layout = new QVBoxLayout(frame);
        layout->setContentsMargins(10, 6, 10, 6);
        layout->setSpacing(1);
        auto* c = new QLabel(caption, frame);
        c->setForegroundRole(QPalette::PlaceholderText); // secondary text, light or dark
        auto* v = new QLabel(value, frame);
        v->setObjectName(QStringLiteral("headlineValue"));
        QFont big = v->font();
        big.setPointSizeF(big.pointSizeF() * 1.6);
        big.setBold(true);
        v->setFont(big);
        auto* d = new QLabel(detail, frame);
        d->setWordWrap(true);
        d->setForegroundRole(QPalette::PlaceholderText); // secondary text, light or dark
        layout->addWidget(c);
        layout->addWidget(v);
        layout->addWidget(d);
        return frame;
    }

    // A share the rank overview gives and a summary does not store: its value and what
    // it is of, or why there is none.
    QWidget* shareTile(const QString& caption, const std::optional<double>& pct, const QString& ofWhat,
        bool fromSummary, const QString& whyNone, QWidget* parent)
    {
        return tile(caption, pct ? QStringLiteral("%1 %").arg(*pct, 0, 'f', 1) : QStringLiteral("–"),
            pct               ? ofWhat
                : fromSummary ? QCoreApplication::translate(
                      "ks::widgets::OverviewPage", "needs the ranks' events (open the traces)")
                              : whyNone,
            parent);
    }

    void clearLayout(QLayout* layout)
    {
        while (QLayoutItem* item = layout->takeAt(0)) {
            if (QWidget* w = item->widget())
                w->deleteLater();
            delete item;
        }
    }

} // namespace

OverviewPage::OverviewPage(TaskPools* pools, QWidget* parent)
    : QWidget(parent)
    , m_tasks(pools, this)
{
    setObjectName(QStringLiteral("overviewPage"));
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    outer->addWidget(scroll);
    auto* content = new QWidget(scroll);
    scroll->setWidget(content);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(12, 10, 12, 10);
    layout->setSpacing(8);

    auto* top = new QHBoxLayout;
    auto* title = new QLabel(tr("<b>What limits this job</b>"), content);
    m_scope = new QLabel(content);
    m_scope->setObjectName(QStringLiteral("overviewScope"));
    m_iteration = new QComboBox(content);
    m_iteration->setObjectName(QStringLiteral("overviewIteration"));
    m_iteration->setToolTip(tr("The iteration the numbers and findings are about"));
    m_iteration->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    top->addWidget(title);
    top->addSpacing(12);
    top->addWidget(m_scope, 1);
    top->addWidget(m_iteration);
    layout->addLayout(top);

    m_headline = new QGridLayout;
    m_headline->setSpacing(8);
    layout->addLayout(m_headline);

    m_message = new QLabel(content);
    m_message->setObjectName(QStringLiteral("overviewMessage"));
    m_message->setWordWrap(true);
    layout->addWidget(m_message);

    m_cards = new QVBoxLayout;
    m_cards->setSpacing(8);
    layout->addLayout(m_cards);
    layout->addStretch(1);

    connect(m_iteration, &QComboBox::activated, this, [this] { recompute(); });
    showMessage(tr("Open a trace or a job summary to see what limits it."));
}

OverviewPage::~OverviewPage() = default;

bool OverviewPage::isComputing() const
{
    return m_tasks.isRunning();
}

void OverviewPage::setAnalyses(std::shared_ptr<core::TraceAnalyses> analyses,
    std::optional<core::AnalysisWindow> window, std::optional<core::AnalysisWindow> scopeWindow)
{
    resetIterationsFor(analyses);
    m_analyses = std::move(analyses);
    m_scopeWindow = scopeWindow;
    m_waiting = false;
    m_job.reset();
    m_window = window;
    recompute();
}

void OverviewPage::setTraceSet(
    std::shared_ptr<const core::TraceSet> set, std::optional<core::AnalysisWindow> window)
{
    setAnalyses(
        set && !set->ranks.empty() ? std::make_shared<core::TraceAnalyses>(std::move(set)) : nullptr, window);
}

void OverviewPage::waitForAnalyses(
    std::shared_ptr<core::TraceAnalyses> analyses, std::optional<core::AnalysisWindow> window)
{
    resetIterationsFor(analyses);
    m_tasks.cancel();
    m_analyses = std::move(analyses);
    m_job.reset();
    m_window = window;
    m_waiting = true;
    m_iteration->setVisible(false);
    m_scope->clear();
    clearResult(tr("Waiting for the analyses to finish…"));
}

void OverviewPage::setJob(std::shared_ptr<const core::JobOverview> job)
{
    m_job = std::move(job);
    if (m_job)
        m_analyses.reset();
    m_waiting = false;
    m_iteration->clear();
    recompute();
}

void OverviewPage::recompute()
{
    if (m_waiting)
        return; // setTraceSet starts it, with the analyses' frames
    m_iteration->setVisible(!m_job && m_analyses);
    if (m_job) {
        showMessage(tr("Reading the findings of the job summary…"));
        auto job = m_job;
        m_tasks.start(
            [job](
                const TaskContext&) { return std::make_shared<const OverviewData>(overviewOfSummary(*job)); },
            [this](std::shared_ptr<const OverviewData> data) { show(std::move(data)); },
            [this](const TaskFailure& failure) { showFailure(failure); });
        return;
    }
    if (!m_analyses) {
        m_tasks.cancel();
        m_scope->clear();
        clearResult(tr("Open a trace or a job summary to see what limits it."));
        emit updated();
        return;
    }
    if (m_memoryCheck)
        if (const QString why = m_memoryCheck(*m_analyses, m_scopeWindow); !why.isEmpty()) {
            m_tasks.cancel();
            clearResult(why);
            emit updated();
            return;
        }
    const int chosen =
        m_iteration->currentData().isValid() ? m_iteration->currentData().toInt() : kNoIteration;
    const std::optional<std::int64_t> iteration =
        chosen == kNoIteration ? std::nullopt : std::optional<std::int64_t>(chosen);
    showMessage(tr("Looking for what limits this trace…"));
    auto analyses = m_analyses;
    auto window = m_window;
    auto scopeWindow = m_scopeWindow;
    m_tasks.start(
        [analyses, iteration, window, scopeWindow](const TaskContext& context) {
            return std::make_shared<const OverviewData>(computeOverview(
                *analyses, iteration, window, scopeWindow, context.parallelFor, context.cancel));
        },
        [this](std::shared_ptr<const OverviewData> data) { show(std::move(data)); },
        [this](const TaskFailure& failure) { showFailure(failure); });
}

void OverviewPage::showFailure(const TaskFailure& failure)
{
    // Out of memory, say: nothing stale stays on the page, and whoever waits for a result hears of it.
    clearResult(tr("The overview could not be computed: %1").arg(failure.message));
    emit updated();
}

void OverviewPage::clearResult(const QString& message)
{
    m_data.reset();
    clearLayout(m_headline);
    m_tiles.clear();
    m_tileColumns = 0;
    clearLayout(m_cards);
    showMessage(message);
}

void OverviewPage::resetIterationsFor(const std::shared_ptr<core::TraceAnalyses>& analyses)
{
    if (analyses && m_analyses && analyses->traceSet() == m_analyses->traceSet())
        return; // the same traces: the chosen iteration stays
    m_iteration->clear();
    m_iteration->addItem(tr("All iterations"), kNoIteration);
}

QString OverviewPage::message() const
{
    return m_message->isVisibleTo(this) ? m_message->text() : QString();
}

void OverviewPage::showMessage(const QString& text)
{
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
}

void OverviewPage::show(std::shared_ptr<const OverviewData> data)
{
    m_data = std::move(data);
    m_scope->setText(m_data->scope);
    if (!m_job && m_iteration->count() <= 1)
        for (const std::int64_t i : m_data->iterations)
            m_iteration->addItem(tr("Iteration %1").arg(i), static_cast<int>(i));
    fillHeadline(*m_data);
    fillCards(*m_data);
    showMessage(m_data->error.isEmpty() ? QString() : m_data->error);
    emit updated();
}

void OverviewPage::fillHeadline(const OverviewData& d)
{
    clearLayout(m_headline);
    m_tiles.clear();
    const QString none = QStringLiteral("–");
    QWidget* parent = m_message->parentWidget();
    m_tiles.push_back(tile(tr("Step time"), d.stepTimeUs ? formatUs(*d.stepTimeUs) : none,
        d.stepTimeUs ? tr("mean per iteration over %1 iteration(s) and the ranks").arg(d.iterationCount)
                     : tr("no ProfilerStep iterations"),
        parent));
    m_tiles.push_back(
        tile(tr("GPU busy"), d.gpuBusyPct ? QStringLiteral("%1 %").arg(*d.gpuBusyPct, 0, 'f', 1) : none,
            d.gpuBusyPct ? tr("of the step, mean over ranks") : tr("no GPU work or no iterations"), parent));
    m_tiles.push_back(tile(tr("Exposed communication"),
        d.exposedCommPct ? QStringLiteral("%1 %").arg(*d.exposedCommPct, 0, 'f', 1) : none,
        d.exposedCommPct    ? tr("of the time, on the critical path")
            : d.fromSummary ? tr("needs the ranks' events (open the traces)")
                            : tr("no critical path"),
        parent));
    m_tiles.push_back(tile(tr("MFU"), d.mfuPct ? QStringLiteral("%1 %").arg(*d.mfuPct, 0, 'f', 1) : none,
        d.mfuPct || !d.mfuNote.isEmpty() ? d.mfuNote
            : d.fromSummary              ? tr("needs the ranks' shapes (open the traces)")
                                         : tr("not computed"),
        parent));
    QStringList ranks;
    for (std::size_t i = 0; i < std::min<std::size_t>(6, d.stragglers.size()); ++i)
        ranks << QString::number(d.stragglers[i]);
    if (d.stragglers.size() > 6)
        ranks << QStringLiteral("…");
    m_tiles.push_back(
        tile(tr("Stragglers"), d.stragglers.empty() ? tr("none") : ranks.join(QStringLiteral(", ")),
            d.stragglers.empty() ? tr("no rank holds the others back") : d.stragglerSource, parent));
    // The TensorBoard plugin's DataLoader share of the step (no finding of its own:
    // dataloader_stall's gain already counts what loading costs the path).
    m_tiles.push_back(shareTile(tr("Data loading"), d.dataLoadingPct, tr("of the step, mean over ranks"),
        d.fromSummary, tr("no ProfilerStep iterations"), parent));
    // The plugin's Tensor Core share of compute kernel time (tensor_core_unused says
    // which eligible ops missed them and what moving them gives back).
    m_tiles.push_back(
        shareTile(tr("Tensor Cores"), d.tensorCorePct, tr("of compute kernel time, mean over ranks"),
            d.fromSummary, tr("no compute kernels in the steps"), parent));
    m_tileColumns = 0;
    placeTiles();
}

void OverviewPage::placeTiles()
{
    constexpr int kTileWidth = 165; // wide enough for "Exposed communication" and a three-line detail
    const int tiles = static_cast<int>(m_tiles.size());
    if (tiles == 0)
        return;
    const int columns = std::clamp(width() / kTileWidth, 1, tiles);
    if (columns == m_tileColumns)
        return;
    while (QLayoutItem* item = m_headline->takeAt(0))
        delete item; // the tiles stay: placed again below
    for (int c = 0; c < m_headline->columnCount(); ++c)
        m_headline->setColumnStretch(c, 0);
    for (int i = 0; i < tiles; ++i)
        m_headline->addWidget(m_tiles[static_cast<std::size_t>(i)], i / columns, i % columns);
    for (int c = 0; c < columns; ++c)
        m_headline->setColumnStretch(c, 1);
    m_tileColumns = columns;
}

void OverviewPage::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    placeTiles();
}

void OverviewPage::fillCards(const OverviewData& d)
{
    clearLayout(m_cards);
    QWidget* parent = m_message->parentWidget();
    auto* heading = new QLabel(parent);
    heading->setTextFormat(Qt::RichText);
    heading->setText(d.report.findings.empty()
            ? tr("<b>No finding passed its thresholds.</b>")
            : tr("<b>Findings</b>, by the share of %1 fixing them gives back")
                  .arg(QString::fromStdString(d.report.measuredWhat)));
    m_cards->addWidget(heading);
    if (d.report.firstTwoGainPct) {
        auto* firstTwo = new QLabel(parent);
        firstTwo->setObjectName(QStringLiteral("overviewFirstTwo"));
        firstTwo->setWordWrap(true);
        firstTwo->setText(tr("If you fix the first two: %1 % back (both fixes re-timed together on the "
                             "critical path; time both give back counts once)")
                              .arg(*d.report.firstTwoGainPct, 0, 'f', 1));
        m_cards->addWidget(firstTwo);
    }
    int position = 1;
    for (const core::Finding& f : d.report.findings) {
        auto* card = new FindingCard(f, position++, !d.fromSummary, parent);
        connect(card, &FindingCard::eventRequested, this, &OverviewPage::eventRequested);
        connect(card, &FindingCard::analysisRequested, this, &OverviewPage::analysisRequested);
        connect(card, &FindingCard::rangeRequested, this,
            [this, rank = f.where.empty() ? 0 : f.where.front().rank](
                qint64 start, qint64 end) { emit rangeRequested(rank, start, end); });
        m_cards->addWidget(card);
    }
    if (!d.report.notApplicable.empty()) {
        QStringList lines;
        for (const core::RuleNotApplicable& na : d.report.notApplicable)
            lines << QStringLiteral("<code>%1</code>: %2")
                         .arg(QString::fromStdString(na.rule),
                             QString::fromStdString(na.reason).toHtmlEscaped());
        auto* notApplicable =
            new QLabel(tr("<b>Not applicable here</b><br>") + lines.join(QStringLiteral("<br>")), parent);
        notApplicable->setObjectName(QStringLiteral("overviewNotApplicable"));
        notApplicable->setTextFormat(Qt::RichText);
        notApplicable->setWordWrap(true);
        notApplicable->setForegroundRole(QPalette::PlaceholderText); // secondary text, light or dark
        m_cards->addWidget(notApplicable);
    }
}

void OverviewPage::zoomTimeline(
    const TimelineData& data, TimelineViewState& state, qint64 rank, qint64 start, qint64 end)
{
    for (int r = 0; r < data.rankCount(); ++r) {
        if (data.trace(r).rank != rank)
            continue;
        const TimeNs offset = data.offset(r, state.alignment());
        state.setVisibleRange(TimeRange { start - offset, end - offset });
        return;
    }
}

} // namespace ks::widgets
