#include "widgets/job/job_rank_model.h"

#include "core/analysis/cross_rank/rank_overview.h"
#include "widgets/common/format.h"
#include "widgets/job/strip_colors.h"

#include <QColor>

#include <cmath>
#include <map>

namespace ks::widgets {

namespace {

    // Per rank, from X1's table: the mean step time and the mean comm/comp overlap.
    // (X1's per-iteration flag is not the table's: it marks ranks whose busy time
    // wobbles; the flag here is the strips' red mark, computeOutlierRows.)
    struct IterationStats
    {
        double stepTimeUs = 0;
        double overlapPct = 0;
        int steps = 0;
        int overlaps = 0;
    };

    std::map<std::int64_t, IterationStats> iterationStats(const core::Table& table)
    {
        namespace ro = core::rank_overview;
        std::map<std::int64_t, IterationStats> stats;
        const auto rank = table.find(ro::kRank);
        if (!rank)
            return stats;
        const auto step = table.find(ro::kStepTime);
        const auto overlap = table.find(ro::kOverlapPct);
        for (const auto& row : table.rows) {
            const auto id = core::cellAsDouble(row[*rank]);
            if (!id)
                continue;
            IterationStats& s = stats[static_cast<std::int64_t>(*id)];
            if (const auto v = step ? core::cellAsDouble(row[*step]) : std::nullopt; v && !std::isnan(*v)) {
                s.stepTimeUs += *v;
                ++s.steps;
            }
            if (const auto v = overlap ? core::cellAsDouble(row[*overlap]) : std::nullopt;
                v && !std::isnan(*v)) {
                s.overlapPct += *v;
                ++s.overlaps;
            }
        }
        return stats;
    }

    QString flagText(JobRankModel::Flag flag)
    {
        switch (flag) {
        case JobRankModel::Flag::Straggler:
            return JobRankModel::tr("straggler");
        case JobRankModel::Flag::Skipped:
            return JobRankModel::tr("skipped");
        case JobRankModel::Flag::Failed:
            return JobRankModel::tr("failed");
        case JobRankModel::Flag::None:
            break;
        }
        return {};
    }

} // namespace

JobRankModel::JobRankModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void JobRankModel::setJob(std::shared_ptr<const core::JobOverview> job)
{
    beginResetModel();
    m_job = std::move(job);
    m_rows.assign(m_job ? m_job->ranks.size() : 0, Row {});
    if (m_job) {
        const auto stats = iterationStats(m_job->rankOverview);
        for (const std::size_t outlier : core::computeOutlierRows(m_job->profiles))
            m_rows[outlier].flag = Flag::Straggler;
        for (std::size_t r = 0; r < m_rows.size(); ++r) {
            Row& row = m_rows[r];
            const core::JobRank& rank = m_job->ranks[r];
            const auto bins = m_job->profiles.row(r);
            for (const core::KindShares& bin : bins) {
                row.busy += busyFraction(bin);
                row.compute += bin[0];
                row.communication += bin[1];
            }
            if (!bins.empty()) {
                const auto n = static_cast<double>(bins.size());
                row.busy /= n;
                row.compute /= n;
                row.communication /= n;
            }
            if (const auto it = stats.find(rank.rank); it != stats.end()) {
                const IterationStats& s = it->second;
                if (s.steps > 0)
                    row.stepTimeUs = s.stepTimeUs / s.steps;
                // HTA's overlap: the share of communication time compute ran beside;
                // the rest is exposed, the GPU waiting on the network.
                if (s.overlaps > 0)
                    row.exposedCommunication = row.communication * (1.0 - s.overlapPct / s.overlaps / 100.0);
            }
            if (rank.ok())
                row.peakMemory = m_job->memory.rankPeak(rank.rank);
            if (rank.status == "failed")
                row.flag = Flag::Failed;
            else if (rank.status == "skipped")
                row.flag = Flag::Skipped;
        }
    }
    endResetModel();
}

int JobRankModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_job ? 0 : static_cast<int>(m_job->ranks.size());
}

int JobRankModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant JobRankModel::display(const core::JobRank& rank, const Row& row, int column) const
{
    switch (column) {
    case RankColumn:
        return QString::number(rank.rank);
    case FlagColumn:
        return flagText(row.flag);
    case StepTimeColumn:
        return row.stepTimeUs ? formatDurationReal(*row.stepTimeUs * 1e3) : QString();
    case BusyColumn:
        return formatPercent(row.busy * 100);
    case ComputeColumn:
        return formatPercent(row.compute * 100);
    case ExposedCommunicationColumn:
        return formatPercent(row.exposedCommunication.value_or(row.communication) * 100);
    case EventsColumn:
        return formatCount(static_cast<std::uint64_t>(rank.events));
    case PeakMemoryColumn:
        return row.peakMemory ? formatBytes(static_cast<std::uint64_t>(*row.peakMemory)) : QString();
    case FileColumn:
        return displayName(QString::fromStdString(rank.file));
    default:
        return {};
    }
}

