#pragma once

#include "core/summary/job_overview.h"

#include <QAbstractTableModel>

#include <memory>
#include <optional>
#include <vector>

namespace ks::widgets {

// Job mode's rank list, from the summary: one row per file of the job (the
// rows of JobOverview::ranks), with what a user sorts by: the
// mean step time (X1's iterations), GPU busy, compute and exposed communication
// as shares of the job's span, the peak memory (the largest GPU peak allocated of the
// rank's [memory] events, as the summary stores it; empty without them), and a flag — "straggler" (compute
// more than 1.5× the median rank's: computeOutlierRows, the strips' red mark), "failed", "skipped" — that is
// empty for an ordinary rank. Sorted by the flag, outliers come first. Cells follow the number policy of
// format.h (kRawTextRole, kNumberKindRole).
class JobRankModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        RankColumn,
        FlagColumn,
        StepTimeColumn,
        BusyColumn,
        ComputeColumn,
        ExposedCommunicationColumn,
        EventsColumn,
        PeakMemoryColumn,
        FileColumn,
        ColumnCount
    };

    // What the flag column sorts by: the larger, the more a rank needs a look.
    enum class Flag
    {
        None,
        Straggler,
        Skipped,
        Failed,
    };

    explicit JobRankModel(QObject* parent = nullptr);

    void setJob(std::shared_ptr<const core::JobOverview> job);

    Flag flag(int row) const { return m_rows[static_cast<std::size_t>(row)].flag; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        double busy = 0, compute = 0, communication = 0; // fractions of the job's span
        std::optional<double> exposedCommunication; // fraction; communication not hidden by compute
        std::optional<double> stepTimeUs; // mean over the rank's iterations
        std::optional<std::int64_t> peakMemory; // bytes (SummaryMemory::rankPeak)
        Flag flag = Flag::None;
    };

    QVariant display(const core::JobRank& rank, const Row& row, int column) const;
    QVariant sortValue(const core::JobRank& rank, const Row& row, int column) const;

    std::shared_ptr<const core::JobOverview> m_job;
    std::vector<Row> m_rows;
};

} // namespace ks::widgets
