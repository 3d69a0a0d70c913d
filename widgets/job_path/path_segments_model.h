#pragma once

#include "core/analysis/cross_rank/job_critical_path.h"

#include <QAbstractTableModel>

#include <memory>

namespace ks::widgets {

// The job path's segments in path order as a table (at, rank, bound, duration,
// op / kernel), read from the path itself: a path of a long trace has hundreds
// of thousands of segments, which as table items cost the GUI thread seconds
// and hundreds of MB (it ran out of memory there first under the app's budget).
// Numbers follow the one format policy (format.h), the raw value in kRawTextRole.
class PathSegmentsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        At,
        Rank,
        Bound,
        Duration,
        Name,
        ColumnCount
    };

    explicit PathSegmentsModel(QObject* parent = nullptr);

    // Null clears the table.
    void setPath(std::shared_ptr<const core::JobCriticalPath> job);

    const core::JobCriticalPath* path() const { return m_job.get(); }

    // The segment shown at `row`, or null.
    const core::PathSegment* segment(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::shared_ptr<const core::JobCriticalPath> m_job;
};

} // namespace ks::widgets
