#include "widgets/common/trace_set_summary_view.h"

#include "widgets/common/category_counts_model.h"
#include "widgets/common/format.h"
#include "widgets/common/rank_summary_model.h"
#include "widgets/common/table_view_utils.h"

#include <QDir>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStringList>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace ks::widgets {

namespace {

    QTreeWidgetItem* addItem(
        QTreeWidget* tree, QTreeWidgetItem* parent, const QString& key, const QString& value)
    {
        auto* item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(tree);
        item->setText(0, key);
        item->setText(1, value);
        item->setToolTip(1, value);
        return item;
    }

    QString optionalNumber(const std::optional<std::int64_t>& value)
    {
        return value ? QLocale().toString(static_cast<qlonglong>(*value)) : QString();
    }

    void addDistributedInfo(QTreeWidget* tree, const core::RankMetadata& md)
    {
        if (!md.hasDistributedInfo)
            return;
        auto* dist = addItem(tree, nullptr, TraceSetSummaryView::tr("distributedInfo"), QString());
        addItem(tree, dist, TraceSetSummaryView::tr("rank"), optionalNumber(md.distributedRank));
        addItem(tree, dist, TraceSetSummaryView::tr("world size"), optionalNumber(md.worldSize));
        if (md.backend)
            addItem(tree, dist, TraceSetSummaryView::tr("backend"), QString::fromStdString(*md.backend));
        for (const core::ProcessGroupConfig& pg : md.processGroups) {
            QStringList ranks;
            for (std::int64_t r : pg.ranks)
                ranks.append(QString::number(r));
            const QString value = TraceSetSummaryView::tr("%1, size %2, ranks [%3]")
                                      .arg(QString::fromStdString(pg.description))
                                      .arg(pg.size)
                                      .arg(ranks.join(QStringLiteral(", ")));
            addItem(
                tree, dist, TraceSetSummaryView::tr("group %1").arg(QString::fromStdString(pg.name)), value);
        }
        dist->setText(1, TraceSetSummaryView::tr("world size %1").arg(optionalNumber(md.worldSize)));
        dist->setExpanded(true);
    }

    void addDevices(QTreeWidget* tree, const core::RankMetadata& md)
    {
        if (md.devices.empty())
            return;
        auto* devices =
            addItem(tree, nullptr, TraceSetSummaryView::tr("devices"), QString::number(md.devices.size()));
        for (const core::DeviceProperties& d : md.devices) {
            const QString value =
                TraceSetSummaryView::tr("%1, %2, %3 SMs, compute %4.%5")
                    .arg(QString::fromStdString(d.name))
                    .arg(formatBytes(static_cast<std::uint64_t>(std::max<std::int64_t>(0, d.totalGlobalMem))))
                    .arg(d.numSms)
                    .arg(d.computeMajor)
                    .arg(d.computeMinor);
            addItem(tree, devices, TraceSetSummaryView::tr("device %1").arg(d.id), value);
        }
        devices->setExpanded(true);
    }

    void addRawKeys(QTreeWidget* tree, const core::RankMetadata& md)
    {
        if (md.rawKeys.empty())
            return;
        auto* raw = addItem(
            tree, nullptr, TraceSetSummaryView::tr("top-level keys"), QString::number(md.rawKeys.size()));
        for (const auto& [key, json] : md.rawKeys) {
            QString value = QString::fromStdString(json).simplified();
            if (value.size() > 400)
                value = value.left(400) + QStringLiteral("…");
            addItem(tree, raw, QString::fromStdString(key), value);
        }
    }

} // namespace

TraceSetSummaryView::TraceSetSummaryView(QWidget* parent)
    : QWidget(parent)
    , m_rankModel(new RankSummaryModel(this))
    , m_rankProxy(new QSortFilterProxyModel(this))
    , m_categoryModel(new CategoryCountsModel(this))
    , m_categoryProxy(new QSortFilterProxyModel(this))
    , m_title(new QLabel(this))
    , m_subtitle(new QLabel(this))
    , m_splitter(new QSplitter(Qt::Vertical, this))
    , m_rankView(new QTableView(this))
    , m_detailsSplitter(new QSplitter(Qt::Horizontal, this))
    , m_categoryView(new QTableView(this))
    , m_metadata(new QTreeWidget(this))
{
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.35);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setObjectName(QStringLiteral("summaryTitle"));
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_subtitle->setObjectName(QStringLiteral("summarySubtitle"));
    m_subtitle->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_subtitle->setWordWrap(true);

    setupRankTable();
    setupDetails();

    m_splitter->addWidget(m_rankView);
    m_splitter->addWidget(m_detailsSplitter);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->setObjectName(QStringLiteral("summarySplitter"));
    connect(m_splitter, &QSplitter::splitterMoved, this, [this] { m_userSizedSplitter = true; });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 10, 6);
    layout->setSpacing(4);
    layout->addWidget(m_title);
    layout->addWidget(m_subtitle);
    layout->addSpacing(4);
    layout->addWidget(m_splitter, 1);
}

