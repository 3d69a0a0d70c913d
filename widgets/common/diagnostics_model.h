#pragma once

#include "core/model/trace_set.h"

#include <QAbstractTableModel>
#include <QList>

#include <memory>

namespace ks::widgets {

// The "Import diagnostics" list: every anomaly the reader counted, per rank, with
// its count and first example; job-level findings (duplicate ranks, skipped files,
// clock skew); notes; and files that failed to load. Nothing the core reports is
// left out, so a user can trust that an empty list means a clean import.
class DiagnosticsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        RankColumn,
        FileColumn,
        AnomalyColumn,
        CountColumn,
        ExampleColumn,
        ColumnCount
    };

    enum class Severity
    {
        Info,
        Warning,
        Error
    };

    enum Role
    {
        SortRole = Qt::UserRole + 1, // raw value for sorting
        SeverityRole, // int(Severity)
        KindRole, // the anomaly's stable name ("overlapping-slices", "load-error", "note")
    };

    explicit DiagnosticsModel(QObject* parent = nullptr);

    void setTraceSet(std::shared_ptr<const core::TraceSet> set);

    // Rows by severity, for the panel's title and the summary line.
    int count(Severity severity) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        Severity severity = Severity::Warning;
        bool hasRank = false;
        qint64 rank = 0;
        QString file; // full path, empty for job-level rows
        QString kind; // stable name
        QString description;
        quint64 count = 0; // 0 for notes and failures
        QString example;
    };

    void addDiagnostics(const core::Diagnostics& diagnostics, const core::RankTrace* rank);
    QVariant displayData(const Row& row, int column) const;
    QVariant sortData(const Row& row, int column) const;
    QVariant toolTip(const Row& row, int column) const;

    std::shared_ptr<const core::TraceSet> m_set;
    QList<Row> m_rows;
};

} // namespace ks::widgets
