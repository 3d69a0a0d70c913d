#pragma once

#include "widgets/common/task_tracker.h"
#include "widgets/timeline/model/range_aggregation.h"

#include <QAbstractTableModel>
#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class QTimer;

namespace ks::widgets {

class TimelineData;
class TimelineViewState;

// The rows of a RangeAggregate: name, track kind, count, total, in range, mean, max.
class RangeAggregationModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        NameColumn,
        KindColumn,
        CountColumn,
        TotalColumn,
        InRangeColumn,
        MeanColumn,
        MaxColumn,
        ColumnCount
    };

    static constexpr int SortRole = Qt::UserRole + 1;

    using QAbstractTableModel::QAbstractTableModel;

    void setAggregate(RangeAggregate aggregate);

    const RangeAggregate& aggregate() const { return m_aggregate; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    RangeAggregate m_aggregate;
};

// T5: drag a time range on the timeline (Shift+drag, or drag on the ruler) and
// this panel lists what lies inside, by name and track kind. Computed off the
// GUI thread; a newer range drops an older result.
class RangeAggregationPanel : public QWidget
{
    Q_OBJECT

public:
    RangeAggregationPanel(TimelineViewState* state, TaskPools* pools, QWidget* parent = nullptr);

    void setData(std::shared_ptr<const TimelineData> data);

    RangeAggregationModel* model() const { return m_model; }

    QTableView* view() const { return m_view; }

    // Computes now, on this thread (tests).
    void recomputeNow();

private:
    void schedule();
    std::function<bool(TrackKey)> includeFilter() const;
    void apply(RangeAggregate aggregate);

    TimelineViewState* m_state = nullptr;
    std::shared_ptr<const TimelineData> m_data;
    RangeAggregationModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_view = nullptr;
    QLabel* m_summary = nullptr;
    QLineEdit* m_filter = nullptr;
    QTimer* m_debounce = nullptr;
    TaskTracker m_tasks;
};

} // namespace ks::widgets