QWidget* TraceSetSummaryView::titled(const QString& title, QWidget* content, QLabel** label)
{
    auto* pane = new QWidget(this);
    auto* heading = new QLabel(title, pane);
    QFont bold = heading->font();
    bold.setBold(true);
    heading->setFont(bold);
    auto* layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 8, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(heading);
    layout->addWidget(content, 1);
    if (label)
        *label = heading;
    return pane;
}

void TraceSetSummaryView::setupRankTable()
{
    m_rankProxy->setSourceModel(m_rankModel);
    m_rankProxy->setSortRole(RankSummaryModel::SortRole);
    m_rankView->setObjectName(QStringLiteral("rankTable"));
    m_rankView->setModel(m_rankProxy);
    setupTableView(m_rankView);
    addCopyAction(m_rankView);
    m_rankView->sortByColumn(RankSummaryModel::RankColumn, Qt::AscendingOrder);
    QHeaderView* header = m_rankView->horizontalHeader();
    header->setStretchLastSection(true);
    header->setSectionResizeMode(QHeaderView::Interactive);
    connect(m_rankView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
        &TraceSetSummaryView::updateDetails);
    // Spans are in view rows, so they follow every sort.
    connect(m_rankProxy, &QAbstractItemModel::layoutChanged, this, &TraceSetSummaryView::updateSpans);
    connect(m_rankProxy, &QAbstractItemModel::modelReset, this, &TraceSetSummaryView::updateSpans);
}

void TraceSetSummaryView::updateSpans()
{
    m_rankView->clearSpans();
    for (int row = 0; row < m_rankProxy->rowCount(); ++row) {
        const QModelIndex index = m_rankProxy->index(row, RankSummaryModel::ErrorTextColumn);
        if (index.data(RankSummaryModel::FailedRole).toBool())
            m_rankView->setSpan(row, RankSummaryModel::ErrorTextColumn, 1,
                RankSummaryModel::StatusColumn - RankSummaryModel::ErrorTextColumn);
    }
}

void TraceSetSummaryView::setupDetails()
{
    m_categoryProxy->setSourceModel(m_categoryModel);
    m_categoryProxy->setSortRole(CategoryCountsModel::SortRole);
    m_categoryView->setObjectName(QStringLiteral("categoryTable"));
    m_categoryView->setModel(m_categoryProxy);
    setupTableView(m_categoryView);
    addCopyAction(m_categoryView);
    m_categoryView->sortByColumn(CategoryCountsModel::TotalColumn, Qt::DescendingOrder);
    QHeaderView* header = m_categoryView->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(CategoryCountsModel::CategoryColumn, QHeaderView::Stretch);
    header->setMinimumSectionSize(m_categoryView->fontMetrics().horizontalAdvance(QStringLiteral("0000000")));

    m_metadata->setObjectName(QStringLiteral("metadataTree"));
    m_metadata->setColumnCount(2);
    m_metadata->setHeaderLabels({ tr("Key"), tr("Value") });
    m_metadata->setAlternatingRowColors(true);
    m_metadata->setUniformRowHeights(true);
    m_metadata->header()->resizeSection(0, 200);

    m_detailsSplitter->addWidget(titled(tr("Event categories"), m_categoryView, &m_categoryTitle));
    m_detailsSplitter->addWidget(titled(tr("File metadata"), m_metadata, &m_metadataTitle));
    m_detailsSplitter->setStretchFactor(0, 3);
    m_detailsSplitter->setStretchFactor(1, 2);
    m_detailsSplitter->setChildrenCollapsible(false);
}

void TraceSetSummaryView::setTraceSet(std::shared_ptr<const core::TraceSet> set, const QString& title)
{
    m_set = std::move(set);
    m_rankModel->setTraceSet(m_set);
    m_rankView->resizeColumnsToContents();
    updateSubtitle(title);
    updateDetails();
    fitRankTable();
}

void TraceSetSummaryView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitRankTable();
}

void TraceSetSummaryView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    fitRankTable();
}

void TraceSetSummaryView::fitRankTable()
{
    // The rank table gets the height of its rows (a job has 1 to a few hundred
    // ranks), up to half the view; the details take the rest. Once the user drags
    // the splitter, their choice wins.
    if (m_userSizedSplitter || m_splitter->height() <= 0)
        return;
    const int rows = std::max(2, m_rankModel->rowCount());
    const bool scrolls = m_rankView->horizontalHeader()->length() > m_rankView->viewport()->width();
    const int wanted = m_rankView->horizontalHeader()->height()
        + rows * m_rankView->verticalHeader()->defaultSectionSize() + 2 * m_rankView->frameWidth()
        + (scrolls ? m_rankView->horizontalScrollBar()->sizeHint().height() : 0);
    const int total = m_splitter->height() - m_splitter->handleWidth();
    const int top = std::min(wanted, total / 2);
    m_splitter->setSizes({ top, total - top });
}

