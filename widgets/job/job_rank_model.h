#pragma once

#include "core/summary/job_overview.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace ks::widgets {

// Job mode's rank list, from the summary: one row per file of the job (the
// rows of JobOverview::ranks, in that order), with how busy its GPUs were.
class JobRankModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        RankColumn,
        StatusColumn,
        BusyColumn,
        ComputeColumn,
        CommunicationColumn,
        EventsColumn,
        FileColumn,
        ColumnCount
    };

    explicit JobRankModel(QObject* parent = nullptr);

    void setJob(std::shared_ptr<const core::JobOverview> job);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Busy
    {
        double any = 0, compute = 0, communication = 0; // fractions of the job's span
    };

    std::shared_ptr<const core::JobOverview> m_job;
    std::vector<Busy> m_busy;
};

} // namespace ks::widgets
