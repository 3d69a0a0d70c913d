#include "widgets/memory_snapshot/snapshot_view.h"

#include "core/analysis/memory_snapshot/allocator_state.h"
#include "widgets/charts/analysis_chart.h"
#include "widgets/common/format.h"
#include "widgets/common/task_tracker.h"
#include "widgets/memory_snapshot/active_memory_plot.h"
#include "widgets/memory_snapshot/allocator_state_widget.h"
#include "widgets/memory_snapshot/snapshot_event_model.h"
#include "widgets/memory_snapshot/snapshot_overlay_chart.h"
#include "widgets/memory_snapshot/snapshot_steps_page.h"
#include "widgets/memory_snapshot/snapshot_tables.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ks::widgets {

namespace {

    // What a load or a comparison hands back: the data, or the line to show.
    struct Loaded
    {
        SnapshotViewDataPtr data;
        QString error;
    };

    // A comparison's result: the second snapshot, the difference and both curves per device.
    struct Compared
    {
        Loaded other;
        std::vector<core::DeviceComparison> comparison;
        std::vector<core::SnapshotOverlay> overlayTime; // OverlayAxis::Time
        std::vector<core::SnapshotOverlay> overlaySteps; // OverlayAxis::Steps
    };

    Loaded load(const std::string& path, const TaskContext& context)
    {
        auto result = loadSnapshotViewData(path, context.cancel);
        if (!result)
            return { nullptr, toQString(result.error().describe()) };
        return { std::make_shared<const SnapshotViewData>(std::move(result).value()), QString() };
    }

    QString swatch(const char* color, const QString& label)
    {
        return QStringLiteral("<span style=\"color:%1\">&#9632;</span>&nbsp;%2")
            .arg(QLatin1String(color), label.toHtmlEscaped());
    }

    QLabel* makeLine(QWidget* parent, const char* name)
    {
        auto* label = new QLabel(parent);
        label->setObjectName(QLatin1String(name));
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        return label;
    }

} // namespace

SnapshotView::SnapshotView(TaskPools* pools, QWidget* parent)
    : QWidget(parent)
    , m_loadTasks(std::make_unique<TaskTracker>(pools, this))
    , m_stateTasks(std::make_unique<TaskTracker>(pools, this))
    , m_compareTasks(std::make_unique<TaskTracker>(pools, this))
    , m_alignTasks(std::make_unique<TaskTracker>(pools, this))
{
    setupWidgets();
    setupConnections();
    showMessage(tr("Open a memory snapshot (the .pickle of torch.cuda.memory._dump_snapshot()) with File > "
                   "Open File, or drop it on the window."));
}

SnapshotView::~SnapshotView() = default;

void SnapshotView::setupWidgets()
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout;
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("snapshotTitle"));
    m_title->setTextFormat(Qt::RichText);
    m_deviceChooser = new QComboBox(this);
    m_deviceChooser->setObjectName(QStringLiteral("snapshotDeviceChooser"));
    m_deviceChooser->hide();
    m_compareButton = new QPushButton(tr("Compare with…"), this);
    m_compareButton->setObjectName(QStringLiteral("snapshotCompareButton"));
    m_compareButton->setToolTip(tr("Open a second snapshot (after a change) and compare it with this one"));
    m_compareButton->setEnabled(false);
    top->addWidget(m_title, 1);
    top->addWidget(m_deviceChooser);
    top->addWidget(m_compareButton);
    layout->addLayout(top);
    m_summary = makeLine(this, "snapshotSummary");
    layout->addWidget(m_summary);
    m_message = makeLine(this, "snapshotMessage");
    m_message->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    layout->addWidget(m_message);

    // Side by side: in the navigator's bottom row at 1280x800 a stacked plot
    // and table would each get too few lines.
    m_content = new QSplitter(Qt::Horizontal, this);
    m_plot = new ActiveMemoryPlot(m_content);
    m_plot->setObjectName(QStringLiteral("snapshotTimeline"));
    m_content->addWidget(m_plot);
    m_content->addWidget(setupTabs());
    m_content->setStretchFactor(0, 3);
    m_content->setStretchFactor(1, 2);
    m_content->setSizes({ 3000, 2000 }); // shared in these proportions whatever the width
    layout->addWidget(m_content, 1);
}

