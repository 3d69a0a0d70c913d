#include "widgets/memory/memory_view.h"

#include "core/analysis/memory/memory_tables.h"
#include "widgets/analysis/analysis_table_view.h"
#include "widgets/common/format.h"
#include "widgets/common/task_tracker.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace ks::widgets {

namespace {

    // What one request gives: the rank's data, or why there is none.
    struct Computed
    {
        MemoryViewData data;
        QString error;
    };

    QString noMemoryEventsLine()
    {
        return MemoryView::tr("No [memory] events: record with torch.profiler.profile(profile_memory=True)");
    }

    QString bytes(std::int64_t b)
    {
        return formatBytes(std::uint64_t(std::max<std::int64_t>(b, 0)));
    }

    // The device column as narrow as its names and op names at most kOperatorWidth:
    // the sizes and times beside them stay on screen in the half of a 1280-pixel page.
    void fitNameColumns(AnalysisTableView& table)
    {
        constexpr int kOperatorWidth = 180;
        QTableView* view = table.view();
        if (const auto device = table.table()->find(core::memory_columns::kDevice))
            view->resizeColumnToContents(int(*device));
        if (const auto op = table.table()->find(core::memory_columns::kOperator)) {
            view->resizeColumnToContents(int(*op));
            view->setColumnWidth(int(*op), std::min(view->columnWidth(int(*op)), kOperatorWidth));
        }
        view->setTextElideMode(Qt::ElideMiddle); // long op names keep both ends (hover for all of it)
    }

    QString milliseconds(double ms)
    {
        return formatDurationReal(ms * 1e6);
    }

    // One device's headline: its peaks, when, in which op, and what it still held at the end.
    QString deviceLine(const MemoryViewData& data, const core::DeviceMemorySummary& d)
    {
        QString line = MemoryView::tr("%1: peak %2 allocated")
                           .arg(QString::fromStdString(d.device), bytes(d.peakAllocated));
        if (d.capacity && *d.capacity > 0)
            line += MemoryView::tr(" (%1 of %2)")
                        .arg(formatPercent(100.0 * double(d.peakAllocated) / double(*d.capacity)),
                            bytes(*d.capacity));
        if (d.peakReserved > 0)
            line += MemoryView::tr(", %1 reserved").arg(bytes(d.peakReserved));
        if (d.peakTime)
            line += MemoryView::tr(" at %1").arg(milliseconds(msSinceOrigin(data, *d.peakTime)));
        if (!d.peakOp.empty())
            line += MemoryView::tr(" in %1").arg(QString::fromStdString(d.peakOp).toHtmlEscaped());
        if (d.liveAtEndCount > 0)
            line += MemoryView::tr("; %1 in %2 allocations never freed")
                        .arg(bytes(d.liveAtEndBytes))
                        .arg(d.liveAtEndCount);
        return line;
    }

} // namespace

MemoryView::MemoryView(TaskPools* pools, QWidget* parent)
    : QWidget(parent)
    , m_tasks(std::make_unique<TaskTracker>(pools, this))
{
    setupWidgets();
    setupConnections();
    showMessage(tr("Open a trace to see this analysis."));
}

MemoryView::~MemoryView() = default;

void MemoryView::setupWidgets()
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_rankRow = new QWidget(this);
    auto* rankLayout = new QHBoxLayout(m_rankRow);
    rankLayout->setContentsMargins(2, 0, 2, 0);
    auto* rankLabel = new QLabel(tr("Rank:"), m_rankRow);
    m_rankChooser = new QComboBox(m_rankRow);
    m_rankChooser->setObjectName(QStringLiteral("memoryRankChooser"));
    rankLabel->setBuddy(m_rankChooser);
    rankLayout->addWidget(rankLabel);
    rankLayout->addWidget(m_rankChooser);
    rankLayout->addStretch(1);
    m_rankRow->hide();
    layout->addWidget(m_rankRow);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("memorySummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("memoryMessage"));
    m_message->setWordWrap(true);
    m_message->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_message);

    // Side by side: at 1280x800 the navigator's page has room for a readable plot
    // or for the tables under it, not both.
    m_content = new QSplitter(Qt::Horizontal, this);
    m_chart = new AnalysisChart(m_content);
    m_chart->setObjectName(QStringLiteral("memoryChart"));
    m_chart->setMinimumWidth(320); // its height: AnalysisChart::minimumSizeHint
    // A drag on the chart selects a time range (the view filters its tables to it).
    m_chart->setSelectionRectMode(QCP::srmCustom);
    auto* tables = new QWidget(m_content);
    auto* tablesLayout = new QVBoxLayout(tables);
    tablesLayout->setContentsMargins(0, 0, 0, 0);
    m_rangeLine = new QLabel(tables);
    m_rangeLine->setObjectName(QStringLiteral("memoryRange"));
    m_rangeLine->setWordWrap(true);
    tablesLayout->addWidget(m_rangeLine);
    m_tabs = new QTabWidget(tables);
    m_tabs->setObjectName(QStringLiteral("memoryTables"));
    m_tabs->setDocumentMode(true);
    m_allocations = new AnalysisTableView(m_tabs);
    m_allocations->setObjectName(QStringLiteral("memoryAllocations"));
    m_stats = new AnalysisTableView(m_tabs);
    m_stats->setObjectName(QStringLiteral("memoryStats"));
    m_tabs->addTab(m_allocations, tr("Allocations"));
    m_tabs->addTab(m_stats, tr("Per operator"));
    tablesLayout->addWidget(m_tabs, 1);
    m_content->addWidget(m_chart);
    m_content->addWidget(tables);
    m_content->setStretchFactor(0, 1);
    m_content->setStretchFactor(1, 1);
    m_content->setSizes({ 450, 450 });
    layout->addWidget(m_content, 1);
}

