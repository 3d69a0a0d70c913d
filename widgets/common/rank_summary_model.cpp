#include "widgets/common/rank_summary_model.h"

#include "widgets/common/format.h"

#include <QApplication>
#include <QDir>
#include <QLocale>
#include <QStyle>

#include <algorithm>
#include <limits>

namespace ks::widgets {

namespace {

    using core::Phase;

    std::uint64_t phaseCount(const core::RankTrace& rank, Phase phase)
    {
        return rank.counts.byPhase[static_cast<std::size_t>(phase)];
    }

    std::uint64_t flowCount(const core::RankTrace& rank)
    {
        return phaseCount(rank, Phase::FlowStart) + phaseCount(rank, Phase::FlowStep)
            + phaseCount(rank, Phase::FlowEnd);
    }

    int trackCount(const core::RankTrace& rank, core::TrackKind kind)
    {
        return static_cast<int>(std::count_if(
            rank.tracks.begin(), rank.tracks.end(), [kind](const core::Track& t) { return t.kind == kind; }));
    }

    QString rankSourceText(core::RankSource source)
    {
        switch (source) {
        case core::RankSource::DistributedInfo:
            return QStringLiteral("distributedInfo");
        case core::RankSource::FileName:
            return QStringLiteral("file name");
        case core::RankSource::FileOrder:
            return QStringLiteral("file order");
        }
        return {};
    }

    bool isNumericColumn(int column)
    {
        return column != RankSummaryModel::SourceColumn && column != RankSummaryModel::FileColumn
            && column != RankSummaryModel::StatusColumn;
    }

    struct HeaderText
    {
        const char16_t* title;
        const char16_t* tip;
    };

    // Titles stay short so the table fits a laptop screen; tooltips say exactly what is counted.
    constexpr HeaderText kHeaders[RankSummaryModel::ColumnCount] = {
        { u"Rank", u"The rank of the file" },
        { u"Rank from",
            u"How the rank was found: distributedInfo.rank, a number in the file name, or the file order" },
        { u"File", u"The trace file" },
        { u"Size", u"Size on disk (compressed size for .gz)" },
        { u"Events", u"All entries of traceEvents" },
        { u"X", u"Complete events (ph X)" },
        { u"B/E", u"Begin and end events (ph B and E)" },
        { u"Instant", u"Instant events (ph i / I), including [memory] allocator events" },
        { u"Counter", u"Counter events (ph C)" },
        { u"Flow", u"Flow events (ph s, t, f)" },
        { u"GPU streams", u"GPU stream tracks" },
        { u"CPU threads", u"CPU thread tracks" },
        { u"Start", u"First timestamp, relative to the earliest rank" },
        { u"Span", u"Time from the first to the last timestamp" },
        { u"Diagnostics", u"Import anomalies counted in this rank (see the Import diagnostics panel)" },
        { u"Status", u"Whether the file loaded" },
    };

} // namespace

RankSummaryModel::RankSummaryModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void RankSummaryModel::setTraceSet(std::shared_ptr<const core::TraceSet> set)
{
    beginResetModel();
    m_set = std::move(set);
    m_setStartNs = 0;
    if (m_set && !m_set->ranks.empty()) {
        m_setStartNs = std::numeric_limits<core::TimeNs>::max();
        for (const auto& rank : m_set->ranks)
            m_setStartNs = std::min(m_setStartNs, rank->startNs);
    }
    endResetModel();
}

int RankSummaryModel::rankRowCount() const
{
    return m_set ? static_cast<int>(m_set->ranks.size()) : 0;
}

int RankSummaryModel::failureRowCount() const
{
    return m_set ? static_cast<int>(m_set->failures.size()) : 0;
}

const core::RankTrace* RankSummaryModel::rankAt(int row) const
{
    if (row < 0 || row >= rankRowCount())
        return nullptr;
    return m_set->ranks[static_cast<std::size_t>(row)].get();
}

const core::Error* RankSummaryModel::failureAt(int row) const
{
    const int failure = row - rankRowCount();
    if (failure < 0 || failure >= failureRowCount())
        return nullptr;
    return &m_set->failures[static_cast<std::size_t>(failure)];
}

int RankSummaryModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : rankRowCount() + failureRowCount();
}

int RankSummaryModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RankSummaryModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role == Qt::TextAlignmentRole) {
        const bool errorText = index.column() == ErrorTextColumn && failureAt(index.row());
        const bool right = isNumericColumn(index.column()) && !errorText;
        return QVariant::fromValue(
            Qt::Alignment((right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter));
    }
    if (const core::RankTrace* rank = rankAt(index.row()))
        return rankData(*rank, index.column(), role);
    if (const core::Error* error = failureAt(index.row()))
        return failureData(*error, index.column(), role);
    return {};
}