QWidget* SnapshotView::setupTabs()
{
    m_tabs = new QTabWidget(m_content);
    m_tabs->setObjectName(QStringLiteral("snapshotTabs"));
    m_tabs->setDocumentMode(true);
    // Five tabs in a third of 1280 px: every one stays in view, the longest names
    // shortened, rather than a scrolled bar that hides the first.
    m_tabs->setUsesScrollButtons(false);
    m_tabs->setElideMode(Qt::ElideRight);

    auto* statePage = new QWidget(m_tabs);
    auto* stateLayout = new QVBoxLayout(statePage);
    stateLayout->setContentsMargins(2, 2, 2, 2);
    m_stateLine = makeLine(statePage, "snapshotStateLine");
    m_stateLine->setTextFormat(Qt::RichText);
    stateLayout->addWidget(m_stateLine);
    auto* scroll = new QScrollArea(statePage);
    scroll->setWidgetResizable(true);
    m_state = new AllocatorStateWidget(scroll);
    m_state->setObjectName(QStringLiteral("snapshotAllocatorState"));
    scroll->setWidget(m_state);
    stateLayout->addWidget(scroll, 1);
    m_tabs->addTab(statePage, tr("Allocator state"));

    m_events = new QTableView(m_tabs);
    m_events->setObjectName(QStringLiteral("snapshotEvents"));
    m_eventModel = new SnapshotEventModel(m_events);
    m_events->setModel(m_eventModel);
    m_events->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_events->setSelectionMode(QAbstractItemView::SingleSelection);
    m_events->verticalHeader()->hide();
    // Fixed row heights: the list may hold a million events.
    m_events->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_events->verticalHeader()->setDefaultSectionSize(m_events->fontMetrics().height() + 4);
    m_events->horizontalHeader()->setStretchLastSection(true);
    m_events->setWordWrap(false);
    m_tabs->addTab(m_events, tr("Events"));

    auto* peakPage = new QWidget(m_tabs);
    auto* peakLayout = new QVBoxLayout(peakPage);
    peakLayout->setContentsMargins(2, 2, 2, 2);
    m_peakLine = makeLine(peakPage, "snapshotPeakLine");
    peakLayout->addWidget(m_peakLine);
    m_peak = new QTableWidget(peakPage);
    m_peak->setObjectName(QStringLiteral("snapshotPeakByFrame"));
    peakLayout->addWidget(m_peak, 1);
    m_tabs->addTab(peakPage, tr("Peak by frame"));

    m_stepsPage = new SnapshotStepsPage(m_tabs);
    m_stepsPage->setObjectName(QStringLiteral("snapshotStepsPage"));
    m_tabs->addTab(m_stepsPage, tr("Steps"));

    m_comparePage = new QWidget(m_tabs);
    auto* compareLayout = new QVBoxLayout(m_comparePage);
    compareLayout->setContentsMargins(2, 2, 2, 2);
    m_compareLine = makeLine(m_comparePage, "snapshotCompareLine");
    compareLayout->addWidget(m_compareLine);
    auto* axisRow = new QHBoxLayout;
    axisRow->addWidget(new QLabel(tr("Curves over:"), m_comparePage));
    m_compareAxis = new QComboBox(m_comparePage);
    m_compareAxis->setObjectName(QStringLiteral("snapshotCompareAxis"));
    m_compareAxis->addItem(tr("time"));
    m_compareAxis->addItem(tr("memory_viz's steps (event order)"));
    m_compareAxis->setToolTip(tr("Time lines both runs up at the range they both annotate (else at their "
                                 "first events); steps line up the same sequence of allocations and frees"));
    axisRow->addWidget(m_compareAxis);
    axisRow->addStretch(1);
    compareLayout->addLayout(axisRow);
    auto* compareSplit = new QSplitter(Qt::Vertical, m_comparePage);
    // Both runs' active memory on one axis first: where in the step the difference appears.
    m_compareChart = new AnalysisChart(compareSplit);
    m_compareChart->setObjectName(QStringLiteral("snapshotCompareChart"));
    // The wheel zooms and a drag pans along x only: memory stays on its full scale.
    m_compareChart->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_compareChart->axisRect()->setRangeDrag(Qt::Horizontal);
    m_compareChart->axisRect()->setRangeZoom(Qt::Horizontal);
    compareSplit->addWidget(m_compareChart);
    m_compareTotals = new QTableWidget(compareSplit);
    m_compareTotals->setObjectName(QStringLiteral("snapshotCompareTotals"));
    m_compareFrames = new QTableWidget(compareSplit);
    m_compareFrames->setObjectName(QStringLiteral("snapshotCompareFrames"));
    compareSplit->addWidget(m_compareTotals);
    compareSplit->addWidget(m_compareFrames);
    compareLayout->addWidget(compareSplit, 1);
    m_comparePage->hide(); // a tab only once a second snapshot is given
    return m_tabs;
}