void MemoryView::setupConnections()
{
    connect(m_rankChooser, &QComboBox::activated, this, &MemoryView::setRankIndex);
    connect(m_chart->selectionRect(), &QCPSelectionRect::accepted, this,
        [this](const QRect& rect, QMouseEvent*) { onChartRangeDragged(rect); });
    connect(m_rangeLine, &QLabel::linkActivated, this, [this] {
        setRange(std::nullopt);
        emit rangeSelected(std::nullopt);
    });
    connect(m_allocations->view(), &QTableView::clicked, this, &MemoryView::activateAllocation);
    connect(m_chart, &AnalysisChart::exportRequested, this, &MemoryView::chartExportRequested);
    connect(m_allocations, &AnalysisTableView::exportCsvRequested, this,
        [this] { emit tableExportRequested(m_allocations); });
    connect(m_stats, &AnalysisTableView::exportCsvRequested, this,
        [this] { emit tableExportRequested(m_stats); });
}

void MemoryView::showMessage(const QString& text)
{
    m_message->setText(text);
    m_message->setVisible(true);
    m_summary->clear();
    m_summary->hide();
    m_content->setVisible(false);
}

QString MemoryView::messageText() const
{
    return m_message->isVisibleTo(this) ? m_message->text() : QString();
}

QString MemoryView::summaryText() const
{
    return m_summary->text();
}

QString MemoryView::rangeText() const
{
    return m_rangeLine->text();
}

void MemoryView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_pending)
        compute();
}

void MemoryView::setAnalyses(std::shared_ptr<core::TraceAnalyses> analyses)
{
    m_analyses = std::move(analyses);
    m_data = {};
    m_items = {}; // the next result draws a fresh chart
    m_range.reset();
    m_rankIndex = 0;
    m_rankChooser->clear();
    if (m_analyses)
        for (const auto& rank : m_analyses->traces().ranks)
            m_rankChooser->addItem(tr("rank %1").arg(rank->rank));
    m_rankRow->setVisible(m_rankChooser->count() > 1);
    compute();
}

void MemoryView::setRange(std::optional<core::MemoryRange> range)
{
    if (range && range->end < range->start)
        range.reset();
    if (range == m_range)
        return;
    m_range = range;
    compute();
}

void MemoryView::setRankIndex(int index)
{
    if (index == m_rankIndex || index < 0 || index >= m_rankChooser->count())
        return;
    m_rankIndex = index;
    m_rankChooser->setCurrentIndex(index);
    compute();
}

void MemoryView::compute()
{
    if (!m_analyses || m_analyses->traces().ranks.empty()) {
        m_tasks->cancel();
        showMessage(tr("Open a trace to see this analysis."));
        return;
    }
    // Hidden (another view is chosen): the report is asked for when the view is shown,
    // so a load does not re-read every file for a view nobody looks at.
    if (!isVisible()) {
        m_tasks->cancel();
        m_pending = true;
        return;
    }
    m_pending = false;
    if (!m_data.report)
        showMessage(tr("Computing…"));
    else
        m_rangeLine->setText(tr("Computing…"));
    const auto rankIndex = std::size_t(m_rankIndex);
    const std::int64_t rankNumber = m_analyses->traces().ranks[rankIndex]->rank;
    const core::TimeNs origin = m_analyses->traces().startNs(); // the timeline's 0
    m_tasks->start(
        [analyses = m_analyses, range = m_range, rankIndex, rankNumber, origin](const TaskContext& context) {
            const core::SessionWork work { context.parallelFor, context.cancel, {} };
            // The whole trace's report, shared with the CLI's defaults and the memory rules.
            auto full = analyses->memory(core::MemoryOptions {}, work);
            if (!full)
                return Computed { {}, QString::fromStdString(full.error().message) };
            std::shared_ptr<const core::MemoryReport> ranged;
            if (range) {
                core::MemoryOptions options;
                options.range = range;
                options.ranks = { rankNumber };
                auto r = analyses->memory(options, work);
                if (!r)
                    return Computed { {}, QString::fromStdString(r.error().message) };
                ranged = std::move(r).value();
            }
            const core::RankMemory* rangedRank =
                ranged && !ranged->ranks.empty() ? &ranged->ranks.front() : nullptr;
            return Computed {
                buildMemoryViewData(std::move(full).value(), rankIndex, rangedRank, range, origin), {}
            };
        },
        [this](Computed computed) {
            if (!computed.error.isEmpty())
                showMessage(tr("Could not compute: %1").arg(computed.error));
            else
                showData(std::move(computed.data));
            emit this->computed();
        },
        [this](const TaskFailure& failure) {
            showMessage(tr("Could not compute: %1").arg(failure.message));
            emit computed();
        });
}

