#include "widgets/job/job_mode_view.h"

#include "widgets/analysis/analysis_table_view.h"
#include "widgets/analysis/rank_overview_panel.h"
#include "widgets/charts/analysis_chart.h"
#include "widgets/common/format.h"
#include "widgets/job/job_rank_model.h"
#include "widgets/job/job_strip_view.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace ks::widgets {

namespace {

    // A swatch and a word per kind: the legend of the strips.
    QString legendHtml()
    {
        const StripPalette p = StripPalette::standard();
        const std::pair<QRgb, QString> entries[] = { { p.kinds[0], JobModeView::tr("compute") },
            { p.kinds[1], JobModeView::tr("communication") }, { p.kinds[2], JobModeView::tr("memory") },
            { p.kinds[3], JobModeView::tr("other") }, { p.idle, JobModeView::tr("idle") } };
        QString html;
        for (const auto& [color, name] : entries)
            html +=
                QStringLiteral("<span style='background:%1'>&nbsp;&nbsp;&nbsp;</span>&nbsp;%2&nbsp;&nbsp; ")
                    .arg(QColor(color).name(), name);
        return html;
    }

} // namespace

JobModeView::JobModeView(TaskPools* pools, QWidget* parent)
    : QWidget(parent)
{
    m_summaryLine = new QLabel(this);
    m_summaryLine->setObjectName(QStringLiteral("jobSummaryLine"));
    auto* legend = new QLabel(legendHtml(), this);
    m_loadButton = new QPushButton(tr("Load Selected Ranks"), this);
    m_loadButton->setObjectName(QStringLiteral("loadSelectedRanks"));
    m_loadButton->setToolTip(
        tr("Load the selected ranks' full traces above the strips (or double-click a strip)"));
    m_hover = new QLabel(this);
    m_hover->setObjectName(QStringLiteral("jobHover"));

    m_detailPane = new QWidget(this);
    m_detailTitle = new QLabel(m_detailPane);
    auto* closeDetail = new QPushButton(tr("Close Loaded Ranks"), m_detailPane);
    closeDetail->setObjectName(QStringLiteral("closeLoadedRanks"));
    m_detailState = new TimelineViewState(this);
    m_detail = new TimelineWidget(m_detailState, pools, m_detailPane);
    auto* detailHeader = new QHBoxLayout;
    detailHeader->addWidget(m_detailTitle, 1);
    detailHeader->addWidget(closeDetail);
    auto* detailLayout = new QVBoxLayout(m_detailPane);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    detailLayout->addLayout(detailHeader);
    detailLayout->addWidget(m_detail, 1);
    m_detailPane->hide();

    m_strips = new JobStripView(pools, this);
    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->addWidget(m_detailPane);
    m_splitter->addWidget(m_strips);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 1);

    m_rankModel = new JobRankModel(this);
    auto* sorted = new QSortFilterProxyModel(this);
    sorted->setSourceModel(m_rankModel);
    sorted->setSortRole(Qt::UserRole);
    m_rankTable = new QTableView(this);
    m_rankTable->setObjectName(QStringLiteral("jobRankTable"));
    m_rankTable->setModel(sorted);
    m_rankTable->setSortingEnabled(true);
    // Outliers first (stragglers, failed files), then by rank: what needs a look is on top.
    m_rankTable->sortByColumn(JobRankModel::RankColumn, Qt::AscendingOrder);
    m_rankTable->sortByColumn(JobRankModel::FlagColumn, Qt::DescendingOrder);
    m_rankTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_rankTable->verticalHeader()->hide();
    m_rankTable->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    m_rankTable->horizontalHeader()->setStretchLastSection(true);
    m_overviewPage = new QWidget(this);
    auto* overviewLayout = new QVBoxLayout(m_overviewPage);
    overviewLayout->setContentsMargins(0, 0, 0, 0);
    m_skew = new AnalysisTableView(this);
    m_tabs = new QTabWidget(this);
    m_tabs->addTab(m_rankTable, tr("Ranks"));
    m_tabs->addTab(m_overviewPage, tr("Rank Overview"));
    m_tabs->addTab(m_skew, tr("Collective Skew"));

    auto* sides = new QSplitter(Qt::Horizontal, this);
    m_sides = sides;
    sides->addWidget(m_splitter);
    sides->addWidget(m_tabs);
    connect(sides, &QSplitter::splitterMoved, this, [this] { m_userSizedSides = true; });
    // The rank table's columns (step time, busy, compute, exposed communication,
    // flag) and the three tab titles fit beside the strips at 1280 px.
    sides->setStretchFactor(0, 3);
    sides->setStretchFactor(1, 2);

    auto* top = new QHBoxLayout;
    top->addWidget(m_summaryLine);
    top->addStretch(1);
    top->addWidget(legend);
    top->addWidget(m_loadButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(sides, 1);
    layout->addWidget(m_hover);

    connect(m_loadButton, &QPushButton::clicked, this, &JobModeView::requestSelected);
    connect(closeDetail, &QPushButton::clicked, this, [this] {
        setLoadedRanks(nullptr);
        emit loadedRanksClosed();
    });
    connect(m_strips, &JobStripView::rowsActivated, this, &JobModeView::ranksRequested);
    connect(m_strips, &JobStripView::hovered, m_hover, &QLabel::setText);
    connect(m_strips, &JobStripView::selectionChanged, this, [this] {
        updateSelectionActions();
        syncTableSelection();
    });
    connect(m_rankTable, &QTableView::doubleClicked, this, [this, sorted](const QModelIndex& index) {
        emit ranksRequested({ sorted->mapToSource(index).row() });
    });
    connect(m_rankTable->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this, sorted] {
        std::set<std::size_t> rows;
        for (const QModelIndex& index : m_rankTable->selectionModel()->selectedRows())
            rows.insert(static_cast<std::size_t>(sorted->mapToSource(index).row()));
        if (rows != m_strips->selectedRows())
            m_strips->setSelectedRows(std::move(rows));
    });
    updateSelectionActions();
}

