#pragma once

#include "widgets/timeline/model/timeline_types.h"

#include <QAbstractTableModel>
#include <QWidget>

#include <memory>

class QLabel;
class QTableView;

namespace ks::widgets {

class SearchResults;
class TimelineData;

// T6: the matches of a search, one row per slice in time order. Rows are made
// on demand, so a search with millions of matches lists them all.
class SearchResultsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        StartColumn,
        NameColumn,
        RankColumn,
        TrackColumn,
        DurationColumn,
        ColumnCount
    };

    using QAbstractTableModel::QAbstractTableModel;

    void setResults(std::shared_ptr<const TimelineData> data, std::shared_ptr<const SearchResults> results,
        const Alignment& alignment);
    SliceRef sliceAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const TimelineData> m_data;
    std::shared_ptr<const SearchResults> m_results;
    Alignment m_alignment = Alignment::AsRecorded;
};

class SearchResultsPanel : public QWidget
{
    Q_OBJECT

public:
    explicit SearchResultsPanel(QWidget* parent = nullptr);

    void setResults(std::shared_ptr<const TimelineData> data, std::shared_ptr<const SearchResults> results,
        const Alignment& alignment);
    // Highlights the row of a slice when it is a match.
    void setCurrentSlice(SliceRef ref);

    SearchResultsModel* model() const { return m_model; }

    QTableView* view() const { return m_view; }

signals:
    void sliceActivated(ks::widgets::SliceRef ref);

private:
    SearchResultsModel* m_model = nullptr;
    QTableView* m_view = nullptr;
    QLabel* m_summary = nullptr;
    std::shared_ptr<const TimelineData> m_data;
    std::shared_ptr<const SearchResults> m_results;
};

} // namespace ks::widgets
