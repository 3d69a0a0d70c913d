#pragma once

#include "core/model/trace_set.h"

#include <QWidget>

#include <memory>

class QLabel;
class QSortFilterProxyModel;
class QSplitter;
class QTableView;
class QTreeWidget;

namespace ks::widgets {

class CategoryCountsModel;
class RankSummaryModel;

// The central view of the foundation milestone: what was opened, at a glance.
// A title line, a table with one row per rank (and per failed file), and below it,
// side by side, the event categories and the file metadata of the selected ranks
// (all ranks when none is selected).
class TraceSetSummaryView : public QWidget
{
    Q_OBJECT

public:
    explicit TraceSetSummaryView(QWidget* parent = nullptr);

    // title: what the user opened ("two_ranks_sampled"); shown above the table.
    void setTraceSet(std::shared_ptr<const core::TraceSet> set, const QString& title);

    RankSummaryModel* rankModel() const { return m_rankModel; }

    CategoryCountsModel* categoryModel() const { return m_categoryModel; }

    QTableView* rankView() const { return m_rankView; }

    QSplitter* splitter() const { return m_splitter; }

    QString subtitle() const;

protected:
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void setupRankTable();
    QWidget* titled(const QString& title, QWidget* content, QLabel** label = nullptr);
    void fitRankTable();
    void updateSpans();
    void setupDetails();
    void updateSubtitle(const QString& title);
    void updateDetails();
    void fillMetadata(const core::RankTrace& rank);

    std::shared_ptr<const core::TraceSet> m_set;
    RankSummaryModel* m_rankModel = nullptr;
    QSortFilterProxyModel* m_rankProxy = nullptr;
    CategoryCountsModel* m_categoryModel = nullptr;
    QSortFilterProxyModel* m_categoryProxy = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_subtitle = nullptr;
    QSplitter* m_splitter = nullptr;
    QTableView* m_rankView = nullptr;
    QSplitter* m_detailsSplitter = nullptr;
    QLabel* m_categoryTitle = nullptr;
    QLabel* m_metadataTitle = nullptr;
    bool m_userSizedSplitter = false;
    QTableView* m_categoryView = nullptr;
    QTreeWidget* m_metadata = nullptr;
};

} // namespace ks::widgets