QString TraceSetSummaryView::subtitle() const
{
    return m_subtitle->text();
}

void TraceSetSummaryView::updateSubtitle(const QString& title)
{
    m_title->setText(title);
    if (!m_set) {
        m_subtitle->clear();
        return;
    }
    std::uint64_t events = 0;
    std::uint64_t bytes = 0;
    core::TimeNs start = 0;
    core::TimeNs end = 0;
    for (std::size_t i = 0; i < m_set->ranks.size(); ++i) {
        const core::RankTrace& rank = *m_set->ranks[i];
        events += rank.counts.events;
        bytes += rank.counts.fileBytes;
        start = i == 0 ? rank.startNs : std::min(start, rank.startNs);
        end = i == 0 ? rank.endNs : std::max(end, rank.endNs);
    }
    QStringList parts;
    const auto ranks = static_cast<int>(m_set->ranks.size());
    parts.append(ranks == 1 ? tr("1 rank") : tr("%1 ranks").arg(ranks));
    parts.append(tr("%1 events").arg(formatCount(events)));
    parts.append(formatBytes(bytes));
    if (ranks > 0)
        parts.append(tr("%1 span").arg(formatDuration(end - start)));
    if (ranks > 0 && m_set->ranks.front()->metadata.worldSize) {
        const core::RankMetadata& md = m_set->ranks.front()->metadata;
        const QString world = tr("world size %1").arg(*md.worldSize);
        parts.append(md.backend ? QString::fromStdString(*md.backend) + QStringLiteral(", ") + world : world);
    }
    const auto failures = static_cast<int>(m_set->failures.size());
    if (failures > 0)
        parts.append(failures == 1 ? tr("1 file failed") : tr("%1 files failed").arg(failures));
    m_subtitle->setText(parts.join(QStringLiteral("  ·  ")));
    QStringList inputs;
    for (const std::string& input : m_set->inputs)
        inputs.append(QDir::toNativeSeparators(QString::fromStdString(input)));
    m_title->setToolTip(inputs.join(QChar(u'\n')));
}

void TraceSetSummaryView::updateDetails()
{
    std::vector<std::shared_ptr<const core::RankTrace>> selected;
    if (m_set) {
        std::set<int> rows;
        for (const QModelIndex& index : m_rankView->selectionModel()->selectedRows())
            rows.insert(m_rankProxy->mapToSource(index).row());
        for (int row : rows) {
            if (row < m_rankModel->rankRowCount())
                selected.push_back(m_set->ranks[static_cast<std::size_t>(row)]);
        }
    }
    const bool all = selected.empty();
    if (all && m_set)
        selected = m_set->ranks;
    m_categoryModel->setRanks(selected);
    m_metadata->clear();
    if (!selected.empty())
        fillMetadata(*selected.front());

    QString scope;
    if (all)
        scope = tr("all ranks");
    else if (selected.size() == 1)
        scope = tr("rank %1").arg(selected.front()->rank);
    else
        scope = tr("%1 selected ranks").arg(selected.size());
    m_categoryTitle->setText(tr("Event categories: %1").arg(scope));
    m_metadataTitle->setText(
        selected.empty() ? tr("File metadata") : tr("File metadata: rank %1").arg(selected.front()->rank));
}

void TraceSetSummaryView::fillMetadata(const core::RankTrace& rank)
{
    const auto source = tr("from %1").arg(toQString(core::rankSourceName(rank.rankSource)));
    addItem(m_metadata, nullptr, tr("file"), QDir::toNativeSeparators(QString::fromStdString(rank.path)));
    addItem(m_metadata, nullptr, tr("rank"), tr("%1 (%2)").arg(rank.rank).arg(source));
    addItem(m_metadata, nullptr, tr("in memory"),
        tr("%1 for %2 kept events").arg(formatBytes(rank.bytesUsed()), formatCount(rank.keptEvents())));
    const core::RankMetadata& md = rank.metadata;
    if (md.schemaVersion)
        addItem(m_metadata, nullptr, tr("schemaVersion"), optionalNumber(md.schemaVersion));
    if (md.traceName)
        addItem(m_metadata, nullptr, tr("traceName"), QString::fromStdString(*md.traceName));
    if (md.baseTimeNanoseconds)
        addItem(m_metadata, nullptr, tr("baseTimeNanoseconds"), optionalNumber(md.baseTimeNanoseconds));
    addDistributedInfo(m_metadata, md);
    addDevices(m_metadata, md);
    addRawKeys(m_metadata, md);
}

} // namespace ks::widgets