JobModeView::~JobModeView() = default;

void JobModeView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitSides();
}

void JobModeView::fitSides()
{ // Three fifths for the strips, two for the rank table and its tabs, until the
    // user drags the splitter; the table gets what its columns need (up to half),
    // so that no column is cut at 1280 px.
    if (!m_userSizedSides) {
        const int room = m_sides->width() - m_sides->handleWidth();
        const int columns = m_rankTable->horizontalHeader()->length()
            + m_rankTable->verticalScrollBar()->sizeHint().width() + 2 * m_rankTable->frameWidth() + 8;
        const int table = std::min(room / 2, std::max(room - room * 3 / 5, columns));
        m_sides->setSizes({ room - table, table });
    }
}

void JobModeView::setJob(std::shared_ptr<const core::JobOverview> job)
{
    m_job = std::move(job);
    setLoadedRanks(nullptr);
    m_strips->setJob(m_job);
    m_rankModel->setJob(m_job);
    m_rankTable->resizeColumnsToContents();
    fitSides();
    delete m_overviewPanel;
    m_overviewPanel = nullptr;
    m_heatMap = nullptr;
    m_skew->setTable(nullptr, nullptr);
    if (!m_job) {
        m_summaryLine->clear();
        return;
    }
    std::size_t ok = 0;
    for (const core::JobRank& rank : m_job->ranks)
        ok += rank.ok();
    m_summaryLine->setText(tr("Job summary %1 · %2 ranks · %3 did not load · %4 of GPU time")
                               .arg(displayName(QString::fromStdString(m_job->path)))
                               .arg(ok)
                               .arg(m_job->ranks.size() - ok)
                               .arg(formatDuration(m_job->endNs() - m_job->startNs())));
    if (!m_job->rankOverview.rows.empty()) {
        m_heatMap = new AnalysisChart;
        m_heatMap->setObjectName(QStringLiteral("jobHeatMap"));
        m_overviewPanel = new RankOverviewPanel(m_heatMap, m_job->rankOverview, m_overviewPage);
        m_overviewPage->layout()->addWidget(m_overviewPanel);
        m_heatMap->replot();
    }
    if (m_job->collectiveSkew.ok)
        m_skew->setTable(std::shared_ptr<const core::AnalysisOutput>(m_job, &m_job->collectiveSkew),
            &m_job->collectiveSkew.result.frame);
}

void JobModeView::setLoadedRanks(std::shared_ptr<const core::TraceSet> ranks)
{
    m_loaded = std::move(ranks);
    m_detail->setTraceSet(m_loaded);
    m_detailPane->setVisible(m_loaded != nullptr);
    if (!m_loaded)
        return;
    QStringList names;
    for (const auto& rank : m_loaded->ranks)
        names << QString::number(rank->rank);
    m_detailTitle->setText(tr("Full traces of rank %1").arg(names.join(QStringLiteral(", "))));
}

void JobModeView::requestSelected()
{
    QList<qsizetype> rows;
    for (const std::size_t row : m_strips->selectedRows())
        rows.append(static_cast<qsizetype>(row));
    if (!rows.isEmpty())
        emit ranksRequested(rows);
}

void JobModeView::updateSelectionActions()
{
    const std::size_t n = m_strips->selectedRows().size();
    m_loadButton->setEnabled(n > 0);
    m_loadButton->setText(n > 1 ? tr("Load %1 Selected Ranks").arg(n) : tr("Load Selected Rank"));
}

void JobModeView::syncTableSelection()
{
    auto* sorted = static_cast<QSortFilterProxyModel*>(m_rankTable->model());
    QItemSelection selection;
    for (const std::size_t row : m_strips->selectedRows()) {
        const QModelIndex index = sorted->mapFromSource(m_rankModel->index(static_cast<int>(row), 0));
        selection.select(index, index.siblingAtColumn(JobRankModel::ColumnCount - 1));
    }
    QSignalBlocker block(m_rankTable->selectionModel());
    m_rankTable->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
    m_rankTable->viewport()->update();
    if (!selection.isEmpty())
        m_rankTable->scrollTo(selection.indexes().first());
}

} // namespace ks::widgets
