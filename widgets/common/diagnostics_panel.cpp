#include "widgets/common/diagnostics_panel.h"

#include "widgets/common/diagnostics_model.h"
#include "widgets/common/table_view_utils.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QStringList>
#include <QTableView>
#include <QVBoxLayout>

namespace ks::widgets {

namespace {

    QString plural(int n, const QString& one, const QString& many)
    {
        return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
    }

    QString countSummary(int errors, int warnings, int infos)
    {
        QStringList parts;
        if (errors > 0)
            parts.append(
                plural(errors, DiagnosticsPanel::tr("failed file"), DiagnosticsPanel::tr("failed files")));
        if (warnings > 0)
            parts.append(plural(
                warnings, DiagnosticsPanel::tr("kind of anomaly"), DiagnosticsPanel::tr("kinds of anomaly")));
        if (infos > 0)
            parts.append(plural(infos, DiagnosticsPanel::tr("note"), DiagnosticsPanel::tr("notes")));
        return parts.join(QStringLiteral(", "));
    }

} // namespace

DiagnosticsPanel::DiagnosticsPanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new DiagnosticsModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_filter(new QLineEdit(this))
    , m_summary(new QLabel(this))
    , m_stack(new QStackedWidget(this))
    , m_view(new QTableView(this))
    , m_empty(new QLabel(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(DiagnosticsModel::SortRole);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);

    m_filter->setPlaceholderText(tr("Filter diagnostics"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setObjectName(QStringLiteral("diagnosticsFilter"));
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);

    m_view->setObjectName(QStringLiteral("diagnosticsTable"));
    m_view->setModel(m_proxy);
    setupTableView(m_view);
    addCopyAction(m_view);
    m_view->sortByColumn(DiagnosticsModel::RankColumn, Qt::AscendingOrder);
    QHeaderView* header = m_view->horizontalHeader();
    header->setStretchLastSection(true);
    header->resizeSection(DiagnosticsModel::RankColumn, 60);
    header->resizeSection(DiagnosticsModel::FileColumn, 200);
    header->resizeSection(DiagnosticsModel::AnomalyColumn, 200);
    header->resizeSection(DiagnosticsModel::CountColumn, 80);

    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setForegroundRole(QPalette::PlaceholderText); // a placeholder, not content
    m_stack->addWidget(m_view);
    m_stack->addWidget(m_empty);

    m_summary->setObjectName(QStringLiteral("diagnosticsSummary"));
    auto* top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(m_filter);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_stack, 1);
    updateSummary();
}

void DiagnosticsPanel::setTraceSet(std::shared_ptr<const core::TraceSet> set)
{
    m_hasSet = set != nullptr;
    m_model->setTraceSet(std::move(set));
    updateSummary();
}

QString DiagnosticsPanel::summary() const
{
    return m_summary->text();
}

void DiagnosticsPanel::updateSummary()
{
    using Severity = DiagnosticsModel::Severity;
    const int errors = m_model->count(Severity::Error);
    const int warnings = m_model->count(Severity::Warning);
    const int infos = m_model->count(Severity::Info);
    QString text;
    if (!m_hasSet)
        text = tr("Nothing loaded");
    else if (errors + warnings + infos == 0)
        text = tr("Clean import");
    else
        text = countSummary(errors, warnings, infos);
    m_summary->setText(text);
    m_empty->setText(m_hasSet ? tr("No anomalies: every event was read and modelled.")
                              : tr("Open a trace to see what the importer found."));
    m_stack->setCurrentWidget(m_model->rowCount() > 0 ? static_cast<QWidget*>(m_view) : m_empty);
}

} // namespace ks::widgets
