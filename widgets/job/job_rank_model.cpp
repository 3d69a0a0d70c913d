#include "widgets/job/job_rank_model.h"

#include "widgets/common/format.h"
#include "widgets/job/strip_colors.h"

namespace ks::widgets {

JobRankModel::JobRankModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void JobRankModel::setJob(std::shared_ptr<const core::JobOverview> job)
{
    beginResetModel();
    m_job = std::move(job);
    m_busy.assign(m_job ? m_job->ranks.size() : 0, Busy {});
    for (std::size_t r = 0; r < m_busy.size(); ++r) {
        const auto bins = m_job->profiles.row(r);
        if (bins.empty())
            continue;
        for (const core::KindShares& bin : bins) {
            m_busy[r].any += busyFraction(bin);
            m_busy[r].compute += bin[0];
            m_busy[r].communication += bin[1];
        }
        const auto n = static_cast<double>(bins.size());
        m_busy[r] = { m_busy[r].any / n, m_busy[r].compute / n, m_busy[r].communication / n };
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

QVariant JobRankModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_job)
        return {};
    const auto row = static_cast<std::size_t>(index.row());
    const core::JobRank& rank = m_job->ranks[row];
    const Busy& busy = m_busy[row];
    const bool sort = role == Qt::UserRole;
    if (role == Qt::ToolTipRole && !rank.ok())
        return QString::fromStdString(rank.error);
    if (role == Qt::TextAlignmentRole)
        return static_cast<int>(index.column() == FileColumn || index.column() == StatusColumn
                ? Qt::AlignLeft | Qt::AlignVCenter
                : Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && !sort)
        return {};
    auto pct = [sort](double f) { return sort ? QVariant(f) : QVariant(QString::number(f * 100.0, 'f', 1)); };
    switch (index.column()) {
    case RankColumn:
        return QVariant::fromValue<qlonglong>(rank.rank);
    case StatusColumn:
        return QString::fromStdString(rank.status);
    case BusyColumn:
        return pct(busy.any);
    case ComputeColumn:
        return pct(busy.compute);
    case CommunicationColumn:
        return pct(busy.communication);
    case EventsColumn:
        return sort ? QVariant::fromValue<qlonglong>(rank.events)
                    : QVariant(formatCount(static_cast<std::uint64_t>(rank.events)));
    case FileColumn:
        return displayName(QString::fromStdString(rank.file));
    default:
        return {};
    }
}

QVariant JobRankModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case RankColumn:
        return tr("Rank");
    case StatusColumn:
        return tr("Status");
    case BusyColumn:
        return tr("GPU busy %");
    case ComputeColumn:
        return tr("Compute %");
    case CommunicationColumn:
        return tr("Communication %");
    case EventsColumn:
        return tr("Events");
    case FileColumn:
        return tr("File");
    default:
        return {};
    }
}

} // namespace ks::widgets