void SnapshotView::setupConnections()
{
    connect(m_plot, &ActiveMemoryPlot::eventPicked, this, &SnapshotView::selectRow);
    connect(
        m_events, &QTableView::clicked, this, [this](const QModelIndex& index) { selectRow(index.row()); });
    connect(m_deviceChooser, &QComboBox::activated, this, &SnapshotView::setDeviceIndex);
    connect(m_compareButton, &QPushButton::clicked, this, &SnapshotView::compareRequested);
    connect(m_stepsPage, &SnapshotStepsPage::rangeActivated, this, &SnapshotView::selectRange);
    connect(m_stepsPage, &SnapshotStepsPage::rankChosen, this, &SnapshotView::setTraceRank);
    connect(m_plot, &ActiveMemoryPlot::markPicked, this, [this](int mark) {
        m_tabs->setCurrentWidget(m_stepsPage);
        selectRange(m_plot->marks()[std::size_t(mark)].range);
    });
    // The Steps and Comparison tabs' tables of numbers need the room; the others leave it to the plot.
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        const bool wide = m_tabs->currentWidget() == m_stepsPage || m_tabs->currentWidget() == m_comparePage;
        m_content->setSizes(wide ? QList<int> { 2000, 3000 } : QList<int> { 3000, 2000 });
    });
    connect(m_compareAxis, &QComboBox::currentIndexChanged, this, [this] {
        if (m_other)
            showComparison();
    });
}

void SnapshotView::showMessage(const QString& text)
{
    m_message->setText(text);
    m_message->show();
    m_summary->hide();
    m_content->hide();
}

QString SnapshotView::messageText() const
{
    return m_message->isVisibleTo(this) ? m_message->text() : QString();
}

QString SnapshotView::summaryText() const
{
    return m_summary->text();
}

QString SnapshotView::stateText() const
{
    return m_stateLine->text();
}

QString SnapshotView::comparisonText() const
{
    return m_compareLine->text();
}

bool SnapshotView::isBusy() const
{
    return m_loadTasks->isRunning() || m_compareTasks->isRunning() || m_stateTasks->isRunning()
        || m_alignTasks->isRunning();
}

bool SnapshotView::isReading() const
{
    return m_loadTasks->isRunning();
}

void SnapshotView::openSnapshot(const QString& path)
{
    m_path = path;
    m_compareTasks->cancel();
    m_stateTasks->cancel();
    m_alignTasks->cancel();
    m_steps = nullptr;
    m_title->setText(QStringLiteral("<b>%1</b>").arg(displayName(path).toHtmlEscaped()));
    showMessage(tr("Reading %1…").arg(displayName(path)));
    m_compareButton->setEnabled(false);
    m_loadTasks->start(
        [file = path.toStdString()](const TaskContext& context) { return load(file, context); },
        [this](Loaded result) {
            if (!result.data) {
                m_data = nullptr;
                showMessage(result.error);
                emit failed(result.error);
                return;
            }
            showData(std::move(result.data));
            emit loaded();
        },
        [this, path](const TaskFailure& failure) {
            const QString text = tr("%1: %2").arg(displayName(path), failure.message);
            m_data = nullptr;
            showMessage(text);
            emit failed(text);
        });
}

void SnapshotView::showData(SnapshotViewDataPtr data)
{
    m_data = std::move(data);
    m_steps = nullptr;
    m_other = nullptr;
    m_comparison.clear();
    m_overlayTime.clear();
    m_overlaySteps.clear();
    if (const int at = m_tabs->indexOf(m_comparePage); at >= 0)
        m_tabs->removeTab(at);
    m_deviceChooser->clear();
    for (const core::DeviceSnapshotSummary& d : m_data->summary->devices)
        m_deviceChooser->addItem(tr("Device %1").arg(d.device));
    m_deviceChooser->setVisible(m_data->devices.size() > 1);
    m_device = m_data->defaultDevice;
    m_deviceChooser->setCurrentIndex(m_device);
    m_compareButton->setEnabled(true);
    m_message->hide();
    m_summary->show();
    m_content->show();
    showDevice();
    m_traceRank = -1; // another snapshot may be another rank's
    align();
}

void SnapshotView::setDeviceIndex(int index)
{
    if (!m_data || index < 0 || index >= int(m_data->devices.size()))
        return;
    m_device = index;
    m_deviceChooser->setCurrentIndex(index);
    showDevice();
    if (m_other)
        showComparison();
}

