#include "widgets/job_path/path_segments_model.h"

#include "widgets/common/format.h"

namespace ks::widgets {

PathSegmentsModel::PathSegmentsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void PathSegmentsModel::setPath(std::shared_ptr<const core::JobCriticalPath> job)
{
    beginResetModel();
    m_job = std::move(job);
    endResetModel();
}

const core::PathSegment* PathSegmentsModel::segment(int row) const
{
    if (!m_job || row < 0 || static_cast<std::size_t>(row) >= m_job->path.segments.size())
        return nullptr;
    return &m_job->path.segments[static_cast<std::size_t>(row)];
}

int PathSegmentsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_job ? 0 : static_cast<int>(m_job->path.segments.size());
}

int PathSegmentsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PathSegmentsModel::data(const QModelIndex& index, int role) const
{
    const core::PathSegment* s = segment(index.row());
    if (!s)
        return {};
    const auto column = static_cast<Column>(index.column());
    const bool duration = column == At || column == Duration;
    const core::TimeNs ns = column == At ? s->pathOffset : s->piece.duration;
    const auto raw = [ns] { return QString::number(static_cast<double>(ns) / 1e6, 'f', 6); };
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case At:
        case Duration:
            return formatDuration(ns);
        case Rank:
            return QString::number(s->rank);
        case Bound: {
            const std::string_view bound = core::pathBoundName(s->piece.bound);
            return QString::fromUtf8(bound.data(), static_cast<qsizetype>(bound.size()));
        }
        case Name:
            return QString::fromStdString(s->piece.name.str());
        case ColumnCount:
            break;
        }
        return {};
    case kRawTextRole:
        return duration ? QVariant(raw()) : data(index, Qt::DisplayRole);
    case Qt::ToolTipRole:
        return duration      ? QVariant(tr("%1 ms").arg(raw()))
            : column == Name ? data(index, Qt::DisplayRole)
                             : QVariant();
    case Qt::TextAlignmentRole:
        return column == Bound || column == Name ? QVariant()
                                                 : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    default:
        return {};
    }
}

QVariant PathSegmentsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (static_cast<Column>(section)) {
    case At:
        return tr("At");
    case Rank:
        return tr("Rank");
    case Bound:
        return tr("Bound");
    case Duration:
        return tr("Duration");
    case Name:
        return tr("Op / kernel");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace ks::widgets
