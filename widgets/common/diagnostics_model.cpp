#include "widgets/common/diagnostics_model.h"

#include "widgets/common/format.h"

#include <QApplication>
#include <QDir>
#include <QLocale>
#include <QStyle>

#include <algorithm>

namespace ks::widgets {

namespace {

    // Findings that describe how the input was read rather than something wrong with it.
    bool isInformational(core::DiagnosticKind kind)
    {
        return kind == core::DiagnosticKind::RankFromFileName || kind == core::DiagnosticKind::RankFromOrder
            || kind == core::DiagnosticKind::SkippedFile;
    }

    QStyle::StandardPixmap severityPixmap(DiagnosticsModel::Severity severity)
    {
        switch (severity) {
        case DiagnosticsModel::Severity::Info:
            return QStyle::SP_MessageBoxInformation;
        case DiagnosticsModel::Severity::Warning:
            return QStyle::SP_MessageBoxWarning;
        case DiagnosticsModel::Severity::Error:
            return QStyle::SP_MessageBoxCritical;
        }
        return QStyle::SP_MessageBoxWarning;
    }

} // namespace

DiagnosticsModel::DiagnosticsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void DiagnosticsModel::setTraceSet(std::shared_ptr<const core::TraceSet> set)
{
    beginResetModel();
    m_set = std::move(set);
    m_rows.clear();
    if (m_set) {
        for (const core::Error& failure : m_set->failures) {
            Row row;
            row.severity = Severity::Error;
            row.file = QString::fromStdString(failure.path);
            row.kind = QStringLiteral("load-error");
            row.description = tr("The file could not be loaded");
            // The File column names the file; the example is what is wrong with it.
            core::Error withoutPath = failure;
            withoutPath.path.clear();
            row.example = QString::fromStdString(withoutPath.describe());
            m_rows.append(row);
        }
        addDiagnostics(m_set->folderDiagnostics, nullptr);
        for (const auto& rank : m_set->ranks)
            addDiagnostics(rank->diagnostics, rank.get());
        for (const std::string& note : m_set->notes) {
            Row row;
            row.severity = Severity::Info;
            row.kind = QStringLiteral("note");
            row.description = tr("A note from the loader");
            row.example = QString::fromStdString(note);
            m_rows.append(row);
        }
    }
    endResetModel();
}

void DiagnosticsModel::addDiagnostics(const core::Diagnostics& diagnostics, const core::RankTrace* rank)
{
    for (std::size_t i = 0; i < core::kDiagnosticKindCount; ++i) {
        const auto kind = static_cast<core::DiagnosticKind>(i);
        const core::Diagnostics::Entry& entry = diagnostics.entry(kind);
        if (entry.count == 0)
            continue;
        Row row;
        row.severity = isInformational(kind) ? Severity::Info : Severity::Warning;
        row.hasRank = rank != nullptr;
        row.rank = rank ? rank->rank : 0;
        row.file = rank ? QString::fromStdString(rank->path) : QString();
        row.kind = toQString(core::diagnosticName(kind));
        row.description = toQString(core::diagnosticDescription(kind));
        row.count = entry.count;
        row.example = QString::fromStdString(entry.example);
        if (entry.exampleEventIndex >= 0)
            row.example = tr("traceEvents[%1]: %2").arg(entry.exampleEventIndex).arg(row.example);
        m_rows.append(row);
    }
}

int DiagnosticsModel::count(Severity severity) const
{
    return static_cast<int>(std::count_if(
        m_rows.cbegin(), m_rows.cend(), [severity](const Row& row) { return row.severity == severity; }));
}

int DiagnosticsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int DiagnosticsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DiagnosticsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        return displayData(row, index.column());
    case SortRole:
        return sortData(row, index.column());
    case Qt::ToolTipRole:
        return toolTip(row, index.column());
    case Qt::DecorationRole:
        if (index.column() == AnomalyColumn)
            return QApplication::style()->standardIcon(severityPixmap(row.severity));
        return {};
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::Alignment(
            (index.column() == CountColumn || index.column() == RankColumn ? Qt::AlignRight : Qt::AlignLeft)
            | Qt::AlignVCenter));
    case SeverityRole:
        return static_cast<int>(row.severity);
    case KindRole:
        return row.kind;
    default:
        return {};
    }
}

QVariant DiagnosticsModel::displayData(const Row& row, int column) const
{
    switch (column) {
    case RankColumn:
        if (row.hasRank)
            return QLocale().toString(row.rank);
        return row.severity == Severity::Error ? QStringLiteral("—") : tr("job");
    case FileColumn:
        return row.file.isEmpty() ? QString() : displayName(row.file);
    case AnomalyColumn:
        return row.kind;
    case CountColumn:
        return row.count > 0 ? formatCount(row.count) : QString();
    case ExampleColumn:
        // One line in the table; the tooltip has it all.
        return row.example.left(300).replace(QChar(u'\n'), QChar(u' '));
    default:
        return {};
    }
}

QVariant DiagnosticsModel::sortData(const Row& row, int column) const
{
    switch (column) {
    case RankColumn:
        return row.hasRank ? QVariant::fromValue(row.rank) : QVariant::fromValue(qint64(-1));
    case CountColumn:
        return QVariant::fromValue(row.count);
    default:
        return displayData(row, column);
    }
}

QVariant DiagnosticsModel::toolTip(const Row& row, int column) const
{
    switch (column) {
    case FileColumn:
        return QDir::toNativeSeparators(row.file);
    case AnomalyColumn:
        return row.description;
    case ExampleColumn:
        return row.example.size() > 2000 ? row.example.left(2000) + QStringLiteral("…") : row.example;
    default:
        return {};
    }
}

QVariant DiagnosticsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::TextAlignmentRole)
        return QVariant::fromValue(
            Qt::Alignment((section == CountColumn || section == RankColumn ? Qt::AlignRight : Qt::AlignLeft)
                | Qt::AlignVCenter));
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case RankColumn:
        return tr("Rank");
    case FileColumn:
        return tr("File");
    case AnomalyColumn:
        return tr("Anomaly");
    case CountColumn:
        return tr("Count");
    case ExampleColumn:
        return tr("First example");
    default:
        return {};
    }
}

} // namespace ks::widgets