void MemoryView::showData(MemoryViewData data)
{
    const bool sameCurves =
        m_data.report == data.report && m_data.rankIndex == data.rankIndex && m_items.range;
    m_data = std::move(data);
    const core::RankMemory* rank = m_data.rank();
    if (!m_data.report->anyRecords() || !rank) {
        showMessage(noMemoryEventsLine());
        return;
    }
    if (rank->error) {
        showMessage(tr("Could not read the [memory] events of rank %1: %2")
                        .arg(rank->rank)
                        .arg(QString::fromStdString(*rank->error)));
        return;
    }
    if (rank->records == 0) {
        showMessage(
            tr("No [memory] events on rank %1: record with torch.profiler.profile(profile_memory=True)")
                .arg(rank->rank));
        return;
    }
    QStringList lines;
    for (const core::DeviceMemorySummary& d : rank->devices)
        lines << deviceLine(m_data, d);
    m_summary->setText(lines.join(QStringLiteral("<br>")));
    m_summary->setVisible(true);
    m_message->hide();
    // A new range keeps the chart as drawn and moves its shade; a new rank or load draws it again.
    if (!sameCurves) {
        m_chart->reset();
        m_items = buildMemoryChart(*m_chart, m_data);
    } else {
        showMemoryRange(*m_chart, m_items, m_data);
    }
    m_chart->replot(QCustomPlot::rpQueuedReplot);
    m_allocations->setTable(m_data.allocations, &m_data.allocations->result.frame);
    m_stats->setTable(m_data.stats, &m_data.stats->result.frame);
    fitNameColumns(*m_allocations);
    fitNameColumns(*m_stats);
    m_tabs->setTabText(
        0, tr("Allocations (%1)").arg(formatCount(m_data.allocations->result.frame.rows.size())));
    m_tabs->setTabText(1, tr("Per operator (%1)").arg(formatCount(m_data.stats->result.frame.rows.size())));
    updateRangeText();
    m_content->setVisible(true);
}

void MemoryView::updateRangeText()
{
    const core::RankMemory* rank = m_data.rank();
    const std::size_t shown = m_data.allocations ? m_data.allocations->result.frame.rows.size() : 0;
    if (!m_data.range || !rank) {
        m_rangeLine->setText(
            tr("The whole trace: %1 allocations. Drag on the chart or select a range on the timeline "
               "to keep a time range's.")
                .arg(formatCount(shown)));
        return;
    }
    const double start = msSinceOrigin(m_data, m_data.range->start);
    const double end = msSinceOrigin(m_data, m_data.range->end);
    m_rangeLine->setText(tr("%1 to %2: %3 of %4 allocations live in it, the statistics of the records inside "
                            "it · <a href=\"clear\">whole trace</a>")
                             .arg(milliseconds(start), milliseconds(end), formatCount(shown),
                                 formatCount(m_data.totalAllocations)));
}

void MemoryView::activateAllocation(const QModelIndex& proxyIndex)
{
    const core::RankMemory* rank = m_data.rank();
    const QModelIndex source = m_allocations->proxy()->mapToSource(proxyIndex);
    if (!rank || !source.isValid() || std::size_t(source.row()) >= m_data.allocationRows.size())
        return;
    const core::AllocationRow& row = rank->allocations[m_data.allocationRows[std::size_t(source.row())]];
    if (!row.allocated && !row.released)
        return;
    emit allocationActivated(row.allocated.value_or(*row.released), row.released.value_or(*row.allocated));
}

void MemoryView::onChartRangeDragged(const QRect& pixels)
{
    const core::RankMemory* rank = m_data.rank();
    if (!rank)
        return;
    const double a = m_chart->xAxis->pixelToCoord(pixels.left());
    const double b = m_chart->xAxis->pixelToCoord(pixels.right());
    std::optional<core::MemoryRange> range;
    if (std::abs(pixels.width()) >= 3) { // a click clears, a drag selects
        const core::TimeNs origin = m_data.origin;
        const auto ns = [origin](double ms) { return origin + core::TimeNs(std::llround(ms * 1e6)); };
        range = core::MemoryRange { ns(std::min(a, b)), ns(std::max(a, b)) };
    }
    setRange(range);
    emit rangeSelected(range);
}

} // namespace ks::widgets
