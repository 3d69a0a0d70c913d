#include "app/gui/compare_window.h"

#include "app/gui/opening/load_progress_bar.h"
#include "core/analysis/hta/trace_diff.h"
#include "widgets/charts/analysis_export.h"
#include "widgets/common/message_bar.h"
#include "widgets/common/task_pools.h"
#include "widgets/diff/diff_filter_proxy.h"
#include "widgets/diff/diff_table_model.h"
#include "widgets/diff/iteration_alignment.h"
#include "widgets/diff/name_matches.h"
#include "widgets/diff/timeline_sync.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/view/timeline_view.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <iterator>

namespace ks::app {

using widgets::TimeNs;

namespace {

    constexpr int kControl = 0;
    constexpr int kTest = 1;

    QString sideName(int side)
    {
        return side == kControl ? CompareWindow::tr("Control") : CompareWindow::tr("Test");
    }

    // The position in the set of the rank numbered `rank`; 0 when absent.
    int rankIndex(const core::TraceSet& set, std::int64_t rank)
    {
        for (std::size_t i = 0; i < set.ranks.size(); ++i) {
            if (set.ranks[i]->rank == rank)
                return static_cast<int>(i);
        }
        return 0;
    }

} // namespace

CompareWindow::CompareWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_pools(std::make_unique<widgets::TaskPools>())
{
    setWindowTitle(tr("Compare Traces — Kinetoscope"));
    setAttribute(Qt::WA_DeleteOnClose, false);
    for (int side = 0; side < 2; ++side) {
        m_sides[side] = new CompareSideLoader(m_pools.get(), this);
        m_states[side] = new widgets::TimelineViewState(this);
    }
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(buildPathRow());
    m_messages = new widgets::MessageBar(central);
    m_messages->hide();
    layout->addWidget(m_messages);
    for (int side = 0; side < 2; ++side) {
        m_progress[side] = new LoadProgressBar(central);
        m_progress[side]->hide();
        layout->addWidget(m_progress[side]);
    }
    layout->addWidget(buildOptionsRow());
    layout->addWidget(buildViews(), 1);
    setCentralWidget(central);
    setupConnections();
    resize(1500, 1000);
}

CompareWindow::~CompareWindow() = default;

QWidget* CompareWindow::buildPathRow()
{
    auto* row = new QWidget(this);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    for (int side = 0; side < 2; ++side) {
        layout->addWidget(new QLabel(sideName(side) + u':', row));
        m_paths[side] = new QLineEdit(row);
        m_paths[side]->setPlaceholderText(tr("trace file or folder"));
        m_paths[side]->setObjectName(
            side == kControl ? QStringLiteral("controlPath") : QStringLiteral("testPath"));
        layout->addWidget(m_paths[side], 1);
        auto* file = new QToolButton(row);
        file->setText(tr("File…"));
        connect(file, &QToolButton::clicked, this, [this, side] { browse(side, false); });
        auto* folder = new QToolButton(row);
        folder->setText(tr("Folder…"));
        connect(folder, &QToolButton::clicked, this, [this, side] { browse(side, true); });
        layout->addWidget(file);
        layout->addWidget(folder);
    }
    auto* go = new QPushButton(tr("Compare"), row);
    go->setDefault(true);
    connect(go, &QPushButton::clicked, this,
        [this] { compare(m_paths[kControl]->text(), m_paths[kTest]->text()); });
    layout->addWidget(go);
    return row;
}

QWidget* CompareWindow::buildOptionsRow()
{
    auto* row = new QWidget(this);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    m_iteration = new QComboBox(row);
    m_iteration->setToolTip(tr("The ProfilerStep both timelines start at x = 0, and the table compares"));
    m_iteration->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_rank = new QComboBox(row);
    m_rank->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_rank->setToolTip(tr("The rank the table compares (and whose first instances a row click frames)"));
    m_device = new QComboBox(row);
    m_device->addItem(tr("CPU and GPU"), int(core::DiffDevice::All));
    m_device->addItem(tr("GPU kernels"), int(core::DiffDevice::Gpu));
    m_device->addItem(tr("CPU ops"), int(core::DiffDevice::Cpu));
    m_shortNames = new QCheckBox(tr("Short names"), row);
    m_shortNames->setToolTip(tr("Compare kernel names without templates and argument lists"));
    m_status = new QComboBox(row);
    m_status->addItem(tr("Any status"), -1);
    for (auto d : { widgets::DiffClass::Added, widgets::DiffClass::Removed, widgets::DiffClass::Slower,
             widgets::DiffClass::Faster, widgets::DiffClass::Unchanged })
        m_status->addItem(widgets::diffClassName(d), int(d));
    m_filter = new QLineEdit(row);
    m_filter->setPlaceholderText(tr("Filter names"));
    m_filter->setClearButtonEnabled(true);
    auto* exportButton = new QPushButton(tr("Export CSV…"), row);
    connect(exportButton, &QPushButton::clicked, this, &CompareWindow::exportCsv);
    m_summary = new QLabel(row);
    layout->addWidget(new QLabel(tr("Iteration:"), row));
    layout->addWidget(m_iteration);
    layout->addWidget(new QLabel(tr("Rank:"), row));
    layout->addWidget(m_rank);
    layout->addWidget(m_device);
    layout->addWidget(m_shortNames);
    layout->addSpacing(12);
    layout->addWidget(m_status);
    layout->addWidget(m_filter, 1);
    layout->addWidget(m_summary);
    layout->addWidget(exportButton);
    return row;
}

QWidget* CompareWindow::buildViews()
{
    auto* split = new QSplitter(Qt::Vertical, this);
    for (int side = 0; side < 2; ++side) {
        auto* pane = new QWidget(split);
        auto* layout = new QVBoxLayout(pane);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->setSpacing(2);
        m_titles[side] = new QLabel(QStringLiteral("<b>%1</b>").arg(sideName(side)), pane);
        m_timelines[side] = new widgets::TimelineWidget(m_states[side], m_pools.get(), pane);
        m_timelines[side]->addColorMode(widgets::ColorMode::Diff, tr("Trace diff"));
        layout->addWidget(m_titles[side]);
        layout->addWidget(m_timelines[side], 1);
        split->addWidget(pane);
        m_states[side]->setColorMode(widgets::ColorMode::Diff);
    }
    m_sync = new widgets::TimelineSync(m_timelines[kControl], m_timelines[kTest], this);
    m_model = new widgets::DiffTableModel(this);
    m_proxy = new widgets::DiffFilterProxy(this);
    m_proxy->setSourceModel(m_model);
    m_table = new QTableView(split);
    m_table->setObjectName(QStringLiteral("diffTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(0, Qt::AscendingOrder); // compare_traces' own order: by name
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(false);
    split->addWidget(m_table);
    split->setSizes({ 360, 360, 280 });
    return split;
}

void CompareWindow::setupConnections()
{
    for (int side = 0; side < 2; ++side) {
        CompareSideLoader* loader = m_sides[side];
        connect(loader->controller(), &LoadController::progressChanged, m_progress[side],
            &LoadProgressBar::setStatus);
        connect(loader, &CompareSideLoader::busyChanged, m_progress[side], &QWidget::setVisible);
        connect(m_progress[side], &LoadProgressBar::cancelRequested, loader, &CompareSideLoader::cancel);
        connect(loader, &CompareSideLoader::ready, this, &CompareWindow::onSideReady);
        connect(loader, &CompareSideLoader::failed, this, [this, side](const QString& message) {
            m_messages->showMessage(tr("%1 could not be loaded: %2").arg(sideName(side), message),
                widgets::MessageBar::Type::Error);
        });
        connect(m_timelines[side], &widgets::TimelineWidget::jobFailed, this, [this](const QString& message) {
            m_messages->showMessage(message, widgets::MessageBar::Type::Error);
        });
        connect(loader, &CompareSideLoader::cancelled, this, [this, side] {
            m_messages->showMessage(tr("Loading of %1 cancelled.").arg(sideName(side).toLower()),
                widgets::MessageBar::Type::Information);
        });
    }
    connect(m_iteration, &QComboBox::activated, this, [this] {
        applyAlignment();
        recompute();
    });
    connect(m_rank, &QComboBox::activated, this, &CompareWindow::recompute);
    connect(m_device, &QComboBox::activated, this, &CompareWindow::recompute);
    connect(m_shortNames, &QCheckBox::toggled, this, &CompareWindow::recompute);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &widgets::DiffFilterProxy::setNameFilter);
    connect(m_status, &QComboBox::currentIndexChanged, this, [this] {
        const int d = m_status->currentData().toInt();
        m_proxy->setStatusFilter(d < 0 ? std::nullopt : std::optional(widgets::DiffClass(d)));
    });
    connect(m_table, &QTableView::clicked, this, [this](const QModelIndex& index) {
        selectName(index.data(widgets::DiffTableModel::NameRole).toString());
    });
}

void CompareWindow::browse(int side, bool folder)
{
    const QString title = tr("Choose the %1 trace").arg(sideName(side).toLower());
    const QString path = folder ? QFileDialog::getExistingDirectory(this, title, m_paths[side]->text())
                                : QFileDialog::getOpenFileName(this, title, m_paths[side]->text(),
                                    tr("Kineto traces (*.json *.json.gz);;All files (*)"));
    if (!path.isEmpty())
        m_paths[side]->setText(path);
}

void CompareWindow::compare(const QString& control, const QString& test)
{
    if (control.isEmpty() || test.isEmpty()) {
        m_messages->showMessage(
            tr("Choose a control and a test trace (file or folder)."), widgets::MessageBar::Type::Warning);
        return;
    }
    m_messages->clearMessage();
    m_messages->hide();
    m_paths[kControl]->setText(control);
    m_paths[kTest]->setText(test);
    for (int side = 0; side < 2; ++side) {
        const QString path = side == kControl ? control : test;
        m_titles[side]->setText(
            QStringLiteral("<b>%1</b> — %2").arg(sideName(side), QFileInfo(path).fileName().toHtmlEscaped()));
        m_sides[side]->start(path);
    }
}

bool CompareWindow::isBusy() const
{
    return m_sides[kControl]->isBusy() || m_sides[kTest]->isBusy();
}

void CompareWindow::onSideReady()
{
    if (!m_sides[kControl]->prepared().diff || !m_sides[kTest]->prepared().diff)
        return;
    for (int side = 0; side < 2; ++side)
        m_timelines[side]->setData(m_sides[side]->prepared().timeline, true);
    populateChoices();
    applyAlignment();
    recompute();
    emit comparisonReady();
}

void CompareWindow::populateChoices()
{
    const auto& control = m_sides[kControl]->prepared();
    const auto& test = m_sides[kTest]->prepared();
    std::vector<std::int64_t> common;
    std::set_intersection(control.diff->iterations.begin(), control.diff->iterations.end(),
        test.diff->iterations.begin(), test.diff->iterations.end(), std::back_inserter(common));
    m_iteration->clear();
    for (std::int64_t step : common)
        m_iteration->addItem(
            QStringLiteral("ProfilerStep#%1").arg(step), QVariant::fromValue<qlonglong>(step));
    if (common.empty())
        m_messages->showMessage(
            tr("The traces share no ProfilerStep: shown as recorded, compared on their first steps."),
            widgets::MessageBar::Type::Warning);
    m_rank->clear();
    for (const auto& rank : control.set->ranks) {
        const bool inTest = std::any_of(test.set->ranks.begin(), test.set->ranks.end(),
            [&rank](const auto& other) { return other->rank == rank->rank; });
        if (inTest)
            m_rank->addItem(QString::number(rank->rank), QVariant::fromValue<qlonglong>(rank->rank));
    }
    // No rank number in common (e.g. one rank of each job): compare each side's first rank.
    if (m_rank->count() == 0)
        m_rank->addItem(tr("first of each"));
}

std::optional<std::int64_t> CompareWindow::iteration() const
{
    if (m_iteration->currentIndex() < 0)
        return std::nullopt;
    return m_iteration->currentData().toLongLong();
}

void CompareWindow::applyAlignment()
{
    const auto step = iteration();
    if (!step || !m_timelines[kControl]->data() || !m_timelines[kTest]->data())
        return;
    TimeNs longest = 0;
    for (int side = 0; side < 2; ++side) {
        const widgets::TimelineData& sideData = *m_timelines[side]->data();
        m_states[side]->setAlignment(widgets::iterationAlignment(sideData, *step));
        for (int r = 0; r < sideData.rankCount(); ++r) {
            const auto start = widgets::iterationStart(sideData.trace(r), *step);
            const auto end = widgets::iterationEnd(sideData.trace(r), *step);
            if (start && end)
                longest = std::max(longest, *end - *start);
        }
    }
    // Frame the step (the longer side's) with a little room on each side.
    const TimeNs margin = std::max<TimeNs>(longest / 40, 1000);
    const TimeNs origin = m_timelines[kControl]->data()->traceStart;
    m_states[kControl]->setVisibleRange(
        { origin - margin, origin + longest + margin }, widgets::TimelineViewState::History::Record);
}

void CompareWindow::recompute()
{
    const auto& control = m_sides[kControl]->prepared();
    const auto& test = m_sides[kTest]->prepared();
    if (!control.diff || !test.diff)
        return;
    core::TraceDiffOptions options;
    if (m_rank->currentIndex() >= 0 && m_rank->currentData().isValid()) {
        const std::vector<std::int64_t> rank { m_rank->currentData().toLongLong() };
        options.control.ranks = rank;
        options.test.ranks = rank;
    }
    if (const auto step = iteration()) {
        options.control.iterations = std::vector<std::int64_t> { *step };
        options.test.iterations = std::vector<std::int64_t> { *step };
    }
    options.device = core::DiffDevice(m_device->currentData().toInt());
    options.shortNames = m_shortNames->isChecked();
    auto output =
        std::make_shared<const core::AnalysisOutput>(core::compareTraces(*control.diff, *test.diff, options));
    if (!output->ok)
        m_messages->showMessage(QString::fromStdString(output->error), widgets::MessageBar::Type::Warning);
    m_model->setResult(output, widgets::DiffClassification::kDefaultTolerance);
    m_table->resizeColumnsToContents();
    m_table->setColumnWidth(0, std::min(m_table->columnWidth(0), 520));

    int counts[int(widgets::DiffClass::Count_)] = {};
    for (std::size_t r = 0; r < m_model->classification().rowCount(); ++r)
        ++counts[int(m_model->classification().rowClass(r))];
    m_summary->setText(tr("%1 names · %2 added · %3 removed · %4 slower · %5 faster")
                           .arg(m_model->rowCount())
                           .arg(counts[int(widgets::DiffClass::Added)])
                           .arg(counts[int(widgets::DiffClass::Removed)])
                           .arg(counts[int(widgets::DiffClass::Slower)])
                           .arg(counts[int(widgets::DiffClass::Faster)]));

    for (int side = 0; side < 2; ++side) {
        const widgets::TimelineData& base = *m_sides[side]->prepared().timeline;
        std::vector<std::vector<std::uint8_t>> perRank;
        for (int r = 0; r < base.rankCount(); ++r)
            perRank.push_back(m_model->classification().nameClassesOf(base.trace(r), options.shortNames));
        m_timelines[side]->setData(base.withDiffClasses(std::move(perRank)), false);
    }
}

void CompareWindow::selectName(const QString& name)
{
    const auto step = iteration();
    const std::optional<std::int64_t> rankNumber =
        m_rank->currentData().isValid() ? std::optional(m_rank->currentData().toLongLong()) : std::nullopt;
    std::optional<TimeNs> lo;
    std::optional<TimeNs> hi;
    for (int side = 0; side < 2; ++side) {
        const auto shown = m_timelines[side]->data();
        if (!shown)
            continue;
        auto matches =
            widgets::nameMatches(*shown, name, m_shortNames->isChecked(), m_states[side]->alignment());
        m_timelines[side]->showSearchResults(matches);
        const int rank = rankNumber ? rankIndex(*shown->set, *rankNumber) : 0;
        const auto stepStart = step ? widgets::iterationStart(shown->trace(rank), *step) : std::nullopt;
        widgets::SliceRef first;
        for (const widgets::SliceRef& ref : matches->ordered) {
            if (ref.rank == rank
                && (!stepStart || shown->trace(rank).slices.start[ref.slice] >= *stepStart)) {
                first = ref;
                break;
            }
        }
        if (!first.valid() && !matches->ordered.empty())
            first = matches->ordered.front();
        if (!first.valid()) {
            m_states[side]->setSelectedSlice({});
            continue;
        }
        m_timelines[side]->view()->revealSlice(first, false);
        const TimeNs off = shown->offset(first.rank, m_states[side]->alignment());
        const core::RankTrace& trace = shown->trace(first.rank);
        const TimeNs s = m_sync->toRuler(side, trace.slices.start[first.slice] - off);
        const TimeNs e = m_sync->toRuler(side, trace.slices.end(first.slice) - off);
        lo = lo ? std::min(*lo, s) : s;
        hi = hi ? std::max(*hi, e) : e;
    }
    if (!lo)
        return;
    // Both first instances in view, with room around them to see their neighbours.
    const TimeNs span = std::max<TimeNs>(*hi - *lo, 1000);
    const TimeNs margin = span / 2;
    m_states[kControl]->setVisibleRange(
        { m_sync->fromRuler(kControl, *lo - margin), m_sync->fromRuler(kControl, *hi + margin) },
        widgets::TimelineViewState::History::Record);
}

void CompareWindow::exportCsv()
{
    if (!m_model->table()) {
        m_messages->showMessage(tr("Nothing to export yet."), widgets::MessageBar::Type::Information);
        return;
    }
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the diff table"), QStringLiteral("compare_traces.csv"), tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    if (!widgets::saveTableCsv(*m_model->table(), path))
        m_messages->showMessage(tr("Could not write %1").arg(path), widgets::MessageBar::Type::Error);
}

void CompareWindow::applyViewCommands(const QString& commands)
{
    for (const QString& command : commands.split(u';', Qt::SkipEmptyParts)) {
        const QString key = command.section(u'=', 0, 0).trimmed();
        const QString value = command.section(u'=', 1);
        if (key == QStringLiteral("filter")) {
            m_filter->setText(value);
        } else if (key == QStringLiteral("status")) {
            for (int i = 0; i < m_status->count(); ++i) {
                if (m_status->itemText(i).startsWith(value, Qt::CaseInsensitive))
                    m_status->setCurrentIndex(i);
            }
        } else if (key == QStringLiteral("row")) {
            for (int r = 0; r < m_proxy->rowCount(); ++r) {
                const QModelIndex index = m_proxy->index(r, 0);
                if (index.data(widgets::DiffTableModel::NameRole).toString() == value) {
                    m_table->selectRow(r);
                    m_table->scrollTo(index);
                    selectName(value);
                }
            }
        }
    }
}

} // namespace ks::app
