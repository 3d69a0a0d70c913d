#pragma once

#include "core/analysis/tables/hta_result.h"
#include "widgets/diff/diff_classification.h"
#include "widgets/timeline/render/timeline_palette.h"

#include <QAbstractTableModel>

#include <memory>

namespace ks::widgets {

// D1: compareTraces' table as shown in the compare window: the core's columns
// in order (name, counts and total durations of each side, differences, HTA's
// '+'/'-'/'=') and a last "Status" column with the D3 class, tinted with the
// colour the timelines use for it.
class DiffTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    static constexpr int SortRole = Qt::UserRole + 1; // numbers as doubles
    static constexpr int ClassRole = Qt::UserRole + 2; // DiffClass as int, on every column
    static constexpr int NameRole = Qt::UserRole + 3; // the row's name, on every column

    explicit DiffTableModel(QObject* parent = nullptr);

    // `output` holds compareTraces' result; an output without a table clears the model.
    void setResult(std::shared_ptr<const core::AnalysisOutput> output, double tolerance);

    const core::Table* table() const { return m_table; }

    const DiffClassification& classification() const { return m_classes; }

    int statusColumn() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const core::AnalysisOutput> m_output;
    const core::Table* m_table = nullptr;
    DiffClassification m_classes;
    TimelinePalette m_palette;
};

} // namespace ks::widgets