QVariant JobRankModel::sortValue(const core::JobRank& rank, const Row& row, int column) const
{
    switch (column) {
    case RankColumn:
        return QVariant::fromValue<qlonglong>(rank.rank);
    case FlagColumn:
        return static_cast<int>(row.flag);
    case StepTimeColumn:
        return row.stepTimeUs.value_or(-1);
    case BusyColumn:
        return row.busy;
    case ComputeColumn:
        return row.compute;
    case ExposedCommunicationColumn:
        return row.exposedCommunication.value_or(row.communication);
    case EventsColumn:
        return QVariant::fromValue<qlonglong>(rank.events);
    case PeakMemoryColumn:
        return QVariant::fromValue<qlonglong>(row.peakMemory.value_or(-1));
    case FileColumn:
        return QString::fromStdString(rank.file);
    default:
        return {};
    }
}

QVariant JobRankModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_job)
        return {};
    const auto r = static_cast<std::size_t>(index.row());
    const core::JobRank& rank = m_job->ranks[r];
    const Row& row = m_rows[r];
    switch (role) {
    case Qt::DisplayRole:
        return display(rank, row, index.column());
    case Qt::UserRole: // the view's sort role
        return sortValue(rank, row, index.column());
    case kRawTextRole:
        if (index.column() == PeakMemoryColumn && !row.peakMemory)
            return {};
        return index.column() == FileColumn || index.column() == FlagColumn
            ? display(rank, row, index.column())
            : sortValue(rank, row, index.column());
    case Qt::ToolTipRole:
        if (!rank.ok())
            return QString::fromStdString(rank.error);
        if (row.flag == Flag::Straggler)
            return tr(
                "Its GPU computed more than 1.5 times as long as the median rank's (the strip's red mark): "
                "the others wait for it at each collective");
        if (index.column() == ExposedCommunicationColumn && !row.exposedCommunication)
            return tr("All of its communication (no iterations to measure the overlap with compute)");
        return {};
    case Qt::TextAlignmentRole:
        return static_cast<int>(index.column() == FileColumn || index.column() == FlagColumn
                ? Qt::AlignLeft | Qt::AlignVCenter
                : Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (index.column() == FlagColumn && row.flag != Flag::None)
            return QColor(0xc6, 0x28, 0x28);
        return {};
    default:
        return {};
    }
}

QVariant JobRankModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == kNumberKindRole) {
        switch (section) {
        case RankColumn:
            return static_cast<int>(NumberKind::Identifier);
        case StepTimeColumn:
            return static_cast<int>(NumberKind::Duration);
        case EventsColumn:
            return static_cast<int>(NumberKind::Count);
        case PeakMemoryColumn:
            return static_cast<int>(NumberKind::Bytes);
        case FlagColumn:
        case FileColumn:
            return static_cast<int>(NumberKind::Text);
        default:
            return static_cast<int>(NumberKind::Percent);
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case StepTimeColumn:
            return tr("Mean ProfilerStep time of the rank");
        case BusyColumn:
            return tr("Share of the job's span (first to last event) its GPUs were busy; the Overview's GPU "
                      "busy is of the ProfilerSteps only");
        case ExposedCommunicationColumn:
            return tr("Share of the job's span spent in communication that compute did not hide");
        case PeakMemoryColumn:
            return tr("Peak memory allocated on the rank's GPU (its largest device; the CPU's without GPU "
                      "records), from the [memory] events; empty when the profile has none or the summary "
                      "predates memory");
        case FlagColumn:
            return tr("Straggler, failed or skipped; empty for an ordinary rank. Sort by it to see the "
                      "outliers first");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case RankColumn:
        return tr("Rank");
    case FlagColumn:
        return tr("Flag");
    case StepTimeColumn:
        return tr("Step time");
    case BusyColumn:
        return tr("GPU busy (span)");
    case ComputeColumn:
        return tr("Compute");
    case ExposedCommunicationColumn:
        return tr("Exposed comm.");
    case EventsColumn:
        return tr("Events");
    case PeakMemoryColumn:
        return tr("Peak memory");
    case FileColumn:
        return tr("File");
    default:
        return {};
    }
}

} // namespace ks::widgets