QVariant RankSummaryModel::rankData(const core::RankTrace& rank, int column, int role) const
{
    switch (role) {
    case Qt::DisplayRole:
        return rankText(rank, column);
    case SortRole:
        return rankValue(rank, column);
    case FailedRole:
        return false;
    case PathRole:
        return QString::fromStdString(rank.path);
    case Qt::ToolTipRole:
        if (column == FileColumn)
            return QDir::toNativeSeparators(QString::fromStdString(rank.path));
        if (column == DiagnosticsColumn && rank.diagnostics.total() > 0)
            return tr("See the Import diagnostics panel");
        return {};
    case Qt::DecorationRole:
        if (column == StatusColumn && rank.diagnostics.total() > 0)
            return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
        return {};
    default:
        return {};
    }
}

QVariant RankSummaryModel::rankValue(const core::RankTrace& rank, int column) const
{
    const auto u64 = [](std::uint64_t v) { return QVariant::fromValue(static_cast<qulonglong>(v)); };
    switch (column) {
    case RankColumn:
        return QVariant::fromValue(static_cast<qlonglong>(rank.rank));
    case SourceColumn:
        return rankSourceText(rank.rankSource);
    case FileColumn:
        return displayName(QString::fromStdString(rank.path));
    case SizeColumn:
        return u64(rank.counts.fileBytes);
    case EventsColumn:
        return u64(rank.counts.events);
    case CompleteColumn:
        return u64(phaseCount(rank, Phase::Complete));
    case BeginEndColumn:
        return u64(phaseCount(rank, Phase::Begin) + phaseCount(rank, Phase::End));
    case InstantColumn:
        return u64(phaseCount(rank, Phase::Instant));
    case CounterColumn:
        return u64(phaseCount(rank, Phase::Counter));
    case FlowColumn:
        return u64(flowCount(rank));
    case GpuStreamsColumn:
        return trackCount(rank, core::TrackKind::GpuStream);
    case CpuThreadsColumn:
        return trackCount(rank, core::TrackKind::CpuThread);
    case StartColumn:
        return QVariant::fromValue(static_cast<qlonglong>(rank.startNs - m_setStartNs));
    case SpanColumn:
        return QVariant::fromValue(static_cast<qlonglong>(rank.endNs - rank.startNs));
    case DiagnosticsColumn:
        return u64(rank.diagnostics.total());
    case StatusColumn:
        return tr("Loaded");
    default:
        return {};
    }
}

QVariant RankSummaryModel::rankText(const core::RankTrace& rank, int column) const
{
    const QVariant value = rankValue(rank, column);
    switch (column) {
    case RankColumn:
    case GpuStreamsColumn:
    case CpuThreadsColumn:
        return QLocale().toString(value.toLongLong());
    case SizeColumn:
        return rank.counts.gzip ? tr("%1 (gz)").arg(formatBytes(value.toULongLong()))
                                : formatBytes(value.toULongLong());
    case StartColumn:
        return value.toLongLong() == 0 ? QStringLiteral("0")
                                       : QString(QStringLiteral("+") + formatDuration(value.toLongLong()));
    case SpanColumn:
        return formatDuration(value.toLongLong());
    case SourceColumn:
    case FileColumn:
    case StatusColumn:
        return value;
    default:
        return formatCount(value.toULongLong());
    }
}

QVariant RankSummaryModel::failureData(const core::Error& error, int column, int role) const
{
    const QString path = QString::fromStdString(error.path);
    switch (role) {
    case Qt::DisplayRole:
    case SortRole:
        if (column == FileColumn)
            return displayName(path);
        if (column == ErrorTextColumn) {
            QString text = QString::fromStdString(error.message);
            if (error.byteOffset)
                text +=
                    tr(" (at byte %1)").arg(QLocale().toString(static_cast<qulonglong>(*error.byteOffset)));
            return text;
        }
        if (column == StatusColumn)
            return tr("Failed");
        if (column == RankColumn && role == Qt::DisplayRole)
            return QStringLiteral("—");
        return {}; // failures sort after every rank, whichever the column
    case Qt::ToolTipRole:
        return QString::fromStdString(error.describe());
    case Qt::DecorationRole:
        if (column == StatusColumn)
            return QApplication::style()->standardIcon(QStyle::SP_MessageBoxCritical);
        return {};
    case FailedRole:
        return true;
    case PathRole:
        return path;
    default:
        return {};
    }
}

QVariant RankSummaryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole)
        return QString::fromUtf16(kHeaders[section].title);
    if (role == Qt::ToolTipRole)
        return QString::fromUtf16(kHeaders[section].tip);
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(
            Qt::Alignment((isNumericColumn(section) ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter));
    return {};
}

} // namespace ks::widgets