void SnapshotView::showDevice()
{
    const core::DeviceSnapshotSummary& d = m_data->summaryOf(m_device);
    m_plot->setData(m_data, m_device);
    m_eventModel->setSnapshot(m_data, m_device);
    m_events->resizeColumnsToContents();
    updateSummary();
    const core::ActiveMemoryTimeline& t = d.timeline;
    m_peakLine->setText(tr("At the peak (%1 live in %2 allocations%3), by the program's own frame:")
                            .arg(formatBytes(t.peakAllocated))
                            .arg(t.liveAtPeak.size())
                            .arg(t.peakAtInitial ? tr(", before the first event")
                                                 : tr(", after event %1").arg(t.peakEventIdx)));
    fillPeakByFrame(*m_peak, m_data->devices[std::size_t(m_device)].peakByFrame);
    showSteps(); // after the plot's setData, which clears its marks
    // memory_viz opens the state on the last event: the snapshot itself.
    selectRow(int(t.rows.size()) - 1);
}

void SnapshotView::updateSummary()
{
    const core::DeviceSnapshotSummary& d = m_data->summaryOf(m_device);
    const core::SnapshotDeviceTotals totals = core::deviceTotals(d);
    QString line =
        tr("Device %1: %2 reserved · %3 allocated · %4 active · %5 segments (%6 blocks) · "
           "fragmentation %7 · peak %8 allocated")
            .arg(d.device)
            .arg(formatBytes(totals.reserved), formatBytes(totals.allocated), formatBytes(totals.active))
            .arg(totals.segments)
            .arg(totals.blocks)
            .arg(QString::number(d.segments.fragmentation, 'f', 3), formatBytes(totals.peakAllocated));
    if (totals.peakReserved > 0)
        line += tr(", %1 reserved").arg(formatBytes(totals.peakReserved));
    line += tr(" · %1 events").arg(formatCount(d.trace.events));
    if (totals.oomEvents > 0)
        line += tr(" · %1 out of memory").arg(totals.oomEvents);
    if (m_data->devices[std::size_t(m_device)].bands.truncated)
        line += tr(" · too many allocations to draw one by one: the timeline shows their total");
    m_summary->setText(line);
}

void SnapshotView::selectRow(int row)
{
    if (!m_data)
        return;
    const core::ActiveMemoryTimeline& t = m_data->summaryOf(m_device).timeline;
    if (row < 0 || std::size_t(row) >= t.rows.size()) {
        m_row = -1;
        m_plot->setSelectedRow(-1);
        m_stateLine->setText(tr("The device's trace holds no event."));
        m_state->setState(nullptr, nullptr);
        return;
    }
    m_row = row;
    m_plot->setSelectedRow(row);
    m_events->selectRow(row);
    m_events->scrollTo(m_eventModel->index(row, 0));
    m_stateLine->setText(tr("Computing the allocator's state…"));
    const std::int64_t device = t.device;
    m_stateTasks->start(
        [data = m_data, device, row](const TaskContext&) {
            return std::make_shared<const core::AllocatorState>(
                core::allocatorStateAt(*data->snapshot, device, row));
        },
        [this, row](std::shared_ptr<const core::AllocatorState> state) {
            const core::TimelineRow& r = m_data->summaryOf(m_device).timeline.rows[std::size_t(row)];
            const core::TraceEntry& e =
                m_data->snapshot->trace(m_data->summaryOf(m_device).device)[r.event.raw];
            m_stateLine->setText(
                tr("After event %1 (%2 %3): <b>%4 allocated / %5 reserved</b> · %6 lost to rounding · %7 "
                   "pending free · %8 segments, %9 blocks<br>")
                    .arg(r.event.raw)
                    .arg(QString::fromLatin1(core::traceActionName(r.event.action)), formatBytes(e.size),
                        formatBytes(state->allocated), formatBytes(state->reserved),
                        formatBytes(state->roundingLoss), formatBytes(state->pendingFreeBytes))
                    .arg(state->segments.size())
                    .arg(state->blocks.size())
                + swatch("#4e79a7", tr("allocated")) + QStringLiteral(" &nbsp; ")
                + swatch("#1c3c64", tr("lost to rounding")) + QStringLiteral(" &nbsp; ")
                + swatch("#f28e2b", tr("pending free")) + QStringLiteral(" &nbsp; ")
                + swatch("#c8c8c8", tr("free (cached)")));
            m_state->setState(std::move(state), m_data->snapshot);
            emit stateShown();
        },
        [this](const TaskFailure& failure) {
            m_stateLine->setText(tr("Could not compute the allocator's state: %1").arg(failure.message));
        });
}

void SnapshotView::compareWith(const QString& path)
{
    if (!m_data)
        return;
    m_compareLine->setText(tr("Reading %1…").arg(displayName(path)));
    if (m_tabs->indexOf(m_comparePage) < 0)
        m_tabs->addTab(m_comparePage, tr("Comparison"));
    m_tabs->setCurrentWidget(m_comparePage); // four columns of numbers beside frame names: the wide split
    m_compareTasks->start(
        [file = path.toStdString(), base = m_data](const TaskContext& context) {
            Compared out { load(file, context), {}, {}, {} };
            if (out.other.data) {
                out.comparison = compareViewData(*base, *out.other.data);
                out.overlayTime = overlayViewData(*base, *out.other.data, core::OverlayAxis::Time);
                out.overlaySteps = overlayViewData(*base, *out.other.data, core::OverlayAxis::Steps);
            }
            return out;
        },
        [this](Compared result) {
            if (!result.other.data) {
                m_compareLine->setText(result.other.error);
                emit comparisonFailed(result.other.error);
                return;
            }
            m_other = std::move(result.other.data);
            m_comparison = std::move(result.comparison);
            m_overlayTime = std::move(result.overlayTime);
            m_overlaySteps = std::move(result.overlaySteps);
            // What the CLI's Auto picks: time only where both runs annotate a range in common.
            const bool timed = !m_overlayTime.empty() && m_overlayTime.front().byTime
                && !m_overlayTime.front().alignedBy.empty();
            const QSignalBlocker quiet(m_compareAxis);
            m_compareAxis->setCurrentIndex(timed ? 0 : 1);
            showComparison();
            emit comparisonShown();
        },
        [this, path](const TaskFailure& failure) {
            const QString text = tr("%1: %2").arg(displayName(path), failure.message);
            m_compareLine->setText(text);
            emit comparisonFailed(text);
        });
}

void SnapshotView::showComparison()
{
    const std::int64_t device = m_data->summaryOf(m_device).device;
    const auto it = std::find_if(m_comparison.begin(), m_comparison.end(),
        [device](const core::DeviceComparison& c) { return c.device == device; });
    if (it == m_comparison.end()) {
        m_compareLine->setText(
            tr("%1 has no device %2.").arg(displayName(toQString(m_other->path))).arg(device));
        m_compareTotals->clear();
        m_compareFrames->clear();
        showOverlay(nullptr);
        return;
    }
    const auto peakDelta = std::int64_t(it->after.peakAllocated) - std::int64_t(it->before.peakAllocated);
    m_compareLine->setText(tr("Before: %1 (peak %2) · after: %3 (peak %4) · the peak changed by %5")
                               .arg(displayName(m_path), formatBytes(it->before.peakAllocated),
                                   displayName(toQString(m_other->path)),
                                   formatBytes(it->after.peakAllocated), signedBytes(peakDelta)));
    fillComparisonTotals(*m_compareTotals, *it);
    fillComparisonFrames(*m_compareFrames, it->peakByFrame);
    const std::vector<core::SnapshotOverlay>& curves =
        m_compareAxis->currentIndex() == 0 ? m_overlayTime : m_overlaySteps;
    const auto overlay = std::find_if(curves.begin(), curves.end(),
        [device](const core::SnapshotOverlay& o) { return o.device == device; });
    showOverlay(overlay == curves.end() ? nullptr : &*overlay);
}

void SnapshotView::showOverlay(const core::SnapshotOverlay* overlay)
{
    m_compareChart->reset();
    m_overlayItems = {};
    if (overlay)
        m_overlayItems = buildSnapshotOverlayChart(
            *m_compareChart, *overlay, displayName(m_path), displayName(toQString(m_other->path)));
    m_compareChart->replot();
}

bool SnapshotView::showTab(const QString& name)
{
    QWidget* page = name == QStringLiteral("state") ? m_tabs->widget(0)
        : name == QStringLiteral("events")          ? m_tabs->widget(1)
        : name == QStringLiteral("peak")            ? m_tabs->widget(2)
        : name == QStringLiteral("steps")           ? m_stepsPage
        : name == QStringLiteral("compare")         ? m_comparePage
                                                    : nullptr;
    if (!page || m_tabs->indexOf(page) < 0)
        return false;
    m_tabs->setCurrentWidget(page);
    return true;
}

} // namespace ks::widgets
